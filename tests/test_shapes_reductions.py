"""Shape rules of reduce, reduce_window, select_and_scatter, sort and map, with the
shapes of the spec's worked examples."""

import pytest
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.reductions import (
    check_map_dimensions,
    common_shape,
    reduce_shape,
    reduce_window_shape,
    same_padding,
    select_and_scatter_source_shape,
    sort_dimension,
    valid_padding,
)
from xla_opt.dialects.shapes.windows import dilated_size

# --------------------------------------------------------------------------------------
# Reduce
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "operand, dimensions, expected",
    [
        # "a 2D array: rank 2, dimension 0 of size 2 and dimension 1 of size 3";
        # reducing dimension 0 or 1 gives 1D arrays (of 3 and 2 sums)
        ((2, 3), [0], (3,)),
        ((2, 3), [1], (2,)),
        # the 3D array of sizes 4, 2, 3: reducing dimension 0 gives the 2x3
        # | 4 8 12 | 16 20 24 |, reducing dimension 2 the 4x2 | 6 15 | (x4)
        ((4, 2, 3), [0], (2, 3)),
        ((4, 2, 3), [2], (4, 2)),
        # dimensions 0 and 1 give the 1D [20, 28, 36]; all dimensions the scalar 84
        ((4, 2, 3), [0, 1], (3,)),
        ((4, 2, 3), [1, 0], (3,)),
        ((4, 2, 3), [0, 1, 2], ()),
        # the 1D [10, 11, 12, 13] folded to a scalar
        ((4,), [0], ()),
        # reducing no dimension keeps the shape
        ((2, 3), [], (2, 3)),
    ],
)
def test_reduce_shape(operand, dimensions, expected):
    assert reduce_shape(operand, dimensions) == expected


def test_reduce_rank_is_operand_rank_minus_dimensions():
    operand, dimensions = (4, 2, 3, 5), [3, 1]
    assert len(reduce_shape(operand, dimensions)) == len(operand) - len(dimensions)
    assert reduce_shape(operand, dimensions) == (4, 3)


def test_reduce_dimension_out_of_range():
    with pytest.raises(ShapeError, match=r"dimensions \[0, 2\] out of range \[0, 2\): \[2\]"):
        reduce_shape((2, 3), [0, 2])


def test_reduce_negative_dimension():
    with pytest.raises(ShapeError, match=r"dimensions \[-1\] out of range"):
        reduce_shape((2, 3), [-1])


def test_reduce_repeated_dimension():
    with pytest.raises(ShapeError, match=r"dimensions \[1, 1\] has repeated values \[1\]"):
        reduce_shape((2, 3), [1, 1])


def test_common_shape():
    # variadic reduce: V = Float[N] and K = Int[N] have one shape
    assert common_shape([(5,), (5,)], "inputs") == (5,)
    with pytest.raises(ShapeError, match=r"#0 is \[2, 3\] and #1 is \[3, 2\]"):
        common_shape([(2, 3), (3, 2)], "inputs")
    with pytest.raises(ShapeError, match="inputs must not be empty"):
        common_shape([], "inputs")


# --------------------------------------------------------------------------------------
# ReduceWindow
# --------------------------------------------------------------------------------------


def test_reduce_window_spec_max_pool():
    # "the input is a matrix of size [4x6] and both window_dimensions and
    # window_stride_dimensions are [2x3]", Padding::kValid
    assert reduce_window_shape((4, 6), [2, 3], [2, 3], padding=valid_padding(2)) == (2, 2)


# The spec's padding example: the min over [10000, 1000, 100, 10, 1] with window 3
# and stride 2.
SPEC_BASE = (5,)
SPEC_WINDOW = [3]
SPEC_STRIDE = [2]


def test_reduce_window_spec_valid():
    # kValid: two windows [10000, 1000, 100] and [100, 10, 1] -> [100, 1]
    assert valid_padding(1) == ((0, 0),)
    padding = valid_padding(1)
    assert reduce_window_shape(SPEC_BASE, SPEC_WINDOW, SPEC_STRIDE, padding=padding) == (2,)


def test_reduce_window_spec_same():
    # kSame pads one element at each side: [MAX, 10000, 1000, 100, 10, 1, MAX], then
    # three windows -> [1000, 10, 1]
    padding = same_padding(SPEC_BASE, SPEC_WINDOW, SPEC_STRIDE)
    assert padding == ((1, 1),)
    assert reduce_window_shape(SPEC_BASE, SPEC_WINDOW, SPEC_STRIDE, padding=padding) == (3,)


def test_reduce_window_window_two_stride_two():
    # the same array with window 2, stride 2: VALID keeps 2 windows; SAME gives
    # ceil(5 / 2) = 3, padding the single missing element high
    assert reduce_window_shape((5,), [2], [2]) == (2,)
    padding = same_padding((5,), [2], [2])
    assert padding == ((0, 1),)
    assert reduce_window_shape((5,), [2], [2], padding=padding) == (3,)


@pytest.mark.parametrize(
    "base, window, stride",
    [((4, 6), (2, 3), (1, 1)), ((7, 9, 1), (3, 4, 1), (1, 1, 1)), ((10,), (4,), (1,))],
)
def test_same_padding_keeps_the_shape_at_stride_one(base, window, stride):
    # "Padding::kSame pads to have the same output shape as the input if the stride is 1"
    padding = same_padding(base, window, stride)
    assert reduce_window_shape(base, window, stride, padding=padding) == base


