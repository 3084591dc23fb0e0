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

Operand values may still carry unsigned types (`ui8`): signedness comes from the xla
op's operand tensor types and is expressed by the arith op chosen; every value this
module creates (constants included) is signless.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm, math, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
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
from xla_opt.dialects.xla.base import (
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
    def in_compute_precision(
        self, t: Attribute, operands: Sequence[SSAValue], fn: Callable[..., SSAValue]
    ) -> SSAValue:
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
        raise ScalarLoweringError(f"{op.name} on complex numbers has no scalar lowering")
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
    after.add_ops(
        [c1, low_bit, odd, product, new_acc, square, halved, scf.YieldOp(new_acc, square, halved)]
    )
    loop = scf.WhileOp([one, x, exponent], [st, st, st], Region(before), Region(after))
    b.ops.append(loop)
    result = loop.results[0]
    if negative is None:
        return result
    minus_one = b.int_const(-1, t)
    even = b.is_zero(b.binary(arith.AndIOp, y, one, t), t)
    of_minus_one = b.select(even, one, minus_one)
    negative_result = b.select(
        b.cmpi("eq", x, one), one, b.select(b.cmpi("eq", x, minus_one), of_minus_one, zero)
    )
    return b.select(negative, negative_result, result)


def _emit_binary(b: ScalarBuilder, op: ew.BinaryElementwiseOp, x: SSAValue, y: SSAValue) -> SSAValue:
    t = elem_of(op.lhs.type)
    kind = type(op)
    if is_complex(t):
        raise ScalarLoweringError(f"{op.name} on complex numbers has no scalar lowering")
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
    if is_complex(t):
        raise ScalarLoweringError("xla.compare on complex numbers has no scalar lowering")
    direction = op.get_comparison_direction()
    ctype = (
        op.get_compare_type()
        if op.compare_type is not None
        else ew.default_compare_type(t).value
    )
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


def emit_convert(
    value: SSAValue, src: Attribute, dst: Attribute
) -> tuple[list[Operation], SSAValue]:
    """The ops converting the scalar `value` of xla element type `src` to `dst` with
    xla.convert's semantics, and the converted value."""
    b = ScalarBuilder()
    result = _convert(b, value, src, dst)
    return b.ops, result


def _convert(b: ScalarBuilder, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    if is_complex(src) or is_complex(dst):
        raise ScalarLoweringError("xla.convert of complex numbers has no scalar lowering")
    if src == dst:
        return x
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


def _emit_bitcast_convert(b: ScalarBuilder, op: ew.BitcastConvertOp, x: SSAValue) -> SSAValue:
    src, dst = elem_of(op.operand.type), elem_of(op.result.type)
    if bit_width(src) != bit_width(dst) or is_complex(src) or is_complex(dst):
        raise ScalarLoweringError(
            f"xla.bitcast_convert from {src} to {dst} changes the shape; no scalar lowering"
        )
    if signless(src) == signless(dst):
        return x
    return b.add(arith.BitcastOp(x, signless(dst)))


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
    if is_complex(e):
        raise ScalarLoweringError("complex xla.constant has no scalar lowering")
    (v,) = value.get_values()
    if is_float(e):
        return b.float_const(float(v), e)
    return b.int_const(int(v), e)


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
