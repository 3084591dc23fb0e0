"""What the tuning passes (`linalg-block-rows`, `linalg-matmul-to-kernel`,
`linalg-fuse-elementwise`) ask of a `linalg.generic`'s body: a contraction's
multiply-accumulate, or a data move; and a body computed from its loop indices,
evaluated at other indices (`body_at`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue


def is_multiply_accumulate(op: linalg.GenericOp, integer: bool = False) -> bool:
    """The body is `yield acc + lhs * rhs` on the block's (lhs, rhs, acc) arguments
    (float ops, or with `integer` integer ones)."""
    body = op.body.block
    lhs, rhs, acc = body.args
    ops = list(body.ops)
    multiply, add = (arith.MuliOp, arith.AddiOp) if integer else (arith.MulfOp, arith.AddfOp)
    if len(ops) != 3 or not isinstance(ops[0], multiply) or not isinstance(ops[1], add):
        return False
    product, total, yielded = ops
    return (
        {product.lhs, product.rhs} == {lhs, rhs}
        and {total.lhs, total.rhs} == {acc, product.result}
        and isinstance(yielded, linalg.YieldOp)
        and tuple(yielded.operands) == (total.result,)
    )


def only_moves_data(op: linalg.GenericOp) -> bool:
    """The body yields one of the op's inputs as it is (a broadcast, transpose, slice
    or reshape): each output element is an input element."""
    body = op.body.block
    term = body.last_op
    return (
        term is body.first_op
        and isinstance(term, linalg.YieldOp)
        and isinstance(term.operands[0], SSAValue)
        and term.operands[0] in body.args[: len(op.inputs)]
    )


def body_at(op: linalg.GenericOp, indices: Sequence[SSAValue]) -> tuple[list[Operation], SSAValue]:
    """The scalar ops of `op`'s body (one output, computed from its loop indices, not
    from its block's arguments) cloned with each `linalg.index d` replaced by
    `indices[d]`, and the value they yield: the element the generic computes at
    `indices`."""
    mapping: dict[SSAValue, SSAValue] = {}
    ops: list[Operation] = []
    for inner in op.body.block.ops:
        if isinstance(inner, linalg.YieldOp):
            yielded = inner.operands[0]
            return ops, mapping.get(yielded, yielded)
        if isinstance(inner, linalg.IndexOp):
            mapping[inner.result] = indices[inner.dim.value.data]
            continue
        ops.append(inner.clone(value_mapper=mapping))
    raise AssertionError("a generic body ends with linalg.yield")
