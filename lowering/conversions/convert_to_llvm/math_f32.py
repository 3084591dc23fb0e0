"""Vectorizable f32 `exp` and `tanh` in llvm-dialect arithmetic (a range reduction and
a polynomial, with no libm call), the helpers of convert-to-llvm's math converters
(`math.py`) for math.exp / math.tanh on f32, so that LLVM can vectorize the loops
around them."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    Float32Type,
    IntegerAttr,
    i32,
    i64,
)
from xdsl.ir import SSAValue
from xla_opt.lowering.conversions.convert_to_llvm.common import FunctionConverter

# shared attributes: an attribute is verified each time one is built, and the
# expansions below build thousands of ops
F32 = Float32Type()
NO_FAST_MATH = llvm.FastMathAttr(None)
_PREDICATES = {p: IntegerAttr(p, i64) for p in (2, 3, 4, 11, 14)}  # ogt, oge, olt, ult, uno


class F32Emitter:
    """Emission helpers for the inline f32 approximations below."""

    def __init__(self, c: FunctionConverter):
        self.c = c

    def k(self, value: float) -> SSAValue:
        return self.c.float_const(value, F32)

    def op(self, cls, *args) -> SSAValue:
        if issubclass(cls, llvm.AbstractFloatArithOp) and len(args) == 2:
            args = (*args, NO_FAST_MATH)  # what the op would build, shared
        return self.c.emit(cls(*args)).results[0]

    def mul_add(self, a: SSAValue, b: SSAValue, addend: float) -> SSAValue:
        """a * b + addend as `llvm.fmuladd`: one fused multiply-add where the CPU has
        FMA (half the instructions of a polynomial step, and one rounding instead of
        two, which keeps the approximations within their ulp bounds), a multiply and an
        add elsewhere."""
        return self.intr("llvm.fmuladd", a, b, self.k(addend))

    def intr(self, name: str, *args: SSAValue) -> SSAValue:
        return self.c.intrinsic(f"{name}.f32", list(args), F32)  # type: ignore[return-value]

    def fcmp(self, predicate: int, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(llvm.FCmpOp, a, b, _PREDICATES.get(predicate) or IntegerAttr(predicate, i64))

    def clamp(self, x: SSAValue, lo: float, hi: float) -> SSAValue:
        """x clamped to [lo, hi], NaN kept: `x < lo ? lo : x` is one x86 max instruction
        whose NaN operand wins (llvm.maxnum would add a compare and blend to drop it)."""
        low = self.k(lo)
        x = self.op(llvm.SelectOp, self.fcmp(4, x, low), low, x)  # olt
        high = self.k(hi)
        return self.op(llvm.SelectOp, self.fcmp(2, x, high), high, x)  # ogt

    def int_clamp(self, n: SSAValue, lo: int, hi: int) -> SSAValue:
        c = self.c
        n = c.intrinsic("llvm.smax.i32", [n, c.const(lo, i32)], i32)
        return c.intrinsic("llvm.smin.i32", [n, c.const(hi, i32)], i32)  # type: ignore[arg-type,return-value]

    def power_of_two(self, n: SSAValue) -> SSAValue:
        """2^n for an i32 n in [-126, 127] (or n plus a multiple of 2^9), built from its
        bit pattern."""
        c = self.c
        bits = self.op(llvm.AddOp, self.op(llvm.ShlOp, n, c.const(23, i32)), c.const(_ONE_BITS, i32))
        return self.op(llvm.BitcastOp, bits, F32)


# e^r - 1 = r + r^2 (c2 + c3 r + ... + c7 r^5) on |r| <= ln(2)/2: Cephes' expf
# coefficients, highest power first
_EXP_P = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
_ROUNDING_SHIFT = 12582912.0  # 1.5 * 2^23: adding it rounds |v| < 2^22 to an integer, left in the low mantissa bits
_ROUNDING_SHIFT_BITS = 0x4B400000
_ONE_BITS = 0x3F800000


def emit_exp_f32(c: FunctionConverter, x: SSAValue) -> SSAValue:
    """e^x for f32 without a libm call, so LLVM can vectorize it: within 1.02 ulp of e^x
    (1.0103 at x = -5.878, measured against float64 over all 2^32 f32 bit patterns),
    denormal results rounded once, NaN propagated, +-Inf giving Inf and 0.

    n = round(x / ln 2) by the 1.5 * 2^23 shift (no floor, no float-to-int conversion),
    r = x - n ln 2 in two steps, e^x = 2^n (1 + p(r)) as one fused multiply-add on
    2^n's bit pattern, then times 2^m: n is split as n' + m with n' in [-125, 127],
    so 2^n' and 2^n' (1 + p) are normal and only the last product rounds to a
    denormal or overflows to Inf (m is 0 unless the result is one of those)."""
    f = F32Emitter(c)
    # below -104 e^x rounds to +0: that lane computes e^0 and gives 0, as its e^-104
    # would have, without the underflow of its last product, which costs a microcode
    # assist per vector on x86 (10x slower: softmax's masked scores are -1e9)
    vanishes = f.fcmp(4, x, f.k(-104.0))  # olt: NaN not
    x = f.op(llvm.SelectOp, vanishes, f.k(0.0), x)
    clamped = f.clamp(x, -104.0, 88.75)  # beyond them e^x rounds to 0 or Inf
    shifted = f.mul_add(clamped, f.k(1.44269504088896341), _ROUNDING_SHIFT)
    n = f.op(llvm.FSubOp, shifted, f.k(_ROUNDING_SHIFT))
    # r = x - n ln 2 in two steps (n * 0.693359375 is exact: few mantissa bits)
    r = f.intr("llvm.fmuladd", n, f.k(-0.693359375), clamped)
    r = f.intr("llvm.fmuladd", n, f.k(2.12194440e-4), r)
    p = f.k(_EXP_P[0])
    for coefficient in _EXP_P[1:]:
        p = f.mul_add(p, r, coefficient)
    p = f.intr("llvm.fmuladd", p, f.op(llvm.FMulOp, r, r), r)  # e^r - 1
    # n is the shifted value's bit pattern minus the shift's, which vanishes from n << 23
    # (its low 9 bits are 0) and from differences: n is never computed on its own
    n_bits = f.op(llvm.BitcastOp, shifted, i32)
    n_normal_bits = f.int_clamp(n_bits, _ROUNDING_SHIFT_BITS - 125, _ROUNDING_SHIFT_BITS + 127)
    scale = f.power_of_two(n_normal_bits)
    y = f.intr("llvm.fmuladd", p, scale, scale)
    result = f.op(llvm.FMulOp, y, f.power_of_two(f.op(llvm.SubOp, n_bits, n_normal_bits)))
    return f.op(llvm.SelectOp, vanishes, f.k(0.0), result)


# tanh(x) = x * P(x^2) / Q(x^2), P of degree 6 and Q of degree 3 in x^2: the rational
# approximation of Eigen's ptanh_float and XLA:CPU's EmitFastTanh, highest power first
_TANH_P = (-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
           1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03)  # fmt: skip
_TANH_Q = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03)
# |x| at and above which P/Q is exactly 1 whether or not fmuladd fuses (below it the
# unfused evaluation can exceed 1 by an ulp, hence the clamp of the quotient too)
_TANH_SATURATION = 8.0780945
# below it x itself is tanh(x) to within an ulp (x^3/3 < x * 2^-24), while P/Q is off
# by the 2-ulp mismatch of its leading coefficients
_TANH_TINY = 0.0004


def emit_tanh_f32(c: FunctionConverter, x: SSAValue) -> SSAValue:
    """tanh for f32 without a libm call, XLA's accuracy class: within 4.9 ulp of tanh (4.896
    at x = 5.126, measured against float64 over all 2^32 f32 bit patterns; XLA:CPU's is
    the same rational).
    x * P(x^2) / Q(x^2) with x clamped to +-8.078 (where it is +-1), the quotient clamped to
    [-1, 1], and x itself for |x| < 0.0004 or NaN, which keeps -0 and NaN; about a dozen
    fused multiply-adds and one divide, against twice that and an exp for 1.3 ulp."""
    f = F32Emitter(c)
    clamped = f.intr("llvm.maxnum", f.intr("llvm.minnum", x, f.k(_TANH_SATURATION)), f.k(-_TANH_SATURATION))
    z = f.op(llvm.FMulOp, clamped, clamped)
    p = f.k(_TANH_P[0])
    for coefficient in _TANH_P[1:]:
        p = f.mul_add(z, p, coefficient)
    q = f.k(_TANH_Q[0])
    for coefficient in _TANH_Q[1:]:
        q = f.mul_add(z, q, coefficient)
    quotient = f.op(llvm.FDivOp, f.op(llvm.FMulOp, clamped, p), q)
    t = f.intr("llvm.maxnum", f.intr("llvm.minnum", quotient, f.k(1.0)), f.k(-1.0))
    tiny_or_nan = f.fcmp(11, f.intr("llvm.fabs", x), f.k(_TANH_TINY))  # ult: unordered or less than
    return f.op(llvm.SelectOp, tiny_or_nan, x, t)
