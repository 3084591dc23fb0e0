"""What the program generator knows about values: element types and their classes,
tensor types, the flags every generated value carries for the comparison (`Value`),
literals, random inputs, and why XLA may legitimately differ (the `XLA_*` reasons).

Every element type of the dialect is generated: PRED, the integers (the 2- and 4-bit ones
included), f16, bf16, f32, f64, the 8-, 6- and 4-bit floats and complex<f32/f64>.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import ml_dtypes
import numpy as np
from xla_opt.dialects.shapes.common import num_elements

from xla_opt.interpreter.dtypes import NARROW_FLOAT_DTYPES, NARROW_INT_DTYPES

# --------------------------------------------------------------------------------------
# Element types (their spelling in the dialect's text)
# --------------------------------------------------------------------------------------

PRED = "i1"
SIGNED = ("i8", "i16", "i32", "i64")
UNSIGNED = ("ui8", "ui16", "ui32", "ui64")
INTS = SIGNED + UNSIGNED  # byte-wide and wider: counters, indices, anything with a big range
NARROW_SIGNED = ("i4", "i2")
NARROW_UNSIGNED = ("ui4", "ui2")
NARROW_INTS = NARROW_SIGNED + NARROW_UNSIGNED
ALL_INTS = INTS + NARROW_INTS
STD_FLOATS = ("f16", "bf16", "f32", "f64")
NARROW_FLOATS = tuple(NARROW_FLOAT_DTYPES)
FLOATS = STD_FLOATS + NARROW_FLOATS
COMPLEX = ("complex<f32>", "complex<f64>")
# floats XLA may compute in a wider type between fused ops (it drops roundings to them)
HALF = ("f16", "bf16", *NARROW_FLOATS)
# XLA's CPU client aborts (kills the process) on programs of these types
XLA_ABORTS_ON = ("f6E2M3FN", "f6E3M2FN")

DTYPES: dict[str, np.dtype] = {
    PRED: np.dtype(np.bool_),
    **{e: np.dtype(("uint" if e.startswith("u") else "int") + e.lstrip("ui")) for e in INTS},
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "complex<f32>": np.dtype(np.complex64),
    "complex<f64>": np.dtype(np.complex128),
    "i4": NARROW_INT_DTYPES[4, False],
    "ui4": NARROW_INT_DTYPES[4, True],
    "i2": NARROW_INT_DTYPES[2, False],
    "ui2": NARROW_INT_DTYPES[2, True],
    **NARROW_FLOAT_DTYPES,
}
ELEMENTS: tuple[str, ...] = tuple(DTYPES)
ELEMENT_OF_DTYPE: dict[np.dtype, str] = {d: e for e, d in DTYPES.items()}


def is_float(elem: str) -> bool:
    return elem in FLOATS


def is_complex(elem: str) -> bool:
    return elem in COMPLEX


def is_inexact(elem: str) -> bool:
    """Floats and complex numbers: computed values may differ by rounding."""
    return elem in FLOATS or elem in COMPLEX


def is_int(elem: str) -> bool:
    return elem in ALL_INTS


def is_signed(elem: str) -> bool:
    return elem in SIGNED or elem in NARROW_SIGNED


def is_unsigned(elem: str) -> bool:
    return elem in UNSIGNED or elem in NARROW_UNSIGNED


def part_elem(elem: str) -> str:
    """The real type of a complex type's parts (the type itself otherwise)."""
    return {"complex<f32>": "f32", "complex<f64>": "f64"}.get(elem, elem)


def complex_of(elem: str) -> str:
    return {"f32": "complex<f32>", "f64": "complex<f64>"}[elem]


@cache
def xdsl_element(elem: str):
    """The dialect's type object of an element type (parsed, as a program spells it)."""
    from xdsl.parser import Parser

    from xla_opt.context import make_context

    return Parser(make_context(), f"tensor<{elem}>").parse_type().get_element_type()


@cache
def bit_width(elem: str) -> int:
    """The dialect's bit width (a complex number: both parts; f6: 6)."""
    from xla_opt.dialects.xla import bit_width as dialect_bit_width

    return dialect_bit_width(xdsl_element(elem))


