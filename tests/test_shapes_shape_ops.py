"""Shape rules of the shape family, with the worked examples of operation_semantics.es.txt
(Broadcast, Collapse, Reshape, Concatenate, Slice, DynamicSlice, DynamicUpdateSlice,
SetDimensionSize, GetTupleElement) and one error case per rule."""

import pytest
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.shape_ops import (
    broadcast_shape,
    check_broadcast_in_dim,
    check_dimension,
    check_dynamic_update_slice,
    check_reshape,
    check_reverse,
    check_tuple_index,
    collapse_shape,
    concatenate_shape,
    dynamic_slice_shape,
    pad_shape,
    slice_shape,
    transpose_shape,
)

# the spec's `v = f32[4x2x3]` of the Collapse and Reshape examples
V = (4, 2, 3)

# --------------------------------------------------------------------------------------
# Broadcast, BroadcastInDim
# --------------------------------------------------------------------------------------


def test_broadcast_scalar_example():
    # "si operand es un f32 escalar ... y broadcast_sizes es {2, 3}, ... la forma f32[2, 3]"
    assert broadcast_shape((), (2, 3)) == (2, 3)


def test_broadcast_new_dims_on_the_left():
    # {a0, ..., aN} + {b0, ..., bM}
    assert broadcast_shape((5, 6), (2, 3, 4)) == (2, 3, 4, 5, 6)


def test_broadcast_negative_size():
    with pytest.raises(ShapeError, match=r"broadcast_sizes \[2, -1\] must be non-negative"):
        broadcast_shape((), (2, -1))


@pytest.mark.parametrize(
    "operand, result, dims",
    [
        ((3,), (2, 3), (1,)),
        ((1, 3), (2, 3), (0, 1)),  # a size-1 dimension expands
        ((1, 3), (3, 5, 4), (2, 0)),  # dims in any order
        ((), (2, 3), ()),
    ],
)
def test_broadcast_in_dim_valid(operand, result, dims):
    check_broadcast_in_dim(operand, result, dims)


@pytest.mark.parametrize(
    "operand, result, dims, message",
    [
        ((2, 3), (2, 3), (1,), r"broadcast_dimensions \[1\] must have one entry per operand dimension \(2\)"),
        ((3,), (2, 3), (2,), r"broadcast_dimensions \[2\] out of range \[0, 2\): \[2\]"),
        ((3, 3), (3, 3), (1, 1), r"broadcast_dimensions \[1, 1\] has repeated values \[1\]"),
        ((3,), (2, 3), (0,), r"operand dimension 0 of size 3 must be 1 or equal to result dimension 0 of size 2"),
    ],
)
def test_broadcast_in_dim_errors(operand, result, dims, message):
    with pytest.raises(ShapeError, match=message):
        check_broadcast_in_dim(operand, result, dims)


# --------------------------------------------------------------------------------------
# Reshape, Collapse, Transpose, Rev
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "operand, dimensions, new_sizes",
    [
        (V, (0, 1, 2), (24,)),  # v012_24
        (V, (0, 1, 2), (8, 3)),  # v012_83
        (V, (1, 2, 0), (24,)),  # v021_24
        (V, (1, 2, 0), (8, 3)),  # v021_83
        (V, (1, 2, 0), (2, 6, 2)),  # v021_262
        ((1, 1), (0, 1), ()),  # Reshape(f32[1x1] {{5}}, {0,1}, {}) == 5
        ((), (), (1, 1)),  # Reshape(5, {}, {1,1}) == f32[1x1] {{5}}
        (V, None, (24,)),  # dimensions omitted: {0, ..., rank - 1}
    ],
)
def test_reshape_spec_examples(operand, dimensions, new_sizes):
    check_reshape(operand, new_sizes, dimensions)


def test_reshape_element_count():
    with pytest.raises(ShapeError, match=r"\[4, 2, 3\] \(24 elements\) to \[5, 5\] \(25 elements\)"):
        check_reshape(V, (5, 5), None)


@pytest.mark.parametrize("dimensions", [(0, 2, 2), (1, 0), (0, 1, 2, 3)])
def test_reshape_dimensions_not_a_permutation(dimensions):
    with pytest.raises(ShapeError, match=r"is not a permutation of \[0, 1, 2\]"):
        check_reshape(V, (24,), dimensions)


def test_collapse_v012():
    # let v012 = Collapse(v, {0,1,2}); then v012 == f32[24]
    assert collapse_shape(V, (0, 1, 2)) == (24,)


