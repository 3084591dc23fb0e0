"""Shape rules of the collectives, with the worked examples of the spec's AllGather,
ReduceScatter and AllToAll sections and its replica-group examples."""

import pytest
from xla_opt.dialects.shapes.collectives import (
    all_gather_shape,
    all_to_all_shape,
    check_all_gather_result,
    check_reduce_scatter_result,
    check_source_target_pairs,
    collective_group_size,
    reduce_scatter_shape,
    replica_group_size,
)
from xla_opt.dialects.shapes.common import ShapeError

# ---- replica groups ------------------------------------------------------------------


@pytest.mark.parametrize(
    "groups, expected",
    [
        # "replica_groups = {0, 2}, {1, 3}" (AllGather, AllReduce, ReduceScatter)
        ([(0, 2), (1, 3)], 2),
        # "replica_groups = { {1,2,3}, {4,5,0} }" (AllToAll)
        ([(1, 2, 3), (4, 5, 0)], 3),
        ([(0,)], 1),
        # empty: all replicas in one group of unstated size
        ([], None),
    ],
)
def test_replica_group_size(groups, expected):
    assert replica_group_size(groups) == expected


def test_replica_groups_of_different_sizes():
    # "Cuando hay más de un grupo de réplicas, todos deben tener el mismo tamaño."
    with pytest.raises(ShapeError, match=r"\[\[0, 1\], \[2\]\] must all have the same size"):
        replica_group_size([(0, 1), (2,)])


def test_replica_groups_repeated_id():
    with pytest.raises(ShapeError, match=r"\[\[0, 1\], \[1, 2\]\] has repeated replica ids \[1\]"):
        replica_group_size([(0, 1), (1, 2)])


def test_replica_groups_negative_id():
    with pytest.raises(ShapeError, match=r"\[\[0, -3\]\] has negative replica ids \[-3\]"):
        replica_group_size([(0, -3)])


def test_replica_groups_empty_group():
    with pytest.raises(ShapeError, match=r"\[\[\]\] has empty groups"):
        replica_group_size([()])


@pytest.mark.parametrize(
    "groups, shard_count, expected",
    [
        ([], 2, 2),  # "shard_count ... needed when replica_groups is empty"
        ([(0, 2), (1, 3)], 2, 2),
        ([(0, 2), (1, 3)], None, 2),
        ([], None, None),
    ],
)
def test_collective_group_size(groups, shard_count, expected):
    assert collective_group_size(groups, shard_count) == expected


def test_shard_count_must_match_groups():
    # "Si replica_groups no está vacío, shard_count debe ser igual al tamaño de cada grupo"
    with pytest.raises(ShapeError, match=r"shard_count 4 differs from the replica group size 2"):
        collective_group_size([(0, 2), (1, 3)], 4)


def test_shard_count_positive():
    with pytest.raises(ShapeError, match="shard_count must be positive, got 0"):
        collective_group_size([], 0)


# ---- all_gather ----------------------------------------------------------------------


def test_all_gather_spec_example():
    # Two replicas holding [1.0, 2.5] and [3.0, 5.25]: all_gather_dim 0 gives
    # [1.0, 2.5, 3.0, 5.25], f32[2] -> f32[4].
    assert all_gather_shape((2,), 0, 2) == (4,)


def test_all_gather_inner_dimension():
    assert all_gather_shape((2, 3), 1, 4) == (2, 12)


def test_all_gather_dim_out_of_range():
    with pytest.raises(ShapeError, match=r"all_gather_dim \[1\] out of range \[0, 1\)"):
        all_gather_shape((2,), 1, 2)


def test_all_gather_unknown_group_size():
    check_all_gather_result((2,), (4,), 0)
    check_all_gather_result((2, 3), (2, 9), 1)
    check_all_gather_result((0, 3), (0, 3), 0)
    with pytest.raises(ShapeError, match=r"result dimension 0 of size 5 is not a multiple of the operand's 2"):
        check_all_gather_result((2,), (5,), 0)
    with pytest.raises(ShapeError, match=r"result shape \[4, 6\] and operand shape \[2, 3\] must differ only in dimension 1"):
        check_all_gather_result((2, 3), (4, 6), 1)
    with pytest.raises(ShapeError, match=r"must differ only in dimension 0"):
        check_all_gather_result((2,), (4, 1), 0)


# ---- reduce_scatter ------------------------------------------------------------------


def test_reduce_scatter_spec_example():
    # Two replicas holding [1.0, 2.25] and [3.0, 5.25]: scatter_dim 0 gives [4.0] on
    # the first replica and [7.5] on the second, f32[2] -> f32[1].
    assert reduce_scatter_shape((2,), 0, 2) == (1,)


