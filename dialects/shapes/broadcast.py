"""Broadcasting of element-wise operands (broadcasting.md).

Two kinds compose, in this order:
1. "InDim" broadcasting: a lower-rank operand is matched to the dimensions
   `broadcast_dimensions` of the higher-rank one (scalars broadcast freely);
2. degenerate broadcasting: same-rank operands whose dimensions are equal or 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from .common import Shape, ShapeError, check_in_range, check_sorted, fmt


def in_dim_broadcast(
    low: Shape, high: Shape, broadcast_dimensions: Sequence[int]
) -> Shape:
    """Lift the lower-rank `low` to the rank of `high`: dimension i of `low` goes to
    dimension `broadcast_dimensions[i]`; every other dimension becomes 1 (degenerate),
    to be stretched by degenerate broadcasting."""
    dims = list(broadcast_dimensions)
    if len(dims) != len(low):
        raise ShapeError(
            f"broadcast_dimensions {fmt(dims)} must have one entry per dimension of the "
            f"lower-rank operand {fmt(low)} (rank {len(low)})"
        )
    check_in_range(dims, len(high), "broadcast_dimensions")
    check_sorted(dims, "broadcast_dimensions")
    lifted = [1] * len(high)
    for i, d in enumerate(dims):
        if low[i] != high[d] and low[i] != 1 and high[d] != 1:
            raise ShapeError(
                f"broadcast_dimensions {fmt(dims)}: dimension {i} of size {low[i]} of "
                f"{fmt(low)} does not match dimension {d} of size {high[d]} of {fmt(high)}"
            )
        lifted[d] = low[i]
    return tuple(lifted)


def degenerate_broadcast(lhs: Shape, rhs: Shape) -> Shape:
    """Same-rank shapes are compatible when each dimension pair is equal or has a 1;
    the result is the per-dimension maximum."""
    if len(lhs) != len(rhs):
        raise ShapeError(f"shapes {fmt(lhs)} and {fmt(rhs)} have different ranks")
    out = []
    for i, (a, b) in enumerate(zip(lhs, rhs)):
        if a != b and a != 1 and b != 1:
            raise ShapeError(
                f"shapes {fmt(lhs)} and {fmt(rhs)} are incompatible: dimension {i} has "
                f"sizes {a} and {b}"
            )
        out.append(max(a, b) if a != 0 and b != 0 else 0)
    return tuple(out)


def broadcast_shapes(
    lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] | None = None
) -> Shape:
    """The result shape of an element-wise binary op (broadcasting.md).

    Scalars broadcast without `broadcast_dimensions`; operands of different non-zero
    ranks need them; same-rank operands broadcast degenerate dimensions."""
    lhs, rhs = tuple(lhs), tuple(rhs)
    if broadcast_dimensions is None:
        if len(lhs) == 0 or len(rhs) == 0:
            return lhs if len(rhs) == 0 else rhs
        if len(lhs) != len(rhs):
            raise ShapeError(
                f"operands of shapes {fmt(lhs)} and {fmt(rhs)} have different ranks and "
                "need broadcast_dimensions"
            )
        return degenerate_broadcast(lhs, rhs)
    if len(lhs) == len(rhs):
        # InDim broadcasting between same ranks: only the identity is meaningful.
        if list(broadcast_dimensions) != list(range(len(lhs))):
            raise ShapeError(
                f"broadcast_dimensions {fmt(broadcast_dimensions)} between operands of the "
                f"same rank {len(lhs)} must be {fmt(range(len(lhs)))}"
            )
        return degenerate_broadcast(lhs, rhs)
    if len(lhs) < len(rhs):
        return degenerate_broadcast(in_dim_broadcast(lhs, rhs, broadcast_dimensions), rhs)
    return degenerate_broadcast(lhs, in_dim_broadcast(rhs, lhs, broadcast_dimensions))


def broadcast_operand_map(
    operand: Shape, result: Shape, broadcast_dimensions: Sequence[int] | None
) -> tuple[int, ...]:
    """For lowering and the interpreter: the result dimension each operand dimension
    maps to (its `broadcast_in_dim` dimensions)."""
    if len(operand) == len(result):
        return tuple(range(len(result)))
    if len(operand) == 0:
        return ()
    assert broadcast_dimensions is not None
    return tuple(broadcast_dimensions)
