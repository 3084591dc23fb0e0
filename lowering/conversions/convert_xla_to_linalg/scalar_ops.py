"""Scalar code for the xla element-wise ops: the body of every lowering that inlines xla
computations element by element (linalg.generic bodies, reducers, comparators...).

`emit_scalar(op, operands)` returns the arith/math ops computing `op` on one element of
each operand, with the exact semantics of the reference interpreter
(`xla_opt/interpreter/elementwise.py`):

* f16 and bf16 compute in f32 and round back to nearest even (`arith.extf`/`truncf`);
  ops that are exact on any float type (negate, abs, compare, select, clamp...) do not.
* integer x / 0 is -1 (all ones), x % 0 is x, INT_MIN / -1 is INT_MIN, INT_MIN % -1 is 0
  (the division always runs on a safe divisor, since LLVM division by zero is UB).
* shifts by the bit width or more give 0 (arithmetic right shift: the sign fill).
* float to integer truncates toward zero and saturates, NaN gives 0; integer power is
  exponentiation by squaring in an `scf.while`.
* complex numbers (`complex<f32>`, `complex<f64>`) are taken apart with `complex.re` /
  `complex.im` and computed with numpy's own algorithms on the parts: the fused product
  of its SIMD loops, Smith's division, its SIMD modulus, its `expm1`, `log1p` and
  `power` formulas. Where numpy calls the C library (cexp, clog, csqrt, csin, ccos,
  ctan, ctanh, cpow, cabs), the `complex` dialect op of that function is emitted and
  `convert-to-llvm` calls the same C function.

Operand values may still carry unsigned types (`ui8`): signedness comes from the xla
op's operand tensor types and is expressed by the arith op chosen; every value this
module creates (constants included) is signless.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm, math, scf
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    f32,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.element_types import (
    bit_width,
    elem_of,
    is_complex,
    is_float,
    is_pred,
    is_unsigned,
    shape_of,
)


class ScalarLoweringError(NotImplementedError):
    """An xla op (or element type) that has no scalar lowering."""


def signless(t: Attribute) -> Attribute:
    """`uiN` -> `iN`; other element types unchanged."""
    if isinstance(t, IntegerType):
        return IntegerType(t.width.data)
    return t


def wrap_signed(value: int, width: int) -> int:
    """`value` modulo 2**width in the signed range (the signless constant's payload)."""
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


_HALF_TYPES = (Float16Type, BFloat16Type)

_CMPI_SIGNED = {"EQ": "eq", "NE": "ne", "GE": "sge", "GT": "sgt", "LE": "sle", "LT": "slt"}
_CMPI_UNSIGNED = {"EQ": "eq", "NE": "ne", "GE": "uge", "GT": "ugt", "LE": "ule", "LT": "ult"}
# numpy's float comparisons: ordered, except NE (NaN != x is true)
_CMPF = {"EQ": "oeq", "NE": "une", "GE": "oge", "GT": "ogt", "LE": "ole", "LT": "olt"}

_CMPI_CODES = {
    "eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5,
    "ult": 6, "ule": 7, "ugt": 8, "uge": 9,
}  # fmt: skip


class ScalarBuilder:
    """Collects the ops of one scalar computation, in order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    # ---- constants ------------------------------------------------------------------
    def int_const(self, value: int, t: Attribute) -> SSAValue:
        t = signless(t)
        assert isinstance(t, IntegerType)
        return self.add(arith.ConstantOp(IntegerAttr(wrap_signed(value, t.width.data), t)))

    def float_const(self, value: float, t: Attribute) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(value, t)))  # type: ignore[arg-type]

    def bool_const(self, value: bool) -> SSAValue:
        return self.int_const(int(value), i1)

    # ---- comparisons ----------------------------------------------------------------
    def cmpi(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        # built without the constructor's type check: `lhs` may still be `uiN`
        # where `rhs` is a signless constant (the signless sweep unifies them)
        return self.add(
            arith.CmpiOp.create(
                operands=[lhs, rhs],
                result_types=[i1],
                properties={"predicate": IntegerAttr(_CMPI_CODES[predicate], 64)},
            )
        )

    def cmpf(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add(arith.CmpfOp(lhs, rhs, predicate))

    def select(self, cond: SSAValue, on_true: SSAValue, on_false: SSAValue) -> SSAValue:
        return self.add(arith.SelectOp(cond, on_true, on_false))

    def is_nan(self, x: SSAValue) -> SSAValue:
        return self.cmpf("uno", x, x)

    # ---- integer helpers ------------------------------------------------------------
    def binary(self, cls: type[Operation], lhs: SSAValue, rhs: SSAValue, t: Attribute) -> SSAValue:
        return self.add(cls(lhs, rhs, signless(t)))  # type: ignore[call-arg]

    def is_zero(self, x: SSAValue, t: Attribute) -> SSAValue:
        return self.cmpi("eq", x, self.int_const(0, t))

    # ---- float helpers --------------------------------------------------------------
    def in_compute_precision(self, t: Attribute, operands: Sequence[SSAValue], fn: Callable[..., SSAValue]) -> SSAValue:
        """Apply `fn` to the operands in f32 when `t` is f16/bf16, rounding the (float)
        result back to `t`; otherwise in `t` itself."""
        if not isinstance(t, _HALF_TYPES):
            return fn(*operands)
        wide = [self.add(arith.ExtFOp(x, f32)) for x in operands]
        out = fn(*wide)
        if isinstance(out.type, AnyFloat):
            return self.add(arith.TruncFOp(out, t))
        return out

    def float_max_min(self, x: SSAValue, y: SSAValue, maximum: bool) -> SSAValue:
        """numpy's (and XLA's CPU) maximum/minimum: x when x is strictly greater (less)
        or NaN, else y. NaN propagates; unlike arith.maximumf, of two zeros the second
        is taken (max(-0, +0) = +0 but max(+0, -0) = -0)."""
        wins = self.cmpf("ogt" if maximum else "olt", x, y)
        return self.select(self.binary(arith.OrIOp, wins, self.is_nan(x), i1), x, y)

    def fadd(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(arith.AddfOp(x, y))

    def fsub(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(arith.SubfOp(x, y))

    def fmul(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(arith.MulfOp(x, y))

    def fdiv(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.add(arith.DivfOp(x, y))

    def fabs(self, x: SSAValue) -> SSAValue:
        return self.add(math.AbsFOp(x))

    def both(self, p: SSAValue, q: SSAValue) -> SSAValue:
        return self.binary(arith.AndIOp, p, q, i1)

    def either(self, p: SSAValue, q: SSAValue) -> SSAValue:
        return self.binary(arith.OrIOp, p, q, i1)

    # ---- complex numbers ------------------------------------------------------------
    def parts(self, z: SSAValue) -> tuple[SSAValue, SSAValue]:
        return self.add(cplx.ReOp(z)), self.add(cplx.ImOp(z))

    def make_complex(self, re: SSAValue, im: SSAValue) -> SSAValue:
        return self.add(cplx.CreateOp(re, im, ComplexType(re.type)))  # type: ignore[arg-type]

    def complex_const(self, re: float, im: float, part: Attribute) -> SSAValue:
        return self.add(cplx.ConstantOp.from_floats((re, im), part))  # type: ignore[arg-type]

    def float_sign(self, x: SSAValue) -> SSAValue:
        """-1, -0, NaN, +0 or 1: x itself where x is zero or NaN, else copysign(1, x)."""
        zero = self.float_const(0.0, x.type)
        one = self.float_const(1.0, x.type)
        zero_or_nan = self.cmpf("ueq", x, zero)
        return self.select(zero_or_nan, x, self.add(math.CopySignOp(one, x)))


# --------------------------------------------------------------------------------------
# Unary ops
# --------------------------------------------------------------------------------------

# float-only unary ops that are one math op
_MATH_UNARY: dict[type[Operation], type[Operation]] = {
    ew.CeilOp: math.CeilOp,
    ew.FloorOp: math.FloorOp,
    ew.CosineOp: math.CosOp,
    ew.SineOp: math.SinOp,
    ew.TanOp: math.TanOp,
    ew.ExponentialOp: math.ExpOp,
    ew.ExponentialMinusOneOp: math.ExpM1Op,
    ew.LogOp: math.LogOp,
    ew.LogPlusOneOp: math.Log1pOp,
    ew.RsqrtOp: math.RsqrtOp,
    ew.SqrtOp: math.SqrtOp,
    ew.CbrtOp: math.CbrtOp,
    ew.TanhOp: math.TanhOp,
    ew.RoundNearestEvenOp: math.RoundEvenOp,
}


def _emit_unary(b: ScalarBuilder, op: ew.UnaryElementwiseOp, x: SSAValue) -> SSAValue:
    t = elem_of(op.operand.type)
    kind = type(op)
    if is_complex(t):
        return _complex_unary(b, op, x)
    if kind in _MATH_UNARY:
        return b.in_compute_precision(t, [x], lambda v: b.add(_MATH_UNARY[kind](v)))
    if kind is ew.AbsOp:
        return b.add(math.AbsFOp(x)) if is_float(t) else b.add(math.AbsIOp(x))
    if kind is ew.NegateOp:
        if is_float(t):
            return b.add(arith.NegfOp(x))
        return b.binary(arith.SubiOp, b.int_const(0, t), x, t)
    if kind is ew.RealOp:
        return x
    if kind is ew.ImagOp:
        return b.float_const(0.0, t)
    if kind is ew.IsFiniteOp:
        inf = b.float_const(float("inf"), t)
        return b.cmpf("olt", b.add(math.AbsFOp(x)), inf)
    if kind is ew.NotOp:
        return b.binary(arith.XOrIOp, x, b.int_const(-1, t), t)
    if kind is ew.PopcntOp:
        return b.add(math.CtPopOp(x))
    if kind is ew.CountLeadingZerosOp:
        return b.add(math.CountLeadingZerosOp(x))
    if kind is ew.LogisticOp:

        def logistic(v: SSAValue) -> SSAValue:
            one = b.float_const(1.0, v.type)
            exp = b.add(math.ExpOp(b.add(arith.NegfOp(v))))
            return b.add(arith.DivfOp(one, b.add(arith.AddfOp(one, exp))))

        return b.in_compute_precision(t, [x], logistic)
    if kind is ew.SignOp:
        if is_float(t):
            return b.in_compute_precision(t, [x], b.float_sign)
        zero, one, minus_one = b.int_const(0, t), b.int_const(1, t), b.int_const(-1, t)
        negative_or_zero = b.select(b.cmpi("slt", x, zero), minus_one, zero)
        return b.select(b.cmpi("sgt", x, zero), one, negative_or_zero)
    if kind is ew.RoundNearestAfzOp:

        def round_half_away(v: SSAValue) -> SSAValue:
            whole = b.add(math.TruncOp(v))
            frac = b.add(math.AbsFOp(b.add(arith.SubfOp(v, whole))))
            half_or_more = b.cmpf("oge", frac, b.float_const(0.5, v.type))
            away = b.add(arith.AddfOp(whole, b.float_sign(v)))
            return b.select(half_or_more, away, whole)

        return b.in_compute_precision(t, [x], round_half_away)
    raise ScalarLoweringError(f"{op.name} has no scalar lowering")


# --------------------------------------------------------------------------------------
# Binary ops
# --------------------------------------------------------------------------------------

# (PRED, signed integer, unsigned integer, float) implementations of the simple ones
_SIMPLE_BINARY: dict[type[Operation], tuple] = {
    ew.AddOp: (arith.OrIOp, arith.AddiOp, arith.AddiOp, arith.AddfOp),
    ew.SubtractOp: (None, arith.SubiOp, arith.SubiOp, arith.SubfOp),
    ew.MultiplyOp: (arith.AndIOp, arith.MuliOp, arith.MuliOp, arith.MulfOp),
    ew.MaximumOp: (arith.OrIOp, arith.MaxSIOp, arith.MaxUIOp, None),
    ew.MinimumOp: (arith.AndIOp, arith.MinSIOp, arith.MinUIOp, None),
    ew.AndOp: (arith.AndIOp, arith.AndIOp, arith.AndIOp, None),
    ew.OrOp: (arith.OrIOp, arith.OrIOp, arith.OrIOp, None),
    ew.XorOp: (arith.XOrIOp, arith.XOrIOp, arith.XOrIOp, None),
    ew.DivideOp: (None, None, None, arith.DivfOp),
    # fmod: xDSL 0.74 has no arith.remf; llvm.frem is LLVM's fmod
    ew.RemainderOp: (None, None, None, llvm.FRemOp),
    ew.Atan2Op: (None, None, None, math.Atan2Op),
    ew.PowerOp: (None, None, None, math.PowFOp),
}


def _simple_binary_class(kind: type[Operation], t: Attribute) -> type[Operation] | None:
    row = _SIMPLE_BINARY.get(kind)
    if row is None:
        return None
    if is_pred(t):
        return row[0]
    if is_float(t):
        return row[3]
    return row[2] if is_unsigned(t) else row[1]


def _int_divide(b: ScalarBuilder, x: SSAValue, y: SSAValue, t: Attribute) -> SSAValue:
    """x / 0 = -1 (all ones); INT_MIN / -1 = INT_MIN (the division by the safe
    divisor 1 gives it)."""
    zero = b.is_zero(y, t)
    one = b.int_const(1, t)
    if is_unsigned(t):
        q = b.binary(arith.DivUIOp, x, b.select(zero, one, y), t)
    else:
        width = bit_width(t)
        overflow = b.binary(
            arith.AndIOp,
            b.cmpi("eq", x, b.int_const(-(1 << (width - 1)), t)),
            b.cmpi("eq", y, b.int_const(-1, t)),
            i1,
        )
        unsafe = b.binary(arith.OrIOp, zero, overflow, i1)
        q = b.binary(arith.DivSIOp, x, b.select(unsafe, one, y), t)
    return b.select(zero, b.int_const(-1, t), q)


def _int_remainder(b: ScalarBuilder, x: SSAValue, y: SSAValue, t: Attribute) -> SSAValue:
    """x % 0 = x; INT_MIN % -1 = 0 (the remainder by the safe divisor 1 gives it)."""
    zero = b.is_zero(y, t)
    one = b.int_const(1, t)
    if is_unsigned(t):
        r = b.binary(arith.RemUIOp, x, b.select(zero, one, y), t)
    else:
        width = bit_width(t)
        overflow = b.binary(
            arith.AndIOp,
            b.cmpi("eq", x, b.int_const(-(1 << (width - 1)), t)),
            b.cmpi("eq", y, b.int_const(-1, t)),
            i1,
        )
        unsafe = b.binary(arith.OrIOp, zero, overflow, i1)
        r = b.binary(arith.RemSIOp, x, b.select(unsafe, one, y), t)
    return b.select(zero, x, r)


def _shift(b: ScalarBuilder, kind: type[Operation], x: SSAValue, y: SSAValue, t: Attribute) -> SSAValue:
    """Shift amounts of the bit width or more (negative ones included, read unsigned)
    give 0, or the sign fill for the arithmetic right shift."""
    width = bit_width(t)
    too_big = b.cmpi("uge", y, b.int_const(width, t))
    if kind is ew.ShiftRightArithmeticOp:
        amount = b.select(too_big, b.int_const(width - 1, t), y)
        return b.binary(arith.ShRSIOp, x, amount, t)
    # shifting by the width or more is poison in LLVM: shift by 0 instead
    amount = b.select(too_big, b.int_const(0, t), y)
    cls = arith.ShLIOp if kind is ew.ShiftLeftOp else arith.ShRUIOp
    return b.select(too_big, b.int_const(0, t), b.binary(cls, x, amount, t))


def _int_power(b: ScalarBuilder, x: SSAValue, y: SSAValue, t: Attribute) -> SSAValue:
    """Exponentiation by squaring with wrap-around (an scf.while over (result, base,
    exponent)); negative exponents give 0, except for the bases 1 and -1."""
    st = signless(t)
    zero, one = b.int_const(0, t), b.int_const(1, t)
    exponent = y
    negative = None
    if not is_unsigned(t):
        negative = b.cmpi("slt", y, zero)
        exponent = b.select(negative, zero, y)

    before = Block(arg_types=[st, st, st])
    c0 = arith.ConstantOp(IntegerAttr(0, st))
    more = arith.CmpiOp(before.args[2], c0, "ne")
    before.add_ops([c0, more, scf.ConditionOp(more, *before.args)])

    after = Block(arg_types=[st, st, st])
    acc, base, exp = after.args
    c1 = arith.ConstantOp(IntegerAttr(1, st))
    low_bit = arith.AndIOp(exp, c1)
    odd = arith.CmpiOp(low_bit, c1, "eq")
    product = arith.MuliOp(acc, base)
    new_acc = arith.SelectOp(odd, product, acc)
    square = arith.MuliOp(base, base)
    halved = arith.ShRUIOp(exp, c1)
    after.add_ops([c1, low_bit, odd, product, new_acc, square, halved, scf.YieldOp(new_acc, square, halved)])
    loop = scf.WhileOp([one, x, exponent], [st, st, st], Region(before), Region(after))
    b.ops.append(loop)
    result = loop.results[0]
    if negative is None:
        return result
    minus_one = b.int_const(-1, t)
    even = b.is_zero(b.binary(arith.AndIOp, y, one, t), t)
    of_minus_one = b.select(even, one, minus_one)
    negative_result = b.select(b.cmpi("eq", x, one), one, b.select(b.cmpi("eq", x, minus_one), of_minus_one, zero))
    return b.select(negative, negative_result, result)


def _emit_binary(b: ScalarBuilder, op: ew.BinaryElementwiseOp, x: SSAValue, y: SSAValue) -> SSAValue:
    t = elem_of(op.lhs.type)
    kind = type(op)
    if is_complex(t):
        return _complex_binary(b, op, x, y)
    cls = _simple_binary_class(kind, t)
    if cls is not None:
        if is_float(t):
            return b.in_compute_precision(t, [x, y], lambda u, v: b.add(cls(u, v)))
        return b.binary(cls, x, y, t)
    if is_float(t) and kind in (ew.MaximumOp, ew.MinimumOp):
        return b.float_max_min(x, y, maximum=kind is ew.MaximumOp)
    if is_float(t) or is_pred(t):
        raise ScalarLoweringError(f"{op.name} on {t} has no scalar lowering")
    if kind is ew.DivideOp:
        return _int_divide(b, x, y, t)
    if kind is ew.RemainderOp:
        return _int_remainder(b, x, y, t)
    if kind in (ew.ShiftLeftOp, ew.ShiftRightLogicalOp, ew.ShiftRightArithmeticOp):
        return _shift(b, kind, x, y, t)
    if kind is ew.PowerOp:
        return _int_power(b, x, y, t)
    raise ScalarLoweringError(f"{op.name} on {t} has no scalar lowering")


# --------------------------------------------------------------------------------------
# Compare, select, clamp
# --------------------------------------------------------------------------------------


def _total_order_key(b: ScalarBuilder, x: SSAValue) -> SSAValue:
    """The float's bits as a signed integer ordered like TOTALORDER: negative patterns
    get their magnitude bits flipped."""
    width = bit_width(x.type)
    it = IntegerType(width)
    bits = b.add(arith.BitcastOp(x, it))
    negative = b.cmpi("slt", bits, b.int_const(0, it))
    flipped = b.binary(arith.XOrIOp, bits, b.int_const((1 << (width - 1)) - 1, it), it)
    return b.select(negative, flipped, bits)


def _emit_compare(b: ScalarBuilder, op: ew.CompareOp, x: SSAValue, y: SSAValue) -> SSAValue:
    t = elem_of(op.lhs.type)
    direction = op.get_comparison_direction()
    if is_complex(t):
        return _complex_compare(b, direction, x, y)
    ctype = op.get_compare_type() if op.compare_type is not None else ew.default_compare_type(t).value
    if ctype == "TOTALORDER":
        return b.cmpi(_CMPI_SIGNED[direction], _total_order_key(b, x), _total_order_key(b, y))
    if ctype == "FLOAT":
        return b.cmpf(_CMPF[direction], x, y)
    table = _CMPI_UNSIGNED if ctype == "UNSIGNED" else _CMPI_SIGNED
    return b.cmpi(table[direction], x, y)


def _emit_clamp(b: ScalarBuilder, op: ew.ClampOp, lo: SSAValue, x: SSAValue, hi: SSAValue) -> SSAValue:
    """min(max(x, lo), hi), NaN-propagating on floats (numpy's maximum/minimum)."""
    t = elem_of(op.operand.type)
    if is_float(t):
        return b.float_max_min(b.float_max_min(x, lo, maximum=True), hi, maximum=False)
    if is_unsigned(t):
        max_cls, min_cls = arith.MaxUIOp, arith.MinUIOp
    else:
        max_cls, min_cls = arith.MaxSIOp, arith.MinSIOp
    return b.binary(min_cls, b.binary(max_cls, x, lo, t), hi, t)


# --------------------------------------------------------------------------------------
# Conversions
# --------------------------------------------------------------------------------------


def _float_to_float(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Round to nearest even; to bf16 (and from bf16 to f16) through f32 like ml_dtypes'
    casts (f64 -> bf16 rounds twice)."""
    if src == dst:
        return x
    if isinstance(dst, BFloat16Type) or isinstance(src, BFloat16Type) and isinstance(dst, Float16Type):
        if not isinstance(src, Float32Type):
            x = _float_to_float(b, x, src, f32)
        return b.add(arith.TruncFOp(x, dst))
    if bit_width(src) < bit_width(dst):
        return b.add(arith.ExtFOp(x, dst))
    return b.add(arith.TruncFOp(x, dst))


def _float_to_int(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Truncate toward zero, saturate at the integer range, NaN -> 0 (fptosi/fptoui
    of an out-of-range value is poison: the selects never pick it)."""
    if isinstance(src, _HALF_TYPES):
        x, src = b.add(arith.ExtFOp(x, f32)), f32
    width = bit_width(dst)
    unsigned = is_unsigned(dst)
    lo = 0 if unsigned else -(1 << (width - 1))
    hi = (1 << width) - 1 if unsigned else (1 << (width - 1)) - 1
    whole = b.add(math.TruncOp(x))
    too_high = b.cmpf("oge", whole, b.float_const(float(hi), src))
    too_low = b.cmpf("ole", whole, b.float_const(float(lo), src))
    cast_cls = arith.FPToUIOp if unsigned else arith.FPToSIOp
    converted = b.add(cast_cls(whole, signless(dst)))
    saturated = b.select(too_high, b.int_const(hi, dst), b.select(too_low, b.int_const(lo, dst), converted))
    return b.select(b.is_nan(x), b.int_const(0, dst), saturated)


def _int_to_float(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Round to nearest even; to bf16 through f32 like ml_dtypes' casts."""
    cast_cls = arith.UIToFPOp if is_unsigned(src) or is_pred(src) else arith.SIToFPOp
    if isinstance(dst, BFloat16Type):
        return b.add(arith.TruncFOp(b.add(cast_cls(x, f32)), dst))
    return b.add(cast_cls(x, dst))


def _int_to_int(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Wrap-around (static_cast): sign- or zero-extend by the source's signedness."""
    src_width, dst_width = bit_width(src), bit_width(dst)
    if src_width == dst_width:
        return x
    if src_width > dst_width:
        return b.add(arith.TruncIOp(x, signless(dst)))
    ext_cls = arith.ExtUIOp if is_unsigned(src) or is_pred(src) else arith.ExtSIOp
    return b.add(ext_cls(x, signless(dst)))


def _emit_convert(b: ScalarBuilder, op: ew.ConvertOp, x: SSAValue) -> SSAValue:
    return _convert(b, x, elem_of(op.operand.type), elem_of(op.result.type))


def emit_convert(value: SSAValue, src: Attribute, dst: Attribute) -> tuple[list[Operation], SSAValue]:
    """The ops converting the scalar `value` of xla element type `src` to `dst` with
    xla.convert's semantics, and the converted value."""
    b = ScalarBuilder()
    result = _convert(b, value, src, dst)
    return b.ops, result


def _convert(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    if src == dst:
        return x
    if isinstance(dst, ComplexType):
        return _convert_to_complex(b, x, src, dst)
    if is_complex(src):
        raise ScalarLoweringError("complex to real conversion is not defined (xla.real, xla.imag)")
    if is_pred(dst):
        if is_float(src):
            return b.cmpf("une", x, b.float_const(0.0, src))
        return b.cmpi("ne", x, b.int_const(0, src))
    if is_float(src):
        if is_float(dst):
            return _float_to_float(b, x, src, dst)
        return _float_to_int(b, x, src, dst)
    if is_float(dst):
        return _int_to_float(b, x, src, dst)
    return _int_to_int(b, x, src, dst)


def _to_bits(b: ScalarBuilder, x: SSAValue, t: Attribute) -> SSAValue:
    """The bits of x (of element type t) as a signless integer of t's width; of a
    complex number, its real part's bits low and its imaginary part's high (numpy's
    little-endian layout)."""
    if isinstance(t, ComplexType):
        half, whole = IntegerType(bit_width(t.element_type)), IntegerType(bit_width(t))
        re, im = (_to_bits(b, part, t.element_type) for part in b.parts(x))
        low, high = (b.add(arith.ExtUIOp(part, whole)) for part in (re, im))
        high = b.binary(arith.ShLIOp, high, b.int_const(half.width.data, whole), whole)
        return b.binary(arith.OrIOp, low, high, whole)
    if isinstance(t, IntegerType):
        return x
    return b.add(arith.BitcastOp(x, IntegerType(bit_width(t))))


def _from_bits(b: ScalarBuilder, bits: SSAValue, t: Attribute) -> SSAValue:
    """The element of type t whose bits are `bits` (see _to_bits)."""
    if isinstance(t, ComplexType):
        half, whole = IntegerType(bit_width(t.element_type)), IntegerType(bit_width(t))
        high = b.binary(arith.ShRUIOp, bits, b.int_const(half.width.data, whole), whole)
        re, im = (b.add(arith.TruncIOp(part, half)) for part in (bits, high))
        return b.make_complex(_from_bits(b, re, t.element_type), _from_bits(b, im, t.element_type))
    if isinstance(t, IntegerType):
        return bits
    return b.add(arith.BitcastOp(bits, t))


def _emit_bitcast_convert(b: ScalarBuilder, op: ew.BitcastConvertOp, x: SSAValue) -> SSAValue:
    src, dst = elem_of(op.operand.type), elem_of(op.result.type)
    if bit_width(src) != bit_width(dst):
        raise ScalarLoweringError(f"xla.bitcast_convert from {src} to {dst} changes the shape; no scalar lowering")
    if signless(src) == signless(dst):
        return x
    return _from_bits(b, _to_bits(b, x, src), dst)


def emit_bitcast_piece(
    x: SSAValue, src: Attribute, dst: Attribute, piece: SSAValue
) -> tuple[list[Operation], SSAValue]:
    """bitcast_convert to the narrower type dst: element `piece` (an index) of the
    minor dimension it adds is bits [piece * w, (piece + 1) * w) of x (little endian,
    w the width of dst). The ops and the value."""
    b = ScalarBuilder()
    wide, narrow = IntegerType(bit_width(src)), IntegerType(bit_width(dst))
    shift = b.binary(arith.MuliOp, b.add(arith.IndexCastOp(piece, wide)), b.int_const(narrow.width.data, wide), wide)
    bits = b.binary(arith.ShRUIOp, _to_bits(b, x, src), shift, wide)
    return b.ops, _from_bits(b, b.add(arith.TruncIOp(bits, narrow)), dst)


def emit_bitcast_join(pieces: Sequence[SSAValue], src: Attribute, dst: Attribute) -> tuple[list[Operation], SSAValue]:
    """bitcast_convert to the wider type dst: the element made of the narrower
    `pieces` of the minor dimension it removes, the first the lowest bits. The ops and
    the value."""
    b = ScalarBuilder()
    wide, width = IntegerType(bit_width(dst)), bit_width(src)
    bits = None
    for k, piece in enumerate(pieces):
        part = b.add(arith.ExtUIOp(_to_bits(b, piece, src), wide))
        if k:
            part = b.binary(arith.ShLIOp, part, b.int_const(k * width, wide), wide)
        bits = part if bits is None else b.binary(arith.OrIOp, bits, part, wide)
    assert bits is not None
    return b.ops, _from_bits(b, bits, dst)


def _emit_reduce_precision(b: ScalarBuilder, op: ew.ReducePrecisionOp, x: SSAValue) -> SSAValue:
    """XLA's ReducePrecision on the IEEE bits (like the interpreter): round the mantissa
    to nearest even, overflow to +-Inf, underflow to +-0, NaN kept."""
    exponent_bits, mantissa_bits = op.get_exponent_bits(), op.get_mantissa_bits()

    def reduce(v: SSAValue) -> SSAValue:
        ft = v.type
        width = bit_width(ft)
        src_exp, src_man = (8, 23) if isinstance(ft, Float32Type) else (11, 52)
        it = IntegerType(width)
        bits = b.add(arith.BitcastOp(v, it))
        if mantissa_bits < src_man:
            drop = src_man - mantissa_bits
            one = b.int_const(1, it)
            last_kept = b.binary(arith.AndIOp, b.binary(arith.ShRUIOp, bits, b.int_const(drop, it), it), one, it)
            bias = b.binary(arith.AddiOp, b.int_const((1 << (drop - 1)) - 1, it), last_kept, it)
            rounded = b.binary(arith.AddiOp, bits, bias, it)
            bits = b.binary(arith.AndIOp, rounded, b.int_const(~((1 << drop) - 1), it), it)
        if exponent_bits < src_exp:
            exp_mask = ((1 << src_exp) - 1) << src_man
            src_bias = (1 << (src_exp - 1)) - 1
            dst_bias = (1 << (exponent_bits - 1)) - 1
            exponent = b.binary(arith.AndIOp, bits, b.int_const(exp_mask, it), it)
            overflow = b.cmpi("ugt", exponent, b.int_const((src_bias + dst_bias) << src_man, it))
            underflow = b.cmpi("ule", exponent, b.int_const((src_bias - dst_bias) << src_man, it))
            signs = b.binary(arith.AndIOp, bits, b.int_const(1 << (width - 1), it), it)
            inf = b.binary(arith.OrIOp, signs, b.int_const(exp_mask, it), it)
            bits = b.select(overflow, inf, b.select(underflow, signs, bits))
        out = b.add(arith.BitcastOp(bits, ft))
        return b.select(b.is_nan(v), v, out)

    return b.in_compute_precision(elem_of(op.operand.type), [x], reduce)


def _emit_constant(b: ScalarBuilder, op: ew.ConstantOp) -> SSAValue:
    t = op.output.type
    if shape_of(t):
        raise ScalarLoweringError("only rank-0 xla.constant has a scalar lowering")
    e = elem_of(t)
    value = op.value
    assert isinstance(value, DenseIntOrFPElementsAttr)
    (v,) = value.get_values()
    if isinstance(e, ComplexType):
        re, im = v  # type: ignore[misc]
        return b.complex_const(float(re), float(im), e.element_type)
    if is_float(e):
        return b.float_const(float(v), e)
    return b.int_const(int(v), e)


# --------------------------------------------------------------------------------------
# Complex numbers
# --------------------------------------------------------------------------------------

# The functions numpy takes from the C library, as complex dialect ops (convert-to-llvm
# calls cexp[f], clog[f], ... on them).
_COMPLEX_LIBM_UNARY: dict[type[Operation], type[Operation]] = {
    ew.ExponentialOp: cplx.ExpOp,
    ew.LogOp: cplx.LogOp,
    ew.SqrtOp: cplx.SqrtOp,
    ew.SineOp: cplx.SinOp,
    ew.CosineOp: cplx.CosOp,
    ew.TanOp: cplx.TanOp,
    ew.TanhOp: cplx.TanhOp,
}


def complex_multiply(b: ScalarBuilder, x: SSAValue, y: SSAValue, fused: bool = True) -> SSAValue:
    """numpy's product (ar*br - ai*bi, ar*bi + ai*br). Its multiply ufunc (the SIMD loop
    numpy dispatches to on CPUs with FMA) fuses the first product of each part:
    re = fma(ar, br, -(ai*bi)), im = fma(ar, bi, ai*br); the repeated products of its
    power (npy_cpow's cmul) are not fused."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    if fused:
        re = b.add(math.FmaOp(ar, br, b.add(arith.NegfOp(b.fmul(ai, bi)))))
        im = b.add(math.FmaOp(ar, bi, b.fmul(ai, br)))
    else:
        re = b.fsub(b.fmul(ar, br), b.fmul(ai, bi))
        im = b.fadd(b.fmul(ar, bi), b.fmul(ai, br))
    return b.make_complex(re, im)


def complex_multiply_accumulate(acc: SSAValue, lhs: SSAValue, rhs: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The ops of acc + lhs * rhs on complex scalars (a dot's body), and its value."""
    b = ScalarBuilder()
    return b.ops, _complex_parts_op(b, arith.AddfOp, acc, complex_multiply(b, lhs, rhs))


def _complex_parts_op(b: ScalarBuilder, cls: type[Operation], x: SSAValue, y: SSAValue) -> SSAValue:
    """`cls` (addf, subf) on the real parts and on the imaginary parts."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    return b.make_complex(b.add(cls(ar, br)), b.add(cls(ai, bi)))  # type: ignore[call-arg]


def _complex_negate(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    re, im = b.parts(z)
    return b.make_complex(b.add(arith.NegfOp(re)), b.add(arith.NegfOp(im)))


def _complex_divide(b: ScalarBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    """Smith's algorithm, as numpy divides (its divide ufunc, npy_math's cdiv): scaled by
    the divisor's part of larger magnitude; a zero divisor gives each part of x over +0
    (an infinity or NaN)."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    t = ar.type
    zero, one = b.float_const(0.0, t), b.float_const(1.0, t)
    abs_br, abs_bi = b.fabs(br), b.fabs(bi)
    # |br| >= |bi|: rat = bi/br, scl = 1/(br + bi*rat)
    rat = b.fdiv(bi, br)
    scl = b.fdiv(one, b.fadd(br, b.fmul(bi, rat)))
    re_r = b.fmul(b.fadd(ar, b.fmul(ai, rat)), scl)
    im_r = b.fmul(b.fsub(ai, b.fmul(ar, rat)), scl)
    zero_divisor = b.both(b.cmpf("oeq", abs_br, zero), b.cmpf("oeq", abs_bi, zero))
    re_r = b.select(zero_divisor, b.fdiv(ar, abs_br), re_r)
    im_r = b.select(zero_divisor, b.fdiv(ai, abs_bi), im_r)
    # |br| < |bi| (or a NaN): rat = br/bi, scl = 1/(bi + br*rat)
    rat = b.fdiv(br, bi)
    scl = b.fdiv(one, b.fadd(bi, b.fmul(br, rat)))
    re_i = b.fmul(b.fadd(b.fmul(ar, rat), ai), scl)
    im_i = b.fmul(b.fsub(b.fmul(ai, rat), ar), scl)
    real_larger = b.cmpf("oge", abs_br, abs_bi)
    return b.make_complex(b.select(real_larger, re_r, re_i), b.select(real_larger, im_r, im_i))


# numpy's division, for the lowerings that build their loops themselves (triangular_solve)
complex_divide = _complex_divide


def _complex_abs(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    """numpy's modulus (its SIMD absolute loop): an infinite part makes it +Inf, else a
    NaN part NaN; otherwise larger * sqrt(fma(ratio, ratio, 1)) with ratio = smaller /
    larger of the parts' magnitudes (0 when larger is 0)."""
    re, im = b.parts(z)
    t = re.type
    re, im = b.fabs(re), b.fabs(im)
    inf, nan = b.float_const(float("inf"), t), b.float_const(float("nan"), t)
    zero, one = b.float_const(0.0, t), b.float_const(1.0, t)
    re_inf, im_inf = b.cmpf("oeq", re, inf), b.cmpf("oeq", im, inf)
    re, im = b.select(im_inf, inf, re), b.select(re_inf, inf, im)
    re_nan, im_nan = b.is_nan(re), b.is_nan(im)
    re, im = b.select(im_nan, nan, re), b.select(re_nan, nan, im)
    larger = b.select(b.cmpf("ogt", re, im), re, im)
    smaller = b.select(b.cmpf("olt", im, re), im, re)
    no_ratio = b.either(b.cmpf("oeq", larger, zero), b.cmpf("oeq", smaller, inf))
    ratio = b.select(no_ratio, zero, b.fdiv(smaller, larger))
    root = b.add(math.SqrtOp(b.add(math.FmaOp(ratio, ratio, one))))
    return b.fmul(root, larger)


def _complex_sign(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    """z / |z|, each part divided by the real modulus (XLA's formula: sign(inf+1j) is
    nan+0j, where a complex division would give nan+nanj), z itself where |z| is 0."""
    magnitude = _complex_abs(b, z)
    zero = b.float_const(0.0, magnitude.type)
    re, im = b.parts(z)
    quotient = b.make_complex(b.fdiv(re, magnitude), b.fdiv(im, magnitude))
    return b.select(b.cmpf("oeq", magnitude, zero), z, quotient)


def _complex_expm1(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    """numpy's nc_expm1: (expm1(x) cos(y) - 2 sin(y/2)^2, exp(x) sin(y)), the imaginary
    part y itself where y = 0, as exp's (XLA; exp(x) sin(y) is inf * 0 = NaN once exp(x)
    overflows: issue 31, fuzz finding F8)."""
    x, y = b.parts(z)
    t = x.type
    two = b.float_const(2.0, t)
    a = b.add(math.SinOp(b.fdiv(y, two)))
    re = b.fsub(b.fmul(b.add(math.ExpM1Op(x)), b.add(math.CosOp(y))), b.fmul(b.fmul(two, a), a))
    im = b.fmul(b.add(math.ExpOp(x)), b.add(math.SinOp(y)))
    im = b.select(b.cmpf("oeq", y, b.float_const(0.0, t)), y, im)
    return b.make_complex(re, im)


def _complex_log1p(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    """numpy's nc_log1p: (log(hypot(x + 1, y)), atan2(y, x + 1))."""
    x, y = b.parts(z)
    shifted = b.fadd(x, b.float_const(1.0, x.type))
    modulus = b.add(cplx.AbsOp(b.make_complex(shifted, y)))  # the C library's cabs: hypot
    return b.make_complex(b.add(math.LogOp(modulus)), b.add(math.Atan2Op(y, shifted)))


def _complex_power(b: ScalarBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    """numpy's npy_cpow: x**0 = 1; 0**y = 0 when Re(y) > 0, else NaN + NaN i; a real
    integral exponent n with |n| < 100 by repeated (unfused) products, 1/x**|n| when
    n < 0 (n = 1, 2, 3: x, x*x, x*(x*x)); any other exponent the C library's cpow."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    t = ar.type
    zero = b.float_const(0.0, t)
    unit = b.complex_const(1.0, 0.0, t)
    exponent_zero = b.both(b.cmpf("oeq", br, zero), b.cmpf("oeq", bi, zero))
    base_zero = b.both(b.cmpf("oeq", ar, zero), b.cmpf("oeq", ai, zero))
    nan = float("nan")
    of_zero = b.select(b.cmpf("ogt", br, zero), b.complex_const(0.0, 0.0, t), b.complex_const(nan, nan, t))
    in_range = b.both(b.cmpf("ogt", br, b.float_const(-100.0, t)), b.cmpf("olt", br, b.float_const(100.0, t)))
    whole = b.both(b.cmpf("oeq", bi, zero), b.cmpf("oeq", b.add(math.TruncOp(br)), br))
    integral = b.both(in_range, whole)
    # |n|, 0 where the exponent is not a small integer (never a poison conversion)
    n = b.add(arith.FPToSIOp(b.select(integral, b.fabs(br), zero), IntegerType(32)))
    i32 = IntegerType(32)
    acc, power = unit, x
    for k in range(7):  # |n| < 2**7
        bit = b.cmpi("ne", b.binary(arith.AndIOp, n, b.int_const(1 << k, i32), i32), b.int_const(0, i32))
        acc = b.select(bit, complex_multiply(b, acc, power, fused=False), acc)
        if k < 6:
            power = complex_multiply(b, power, power, fused=False)
    repeated = b.select(b.cmpf("olt", br, zero), _complex_divide(b, unit, acc), acc)
    square = complex_multiply(b, x, x, fused=False)
    unrolled = {1: x, 2: square, 3: complex_multiply(b, x, square, fused=False)}
    positive = b.cmpf("ogt", br, zero)
    small = repeated
    for k, value in unrolled.items():
        small = b.select(b.both(positive, b.cmpi("eq", n, b.int_const(k, i32))), value, small)
    general = b.add(cplx.PowOp(x, y))
    return b.select(exponent_zero, unit, b.select(base_zero, of_zero, b.select(integral, small, general)))


def _complex_max_min(b: ScalarBuilder, x: SSAValue, y: SSAValue, maximum: bool) -> SSAValue:
    """numpy's maximum/minimum of complex numbers: lexicographic on (re, im) (a larger
    real part wins only when no imaginary part is NaN); x when a part of x is NaN."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    no_nan_imag = b.both(b.cmpf("ord", ai, ai), b.cmpf("ord", bi, bi))
    strictly, or_equal = ("ogt", "oge") if maximum else ("olt", "ole")
    wins = b.either(
        b.both(b.cmpf(strictly, ar, br), no_nan_imag),
        b.both(b.cmpf("oeq", ar, br), b.cmpf(or_equal, ai, bi)),
    )
    return b.select(b.either(b.either(b.is_nan(ar), b.is_nan(ai)), wins), x, y)


def _complex_unary(b: ScalarBuilder, op: Operation, z: SSAValue) -> SSAValue:
    kind = type(op)
    if kind in _COMPLEX_LIBM_UNARY:
        return b.add(_COMPLEX_LIBM_UNARY[kind](z))
    t = elem_of(op.operands[0].type)
    assert isinstance(t, ComplexType)
    part = t.element_type
    if kind is ew.NegateOp:
        return _complex_negate(b, z)
    if kind is ew.RealOp:
        return b.parts(z)[0]
    if kind is ew.ImagOp:
        return b.parts(z)[1]
    if kind is ew.AbsOp:
        return _complex_abs(b, z)
    if kind is ew.SignOp:
        return _complex_sign(b, z)
    if kind is ew.RsqrtOp:  # 1 / sqrt(z), 0 where sqrt(z) has an infinite part (the interpreter's)
        root = b.add(cplx.SqrtOp(z))
        quotient = _complex_divide(b, b.complex_const(1.0, 0.0, part), root)
        re, im = b.parts(root)
        inf = b.float_const(float("inf"), part)
        infinite = b.either(b.cmpf("oeq", b.fabs(re), inf), b.cmpf("oeq", b.fabs(im), inf))
        return b.select(infinite, b.complex_const(0.0, 0.0, part), quotient)
    if kind is ew.LogisticOp:
        # 1 / (1 + exp(-z)), and exp(z) / (1 + exp(z)) where Re z < 0: exp(-z) overflows
        # there and the division gives NaN (the interpreter's formula; fuzz finding F11)
        unit = b.complex_const(1.0, 0.0, part)
        shrinks = b.add(cplx.ExpOp(_complex_negate(b, z)))
        grows = b.add(cplx.ExpOp(z))
        positive = _complex_divide(b, unit, _complex_parts_op(b, arith.AddfOp, unit, shrinks))
        negative = _complex_divide(b, grows, _complex_parts_op(b, arith.AddfOp, unit, grows))
        real_negative = b.cmpf("olt", b.parts(z)[0], b.float_const(0.0, part))
        return b.select(real_negative, negative, positive)
    if kind is ew.ExponentialMinusOneOp:
        return _complex_expm1(b, z)
    if kind is ew.LogPlusOneOp:
        return _complex_log1p(b, z)
    raise ScalarLoweringError(f"{op.name} on complex numbers has no scalar lowering")


def _complex_binary(b: ScalarBuilder, op: Operation, x: SSAValue, y: SSAValue) -> SSAValue:
    kind = type(op)
    if kind is ew.AddOp:
        return _complex_parts_op(b, arith.AddfOp, x, y)
    if kind is ew.SubtractOp:
        return _complex_parts_op(b, arith.SubfOp, x, y)
    if kind is ew.MultiplyOp:
        return complex_multiply(b, x, y)
    if kind is ew.DivideOp:
        return _complex_divide(b, x, y)
    if kind is ew.PowerOp:
        return _complex_power(b, x, y)
    if kind in (ew.MaximumOp, ew.MinimumOp):
        return _complex_max_min(b, x, y, maximum=kind is ew.MaximumOp)
    if kind is ew.Atan2Op:
        return _complex_atan2(b, x, y)
    raise ScalarLoweringError(f"{op.name} on complex numbers has no scalar lowering")


def _complex_times_i(b: ScalarBuilder, z: SSAValue) -> SSAValue:
    """i z, exactly: (-im z) + i (re z)."""
    re, im = b.parts(z)
    return b.make_complex(b.add(arith.NegfOp(im)), re)


def _complex_atan2(b: ScalarBuilder, y: SSAValue, x: SSAValue) -> SSAValue:
    """StableHLO's complex atan2: "-i * log((x + i * y) / sqrt(x * x + y * y))", the
    interpreter's formula (numpy's complex multiply, divide, sqrt and log)."""
    x_squared, y_squared = complex_multiply(b, x, x, fused=False), complex_multiply(b, y, y, fused=False)
    squares = _complex_parts_op(b, arith.AddfOp, x_squared, y_squared)
    root = b.add(cplx.SqrtOp(squares))
    quotient = _complex_divide(b, _complex_parts_op(b, arith.AddfOp, x, _complex_times_i(b, y)), root)
    logarithm = b.add(cplx.LogOp(quotient))
    re, im = b.parts(logarithm)
    return b.make_complex(im, b.add(arith.NegfOp(re)))  # -i (re + i im) = im - i re


def _complex_compare(b: ScalarBuilder, direction: str, x: SSAValue, y: SSAValue) -> SSAValue:
    """EQ: both parts equal (ordered); NE: either part differs (unordered), like numpy."""
    ar, ai = b.parts(x)
    br, bi = b.parts(y)
    if direction == "EQ":
        return b.both(b.cmpf("oeq", ar, br), b.cmpf("oeq", ai, bi))
    if direction == "NE":
        return b.either(b.cmpf("une", ar, br), b.cmpf("une", ai, bi))
    raise ScalarLoweringError(f"complex numbers do not compare {direction}")


def _convert_to_complex(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: ComplexType) -> SSAValue:
    """A real number converts to its part type directly (numpy: int64 -> complex64
    rounds once, to f32), with a +0 imaginary part; complex numbers part by part."""
    part = dst.element_type
    if isinstance(src, ComplexType):
        re, im = b.parts(x)
        return b.make_complex(
            _float_to_float(b, re, src.element_type, part), _float_to_float(b, im, src.element_type, part)
        )
    return b.make_complex(_convert(b, x, src, part), b.float_const(0.0, part))


# --------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------


def emit_scalar(op: Operation, operands: list[SSAValue]) -> tuple[list[Operation], list[SSAValue]]:
    """The ops computing the xla element-wise `op` on scalar `operands` (one element of
    each of its operands), in order, and the result values. Raises
    ScalarLoweringError for ops and element types without a scalar lowering."""
    b = ScalarBuilder()
    if isinstance(op, ew.UnaryElementwiseOp):
        result = _emit_unary(b, op, operands[0])
    elif isinstance(op, ew.CompareOp):
        result = _emit_compare(b, op, operands[0], operands[1])
    elif isinstance(op, ew.BinaryElementwiseOp):
        result = _emit_binary(b, op, operands[0], operands[1])
    elif isinstance(op, ew.SelectOp):
        result = b.select(*operands)
    elif isinstance(op, ew.ClampOp):
        result = _emit_clamp(b, op, *operands)
    elif isinstance(op, ew.ConvertOp):
        result = _emit_convert(b, op, operands[0])
    elif isinstance(op, ew.BitcastConvertOp):
        result = _emit_bitcast_convert(b, op, operands[0])
    elif isinstance(op, ew.ReducePrecisionOp):
        result = _emit_reduce_precision(b, op, operands[0])
    elif isinstance(op, ew.ConstantOp):
        result = _emit_constant(b, op)
    else:
        raise ScalarLoweringError(f"{op.name} is not an element-wise op with a scalar lowering")
    return b.ops, [result]
