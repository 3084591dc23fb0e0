"""Shape rules of the linear-algebra family: dot, dot_general, convolution, fft,
cholesky, triangular_solve and the three batch normalizations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .common import (
    Shape,
    ShapeError,
    check_in_range,
    check_permutation,
    check_unique,
    fmt,
)
from .windows import dilated_size, padded_size, window_count

# --------------------------------------------------------------------------------------
# Dot, DotGeneral
# --------------------------------------------------------------------------------------


def dot_shape(lhs: Shape, rhs: Shape) -> Shape:
    """Dot: sums products over the last dimension of lhs and the first of rhs, which
    must have one size; vector.vector -> scalar, matrix.vector -> vector,
    vector.matrix -> vector, matrix.matrix -> matrix."""
    for name, shape in (("lhs", lhs), ("rhs", rhs)):
        if len(shape) not in (1, 2):
            raise ShapeError(f"{name} {fmt(shape)} must be a vector or a matrix (rank 1 or 2)")
    if lhs[-1] != rhs[0]:
        raise ShapeError(
            f"contracting dimensions differ: lhs {fmt(lhs)} dimension {len(lhs) - 1} has "
            f"size {lhs[-1]}, rhs {fmt(rhs)} dimension 0 has size {rhs[0]}"
        )
    return (*lhs[:-1], *rhs[1:])


def _check_dot_dimensions(
    shape: Shape, batching: Sequence[int], contracting: Sequence[int], side: str
) -> None:
    rank = len(shape)
    check_in_range(batching, rank, f"{side}_batching_dimensions")
    check_in_range(contracting, rank, f"{side}_contracting_dimensions")
    check_unique(batching, f"{side}_batching_dimensions")
    check_unique(contracting, f"{side}_contracting_dimensions")
    both = sorted(set(batching) & set(contracting))
    if both:
        raise ShapeError(
            f"{side}_batching_dimensions {fmt(batching)} and {side}_contracting_dimensions "
            f"{fmt(contracting)} share dimensions {fmt(both)}"
        )


def _check_paired_sizes(
    lhs: Shape, rhs: Shape, lhs_dims: Sequence[int], rhs_dims: Sequence[int], kind: str
) -> None:
    if len(lhs_dims) != len(rhs_dims):
        raise ShapeError(
            f"lhs_{kind}_dimensions {fmt(lhs_dims)} and rhs_{kind}_dimensions "
            f"{fmt(rhs_dims)} must have the same number of dimensions"
        )
    for ld, rd in zip(lhs_dims, rhs_dims):
        if lhs[ld] != rhs[rd]:
            raise ShapeError(
                f"{kind} dimension sizes differ: lhs {fmt(lhs)} dimension {ld} has size "
                f"{lhs[ld]}, rhs {fmt(rhs)} dimension {rd} has size {rhs[rd]}"
            )


def dot_general_shape(
    lhs: Shape,
    rhs: Shape,
    lhs_batching: Sequence[int],
    rhs_batching: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_contracting: Sequence[int],
) -> Shape:
    """DotGeneral: batching and contracting dimensions are valid, unique, disjoint
    dimensions of their operand, paired lhs/rhs with equal sizes; the result has the
    batch dimensions, then lhs's free dimensions, then rhs's free dimensions."""
    _check_dot_dimensions(lhs, lhs_batching, lhs_contracting, "lhs")
    _check_dot_dimensions(rhs, rhs_batching, rhs_contracting, "rhs")
    _check_paired_sizes(lhs, rhs, lhs_batching, rhs_batching, "batching")
    _check_paired_sizes(lhs, rhs, lhs_contracting, rhs_contracting, "contracting")

    def free(shape: Shape, batching: Sequence[int], contracting: Sequence[int]) -> list[int]:
        used = set(batching) | set(contracting)
        return [d for i, d in enumerate(shape) if i not in used]

    return (
        *(lhs[d] for d in lhs_batching),
        *free(lhs, lhs_batching, lhs_contracting),
        *free(rhs, rhs_batching, rhs_contracting),
    )


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConvDimensionNumbers:
    """Which dimension of the input (lhs), kernel (rhs) and output plays which role."""

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]


def window_output_size(
    base: int, window: int, stride: int, padding: tuple[int, int], base_dilation: int,
    window_dilation: int,
) -> int:
    """The number of valid positions of a dilated window, moved by `stride`, over the
    dilated and padded base."""
    padded = padded_size(base, base_dilation, padding)
    if padded < 0:
        raise ShapeError(
            f"padding {fmt(padding)} removes more than the {dilated_size(base, base_dilation)} "
            "elements of the dilated base"
        )
    return window_count(padded, window, window_dilation, stride)


def _check_window_factors(values: Sequence[int], n: int, what: str) -> None:
    if len(values) != n:
        raise ShapeError(f"{what} {fmt(values)} must have one entry per spatial dimension ({n})")
    bad = [v for v in values if v < 1]
    if bad:
        raise ShapeError(f"{what} {fmt(values)} must be at least 1, got {fmt(bad)}")


def _divides(count: int, size: int, count_name: str, size_name: str) -> None:
    if size % count:
        raise ShapeError(f"{count_name} {count} does not divide the {size_name} {size}")


def convolution_shape(
    lhs: Shape,
    rhs: Shape,
    dims: ConvDimensionNumbers,
    window_strides: Sequence[int] | None = None,
    padding: Sequence[tuple[int, int]] | None = None,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
) -> Shape:
    """ConvWithGeneralPadding: input, kernel and output have rank n+2 with n spatial
    dimensions; the dimension numbers permute each one's dimensions; input features =
    kernel input features * feature_group_count; feature_group_count divides the input
    and kernel output features, batch_group_count the input batch and the kernel output
    features, and at most one of them exceeds 1; strides and dilations (>= 1, default 1)
    and padding pairs (default 0) come one per spatial dimension. Each output spatial
    size counts the window positions on the dilated, padded input."""
    n = len(dims.input_spatial)
    for name, shape in (("lhs", lhs), ("rhs", rhs)):
        if len(shape) != n + 2:
            raise ShapeError(
                f"{name} {fmt(shape)} must have rank {n + 2} (n+2 for {n} spatial dimensions)"
            )
    for what, spatial in (
        ("kernel_spatial_dimensions", dims.kernel_spatial),
        ("output_spatial_dimensions", dims.output_spatial),
    ):
        if len(spatial) != n:
            raise ShapeError(
                f"{what} {fmt(spatial)} must have {n} entries, as input_spatial_dimensions "
                f"{fmt(dims.input_spatial)}"
            )
    check_permutation(
        (dims.input_batch, dims.input_feature, *dims.input_spatial), n + 2,
        "input dimensions (batch, feature, spatial...)",
    )
    check_permutation(
        (dims.kernel_input_feature, dims.kernel_output_feature, *dims.kernel_spatial), n + 2,
        "kernel dimensions (input feature, output feature, spatial...)",
    )
    check_permutation(
        (dims.output_batch, dims.output_feature, *dims.output_spatial), n + 2,
        "output dimensions (batch, feature, spatial...)",
    )

    for name, count in (
        ("feature_group_count", feature_group_count),
        ("batch_group_count", batch_group_count),
    ):
        if count < 1:
            raise ShapeError(f"{name} must be at least 1, got {count}")
    if feature_group_count > 1 and batch_group_count > 1:
        raise ShapeError(
            f"feature_group_count {feature_group_count} and batch_group_count "
            f"{batch_group_count} cannot both exceed 1"
        )
    input_batch = lhs[dims.input_batch]
    input_features = lhs[dims.input_feature]
    kernel_input_features = rhs[dims.kernel_input_feature]
    kernel_output_features = rhs[dims.kernel_output_feature]
    _divides(feature_group_count, input_features, "feature_group_count", "input feature size")
    _divides(
        feature_group_count, kernel_output_features, "feature_group_count",
        "kernel output feature size",
    )
    if input_features != kernel_input_features * feature_group_count:
        raise ShapeError(
            f"input feature size {input_features} must equal kernel input feature size "
            f"{kernel_input_features} * feature_group_count {feature_group_count}"
        )
    _divides(batch_group_count, input_batch, "batch_group_count", "input batch size")
    _divides(
        batch_group_count, kernel_output_features, "batch_group_count",
        "kernel output feature size",
    )

    strides = tuple(window_strides) if window_strides is not None else (1,) * n
    base_dilation = tuple(lhs_dilation) if lhs_dilation is not None else (1,) * n
    window_dilation = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * n
    pads = [tuple(p) for p in padding] if padding is not None else [(0, 0)] * n
    _check_window_factors(strides, n, "window_strides")
    _check_window_factors(base_dilation, n, "lhs_dilation")
    _check_window_factors(window_dilation, n, "rhs_dilation")
    if len(pads) != n or any(len(p) != 2 for p in pads):
        raise ShapeError(
            f"padding {[list(p) for p in pads]} must have one [low, high] pair per spatial "
            f"dimension ({n})"
        )

    result = [0] * (n + 2)
    result[dims.output_batch] = input_batch // batch_group_count
    result[dims.output_feature] = kernel_output_features
    for i in range(n):
        result[dims.output_spatial[i]] = window_output_size(
            lhs[dims.input_spatial[i]],
            rhs[dims.kernel_spatial[i]],
            strides[i],
            pads[i],  # type: ignore[arg-type]
            base_dilation[i],
            window_dilation[i],
        )
    return tuple(result)


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


def fft_shape(operand: Shape, fft_type: str, fft_length: Sequence[int]) -> Shape:
    """Fft: 1 to 3 innermost axes of lengths fft_length are transformed. FFT and IFFT
    keep the shape; RFFT needs those axes to equal fft_length and shrinks the innermost
    to fft_length[-1] // 2 + 1; IRFFT needs them to equal fft_length except the innermost,
    fft_length[-1] // 2 + 1, which it expands to fft_length[-1] (a zero fft_length[-1]
    leaves the innermost axis as it is)."""
    if fft_type not in FFT_TYPES:
        raise ShapeError(f"fft_type {fft_type} is not one of {', '.join(FFT_TYPES)}")
    if not 1 <= len(fft_length) <= 3:
        raise ShapeError(f"fft_length {fmt(fft_length)} must have 1 to 3 entries")
    if any(v < 0 for v in fft_length):
        raise ShapeError(f"fft_length {fmt(fft_length)} must be non-negative")
    k = len(fft_length)
    if len(operand) < k:
        raise ShapeError(
            f"operand {fmt(operand)} has fewer dimensions than fft_length {fmt(fft_length)}"
        )
    if fft_type in ("FFT", "IFFT"):
        return tuple(operand)
    inner = tuple(operand[len(operand) - k :])
    last = fft_length[-1]
    if fft_type == "RFFT":
        if inner != tuple(fft_length):
            raise ShapeError(
                f"RFFT needs the innermost dimensions {fmt(inner)} of operand {fmt(operand)} "
                f"to equal fft_length {fmt(fft_length)}"
            )
        return (*operand[:-1], last // 2 + 1) if last else tuple(operand)
    expected = (*fft_length[:-1], last // 2 + 1 if last else inner[-1])
    if inner != expected:
        raise ShapeError(
            f"IRFFT needs the innermost dimensions {fmt(inner)} of operand {fmt(operand)} to "
            f"be {fmt(expected)} (fft_length {fmt(fft_length)} with the last as "
            "fft_length[-1] // 2 + 1)"
        )
    return (*operand[:-1], last) if last else tuple(operand)


# --------------------------------------------------------------------------------------
# Cholesky, TriangularSolve
# --------------------------------------------------------------------------------------


def check_square_matrices(shape: Shape, name: str) -> None:
    """A batch of square matrices: rank >= 2, the two minor dimensions equal."""
    if len(shape) < 2:
        raise ShapeError(f"{name} {fmt(shape)} must have rank at least 2")
    if shape[-1] != shape[-2]:
        raise ShapeError(
            f"{name} {fmt(shape)} must be a batch of square matrices, but its minor "
            f"dimensions are {shape[-2]} and {shape[-1]}"
        )


def triangular_solve_shape(a: Shape, b: Shape, left_side: bool) -> Shape:
    """TriangularSolve: a is [..., M, M]; b has a's batch dimensions and is [..., M, K]
    when left_side (op(a) * x = b), [..., K, M] otherwise; the result has b's shape."""
    check_square_matrices(a, "a")
    if len(b) != len(a):
        raise ShapeError(f"b {fmt(b)} must have the rank of a {fmt(a)}")
    if tuple(a[:-2]) != tuple(b[:-2]):
        raise ShapeError(
            f"batch dimensions of a {fmt(a[:-2])} and b {fmt(b[:-2])} must be equal"
        )
    shared = len(b) - 2 if left_side else len(b) - 1
    if b[shared] != a[-1]:
        side = "left_side" if left_side else "right side"
        raise ShapeError(
            f"b {fmt(b)} dimension {shared} has size {b[shared]}, but solving on the "
            f"{side} needs a's size {a[-1]}"
        )
    return tuple(b)


# --------------------------------------------------------------------------------------
# Batch normalization
# --------------------------------------------------------------------------------------


