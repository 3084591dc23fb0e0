"""convert-to-llvm's converters of the arith ops (MLIR's ArithToLLVM), on integers,
index (i64), floats and f16/bf16:

* binary ops, comparisons (arith and llvm number the predicates alike), select and
  constants -> their llvm ops; fast-math flags are kept;
* `maximumf/minimumf/maxnumf/minnumf` -> the LLVM intrinsics of the same semantics;
  `maxsi/minsi/maxui/minui` -> a compare and a select;
* `floordivsi` -> the truncated quotient, less one where the remainder's sign differs
  from the divisor's;
* casts -> llvm casts, `index_cast` -> a sign extension or truncation; `uitofp`,
  `fptosi`, `fptoui` become our `llvm_casts` ops (`xla_opt.dialects.llvm_casts`, the
  ones xDSL's llvm dialect lacks), and u64 -> float a signed expansion (see `_cast`).

bf16 is an i16 in LLVM (llvmlite has no bfloat): its arithmetic is done in f32 and
rounded back (`widened_operands`, `narrowed`), `extf`/`truncf` of bf16 are bit
operations rounding to nearest even, and a constant is its bits. Half-precision
conversions to and from integers go through f32 (LLVM would otherwise call compiler-rt
helpers the JIT cannot resolve); f64 -> f16/bf16 rounds to odd in f32 first, so that
it rounds once.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException
from xla_opt.dialects.llvm_casts import FPToSIOp, FPToUIOp, UIToFPOp
from xla_opt.lowering.conversions.convert_to_llvm.common import (
    FunctionConverter,
    handles,
    intrinsic_handler,
    to_f32,
    to_half,
)
from xla_opt.lowering.utils.llvm_types import llvm_type

_INT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}
_FLOAT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}
_CASTS: dict[type[Operation], type[Operation]] = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: UIToFPOp,
    arith.FPToSIOp: FPToSIOp,
    arith.FPToUIOp: FPToUIOp,
    arith.BitcastOp: llvm.BitcastOp,
}
# arith op -> LLVM intrinsic base name (type-mangled at emission)
_FLOAT_MINMAX: dict[type[Operation], str] = {
    arith.MaximumfOp: "llvm.maximum",
    arith.MinimumfOp: "llvm.minimum",
    arith.MaxnumfOp: "llvm.maxnum",
    arith.MinnumfOp: "llvm.minnum",
}
_HALF = (Float16Type, BFloat16Type)


@handles(arith.ConstantOp)
def _constant(c: FunctionConverter, op: arith.ConstantOp):
    value, t = op.value, op.result.type
    if isinstance(t, IndexType):
        return [c.const(value.value.data, i64)]  # type: ignore[union-attr]
    if isinstance(t, BFloat16Type):
        import ml_dtypes

        bits = int(np.array(value.value.data, np.float32).astype(ml_dtypes.bfloat16).view(np.uint16))  # type: ignore[union-attr]
        return [c.const(bits - (1 << 16) if bits >= 1 << 15 else bits, i16)]
    if isinstance(value, IntegerAttr | FloatAttr):
        return [c.emit(llvm.ConstantOp(value, t)).results[0]]
    raise PassFailedException(f"convert-to-llvm: unsupported constant {value}")


def _binary(table):
    def handler(c: FunctionConverter, op: Operation):
        args = c.widened_operands(op)
        flags = getattr(op, "fastmath", None)
        if flags is not None and flags.data:
            new = table[type(op)](*args, fast_math=llvm.FastMathAttr(flags.data))
        else:
            new = table[type(op)](*args)
        result = c.emit(new).results[0]
        return [c.narrowed(result, op.results[0].type)]

    return handler


handles(*_INT_BINARY)(_binary(_INT_BINARY))
handles(*_FLOAT_BINARY)(_binary(_FLOAT_BINARY))
handles(*_FLOAT_MINMAX)(intrinsic_handler(_FLOAT_MINMAX))


@handles(arith.NegfOp)
def _negf(c: FunctionConverter, op: arith.NegfOp):
    result = c.emit(llvm.FNegOp(*c.widened_operands(op))).results[0]
    return [c.narrowed(result, op.result.type)]


@handles(arith.CmpiOp)
def _cmpi(c: FunctionConverter, op: arith.CmpiOp):
    # arith and llvm number the integer predicates alike (eq, ne, slt, ..., uge)
    return list(c.emit(llvm.ICmpOp(c.v(op.lhs), c.v(op.rhs), IntegerAttr(op.predicate.value.data, i64))).results)


@handles(arith.CmpfOp)
def _cmpf(c: FunctionConverter, op: arith.CmpfOp):
    # arith and llvm number the float predicates alike (false, oeq, ..., uno, true)
    lhs, rhs = c.widened_operands(op)
    return list(c.emit(llvm.FCmpOp(lhs, rhs, IntegerAttr(op.predicate.value.data, i64))).results)


@handles(arith.SelectOp)
def _select(c: FunctionConverter, op: arith.SelectOp):
    return list(c.emit(llvm.SelectOp(c.v(op.cond), c.v(op.lhs), c.v(op.rhs))).results)


@handles(arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp)
def _int_minmax(c: FunctionConverter, op: Operation):
    predicate = {arith.MaxSIOp: 4, arith.MinSIOp: 2, arith.MaxUIOp: 8, arith.MinUIOp: 6}[type(op)]
    a, b = c.v(op.operands[0]), c.v(op.operands[1])
    cond = c.emit(llvm.ICmpOp(a, b, IntegerAttr(predicate, i64))).results[0]
    return list(c.emit(llvm.SelectOp(cond, a, b)).results)


@handles(arith.FloorDivSIOp)
def _floordivsi(c: FunctionConverter, op: arith.FloorDivSIOp):
    """Division rounding toward negative infinity (`lower-affine`'s `floordiv`, the
    index arithmetic of a reshape's merged dimensions): the truncated quotient, less
    one where the remainder is not zero and its sign differs from the divisor's. On
    indices LLVM proves non-negative, that is a plain (unsigned) division."""
    a, b = c.v(op.lhs), c.v(op.rhs)
    t = a.type
    quotient = c.emit(llvm.SDivOp(a, b)).results[0]
    remainder = c.emit(llvm.SRemOp(a, b)).results[0]
    zero = c.emit(llvm.ConstantOp(IntegerAttr(0, t), t)).results[0]
    signs = c.emit(llvm.XOrOp(remainder, b)).results[0]
    opposite = c.emit(llvm.ICmpOp(signs, zero, IntegerAttr(2, i64))).results[0]  # slt
    inexact = c.emit(llvm.ICmpOp(remainder, zero, IntegerAttr(1, i64))).results[0]  # ne
    adjust = c.emit(llvm.AndOp(opposite, inexact)).results[0]
    one = c.emit(llvm.ConstantOp(IntegerAttr(1, t), t)).results[0]
    lower = c.emit(llvm.SubOp(quotient, one)).results[0]
    return list(c.emit(llvm.SelectOp(adjust, lower, quotient)).results)


# ---- casts ----------------------------------------------------------------------------


@handles(*_CASTS)
def _cast(c: FunctionConverter, op: Operation):
    src, dst = op.operands[0].type, op.results[0].type
    value = c.v(op.operands[0])
    if llvm_type(src) == llvm_type(dst):
        return [value]
    cast = _CASTS[type(op)]
    if cast is UIToFPOp and llvm_type(src) == i64:
        # LLVM's SLP vectorizer (llvmlite's LLVM) narrows `uitofp (sext i32 x to i64)`
        # to `uitofp i32 x`, wrong for negative x; the signed expansion is immune.
        wide = Float32Type() if isinstance(dst, _HALF) else llvm_type(dst)
        converted = _u64_to_float(c, value, wide)
        return [to_half(c, converted, dst)] if isinstance(dst, _HALF) else [converted]
    # Half-precision conversions go through f32 (LLVM would otherwise call
    # compiler-rt helpers the JIT cannot resolve). Integers of up to 2^24 are exact in
    # f32 and larger ones overflow f16, so int -> f32 -> f16 rounds once.
    if isinstance(dst, _HALF) and cast in (llvm.SIToFPOp, UIToFPOp):
        return [to_half(c, c.emit(cast(value, Float32Type())).results[0], dst)]
    if isinstance(src, _HALF) and cast in (FPToSIOp, FPToUIOp):
        return list(c.emit(cast(to_f32(c, value, src), llvm_type(dst))).results)
    return list(c.emit(cast(value, llvm_type(dst))).results)


def _u64_to_float(c: FunctionConverter, x: SSAValue, float_type: Attribute) -> SSAValue:
    """u64 -> float with one rounding through signed conversions: below 2^63 directly;
    above, half of it (its lowest bit kept as a sticky bit) converted and doubled."""
    zero = c.emit(llvm.ConstantOp(IntegerAttr(0, i64), i64)).results[0]
    one = c.emit(llvm.ConstantOp(IntegerAttr(1, i64), i64)).results[0]
    small = c.emit(llvm.ICmpOp(x, zero, IntegerAttr(5, i64))).results[0]  # sge
    direct = c.emit(llvm.SIToFPOp(x, float_type)).results[0]
    halved = c.emit(llvm.LShrOp(x, one)).results[0]
    sticky = c.emit(llvm.AndOp(x, one)).results[0]
    half = c.emit(llvm.SIToFPOp(c.emit(llvm.OrOp(halved, sticky)).results[0], float_type)).results[0]
    doubled = c.emit(llvm.FAddOp(half, half)).results[0]
    return c.emit(llvm.SelectOp(small, direct, doubled)).results[0]


@handles(arith.IndexCastOp)
def _index_cast(c: FunctionConverter, op: Operation):
    src, dst = llvm_type(op.operands[0].type), llvm_type(op.results[0].type)
    value = c.v(op.operands[0])
    if src == dst:
        return [value]
    assert isinstance(src, IntegerType) and isinstance(dst, IntegerType)
    if src.width.data > dst.width.data:
        return list(c.emit(llvm.TruncOp(value, dst)).results)
    return list(c.emit(llvm.SExtOp(value, dst)).results)


def _f64_to_f32_round_to_odd(c: FunctionConverter, value: SSAValue) -> SSAValue:
    """f64 -> f32 rounding to odd, so that a second rounding to a type of at most
    22 significand bits (f16, bf16) gives the correctly rounded result."""
    nearest = c.emit(llvm.FPTruncOp(value, Float32Type())).results[0]
    back = c.emit(llvm.FPExtOp(nearest, Float64Type())).results[0]
    inexact = c.emit(llvm.FCmpOp(back, value, IntegerAttr(6, i64))).results[0]  # one
    mag_back = c.intrinsic("llvm.fabs.f64", [back], Float64Type())
    mag_value = c.intrinsic("llvm.fabs.f64", [value], Float64Type())
    away = c.emit(llvm.FCmpOp(mag_back, mag_value, IntegerAttr(2, i64))).results[0]  # ogt
    bits = c.emit(llvm.BitcastOp(nearest, i32)).results[0]
    toward_zero = c.emit(llvm.SubOp(bits, c.const(1, i32))).results[0]
    truncated = c.emit(llvm.SelectOp(away, toward_zero, bits)).results[0]
    odd = c.emit(llvm.OrOp(truncated, c.const(1, i32))).results[0]
    chosen = c.emit(llvm.SelectOp(inexact, odd, bits)).results[0]
    return c.emit(llvm.BitcastOp(chosen, Float32Type())).results[0]


@handles(arith.ExtFOp)
def _extf(c: FunctionConverter, op: arith.ExtFOp):
    src, dst = op.input.type, op.result.type
    value = c.v(op.input)
    if isinstance(src, _HALF):
        value = to_f32(c, value, src)
        if isinstance(dst, Float32Type):
            return [value]
    return list(c.emit(llvm.FPExtOp(value, dst)).results)


@handles(arith.TruncFOp)
def _truncf(c: FunctionConverter, op: arith.TruncFOp):
    src, dst = op.input.type, op.result.type
    value = c.v(op.input)
    if isinstance(dst, _HALF):
        if isinstance(src, Float64Type):
            value = _f64_to_f32_round_to_odd(c, value)
        return [to_half(c, value, dst)]
    return list(c.emit(llvm.FPTruncOp(value, dst)).results)
