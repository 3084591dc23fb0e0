"""Shape rules of the collectives: replica groups, source-target pairs, all_gather,
reduce_scatter and all_to_all.

A collective runs among the replicas of one replica group. When `replica_groups` is
empty every replica belongs to a single group whose size (the number of replicas) the
program does not state; the shape functions then take `None` for the group size.
"""

from __future__ import annotations

from collections.abc import Sequence

from .common import Shape, ShapeError, check_in_range, fmt


def fmt_rows(rows: Sequence[Sequence[int]]) -> str:
    """Print an integer matrix the way the pretty form spells it: `[[0, 1], [2, 3]]`."""
    return "[" + ", ".join(fmt(r) for r in rows) + "]"


def _repeated(values: Sequence[int]) -> list[int]:
    seen: set[int] = set()
    repeated: set[int] = set()
    for v in values:
        (repeated if v in seen else seen).add(v)
    return sorted(repeated)


def _check_replica_ids(rows: Sequence[Sequence[int]], ids: Sequence[int], what: str) -> None:
    """Replica ids are the unsigned values of ReplicaId, so never negative."""
    negative = [v for v in ids if v < 0]
    if negative:
        raise ShapeError(f"{what} {fmt_rows(rows)} has negative replica ids {fmt(negative)}")


def replica_group_rows(replica_groups: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The groups of a replica_groups matrix: "-1 entries pad shorter groups at their
    end" (StableHLO's spelling of groups of different sizes, `[[0, 2, -1], [1, 3, 4]]`).
    A -1 before a replica id is no padding."""
    groups = []
    for row in replica_groups:
        ids = list(row)
        while ids and ids[-1] == -1:
            ids.pop()
        groups.append(tuple(ids))
    return groups


def replica_group_size(replica_groups: Sequence[Sequence[int]], same_size: bool = True) -> int | None:
    """The size of every replica group, or None when `replica_groups` is empty (all
    replicas form one group) or, with `same_size=False` (all_reduce: XLA allows groups
    of different sizes), when the sizes differ. Ids are >= 0, no id is in two places,
    the groups hold every id 0..N-1 (they partition the N replicas), and none is empty.
    `replica_groups` is the padded matrix (see `replica_group_rows`)."""
    if not replica_groups:
        return None
    groups = replica_group_rows(replica_groups)
    sizes = {len(g) for g in groups}
    if same_size and len(sizes) != 1:
        raise ShapeError(f"replica_groups {fmt_rows(replica_groups)} must all have the same size")
    if 0 in sizes:
        raise ShapeError(f"replica_groups {fmt_rows(replica_groups)} has empty groups")
    ids = [v for g in groups for v in g]
    _check_replica_ids(replica_groups, ids, "replica_groups")
    repeated = _repeated(ids)
    if repeated:
        raise ShapeError(
            f"replica_groups {fmt_rows(replica_groups)} has repeated replica ids "
            f"{fmt(repeated)}"
        )
    missing = sorted(set(range(len(ids))) - set(ids))
    if missing:
        # XLA: the groups partition the replicas, so they name every id 0..N-1 once
        raise ShapeError(
            f"replica_groups {fmt_rows(replica_groups)} must hold every replica id 0..{len(ids) - 1} "
            f"exactly once; it misses {fmt(missing)}"
        )
    return sizes.pop() if len(sizes) == 1 else None


def collective_group_size(
    replica_groups: Sequence[Sequence[int]], shard_count: int | None = None
) -> int | None:
    """The group size from `replica_groups` or, when they are empty, from shard_count
    (which must equal the groups' size when both are given); None if neither says."""
    size = replica_group_size(replica_groups)
    if shard_count is None:
        return size
    if shard_count < 1:
        raise ShapeError(f"shard_count must be positive, got {shard_count}")
    if size is not None and size != shard_count:
        raise ShapeError(
            f"shard_count {shard_count} differs from the replica group size {size} of "
            f"replica_groups {fmt_rows(replica_groups)}"
        )
    return shard_count


def check_source_target_pairs(pairs: Sequence[Sequence[int]]) -> None:
    """CollectivePermute: every pair is [source, target] of replica ids >= 0, and no two
    pairs share a source or a target."""
    if any(len(p) != 2 for p in pairs):
        raise ShapeError(
            f"source_target_pairs {fmt_rows(pairs)} must be pairs [source, target]"
        )
    _check_replica_ids(pairs, [v for p in pairs for v in p], "source_target_pairs")
    for column, role in ((0, "sources"), (1, "targets")):
        repeated = _repeated([p[column] for p in pairs])
        if repeated:
            raise ShapeError(
                f"source_target_pairs {fmt_rows(pairs)} has repeated {role} {fmt(repeated)}"
            )


def _check_dimension(operand: Shape, dimension: int, what: str) -> None:
    check_in_range([dimension], len(operand), what)


def all_gather_shape(operand: Shape, all_gather_dim: int, group_size: int) -> Shape:
    """AllGather: the operand with all_gather_dim made group_size times larger."""
    _check_dimension(operand, all_gather_dim, "all_gather_dim")
    result = list(operand)
    result[all_gather_dim] *= group_size
    return tuple(result)


def reduce_scatter_shape(operand: Shape, scatter_dimension: int, group_size: int) -> Shape:
    """ReduceScatter: the operand with scatter_dimension made group_size times smaller;
    group_size must divide it."""
    _check_dimension(operand, scatter_dimension, "scatter_dimension")
    size = operand[scatter_dimension]
    if size % group_size:
        raise ShapeError(
            f"scatter_dimension {scatter_dimension} of size {size} is not divisible by "
            f"the replica group size {group_size}"
        )
    result = list(operand)
    result[scatter_dimension] = size // group_size
    return tuple(result)


def _check_scaled_dimension(
    small: Shape, large: Shape, dimension: int, small_name: str, large_name: str
) -> None:
    """`large` is `small` with `dimension` multiplied by some group size: the other
    dimensions agree and `dimension` divides evenly."""
    others_agree = len(small) == len(large) and all(
        s == t for d, (s, t) in enumerate(zip(small, large)) if d != dimension
    )
    if not others_agree:
        raise ShapeError(
            f"{large_name} shape {fmt(large)} and {small_name} shape {fmt(small)} must "
            f"differ only in dimension {dimension}"
        )
    s, t = small[dimension], large[dimension]
    if (t % s if s else t) != 0:
        raise ShapeError(
            f"{large_name} dimension {dimension} of size {t} is not a multiple of the "
            f"{small_name}'s {s}"
        )


def check_all_gather_result(operand: Shape, result: Shape, all_gather_dim: int) -> None:
    """AllGather with the group size unknown: the result is the operand with
    all_gather_dim multiplied by some group size."""
    _check_dimension(operand, all_gather_dim, "all_gather_dim")
    _check_scaled_dimension(operand, result, all_gather_dim, "operand", "result")


def check_reduce_scatter_result(
    operand: Shape, result: Shape, scatter_dimension: int
) -> None:
    """ReduceScatter with the group size unknown: the result is the operand with
    scatter_dimension divided by some group size."""
    _check_dimension(operand, scatter_dimension, "scatter_dimension")
    _check_scaled_dimension(result, operand, scatter_dimension, "result", "operand")


def all_to_all_shape(
    operand: Shape,
    split_dimension: int,
    concat_dimension: int,
    split_count: int,
    group_size: int | None,
) -> Shape:
    """AllToAll: split_dimension, divisible by split_count, shrinks split_count times and
    concat_dimension grows split_count times; split_count is the replica group size."""
    _check_dimension(operand, split_dimension, "split_dimension")
    _check_dimension(operand, concat_dimension, "concat_dimension")
    if split_count < 1:
        raise ShapeError(f"split_count must be positive, got {split_count}")
    if group_size is not None and group_size != split_count:
        raise ShapeError(
            f"split_count {split_count} differs from the replica group size {group_size}"
        )
    size = operand[split_dimension]
    if size % split_count:
        raise ShapeError(
            f"split_dimension {split_dimension} of size {size} is not divisible by "
            f"split_count {split_count}"
        )
    result = list(operand)
    result[split_dimension] //= split_count
    result[concat_dimension] *= split_count
    return tuple(result)
