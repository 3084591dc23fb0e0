"""convert-to-llvm's converters of the math ops (MLIR's MathToLLVM and MathToLibm):

* LLVM intrinsics where LLVM has them (`math.sqrt` -> `llvm.sqrt.f32`...; `ctlz` and
  `absi` with their poison flag false; `rsqrt` as 1 / `llvm.sqrt`);
* libm calls otherwise (`math.tan` -> tanf/tan...), declared once per module;
* f32 `exp` and `tanh` inline (`math_f32.py`: a range reduction and a polynomial, no
  libm call, so that the loops around them vectorize), each defined once per module as
  an internal `alwaysinline` function (`ModuleConverter.scalar_function`); f64 `exp` is
  the intrinsic, f64 `tanh` the libm call.

bf16 (an i16 in LLVM) computes in f32, operands widened and results rounded back; f16
has intrinsics of its own, but libm functions and the inline exp/tanh compute in f32.
"""

from __future__ import annotations

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, FloatAttr, i1
from xdsl.ir import Operation
from xla_opt.lowering.conversions.convert_to_llvm.common import (
    FunctionConverter,
    handles,
    intrinsic_handler,
    to_f32,
    type_suffix,
)
from xla_opt.lowering.conversions.convert_to_llvm.math_f32 import emit_exp_f32, emit_tanh_f32

# math op -> LLVM intrinsic base name (type-mangled at emission)
_INTRINSICS: dict[type[Operation], str] = {
    math.Exp2Op: "llvm.exp2",
    math.LogOp: "llvm.log",
    math.Log2Op: "llvm.log2",
    math.Log10Op: "llvm.log10",
    math.SqrtOp: "llvm.sqrt",
    math.SinOp: "llvm.sin",
    math.CosOp: "llvm.cos",
    math.AbsFOp: "llvm.fabs",
    math.FloorOp: "llvm.floor",
    math.CeilOp: "llvm.ceil",
    math.TruncOp: "llvm.trunc",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.PowFOp: "llvm.pow",
    math.CopySignOp: "llvm.copysign",
    math.FmaOp: "llvm.fma",
    math.CtPopOp: "llvm.ctpop",
}
# math op -> libm function (f32 name, f64 name)
_LIBM: dict[type[Operation], tuple[str, str]] = {
    math.TanOp: ("tanf", "tan"),
    math.AtanOp: ("atanf", "atan"),
    math.Atan2Op: ("atan2f", "atan2"),
    math.ExpM1Op: ("expm1f", "expm1"),
    math.Log1pOp: ("log1pf", "log1p"),
    math.CbrtOp: ("cbrtf", "cbrt"),
    math.ErfOp: ("erff", "erf"),
    math.AsinOp: ("asinf", "asin"),
    math.AcosOp: ("acosf", "acos"),
    math.SinhOp: ("sinhf", "sinh"),
    math.CoshOp: ("coshf", "cosh"),
}
# math op -> (f32 expansion, f64 intrinsic or None, f64 libm function, f32 function's name)
_INLINE_F32 = {
    math.ExpOp: (emit_exp_f32, "llvm.exp", "exp", "xla_opt.expf"),
    math.TanhOp: (emit_tanh_f32, None, "tanh", "xla_opt.tanhf"),
}

handles(*_INTRINSICS)(intrinsic_handler(_INTRINSICS))


@handles(math.CountLeadingZerosOp)
def _ctlz(c: FunctionConverter, op: Operation):
    t = op.results[0].type
    return [c.intrinsic(f"llvm.ctlz.{type_suffix(t)}", [c.v(op.operands[0]), c.const(0, i1)], t)]


@handles(math.AbsIOp)
def _absi(c: FunctionConverter, op: Operation):
    t = op.results[0].type
    return [c.intrinsic(f"llvm.abs.{type_suffix(t)}", [c.v(op.operands[0]), c.const(0, i1)], t)]


@handles(math.RsqrtOp)
def _rsqrt(c: FunctionConverter, op: Operation):
    t = op.results[0].type
    (x,) = c.widened_operands(op)
    wt = Float32Type() if isinstance(t, BFloat16Type) else t
    root = c.intrinsic(f"llvm.sqrt.{type_suffix(wt)}", [x], wt)
    one = c.emit(llvm.ConstantOp(FloatAttr(1.0, wt), wt)).results[0]  # type: ignore[arg-type]
    return [c.narrowed(c.emit(llvm.FDivOp(one, root)).results[0], t)]


@handles(*_LIBM)
def _libm(c: FunctionConverter, op: Operation):
    t = op.results[0].type
    f32_name, f64_name = _LIBM[type(op)]
    if isinstance(t, Float64Type):
        name, wt, args = f64_name, t, [c.v(a) for a in op.operands]
    else:  # f16 and bf16 compute in f32
        name, wt = f32_name, Float32Type()
        args = [c.v(a) if isinstance(a.type, Float32Type) else to_f32(c, c.v(a), a.type) for a in op.operands]
    return [c.narrowed(c.call(name, args, [wt] * len(args), wt), t)]


@handles(*_INLINE_F32)
def _inline_f32(c: FunctionConverter, op: Operation):
    t = op.results[0].type
    emit, intrinsic, libm, function = _INLINE_F32[type(op)]
    if isinstance(t, Float64Type):
        x = c.v(op.operands[0])
        if intrinsic is not None:
            return [c.intrinsic(f"{intrinsic}.f64", [x], t)]
        return [c.call(libm, [x], [t], t)]
    (x,) = c.widened_operands(op)
    if isinstance(t, Float16Type):
        x = c.emit(llvm.FPExtOp(x, Float32Type())).results[0]
    name = c.mod.scalar_function(function, emit, Float32Type())
    y = c.emit(llvm.CallOp(name, x, return_type=Float32Type())).results[0]
    if isinstance(t, Float16Type):
        return list(c.emit(llvm.FPTruncOp(y, t)).results)
    return [c.narrowed(y, t)]