# The spec's v01/v12 listings are swapped with respect to its own rule: it labels the
# f32[4x6] listing (rows {10..17}, {20..27}, ...) `Collapse(v, {0,1})` and the f32[8x3] one
# `Collapse(v, {1,2})`. The normative text ("replaced by a single new dimension, in the
# same position, of size equal to the product") gives {0,1} -> 4*2 = 8 in position 0,
# i.e. f32[8x3], and {1,2} -> 2*3 = 6 in position 1, i.e. f32[4x6], the shapes of the
# two listings (and XlaBuilder::Collapse's behavior). We follow the rule.
def test_collapse_v01():
    assert collapse_shape(V, (0, 1)) == (8, 3)


def test_collapse_v12():
    assert collapse_shape(V, (1, 2)) == (4, 6)


def test_collapse_nothing_is_identity():
    assert collapse_shape(V, ()) == V
    assert collapse_shape(V, (1,)) == V


@pytest.mark.parametrize("dimensions", [(1, 0), (0, 2)])  # the spec's invalid sets
def test_collapse_not_in_order_and_consecutive(dimensions):
    with pytest.raises(ShapeError, match="must be consecutive and in increasing order"):
        collapse_shape(V, dimensions)


def test_collapse_out_of_range():
    with pytest.raises(ShapeError, match=r"dimensions \[2, 3\] out of range \[0, 3\)"):
        collapse_shape(V, (2, 3))


def test_transpose():
    # input_dimensions[permutation[i]] = output_dimensions[i]
    assert transpose_shape(V, (1, 2, 0)) == (2, 3, 4)
    assert transpose_shape((2, 3), (1, 0)) == (3, 2)


def test_transpose_not_a_permutation():
    with pytest.raises(ShapeError, match=r"permutation \[0, 0\] is not a permutation of \[0, 1\]"):
        transpose_shape((2, 3), (0, 0))


def test_reverse():
    check_reverse(V, (0, 2))
    with pytest.raises(ShapeError, match=r"dimensions \[0, 3\] out of range \[0, 3\): \[3\]"):
        check_reverse(V, (0, 3))
    with pytest.raises(ShapeError, match=r"dimensions \[1, 1\] has repeated values \[1\]"):
        check_reverse(V, (1, 1))


# --------------------------------------------------------------------------------------
# Slice, DynamicSlice, DynamicUpdateSlice
# --------------------------------------------------------------------------------------


def test_slice_spec_examples():
    # Slice(a, {2}, {4}) of a 5-element a produces {2.0, 3.0}
    assert slice_shape((5,), (2,), (4,), (1,)) == (2,)
    # Slice(b, {2, 1}, {4, 3}) of a 4x3 b produces {{7.0, 8.0}, {10.0, 11.0}}
    assert slice_shape((4, 3), (2, 1), (4, 3), (1, 1)) == (2, 2)


@pytest.mark.parametrize(
    "start, limit, stride, size",
    [(0, 5, 2, 3), (1, 5, 2, 2), (0, 5, 5, 1), (0, 5, 7, 1), (2, 2, 1, 0)],
)
def test_slice_strides_round_up(start, limit, stride, size):
    assert slice_shape((5,), (start,), (limit,), (stride,)) == (size,)


@pytest.mark.parametrize(
    "start, limit, stride, message",
    [
        (-1, 2, 1, r"got start -1, limit 2, size 5"),
        (3, 2, 1, r"got start 3, limit 2, size 5"),
        (0, 6, 1, r"got start 0, limit 6, size 5"),
        (0, 5, 0, r"stride must be at least 1, got 0"),
    ],
)
def test_slice_errors(start, limit, stride, message):
    with pytest.raises(ShapeError, match=message):
        slice_shape((5,), (start,), (limit,), (stride,))


def test_slice_one_entry_per_dimension():
    with pytest.raises(ShapeError, match=r"strides \[1\] must have one entry per operand dimension \(2\)"):
        slice_shape((4, 3), (0, 0), (4, 3), (1,))


def test_dynamic_slice_spec_examples():
    # DynamicSlice(a, s, {2}) of a 5-element a produces {2.0, 3.0}
    assert dynamic_slice_shape((5,), 1, (2,)) == (2,)
    # DynamicSlice(b, s, {2, 2}) of a 4x3 b produces {{7.0, 8.0}, {10.0, 11.0}}
    assert dynamic_slice_shape((4, 3), 2, (2, 2)) == (2, 2)


def test_dynamic_slice_errors():
    with pytest.raises(ShapeError, match=r"1 start indices given, but the operand \[4, 3\] has rank 2"):
        dynamic_slice_shape((4, 3), 1, (2, 2))
    with pytest.raises(ShapeError, match=r"size 4 of dimension 1 is not in \[0, 3\]"):
        dynamic_slice_shape((4, 3), 2, (2, 4))
    with pytest.raises(ShapeError, match=r"size -1 of dimension 0 is not in \[0, 5\]"):
        dynamic_slice_shape((5,), 1, (-1,))


