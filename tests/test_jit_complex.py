"""The JIT against the reference interpreter on complex numbers (complex<f32>,
complex<f64>): every element-wise op that accepts them, conversions, constants, data
movement, reductions; and the bit-level ops across widths (bitcast_convert between
element types of different widths, popcnt and count_leading_zeros on every integer
width).

Complex results are compared part by part within FLOAT_ULPS (the C library's cexp,
clog... are the functions numpy calls, so most agree exactly)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_jit_differential import SHAPE_CASES
from tests.util import both, one_op_program, tensor_type, ttype

COMPLEX = [np.complex64, np.complex128]
INF, NAN = np.inf, np.nan


def crand(rng, shape, dtype, scale=3.0):
    real = np.float32 if np.dtype(dtype) == np.complex64 else np.float64
    parts = rng.standard_normal((2, *shape)).astype(real) * scale
    return (parts[0] + 1j * parts[1]).astype(dtype)


def with_specials(x: np.ndarray) -> np.ndarray:
    """x with zeros, infinities, NaNs, the negative real axis (the branch cut of log
    and sqrt, both signs of zero) and large real parts (exp's overflow) in front."""
    specials = [0j, complex(-0.0, 0.0), complex(-2.0, 0.0), complex(-2.0, -0.0), complex(100.0, 1.0),
                complex(-100.0, 1.0), complex(1.0, 100.0), complex(INF, 0.0), complex(-INF, 1.0),
                complex(1.0, INF), complex(NAN, 0.0), complex(0.0, NAN), complex(1e-30, 1e-30),
                complex(3e38, 3e38)]  # fmt: skip
    flat = x.reshape(-1).copy()
    flat[: len(specials)] = np.array(specials, np.complex128).astype(x.dtype)
    return flat.reshape(x.shape)


def run_unary(op, x, result_dtype=None):
    rt = tensor_type(x.shape, result_dtype or x.dtype)
    both(one_op_program(f"xla.{op} %a0 : ({ttype(x)}) -> {rt}", [x], [rt]), x)


UNARY = ["exponential", "log", "sqrt", "sine", "cosine", "tan", "tanh", "negate", "exponential_minus_one",
         "log_plus_one", "rsqrt", "sign", "logistic"]  # fmt: skip


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_unary(op, dtype):
    x = with_specials(crand(np.random.default_rng(1), (4, 5), dtype))
    run_unary(op, x)


@pytest.mark.parametrize("op", ["abs", "real", "imag"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_unary_to_the_part_type(op, dtype):
    x = with_specials(crand(np.random.default_rng(2), (4, 5), dtype))
    x.reshape(-1)[-3:] = [complex(INF, NAN), complex(NAN, -INF), complex(3.0, -4.0)]
    run_unary(op, x, np.float32 if np.dtype(dtype) == np.complex64 else np.float64)


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_binary(op, dtype):
    rng = np.random.default_rng(3)
    a, b = crand(rng, (4, 6), dtype), crand(rng, (4, 6), dtype)
    # division by zero, by a part-zero divisor, by tiny and huge numbers; NaN parts
    b.reshape(-1)[:6] = [0j, complex(0.0, 2.0), complex(2.0, 0.0), complex(1e-30, 1e-30),
                         complex(1e30, -1e30), complex(NAN, 1.0)]  # fmt: skip
    a.reshape(-1)[6:10] = [complex(1.0, NAN), complex(NAN, NAN), b.reshape(-1)[8], complex(INF, 1.0)]
    a.reshape(-1)[10] = complex(b.reshape(-1)[10].real, b.reshape(-1)[10].imag + 1)  # equal real parts
    both(one_op_program(f"xla.{op} %a0, %a1 : {ttype(a)}", [a, b], [ttype(a)]), a, b)


@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_power(dtype):
    rng = np.random.default_rng(4)
    a = crand(rng, (5, 6), dtype, scale=1.0)
    b = crand(rng, (5, 6), dtype, scale=1.0)
    # npy_cpow's cases: x**0, 0**y, small integral exponents (unrolled, repeated
    # products, negative), large integral ones and the general cpow
    b.reshape(-1)[:14] = [0j, 1, 2, 3, 4, 7, -1, -2, -5, 99, 100, -99.5, complex(2.0, 1.0), complex(0.0, -0.0)]
    a.reshape(-1)[14:18] = 0
    b.reshape(-1)[14:18] = [2.0, -1.0, complex(0.0, 1.0), complex(1.5, 0.0)]
    both(one_op_program(f"xla.power %a0, %a1 : {ttype(a)}", [a, b], [ttype(a)]), a, b)


@pytest.mark.parametrize("direction", ["EQ", "NE"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_compare_and_select(direction, dtype):
    a = np.array([1 + 2j, 1 + 2j, 1 + 3j, 0j, complex(NAN, 0), complex(0, NAN), complex(-0.0, 0)], dtype)
    b = np.array([1 + 2j, 2 + 2j, 1 + 2j, 0j, complex(NAN, 0), complex(0, 1), 0j], dtype)
    pt = tensor_type(a.shape, np.bool_)
    both(one_op_program(f"xla.compare %a0, %a1, comparison_direction = {direction} : ({ttype(a)}, {ttype(b)}) -> "
                        f"{pt}", [a, b], [pt]), a, b)  # fmt: skip
    p = np.array([True, False, True, False, True, False, True])
    both(one_op_program(f"xla.select %a0, %a1, %a2 : ({pt}, {ttype(a)}, {ttype(b)}) -> {ttype(a)}", [p, a, b],
                        [ttype(a)]), p, a, b)  # fmt: skip


REALS = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float16, "bfloat16", np.float32,
         np.float64]  # fmt: skip


@pytest.mark.parametrize("src", [*REALS, *COMPLEX], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dst", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_convert_to_complex(src, dst):
    src = np.dtype(src)
    if src.kind == "c":
        x = with_specials(crand(np.random.default_rng(5), (3, 5), np.complex128) * 1e20).astype(src)
    elif src.kind == "b":
        x = np.array([True, False, True])
    else:
        # 2**53 + 2**29 + 1 rounds differently to f32 directly and through f64
        values = [0, 1, -1, 100, 2**24 + 1, 2**53 + 2**29 + 1, -(2**40) - 3, 3.75, -0.5, 1e30]
        x = np.array(values, np.float64 if src.kind == "f" or src.name == "bfloat16" else object)
        with np.errstate(all="ignore"):
            x = np.array([v if _fits(v, src) else 7 for v in values]).astype(src)
    rt = tensor_type(x.shape, dst)
    both(one_op_program(f"xla.convert %a0 : ({ttype(x)}) -> {rt}", [x], [rt]), x)


def _fits(v, dtype: np.dtype) -> bool:
    if dtype.kind not in "iu":
        return True
    info = np.iinfo(dtype)
    return float(v).is_integer() and info.min <= v <= info.max


@pytest.mark.parametrize("op_text, shapes, result", SHAPE_CASES, ids=lambda v: str(v)[:40])
def test_data_movement(op_text, shapes, result):
    """The shape ops of the f32 cases on complex<f32>."""
    rng = np.random.default_rng(6)
    inputs = [crand(rng, s, np.complex64) for s in shapes]
    both(one_op_program(op_text.replace("f32>", "complex<f32>>"), inputs, [result.replace("f32>", "complex<f32>>")]),
         *inputs)  # fmt: skip


def test_constants_broadcasts_and_a_reduce():
    prog = """
    func.func @main(%a: tensor<2x3xcomplex<f64>>, %s: tensor<complex<f64>>) -> (tensor<2x3xcomplex<f64>>,
        tensor<3xcomplex<f64>>, tensor<2xcomplex<f32>>) {
      %c = xla.constant dense<[[(1.0, -2.0), (0.5, 0.25), (-3.0, 0.0)], [(0.0, 1.0), (2.0, 2.0), (1.0e300, -1.0e-300)]]>
        : tensor<2x3xcomplex<f64>>
      %splat = xla.constant dense<(0.5, 1.5)> : tensor<2x3xcomplex<f64>>
      %0 = xla.multiply %a, %c : tensor<2x3xcomplex<f64>>
      %1 = xla.add %0, %s : (tensor<2x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<2x3xcomplex<f64>>
      %2 = xla.subtract %1, %splat : tensor<2x3xcomplex<f64>>
      %zero = xla.constant dense<(0.0, 0.0)> : tensor<complex<f64>>
      %3 = xla.reduce (%2), (%zero), dimensions = [0] body {
      ^bb0(%x: tensor<complex<f64>>, %y: tensor<complex<f64>>):
        %one = xla.constant dense<(1.0, -1.0)> : tensor<complex<f64>>
        %p = xla.multiply %x, %one : tensor<complex<f64>>
        %q = xla.add %p, %y : tensor<complex<f64>>
        xla.return %q : tensor<complex<f64>>
      } : (tensor<2x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<3xcomplex<f64>>
      %small = xla.slice %2, start_indices = [0, 1], limit_indices = [2, 2], strides = [1, 1]
        : (tensor<2x3xcomplex<f64>>) -> tensor<2x1xcomplex<f64>>
      %flat = xla.reshape %small : (tensor<2x1xcomplex<f64>>) -> tensor<2xcomplex<f64>>
      %4 = xla.convert %flat : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f32>>
      func.return %2, %3, %4 : tensor<2x3xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<2xcomplex<f32>>
    }"""
    rng = np.random.default_rng(7)
    both(prog, crand(rng, (2, 3), np.complex128), np.array(0.25 - 4j))


# ---- bit-level ops across widths -------------------------------------------------------

INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("op", ["popcnt", "count_leading_zeros"])
@pytest.mark.parametrize("dtype", INTEGERS, ids=lambda d: np.dtype(d).name)
def test_popcnt_clz_every_width(op, dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, info.max, info.min, info.max // 3, 1 << (info.bits - 2)], object).astype(dtype)
    if info.min < 0:
        x = np.concatenate([x, np.array([-1, -2], dtype)])
    both(one_op_program(f"xla.{op} %a0 : {ttype(x)}", [x], [ttype(x)]), x)


BITCAST_WIDTHS = [
    (np.float32, np.int8), (np.float32, np.uint16), (np.float64, np.float32), (np.int64, np.int16),
    (np.uint32, np.uint8), (np.float64, "bfloat16"), (np.complex64, np.float32), (np.complex128, np.int64),
    (np.complex128, np.complex64), (np.complex64, np.uint8), (np.int8, np.float32), (np.uint16, np.int32),
    (np.int32, np.int64), (np.float16, np.float64), (np.float32, np.complex64), (np.int16, np.complex128),
    (np.complex64, np.int64), (np.float64, np.complex64), (np.complex128, np.complex128),
]  # fmt: skip


@pytest.mark.parametrize("src, dst", BITCAST_WIDTHS, ids=lambda d: np.dtype(d).name)
def test_bitcast_convert_between_widths(src, dst):
    """Narrower results add a minor dimension, wider ones consume it (little endian)."""
    src, dst = np.dtype(src), np.dtype(dst)
    rng = np.random.default_rng(8)
    ratio = max(src.itemsize, dst.itemsize) // min(src.itemsize, dst.itemsize)
    shape = (2, 3) if src.itemsize >= dst.itemsize else (2, 3, ratio)
    x = rng.integers(0, 256, (*shape, src.itemsize), dtype=np.uint8).view(src).reshape(shape)  # NaNs included
    if src.itemsize == dst.itemsize:
        out_shape = shape
    elif src.itemsize > dst.itemsize:
        out_shape = (*shape, ratio)
    else:
        out_shape = shape[:-1]
    rt = tensor_type(out_shape, dst)
    both(one_op_program(f"xla.bitcast_convert %a0 : ({ttype(x)}) -> {rt}", [x], [rt]), x)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_complex_dot_and_dot_general(dtype):
    """Complex products accumulate as numpy multiplies (fused re/im parts); the sums
    are taken in another order, so relatively."""
    rng = np.random.default_rng(0)
    t = lambda s: tensor_type(s, dtype)  # noqa: E731
    a, b = crand(rng, (3, 5), dtype), crand(rng, (5, 4), dtype)
    both(one_op_program(f"xla.dot %a0, %a1 : ({t((3, 5))}, {t((5, 4))}) -> {t((3, 4))}", [a, b], [t((3, 4))]),
         a, b, reduction=True)  # fmt: skip
    x, y = crand(rng, (2, 3, 4), dtype), crand(rng, (2, 4, 5), dtype)
    both(one_op_program(
        "xla.dot_general %a0, %a1, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
        f"lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : ({t((2, 3, 4))}, {t((2, 4, 5))}) -> "
        f"{t((2, 3, 5))}", [x, y], [t((2, 3, 5))]), x, y, reduction=True)  # fmt: skip


@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_atan2(dtype):
    """Issue 13: complex atan2 crashed the interpreter (numpy has no complex arctan2).
    Both backends follow StableHLO's definition, checked here independently in
    complex128: -i log((x + i y) / sqrt(x^2 + y^2)); on the real axis it is arctan2."""
    rng = np.random.default_rng(9)
    y, x = crand(rng, (3, 4), dtype), crand(rng, (3, 4), dtype)
    y.reshape(-1)[:3] = [1.0, -2.0, 0.5]  # real numbers: arctan2 of the real parts
    x.reshape(-1)[:3] = [3.0, 1.5, -4.0]
    program = one_op_program(f"xla.atan2 %a0, %a1 : {ttype(y)}", [y, x], [ttype(y)])
    (got,) = both(program, y, x)
    y128, x128 = y.astype(np.complex128), x.astype(np.complex128)
    expected = -1j * np.log((x128 + 1j * y128) / np.sqrt(x128 * x128 + y128 * y128))
    rtol = 1e-5 if np.dtype(dtype) == np.complex64 else 1e-12
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(got.reshape(-1)[:3].real, np.arctan2([1.0, -2.0, 0.5], [3.0, 1.5, -4.0]), rtol=rtol)