def int_range(elem: str) -> tuple[int, int]:
    info = ml_dtypes.iinfo(DTYPES[elem])
    return int(info.min), int(info.max)


def float_info(elem: str):
    return ml_dtypes.finfo(DTYPES[part_elem(elem)])


@cache
def has_nan(elem: str) -> bool:
    with np.errstate(invalid="ignore"):
        return bool(np.isnan(np.array(np.nan).astype(DTYPES[elem]).astype(np.float64)))


@cache
def has_inf(elem: str) -> bool:
    with np.errstate(invalid="ignore", over="ignore"):
        return bool(np.isinf(np.array(np.inf).astype(DTYPES[elem]).astype(np.float64)))


@cache
def has_negative(elem: str) -> bool:
    with np.errstate(invalid="ignore"):
        return bool(np.array(-1.0).astype(DTYPES[elem]).astype(np.float64) < 0)


# Relative tolerance of values that may differ by rounding: a few ulps of f16/bf16; for
# f32/f64 room for a short chain of libm-vs-numpy differences; two ulps of each narrow
# float (2^(1 - mantissa bits)).
RTOL: dict[str, float] = {
    "f16": 1e-2,
    "bf16": 4e-2,
    "f32": 1e-4,
    "f64": 1e-9,
    **{e: 2.0 ** (1 - ml_dtypes.finfo(DTYPES[e]).nmant) for e in NARROW_FLOATS},
}
RTOL.update({c: RTOL[part_elem(c)] for c in COMPLEX})
# The identity of each reducer ("min"/"max": the type's lowest/highest value, "ones": all bits set).
REDUCER_IDENTITY = {"add": 0, "multiply": 1, "maximum": "min", "minimum": "max", "and": "ones", "or": 0, "xor": 0}

# --------------------------------------------------------------------------------------
# Why XLA may legitimately differ from the interpreter (results carrying one of these
# are not compared with XLA). One line per excluded case.
# --------------------------------------------------------------------------------------

