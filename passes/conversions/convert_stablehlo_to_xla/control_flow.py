"""convert-stablehlo-to-xla: while, case/if, return and func.call. xla's regions are isolated from above:
a while carries captured values as extra state, a conditional branch receives them
as its operand."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, SymbolRefAttr, TupleType
from xdsl.ir import Operation, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp as XlaReturnOp

from .common import (
    Builder,
    Patterns,
    captured_values,
    fail,
    i64_attr,
    prop,
    replace_uses_within,
    result_types,
    return_op,
    take_regions,
)

PATTERNS = Patterns()


@PATTERNS.rule("stablehlo.while")
def _while(op, b):
    cond, body = take_regions(op)
    captured = captured_values([cond, body])
    n = len(op.operands)
    for region in (cond, body):
        block = region.blocks[0]
        for v in captured:
            arg = block.insert_arg(v.type, len(block.args))
            replace_uses_within(region, v, arg)
    # the body passes the captured values through
    ret = return_op(body)
    extra = list(body.blocks[0].args[n:])
    ret.operands = [*ret.operands, *extra]
    state = [*op.operands, *captured]
    new = b.build(xla.WhileOp, [state], [v.type for v in state], regions=[cond, body])
    return new.results[:n]


def _conditional(op: Operation, b: Builder, index: SSAValue) -> Sequence[SSAValue]:
    branches = take_regions(op)
    branch_operands = []
    for region in branches:
        block = region.blocks[0]
        captured = captured_values([region])
        if not captured:
            operand = index  # an unused operand: each branch takes exactly one
            block.insert_arg(index.type, 0)
        elif len(captured) == 1:
            operand = captured[0]
            arg = block.insert_arg(operand.type, 0)
            replace_uses_within(region, operand, arg)
        else:
            operand = b.one(xs.TupleOp, [captured], TupleType(ArrayAttr([v.type for v in captured])))
            arg = block.insert_arg(operand.type, 0)
            first = block.first_op
            for i, v in enumerate(captured):
                get = xs.GetTupleElementOp.build(
                    operands=[arg], result_types=[v.type], properties={"index": i64_attr(i)}
                )
                if first is None:
                    block.add_op(get)
                else:
                    block.insert_op_before(get, first)
                replace_uses_within(region, v, get.results[0])
        branch_operands.append(operand)
    return b.build(
        xla.ConditionalOp, [index, branch_operands], result_types(op), regions=[branches]
    ).results


@PATTERNS.rule("stablehlo.case")
def _case(op, b):
    return _conditional(op, b, op.operands[0])


@PATTERNS.rule("stablehlo.if")
def _if(op, b):
    return _conditional(op, b, op.operands[0])


@PATTERNS.rule("stablehlo.return")
def _return(op, b):
    b.add(XlaReturnOp.build(operands=[list(op.operands)]))
    return []


@PATTERNS.rule("stablehlo.composite")
def _composite(op, b):
    """A composite is "semantically equivalent to its decomposition": a call of the
    decomposition function (its name and version are only for backends that know it)."""
    callee = prop(op, "decomposition")
    if not isinstance(callee, SymbolRefAttr):
        fail(op, f"decomposition must name a function, got {callee}")
    return b.build(xla.CallOp, [list(op.operands)], result_types(op), {"callee": callee}).results


@PATTERNS.rule("func.call")
def _call(op, b):
    return b.build(
        xla.CallOp, [list(op.operands)], result_types(op), {"callee": op.properties.get("callee") or op.attributes["callee"]}
    ).results
