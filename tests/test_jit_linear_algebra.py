"""The JIT against the reference interpreter (the oracle) on the linear-algebra ops
lowered beyond dot: convolution, cholesky, triangular_solve, fft.

Integers and booleans must agree exactly. Float results are sums whose order differs
between the two backends (numpy's BLAS/LAPACK vs the generated loops), so they agree to
rounding: relative tolerance RTOL[dtype], with an absolute term of RTOL times the
largest expected magnitude (a sum of large terms that cancels keeps their rounding
error). NaNs must appear at the same places.
"""

from __future__ import annotations

from dataclasses import asdict

import ml_dtypes
import numpy as np
import pytest
from xla_opt.dialects.shapes.linear_algebra import (
    ConvDimensionNumbers,
    convolution_shape,
)

import xla_opt
from tests.test_interp_linear_algebra import layout_dnums
from tests.test_jit_differential import rand
from tests.util import tensor_type, ttype

BF16 = np.dtype(ml_dtypes.bfloat16)
# f16/bf16 accumulate in f32 and round once: at most one ulp of the result type apart
RTOL = {
    np.dtype(np.float64): 1e-12,
    np.dtype(np.float32): 1e-5,
    np.dtype(np.float16): 2.0**-10,
    BF16: 2.0**-7,
    np.dtype(np.complex64): 1e-5,
    np.dtype(np.complex128): 1e-12,
}
FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64]


def check(program: str, *inputs: np.ndarray) -> list[np.ndarray]:
    """Run `program` on both backends; the JIT must match the interpreter (see the
    module doc for the float tolerances)."""
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype in RTOL:
            wide = np.complex128 if e.dtype.kind == "c" else np.float64
            g64, e64 = g.astype(wide), e.astype(wide)
            nan = np.isnan(e64)
            np.testing.assert_array_equal(np.isnan(g64), nan)
            rtol = RTOL[e.dtype]
            scale = float(np.max(np.abs(e64[~nan]), initial=0.0))
            np.testing.assert_allclose(g64[~nan], e64[~nan], rtol=rtol, atol=rtol * scale)
        else:
            np.testing.assert_array_equal(g, e)
    return got


def func(args: list[np.ndarray], result: str, body: str) -> str:
    params = ", ".join(f"%a{i}: {ttype(a)}" for i, a in enumerate(args))
    return f"func.func @main({params}) -> {result} {{\n{body}\n  func.return %r : {result}\n}}\n"


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------


def conv_op(lhs: str, rhs: str, lhs_type, rhs_type, dn: ConvDimensionNumbers, **props) -> tuple[str, str]:
    """The text of an xla.convolution of the values `lhs`, `rhs` (types given as
    (shape, dtype)) and its result type. `props`: window_strides, padding,
    lhs_dilation, rhs_dilation (lists), feature_group_count, batch_group_count."""
    shape = convolution_shape(
        lhs_type[0], rhs_type[0], dn,
        props.get("window_strides"), props.get("padding"), props.get("lhs_dilation"),
        props.get("rhs_dilation"), props.get("feature_group_count", 1), props.get("batch_group_count", 1),
    )  # fmt: skip
    result = tensor_type(shape, lhs_type[1])
    names = {"input_spatial": "input_spatial_dimensions", "kernel_spatial": "kernel_spatial_dimensions",
             "output_spatial": "output_spatial_dimensions"}  # fmt: skip
    text = [f"{k} = {v}" for k, v in props.items() if k != "padding"]
    if "padding" in props:
        text.append(f"padding = {[list(p) for p in props['padding']]}")
    for field, value in asdict(dn).items():
        name = names.get(field, f"{field}_dimension")
        text.append(f"{name} = {list(value) if isinstance(value, tuple) else value}")
    types = f"({tensor_type(*lhs_type)}, {tensor_type(*rhs_type)}) -> {result}"
    return f"xla.convolution {lhs}, {rhs}, {', '.join(text)} : {types}", result


def conv(lhs: np.ndarray, rhs: np.ndarray, dn: ConvDimensionNumbers, **props) -> list[np.ndarray]:
    op, result = conv_op("%a0", "%a1", (lhs.shape, lhs.dtype), (rhs.shape, rhs.dtype), dn, **props)
    return check(func([lhs, rhs], result, f"  %r = {op}"), lhs, rhs)


