"""Shape rules of the shape-manipulating ops: broadcast, broadcast_in_dim, reshape,
collapse, transpose, reverse, slice, dynamic_slice, dynamic_update_slice, concatenate,
pad, get/set_dimension_size and get_tuple_element."""

from __future__ import annotations

from collections.abc import Sequence

from .common import (
    Shape,
    ShapeError,
    check_in_range,
    check_permutation,
    check_unique,
    fmt,
    num_elements,
)


def _check_one_per_dimension(values: Sequence[int], rank: int, what: str) -> None:
    if len(values) != rank:
        raise ShapeError(
            f"{what} {fmt(values)} must have one entry per operand dimension ({rank})"
        )


def broadcast_shape(operand: Shape, broadcast_sizes: Sequence[int]) -> Shape:
    """Broadcast: the new dimensions go on the left, {a0..aN} + {b0..bM}."""
    negative = [s for s in broadcast_sizes if s < 0]
    if negative:
        raise ShapeError(
            f"broadcast_sizes {fmt(broadcast_sizes)} must be non-negative: {fmt(negative)}"
        )
    return (*broadcast_sizes, *operand)


def check_broadcast_in_dim(
    operand: Shape, result: Shape, broadcast_dimensions: Sequence[int]
) -> None:
    """BroadcastInDim: operand dimension i maps to result dimension
    broadcast_dimensions[i] (in range, unique) and has size 1 or that dimension's size."""
    _check_one_per_dimension(broadcast_dimensions, len(operand), "broadcast_dimensions")
    check_in_range(broadcast_dimensions, len(result), "broadcast_dimensions")
    check_unique(broadcast_dimensions, "broadcast_dimensions")
    for i, (size, d) in enumerate(zip(operand, broadcast_dimensions, strict=True)):
        if size != 1 and size != result[d]:
            raise ShapeError(
                f"operand dimension {i} of size {size} must be 1 or equal to result "
                f"dimension {d} of size {result[d]} (operand {fmt(operand)}, result "
                f"{fmt(result)})"
            )


def check_reshape(operand: Shape, result: Shape, dimensions: Sequence[int] | None) -> None:
    """Reshape: `dimensions` (the collapse order) is a permutation of the operand's
    dimensions, and the element count is preserved."""
    if dimensions is not None:
        check_permutation(dimensions, len(operand), "dimensions")
    if num_elements(operand) != num_elements(result):
        raise ShapeError(
            f"reshape of {fmt(operand)} ({num_elements(operand)} elements) to "
            f"{fmt(result)} ({num_elements(result)} elements) must preserve the element count"
        )


def collapse_shape(operand: Shape, dimensions: Sequence[int]) -> Shape:
    """Collapse: `dimensions` is an in-order, consecutive subset of the operand's
    dimensions, replaced in place by one dimension of their product (empty: unchanged)."""
    check_in_range(dimensions, len(operand), "dimensions")
    if any(b != a + 1 for a, b in zip(dimensions, dimensions[1:])):
        raise ShapeError(
            f"dimensions {fmt(dimensions)} must be consecutive and in increasing order"
        )
    if not dimensions:
        return tuple(operand)
    first, last = dimensions[0], dimensions[-1]
    return (*operand[:first], num_elements(operand[first : last + 1]), *operand[last + 1 :])


def transpose_shape(operand: Shape, permutation: Sequence[int]) -> Shape:
    """Transpose: output_dimensions[i] = input_dimensions[permutation[i]]."""
    check_permutation(permutation, len(operand), "permutation")
    return tuple(operand[p] for p in permutation)


def check_reverse(operand: Shape, dimensions: Sequence[int]) -> None:
    """Rev: the reversed dimensions are dimensions of the operand, each named once."""
    check_in_range(dimensions, len(operand), "dimensions")
    check_unique(dimensions, "dimensions")


