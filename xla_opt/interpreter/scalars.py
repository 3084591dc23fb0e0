"""Scalars in a function's signature (`func.func @f(%a: i32, %x: f32) -> f32`) and the
arith ops on them.

The xla ops take tensors; a function may also take and return scalars and compute on
them with `arith` (xDSL's implementations, which hold integers as Python ints). Here:

* a scalar argument (checked as a rank-0 tensor, `dtypes.check_value`) enters as a
  Python int (integers and index, signless as arith has them) or as a numpy scalar of
  its type (floats and complex numbers), so that float arithmetic rounds in the
  declared type, as compiled code does (xDSL adds Python floats in double precision);
* float constants are numpy scalars of their type for the same reason; the arith ops
  xDSL does not implement (`divf`, `negf`, the conversions between widths and
  between integers and floats, the unsigned divisions and shifts, integer min/max)
  are numpy's or Python's here, as LLVM computes them (a float-to-integer conversion
  out of range, undefined there, saturates here);
* `tensor.from_elements` and `tensor.extract` move scalars into tensors and out;
* a scalar result leaves as a numpy scalar of its type (an integer wrapped to it), as
  the JIT returns it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import FloatAttr, FunctionType, IndexType, IntegerType, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.arith import ArithFunctions
from xdsl.utils.comparisons import to_signed, to_unsigned

from .dtypes import numpy_dtype, scalar_dtype


def arguments_in(signature: FunctionType, args: Sequence[Any]) -> list[Any]:
    """The arguments as the interpreter holds them: scalars converted (see the module
    doc), tensors and other values unchanged."""
    converted = list(args)
    for i, t in enumerate(signature.inputs.data):
        if i < len(converted) and scalar_dtype(t) is not None:
            value = np.asarray(converted[i])[()]
            converted[i] = int(value) if isinstance(t, IntegerType | IndexType) else value
    return converted


def results_out(signature: FunctionType, results: Sequence[Any]) -> tuple[Any, ...]:
    """The results with each scalar one a numpy scalar of its declared type."""
    out = list(results)
    for i, t in enumerate(signature.outputs.data):
        dtype = scalar_dtype(t)
        if dtype is None or i >= len(out):
            continue
        value = out[i]
        if dtype.kind in "iub":
            bits = 1 if dtype.kind == "b" else dtype.itemsize * 8
            wrapped = int(value) & ((1 << bits) - 1)
            if dtype.kind == "i" and wrapped >= 1 << (bits - 1):
                wrapped -= 1 << bits
            out[i] = dtype.type(wrapped)
        else:
            with np.errstate(all="ignore"):
                out[i] = np.asarray(value).astype(dtype)[()]
    return tuple(out)


@register_impls
class ScalarFunctions(InterpreterFunctions):
    """arith on scalars in the declared float types (registered over xDSL's), and
    scalars into tensors and out."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues):
        constant = op.value  # an arith attribute, not an xla property
        if isinstance(constant, FloatAttr):
            return (numpy_dtype(constant.type).type(constant.value.data),)
        return ArithFunctions().run_constant(interpreter, op, args).values

    @impl(arith.DivfOp)
    def run_divf(self, interpreter: Interpreter, op: arith.DivfOp, args: PythonValues):
        with np.errstate(all="ignore"):
            return (np.divide(args[0], args[1])[()],)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues):
        return (np.negative(args[0])[()],)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, interpreter: Interpreter, op: tensor.FromElementsOp, args: PythonValues):
        t = op.result.type
        assert isinstance(t, TensorType)
        dtype = numpy_dtype(t.get_element_type())
        if dtype.kind in "iub":  # signless Python ints: wrapped to the type
            bits = 1 if dtype.kind == "b" else dtype.itemsize * 8
            values: list[Any] = [int(v) & ((1 << bits) - 1) for v in args]
            array = np.array(values, np.uint64).astype(dtype)
        else:
            array = np.array([np.asarray(v).astype(dtype) for v in args], dtype)
        return (array.reshape(t.get_shape()),)

    @impl(tensor.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: tensor.ExtractOp, args: PythonValues):
        value = np.asarray(args[0])[tuple(int(i) for i in args[1:])]
        return (int(value) if isinstance(op.result.type, IntegerType | IndexType) else value,)

    # ---- arith ops xDSL does not implement -------------------------------------------
    @impl(arith.ExtFOp)
    def run_extf(self, interpreter: Interpreter, op: arith.ExtFOp, args: PythonValues):
        return (_as_float(args[0], op.result.type),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter: Interpreter, op: arith.TruncFOp, args: PythonValues):
        return (_as_float(args[0], op.result.type),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: arith.SIToFPOp, args: PythonValues):
        return (_as_float(to_signed(int(args[0]), _width(op.input.type)), op.result.type),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, interpreter: Interpreter, op: arith.UIToFPOp, args: PythonValues):
        return (_as_float(to_unsigned(int(args[0]), _width(op.input.type)), op.result.type),)

    @impl(arith.FPToSIOp)
    def run_fptosi(self, interpreter: Interpreter, op: arith.FPToSIOp, args: PythonValues):
        return (_float_to_int(args[0], _width(op.result.type), signed=True),)

    @impl(arith.FPToUIOp)
    def run_fptoui(self, interpreter: Interpreter, op: arith.FPToUIOp, args: PythonValues):
        return (_float_to_int(args[0], _width(op.result.type), signed=False),)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter: Interpreter, op: arith.ExtSIOp, args: PythonValues):
        return (to_signed(int(args[0]), _width(op.input.type)),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues):
        return (to_signed(to_unsigned(int(args[0]), _width(op.input.type)), _width(op.result.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter: Interpreter, op: arith.TruncIOp, args: PythonValues):
        return (to_signed(int(args[0]), _width(op.result.type)),)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues):
        w = _width(op.result.type)
        return (to_signed(to_unsigned(args[0], w) // to_unsigned(args[1], w), w),)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues):
        w = _width(op.result.type)
        return (to_signed(to_unsigned(args[0], w) % to_unsigned(args[1], w), w),)

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter: Interpreter, op: arith.ShRUIOp, args: PythonValues):
        w = _width(op.result.type)
        return (to_signed(to_unsigned(args[0], w) >> to_unsigned(args[1], w), w),)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues):
        w = _width(op.result.type)
        return (max(to_signed(args[0], w), to_signed(args[1], w)),)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues):
        w = _width(op.result.type)
        return (min(to_signed(args[0], w), to_signed(args[1], w)),)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interpreter: Interpreter, op: arith.MaxUIOp, args: PythonValues):
        w = _width(op.result.type)
        return (to_signed(max(to_unsigned(args[0], w), to_unsigned(args[1], w)), w),)

    @impl(arith.MinUIOp)
    def run_minui(self, interpreter: Interpreter, op: arith.MinUIOp, args: PythonValues):
        w = _width(op.result.type)
        return (to_signed(min(to_unsigned(args[0], w), to_unsigned(args[1], w)), w),)


def _width(t: Any) -> int:
    """The width of an integer or index type (index: 64 bits, as the JIT's)."""
    return t.width.data if isinstance(t, IntegerType) else 64


def _as_float(value: Any, t: Any) -> Any:
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(numpy_dtype(t))[()]


def _float_to_int(value: Any, width: int, signed: bool) -> int:
    x = float(value)
    if math.isnan(x):
        return 0
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    return to_signed(int(min(max(np.trunc(x), low), high)), width)