def test_dynamic_update_slice_spec_examples():
    # a: 5 elements, u: {5.0, 6.0}, s = {2}
    check_dynamic_update_slice((5,), (2,), 1)
    # b: 4x3, u: 3x2, s = {1, 1}
    check_dynamic_update_slice((4, 3), (3, 2), 2)


def test_dynamic_update_slice_errors():
    with pytest.raises(ShapeError, match=r"3 start indices given, but the operand \[4, 3\] has rank 2"):
        check_dynamic_update_slice((4, 3), (3, 2), 3)
    with pytest.raises(ShapeError, match=r"update \[2\] must have the rank of the operand \[4, 3\]"):
        check_dynamic_update_slice((4, 3), (2,), 2)
    with pytest.raises(ShapeError, match=r"update \[3, 4\] must not be larger than the operand \[4, 3\]"):
        check_dynamic_update_slice((4, 3), (3, 4), 2)


# --------------------------------------------------------------------------------------
# Concatenate, Pad
# --------------------------------------------------------------------------------------


def test_concatenate_spec_examples():
    # Concat({{2, 3}, {4, 5}, {6, 7}}, 0) >>> {2, 3, 4, 5, 6, 7}
    assert concatenate_shape([(2,), (2,), (2,)], 0) == (6,)
    # a: 3x2, b: 1x2; Concat({a, b}, 0) is 4x2
    assert concatenate_shape([(3, 2), (1, 2)], 0) == (4, 2)


def test_concatenate_single_input_and_inner_dimension():
    assert concatenate_shape([(3, 2)], 1) == (3, 2)
    assert concatenate_shape([(3, 2), (3, 5)], 1) == (3, 7)


@pytest.mark.parametrize(
    "inputs, dimension, message",
    [
        ([], 0, "concatenate needs at least one input"),
        ([(), ()], 0, "rank-0 inputs cannot be concatenated"),
        ([(2,), (2,)], 1, r"dimension 1 out of range \[0, 1\)"),
        ([(2,), (2, 2)], 0, r"input 1 \[2, 2\] must have the rank of input 0 \[2\]"),
        ([(3, 2), (1, 3)], 0, r"input 1 \[1, 3\] differs from input 0 \[3, 2\] in dimension 1"),
    ],
)
def test_concatenate_errors(inputs, dimension, message):
    with pytest.raises(ShapeError, match=message):
        concatenate_shape(inputs, dimension)


@pytest.mark.parametrize(
    "operand, low, high, interior, expected",
    [
        ((3,), (0,), (0,), (0,), (3,)),  # all (0, 0) and 0: a no-op
        ((3,), (1,), (2,), (0,), (6,)),
        ((3,), (0,), (0,), (1,), (5,)),  # interior padding between the 3 elements
        ((3,), (1,), (2,), (1,), (8,)),
        ((3,), (-1,), (-1,), (1,), (3,)),  # negative edges remove from the padded array
        ((0,), (1,), (1,), (5,), (2,)),  # no interior padding in an empty dimension
        ((3, 2), (1, 0), (2, -1), (1, 0), (8, 1)),
    ],
)
def test_pad(operand, low, high, interior, expected):
    assert pad_shape(operand, low, high, interior) == expected


def test_pad_errors():
    with pytest.raises(ShapeError, match=r"interior_padding \[-1\] must be non-negative"):
        pad_shape((3,), (0,), (0,), (-1,))
    with pytest.raises(ShapeError, match=r"padding \[3\] gives negative dimensions \[-1\]"):
        pad_shape((3,), (-2,), (-2,), (0,))
    with pytest.raises(ShapeError, match=r"edge_padding_low \[0\] must have one entry per operand dimension \(2\)"):
        pad_shape((3, 2), (0,), (0, 0), (0, 0))


# --------------------------------------------------------------------------------------
# Dimension sizes, tuples
# --------------------------------------------------------------------------------------


def test_dimension_in_range():
    # set_dimension_size(v, five, /*dimension=*/0) on f32[10]
    check_dimension((10,), 0)
    with pytest.raises(ShapeError, match=r"dimension 1 out of range \[0, 1\) for operand \[10\]"):
        check_dimension((10,), 1)
    with pytest.raises(ShapeError, match=r"dimension -1 out of range"):
        check_dimension((10,), -1)


def test_tuple_index():
    # t: (f32[10], s32); gettupleelement(t, 1) is s32
    check_tuple_index(2, 1)
    with pytest.raises(ShapeError, match=r"index 2 out of range \[0, 2\) of the tuple"):
        check_tuple_index(2, 2)