NCHW = layout_dnums("NCHW", "OIHW", "NCHW")
NHWC = layout_dnums("NHWC", "HWIO", "NHWC")


def shape_in(spec: str, sizes: dict[str, int]) -> tuple[int, ...]:
    return tuple(sizes[c] for c in spec)


@pytest.mark.parametrize(
    "specs",
    [("NCHW", "OIHW", "NCHW"), ("NHWC", "HWIO", "NHWC"), ("CHWN", "IHWO", "HWNC"), ("HNWC", "WOHI", "CWNH")],
    ids="-".join,
)
def test_conv_layouts(specs):
    lhs_spec, rhs_spec, _ = specs
    rng = np.random.default_rng(1)
    lhs = rand(rng, shape_in(lhs_spec, {"N": 2, "C": 3, "H": 5, "W": 4}), np.float32)
    rhs = rand(rng, shape_in(rhs_spec, {"O": 4, "I": 3, "H": 3, "W": 2}), np.float32)
    conv(lhs, rhs, layout_dnums(*specs), window_strides=[2, 1], padding=[(1, 0), (0, 1)])


@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_conv_element_types(dtype):
    rng = np.random.default_rng(2)
    lhs, rhs = rand(rng, (2, 3, 4, 4), dtype), rand(rng, (2, 3, 2, 2), dtype)
    conv(lhs, rhs, NCHW, padding=[(1, 1), (0, 1)])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_conv_complex(dtype):
    """Complex products as numpy multiplies; padding reads 0 + 0i."""
    rng = np.random.default_rng(3)
    lhs = (rand(rng, (1, 2, 4, 4), np.float64) + 1j * rand(rng, (1, 2, 4, 4), np.float64)).astype(dtype)
    rhs = (rand(rng, (3, 2, 2, 2), np.float64) + 1j * rand(rng, (3, 2, 2, 2), np.float64)).astype(dtype)
    conv(lhs, rhs, NCHW, padding=[(1, 1), (0, 1)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "props",
    [{}, {"window_strides": [2, 1], "padding": [(1, 1), (2, 0)]}, {"padding": [(-1, 1), (0, -1)]},
     {"lhs_dilation": [2, 1], "rhs_dilation": [1, 2], "padding": [(1, 1), (1, 1)]}],
    ids=["plain", "strided-padded", "negative-padding", "dilations"],
)  # fmt: skip
def test_conv_in_linalg_layout_through_the_named_op(dtype, props):
    """NHWC/HWIO/NHWC float convolutions lower to linalg.conv_2d_nhwc_hwcf over the
    zero-padded, lhs-dilated input (ConvolutionToNamedConv)."""
    rng = np.random.default_rng(5)
    lhs, rhs = rand(rng, (2, 5, 6, 3), dtype), rand(rng, (2, 3, 3, 4), dtype)
    conv(lhs, rhs, NHWC, **props)


def test_conv_integers_wrap():
    lhs = np.full((1, 4, 3), 100, np.int8)
    rhs = np.full((2, 4, 2), 7, np.int8)
    (out,) = conv(lhs, rhs, layout_dnums("NCW", "OIW", "NCW"))
    assert out[0, 0, 0] == np.int8(np.int64(8 * 700) - 256 * 22)


@pytest.mark.parametrize(
    "props",
    [
        {"window_strides": [2, 3]},
        {"padding": [(-1, 2), (2, -2)]},
        {"padding": [(-2, -1), (0, 0)], "window_strides": [1, 2]},
        {"lhs_dilation": [2, 3]},
        {"lhs_dilation": [2, 2], "padding": [(-1, 1), (2, -3)], "window_strides": [2, 1]},
        {"rhs_dilation": [2, 3]},
        {"lhs_dilation": [3, 1], "rhs_dilation": [1, 2], "padding": [(1, 1), (2, 2)], "window_strides": [2, 2]},
    ],
    ids=lambda p: "-".join(p),
)
def test_conv_window_attributes(props):
    rng = np.random.default_rng(3)
    conv(rand(rng, (2, 3, 6, 7), np.float32), rand(rng, (2, 3, 2, 2), np.float32), NCHW, **props)


def test_conv_1d_and_3d():
    rng = np.random.default_rng(4)
    conv(rand(rng, (2, 9, 3), np.float64), rand(rng, (3, 3, 4), np.float64),
         layout_dnums("NWC", "WIO", "NWC"), window_strides=[2], padding=[(1, 2)])  # fmt: skip
    conv(rand(rng, (1, 2, 4, 5, 3), np.float32), rand(rng, (3, 2, 2, 3, 2), np.float32),
         layout_dnums("NCDHW", "OIDHW", "NDHWC"), rhs_dilation=[1, 2, 1], padding=[(0, 1), (1, 1), (0, 0)])  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.int32], ids=lambda d: np.dtype(d).name)
