"""Shape rules of the linear-algebra family, checked against the spec's worked examples
(operation_semantics.es.txt: Punto, DotGeneral, ConvConGeneralPadding, Fft, Colesky,
TriangularSolve, BatchNorm*) and against the errors each rule raises."""

import pytest
from xla_opt.dialects.shapes.batch_norm import batch_norm_feature_size
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.linear_algebra import (
    ConvDimensionNumbers,
    check_square_matrices,
    convolution_shape,
    dot_general_shape,
    dot_shape,
    fft_shape,
    triangular_solve_shape,
    window_output_size,
)
from xla_opt.dialects.shapes.windows import dilated_size

# --------------------------------------------------------------------------------------
# Dot: the spec's table of rank combinations
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lhs", "rhs", "expected"),
    [
        ((5,), (5,), ()),  # vector [n] dot vector [n] -> scalar
        ((2, 5), (5,), (2,)),  # matrix [m x k] dot vector [k] -> vector [m]
        ((2, 5), (5, 7), (2, 7)),  # matrix [m x k] dot matrix [k x n] -> matrix [m x n]
        ((5,), (5, 7), (7,)),  # lhs of rank 1 contracts its first dimension
    ],
)
def test_dot(lhs, rhs, expected):
    assert dot_shape(lhs, rhs) == expected


def test_dot_contracting_sizes_differ():
    with pytest.raises(ShapeError, match=r"lhs \[2, 3\] dimension 1 has size 3, rhs \[4, 5\]"):
        dot_shape((2, 3), (4, 5))


@pytest.mark.parametrize(("lhs", "rhs", "bad"), [((2, 3, 4), (4,), "lhs"), ((3,), (), "rhs")])
def test_dot_ranks(lhs, rhs, bad):
    with pytest.raises(ShapeError, match=f"{bad} .* must be a vector or a matrix"):
        dot_shape(lhs, rhs)


# --------------------------------------------------------------------------------------
# DotGeneral
# --------------------------------------------------------------------------------------


def test_dot_general_spec_contracting_example():
    # lhs {{1,2,3},{4,5,6}} and rhs {{1,1,1},{2,2,2}} contracted over dimension 1 of
    # both give {{6, 12}, {15, 30}}: a 2x2 result.
    assert dot_general_shape((2, 3), (2, 3), (), (), (1,), (1,)) == (2, 2)


def test_dot_general_spec_batch_example():
    # Batch size 2 of 2x2 matrices: batch 0/0, contracting lhs 2 with rhs 1 -> 2x2x2.
    assert dot_general_shape((2, 2, 2), (2, 2, 2), (0,), (0,), (2,), (1,)) == (2, 2, 2)


@pytest.mark.parametrize(
    ("lhs", "rhs", "expected"),
    [
        ((3, 4, 5), (3, 5, 6), (3, 4, 6)),  # [b0, m, k] dot [b0, k, n] -> [b0, m, n]
        ((3, 2, 4, 5), (3, 2, 5, 6), (3, 2, 4, 6)),  # [b0, b1, m, k] dot [b0, b1, k, n]
    ],
)
def test_dot_general_batch_matmul_table(lhs, rhs, expected):
    batch = tuple(range(len(lhs) - 2))
    assert dot_general_shape(lhs, rhs, batch, batch, (len(lhs) - 1,), (len(rhs) - 2,)) == expected


def test_dot_general_result_order_batch_lhs_free_rhs_free():
    # lhs [k=3, b=4, m=2], rhs [n=5, b=4, k=3]: batch first, then m, then n.
    assert dot_general_shape((3, 4, 2), (5, 4, 3), (1,), (1,), (0,), (2,)) == (4, 2, 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((0,), (0,), (3,), (1,)), r"lhs_contracting_dimensions \[3\] out of range \[0, 3\)"),
        (((0, 0), (0, 2), (2,), (1,)), r"lhs_batching_dimensions \[0, 0\] has repeated values \[0\]"),
        (((0,), (0,), (0,), (1,)), r"share dimensions \[0\]"),
        (((0,), (), (2,), (1,)), r"lhs_batching_dimensions \[0\] and rhs_batching_dimensions \[\]"),
        (((0,), (0,), (1,), (1,)), r"contracting dimension sizes differ"),
    ],
)
def test_dot_general_errors(args, message):
    with pytest.raises(ShapeError, match=message):
        dot_general_shape((2, 3, 4), (2, 4, 5), *args)


