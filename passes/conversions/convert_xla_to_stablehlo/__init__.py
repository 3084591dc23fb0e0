"""`convert-xla-to-stablehlo`: an xla program as StableHLO ops (the IRDL ops of
`xla_opt.dialects.stablehlo`, with StableHLO's attributes), one rewrite pattern per xla
op, one module per op family exporting its `PATTERNS`; ops that are a table (unary and
binary element-wise ops, ops with the same properties under another name) are one
pattern parameterized by the table. `xla-opt -t stablehlo` and `to_stablehlo_text` are
this pass and printing (`StablehloPrinter`: the generic form, numbers exactly), text
JAX's MLIR parser accepts and XLA compiles.

Where the two dialects differ, the pass spells the xla op out in StableHLO:

* binary element-wise ops with XLA broadcasting (scalars, `broadcast_dimensions`,
  degenerate dimensions) get explicit `stablehlo.broadcast_in_dim` operands;
* `xla.broadcast` is a broadcast_in_dim, `xla.collapse` a reshape, and a reshape with
  `dimensions` (a collapse order) a transpose then a reshape; `xla.dot` a dot_general;
* `xla.conditional` becomes `stablehlo.if` (PRED index) or `stablehlo.case` (S32
  index): StableHLO's branches take no arguments, so each branch's parameter is
  replaced by its branch operand; `xla.call` becomes `func.call`;
* StableHLO's while/if/case carry no tuples: tuple state and results travel as leaves;
* `xla.rng_uniform`/`xla.rng_normal` become `stablehlo.rng` with a constant shape;
* `!xla.token` is `!stablehlo.token`.

A sharded program (`sharding.py`) keeps its `sdy` mesh, shardings and manual
computations, printed as Shardy prints them, and its `mhlo.num_partitions`; its
collectives are cross-partition ones (`collectives.py`). Ops that have no meaning in a
single-device StableHLO program (infeed, outfeed, send, recv, the replica collectives,
set_dimension_size) are a located error naming the op (`StableHLOExportError` from
the Python API).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import Rewriter
from xdsl.utils.target import Target
from xla_opt.dialects import xla
from xla_opt.passes.conversions import OP_FAMILIES, family_modules

from .common import StableHLOExportError, export_diagnostic, export_type
from .printer import StablehloPrinter
from .sharding import MODULE_LEVEL_OPS, declared_partitions

# the patterns, one module per op family, each exporting its PATTERNS
FAMILY_MODULES = family_modules(__name__, (*OP_FAMILIES, "sharding"))

# what XLA expects of a single-device program (a sharded one keeps its own counts)
MODULE_ATTRIBUTES = {"mhlo.num_partitions": IntegerAttr(1, i32), "mhlo.num_replicas": IntegerAttr(1, i32)}


class NoExport(RewritePattern):
    """Tried last: an xla op no pattern converted has no StableHLO export."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name.startswith("xla."):
            raise StableHLOExportError(f"'{op.name}' has no StableHLO export", op)


PATTERNS: list[RewritePattern] = [*(p for m in FAMILY_MODULES for p in m.PATTERNS), NoExport()]


def _retype_block_args(module: ModuleOp) -> None:
    """Block arguments of StableHLO types (`!xla.token` -> `!stablehlo.token`)."""
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    if (t := export_type(arg.type)) != arg.type:
                        Rewriter.replace_value_with_new_type(arg, t)


def convert_module(module: ModuleOp) -> None:
    """Convert every xla op of `module` to StableHLO, in place. Raises
    StableHLOExportError (with `.op`) for anything StableHLO cannot express on a
    single device."""
    for op in module.ops:
        if isinstance(op, MODULE_LEVEL_OPS):
            continue
        if not isinstance(op, func.FuncOp):
            raise StableHLOExportError(f"'{op.name}' at module level has no StableHLO export", op)
        try:
            ft = op.function_type
            op.function_type = FunctionType.from_lists(
                [export_type(t) for t in ft.inputs.data], [export_type(t) for t in ft.outputs.data]
            )
        except StableHLOExportError as e:
            e.op = op
            raise
    _retype_block_args(module)
    declared_partitions(module)
    for name, value in MODULE_ATTRIBUTES.items():
        module.attributes.setdefault(name, value)
    # inner regions first: a reduce's computation is StableHLO before it moves into
    # the stablehlo.reduce; one walk, the new ops are StableHLO already.
    PatternRewriteWalker(
        GreedyRewritePatternApplier(PATTERNS, dce_enabled=False),
        walk_regions_first=True,
        apply_recursively=False,
    ).rewrite_module(module)