XLA_INT_DIVISION = "integer division/remainder by zero or INT_MIN / -1 (XLA leaves it to the backend)"
XLA_SHIFT = "shift amounts >= the bit width or negative (XLA leaves them to the backend)"
XLA_INT_POWER = "integer power with negative exponents (XLA leaves it to the backend)"
XLA_FLOAT_TO_INT = "float -> integer convert of NaN or out-of-range values (implementation-defined in XLA)"
XLA_NON_IDENTITY_INIT = "reduce with a non-identity init value (XLA may apply the init value more than once)"
XLA_ROUNDING_OF_XLA_APPROX = "rounding-sensitive op on a value XLA rounds differently (f16/bf16 intermediates, libm)"
XLA_ATAN2_ZEROS = "atan2(+-0, +-0) is NaN where XLA's simplifier sees constant operands"
XLA_PERIODIC_OF_XLA_APPROX = (
    "sine/cosine/tan of a value XLA computes approximately: the error grows with the argument (f16: 1 ulp of 41 "
    "moves sine by 0.03), beyond any relative tolerance of the result"
)
XLA_PRED_ADD = "add on PRED: XLA's constant folder computes an exclusive or (the spec: logical or)"
XLA_CLZ = "count_leading_zeros of negative i8..i32 values: XLA's constant folder gives -bit width"
XLA_TOTALORDER_FOLDING = "TOTALORDER compare of constants: XLA's constant folder orders NaN like FLOAT (never true)"
XLA_CLAMP_ORDER = "clamp whose min may exceed its max: XLA's simplifier assumes min <= max"
XLA_UNSIGNED_CONSTANT_INDEX = (
    "a constant unsigned start index with the top bit set: XLA's simplifier reads it as negative"
)
XLA_DUS_ALIASING = "dynamic_update_slice of an update computed from its operand: XLA's in-place update may read elements it already overwrote"
XLA_DENORMALS = "floats made of arbitrary bits may be denormal, which XLA's CPU runtime flushes to zero"
XLA_REDUCE_PRECISION_NAN = (
    "reduce_precision to 0 mantissa bits: XLA's constant folder makes NaN infinity (the spec, and XLA's runtime: "
    "NaN is preserved)"
)
XLA_E8M0_IOTA = (
    "iota of f8E8M0FNU: XLA makes index 0 the bits 0x00 (2^-127), its convert of 0 (and ml_dtypes', ours) gives NaN"
)
XLA_E8M0_DENORMAL = (
    "arithmetic on f8E8M0FNU: its smallest value 2^-127 is an f32 denormal, which XLA's CPU runtime flushes to zero "
    "in the f32 it computes in (and f8E8M0FNU makes 0 NaN)"
)
XLA_S2_MIN_MAX = (
    "maximum/minimum/clamp of 2-bit signed integers: XLA's simplifier orders S2 constants as unsigned (max(convert(pred), "
    "-1) gives -1)"
)
XLA_SUB_BYTE_BITCAST_FOLDING = (
    "bitcast_convert of a constant across widths with 2- or 4-bit elements: XLA's constant folder lays the sub-byte "
    "elements out otherwise (i8 [1, 0, 2] -> 3x4xi2 gives [[1, 0, -2, 0], [0...], [0...]]; its runtime agrees with us)"
)
XLA_COMPLEX_POWER_OVERFLOW = (
    "complex power of values that are not tame: where w log z overflows to (-inf, -inf), XLA's exp gives "
    "0 * cos(-inf) = NaN, numpy and we give 0, the value's modulus exp(-inf) (fuzz seed 600506: "
    "(0.73 - 1.8e308j) ** (0.73 - 1.8e308j))"
)
XLA_COMPLEX_MAX_SIGNED_ZERO = (
    "complex maximum/minimum of computed values: the order compares real parts first, and XLA's fused code "
    "may give a computed zero real part the other sign (0.25 * -0.5j), so between (0, 0) and (0, -0.125) it "
    "picked the second (fuzz seed 701498; jax.lax.max of the same two values gives the first, as we do)"
)
XLA_COMPLEX_MAX_REAL_TIE = (
    "complex maximum/minimum: where the real parts tie, XLA's stablehlo.maximum of complex numbers does not "
    "take the larger imaginary part (max(1+0j, 1+1.43j) is 1+0j in either operand order: fuzz seed 822233); the "
    "order compares real parts, then imaginary parts, as numpy's, ours and jax.lax.max's (which JAX lowers to "
    "compares and selects) do"
)
XLA_TWO_BIT_SORT = (
    "sort with a 2-bit integer operand: XLA's CPU backend rejects it (INTERNAL: Inputs must have the same "
    "shape; 4-bit and wider are fine: fuzz seed 702702)"
)
XLA_E3M4_ROUND_FOLDING = (
    "round_nearest_afz/round_nearest_even of an f8E3M4 value XLA folds: its constant folder gives NaN "
    "(round_nearest_afz(3.5) is 4 at its runtime and ours: fuzz seed 802301)"
)
XLA_RNG_HALF_REACHES_B = (
    "rng_uniform of bf16/f16: XLA draws in f32 and rounds, so a draw just below b becomes b, outside the "
    "spec's [a, b) (fuzz seeds 601662, 801924; ours keep it below b)"
)
XLA_E8M0_CONVERT = (
    "convert to f8E8M0FNU, which has no zero: XLA turns an integer 0 into 2^-127, where its own zero "
    "fill, ml_dtypes and we give NaN (fuzz seed 804248)"
)
XLA_FFT_GATHER_LAYOUT = (
    "all_gather of an fft's result along a dimension other than 0: XLA's layout assignment gives the "
    "fft a layout its CPU thunk rejects (INTERNAL: RET_CHECK failure fft_thunk.cc:168 "
    "IsMonotonicWithDim0Major; along dimension 0 it runs: fuzz seed 808727)"
)
XLA_TWO_BIT_DOT = (
    "dot or convolution of 2-bit integers: XLA's CPU backend has none (UNIMPLEMENTED: unsupported operand type S2/U2)"
)
XLA_COMPLEX_TRIG_OVERFLOW = (
    "complex sine/cosine where cosh/sinh of the imaginary part overflow: XLA computes sin(0) * cosh(1000) = "
    "0 * inf = NaN (sin(1000j) is nan+infj, cos(1000j) inf+nanj; numpy and we give 0+infj, inf+0j)"
)
XLA_PRED_DIVISION = (
    "division of a float convert of PRED: XLA's simplifier gives 0 where the PRED is false, also for 0 / 0 "
    "(IEEE, numpy and we: NaN; jax.jit(lambda b: b.astype(f32) / 0.0): fuzz seed 825548)"
)
XLA_F6_ABORTS = "f6E2M3FN/f6E3M2FN: XLA's CPU client aborts the process on programs of these types"