def test_dot_general_batch_sizes_differ():
    with pytest.raises(ShapeError, match=r"batching dimension sizes differ: lhs \[2, 3, 4\]"):
        dot_general_shape((2, 3, 4), (5, 4, 5), (0,), (0,), (2,), (1,))


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------

# The spec's layout: input [batch, z, spatial...], kernel [output-z, input-z, spatial...],
# output [batch, z, spatial...].
NCHW = ConvDimensionNumbers(
    input_batch=0, input_feature=1, input_spatial=(2, 3),
    kernel_input_feature=1, kernel_output_feature=0, kernel_spatial=(2, 3),
    output_batch=0, output_feature=1, output_spatial=(2, 3),
)  # fmt: skip


def test_dilated_size_spec_example():
    # 1, 2, 3 dilated by 2 is 1, x, 2, x, 3; with factor 4 it is 1xxx2xxx3.
    assert dilated_size(3, 2) == 5
    assert dilated_size(3, 4) == 9
    assert dilated_size(0, 4) == 0


def test_window_positions():
    # A 2-wide window with stride 2 over 5 elements sits at offsets 0 and 2.
    assert window_output_size(5, 2, 2, (0, 0), 1, 1) == 2
    # The spec's padding (2, 3): 2 zeros low and 3 high make 5 elements 10.
    assert window_output_size(5, 3, 1, (2, 3), 1, 1) == 8
    # Negative padding removes elements.
    assert window_output_size(5, 3, 1, (-1, 0), 1, 1) == 2
    # A window larger than the padded base fits nowhere.
    assert window_output_size(2, 3, 1, (0, 0), 1, 1) == 0


def test_convolution_valid_and_same():
    # VALID (no padding): 5 - 3 + 1 = 3; SAME padding (1, 1) keeps 5 at stride 1.
    assert convolution_shape((1, 2, 5, 5), (4, 2, 3, 3), NCHW) == (1, 4, 3, 3)
    assert convolution_shape((1, 2, 5, 5), (4, 2, 3, 3), NCHW, padding=[(1, 1), (1, 1)]) == (
        1, 4, 5, 5,
    )  # fmt: skip


def test_convolution_strides_and_dilations():
    # stride 3 over 7 - 3 + 1 = 5 positions keeps offsets 0 and 3; an atrous kernel of 3
    # dilated by 2 spans 5; a transposed convolution dilates 7 inputs to 13.
    shape = convolution_shape(
        (1, 1, 7, 7), (1, 1, 3, 3), NCHW, window_strides=(3, 1), rhs_dilation=(1, 2),
        lhs_dilation=(1, 2),
    )  # fmt: skip
    assert shape == (1, 1, 2, 9)


def test_convolution_depthwise():
    # Depthwise: feature_group_count = input features (8), kernel input features 1,
    # 8 * channel_multiplier (2) output features.
    assert convolution_shape(
        (2, 8, 6, 6), (16, 1, 3, 3), NCHW, feature_group_count=8
    ) == (2, 16, 4, 4)


def test_convolution_batch_groups():
    # The output batch is input batch / batch_group_count.
    assert convolution_shape(
        (4, 3, 5, 5), (6, 3, 1, 1), NCHW, batch_group_count=2
    ) == (2, 6, 5, 5)


def test_convolution_permuted_layouts():
    # Input NHWC, kernel HWIO, output NWHC (spatial dimensions swapped in the output).
    dims = ConvDimensionNumbers(
        input_batch=0, input_feature=3, input_spatial=(1, 2),
        kernel_input_feature=2, kernel_output_feature=3, kernel_spatial=(0, 1),
        output_batch=0, output_feature=3, output_spatial=(2, 1),
    )  # fmt: skip
    assert convolution_shape((2, 10, 6, 3), (3, 3, 3, 7), dims) == (2, 4, 8, 7)