def test_reduce_scatter_inner_dimension():
    assert reduce_scatter_shape((4, 6), 1, 3) == (4, 2)


def test_reduce_scatter_not_divisible():
    with pytest.raises(ShapeError, match=r"scatter_dimension 0 of size 5 is not divisible by the replica group size 2"):
        reduce_scatter_shape((5,), 0, 2)


def test_reduce_scatter_dimension_out_of_range():
    with pytest.raises(ShapeError, match=r"scatter_dimension \[2\] out of range \[0, 2\)"):
        reduce_scatter_shape((4, 6), 2, 2)


def test_reduce_scatter_unknown_group_size():
    check_reduce_scatter_result((4, 6), (1, 6), 0)
    with pytest.raises(ShapeError, match=r"operand dimension 0 of size 4 is not a multiple of the result's 3"):
        check_reduce_scatter_result((4,), (3,), 0)


# ---- all_to_all ----------------------------------------------------------------------


def test_all_to_all_spec_example():
    # x: f32[4, 16], split_dimension 1, concat_dimension 0, split_count 4: each block is
    # f32[4, 4] and the result on each core is f32[16, 4].
    assert all_to_all_shape((4, 16), 1, 0, 4, None) == (16, 4)


def test_all_to_all_spec_groups():
    # replica_groups { {1,2,3}, {4,5,0} }: groups of 3, so split_count 3.
    groups = [(1, 2, 3), (4, 5, 0)]
    assert all_to_all_shape((6, 3), 0, 1, 3, collective_group_size(groups)) == (2, 9)


def test_all_to_all_same_split_and_concat_dimension():
    assert all_to_all_shape((6, 3), 0, 0, 2, 2) == (6, 3)


def test_all_to_all_split_not_divisible():
    # "El tamaño de la dimensión del operando en split_dimension es divisible por split_count."
    with pytest.raises(ShapeError, match=r"split_dimension 1 of size 15 is not divisible by split_count 4"):
        all_to_all_shape((4, 15), 1, 0, 4, None)


def test_all_to_all_split_count_is_group_size():
    with pytest.raises(ShapeError, match=r"split_count 4 differs from the replica group size 2"):
        all_to_all_shape((4, 16), 1, 0, 4, 2)


def test_all_to_all_split_count_positive():
    with pytest.raises(ShapeError, match="split_count must be positive, got 0"):
        all_to_all_shape((4, 16), 1, 0, 0, None)


@pytest.mark.parametrize("split, concat, name", [(2, 0, "split_dimension"), (0, -1, "concat_dimension")])
def test_all_to_all_dimensions_in_range(split, concat, name):
    with pytest.raises(ShapeError, match=rf"{name} \[-?\d\] out of range \[0, 2\)"):
        all_to_all_shape((4, 16), split, concat, 4, None)


# ---- collective_permute --------------------------------------------------------------


def test_source_target_pairs_valid():
    check_source_target_pairs([(0, 1), (1, 2), (2, 0)])
    check_source_target_pairs([(0, 2)])  # replica 1 is no target: it gets zeros
    check_source_target_pairs([])


def test_source_target_pairs_repeated_source():
    # "Dos pares cualesquiera no deben tener el mismo ID de réplica ... de origen."
    with pytest.raises(ShapeError, match=r"\[\[0, 1\], \[0, 2\]\] has repeated sources \[0\]"):
        check_source_target_pairs([(0, 1), (0, 2)])


def test_source_target_pairs_repeated_target():
    with pytest.raises(ShapeError, match=r"\[\[0, 2\], \[1, 2\]\] has repeated targets \[2\]"):
        check_source_target_pairs([(0, 2), (1, 2)])


def test_source_target_pairs_negative():
    with pytest.raises(ShapeError, match=r"has negative replica ids \[-1\]"):
        check_source_target_pairs([(-1, 0)])


def test_source_target_pairs_not_pairs():
    with pytest.raises(ShapeError, match=r"\[\[0, 1, 2\]\] must be pairs \[source, target\]"):
        check_source_target_pairs([(0, 1, 2)])


def test_replica_groups_hold_every_id():
    """Issue 13: [[0, 1, 3]] was accepted; the groups partition the N replicas, so
    every id 0..N-1 appears once (the spec's examples above all do)."""
    with pytest.raises(ShapeError, match=r"\[\[0, 1, 3\]\] must hold every replica id 0\.\.2 exactly once; it misses \[2\]"):
        replica_group_size([(0, 1, 3)])
    with pytest.raises(ShapeError, match=r"it misses \[0\]"):
        replica_group_size([(1, 2), (3, 4)])
