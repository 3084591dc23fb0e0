"""`convert-stablehlo-to-xla`: StableHLO (as JAX prints it) to the `xla` dialect.
Every `stablehlo` op with an xla counterpart becomes that op: one rewrite pattern per
op (a rule wrapped in an `OpRule`), one module per op family exporting its `PATTERNS`;
ops that are a table (element-wise ops, chlo's broadcasting binary ops) are one
pattern parameterized by the table. The patterns run in one walk, inner regions
first; each new op takes the location of the op it replaces. What JAX emits besides plain StableHLO is
handled too:

* `chlo` ops are decomposed into xla ops (top_k via sort + slice; erf, erf_inv, lgamma,
  digamma, bessel_i1e, zeta and polygamma by the polynomial, Lanczos, Chebyshev and
  Euler-Maclaurin approximations of XLA's math library; tan,
  sinh, cosh, asin, acos, atan, asinh, acosh, atanh through exp, log, atan2; is_inf;
  next_after by bit arithmetic);
* the LAPACK custom calls of JAX's CPU lowering (`lapack_?potrf_ffi` -> xla.cholesky,
  `lapack_?trsm_ffi` -> xla.triangular_solve, their `info` results zeros; getrf,
  geqrf, orgqr/ungqr, syevd/heevd, gesdd and geev -> calls of xla programs built
  on import, lapack.py);
* `ApproxTopK` (lax.approx_max_k/min_k) as the exact top-k (chlo.py); JAX's host
  callbacks (jax.debug.print, pure_callback, io_callback) dropped with a warning when
  their results go unused, else an error (their Python runs in JAX's process);
* shardings (`sharding.py`): a sharded program (several devices) keeps them in the
  `sdy` dialect, GSPMD's `mhlo.sharding` strings and shard_map regions turned into
  Shardy's meshes, shardings and `sdy.manual_computation`s; a program on one device
  drops them; `func.call` becomes `xla.call`;
* regions: stablehlo regions already take rank-0 tensors, as xla's do. stablehlo.while
  and stablehlo.case/if bodies may use values defined above them, but the xla ops are
  isolated from above: a while carries the captured values as extra state, and a
  conditional branch receives them as its operand (one value directly, several packed
  in an `xla.tuple` and unpacked with `xla.get_tuple_element`).

Attributes with no meaning here (module `mhlo.*` but a sharded program's
`mhlo.num_partitions` and `mhlo.num_replicas`, argument/result attributes such as
`jax.result_info` and `mhlo.layout_mode`; only `sdy.sharding` stays) are dropped. Any
other op is an error naming the op, at its location.
"""

from __future__ import annotations


from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xla_opt.dialects.stablehlo.ops import ShloOp
from xla_opt.dialects.xla.computation import ReturnOp as XlaReturnOp
from xla_opt.dialects.xla.control_flow import referenced_symbols
from xla_opt.passes.conversions import OP_FAMILIES, family_modules

from .common import MalformedAttribute, StablehloConversionError, convert_type, fail
from .sharding import KEPT_MODULE_ATTRIBUTES, KEPT_OPS, SHARDING, prepare_shardings
from .tokens import strip_jax_tokens

# the rules, one module per op family, each exporting its PATTERNS
FAMILY_MODULES = family_modules(__name__, (*OP_FAMILIES, "chlo", "sharding"))

# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------

FOREIGN_PREFIXES = ("stablehlo.", "chlo.", "sdy.", "mhlo.")


class UnknownOps(RewritePattern):
    """Tried last: a stablehlo/chlo/sdy/mhlo op no pattern converted has no xla
    counterpart (a located error), but for the sdy ops a sharded program keeps; any
    other op keeps its place, its block arguments retyped (`!stablehlo.token` ->
    `!xla.token`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ShloOp) or op.name.startswith(FOREIGN_PREFIXES) and op.name not in KEPT_OPS:
            fail(op, f"'{op.name}' has no xla counterpart (convert-stablehlo-to-xla does not support it)")
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    try:
                        new_type = convert_type(arg.type)
                    except MalformedAttribute as e:
                        fail(op, f"malformed type: {e}")
                    if new_type != arg.type:
                        rewriter.replace_value_with_new_type(arg, new_type)


PATTERNS: list[RewritePattern] = [
    *(p for m in FAMILY_MODULES for p in m.PATTERNS),
    UnknownOps(),
]

_DROPPED_FUNC_ATTRS = ("arg_attrs", "res_attrs")


def _convert_signature(f: func.FuncOp, sharded: bool) -> None:
    """The function type in xla's types; of the argument and result attributes only
    a sharded program's shardings stay; JAX's effect tokens go (tokens.py)."""
    strip_jax_tokens(f)
    for name in _DROPPED_FUNC_ATTRS:
        table = f.properties.pop(name, None) or f.attributes.pop(name, None)
        entries = [
            {SHARDING: d.data[SHARDING]} if sharded and SHARDING in d.data else {}  # type: ignore[attr-defined]
            for d in (table.data if isinstance(table, ArrayAttr) else ())
        ]
        if any(entries):
            f.properties[name] = ArrayAttr([DictionaryAttr(e) for e in entries])
    for name in list(f.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.")):
            del f.attributes[name]
    ft = f.function_type
    inputs = [convert_type(t) for t in ft.inputs.data]
    outputs = [convert_type(t) for t in ft.outputs.data]
    if inputs != list(ft.inputs.data) or outputs != list(ft.outputs.data):
        f.function_type = FunctionType.from_lists(inputs, outputs)


def convert_module(ctx: Context | None, module: ModuleOp) -> None:
    """Convert every stablehlo/chlo/sdy op of `module` to xla ops, in place. Raises
    StablehloConversionError (a located DiagnosticError and a PassFailedException)."""
    sharded = prepare_shardings(module)
    for name in list(module.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.", "stablehlo.")):
            if not (sharded and name in KEPT_MODULE_ATTRIBUTES):
                del module.attributes[name]
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp):
            try:
                _convert_signature(op, sharded)
            except MalformedAttribute as e:  # a type with no xla form, at its function
                fail(op, f"malformed type: {e}")
    # inner regions first: a while's body is xla before the while itself is converted
    # (its rule moves the converted regions into the xla op); one walk, the new ops
    # are xla already.
    PatternRewriteWalker(
        GreedyRewritePatternApplier(PATTERNS, dce_enabled=False),
        walk_regions_first=True,
        apply_recursively=False,
    ).rewrite_module(module)
    drop_unused_computations(module)


def drop_unused_computations(module: ModuleOp) -> None:
    """A function that ends in a stablehlo.return (now xla.return) is a computation a
    custom call named in its `called_computations` (ApproxTopK's comparator); once the
    call is converted nothing names it, and no backend runs a function with no
    func.return: it goes."""
    used = referenced_symbols(module)
    for op in list(module.body.block.ops):
        if isinstance(op, func.FuncOp) and op.sym_name.data not in used and op.body.blocks:
            last = op.body.blocks[-1].last_op
            if isinstance(last, XlaReturnOp):
                op.detach()
                op.erase()


class ConvertStablehloToXlaPass(ModulePass):
    """StableHLO/CHLO (as JAX prints them) to the xla dialect."""

    name = "convert-stablehlo-to-xla"
    input_dialects = ("chlo", "func", "sdy", "stablehlo")
    output_dialects = ("sdy", "xla")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(ctx, op)


__all__ = ["PATTERNS", "ConvertStablehloToXlaPass", "StablehloConversionError", "convert_module", "drop_unused_computations"]