def test_conv_feature_groups(dtype):
    rng = np.random.default_rng(5)
    # 6 input features in 3 groups of 2; 6 output features, 2 per group
    conv(rand(rng, (2, 5, 5, 6), dtype), rand(rng, (3, 3, 2, 6), dtype), NHWC,
         feature_group_count=3, padding=[(1, 1), (1, 1)])  # fmt: skip


def test_conv_depthwise():
    rng = np.random.default_rng(6)
    conv(rand(rng, (2, 6, 6, 4), np.float32), rand(rng, (3, 3, 1, 8), np.float32), NHWC,
         feature_group_count=4, padding=[(1, 1), (1, 1)])  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda d: np.dtype(d).name)
def test_conv_batch_groups(dtype):
    rng = np.random.default_rng(7)
    # batch 4 in 2 groups; 6 output features, 3 per group (a weight gradient's shape)
    conv(rand(rng, (4, 2, 5, 4), dtype), rand(rng, (6, 2, 3, 2), dtype), NCHW,
         batch_group_count=2, window_strides=[1, 2])  # fmt: skip


def test_conv_transposed_through_lhs_dilation():
    rng = np.random.default_rng(8)
    conv(rand(rng, (1, 5, 5, 3), np.float32), rand(rng, (3, 3, 3, 2), np.float32), NHWC,
         lhs_dilation=[2, 2], padding=[(1, 2), (1, 2)])  # fmt: skip


def test_conv_padding_reads_zero_times_the_kernel():
    """Padding is a zero multiplied like any input: an infinite kernel weight over
    padding gives nan, as in the interpreter (which pads with zeros)."""
    lhs = np.ones((1, 1, 3), np.float32)
    rhs = np.array([[[np.inf, 1.0]]], np.float32)
    (out,) = conv(lhs, rhs, layout_dnums("NCW", "OIW", "NCW"), padding=[(1, 0)])
    assert np.isnan(out[0, 0, 0]) and out[0, 0, 1] == np.inf


def test_conv_empty_input_and_empty_result():
    rng = np.random.default_rng(9)
    dn = layout_dnums("NCW", "OIW", "NCW")
    conv(np.zeros((1, 2, 0), np.float32), rand(rng, (3, 2, 2), np.float32), dn, padding=[(2, 1)])
    conv(np.zeros((1, 2, 0), np.float32), rand(rng, (3, 2, 2), np.float32), dn)
    conv(rand(rng, (2, 0, 4), np.float32), np.zeros((3, 0, 2), np.float32), dn)


def test_conv_resnet_block():
    """conv 3x3 SAME + relu + conv 3x3 SAME + the block's input (NHWC/HWIO)."""
    rng = np.random.default_rng(10)
    x = rand(rng, (2, 6, 6, 4), np.float32)
    k1, k2 = rand(rng, (3, 3, 4, 4), np.float32), rand(rng, (3, 3, 4, 4), np.float32)
    x_type, k_type = (x.shape, x.dtype), (k1.shape, k1.dtype)
    same = {"padding": [(1, 1), (1, 1)]}
    conv1, t = conv_op("%a0", "%a1", x_type, k_type, NHWC, **same)
    conv2, _ = conv_op("%h", "%a2", x_type, k_type, NHWC, **same)
    body = f"""  %c = {conv1}
  %zero = xla.constant dense<0.0> : tensor<f32>
  %zeros = xla.broadcast_in_dim %zero, broadcast_dimensions = [] : (tensor<f32>) -> {t}
  %h = xla.maximum %c, %zeros : {t}
  %d = {conv2}
  %r = xla.add %d, %a0 : {t}"""
    check(func([x, k1, k2], t, body), x, k1, k2)


