"""StableHLO export: returns, calls, while and conditional (`stablehlo.if` for a PRED index,
`stablehlo.case` for S32; branch parameters are replaced by their operands)."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation
from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import elem_of
from xla_opt.dialects.xla.computation import ReturnOp

from .common import (
    EmitRegion,
    Emitter,
    flat_types,
    handles,
    has_tuples,
    type_text,
    types_text,
)


@handles(ReturnOp)
def _return(e: Emitter, op: ReturnOp) -> None:
    e.op("stablehlo.return", [e.name(v) for v in op.operands], types_text(op.operands), [])


@handles(func.ReturnOp)
def _func_return(e: Emitter, op: func.ReturnOp) -> None:
    e.op("func.return", [e.name(v) for v in op.operands], types_text(op.operands), [])


@handles(func.CallOp, xla.CallOp)
def _call(e: Emitter, op: Operation) -> None:
    callee = op.callee.root_reference.data  # type: ignore[attr-defined]
    e.simple(op, "func.call", {"callee": "@" + e.renames.get(callee, callee)})


@handles(xla.WhileOp)
def _while(e: Emitter, op: xla.WhileOp) -> None:
    # StableHLO's while carries no tuples: a tuple state travels as its leaves.
    names, types = e.flatten_values(op.operand)
    flatten = has_tuples([v.type for v in op.operand])
    results = e.op(
        "stablehlo.while",
        names,
        types,
        types,
        None,
        [EmitRegion(op.cond.blocks[0], flatten=flatten), EmitRegion(op.body.blocks[0], flatten=flatten)],
    )
    e.bind_packed(op, results)


@handles(xla.ConditionalOp)
def _conditional(e: Emitter, op: xla.ConditionalOp) -> None:
    # StableHLO's branches take no arguments: each branch parameter is replaced by its
    # branch operand (xla's branches are isolated, so only the branch's own block uses it).
    # Tuple results travel as their leaves.
    flatten = has_tuples([r.type for r in op.results])
    regions = []
    for region, arg in zip(op.branches, op.branch_operands, strict=True):
        block = region.blocks[0]
        regions.append(EmitRegion(block, {a: e.name(arg) for a in block.args}, flatten=flatten))
    pred = elem_of(op.index.type)
    name = "stablehlo.if" if isinstance(pred, IntegerType) and pred.width.data == 1 else "stablehlo.case"
    out_types = [type_text(leaf) for r in op.results for leaf in flat_types(r.type)]
    results = e.op(name, [e.name(op.index)], [type_text(op.index.type)], out_types, None, regions)
    e.bind_packed(op, results)
