"""Reference semantics of the element-wise family on numpy arrays.

Exactness rules (XLA's CPU behaviour, which JAX users observe):
* f32 stays f32; f16, bf16 and the 8-, 6- and 4-bit floats compute in f32 and round
  back once, as ml_dtypes' casts round (nearest even, each format's overflow rule).
* 4- and 2-bit integers compute in a byte and wrap back to their width.
* integers wrap around; integer division truncates toward zero; x / 0 is -1 (all
  bits set), x % 0 is x, INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0.
* shifts by the bit width or more give 0 (arithmetic right shift: the sign fill).
* convert follows C++ static_cast: floats to integers truncate toward zero and
  saturate, NaN becomes 0; everything else rounds to nearest even.
"""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects.shapes.broadcast import broadcast_operand_map
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.element_types import elem_of, shape_of

from .dtypes import (
    BFLOAT16,
    NARROW_FLOATS,
    is_ml_float_dtype,
    is_narrow_float_dtype,
    is_narrow_int_dtype,
    numpy_dtype,
    wide_int_dtype,
)

# the float types computed in f32 and rounded back once
HALF_TYPES = (np.dtype(np.float16), BFLOAT16, *NARROW_FLOATS)


def _float_compute(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """Run `fn` in f32 for f16/bf16 inputs and round the result back."""

    def run(*xs: np.ndarray) -> np.ndarray:
        dtype = xs[0].dtype
        if dtype in HALF_TYPES:
            out = fn(*(x.astype(np.float32) for x in xs))
            return out.astype(dtype) if out.dtype.kind == "f" else out
        return fn(*xs)

    return run


def _quiet(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """IEEE results (inf, nan) are values, not warnings."""

    def run(*xs: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return fn(*xs)

    return run


# --------------------------------------------------------------------------------------
# Integer helpers
# --------------------------------------------------------------------------------------


def _safe_divisor(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(b == 0, INT_MIN / -1, b with both replaced by 1): the two cases whose result
    XLA defines, and a divisor numpy can use everywhere."""
    lo = int(np.iinfo(a.dtype).min)
    zero = b == 0
    overflow = (a == lo) & (b == -1) if lo < 0 else np.zeros(a.shape, bool)
    return zero, overflow, np.where(zero | overflow, 1, b).astype(a.dtype)


def int_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    zero, overflow, safe_b = _safe_divisor(a, b)
    # truncating division: subtract the C remainder, then the division is exact
    tq = np.floor_divide(a - np.fmod(a, safe_b), safe_b).astype(a.dtype)
    all_ones = np.array(-1).astype(a.dtype) if a.dtype.kind == "i" else np.iinfo(a.dtype).max
    tq = np.where(zero, all_ones, tq)
    return np.where(overflow, a, tq).astype(a.dtype)


def int_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    zero, overflow, safe_b = _safe_divisor(a, b)
    r = np.where(zero, a, np.fmod(a, safe_b))
    return np.where(overflow, 0, r).astype(a.dtype)


def int_power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exponentiation by squaring with wrap-around; negative exponents give 0 except
    for bases 1 and -1 (XLA's integer pow)."""
    with np.errstate(over="ignore"):
        result = np.ones(a.shape, a.dtype)
        base = a.copy()
        exp = b.copy()
        negative = exp < 0 if np.issubdtype(b.dtype, np.signedinteger) else np.zeros(b.shape, bool)
        exp = np.where(negative, 0, exp)
        while np.any(exp > 0):
            odd = (exp & 1).astype(bool)
            result = np.where(odd, result * base, result).astype(a.dtype)
            base = (base * base).astype(a.dtype)
            exp = exp >> 1
    if not negative.any():
        return result
    # mixing these int64 values with uint64 ones would round through float64
    neg_result = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0)).astype(a.dtype)
    return np.where(negative, neg_result, result).astype(a.dtype)


def _shift_amount(b: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    unsigned = b.astype(np.uint64) if b.dtype.kind == "u" else b.astype(np.int64).astype(np.uint64)
    too_big = unsigned >= bits
    return np.where(too_big, 0, unsigned).astype(np.uint64), too_big


def shift_left(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    amount, too_big = _shift_amount(b, bits)
    ua = a.view(f"uint{bits}")
    out = np.left_shift(ua, amount.astype(ua.dtype)).astype(ua.dtype)
    return np.where(too_big, 0, out).astype(ua.dtype).view(a.dtype)


def shift_right_logical(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    amount, too_big = _shift_amount(b, bits)
    ua = a.view(f"uint{bits}")
    out = np.right_shift(ua, amount.astype(ua.dtype))
    return np.where(too_big, 0, out).astype(ua.dtype).view(a.dtype)


def shift_right_arithmetic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    amount, too_big = _shift_amount(b, bits)
    sa = a.view(f"int{bits}")
    amount = np.where(too_big, bits - 1, amount).astype(sa.dtype)
    return np.right_shift(sa, amount).astype(sa.dtype).view(a.dtype)


def popcount(a: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    return np.bitwise_count(a.view(f"uint{bits}")).astype(a.dtype)


def count_leading_zeros(a: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    u = a.view(f"uint{bits}").astype(np.uint64)
    count = np.zeros(a.shape, np.int64)
    for i in range(bits - 1, -1, -1):
        set_bit = ((u >> np.uint64(i)) & np.uint64(1)).astype(bool)
        count = np.where((count == bits - 1 - i) & ~set_bit, count + 1, count)
    return count.astype(a.dtype)


def _narrow_bits(x: np.ndarray) -> np.ndarray:
    """A 4- or 2-bit integer's bits as a uint8 (its two's complement, zero-extended)."""
    return x.view(np.uint8) & np.uint8((1 << _narrow_width(x.dtype)) - 1)


def _narrow_width(dtype: np.dtype) -> int:
    return 4 if dtype.name.endswith("int4") else 2


def _narrow_unary_bits(fn: Callable[[np.ndarray, int], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """popcnt and count_leading_zeros look at the bits of the narrow width only."""

    def run(x: np.ndarray) -> np.ndarray:
        return fn(_narrow_bits(x), _narrow_width(x.dtype)).astype(x.dtype)

    return run


# The ops on 4- and 2-bit integers that depend on their width, on their bits (uint8).
NARROW_INT_UNARY: dict[type, Callable[[np.ndarray], np.ndarray]] = {
    ew.PopcntOp: _narrow_unary_bits(lambda u, w: np.bitwise_count(u)),
    ew.CountLeadingZerosOp: _narrow_unary_bits(lambda u, w: count_leading_zeros(u) - np.uint8(8 - w)),
}


def _narrow_shift_right_logical(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w = _narrow_width(a.dtype)
    amount, too_big = _shift_amount(b.astype(wide_int_dtype(b.dtype)), w)
    out = np.right_shift(_narrow_bits(a), amount.astype(np.uint8))
    return np.where(too_big, 0, out).astype(np.uint8).astype(np.int8).astype(a.dtype)


def _narrow_shift_right_arithmetic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The sign is the narrow width's top bit (also of an unsigned type)."""
    w = _narrow_width(a.dtype)
    amount, too_big = _shift_amount(b.astype(wide_int_dtype(b.dtype)), w)
    bits = _narrow_bits(a).astype(np.int8)
    signed = np.where(bits >= 1 << (w - 1), bits - (1 << w), bits).astype(np.int8)
    amount = np.where(too_big, w - 1, amount).astype(np.int8)
    return np.right_shift(signed, amount).astype(a.dtype)


NARROW_INT_BINARY: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    ew.ShiftRightLogicalOp: _narrow_shift_right_logical,
    ew.ShiftRightArithmeticOp: _narrow_shift_right_arithmetic,
}


def _shift_left_narrow(a: np.ndarray, b: np.ndarray, w: int) -> np.ndarray:
    amount, too_big = _shift_amount(b, w)
    return np.where(too_big, 0, np.left_shift(a, amount.astype(a.dtype))).astype(a.dtype)


def narrow_int_compute(op_type: type, fn: Callable[..., np.ndarray], *xs: np.ndarray) -> np.ndarray:
    """`fn` on 4- or 2-bit integers: computed in a byte (int8 or uint8) and wrapped back
    to the narrow width, except the ops that depend on the width itself."""
    if op_type in NARROW_INT_UNARY:
        return NARROW_INT_UNARY[op_type](*xs)
    if op_type in NARROW_INT_BINARY:
        return NARROW_INT_BINARY[op_type](*xs)
    wide = [x.astype(wide_int_dtype(x.dtype)) for x in xs]
    if op_type is ew.ShiftLeftOp:  # a shift by the narrow width or more gives 0
        return _shift_left_narrow(*wide, _narrow_width(xs[0].dtype)).astype(xs[0].dtype)
    out = np.asarray(fn(*wide))
    return out if out.dtype == np.bool_ else out.astype(xs[0].dtype)


# --------------------------------------------------------------------------------------
# Float helpers
# --------------------------------------------------------------------------------------


def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to nearest, ties away from zero, without the x + 0.5 rounding error."""
    t = np.trunc(x)
    frac = x - t
    return np.where(np.abs(frac) >= 0.5, t + np.sign(x), t).astype(x.dtype)


def sign(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        # x / |x| part by part, dividing by the real modulus as XLA does (numpy's
        # complex division would make sign(inf+1j) nan+nanj instead of nan+0j)
        mag = np.abs(x)
        quotient = np.empty_like(x)
        with np.errstate(all="ignore"):
            quotient.real, quotient.imag = x.real / mag, x.imag / mag
        return np.where(mag == 0, x, quotient).astype(x.dtype)
    if x.dtype.kind == "f":
        # -0 and +0 keep their sign, NaN stays NaN
        return np.where(x == 0, x, np.sign(x)).astype(x.dtype)
    return np.sign(x).astype(x.dtype)


def logistic(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)); for a complex x with a negative real part, the same value as
    exp(x) / (1 + exp(x)): exp(-x) would overflow to (±inf, ±inf) there and the division
    give NaN where the value is ~0, as XLA gives (issue 31, fuzz finding F11)."""
    one = np.ones((), x.dtype)
    if x.dtype.kind == "c":
        with np.errstate(all="ignore"):
            grows = np.exp(x)
            return np.where(x.real < 0, grows / (one + grows), one / (one + np.exp(-x))).astype(x.dtype)
    return (one / (one + np.exp(-x))).astype(x.dtype)


def rsqrt(x: np.ndarray) -> np.ndarray:
    """1 / sqrt(x); for a complex x whose square root has an infinite part, 0, as C99's
    division by an infinity and XLA give (numpy's complex division gives NaN there:
    fuzz seed 802613)."""
    one = np.ones((), x.dtype)
    with np.errstate(all="ignore"):
        root = np.sqrt(x)
        result = one / root
    if x.dtype.kind == "c":
        result = np.where(np.isinf(root.real) | np.isinf(root.imag), np.zeros((), x.dtype), result)
    return np.asarray(result).astype(x.dtype)


def real_part(x: np.ndarray) -> np.ndarray:
    return np.real(x).copy()


def imag_part(x: np.ndarray) -> np.ndarray:
    return np.imag(x).copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """Integers ordered like TOTALORDER: -NaN < -Inf < -finite < -0 < +0 < +finite < +Inf < +NaN."""
    bits = x.dtype.itemsize * 8
    i = x.view(f"int{bits}").astype(np.int64)
    return np.where(i < 0, i ^ np.int64((1 << (bits - 1)) - 1), i)


def compare(a: np.ndarray, b: np.ndarray, direction: str, compare_type: str) -> np.ndarray:
    if compare_type == "TOTALORDER":
        a, b = _total_order_key(a), _total_order_key(b)
    fn = {
        "EQ": np.equal,
        "NE": np.not_equal,
        "GE": np.greater_equal,
        "GT": np.greater,
        "LE": np.less_equal,
        "LT": np.less,
    }[direction]
    with np.errstate(invalid="ignore"):  # comparisons with NaN are false, not warnings
        return fn(a, b)


# --------------------------------------------------------------------------------------
# Conversions
# --------------------------------------------------------------------------------------


def convert(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype == x.dtype:
        return x.copy()
    if is_narrow_int_dtype(x.dtype):  # every value fits in a byte
        return convert(x.astype(wide_int_dtype(x.dtype)), dtype)
    if is_narrow_float_dtype(x.dtype):  # every value is an f32 one
        return convert(x.astype(np.float32), dtype)
    if is_narrow_int_dtype(dtype):
        if x.dtype.kind == "b":
            return x.astype(dtype)
        if x.dtype.kind in "iu":  # integers wrap: keep the low bits
            return x.astype(np.uint64 if x.dtype.kind == "u" else np.int64).astype(dtype)
        # floats saturate to the narrow range (NaN becomes 0), as to any integer
        info = ml_dtypes.iinfo(dtype)
        wide = convert(x, np.dtype(np.int64))
        return np.clip(wide, int(info.min), int(info.max)).astype(dtype)
    if is_narrow_float_dtype(dtype):
        # ml_dtypes rounds every other type through f32 (f64 and integers too: a double
        # rounding, which XLA's CPU converts also do); complex numbers give their real part
        with np.errstate(all="ignore"):
            real = np.real(x) if x.dtype.kind == "c" else x
            return real.astype(np.float32).astype(dtype)
    if dtype.kind == "b":
        return np.asarray(x != 0)  # a 0-d array stays one (not a numpy bool: fuzz seed 806313)
    if dtype.kind in "iu" and (x.dtype.kind in "fc" or is_ml_float_dtype(x.dtype)):
        real = np.real(x).astype(np.float64)
        info = np.iinfo(dtype)
        t = np.trunc(np.nan_to_num(real, nan=0.0, posinf=np.inf, neginf=-np.inf))
        out = np.empty(x.shape, dtype)
        high = t >= float(info.max)
        low = t <= float(info.min)
        mid = ~(high | low)
        out[high] = info.max
        out[low] = info.min
        out[mid] = t[mid].astype(dtype)
        return out
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = np.real(x)
    with np.errstate(all="ignore"):
        if x.dtype.kind in "iub" and dtype.kind in "iu":
            return x.astype(dtype)  # wrap-around, like static_cast of integers
        return x.astype(dtype)


def bitcast_convert(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The bytes of x as `dtype`: same width keeps the shape; a narrower result type
    adds a minor dimension of width-ratio size, a wider one consumes the minor dimension."""
    if _bits(x.dtype) != 8 * x.dtype.itemsize or _bits(dtype) != 8 * dtype.itemsize:
        return _bitcast_narrow(x, dtype)
    in_bytes, out_bytes = x.dtype.itemsize, dtype.itemsize
    # flattened, because numpy only reinterprets rank >= 1 arrays across widths
    flat = np.asarray(x, order="C").reshape(-1).view(dtype)
    if in_bytes == out_bytes:
        return flat.reshape(x.shape).copy()
    if in_bytes > out_bytes:
        return flat.reshape(*x.shape, in_bytes // out_bytes).copy()
    return flat.reshape(x.shape[:-1]).copy()


def _bits(dtype: np.dtype) -> int:
    """An element's width in bits (4, 2 for the narrow integers, 6 or 4 for the
    micro-floats, each stored in a byte)."""
    if is_narrow_int_dtype(dtype):
        return _narrow_width(dtype)
    return ml_dtypes.finfo(dtype).bits if is_narrow_float_dtype(dtype) else dtype.itemsize * 8


def _bitcast_narrow(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """bitcast_convert to or from a type narrower than its byte (i4, f4E2M1FN...): the
    same width reinterprets the low bits, another width splits the wide element's bits
    into (or joins them from) the minor dimension, lowest bits first."""
    in_bits, out_bits = _bits(x.dtype), _bits(dtype)
    flat = np.ascontiguousarray(x).reshape(-1)
    if in_bits < 8 * x.dtype.itemsize:
        words = (flat.view(np.uint8) & np.uint8((1 << in_bits) - 1)).astype(np.uint64)
    else:
        words = flat.view(f"uint{in_bits}").astype(np.uint64)
    if in_bits == out_bits:
        return words.astype(np.uint8).view(dtype).reshape(x.shape)
    if in_bits > out_bits:
        ratio, shape = in_bits // out_bits, (*x.shape, in_bits // out_bits)
        shifts = np.arange(ratio, dtype=np.uint64) * np.uint64(out_bits)
        parts = (words[:, None] >> shifts) & np.uint64((1 << out_bits) - 1)
        out_words = parts.reshape(-1)
    else:
        ratio, shape = out_bits // in_bits, x.shape[:-1]
        shifts = np.arange(ratio, dtype=np.uint64) * np.uint64(in_bits)
        out_words = np.bitwise_or.reduce(words.reshape(-1, ratio) << shifts, axis=1)
    if out_bits < 8 * dtype.itemsize:
        return out_words.astype(np.uint8).view(dtype).reshape(shape)
    return out_words.astype(f"uint{out_bits}").view(dtype).reshape(shape)


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """XLA's ReducePrecision on the IEEE bit pattern: round the mantissa to nearest even,
    overflow to +-Inf, underflow to +-0, NaN kept (as a NaN)."""
    dtype = x.dtype
    if dtype in HALF_TYPES:
        with np.errstate(over="ignore"):  # values beyond the half type round to Inf
            return reduce_precision(x.astype(np.float32), exponent_bits, mantissa_bits).astype(dtype)
    if dtype == np.float32:
        ubits, src_exp, src_man, uint = 32, 8, 23, np.uint32
    else:
        ubits, src_exp, src_man, uint = 64, 11, 52, np.uint64
    bits = np.asarray(x, order="C").view(uint).copy()  # rank 0 stays rank 0
    one = uint(1)
    if mantissa_bits < src_man:
        drop = uint(src_man - mantissa_bits)
        last_kept = (bits >> drop) & one
        bias = (one << (drop - one)) - one + last_kept
        bits = (bits + bias) & ~((one << drop) - one)
    if exponent_bits < src_exp:
        sign_mask = one << uint(ubits - 1)
        exp_mask = ((one << uint(src_exp)) - one) << uint(src_man)
        src_bias = (1 << (src_exp - 1)) - 1
        dst_bias = (1 << (exponent_bits - 1)) - 1
        max_exp = uint(src_bias + dst_bias) << uint(src_man)
        min_exp = uint(src_bias - dst_bias) << uint(src_man)
        exponent = bits & exp_mask
        overflow = exponent > max_exp
        underflow = exponent <= min_exp
        signs = bits & sign_mask
        inf = signs | exp_mask
        bits = np.where(overflow, inf, np.where(underflow, signs, bits)).astype(uint)
    out = bits.view(dtype)
    return np.where(np.isnan(x), x, out).astype(dtype)


# --------------------------------------------------------------------------------------
# The op tables
# --------------------------------------------------------------------------------------

_F = lambda fn: _quiet(_float_compute(fn))  # noqa: E731


def _expm1(x: np.ndarray) -> np.ndarray:
    """numpy's expm1; for complex z = x + iy with y = 0 the imaginary part is y itself,
    as exp(z)'s is (XLA, C99's cexp): numpy's exp(x) sin(y) is inf * 0 = NaN once exp(x)
    overflows (issue 31, fuzz finding F8)."""
    out = np.expm1(x)
    if np.iscomplexobj(x):
        out = np.where(x.imag == 0, out.real + 1j * x.imag, out).astype(out.dtype)
    return out


UNARY_IMPLS: dict[type, Callable[[np.ndarray], np.ndarray]] = {
    ew.AbsOp: _F(np.abs),
    ew.CeilOp: _F(np.ceil),
    ew.CosineOp: _F(np.cos),
    ew.SineOp: _F(np.sin),
    ew.TanOp: _F(np.tan),
    ew.ExponentialOp: _F(np.exp),
    ew.ExponentialMinusOneOp: _F(_expm1),
    ew.FloorOp: _F(np.floor),
    ew.ImagOp: _F(imag_part),
    ew.RealOp: _F(real_part),
    ew.IsFiniteOp: np.isfinite,
    ew.LogOp: _F(np.log),
    ew.LogPlusOneOp: _F(np.log1p),
    ew.NotOp: lambda x: np.logical_not(x) if x.dtype == np.bool_ else np.invert(x),
    ew.LogisticOp: _F(logistic),
    ew.PopcntOp: popcount,
    ew.CountLeadingZerosOp: count_leading_zeros,
    ew.NegateOp: _quiet(lambda x: np.negative(x)),
    ew.RsqrtOp: _F(rsqrt),
    ew.SignOp: _F(sign),
    ew.SqrtOp: _F(np.sqrt),
    ew.CbrtOp: _F(np.cbrt),
    ew.TanhOp: _F(np.tanh),
    ew.RoundNearestAfzOp: _F(round_half_away),
    ew.RoundNearestEvenOp: _F(np.rint),
}


_real_atan2 = _float_compute(np.arctan2)


def _times_i(z: np.ndarray) -> np.ndarray:
    """i z, exactly: (-im z) + i (re z) (numpy's 1j * z would multiply the parts)."""
    out = np.empty_like(z)
    out.real, out.imag = -z.imag, z.real
    return out


def complex_atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """StableHLO's atan2 of complex numbers (numpy has none): "atan2(y, x) = -i *
    log((x + i * y) / sqrt(x * x + y * y))", computed at the operands' precision."""
    quotient = (x + _times_i(y)) / np.sqrt(x * x + y * y)
    return -_times_i(np.log(quotient))


def _by_kind(
    *, integer: Callable | None = None, floating: Callable | None = None, boolean: Callable | None = None
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        kind = a.dtype.kind
        fn = boolean if kind == "b" else integer if kind in "iu" else floating
        assert fn is not None, f"no implementation for {a.dtype}"
        with np.errstate(all="ignore"):
            return fn(a, b)

    return run


BINARY_IMPLS: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    ew.AddOp: _by_kind(integer=np.add, floating=_float_compute(np.add), boolean=np.logical_or),
    ew.SubtractOp: _by_kind(integer=np.subtract, floating=_float_compute(np.subtract)),
    ew.MultiplyOp: _by_kind(integer=np.multiply, floating=_float_compute(np.multiply), boolean=np.logical_and),
    ew.DivideOp: _by_kind(integer=int_divide, floating=_float_compute(np.divide)),
    ew.RemainderOp: _by_kind(integer=int_remainder, floating=_float_compute(np.fmod)),
    ew.MaximumOp: _by_kind(integer=np.maximum, floating=_float_compute(np.maximum), boolean=np.logical_or),
    ew.MinimumOp: _by_kind(integer=np.minimum, floating=_float_compute(np.minimum), boolean=np.logical_and),
    ew.PowerOp: _by_kind(integer=int_power, floating=_float_compute(np.power)),
    ew.Atan2Op: _by_kind(floating=lambda y, x: complex_atan2(y, x) if y.dtype.kind == "c" else _real_atan2(y, x)),
    ew.AndOp: _by_kind(integer=np.bitwise_and, boolean=np.logical_and),
    ew.OrOp: _by_kind(integer=np.bitwise_or, boolean=np.logical_or),
    ew.XorOp: _by_kind(integer=np.bitwise_xor, boolean=np.logical_xor),
    ew.ShiftLeftOp: _by_kind(integer=shift_left),
    ew.ShiftRightLogicalOp: _by_kind(integer=shift_right_logical),
    ew.ShiftRightArithmeticOp: _by_kind(integer=shift_right_arithmetic),
}


def broadcast_to_result(value: np.ndarray, result_shape: tuple[int, ...], dims) -> np.ndarray:
    """Apply broadcasting.md: place the operand's dimensions at `dims` of the result
    (InDim), then stretch size-1 dimensions (degenerate)."""
    mapping = broadcast_operand_map(value.shape, result_shape, dims)
    expanded_shape = [1] * len(result_shape)
    for i, d in enumerate(mapping):
        expanded_shape[d] = value.shape[i]
    return np.broadcast_to(value.reshape(expanded_shape), result_shape)


def _binary_operands(op, lhs: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    result_shape = shape_of(op.result.type)
    if not result_shape:
        # A scalar computation (a reducer, comparator...) may be evaluated on whole
        # arrays at once; numpy broadcasting then pairs the elements.
        return np.broadcast_arrays(lhs, rhs)  # type: ignore[return-value]
    dims = op.get_broadcast_dimensions()
    return broadcast_to_result(lhs, result_shape, dims), broadcast_to_result(rhs, result_shape, dims)


def _result_dtype(op) -> np.dtype:
    return numpy_dtype(elem_of(op.results[0].type))


class ElementwiseFunctions(InterpreterFunctions):
    def _unary(self, interpreter: Interpreter, op, args):
        if is_narrow_int_dtype(args[0].dtype):
            out = narrow_int_compute(type(op), UNARY_IMPLS[type(op)], args[0])
            return (np.asarray(out).astype(_result_dtype(op), copy=False),)
        out = UNARY_IMPLS[type(op)](args[0])
        return (np.asarray(out).astype(_result_dtype(op), copy=False),)

    def _binary(self, interpreter: Interpreter, op, args):
        a, b = _binary_operands(op, *args)
        if is_narrow_int_dtype(a.dtype):
            out = narrow_int_compute(type(op), BINARY_IMPLS[type(op)], a, b)
            return (np.asarray(out).astype(_result_dtype(op), copy=False),)
        out = BINARY_IMPLS[type(op)](a, b)
        return (np.asarray(out).astype(_result_dtype(op), copy=False),)

    @impl(ew.CompareOp)
    def run_compare(self, interpreter: Interpreter, op: ew.CompareOp, args):
        a, b = _binary_operands(op, *args)
        element = elem_of(op.lhs.type)
        ctype = op.get_compare_type() if op.compare_type is not None else ew.default_compare_type(element).value
        if ctype == "TOTALORDER" and a.dtype in HALF_TYPES:
            a, b = a.astype(np.float32), b.astype(np.float32)
        if is_narrow_int_dtype(a.dtype):
            a, b = a.astype(wide_int_dtype(a.dtype)), b.astype(wide_int_dtype(b.dtype))
        return (np.asarray(compare(a, b, op.get_comparison_direction(), ctype)),)

    @impl(ew.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: ew.ConstantOp, args):
        return (constant_value(op),)

    @impl(ew.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: ew.IotaOp, args):
        shape = shape_of(op.output.type)
        dim = op.get_iota_dimension()
        counts = np.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))])
        return (np.broadcast_to(counts, shape).astype(_result_dtype(op)),)

    @impl(ew.SelectOp)
    def run_select(self, interpreter: Interpreter, op: ew.SelectOp, args):
        pred, on_true, on_false = args
        return (np.where(pred, on_true, on_false).astype(on_true.dtype),)

    @impl(ew.ClampOp)
    def run_clamp(self, interpreter: Interpreter, op: ew.ClampOp, args):
        lo, x, hi = args
        if is_narrow_int_dtype(x.dtype) or x.dtype in HALF_TYPES:  # exact in the wide type
            wide = wide_int_dtype(x.dtype) if is_narrow_int_dtype(x.dtype) else np.float32
            with np.errstate(all="ignore"):
                out = np.minimum(np.maximum(x.astype(wide), lo.astype(wide)), hi.astype(wide))
            return (out.astype(x.dtype),)
        with np.errstate(all="ignore"):
            return (np.minimum(np.maximum(x, lo), hi).astype(x.dtype),)

    @impl(ew.ConvertOp)
    def run_convert(self, interpreter: Interpreter, op: ew.ConvertOp, args):
        return (convert(args[0], _result_dtype(op)),)

    @impl(ew.BitcastConvertOp)
    def run_bitcast_convert(self, interpreter: Interpreter, op: ew.BitcastConvertOp, args):
        return (bitcast_convert(args[0], _result_dtype(op)),)

    @impl(ew.ReducePrecisionOp)
    def run_reduce_precision(self, interpreter: Interpreter, op: ew.ReducePrecisionOp, args):
        return (reduce_precision(args[0], op.get_exponent_bits(), op.get_mantissa_bits()),)


# One implementation per table row, then the class is registered with all of them.
for _op in (*UNARY_IMPLS, *BINARY_IMPLS):
    _run = ElementwiseFunctions._unary if _op in UNARY_IMPLS else ElementwiseFunctions._binary
    setattr(ElementwiseFunctions, "run_" + _op.name.removeprefix("xla."), impl(_op)(_run))
register_impls(ElementwiseFunctions)


def constant_value(op: ew.ConstantOp) -> np.ndarray:
    """The numpy array of a dense elements constant."""
    attr = op.value
    dtype = numpy_dtype(elem_of(op.output.type))
    shape = shape_of(op.output.type)
    values = attr.get_values()
    if dtype.kind == "c":
        flat = np.array([complex(*v) for v in values], dtype=dtype)
    elif is_ml_float_dtype(dtype):  # the literals are exact values of the type
        flat = np.array(values, dtype=np.float32).astype(dtype)
    else:
        # straight into the dtype: through numpy's default, ui64 values of 2**63 or
        # more would become float64 and lose their low bits
        flat = np.array(values, dtype=dtype)
    if flat.size == 1 and int(np.prod(shape)) != 1:
        # a splat: a read-only broadcast view, so any shape whose uses fit in memory works
        return np.broadcast_to(flat.reshape(()), shape)
    return flat.reshape(shape)
