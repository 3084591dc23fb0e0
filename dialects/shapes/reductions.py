"""Shape rules of the ops that carry computations: reduce, reduce_window (and its SAME /
VALID padding), select_and_scatter, sort and map."""

from __future__ import annotations

from collections.abc import Sequence

from .common import Shape, ShapeError, check_in_range, check_unique, fmt
from .windows import padded_size, window_count


def common_shape(shapes: Sequence[Shape], what: str) -> Shape:
    """Variadic operands (reduce, reduce_window, sort, map): N >= 1 of one shape."""
    if not shapes:
        raise ShapeError(f"{what} must not be empty")
    first = tuple(shapes[0])
    for i, s in enumerate(shapes[1:], start=1):
        if tuple(s) != first:
            raise ShapeError(
                f"{what} must have the same shape, but #0 is {fmt(first)} and #{i} is {fmt(s)}"
            )
    return first


def reduce_shape(operand: Shape, dimensions: Sequence[int]) -> Shape:
    """Reduce: `dimensions` are distinct dimensions of the operand; the result keeps the
    other dimensions in their order (rank(operand) - len(dimensions))."""
    check_in_range(dimensions, len(operand), "dimensions")
    check_unique(dimensions, "dimensions")
    reduced = set(dimensions)
    return tuple(size for i, size in enumerate(operand) if i not in reduced)


def _check_window_list(values: Sequence[int], rank: int, what: str, minimum: int) -> None:
    if len(values) != rank:
        raise ShapeError(
            f"{what} {fmt(values)} must have one entry per operand dimension ({rank})"
        )
    if any(v < minimum for v in values):
        raise ShapeError(f"{what} {fmt(values)} must all be >= {minimum}")


def reduce_window_shape(
    base: Shape,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    base_dilations: Sequence[int] | None = None,
    window_dilations: Sequence[int] | None = None,
    padding: Sequence[Sequence[int]] | None = None,
) -> Shape:
    """ReduceWindow: per dimension, the number of valid window positions
    floor((padded_dilated_base - dilated_window) / stride) + 1, or 0 when the window does
    not fit; strides and dilations default to 1, padding to (0, 0), and may be negative."""
    rank = len(base)
    strides = tuple(window_strides) if window_strides is not None else (1,) * rank
    base_dil = tuple(base_dilations) if base_dilations is not None else (1,) * rank
    window_dil = tuple(window_dilations) if window_dilations is not None else (1,) * rank
    pads = [tuple(p) for p in padding] if padding is not None else [(0, 0)] * rank
    _check_window_list(window_dimensions, rank, "window_dimensions", 1)
    _check_window_list(strides, rank, "window_strides", 1)
    _check_window_list(base_dil, rank, "base_dilations", 1)
    _check_window_list(window_dil, rank, "window_dilations", 1)
    if len(pads) != rank or any(len(p) != 2 for p in pads):
        shown = ", ".join(fmt(p) for p in pads)
        raise ShapeError(
            f"padding [{shown}] must have one [low, high] pair per operand dimension ({rank})"
        )
    out = []
    for dim in range(rank):
        low, high = pads[dim]
        padded = padded_size(base[dim], base_dil[dim], (low, high))
        if padded < 0:
            raise ShapeError(
                f"padding [{low}, {high}] of dimension {dim} leaves a negative size {padded}"
            )
        out.append(window_count(padded, window_dimensions[dim], window_dil[dim], strides[dim]))
    return tuple(out)


def valid_padding(rank: int) -> tuple[tuple[int, int], ...]:
    """Padding::kValid: no padding; windows stop where they no longer fit."""
    return ((0, 0),) * rank


def same_padding(
    base: Shape, window_dimensions: Sequence[int], window_strides: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """Padding::kSame: pad so that there are ceil(size / stride) windows (the input's size
    at stride 1), half of the padding low and the odd element high, as XLA's MakePadding.
    Pass dilated window sizes when the window is dilated."""
    _check_window_list(window_dimensions, len(base), "window_dimensions", 1)
    _check_window_list(window_strides, len(base), "window_strides", 1)
    pads = []
    for size, window, stride in zip(base, window_dimensions, window_strides, strict=True):
        windows = -(-size // stride)
        total = max((windows - 1) * stride + window - size, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def select_and_scatter_source_shape(
    operand: Shape,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None,
    padding: Sequence[Sequence[int]] | None,
    source: Shape,
) -> Shape:
    """SelectAndScatter: the source has the shape of ReduceWindow over the operand with the
    same window; returns that shape."""
    expected = reduce_window_shape(
        operand, window_dimensions, window_strides, padding=padding
    )
    if tuple(source) != expected:
        raise ShapeError(
            f"source shape {fmt(source)} must be the windowed shape {fmt(expected)} of "
            f"operand {fmt(operand)}"
        )
    return expected


def sort_dimension(operand: Shape, dimension: int | None) -> int:
    """Sort: sorts along `dimension`, a dimension of the operands (by default the last)."""
    if not operand:
        raise ShapeError("sort needs operands of rank >= 1, got a scalar")
    if dimension is None:
        return len(operand) - 1
    check_in_range((dimension,), len(operand), "dimension")
    return dimension


def check_map_dimensions(operand: Shape, dimensions: Sequence[int]) -> None:
    """Map: XLA only maps over every dimension, so `dimensions` is [0, ..., rank - 1]."""
    expected = tuple(range(len(operand)))
    if tuple(dimensions) != expected:
        raise ShapeError(
            f"dimensions {fmt(dimensions)} must be all operand dimensions in order, "
            f"{fmt(expected)}"
        )