# --------------------------------------------------------------------------------------
# Types and values
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorT:
    shape: tuple[int, ...]
    elem: str

    def __str__(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.elem + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return num_elements(self.shape)

    def with_shape(self, shape: Sequence[int]) -> TensorT:
        return TensorT(tuple(shape), self.elem)

    def with_elem(self, elem: str) -> TensorT:
        return TensorT(self.shape, elem)


def scalar(elem: str) -> TensorT:
    return TensorT((), elem)


@dataclass(frozen=True)
class Value:
    """An SSA value of the program and what the comparison must know about it."""

    name: str
    type: TensorT
    # The relative tolerance within which its floats may differ by rounding between the
    # interpreter and the JIT (transcendental functions, reassociated float reductions
    # and dots); 0: they agree exactly.
    rtol: float = 0.0
    # ... between the interpreter and XLA (also f16/bf16 arithmetic, which XLA may keep
    # in f32 between fused ops, and float division, which XLA may turn into a
    # multiplication by the reciprocal of a constant divisor).
    rtol_xla: float = 0.0
    # Its NaNs' sign and payload and the sign of its zeros are the same everywhere
    # (inputs, constants and data movement of them; not computed floats).
    bits_exact: bool = True
    # Computed from a float sum or product whose order differs between the backends
    # (reassociated reductions and dots): where one order overflows to inf and meets a
    # zero (0 * inf) or the opposite infinity, it gives NaN where the other order gives
    # a number, so a NaN on one side only is not a mismatch for it or its users.
    reordered: bool = False
    # Why XLA may legitimately give a different value (empty: it must agree).
    xla_skip: frozenset[str] = frozenset()
    # The arguments (of @main or of the enclosing block) it is computed from.
    roots: frozenset[str] = frozenset()
    # It holds no NaN or infinity (tame inputs, constants without them, data movement
    # of such values): what linear algebra and sort comparators need to be defined.
    finite: bool = False
    # How to compare it when its values are not determined (rng_uniform, rng_normal):
    # ("range", low, high) every element in [low, high); ("shape",) only its type.
    check: tuple = ()
    # A float convert of PRED (its values 0 and 1), which XLA's simplifier rewrites
    # when it is divided (XLA_PRED_DIVISION). Not inherited.
    pred_valued: bool = False

    @property
    def approx(self) -> bool:
        return self.rtol > 0

    @property
    def approx_xla(self) -> bool:
        return self.rtol_xla > 0

    @property
    def elem(self) -> str:
        return self.type.elem

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape


FLAG_NAMES = ("rtol", "rtol_xla", "bits_exact", "reordered", "xla_skip", "roots")


def from_args(v: Value) -> bool:
    """Whether v depends on an argument of @main: XLA's constant folder evaluates what
    does not (loops of constants included), by rules its runtime does not always share."""
    return any(root.startswith("%arg") for root in v.roots)


def merged_flags(operands: Sequence[Value]) -> dict:
    """The flags a result inherits from its operands."""
    return {
        "rtol": max((v.rtol for v in operands), default=0.0),
        "rtol_xla": max((v.rtol_xla for v in operands), default=0.0),
        "bits_exact": all(v.bits_exact for v in operands),
        "reordered": any(v.reordered for v in operands),
        "xla_skip": frozenset().union(*(v.xla_skip for v in operands)),
        "roots": frozenset().union(*(v.roots for v in operands)),
    }


def tolerance(approx: bool, inherited: float, t: TensorT) -> float:
    """The rounding tolerance of a result of type t: its type's, or a larger one
    inherited from a less precise type it was computed from."""
    if not approx:
        return 0.0
    return max(inherited, RTOL.get(t.elem, 0.0), min(RTOL.values()))


def flag_dict(v: Value) -> dict:
    return {name: getattr(v, name) for name in FLAG_NAMES}


def union_flags(flags: dict, v: Value) -> dict:
    return {
        "rtol": max(flags["rtol"], v.rtol),
        "rtol_xla": max(flags["rtol_xla"], v.rtol_xla),
        "bits_exact": flags["bits_exact"] and v.bits_exact,
        "reordered": flags["reordered"] or v.reordered,
        "xla_skip": flags["xla_skip"] | v.xla_skip,
        "roots": flags["roots"] | v.roots,
    }


def reducer_identity(op: str, elem: str):
    """The identity of a reducer for element type `elem`."""
    value = REDUCER_IDENTITY[op]
    if value == "min":  # of maximum
        if is_float(elem):
            return -np.inf if has_inf(elem) else float(ml_dtypes.finfo(DTYPES[elem]).min)
        return False if elem == PRED else int_range(elem)[0]
    if value == "max":
        if is_float(elem):
            return np.inf if has_inf(elem) else float(ml_dtypes.finfo(DTYPES[elem]).max)
        return True if elem == PRED else int_range(elem)[1]
    if value == "ones":
        return True if elem == PRED else -1 if is_signed(elem) else int_range(elem)[1]
    return value


# --------------------------------------------------------------------------------------
# Literals
# --------------------------------------------------------------------------------------


def _hex_bits(elem: str, v: float) -> str:
    """A float's bit pattern in hex, as MLIR reads a NaN or an infinity."""
    a = np.asarray(v).astype(DTYPES[elem])
    width = {1: 2, 2: 4, 4: 8, 8: 16}[a.dtype.itemsize]
    bits = int(a.reshape(1).view(f"uint{a.dtype.itemsize * 8}")[0])
    return f"0x{bits:0{width}X}"


def literal(elem: str, value) -> str:
    """One element of a dense literal: integers in decimal (never hex), floats rounded
    to the type and printed exactly, NaN and infinities as hex bit patterns, complex
    numbers as (re, im)."""
    if elem == PRED:
        return "true" if value else "false"
    if is_int(elem):
        return str(int(value))
    if is_complex(elem):
        c = complex(value)
        part = part_elem(elem)
        return f"({literal(part, c.real)},{literal(part, c.imag)})"
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = np.asarray(value).astype(DTYPES[elem])
        v = float(rounded.astype(np.float64))
    if not np.isfinite(v):
        return _hex_bits(elem, rounded)
    text = repr(v)
    mantissa, e, exponent = text.partition("e")
    if "." not in mantissa:  # MLIR's float literals need a '.': 1e+30 -> 1.0e+30
        mantissa += ".0"
    return mantissa + e + exponent


def dense(t: TensorT, values) -> str:
    """`dense<...>`: a splat for a scalar `values`, a nested list for an array."""
    if np.ndim(values) == 0:
        return f"dense<{literal(t.elem, np.asarray(values).item())}>"
    if np.size(values) == 0:  # `[]` has shape [0], not a 0x2's: MLIR spells no elements `dense<>` (seed 701493)
        return "dense<>"

    def nested(a: np.ndarray) -> str:
        if a.ndim == 1:
            return "[" + ", ".join(literal(t.elem, x) for x in a.tolist()) + "]"
        return "[" + ", ".join(nested(x) for x in a) + "]"

    return f"dense<{nested(np.asarray(values))}>"


def dims_text(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def signature(operands: Sequence[Value], results: Sequence[TensorT], compact: bool = True) -> str:
    """`: T` when every operand and result has one type (and `compact`), else the
    functional type `: (A, B) -> R` (always for ops with variadic operand groups)."""
    types = [str(v.type) for v in operands] + [str(t) for t in results]
    if compact and len(set(types)) == 1 and operands and len(results) == 1:
        return f": {types[0]}"
    return f": ({', '.join(str(v.type) for v in operands)}) -> {result_list(results)}"


def result_list(types: Sequence[TensorT]) -> str:
    return str(types[0]) if len(types) == 1 else "(" + ", ".join(map(str, types)) + ")"


# --------------------------------------------------------------------------------------
# Random values
# --------------------------------------------------------------------------------------


def _float_values(rng: np.random.Generator, elem: str, shape, special: float, tame: bool) -> np.ndarray:
    dtype = DTYPES[elem]
    lo = 0.0 if not has_negative(elem) else (-2.0 if tame else -4.0)
    x = rng.uniform(lo, 2.0 if tame else 4.0, shape)
    x = np.where(rng.random(shape) < 0.5, np.round(x * 2) / 2, x)
    if not has_negative(elem):  # f8E8M0FNU: powers of two only, no zero
        x = np.exp2(np.round(x * 3 - 6))
    with np.errstate(over="ignore"):
        out = np.asarray(x.astype(np.float64 if elem == "f64" else np.float32)).astype(dtype)
    if tame:
        return out
    info = ml_dtypes.finfo(dtype)
    edges = [0.0, float(info.max), 1e30, -3e38, 1e-30, 65504.0, 70000.0]
    edges += [float(info.smallest_normal)] if elem != "f8E8M0FNU" else []  # (2^-127: an f32 denormal)
    edges += [np.nan] if has_nan(elem) else []
    edges += [np.inf, -np.inf] if has_inf(elem) else []
    edges += [-0.0, float(info.min)] if has_negative(elem) else []
    flat = out.reshape(-1)
    for i in np.flatnonzero(rng.random(flat.size) < special):
        with np.errstate(over="ignore", invalid="ignore"):
            flat[i] = np.asarray(edges[rng.integers(len(edges))]).astype(dtype)
    return flat.reshape(shape)


def random_values(rng: np.random.Generator, t: TensorT, special: float = 0.05, tame: bool = False) -> np.ndarray:
    """Values of type t: integers in small ranges plus edge values (the type's limits,
    0, +-1, the bit width), floats in [-4, 4] (half of them on a grid of 0.5, to hit
    rounding ties) plus occasional NaN, +-inf, -0, huge and tiny values; complex
    numbers of two such parts. `tame`: floats in [-2, 2] and small integers, nothing
    special (the operands of linear algebra)."""
    dtype = DTYPES[t.elem]
    if t.elem == PRED:
        return np.asarray(rng.random(t.shape) < 0.5)
    if is_complex(t.elem):
        part = part_elem(t.elem)
        re = _float_values(rng, part, t.shape, special, tame)
        im = _float_values(rng, part, t.shape, special, tame)
        out = np.empty(t.shape, dtype)  # (re + 1j * im would make 1j * inf's real part NaN)
        out.real, out.imag = re, im
        return out
    if is_float(t.elem):
        return _float_values(rng, t.elem, t.shape, special, tame)
    low, high = int_range(t.elem)
    small_lo, small_hi = (0, 10) if is_unsigned(t.elem) else (-6, 6)
    if tame:
        small_lo, small_hi = (0, 3) if is_unsigned(t.elem) else (-3, 3)
    small_lo, small_hi = max(small_lo, low), min(small_hi, high)
    out = np.asarray(rng.integers(small_lo, small_hi, t.shape, endpoint=True)).astype(dtype)
    if tame:
        return out
    edges = [0, 1, low, high, low + 1, high - 1, bit_width(t.elem)] + ([-1] if is_signed(t.elem) else [])
    edges = [min(max(e, low), high) for e in edges]
    flat = out.reshape(-1)
    for i in np.flatnonzero(rng.random(flat.size) < special):
        flat[i] = np.asarray(edges[rng.integers(len(edges))]).astype(dtype)
    return flat.reshape(t.shape)


def make_inputs(
    arg_types: Sequence[TensorT], seed: int, tame: Sequence[bool] | None = None, replicas: int = 1
) -> list[np.ndarray]:
    """Seeded random inputs for @main's arguments (`tame` ones without special values);
    with replicas > 1, one value per replica stacked on a leading axis."""
    rng = np.random.default_rng(seed)
    tame = tame or [False] * len(arg_types)
    out = []
    for t, quiet in zip(arg_types, tame, strict=True):
        if replicas > 1:
            values = np.stack([random_values(rng, t, tame=quiet) for _ in range(replicas)])
        else:
            values = random_values(rng, t, tame=quiet)
        out.append(np.array(values, order="C"))  # (ascontiguousarray makes rank 0 rank 1)
    return out
