"""Shape rules of gather and scatter.

Gather and scatter share the description of their index array: `index_vector_dim`
names the dimension of the indices that holds each index vector (equal to the rank
means an implicit trailing dimension of size 1), and every other dimension is a batch
dimension. Both also share the monotone map from the window (offset) dimensions to
the operand dimensions left once the collapsed (inserted) dimensions are removed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .common import Shape, ShapeError, check_in_range, check_sorted, check_unique, fmt


def split_indices_shape(indices: Shape, index_vector_dim: int, what: str) -> tuple[Shape, int]:
    """The batch dimensions of an index array and the size of its index vectors;
    index_vector_dim must lie in [0, rank], rank meaning an implicit trailing 1."""
    rank = len(indices)
    if not 0 <= index_vector_dim <= rank:
        raise ShapeError(
            f"index_vector_dim {index_vector_dim} out of range [0, {rank}] of {what} "
            f"{fmt(indices)}"
        )
    if index_vector_dim == rank:
        return tuple(indices), 1
    batch = tuple(indices[:index_vector_dim]) + tuple(indices[index_vector_dim + 1 :])
    return batch, indices[index_vector_dim]


def remapped_offset_dims(operand_rank: int, collapsed_dims: Sequence[int]) -> Shape:
    """The spec's remapped_offset_dims (gather) / window_dims_to_operand_dims (scatter):
    the k-th window dimension indexes the k-th operand dimension not in collapsed_dims."""
    collapsed = set(collapsed_dims)
    return tuple(d for d in range(operand_rank) if d not in collapsed)


def _check_dim_set(values: Sequence[int], upper: int, what: str) -> None:
    """A set of dimension numbers: no repeats, ascending, each in [0, upper)."""
    check_unique(values, what)
    check_sorted(values, what)
    check_in_range(values, upper, what)


def _check_index_map(
    index_map: Sequence[int], vector_size: int, operand_rank: int, what: str
) -> None:
    """start_index_map / scatter_dims_to_operand_dims: one operand dimension per
    index-vector element, one to one."""
    if len(index_map) != vector_size:
        raise ShapeError(
            f"{what} {fmt(index_map)} must have one entry per index-vector element "
            f"({vector_size})"
        )
    check_unique(index_map, what)
    check_in_range(index_map, operand_rank, what)


def gather_shape(
    operand: Shape,
    start_indices: Shape,
    offset_dims: Sequence[int],
    collapsed_slice_dims: Sequence[int],
    start_index_map: Sequence[int],
    index_vector_dim: int,
    slice_sizes: Sequence[int],
) -> Shape:
    """Gather: the result has rank batch_dims.size + offset_dims.size; dimension
    offset_dims[k] is adjusted_slice_sizes[k] (slice_sizes without the collapsed
    dimensions) and the other (batch) dimensions are, in order, those of start_indices
    without index_vector_dim."""
    rank = len(operand)
    batch, vector_size = split_indices_shape(start_indices, index_vector_dim, "start_indices")
    if len(slice_sizes) != rank:
        raise ShapeError(
            f"slice_sizes {fmt(slice_sizes)} must have one entry per operand dimension "
            f"({rank})"
        )
    _check_dim_set(offset_dims, len(batch) + len(offset_dims), "offset_dims")
    _check_dim_set(collapsed_slice_dims, rank, "collapsed_slice_dims")
    if len(offset_dims) + len(collapsed_slice_dims) != rank:
        raise ShapeError(
            f"offset_dims {fmt(offset_dims)} and collapsed_slice_dims "
            f"{fmt(collapsed_slice_dims)} must together have operand rank {rank} entries"
        )
    _check_index_map(start_index_map, vector_size, rank, "start_index_map")
    for d, (size, bound) in enumerate(zip(slice_sizes, operand, strict=True)):
        if not 0 <= size <= bound:
            raise ShapeError(
                f"slice_sizes {fmt(slice_sizes)} out of bounds of operand {fmt(operand)} "
                f"in dimension {d}"
            )
    if any(slice_sizes[d] != 1 for d in collapsed_slice_dims):
        raise ShapeError(
            f"collapsed_slice_dims {fmt(collapsed_slice_dims)} must have slice size 1, but "
            f"slice_sizes is {fmt(slice_sizes)}"
        )
    adjusted_slice_sizes = iter(
        slice_sizes[d] for d in remapped_offset_dims(rank, collapsed_slice_dims)
    )
    batch_sizes = iter(batch)
    offset = set(offset_dims)
    result_rank = len(batch) + len(offset_dims)
    return tuple(
        next(adjusted_slice_sizes) if i in offset else next(batch_sizes)
        for i in range(result_rank)
    )


def check_scatter(
    inputs: Sequence[Shape],
    scatter_indices: Shape,
    updates: Sequence[Shape],
    update_window_dims: Sequence[int],
    inserted_window_dims: Sequence[int],
    scatter_dims_to_operand_dims: Sequence[int],
    index_vector_dim: int,
) -> None:
    """Scatter: N >= 1 inputs of one shape and N updates of one shape; updates have
    rank update_window_dims.size + (batch dims of scatter_indices); an update window
    dimension update_window_dims[k] is at most adjusted_window_bounds[k] (the operand
    bounds without inserted_window_dims), the other (update_scatter_dims) equal, in
    order, the batch dimensions of scatter_indices."""
    if not inputs:
        raise ShapeError("scatter needs at least one input")
    if len(updates) != len(inputs):
        raise ShapeError(
            f"scatter needs one update per input: {len(inputs)} inputs, "
            f"{len(updates)} updates"
        )
    operand = tuple(inputs[0])
    for i, shape in enumerate(inputs[1:], start=1):
        if tuple(shape) != operand:
            raise ShapeError(
                f"inputs must have one shape: input #0 is {fmt(operand)}, "
                f"input #{i} is {fmt(shape)}"
            )
    update = tuple(updates[0])
    for i, shape in enumerate(updates[1:], start=1):
        if tuple(shape) != update:
            raise ShapeError(
                f"updates must have one shape: update #0 is {fmt(update)}, "
                f"update #{i} is {fmt(shape)}"
            )
    rank = len(operand)
    batch, vector_size = split_indices_shape(scatter_indices, index_vector_dim, "scatter_indices")
    _check_dim_set(update_window_dims, len(update), "update_window_dims")
    _check_dim_set(inserted_window_dims, rank, "inserted_window_dims")
    if len(update_window_dims) + len(inserted_window_dims) != rank:
        raise ShapeError(
            f"update_window_dims {fmt(update_window_dims)} and inserted_window_dims "
            f"{fmt(inserted_window_dims)} must together have operand rank {rank} entries"
        )
    _check_index_map(
        scatter_dims_to_operand_dims, vector_size, rank, "scatter_dims_to_operand_dims"
    )
    if len(update) != len(update_window_dims) + len(batch):
        raise ShapeError(
            f"updates {fmt(update)} must have rank {len(update_window_dims) + len(batch)}: "
            f"{len(update_window_dims)} window dims plus the {len(batch)} batch dims "
            f"{fmt(batch)} of scatter_indices"
        )
    adjusted_window_bounds = [operand[d] for d in remapped_offset_dims(rank, inserted_window_dims)]
    for k, d in enumerate(update_window_dims):
        if update[d] > adjusted_window_bounds[k]:
            raise ShapeError(
                f"updates {fmt(update)} window dimension {d} exceeds the operand's window "
                f"bounds {fmt(adjusted_window_bounds)}"
            )
    window = set(update_window_dims)
    update_scatter_dims = [d for d in range(len(update)) if d not in window]
    if [update[d] for d in update_scatter_dims] != list(batch):
        raise ShapeError(
            f"updates {fmt(update)} scatter dimensions {fmt(update_scatter_dims)} must equal "
            f"the batch dims {fmt(batch)} of scatter_indices"
        )


def check_batching_dims(
    operand: Shape,
    indices: Shape,
    operand_batching_dims: Sequence[int],
    indices_batching_dims: Sequence[int],
    index_vector_dim: int,
    names: tuple[str, str],
) -> None:
    """StableHLO's gather (C5-C10, C14) and scatter batching rules, which the xla ops
    express as explicit indices after import: the operand batching dims are sorted,
    unique and in range; the indices batching dims are unique, in range and not
    index_vector_dim; both lists have one size, and paired dimensions one extent.
    `names` spells the two attributes (gather's or scatter's)."""
    operand_name, indices_name = names
    _check_dim_set(operand_batching_dims, len(operand), operand_name)
    check_unique(indices_batching_dims, indices_name)
    check_in_range(indices_batching_dims, len(indices), indices_name)
    if index_vector_dim in indices_batching_dims:
        raise ShapeError(f"{indices_name} {fmt(indices_batching_dims)} must not contain index_vector_dim {index_vector_dim}")
    if len(operand_batching_dims) != len(indices_batching_dims):
        raise ShapeError(
            f"{operand_name} {fmt(operand_batching_dims)} and {indices_name} {fmt(indices_batching_dims)} "
            "must have the same size"
        )
    for a, i in zip(operand_batching_dims, indices_batching_dims, strict=True):
        if operand[a] != indices[i]:
            raise ShapeError(
                f"operand dimension {a} ({operand[a]}) and indices dimension {i} ({indices[i]}), "
                f"paired by {operand_name} and {indices_name}, must have the same size"
            )