# --------------------------------------------------------------------------------------
# Cholesky
# --------------------------------------------------------------------------------------


def cholesky(a: np.ndarray, lower: bool) -> np.ndarray:
    t = ttype(a)
    (out,) = check(func([a], t, f"  %r = xla.cholesky %a0, lower = {str(lower).lower()} : {t}"), a)
    return out


def spd(rng: np.random.Generator, batch, m: int) -> np.ndarray:
    """Symmetric positive definite matrices."""
    x = rng.uniform(-1, 1, (*batch, m, m))
    return x @ np.swapaxes(x, -1, -2) + m * np.eye(m)


@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_cholesky_batched(dtype, lower):
    rng = np.random.default_rng(11)
    a = spd(rng, (2, 3), 4)
    # the other triangle is garbage: only the requested one is read
    garbage = np.triu(rng.uniform(5, 9, a.shape), 1)
    a = a + (garbage if lower else np.swapaxes(garbage, -1, -2))
    out = cholesky(a.astype(dtype), lower)
    zero_triangle = np.triu(out.astype(np.float64), 1) if lower else np.tril(out.astype(np.float64), -1)
    assert not zero_triangle.any()


@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
def test_cholesky_not_positive_definite_gives_nans_per_matrix(lower):
    rng = np.random.default_rng(12)
    a = spd(rng, (4,), 3).astype(np.float32)
    a[1, 2, 2] = -50.0  # the last pivot is negative
    a[2] = np.diag([1.0, 0.0, 1.0])  # a zero pivot
    a[3, 0, 0] = np.nan
    out = cholesky(a, lower)
    assert np.isfinite(out[0]).all()
    for i in (1, 2, 3):
        triangle = np.tril_indices(3) if lower else np.triu_indices(3)
        assert np.isnan(out[i][triangle]).all()


def test_cholesky_of_one_by_one_and_empty():
    cholesky(np.array([[4.0], [-1.0]], np.float64).reshape(2, 1, 1), True)
    cholesky(np.zeros((0, 3, 3), np.float32), False)


# --------------------------------------------------------------------------------------
# TriangularSolve
# --------------------------------------------------------------------------------------


def triangular_solve(a: np.ndarray, b: np.ndarray, left: bool, lower: bool, unit: bool, transpose: str):
    flags = f"left_side = {str(left).lower()}, lower = {str(lower).lower()}, unit_diagonal = {str(unit).lower()}"
    op = f"xla.triangular_solve %a0, %a1, {flags}, transpose_a = {transpose} : ({ttype(a)}, {ttype(b)}) -> {ttype(b)}"
    (out,) = check(func([a, b], ttype(b), f"  %r = {op}"), a, b)
    return out


def well_conditioned(rng: np.random.Generator, shape) -> np.ndarray:
    """Garbage everywhere, a dominant diagonal: a's triangle (either one) is well
    conditioned, with or without its diagonal."""
    a = rng.uniform(-0.5, 0.5, shape)
    m = shape[-1]
    a[..., np.arange(m), np.arange(m)] = rng.uniform(1.5, 3, shape[:-1]) * rng.choice([-1, 1], shape[:-1])
    return a


