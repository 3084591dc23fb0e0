"""Shape rules of gather, scatter and rng_bit_generator, with the spec's examples."""

import pytest
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.gather_scatter import (
    check_scatter,
    gather_shape,
    remapped_offset_dims,
    split_indices_shape,
)
from xla_opt.dialects.shapes.rng import check_rng_state

# ---- the spec's Gather examples ---------------------------------------------------------


def test_gather_five_slices_of_16x11():
    # "reúne 5 porciones de forma [8,6] de un arreglo [16,11]" with indices S64[5,2];
    # output index [G, O0, O1].
    assert gather_shape(
        operand=(16, 11),
        start_indices=(5, 2),
        offset_dims=(1, 2),
        collapsed_slice_dims=(),
        start_index_map=(0, 1),
        index_vector_dim=1,
        slice_sizes=(8, 6),
    ) == (5, 8, 6)


def test_gather_batched_indices_4x5x2():
    # "un array de índices de recopilación con la forma [4,5,2]": batch dims G0, G1,
    # slice size still [8,6].
    assert gather_shape((16, 11), (4, 5, 2), (2, 3), (), (0, 1), 2, (8, 6)) == (4, 5, 8, 6)


def test_gather_tf_gather_nd_rows():
    # tf.gather_nd: one-element index vectors X, start_index_map [0], slice_sizes [1,11]
    # whose dimension 0 is collapsed; each X picks a whole row: output [G0, G1, O0].
    assert gather_shape((16, 11), (4, 5, 1), (2,), (0,), (0,), 2, (1, 11)) == (4, 5, 11)


def test_remapped_offset_dims_spec_example():
    # "offset_dims.size es 4, operand.rank es 6 y collapsed_slice_dims es {0, 2}, luego,
    # remapped_offset_dims es {0→1, 1→3, 2→4, 3→5}" (the same map for scatter's
    # window_dims_to_operand_dims with inserted_window_dims {0, 2}).
    assert remapped_offset_dims(6, (0, 2)) == (1, 3, 4, 5)


def test_implicit_trailing_index_vector_dim():
    # "si start_indices era de forma [6,7] y index_vector_dim es 2, consideramos
    # implícitamente que la forma de start_indices sea [6,7,1]".
    assert split_indices_shape((6, 7), 2, "start_indices") == ((6, 7), 1)


# ---- more gather shapes ---------------------------------------------------------------


def test_gather_index_vector_dim_in_front_and_offset_dims_first():
    # indices [2, 7] with index vectors along dim 0: batch [7]; result [O0, G, O1].
    assert gather_shape((3, 4, 5), (2, 7), (0, 2), (1,), (2, 0), 0, (2, 1, 5)) == (2, 7, 5)


def test_gather_without_batch_dims():
    assert gather_shape((3, 4, 5), (1,), (0, 1), (0,), (0,), 0, (1, 0, 5)) == (0, 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((16, 11), (5, 2), (1, 2), (), (0, 1), 3, (8, 6)),
         r"index_vector_dim 3 out of range \[0, 2\] of start_indices \[5, 2\]"),
        (((16, 11), (5, 2), (1, 2), (), (0, 1), 1, (8,)),
         r"slice_sizes \[8\] must have one entry per operand dimension \(2\)"),
        (((16, 11), (5, 2), (2, 1), (), (0, 1), 1, (8, 6)),
         r"offset_dims \[2, 1\] must be strictly increasing"),
        (((16, 11), (5, 2), (1, 1), (), (0, 1), 1, (8, 6)),
         r"offset_dims \[1, 1\] has repeated values \[1\]"),
        (((16, 11), (5, 2), (1, 3), (), (0, 1), 1, (8, 6)),
         r"offset_dims \[1, 3\] out of range \[0, 3\): \[3\]"),
        (((16, 11), (5, 1), (1,), (2,), (0,), 1, (1, 11)),
         r"collapsed_slice_dims \[2\] out of range \[0, 2\)"),
        (((16, 11), (5, 1), (), (1, 0), (0,), 1, (1, 1)),
         r"collapsed_slice_dims \[1, 0\] must be strictly increasing"),
        (((16, 11), (5, 1), (1,), (), (0,), 1, (1, 11)),
         r"offset_dims \[1\] and collapsed_slice_dims \[\] must together have operand rank 2"),
        (((16, 11), (5, 2), (1, 2), (), (0,), 1, (8, 6)),
         r"start_index_map \[0\] must have one entry per index-vector element \(2\)"),
        (((16, 11), (5, 2), (1, 2), (), (1, 1), 1, (8, 6)),
         r"start_index_map \[1, 1\] has repeated values \[1\]"),
        (((16, 11), (5, 2), (1, 2), (), (0, 2), 1, (8, 6)),
         r"start_index_map \[0, 2\] out of range \[0, 2\)"),
        (((16, 11), (5, 2), (1, 2), (), (0, 1), 1, (8, 12)),
         r"slice_sizes \[8, 12\] out of bounds of operand \[16, 11\] in dimension 1"),
        (((16, 11), (5, 2), (1, 2), (), (0, 1), 1, (-1, 6)),
         r"slice_sizes \[-1, 6\] out of bounds of operand \[16, 11\] in dimension 0"),
        (((16, 11), (5, 1), (1,), (0,), (0,), 1, (2, 11)),
         r"collapsed_slice_dims \[0\] must have slice size 1, but slice_sizes is \[2, 11\]"),
    ],
)
def test_gather_errors(args, message):
    with pytest.raises(ShapeError, match=message):
        gather_shape(*args)


