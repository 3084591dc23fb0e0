"""Printing StableHLO IR as text JAX's MLIR parser and XLA read back exactly.

xDSL's printer writes floats with six significant digits; `StablehloPrinter` writes
dense elements and float attributes exactly instead: booleans, integers and
f16/f32/f64 elements as the shortest decimal that reads back to the same value (NaN and
infinities as their bits), bf16 and complex elements as MLIR's little-endian
hexadecimal buffer, float attributes as their bits (`0x3A83126F : f32`). Everything
else prints as xDSL prints it: ops in the generic form, StableHLO's attributes by their
own print methods."""

from __future__ import annotations

import struct

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float64Type,
    FloatAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.printer import Printer
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.interpreter.dtypes import is_narrow_int_dtype


def float_bits_text(value: float, t: Attribute) -> str:
    """A float attribute as its exact hexadecimal bit pattern (`0x3A83126F : f32`)."""
    if isinstance(t, Float64Type):
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return f"0x{bits:016X} : f64"
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return f"0x{bits:08X} : f32"


def _element_text(v) -> str:
    """One element, exactly: booleans, integers, and f16/f32/f64 floats in the shortest
    decimal that reads back to the same value (NaN and infinities as their bits)."""
    if isinstance(v, np.bool_):
        return "true" if v else "false"
    if isinstance(v, np.integer):
        return str(int(v))
    if not np.isfinite(v):
        return "0x" + v.tobytes()[::-1].hex().upper()  # the big-endian bit pattern
    return np.format_float_scientific(v, unique=True, trim="0")


def _nested(array: np.ndarray) -> str:
    if array.ndim == 0:
        return _element_text(array[()])
    return "[" + ", ".join(_nested(a) for a in array) + "]"


_DECIMAL_KINDS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def dense_text(array: np.ndarray, t: TensorType) -> str:
    """A dense elements attribute of type `t` holding `array` exactly: booleans,
    integers (4- and 2-bit ones too) and f16/f32/f64 as (nested) literals, a splat as
    one literal; bf16, the 8-, 6- and 4-bit floats (one byte each) and complex numbers
    as MLIR's little-endian hexadecimal buffer."""
    if array.size == 0:
        return f"dense<> : {t}"
    if is_narrow_int_dtype(array.dtype):  # 4- and 2-bit integers as decimal literals too
        array = array.astype(np.int64)
    if array.ndim and not any(array.strides):  # a splat kept as a broadcast view
        flat, splat = array[(0,) * array.ndim].reshape(1), True
    else:
        flat = np.ascontiguousarray(array).reshape(-1)
        splat = bool(np.all(flat.view(np.uint8).reshape(flat.size, -1) == flat[:1].view(np.uint8)))
    if array.dtype.kind in "biu" or array.dtype in _DECIMAL_KINDS:
        return f"dense<{_nested(flat[0] if splat else array)}> : {t}"
    data = flat[:1] if splat else flat
    return f'dense<"0x{data.tobytes().hex().upper()}"> : {t}'


def dense_value(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The numpy array a dense elements attribute holds (as the interpreter reads an
    xla.constant of it)."""
    from xla_opt.interpreter.elementwise import constant_value

    return constant_value(ew.ConstantOp.create(properties={"value": attr}, result_types=[attr.get_type()]))


class StablehloPrinter(Printer):
    """xDSL's printer, with dense elements and float attributes printed exactly."""

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr) and isinstance(attribute.get_type(), TensorType):
            self.print_string(dense_text(dense_value(attribute), attribute.get_type()))
        elif isinstance(attribute, FloatAttr):
            self.print_string(float_bits_text(attribute.value.data, attribute.type))
        else:
            super().print_attribute(attribute)
