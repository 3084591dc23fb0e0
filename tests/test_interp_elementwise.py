"""Reference semantics of the element-wise family: the spec's examples and corners,
expected values typed from the spec or computed independently with numpy."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from tests.util import binary, run_one, tensor_type, ttype, unary

f32, i32 = np.float32, np.int32
BF16 = ml_dtypes.bfloat16


# ---- broadcasting.md -----------------------------------------------------------------


def test_matrix_plus_scalar():
    m = np.array([[1, 2, 3], [4, 5, 6]], f32)
    np.testing.assert_array_equal(binary("add", m, np.array(7, f32)), [[8, 9, 10], [11, 12, 13]])


def test_matrix_plus_vector_dim1():
    m = np.array([[1, 2, 3], [4, 5, 6]], f32)
    out = binary("add", m, np.array([7, 8, 9], f32), (2, 3), extra="broadcast_dimensions = [1]")
    np.testing.assert_array_equal(out, [[8, 10, 12], [11, 13, 15]])


def test_square_matrix_plus_vector_dim0_rows():
    m = np.zeros((3, 3), f32)
    out = binary("add", m, np.array([7, 8, 9], f32), (3, 3), extra="broadcast_dimensions = [0]")
    np.testing.assert_array_equal(out, [[7, 7, 7], [8, 8, 8], [9, 9, 9]])


def test_vector_plus_degenerate_matrix():
    out = binary("add", np.array([1, 2, 3, 4], f32), np.array([[5, 6]], f32), (4, 2), extra="broadcast_dimensions = [0]")
    np.testing.assert_array_equal(out, [[6, 7], [7, 8], [8, 9], [9, 10]])


def test_outer_degenerate():
    out = binary("multiply", np.array([[1], [2]], i32), np.array([[1, 10, 100]], i32))
    np.testing.assert_array_equal(out, [[1, 10, 100], [2, 20, 200]])


# ---- integer corners -----------------------------------------------------------------


def test_remainder_takes_dividend_sign():
    a = np.array([5, -5, 5, -5], i32)
    b = np.array([3, 3, -3, -3], i32)
    np.testing.assert_array_equal(binary("remainder", a, b), [2, -2, 2, -2])
    np.testing.assert_array_equal(binary("remainder", a.astype(f32), b.astype(f32)), [2, -2, 2, -2])


def test_integer_division_truncates():
    a = np.array([7, -7, 7, -7], i32)
    b = np.array([2, 2, -2, -2], i32)
    np.testing.assert_array_equal(binary("divide", a, b), [3, -3, -3, 3])


def test_integer_division_by_zero_and_overflow_are_defined():
    lo = np.iinfo(i32).min
    a = np.array([7, -7, lo, lo], i32)
    b = np.array([0, 0, -1, 1], i32)
    np.testing.assert_array_equal(binary("divide", a, b), [-1, -1, lo, lo])
    np.testing.assert_array_equal(binary("remainder", a, b), [7, -7, 0, 0])
    u = np.array([7, 0], np.uint8)
    np.testing.assert_array_equal(binary("divide", u, np.array([0, 0], np.uint8)), [255, 255])
    np.testing.assert_array_equal(binary("remainder", u, np.array([0, 0], np.uint8)), [7, 0])


def test_unsigned_wraps():
    out = binary("add", np.array([200, 255], np.uint8), np.array([100, 1], np.uint8))
    np.testing.assert_array_equal(out, [44, 0])
    np.testing.assert_array_equal(unary("negate", np.array([np.iinfo(np.int8).min], np.int8)), [-128])


def test_shifts_by_the_width_or_more():
    a = np.array([1, -8, -8, 1], i32)
    b = np.array([31, 32, 40, -1], i32)
    np.testing.assert_array_equal(binary("shift_left", a, b), [lo := np.iinfo(i32).min, 0, 0, 0])
    np.testing.assert_array_equal(binary("shift_right_arithmetic", a, b), [0, -1, -1, 0])
    np.testing.assert_array_equal(
        binary("shift_right_logical", np.array([-8], i32), np.array([28], i32)), [15]
    )
    assert lo == -(2**31)


def test_popcnt_and_clz():
    np.testing.assert_array_equal(unary("popcnt", np.array([-1, 0, 7], np.int8)), [8, 0, 3])
    np.testing.assert_array_equal(unary("count_leading_zeros", np.array([1, 0, -1, 256], i32)), [31, 32, 0, 23])


def test_integer_power():
    base = np.array([2, 2, -1, 1, 3, 0], i32)
    exp = np.array([10, -1, -3, -5, 40, 0], i32)
    wrapped = (pow(3, 40) + 2**31) % 2**32 - 2**31
    np.testing.assert_array_equal(binary("power", base, exp), [1024, 0, -1, 1, wrapped, 1])


def test_not_is_logical_on_pred_and_bitwise_on_integers():
    np.testing.assert_array_equal(unary("not", np.array([True, False])), [False, True])
    np.testing.assert_array_equal(unary("not", np.array([0, 5], np.uint8)), [255, 250])


# ---- floats --------------------------------------------------------------------------


def test_f32_stays_f32():
    x = np.linspace(-3, 3, 7, dtype=f32)
    out = unary("tanh", x)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.tanh(x))


def test_rounding_modes():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -1.7], f32)
    np.testing.assert_array_equal(unary("round_nearest_afz", x), [1, 2, 3, -1, -3, 0, -2])
    np.testing.assert_array_equal(unary("round_nearest_even", x), [0, 2, 2, -0.0, -2, 0, -2])


def test_sign():
    x = np.array([-3.0, -0.0, 0.0, 2.0, np.nan], f32)
    out = unary("sign", x)
    np.testing.assert_array_equal(out[[0, 3]], [-1, 1])
    assert math.copysign(1, out[1]) == -1 and out[1] == 0
    assert math.copysign(1, out[2]) == 1 and out[2] == 0
    assert np.isnan(out[4])


def test_real_imag_abs_of_complex():
    c = np.array([3 + 4j, -1j], np.complex64)
    np.testing.assert_array_equal(unary("abs", c, f32), [5, 1])
    np.testing.assert_array_equal(unary("real", c, f32), [3, 0])
    np.testing.assert_array_equal(unary("imag", c, f32), [4, -1])
    np.testing.assert_array_equal(unary("imag", np.array([2.0], f32)), [0])


def test_is_finite():
    x = np.array([1.0, np.inf, -np.inf, np.nan], f32)
    np.testing.assert_array_equal(unary("is_finite", x, np.bool_), [True, False, False, False])


def test_logistic_and_rsqrt():
    x = np.array([0.0, 4.0], f32)
    np.testing.assert_allclose(unary("logistic", x), [0.5, 1 / (1 + math.exp(-4))], rtol=1e-6)
    np.testing.assert_allclose(unary("rsqrt", x), [np.inf, 0.5])


def test_bf16_computes_in_f32_and_rounds_once():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(64).astype(BF16)
    b = rng.standard_normal(64).astype(BF16)
    expected = (a.astype(f32) * b.astype(f32)).astype(BF16)
    out = binary("multiply", a, b)
    assert out.dtype == BF16
    np.testing.assert_array_equal(out.astype(f32), expected.astype(f32))


# ---- compare -------------------------------------------------------------------------

TOTAL_ORDER = np.array(
    [-np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan], f32
)  # -NaN < -Inf < -finite < -0 < +0 < +finite < +Inf < +NaN


def test_total_order():
    n = len(TOTAL_ORDER)
    a = np.repeat(TOTAL_ORDER, n)
    b = np.tile(TOTAL_ORDER, n)
    a[: n] = np.copysign(np.float32(np.nan), -1)  # make sure -NaN keeps its sign bit
    rt = tensor_type(a.shape, np.bool_)
    out = run_one(
        f"xla.compare %a0, %a1, comparison_direction = LT, compare_type = TOTALORDER : ({ttype(a)}, {ttype(b)}) -> {rt}",
        [a, b],
        [rt],
    )
    expected = np.repeat(np.arange(n), n) < np.tile(np.arange(n), n)
    np.testing.assert_array_equal(out, expected)


def test_float_compare_is_ieee():
    a = np.array([np.nan, 0.0, 1.0], f32)
    b = np.array([np.nan, -0.0, 2.0], f32)
    rt = tensor_type(a.shape, np.bool_)
    eq = run_one(f"xla.compare %a0, %a1, comparison_direction = EQ : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt])
    np.testing.assert_array_equal(eq, [False, True, False])


def test_unsigned_compare():
    a = np.array([200, 1], np.uint8)
    b = np.array([100, 2], np.uint8)
    rt = tensor_type(a.shape, np.bool_)
    out = run_one(f"xla.compare %a0, %a1, comparison_direction = GT : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt])
    np.testing.assert_array_equal(out, [True, False])


# ---- conversions ---------------------------------------------------------------------


def test_convert_spec_example():
    # let a: s32[3] = {0, 1, 2}; let b: f32[3] = convert(a, f32); then b == f32[3]{0.0, 1.0, 2.0}
    out = unary("convert", np.array([0, 1, 2], i32), f32)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [0.0, 1.0, 2.0])


def test_convert_float_to_int_truncates_and_saturates():
    x = np.array([300.0, -300.0, np.nan, 2.7, -2.7, np.inf], f32)
    np.testing.assert_array_equal(unary("convert", x, np.int8), [127, -128, 0, 2, -2, 127])
    np.testing.assert_array_equal(unary("convert", x, np.uint8), [255, 0, 0, 2, 0, 255])


def test_convert_rounds_to_nearest_even():
    np.testing.assert_array_equal(unary("convert", np.array([16777217], i32), f32), [16777216.0])
    x = np.array([1.00390625], f32)  # halfway between two bf16 values: rounds to even 1.0
    assert unary("convert", x, BF16).astype(f32)[0] == 1.0


def test_convert_to_and_from_pred():
    np.testing.assert_array_equal(unary("convert", np.array([0.0, -2.0], f32), np.bool_), [False, True])
    np.testing.assert_array_equal(unary("convert", np.array([True, False]), i32), [1, 0])


def test_bitcast_convert_same_width():
    out = unary("bitcast_convert", np.array([1.0], f32), i32)
    np.testing.assert_array_equal(out, [0x3F800000])


def test_bitcast_convert_adds_and_drops_minor_dim():
    x = np.array([[1.0, -2.0]], f32)
    rt = tensor_type((1, 2, 4), np.uint8)
    bytes_ = run_one(f"xla.bitcast_convert %a0 : ({ttype(x)}) -> {rt}", [x], [rt])
    np.testing.assert_array_equal(bytes_, x.view(np.uint8).reshape(1, 2, 4))
    rt2 = tensor_type((1, 2), np.float32)
    back = run_one(f"xla.bitcast_convert %a0 : ({ttype(bytes_)}) -> {rt2}", [bytes_], [rt2])
    np.testing.assert_array_equal(back, x)


def _reduce_precision(x: np.ndarray, e: int, m: int) -> np.ndarray:
    return run_one(
        f"xla.reduce_precision %a0, exponent_bits = {e}, mantissa_bits = {m} : {ttype(x)}", [x], [ttype(x)]
    )


def test_reduce_precision_to_bf16_matches_bf16_rounding():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(256) * 10.0 ** rng.integers(-30, 30, 256)).astype(f32)
    np.testing.assert_array_equal(_reduce_precision(x, 8, 7), x.astype(BF16).astype(f32))


def test_reduce_precision_to_f16_overflow_and_nan():
    x = np.array([1e5, -1e5, np.nan, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, 1e-9], f32)
    out = _reduce_precision(x, 5, 10)
    assert out[0] == np.inf and out[1] == -np.inf
    assert np.isnan(out[2])
    assert out[3] == 1.0  # a tie rounds to even
    assert out[4] == np.float32(1.0 + 2 * 2.0**-10)
    assert out[5] == 0.0


# ---- property tests against numpy ----------------------------------------------------

NUMPY_BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
}


@pytest.mark.parametrize("op", sorted(NUMPY_BINARY))
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64, np.float32, np.float64])
def test_binary_matches_numpy(op, dtype):
    rng = np.random.default_rng(abs(hash((op, np.dtype(dtype).name))) % 2**32)
    for _ in range(3):
        shape = tuple(rng.integers(1, 5, rng.integers(0, 4)))
        if np.dtype(dtype).kind == "f":
            a = rng.standard_normal(shape).astype(dtype)
            b = rng.standard_normal(shape).astype(dtype)
        else:
            info = np.iinfo(dtype)
            a = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
            b = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
        with np.errstate(over="ignore"):
            expected = NUMPY_BINARY[op](a, b)
        np.testing.assert_array_equal(binary(op, a, b), expected)


NUMPY_UNARY = {
    "exponential": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "cosine": np.cos,
    "sine": np.sin,
    "tanh": np.tanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "abs": np.abs,
    "negate": np.negative,
    "cbrt": np.cbrt,
    "log_plus_one": np.log1p,
    "exponential_minus_one": np.expm1,
}


@pytest.mark.parametrize("op", sorted(NUMPY_UNARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_matches_numpy(op, dtype):
    rng = np.random.default_rng(7)
    x = np.abs(rng.standard_normal((3, 4))).astype(dtype) + dtype(0.1)
    expected = NUMPY_UNARY[op](x)
    out = unary(op, x)
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, expected)


def test_scalar_select_and_clamp():
    on_true = np.array([1, 2, 3], i32)
    on_false = np.array([4, 5, 6], i32)
    pred = np.array(False)
    rt = ttype(on_true)
    out = run_one(f"xla.select %a0, %a1, %a2 : ({ttype(pred)}, {rt}, {rt}) -> {rt}", [pred, on_true, on_false], [rt])
    np.testing.assert_array_equal(out, [4, 5, 6])
    lo, hi = np.array(0, i32), np.array(2, i32)
    x = np.array([-1, 1, 5], i32)
    out = run_one(f"xla.clamp %a0, %a1, %a2 : ({ttype(lo)}, {rt}, {ttype(hi)}) -> {rt}", [lo, x, hi], [rt])
    np.testing.assert_array_equal(out, [0, 1, 2])


def test_iota_spec_examples():
    # Iota(s32[4, 8], 0) and Iota(s32[4, 8], 1)
    import xla_opt

    prog = """
    func.func @main() -> (tensor<4x8xi32>, tensor<4x8xi32>) {
      %0 = xla.iota iota_dimension = 0 : tensor<4x8xi32>
      %1 = xla.iota iota_dimension = 1 : tensor<4x8xi32>
      func.return %0, %1 : tensor<4x8xi32>, tensor<4x8xi32>
    }"""
    d0, d1 = xla_opt.run(prog)
    np.testing.assert_array_equal(d0, [[r] * 8 for r in range(4)])
    np.testing.assert_array_equal(d1, [list(range(8))] * 4)


# ---- worked examples of the spec (values typed from operation_semantics) ------------


def test_clamp_spec_example():
    # operand s32[3] = {-1, 5, 9}; min s32 = 0; max s32 = 6 ==> s32[3]{0, 5, 6}
    x, lo, hi = np.array([-1, 5, 9], i32), np.array(0, i32), np.array(6, i32)
    rt = ttype(x)
    out = run_one(f"xla.clamp %a0, %a1, %a2 : ({ttype(lo)}, {rt}, {ttype(hi)}) -> {rt}", [lo, x, hi], [rt])
    np.testing.assert_array_equal(out, [0, 5, 6])


@pytest.mark.parametrize(
    "pred, expected",
    [
        (np.array([True, False, False, True]), [1, 200, 300, 4]),  # non-scalar pred
        (np.array(True), [1, 2, 3, 4]),  # scalar pred
    ],
)
def test_select_spec_examples(pred, expected):
    v1 = np.array([1, 2, 3, 4], i32)
    v2 = np.array([100, 200, 300, 400], i32)
    rt = ttype(v1)
    out = run_one(f"xla.select %a0, %a1, %a2 : ({ttype(pred)}, {rt}, {rt}) -> {rt}", [pred, v1, v2], [rt])
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(
    "in_shape, in_dtype, out_shape, out_dtype",
    [
        ((10,), np.float32, (10, 2), np.float16),  # f16[10,2] bitcast-convert(f32[10])
        ((), np.float32, (2,), np.float16),  # f16[2] bitcast-convert(f32[])
        ((10, 2), np.float16, (10,), np.float32),  # f32[10] bitcast-convert(f16[10,2])
    ],
)
def test_bitcast_convert_spec_shapes(in_shape, in_dtype, out_shape, out_dtype):
    x = np.random.default_rng(3).standard_normal(in_shape).astype(in_dtype)
    rt = tensor_type(out_shape, out_dtype)
    out = run_one(f"xla.bitcast_convert %a0 : ({ttype(x)}) -> {rt}", [x], [rt])
    assert out.shape == out_shape and out.dtype == out_dtype
    np.testing.assert_array_equal(out.reshape(-1).view(np.uint8), x.reshape(-1).view(np.uint8))