@pytest.mark.parametrize(
    ("lhs", "rhs", "kwargs", "message"),
    [
        ((1, 2, 5), (4, 2, 3, 3), {}, r"lhs \[1, 2, 5\] must have rank 4"),
        ((1, 2, 5, 5), (4, 3, 3, 3), {}, r"input feature size 2 must equal kernel input feature"),
        ((1, 3, 5, 5), (4, 1, 3, 3), {"feature_group_count": 2},
         r"feature_group_count 2 does not divide the input feature size 3"),
        ((1, 4, 5, 5), (3, 2, 3, 3), {"feature_group_count": 2},
         r"feature_group_count 2 does not divide the kernel output feature size 3"),
        ((3, 2, 5, 5), (4, 2, 3, 3), {"batch_group_count": 2},
         r"batch_group_count 2 does not divide the input batch size 3"),
        ((4, 2, 5, 5), (3, 2, 3, 3), {"batch_group_count": 2},
         r"batch_group_count 2 does not divide the kernel output feature size 3"),
        ((4, 4, 5, 5), (4, 2, 3, 3), {"batch_group_count": 2, "feature_group_count": 2},
         r"cannot both exceed 1"),
        ((1, 2, 5, 5), (4, 2, 3, 3), {"feature_group_count": 0}, r"must be at least 1, got 0"),
        ((1, 2, 5, 5), (4, 2, 3, 3), {"window_strides": (1, 0)}, r"window_strides \[1, 0\] must be at least 1"),
        ((1, 2, 5, 5), (4, 2, 3, 3), {"lhs_dilation": (1,)}, r"lhs_dilation \[1\] must have one entry"),
        ((1, 2, 5, 5), (4, 2, 3, 3), {"padding": [(0, 0)]}, r"one \[low, high\] pair per spatial"),
        ((1, 2, 5, 5), (4, 2, 3, 3), {"padding": [(0, 0), (-4, -2)]}, r"removes more than the 5"),
    ],
)  # fmt: skip
def test_convolution_errors(lhs, rhs, kwargs, message):
    with pytest.raises(ShapeError, match=message):
        convolution_shape(lhs, rhs, NCHW, **kwargs)


def test_convolution_dimension_numbers_must_permute():
    dims = ConvDimensionNumbers(
        input_batch=0, input_feature=0, input_spatial=(2, 3),
        kernel_input_feature=1, kernel_output_feature=0, kernel_spatial=(2, 3),
        output_batch=0, output_feature=1, output_spatial=(2, 3),
    )  # fmt: skip
    with pytest.raises(ShapeError, match=r"\[0, 0, 2, 3\] is not a permutation of \[0, 1, 2, 3\]"):
        convolution_shape((1, 2, 5, 5), (4, 2, 3, 3), dims)


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------


def test_fft_keeps_shape():
    assert fft_shape((4, 8), "FFT", (8,)) == (4, 8)
    assert fft_shape((4, 8), "IFFT", (4, 8)) == (4, 8)


def test_rfft_spec_lengths_16_and_17_share_the_output_shape():
    # The spec: RFFT(fft_length=[16]) has the output shape of RFFT(fft_length=[17]),
    # the innermost axis reduced to fft_length[-1] // 2 + 1 = 9.
    assert fft_shape((3, 16), "RFFT", (16,)) == (3, 9)
    assert fft_shape((3, 17), "RFFT", (17,)) == (3, 9)


def test_irfft_expands_to_fft_length():
    # Which is why IRFFT needs fft_length: 9 frequencies give 16 or 17 samples.
    assert fft_shape((3, 9), "IRFFT", (16,)) == (3, 16)
    assert fft_shape((3, 9), "IRFFT", (17,)) == (3, 17)


def test_multidimensional_fft_resizes_only_the_innermost_axis():
    assert fft_shape((5, 2, 4, 6), "RFFT", (2, 4, 6)) == (5, 2, 4, 4)
    assert fft_shape((5, 2, 4, 4), "IRFFT", (2, 4, 6)) == (5, 2, 4, 6)