def test_same_padding_puts_the_odd_element_high():
    # window 4 at stride 1 over 10 elements needs 3 padding elements: 1 low, 2 high
    assert same_padding((10,), [4], [1]) == ((1, 2),)


def test_same_padding_never_negative():
    # a window smaller than the stride needs no padding
    assert same_padding((6,), [1], [3]) == ((0, 0),)


def test_dilated_size():
    # (s - 1) * d + 1; a dilation of 1 leaves the size
    assert dilated_size(5, 2) == 9
    assert dilated_size(2, 3) == 4
    assert dilated_size(5, 1) == 5
    assert dilated_size(0, 3) == 0


def test_reduce_window_dilations_and_padding():
    # base 5 dilated by 2 is 9, padded [1, 0] is 10; window 2 dilated by 3 is 4:
    # floor((10 - 4) / 3) + 1 = 3
    assert reduce_window_shape((5,), [2], [3], [2], [3], [(1, 0)]) == (3,)


def test_reduce_window_defaults():
    # strides and dilations default to 1, padding to none
    assert reduce_window_shape((4, 6), [2, 3]) == (3, 4)


def test_reduce_window_does_not_fit():
    # a window larger than the padded base has no valid position
    assert reduce_window_shape((2,), [3]) == (0,)


def test_reduce_window_negative_padding_crops():
    # padding [-1, 0] drops one element: (3 - 1) + 1 = 3 windows of size 1
    assert reduce_window_shape((4,), [1], padding=[(-1, 0)]) == (3,)


@pytest.mark.parametrize(
    "window, extra, message",
    [
        ([2], {}, r"window_dimensions \[2\] must have one entry per operand dimension \(2\)"),
        ([2, 0], {}, r"window_dimensions \[2, 0\] must all be >= 1"),
        ([2, 3], {"window_strides": [0, 1]}, r"window_strides \[0, 1\] must all be >= 1"),
        ([2, 3], {"base_dilations": [1]}, r"base_dilations \[1\] must have one entry"),
        ([2, 3], {"window_dilations": [1, 0]}, r"window_dilations \[1, 0\] must all be >= 1"),
        ([2, 3], {"padding": [(0, 0)]}, r"padding \[\[0, 0\]\] must have one \[low, high\] pair"),
        ([2, 3], {"padding": [(0, 0), (0, 0, 0)]}, r"pair per operand dimension \(2\)"),
        (
            [1, 1],
            {"padding": [(-3, -2), (0, 0)]},
            r"padding \[-3, -2\] of dimension 0 leaves a negative size -1",
        ),
    ],
)
def test_reduce_window_errors(window, extra, message):
    with pytest.raises(ShapeError, match=message):
        reduce_window_shape((4, 6), window, **extra)


def test_same_padding_errors():
    with pytest.raises(ShapeError, match=r"window_strides \[0\] must all be >= 1"):
        same_padding((5,), [3], [0])


# --------------------------------------------------------------------------------------
# SelectAndScatter
# --------------------------------------------------------------------------------------


def test_select_and_scatter_source_is_windowed_shape():
    # the source has the shape of ReduceWindow over the operand: a 4x6 operand with
    # window and stride [2, 3] scatters a 2x2 source
    assert select_and_scatter_source_shape((4, 6), [2, 3], [2, 3], None, (2, 2)) == (2, 2)
    # overlapping windows (stride 1) of 2 over 5: 4 windows
    assert select_and_scatter_source_shape((5,), [2], [1], None, (4,)) == (4,)
    # SAME padding keeps ceil(5 / 2) = 3 windows
    assert select_and_scatter_source_shape((5,), [2], [2], [(0, 1)], (3,)) == (3,)


def test_select_and_scatter_wrong_source():
    message = r"source shape \[2, 3\] must be the windowed shape \[2, 2\] of operand \[4, 6\]"
    with pytest.raises(ShapeError, match=message):
        select_and_scatter_source_shape((4, 6), [2, 3], [2, 3], None, (2, 3))


# --------------------------------------------------------------------------------------
# Sort, Map
# --------------------------------------------------------------------------------------


def test_sort_dimension():
    # for a matrix, dimension 0 sorts each column, dimension 1 each row
    assert sort_dimension((2, 3), 0) == 0
    assert sort_dimension((2, 3), 1) == 1
    # "if no dimension is given, the last one is chosen"
    assert sort_dimension((2, 3), None) == 1
    # the three-operand example sorts arrays of 2 elements along their only dimension
    assert sort_dimension((2,), None) == 0


def test_sort_errors():
    with pytest.raises(ShapeError, match=r"dimension \[2\] out of range \[0, 2\): \[2\]"):
        sort_dimension((2, 3), 2)
    with pytest.raises(ShapeError, match="rank >= 1, got a scalar"):
        sort_dimension((), None)


def test_map_dimensions():
    check_map_dimensions((2, 3), [0, 1])
    check_map_dimensions((), [])
    in_order = "must be all operand dimensions in order"
    with pytest.raises(ShapeError, match=rf"dimensions \[0\] {in_order}, \[0, 1\]"):
        check_map_dimensions((2, 3), [0])
    with pytest.raises(ShapeError, match=rf"dimensions \[1, 0\] {in_order}"):
        check_map_dimensions((2, 3), [1, 0])
