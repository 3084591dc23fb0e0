"""Vectorizable f32 `exp` and `tanh` in llvm-dialect arithmetic (a range reduction and
a polynomial, with no libm call), used by convert-to-llvm for math.exp / math.tanh on
f32 so that LLVM can vectorize the loops around them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    Float32Type,
    IntegerAttr,
    i32,
    i64,
)
from xdsl.ir import SSAValue
from xla_opt.dialects.llvm_casts import FPToSIOp

if TYPE_CHECKING:  # the converter calls these; they only use its emit helpers
    from xla_opt.lowering.to_llvm import _FunctionConverter


# shared attributes: an attribute is verified each time one is built, and the
# expansions below build thousands of ops
F32 = Float32Type()
NO_FAST_MATH = llvm.FastMathAttr(None)
_PREDICATES = {p: IntegerAttr(p, i64) for p in (3, 14)}  # oge, uno


class F32Emitter:
    """Emission helpers for the inline f32 approximations below."""

    def __init__(self, c: _FunctionConverter):
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

    def scale_by_power_of_two(self, y: SSAValue, n: SSAValue) -> SSAValue:
        """y * 2^n for an i32 n in [-150, 128]: 2^n is not always a normal f32, so y is
        multiplied by two normal factors in turn."""
        c = self.c
        half = self.op(llvm.AShrOp, n, c.const(1, i32))
        rest = self.op(llvm.SubOp, n, half)
        for e in (half, rest):
            biased = self.op(llvm.AddOp, e, c.const(127, i32))
            bits = self.op(llvm.ShlOp, biased, c.const(23, i32))
            y = self.op(llvm.FMulOp, y, self.op(llvm.BitcastOp, bits, F32))
        return y


def emit_exp_f32(c: _FunctionConverter, x: SSAValue) -> SSAValue:
    """e^x for f32 without a libm call, so LLVM can vectorize it: Cephes' expf
    (range reduction by ln 2, degree-6 polynomial; within 1 ulp of e^x on the f32
    range). NaN propagates; +-Inf give Inf and 0."""
    f = F32Emitter(c)
    clamped = f.intr("llvm.minnum", f.intr("llvm.maxnum", x, f.k(-104.0)), f.k(88.73))
    n = f.intr("llvm.floor", f.mul_add(clamped, f.k(1.44269504088896341), 0.5))
    # r = x - n ln 2 in two steps (n * 0.693359375 is exact: few mantissa bits)
    r = f.intr("llvm.fmuladd", n, f.k(-0.693359375), clamped)
    r = f.intr("llvm.fmuladd", n, f.k(2.12194440e-4), r)
    y = f.k(1.9875691500e-4)
    for coefficient in (1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1):
        y = f.mul_add(y, r, coefficient)
    y = f.op(llvm.FAddOp, f.intr("llvm.fmuladd", y, f.op(llvm.FMulOp, r, r), r), f.k(1.0))
    scaled = f.scale_by_power_of_two(y, f.op(FPToSIOp, n, i32))
    return f.op(llvm.SelectOp, f.fcmp(14, x, x), x, scaled)  # uno: NaN stays NaN


def emit_tanh_f32(c: _FunctionConverter, x: SSAValue) -> SSAValue:
    """tanh for f32 without a libm call (Cephes' tanhf, within 1.3 ulp): an odd
    polynomial for |x| < 0.625, 1 - 2 / (e^2|x| + 1) with x's sign above."""
    f = F32Emitter(c)
    a = f.intr("llvm.fabs", x)
    e = emit_exp_f32(c, f.intr("llvm.minnum", f.op(llvm.FMulOp, a, f.k(2.0)), f.k(88.0)))
    large = f.op(llvm.FSubOp, f.k(1.0), f.op(llvm.FDivOp, f.k(2.0), f.op(llvm.FAddOp, e, f.k(1.0))))
    large = f.intr("llvm.copysign", large, x)
    z = f.op(llvm.FMulOp, x, x)
    p = f.k(-5.70498872745e-3)
    for coefficient in (2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1):
        p = f.mul_add(p, z, coefficient)
    # x * (1 + z p) keeps the sign of zero
    small = f.op(llvm.FMulOp, x, f.mul_add(z, p, 1.0))
    chosen = f.op(llvm.SelectOp, f.fcmp(3, a, f.k(0.625)), large, small)  # oge
    return f.op(llvm.SelectOp, f.fcmp(14, x, x), x, chosen)