@pytest.mark.parametrize("transpose", ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
@pytest.mark.parametrize("unit", [False, True], ids=["diag", "unit"])
@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
@pytest.mark.parametrize("left", [True, False], ids=["left", "right"])
def test_triangular_solve_flags_batched(left, lower, unit, transpose):
    rng = np.random.default_rng(13)
    a = well_conditioned(rng, (2, 4, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4, 3) if left else (2, 3, 4)).astype(np.float32)
    x = triangular_solve(a, b, left, lower, unit, transpose)
    # and it solves the system
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t[..., np.arange(4), np.arange(4)] = 1
    if transpose != "NO_TRANSPOSE":
        t = np.swapaxes(t, -1, -2)
    np.testing.assert_allclose(t @ x if left else x @ t, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_triangular_solve_element_types(dtype):
    rng = np.random.default_rng(14)
    a = well_conditioned(rng, (3, 5, 5)).astype(dtype)
    b = rng.standard_normal((3, 5, 2)).astype(dtype)
    triangular_solve(a, b, True, False, False, "TRANSPOSE")
    triangular_solve(a, np.swapaxes(b, -1, -2).copy(), False, True, False, "NO_TRANSPOSE")


def test_triangular_solve_singular_and_empty():
    a = np.array([[0.0, 0.0], [1.0, 2.0]], np.float32)  # zero pivot: inf, then nan
    triangular_solve(a, np.array([[1.0], [1.0]], np.float32), True, True, False, "NO_TRANSPOSE")
    triangular_solve(np.zeros((2, 2), np.float64), np.zeros((2, 0), np.float64), True, True, True, "ADJOINT")
    triangular_solve(np.zeros((0, 0), np.float32), np.zeros((3, 0), np.float32), False, False, False, "TRANSPOSE")


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------


def fft(x: np.ndarray, kind: str, lengths: list[int], result_shape, result_dtype) -> np.ndarray:
    rt = tensor_type(result_shape, result_dtype)
    op = f"xla.fft %a0, fft_type = {kind}, fft_length = {lengths} : ({ttype(x)}) -> {rt}"
    (out,) = check(func([x], rt, f"  %r = {op}"), x)
    return out


def crand(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def inner(shape, dims: int) -> list[int]:
    return list(shape[len(shape) - dims :])


# (shape, number of transformed axes, dtype). Lengths: powers of 2, mixed radices, a
# small prime (Cooley-Tukey steps), primes > 16 (Bluestein) and 1.
FFT_CASES = [
    ((2, 8), 1, "complex64"),
    ((3, 12), 1, "complex128"),
    ((2, 7), 1, "complex64"),
    ((2, 17), 1, "complex128"),
    ((3, 1), 1, "complex64"),
    ((2, 4, 6), 2, "complex64"),
    ((19, 2), 2, "complex64"),
    ((2, 3, 5, 4), 3, "complex128"),
]


@pytest.mark.parametrize("kind", ["FFT", "IFFT"])
@pytest.mark.parametrize("shape, dims, dtype", FFT_CASES, ids=str)
def test_fft_and_ifft(shape, dims, dtype, kind):
    rng = np.random.default_rng(15)
    x = crand(rng, shape, dtype)
    out = fft(x, kind, inner(shape, dims), shape, dtype)
    transform = np.fft.fftn if kind == "FFT" else np.fft.ifftn
    expected = transform(x.astype("complex128"), axes=range(len(shape) - dims, len(shape)))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


@pytest.mark.parametrize(
    "shape, dims, dtype",
    [((2, 8), 1, "float32"), ((3, 9), 1, "float64"), ((2, 3, 6), 2, "float32"),
     ((3, 2, 5, 7), 3, "float64"), ((2, 17), 1, "float32"), ((2, 1), 1, "float64")],
    ids=str,
)  # fmt: skip
def test_rfft_and_irfft(shape, dims, dtype):
    rng = np.random.default_rng(16)
    x = rng.standard_normal(shape).astype(dtype)
    lengths = inner(shape, dims)
    half = (*shape[:-1], shape[-1] // 2 + 1)
    spectrum = fft(x, "RFFT", lengths, half, np.result_type(dtype, "complex64"))
    back = fft(spectrum, "IRFFT", lengths, shape, dtype)
    np.testing.assert_allclose(back, x, rtol=1e-4, atol=1e-4)


def test_irfft_ignores_the_imaginary_parts_numpy_ignores():
    """X[0] and X[n/2] (n even) of a Hermitian spectrum are real: numpy's irfft drops
    their imaginary parts, and so does the JIT (through the interpreter)."""
    rng = np.random.default_rng(17)
    for n in (6, 7):
        x = crand(rng, (2, n // 2 + 1), np.complex128)
        fft(x, "IRFFT", [n], (2, n), np.float64)


def test_fft_of_zero_length_and_empty_operands():
    fft(np.zeros((2, 0), np.complex64), "FFT", [0], (2, 0), np.complex64)
    fft(np.ones((0, 4), np.float32), "RFFT", [4], (0, 3), np.complex64)
    fft(crand(np.random.default_rng(18), (2, 3), np.complex128), "IFFT", [0], (2, 3), np.complex128)
