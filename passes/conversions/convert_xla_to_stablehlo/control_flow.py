"""convert-xla-to-stablehlo: returns, calls, while and conditional (`stablehlo.if` for a
PRED index, `stablehlo.case` for S32). StableHLO's while, if and case carry no tuples:
a tuple state, tuple results and what a region returns travel as their leaves."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType, TupleType
from xdsl.ir import Operation, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of
from xla_opt.dialects.xla.computation import ReturnOp

from .common import Builder, Patterns, flat_types, flatten_block, result_types

PATTERNS = Patterns()


@PATTERNS.rule(ReturnOp)
def _return(op: ReturnOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("return")


@PATTERNS.rule(xla.CallOp)
def _call(op: xla.CallOp, b: Builder) -> Sequence[SSAValue]:
    return b.add(func.CallOp(op.callee, list(op.operands), result_types(op))).results


def _has_tuples(values: Sequence[SSAValue]) -> bool:
    return any(isinstance(v.type, TupleType) for v in values)


def _repacked(b: Builder, op: Operation, new: Operation) -> list[SSAValue]:
    """The results of `op` (tuples) from the leaf results of `new`."""
    leaves = iter(new.results)
    return [b.pack(leaves, t) for t in result_types(op)]


@PATTERNS.rule(xla.WhileOp)
def _while(op: xla.WhileOp, b: Builder) -> Sequence[SSAValue]:
    state = b.flatten(op.operand)
    regions = [op.detach_region(r) for r in (op.cond, op.body)]
    if _has_tuples(op.operand):
        for region in regions:
            flatten_block(b, region.blocks[0])
    new = b.op("while", state, [v.type for v in state], None, regions)
    return _repacked(b, op, new)


@PATTERNS.rule(xla.ConditionalOp)
def _conditional(op: xla.ConditionalOp, b: Builder) -> Sequence[SSAValue]:
    """StableHLO's branches take no arguments: each branch parameter is replaced by its
    branch operand (xla's branches are isolated: only the branch's own block uses it)."""
    regions = []
    for region, operand in zip(list(op.branches), list(op.branch_operands), strict=True):
        block = region.blocks[0]
        for arg in list(block.args):
            for use in list(arg.uses):  # (not replace_all_uses_with: it renames the operand)
                use.operation.operands[use.index] = operand
            block.erase_arg(arg)
        if _has_tuples(op.results):
            flatten_block(b, block)
        regions.append(op.detach_region(region))
    index = elem_of(op.index.type)
    name = "if" if isinstance(index, IntegerType) and index.width.data == 1 else "case"
    leaf_types = [leaf for t in result_types(op) for leaf in flat_types(t)]
    new = b.op(name, [op.index], leaf_types, None, regions)
    return _repacked(b, op, new)
