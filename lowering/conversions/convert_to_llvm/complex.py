"""convert-to-llvm's converters of the complex ops (MLIR's ComplexToLLVM and
ComplexToLibm). `complex<T>` is `!llvm.struct<(T, T)>`, real part first (numpy's
layout):

* `complex.create/re/im/constant` -> insertvalue/extractvalue;
* the C library's complex functions that numpy uses (`complex.exp` -> cexpf/cexp, log,
  sqrt, sin, cos, tan, tanh, pow) are called with the C ABI of `float _Complex`/`double
  _Complex` on x86-64 (see `_to_c_complex`; other machines are refused rather than
  miscompiled); `complex.abs` -> hypotf/hypot of the parts (the C library's cabs).
"""

from __future__ import annotations

import platform

from xdsl.dialects import complex as cplx
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ComplexType, DenseArrayBase, Float32Type, Float64Type, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException
from xla_opt.lowering.conversions.convert_to_llvm.common import FunctionConverter, handles
from xla_opt.lowering.utils.llvm_types import llvm_type

# complex op -> the C library's function on `double _Complex` (+ "f": `float _Complex`)
_COMPLEX_LIBM: dict[type[Operation], str] = {
    cplx.ExpOp: "cexp",
    cplx.LogOp: "clog",
    cplx.SqrtOp: "csqrt",
    cplx.SinOp: "csin",
    cplx.CosOp: "ccos",
    cplx.TanOp: "ctan",
    cplx.TanhOp: "ctanh",
    cplx.PowOp: "cpow",
}


def _position(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [index])


def _complex_part(c: FunctionConverter, z: SSAValue, index: int, part: Attribute) -> SSAValue:
    return c.emit(llvm.ExtractValueOp(_position(index), z, part)).results[0]


def _complex_pack(c: FunctionConverter, re: SSAValue, im: SSAValue, t: Attribute) -> SSAValue:
    undef = c.emit(llvm.UndefOp(t)).results[0]
    with_re = c.emit(llvm.InsertValueOp(_position(0), undef, re)).results[0]
    return c.emit(llvm.InsertValueOp(_position(1), with_re, im)).results[0]


@handles(cplx.CreateOp)
def _complex_create(c: FunctionConverter, op: cplx.CreateOp):
    return [_complex_pack(c, c.v(op.real), c.v(op.imaginary), llvm_type(op.complex.type))]


@handles(cplx.ReOp, cplx.ImOp)
def _complex_re_im(c: FunctionConverter, op: Operation):
    index = 0 if isinstance(op, cplx.ReOp) else 1
    return [_complex_part(c, c.v(op.operands[0]), index, op.results[0].type)]


@handles(cplx.ConstantOp)
def _complex_constant(c: FunctionConverter, op: cplx.ConstantOp):
    t = op.complex.type
    assert isinstance(t, ComplexType)
    re, im = (c.emit(llvm.ConstantOp(v, t.element_type)).results[0] for v in op.value.data)
    return [_complex_pack(c, re, im, llvm_type(t))]


def _check_complex_abi() -> None:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        raise PassFailedException(
            f"convert-to-llvm: C library calls on complex numbers are laid out for x86-64 only, not {platform.machine()}"
        )


def _to_c_complex(c: FunctionConverter, z: SSAValue, part: Attribute) -> list[SSAValue]:
    """The arguments passing `z` as C passes a complex number on x86-64: a `double
    _Complex` as two doubles; a `float _Complex` in one SSE register, which a double
    holding both parts' bits (real part low) occupies the same way."""
    re, im = _complex_part(c, z, 0, part), _complex_part(c, z, 1, part)
    if isinstance(part, Float64Type):
        return [re, im]
    low = c.emit(llvm.ZExtOp(c.emit(llvm.BitcastOp(re, i32)).results[0], i64)).results[0]
    high = c.emit(llvm.ZExtOp(c.emit(llvm.BitcastOp(im, i32)).results[0], i64)).results[0]
    high = c.emit(llvm.ShlOp(high, c.const(32))).results[0]
    both_parts = c.emit(llvm.OrOp(low, high)).results[0]
    return [c.emit(llvm.BitcastOp(both_parts, Float64Type())).results[0]]


def _from_c_complex(c: FunctionConverter, value: SSAValue, t: ComplexType) -> SSAValue:
    """The complex result of a C call (see _to_c_complex): a `double _Complex` comes back
    as the struct of its two doubles, a `float _Complex` as one double's bits."""
    if isinstance(t.element_type, Float64Type):
        return value
    bits = c.emit(llvm.BitcastOp(value, i64)).results[0]
    high = c.emit(llvm.LShrOp(bits, c.const(32))).results[0]
    re, im = (
        c.emit(llvm.BitcastOp(c.emit(llvm.TruncOp(half, i32)).results[0], Float32Type())).results[0]
        for half in (bits, high)
    )
    return _complex_pack(c, re, im, llvm_type(t))


@handles(*_COMPLEX_LIBM)
def _complex_libm(c: FunctionConverter, op: Operation):
    _check_complex_abi()
    t = op.results[0].type
    assert isinstance(t, ComplexType)
    args = [arg for operand in op.operands for arg in _to_c_complex(c, c.v(operand), t.element_type)]
    double = isinstance(t.element_type, Float64Type)
    name = _COMPLEX_LIBM[type(op)] + ("" if double else "f")
    result = c.call(name, args, [Float64Type()] * len(args), llvm_type(t) if double else Float64Type())
    assert result is not None
    return [_from_c_complex(c, result, t)]


@handles(cplx.AbsOp)
def _complex_abs(c: FunctionConverter, op: cplx.AbsOp):
    """The C library's cabs: hypot of the parts."""
    part = op.result.type
    z = c.v(op.complex)
    name = "hypot" if isinstance(part, Float64Type) else "hypotf"
    return [c.call(name, [_complex_part(c, z, 0, part), _complex_part(c, z, 1, part)], [part, part], part)]