# ---- scatter --------------------------------------------------------------------------


def test_scatter_rows_into_matrix():
    # updates [2, 3]: batch dim 0 from scatter_indices [2, 1], window dim 1 (whole rows).
    check_scatter([(3, 3)], (2, 1), [(2, 3)], (1,), (0,), (0,), 1)


def test_scatter_variadic_with_partial_windows():
    check_scatter([(4, 5), (4, 5)], (2, 3), [(3, 2, 4), (3, 2, 4)], (1, 2), (), (1, 0), 0)


def test_scatter_implicit_index_vector_dim():
    check_scatter([(4, 5)], (6,), [(6, 5)], (1,), (0,), (0,), 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([], (2, 1), [], (), (), (), 1), r"scatter needs at least one input"),
        (([(3, 3)], (2, 1), [(2, 3), (2, 3)], (1,), (0,), (0,), 1),
         r"scatter needs one update per input: 1 inputs, 2 updates"),
        (([(3, 3), (3, 4)], (2, 1), [(2, 3), (2, 3)], (1,), (0,), (0,), 1),
         r"inputs must have one shape: input #0 is \[3, 3\], input #1 is \[3, 4\]"),
        (([(3, 3), (3, 3)], (2, 1), [(2, 3), (2, 2)], (1,), (0,), (0,), 1),
         r"updates must have one shape: update #0 is \[2, 3\], update #1 is \[2, 2\]"),
        (([(3, 3)], (2, 1), [(2, 3)], (1,), (0,), (0,), 3),
         r"index_vector_dim 3 out of range \[0, 2\] of scatter_indices \[2, 1\]"),
        (([(3, 3)], (1,), [(3, 3)], (1, 0), (), (0,), 0),
         r"update_window_dims \[1, 0\] must be strictly increasing"),
        (([(3, 3)], (2, 1), [(2, 3)], (2,), (0,), (0,), 1),
         r"update_window_dims \[2\] out of range \[0, 2\)"),
        (([(3, 3)], (2, 1), [(2,)], (), (0, 0), (0,), 1),
         r"inserted_window_dims \[0, 0\] has repeated values \[0\]"),
        (([(3, 3)], (2, 1), [(2, 3)], (1,), (2,), (0,), 1),
         r"inserted_window_dims \[2\] out of range \[0, 2\)"),
        (([(3, 3)], (2, 1), [(2, 3)], (1,), (), (0,), 1),
         r"update_window_dims \[1\] and inserted_window_dims \[\] must together have "
         r"operand rank 2"),
        (([(3, 3)], (2, 1), [(2, 3)], (1,), (0,), (0, 1), 1),
         r"scatter_dims_to_operand_dims \[0, 1\] must have one entry per index-vector "
         r"element \(1\)"),
        (([(3, 3)], (2, 2), [(2,)], (), (0, 1), (0, 0), 1),
         r"scatter_dims_to_operand_dims \[0, 0\] has repeated values \[0\]"),
        (([(3, 3)], (2, 1), [(2, 3)], (1,), (0,), (2,), 1),
         r"scatter_dims_to_operand_dims \[2\] out of range \[0, 2\)"),
        (([(3, 3)], (2, 1), [(2, 1, 3)], (2,), (0,), (0,), 1),
         r"updates \[2, 1, 3\] must have rank 2"),
        (([(3, 3)], (2, 1), [(2, 4)], (1,), (0,), (0,), 1),
         r"updates \[2, 4\] window dimension 1 exceeds the operand's window bounds \[3\]"),
        (([(3, 3)], (2, 1), [(5, 3)], (1,), (0,), (0,), 1),
         r"updates \[5, 3\] scatter dimensions \[0\] must equal the batch dims \[2\]"),
    ],
)
def test_scatter_errors(args, message):
    with pytest.raises(ShapeError, match=message):
        check_scatter(*args)


# ---- rng_bit_generator ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("algorithm", "state"),
    [("THREE_FRY", (2,)), ("PHILOX", (2,)), ("PHILOX", (3,)), ("DEFAULT", (2,))],
)
def test_rng_states(algorithm, state):
    check_rng_state(algorithm, state)


@pytest.mark.parametrize(
    ("algorithm", "state", "message"),
    [
        ("THREE_FRY", (3,), r"initial_state shape \[3\] does not suit THREE_FRY; expected \[2\]$"),
        ("PHILOX", (4,), r"expected \[2\] or \[3\]"),
        ("PHILOX", (1, 2), r"initial_state shape \[1, 2\] does not suit PHILOX"),
    ],
)
def test_rng_state_errors(algorithm, state, message):
    with pytest.raises(ShapeError, match=message):
        check_rng_state(algorithm, state)
