"""Element types of the xla dialect as numpy dtypes, and values checked against types.

Tensors are numpy arrays (rank 0 for scalars), tuples are Python tuples, tokens are
`Token` objects. bf16, the 8-, 6- and 4-bit floats and the 4- and 2-bit integers are
ml_dtypes' types (`bfloat16`, `float8_e4m3fn`, `int4`...), the ones JAX itself uses:
one element per byte, a 4- or 2-bit integer in the byte's low bits.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute

from xla_opt.dialects.xla.element_types import TokenType

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

# xDSL's type name -> ml_dtypes' type, for the 8-, 6- and 4-bit floats
NARROW_FLOAT_DTYPES: dict[str, np.dtype] = {
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3": np.dtype(ml_dtypes.float8_e4m3),
    "f8E3M4": np.dtype(ml_dtypes.float8_e3m4),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f6E2M3FN": np.dtype(ml_dtypes.float6_e2m3fn),
    "f6E3M2FN": np.dtype(ml_dtypes.float6_e3m2fn),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
}
# (width, unsigned) -> ml_dtypes' 4- and 2-bit integers
NARROW_INT_DTYPES: dict[tuple[int, bool], np.dtype] = {
    (4, False): np.dtype(ml_dtypes.int4),
    (4, True): np.dtype(ml_dtypes.uint4),
    (2, False): np.dtype(ml_dtypes.int2),
    (2, True): np.dtype(ml_dtypes.uint2),
}
NARROW_FLOATS = frozenset(NARROW_FLOAT_DTYPES.values())
NARROW_INTS = frozenset(NARROW_INT_DTYPES.values())


def is_narrow_float_dtype(dtype: np.dtype) -> bool:
    return dtype in NARROW_FLOATS


def is_narrow_int_dtype(dtype: np.dtype) -> bool:
    return dtype in NARROW_INTS


def is_ml_float_dtype(dtype: np.dtype) -> bool:
    """bf16 and the narrow floats: floats whose numpy kind is 'V', computed in f32."""
    return dtype == BFLOAT16 or dtype in NARROW_FLOATS


def is_ml_dtype(dtype: np.dtype) -> bool:
    """One of ml_dtypes' types (numpy's kind 'V', saved to .npy as raw records)."""
    return is_ml_float_dtype(dtype) or dtype in NARROW_INTS


def wide_int_dtype(dtype: np.dtype) -> np.dtype:
    """The byte-wide integer a 4- or 2-bit one computes in (int8 or uint8): every value
    fits, and converting back keeps the low bits (wraps, as XLA's integers do)."""
    return np.dtype(np.uint8 if ml_dtypes.iinfo(dtype).min == 0 else np.int8)


class Token:
    """The run-time value of `!xla.token`: carries no data, only ordering."""

    def __repr__(self) -> str:
        return "Token()"


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of an xla element type."""
    if isinstance(t, IntegerType):
        w = t.width.data
        if w == 1:
            return np.dtype(np.bool_)
        if (w, t.signedness.data == Signedness.UNSIGNED) in NARROW_INT_DTYPES:
            return NARROW_INT_DTYPES[w, t.signedness.data == Signedness.UNSIGNED]
        prefix = "uint" if t.signedness.data == Signedness.UNSIGNED else "int"
        return np.dtype(f"{prefix}{w}")
    if isinstance(t, BFloat16Type):
        return BFLOAT16
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, ComplexType):
        return np.dtype(np.complex64 if isinstance(t.element_type, Float32Type) else np.complex128)
    if t.name in NARROW_FLOAT_DTYPES:
        return NARROW_FLOAT_DTYPES[t.name]
    raise TypeError(f"no numpy dtype for element type {t}")


def describe(value: Any) -> str:
    """A value's dtype and shape (`float32[2, 3]`): a numpy scalar is described as the
    0-d array it stands for, so replicas that computed one differently still agree on
    what they contribute to a collective (fuzz seed 806313)."""
    if isinstance(value, np.ndarray | np.generic):
        return f"{value.dtype}{list(np.shape(value))}"
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(v) for v in value) + ")"
    return type(value).__name__


def scalar_dtype(t: Attribute) -> np.dtype | None:
    """The numpy dtype of a scalar parameter or result type (`i32`, `f32`, `index`,
    `complex<f32>`), None for any other type."""
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType | BFloat16Type | Float16Type | Float32Type | Float64Type | ComplexType):
        return numpy_dtype(t)
    return None


def type_text(t: Attribute) -> str:
    if isinstance(t, TensorType):
        return f"{numpy_dtype(t.get_element_type())}{list(t.get_shape())}"
    return str(t)


def _rounding_limit(dtype: np.dtype) -> float:
    """The magnitude from which a narrow float rounds beyond its largest finite value:
    halfway from the largest to the next step up."""
    largest = np.array(ml_dtypes.finfo(dtype).max, dtype)
    below = (largest.view(np.uint8) - np.uint8(1)).view(dtype)
    return float(largest) + (float(largest) - float(below)) / 2


def _from_python(value: Any, dtype: np.dtype, what: str) -> np.ndarray:
    """A Python scalar or (nested) list as an array of `dtype`: numbers convert when no
    information is lost but float rounding (3 -> 3.0, 0.1 -> f32); 2.5 -> i32 or
    300 -> ui8 are errors, as a numpy array of the wrong dtype is."""
    arr = np.asarray(value)
    if arr.dtype == dtype:  # numpy scalars of the right type (bf16's kind is 'V')
        return arr
    if arr.dtype.kind not in "biufc":
        raise ValueError(f"{what}: expected numbers of dtype {dtype}, got {describe(value)}")
    if arr.dtype.kind == "c" and dtype.kind != "c" and np.any(arr.imag != 0):
        raise ValueError(f"{what}: {value!r} is not representable as {dtype} (it has an imaginary part)")
    with np.errstate(all="ignore"):
        converted = (arr.real if arr.dtype.kind == "c" and dtype.kind != "c" else arr).astype(dtype)
        if dtype.kind in "biu" or dtype == np.bool_ or is_narrow_int_dtype(dtype):
            lossless = np.array_equal(converted.astype(arr.dtype), arr)
        else:  # floats round, but a finite number does not become an infinity
            lossless = not np.any(np.isfinite(arr) & ~np.isfinite(converted.astype(np.complex128)))
            if is_narrow_float_dtype(dtype):  # nor a NaN, nor (formats that saturate) their largest value
                lossless = lossless and not np.any(np.abs(arr) >= _rounding_limit(dtype))
    if not lossless:
        raise ValueError(f"{what}: {value!r} is not representable as {dtype}")
    return converted


def tensor_spec(t: TensorType) -> tuple[np.dtype, tuple[int, ...]]:
    """The numpy dtype and shape of a tensor type."""
    return numpy_dtype(t.get_element_type()), tuple(t.get_shape())


def check_value(value: Any, t: Attribute, what: str) -> Any:
    """Coerce a user value to the declared type, or raise a ValueError naming both.

    Python scalars and lists are accepted for tensors; arrays must match dtype and
    shape exactly (no silent casts)."""
    if isinstance(t, TokenType):
        return value if isinstance(value, Token) else Token()
    if isinstance(t, TupleType):
        types = t.types.data
        if not isinstance(value, tuple | list) or len(value) != len(types):
            raise ValueError(f"{what}: expected a tuple of {len(types)} values, got {describe(value)}")
        return tuple(check_value(v, et, f"{what}[{i}]") for i, (v, et) in enumerate(zip(value, types)))
    if scalar_dtype(t) is not None:
        # a scalar parameter: a number, numpy scalar or 0-d array of its type (as a
        # rank-0 tensor's), given to the backends as a 0-d array
        return check_value(value, TensorType(IntegerType(64) if isinstance(t, IndexType) else t, []), what)
    if not isinstance(t, TensorType):
        raise ValueError(f"{what}: a parameter of type {t} takes no value from Python")  # noqa: TRY004 - bad input
    dtype, shape = tensor_spec(t)
    if not isinstance(value, np.ndarray):
        value = _from_python(value, dtype, what)
    if value.dtype != dtype:
        raise ValueError(f"{what}: expected dtype {dtype}, got {value.dtype}")
    if value.shape != shape:
        raise ValueError(f"{what}: expected shape {list(shape)}, got {list(value.shape)}")
    return value