def test_zero_fft_length_keeps_the_innermost_axis():
    assert fft_shape((3, 0), "RFFT", (0,)) == (3, 0)


@pytest.mark.parametrize(
    ("operand", "kind", "lengths", "message"),
    [
        ((2, 2, 2, 2), "FFT", (2, 2, 2, 2), r"fft_length \[2, 2, 2, 2\] must have 1 to 3"),
        ((8,), "FFT", (), r"fft_length \[\] must have 1 to 3"),
        ((8,), "FFT", (2, 8), r"operand \[8\] has fewer dimensions than fft_length"),
        ((8,), "FFT", (-8,), r"must be non-negative"),
        ((3, 16), "RFFT", (8,), r"RFFT needs the innermost dimensions \[16\]"),
        ((3, 16), "IRFFT", (16,), r"IRFFT needs the innermost dimensions \[16\] .* to be \[9\]"),
        ((4, 9), "IRFFT", (3, 16), r"to be \[3, 9\]"),
        ((8,), "DFT", (8,), r"fft_type DFT is not one of"),
    ],
)
def test_fft_errors(operand, kind, lengths, message):
    with pytest.raises(ShapeError, match=message):
        fft_shape(operand, kind, lengths)


# --------------------------------------------------------------------------------------
# Cholesky, TriangularSolve
# --------------------------------------------------------------------------------------


def test_square_matrices():
    check_square_matrices((3, 3), "a")
    check_square_matrices((2, 5, 4, 4), "a")  # all but the 2 minor dimensions are batch
    with pytest.raises(ShapeError, match=r"a \[3\] must have rank at least 2"):
        check_square_matrices((3,), "a")
    with pytest.raises(ShapeError, match=r"minor dimensions are 3 and 4"):
        check_square_matrices((2, 3, 4), "a")


def test_triangular_solve_sides():
    # a [..., M, M]; b [..., M, K] when left_side, [..., K, M] otherwise.
    assert triangular_solve_shape((2, 3, 3), (2, 3, 5), left_side=True) == (2, 3, 5)
    assert triangular_solve_shape((2, 3, 3), (2, 5, 3), left_side=False) == (2, 5, 3)


@pytest.mark.parametrize(
    ("a", "b", "left_side", "message"),
    [
        ((2, 3, 4), (2, 3, 5), True, r"square matrices"),
        ((2, 3, 3), (4, 3, 5), True, r"batch dimensions of a \[2\] and b \[4\] must be equal"),
        ((2, 3, 3), (3, 5), True, r"b \[3, 5\] must have the rank of a \[2, 3, 3\]"),
        ((3, 3), (4, 5), True, r"b \[4, 5\] dimension 0 has size 4, .*left_side needs a's size 3"),
        ((3, 3), (3, 5), False, r"b \[3, 5\] dimension 1 has size 5, .*right side needs a's size 3"),
    ],
)
def test_triangular_solve_errors(a, b, left_side, message):
    with pytest.raises(ShapeError, match=message):
        triangular_solve_shape(a, b, left_side)


# --------------------------------------------------------------------------------------
# Batch normalization
# --------------------------------------------------------------------------------------


def test_batch_norm_feature_size():
    # The spec's 4-D operand with features l on its last dimension.
    vectors = [("scale", (3,)), ("offset", (3,))]
    assert batch_norm_feature_size((8, 4, 4, 3), 3, vectors) == 3
    assert batch_norm_feature_size((8, 3, 4, 4), 1, vectors) == 3


def test_batch_norm_errors():
    with pytest.raises(ShapeError, match=r"feature_index \[4\] out of range \[0, 4\)"):
        batch_norm_feature_size((8, 4, 4, 3), 4, [])
    with pytest.raises(ShapeError, match=r"mean \[4\] must be 1-D of the feature size 3"):
        batch_norm_feature_size((8, 4, 4, 3), 3, [("scale", (3,)), ("mean", (4,))])
    with pytest.raises(ShapeError, match=r"variance \[1, 3\] must be 1-D"):
        batch_norm_feature_size((8, 4, 4, 3), 3, [("variance", (1, 3))])