@dataclass(frozen=True)
class ConvertXlaToStablehloPass(ModulePass):
    """xla ops to StableHLO ops (`xla-opt f.mlir -p convert-xla-to-stablehlo`)."""

    name = "convert-xla-to-stablehlo"
    input_dialects = ("xla",)
    output_dialects = ("func", "stablehlo")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            convert_module(op)
        except StableHLOExportError as err:
            raise export_diagnostic(err) from None


# --------------------------------------------------------------------------------------
# Text: the functions to export, the pass, printing
# --------------------------------------------------------------------------------------


def _reachable(functions: dict[str, func.FuncOp], entry: str) -> list[str]:
    """`entry` and every function it calls, directly or not (in module order)."""
    seen, todo = {entry}, [entry]
    while todo:
        f = functions[todo.pop()]
        for op in f.walk():
            callee = getattr(op, "callee", None)
            if isinstance(op, func.CallOp | xla.CallOp) and callee is not None:
                target = callee.root_reference.data
                if target in functions and target not in seen:
                    seen.add(target)
                    todo.append(target)
    return [n for n in functions if n in seen]


def _select_functions(module: ModuleOp, entry: str) -> None:
    """Keep `entry` (renamed `@main`, public, as XLA expects of the entry point) and the
    functions it calls (private); every one of them needs a body."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    if entry not in functions:
        raise StableHLOExportError(f"no function @{entry} in the program (functions: {', '.join(functions) or 'none'})")
    names = _reachable(functions, entry)
    for n in names:
        if not functions[n].body.blocks:
            what = f"@{n} is" if n == entry else f"@{entry} calls @{n}, which is"
            raise StableHLOExportError(f"{what} only declared (XLA needs every function's body)", functions[n])
    for n, f in functions.items():
        if n not in names:
            f.detach()
            f.erase()
    renames = {entry: "main"}
    if entry != "main" and "main" in names:
        renames["main"] = "main_0"
    for n in names:
        functions[n].sym_visibility = StringAttr("public" if n == entry else "private")
        functions[n].sym_name = StringAttr(renames.get(n, n))
    for op in module.walk():
        if isinstance(op, func.CallOp | xla.CallOp) and (target := op.callee.root_reference.data) in renames:
            op.callee = SymbolRefAttr(renames[target])


def to_stablehlo_text(module: ModuleOp, entry: str | None = None, module_name: str | None = None) -> str:
    """The StableHLO text of an xla program (a verified `ModuleOp`, left unchanged).

    Without `entry`, every function is printed under its own name (public). With
    `entry`, only that function (renamed `@main`, as XLA expects of the entry point) and
    the functions it calls are printed. Raises `StableHLOExportError` (with `.op`) for
    anything StableHLO cannot express on a single device."""
    for op in module.ops:
        if not isinstance(op, (func.FuncOp, *MODULE_LEVEL_OPS)):
            raise StableHLOExportError(f"'{op.name}' at module level has no StableHLO export", op)
    module = module.clone()
    if entry is not None:
        _select_functions(module, entry)
    else:
        for f in [f for f in module.ops if isinstance(f, func.FuncOp)]:  # every function (a declaration is private)
            f.sym_visibility = StringAttr("public" if f.body.blocks else "private")  # type: ignore[attr-defined]
    if module.sym_name is None:
        module.sym_name = StringAttr(module_name or "xla_program")
    convert_module(module)
    out = io.StringIO()
    StablehloPrinter(stream=out).print_op(module)
    return out.getvalue() + "\n"


# --------------------------------------------------------------------------------------
# `xla-opt -t stablehlo`
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StableHLOTarget(Target):
    """Print the program as StableHLO text (`xla-opt file.mlir -t stablehlo`)."""

    name = "stablehlo"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        try:
            text = to_stablehlo_text(module)
        except StableHLOExportError as err:
            raise export_diagnostic(err) from None
        output.write(text)


__all__ = [
    "PATTERNS",
    "ConvertXlaToStablehloPass",
    "StableHLOExportError",
    "StableHLOTarget",
    "convert_module",
    "to_stablehlo_text",
]