def slice_shape(
    operand: Shape,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int],
) -> Shape:
    """Slice: per dimension 0 <= start <= limit <= size and stride >= 1; the result
    dimension is ceil((limit - start) / stride)."""
    rank = len(operand)
    _check_one_per_dimension(start_indices, rank, "start_indices")
    _check_one_per_dimension(limit_indices, rank, "limit_indices")
    _check_one_per_dimension(strides, rank, "strides")
    result = []
    for d, (size, start, limit, stride) in enumerate(
        zip(operand, start_indices, limit_indices, strides, strict=True)
    ):
        if not 0 <= start <= limit <= size:
            raise ShapeError(
                f"dimension {d}: need 0 <= start <= limit <= size, got start {start}, "
                f"limit {limit}, size {size}"
            )
        if stride < 1:
            raise ShapeError(f"dimension {d}: stride must be at least 1, got {stride}")
        result.append(-(-(limit - start) // stride))
    return tuple(result)


def _check_start_index_count(operand: Shape, num_start_indices: int) -> None:
    if num_start_indices != len(operand):
        raise ShapeError(
            f"{num_start_indices} start indices given, but the operand {fmt(operand)} "
            f"has rank {len(operand)}; need one per dimension"
        )


def dynamic_slice_shape(
    operand: Shape, num_start_indices: int, slice_sizes: Sequence[int]
) -> Shape:
    """DynamicSlice: one start index per operand dimension and
    0 <= slice_sizes[i] <= operand dimension i; the result has shape slice_sizes."""
    _check_start_index_count(operand, num_start_indices)
    _check_one_per_dimension(slice_sizes, len(operand), "slice_sizes")
    for d, (size, slice_size) in enumerate(zip(operand, slice_sizes, strict=True)):
        if not 0 <= slice_size <= size:
            raise ShapeError(
                f"slice_sizes {fmt(slice_sizes)}: size {slice_size} of dimension {d} is "
                f"not in [0, {size}] (operand {fmt(operand)})"
            )
    return tuple(slice_sizes)


def check_dynamic_update_slice(operand: Shape, update: Shape, num_start_indices: int) -> None:
    """DynamicUpdateSlice: one start index per operand dimension; the update has the
    operand's rank and no dimension larger than the operand's."""
    _check_start_index_count(operand, num_start_indices)
    if len(update) != len(operand):
        raise ShapeError(
            f"update {fmt(update)} must have the rank of the operand {fmt(operand)}"
        )
    if any(u > o for u, o in zip(update, operand, strict=True)):
        raise ShapeError(
            f"update {fmt(update)} must not be larger than the operand {fmt(operand)} in "
            "any dimension"
        )


def concatenate_shape(inputs: Sequence[Shape], dimension: int) -> Shape:
    """Concatenate: N >= 1 inputs of one rank >= 1, equal in every dimension but
    `dimension`, whose sizes add up."""
    if not inputs:
        raise ShapeError("concatenate needs at least one input")
    first = tuple(inputs[0])
    if len(first) == 0:
        raise ShapeError("rank-0 inputs cannot be concatenated")
    if not 0 <= dimension < len(first):
        raise ShapeError(f"dimension {dimension} out of range [0, {len(first)})")
    for i, shape in enumerate(inputs[1:], start=1):
        if len(shape) != len(first):
            raise ShapeError(
                f"input {i} {fmt(shape)} must have the rank of input 0 {fmt(first)}"
            )
        for d, (a, b) in enumerate(zip(first, shape, strict=True)):
            if d != dimension and a != b:
                raise ShapeError(
                    f"input {i} {fmt(shape)} differs from input 0 {fmt(first)} in "
                    f"dimension {d}, which is not the concatenated dimension {dimension}"
                )
    total = sum(shape[dimension] for shape in inputs)
    return (*first[:dimension], total, *first[dimension + 1 :])


def pad_shape(
    operand: Shape,
    edge_padding_low: Sequence[int],
    edge_padding_high: Sequence[int],
    interior_padding: Sequence[int],
) -> Shape:
    """Pad: interior padding >= 0, edge padding of any sign; each result dimension
    low + high + size + max(size - 1, 0) * interior is >= 0."""
    rank = len(operand)
    _check_one_per_dimension(edge_padding_low, rank, "edge_padding_low")
    _check_one_per_dimension(edge_padding_high, rank, "edge_padding_high")
    _check_one_per_dimension(interior_padding, rank, "interior_padding")
    negative = [p for p in interior_padding if p < 0]
    if negative:
        raise ShapeError(
            f"interior_padding {fmt(interior_padding)} must be non-negative: {fmt(negative)}"
        )
    result = tuple(
        low + high + size + max(size - 1, 0) * interior
        for size, low, high, interior in zip(
            operand, edge_padding_low, edge_padding_high, interior_padding, strict=True
        )
    )
    if any(d < 0 for d in result):
        raise ShapeError(
            f"padding {fmt(operand)} gives negative dimensions {fmt(result)}"
        )
    return result


def check_dimension(operand: Shape, dimension: int) -> None:
    """Get/SetDimensionSize: `dimension` is in [0, rank)."""
    if not 0 <= dimension < len(operand):
        raise ShapeError(
            f"dimension {dimension} out of range [0, {len(operand)}) for operand "
            f"{fmt(operand)}"
        )


def check_tuple_index(tuple_size: int, index: int) -> None:
    """GetTupleElement: `index` names one of the tuple's elements."""
    if not 0 <= index < tuple_size:
        raise ShapeError(f"index {index} out of range [0, {tuple_size}) of the tuple")
