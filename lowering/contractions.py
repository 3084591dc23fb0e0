"""What the tuning passes (`linalg-block-rows`, `linalg-matmul-to-kernel`) ask of a
contraction-shaped `linalg.generic`."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg


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
