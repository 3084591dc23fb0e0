"""Patches to xDSL's translation of the llvm dialect to LLVM IR (`xdsl.backend.llvm`),
applied when that translation is imported: importing it (and the llvm dialect) at
install would cost every xla-opt start-up ~0.15 s."""

from __future__ import annotations

from types import ModuleType

from xdsl.dialects.builtin import ArrayAttr, StringAttr

from xla_opt.xdsl_patches.patch import Changes, Patch

# --------------------------------------------------------------------------------------
# LLVM IR translation of the extra casts
# --------------------------------------------------------------------------------------


def _install_llvm_casts(changes: Changes) -> None:
    def add_cast_names(convert_op: ModuleType) -> None:
        from xla_opt.dialects.llvm_casts import FPToSIOp, FPToUIOp, UIToFPOp

        changes.update(
            convert_op._CAST_OP_NAMES,  # noqa: SLF001 - extending xDSL's table
            {UIToFPOp: "uitofp", FPToSIOp: "fptosi", FPToUIOp: "fptoui"},
        )

    changes.when_imported("xdsl.backend.llvm.convert_op", add_cast_names)


LLVM_CASTS = Patch(
    name="llvm-casts",
    reason="""
    (6) The llvm dialect lacks `llvm.uitofp`, `llvm.fptosi` and `llvm.fptoui`
    (`xla_opt.dialects.llvm_casts` defines them); the LLVM IR translation learns their
    opcodes.
    """,
    upstream="""
    not reported (the ops are ours; upstream, they belong in xdsl/dialects/llvm.py and
    the table _CAST_OP_NAMES of xdsl/backend/llvm/convert_op.py)
    """,
    apply=_install_llvm_casts,
)

# --------------------------------------------------------------------------------------
# the LLVM IR translation keeps a function's linkage and passthrough attributes
# --------------------------------------------------------------------------------------


def _install_llvm_function_attributes(changes: Changes) -> None:
    def keep_function_attributes(convert: ModuleType) -> None:
        declare = convert._declare_func  # noqa: SLF001 - wrapping xDSL's translation

        def declare_with_attributes(op, llvm_module):  # type: ignore[no-untyped-def]
            declare(op, llvm_module)
            fn = llvm_module.get_global(op.sym_name.data)
            if op.body.blocks and op.linkage.linkage.data != "external":
                fn.linkage = op.linkage.linkage.data  # a declaration stays external
            passthrough = op.passthrough if op.passthrough is not None else op.attributes.get("passthrough")
            for attr in passthrough.data if isinstance(passthrough, ArrayAttr) else ():
                if isinstance(attr, StringAttr):
                    fn.attributes.add(attr.data)

        changes.replace(convert, "_declare_func", declare_with_attributes)

    changes.when_imported("xdsl.backend.llvm.convert", keep_function_attributes)


LLVM_FUNCTION_ATTRIBUTES = Patch(
    name="llvm-function-attributes",
    reason="""
    (15) The LLVM IR translation declares every `llvm.func` with external linkage and no
    function attributes: a function's `linkage` (`internal`, `private`...) and its
    `passthrough` attributes (`["alwaysinline"]`) are dropped, as MLIR's translation
    keeps them. convert-to-llvm defines f32 `exp`/`tanh` once per module as internal
    `alwaysinline` functions (LLVM inlines each call before vectorizing the loop
    around it; without the attribute the definition is also an exported symbol) and
    outlined kernels `noinline`. Passthrough attributes are read from the property or,
    as xDSL's llvm.func parser leaves them, from the attribute dictionary (so
    `xla-opt -p xla-to-llvm | xla-opt -t llvm` keeps them).
    """,
    upstream="upstream candidate: xdsl/backend/llvm/convert.py (_declare_func); not reported",
    apply=_install_llvm_function_attributes,
)

PATCHES = (LLVM_CASTS, LLVM_FUNCTION_ATTRIBUTES)
