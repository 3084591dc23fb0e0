"""`xla-widen-narrow-types`: the 4- and 2-bit integers and the 8-, 6- and 4-bit floats
become byte storage and wide arithmetic, so that no later stage sees them.

Storage: one element per byte (`ui8`), as ml_dtypes lays out its numpy arrays, which
is what callers pass and get back: a narrow float's bit pattern in the byte's low bits,
a 4- or 2-bit integer's two's complement in its low bits (the high bits zero).

Arithmetic, in two steps:
1. Every op on these types (except `xla.convert` and `xla.constant`, and the ops that
   only carry values: call, tuple, get_tuple_element, optimization_barrier,
   set/get_dimension_size, host ops) computes on the wide type: narrow floats in f32,
   narrow integers in i8 (signed) or ui8 (unsigned). Its narrow operands are converted
   to the wide type (exact) and its narrow results converted back, so each op rounds
   (or wraps) once, as the interpreter and ml_dtypes do; a computation region's narrow
   arguments and results are widened the same way (a reducer still rounds its
   accumulator at each step). A dot accumulates in f32 and rounds once. The ops whose
   value depends on the narrow width itself (popcnt, count_leading_zeros, the right
   shifts, shift_left's bound) get the few ops that make the byte behave as the narrow
   width.
2. What is left, converts from or to a narrow type and narrow constants, becomes bit
   manipulation of the storage in `ui32` xla ops (of a tensor, the computation of an
   `xla.map`, so that a convert stays one tensor op): a narrow float decodes exactly to
   f32; f32 encodes to the narrow float rounding to nearest even with each format's
   rules (overflow to infinity, to NaN or saturating; NaN and infinity encodings; no
   negative zero in the FNUZ formats; f8E8M0FNU's powers of two) exactly as ml_dtypes'
   casts do. Every other type converts through f32, as ml_dtypes does (an f64 or an
   integer rounds to f32 first). Function signatures, calls and tuples then carry `ui8`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ReducedPrecisionFloatType,
    Signedness,
    TensorType,
    TupleType,
    UnrealizedConversionCastOp,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.builtin import (
    FloatNanEncoding as NanEncoding,
)
from xdsl.dialects.builtin import (
    FloatNonfiniteBehavior as Nonfinite,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.control_flow import CallOp
from xla_opt.dialects.xla.custom_call import CustomCallOp
from xla_opt.dialects.xla.element_types import (
    bit_width,
    elem_of,
    is_complex,
    is_float,
    is_narrow,
    is_narrow_float,
    is_narrow_int,
    is_unsigned,
    shape_of,
    tensor,
)
from xla_opt.dialects.xla.properties import i64_array
from xla_opt.dialects.xla.reductions import MapOp
from xla_opt.dialects.xla.rng import RngUniformOp
from xla_opt.dialects.xla.shape_ops import (
    BroadcastInDimOp,
    ConcatenateOp,
    GetDimensionSizeOp,
    GetTupleElementOp,
    OptimizationBarrierOp,
    ReshapeOp,
    SetDimensionSizeOp,
    SliceOp,
    TupleOp,
)
from xla_opt.dialects.xla.tokens import TOKEN_OPS

# casts between a narrow type and its storage, gone once every value is retyped
_StorageCast = UnrealizedConversionCastOp
ui8 = IntegerType(8, Signedness.UNSIGNED)
ui32 = IntegerType(32, Signedness.UNSIGNED)

# Ops that carry values without looking at them: they keep the narrow type (as storage).
# set/get_dimension_size compute nothing on the elements, and convert-xla-to-linalg
# lowers them only as a pair with nothing in between (a widened set is no such pair).
_CARRIERS = (
    CallOp,
    TupleOp,
    GetTupleElementOp,
    OptimizationBarrierOp,
    SetDimensionSizeOp,
    GetDimensionSizeOp,
    CustomCallOp,
    *TOKEN_OPS,
)


def wide_type(t: Attribute) -> Attribute:
    """The element type a narrow one computes in (f32, i8 or ui8); others unchanged."""
    if is_narrow_float(t):
        return f32
    if is_narrow_int(t):
        return ui8 if is_unsigned(t) else i8
    return t


def storage_type(t: Attribute) -> Attribute:
    """A type with every narrow element type (in tensors and tuples) as `ui8` storage."""
    if isinstance(t, TensorType):
        e = t.get_element_type()
        return tensor(shape_of(t), ui8) if is_narrow(e) else t
    if isinstance(t, TupleType):
        # through ArrayAttr, as TupleOp infers it: TupleType's converter keeps a list,
        # which never compares equal to a tuple built from an ArrayAttr
        return TupleType(ArrayAttr([storage_type(e) for e in t.types.data]))
    return t


def _has_narrow(t: Attribute) -> bool:
    if isinstance(t, TensorType):
        return is_narrow(t.get_element_type())
    if isinstance(t, TupleType):
        return any(_has_narrow(e) for e in t.types.data)
    if isinstance(t, FunctionType):
        return any(_has_narrow(e) for e in (*t.inputs.data, *t.outputs.data))
    return False


def _narrow_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and is_narrow(t.get_element_type())


def _widened(t: Attribute) -> Attribute:
    return tensor(shape_of(t), wide_type(elem_of(t))) if _narrow_tensor(t) else t


# --------------------------------------------------------------------------------------
# Building xla ops on tensors of one shape
# --------------------------------------------------------------------------------------


class _Emitter:
    """Builds element-wise xla ops on tensors of `shape` before the rewritten op (or at
    the end of `block`, a computation's); integer arguments are scalar constants (ui32
    unless said otherwise)."""

    def __init__(self, rewriter: PatternRewriter, shape: tuple[int, ...], block: Block | None = None):
        self.rewriter = rewriter
        self.shape = shape
        self.block = block

    def _add(self, op: Operation) -> SSAValue:
        if self.block is not None:
            self.block.add_op(op)
        else:
            self.rewriter.insert(op)
        return op.results[0]

    def const(self, value: float, t: Attribute = ui32) -> SSAValue:
        attr = DenseIntOrFPElementsAttr.from_list(tensor((), t), [value])
        return self._add(ew.ConstantOp.build(properties={"value": attr}, result_types=[tensor((), t)]))

    def full(self, value: float, t: Attribute = ui32) -> SSAValue:
        """A constant of the whole shape (select's arms must have it)."""
        if not self.shape:  # a computation's scalars (a broadcast has no scalar lowering)
            return self.const(value, t)
        return self._add(
            BroadcastInDimOp.build(
                operands=[self.const(value, t)],
                result_types=[tensor(self.shape, t)],
                properties={"broadcast_dimensions": i64_array([])},
            )
        )

    def _value(self, v: SSAValue | int, t: Attribute = ui32) -> SSAValue:
        return v if isinstance(v, SSAValue) else self.const(v, t)

    def binary(self, cls: type[Operation], a: SSAValue | int, b: SSAValue | int) -> SSAValue:
        a, b = self._value(a), self._value(b)
        t = a.type if shape_of(a.type) == self.shape else b.type
        return self._add(cls.build(operands=[a, b], result_types=[tensor(self.shape, elem_of(t))]))

    def compare(self, a: SSAValue, direction: str, b: SSAValue | int) -> SSAValue:
        b = self._value(b, elem_of(a.type))
        props = {"comparison_direction": ew.ComparisonDirectionAttr(ew.ComparisonDirection(direction))}
        return self._add(ew.CompareOp.build(operands=[a, b], result_types=[tensor(self.shape, i1)], properties=props))

    def select(self, pred: SSAValue, on_true: SSAValue | int, on_false: SSAValue | int) -> SSAValue:
        typed = [v.type for v in (on_true, on_false) if isinstance(v, SSAValue)]
        t = elem_of(typed[0]) if typed else ui32
        on_true = on_true if isinstance(on_true, SSAValue) else self.full(on_true, t)
        on_false = on_false if isinstance(on_false, SSAValue) else self.full(on_false, t)
        return self._add(ew.SelectOp.build(operands=[pred, on_true, on_false], result_types=[on_true.type]))

    def convert(self, x: SSAValue, t: Attribute) -> SSAValue:
        if elem_of(x.type) == t:
            return x
        return self._add(ew.ConvertOp.build(operands=[x], result_types=[tensor(self.shape, t)]))

    def bitcast(self, x: SSAValue, t: Attribute) -> SSAValue:
        return self._add(ew.BitcastConvertOp.build(operands=[x], result_types=[tensor(self.shape, t)]))

    def and_(self, a, b):
        return self.binary(ew.AndOp, a, b)

    def or_(self, a, b):
        return self.binary(ew.OrOp, a, b)

    def add(self, a, b):
        return self.binary(ew.AddOp, a, b)

    def sub(self, a, b):
        return self.binary(ew.SubtractOp, a, b)

    def shl(self, a, b):
        return self.binary(ew.ShiftLeftOp, a, b)

    def shr(self, a, b):
        return self.binary(ew.ShiftRightLogicalOp, a, b)


# --------------------------------------------------------------------------------------
# Narrow floats <-> f32, on the bits
# --------------------------------------------------------------------------------------


def _is_e8m0(t: ReducedPrecisionFloatType) -> bool:
    return not t.SEMANTICS.has_sign


def _largest_finite_bits(t: ReducedPrecisionFloatType) -> int:
    """The magnitude bits of the largest finite value."""
    s = t.SEMANTICS
    all_ones = (1 << (s.exponent_bits + s.mantissa_bits)) - 1
    if s.nonfinite is Nonfinite.IEEE:
        return all_ones - (1 << s.mantissa_bits)  # the exponent below the all-ones one
    if s.nonfinite is Nonfinite.NAN_ONLY and s.nan_encoding is NanEncoding.ALL_ONES:
        return all_ones - 1
    return all_ones  # FNUZ (NaN is -0's pattern) and the formats without NaN


def decode_float(em: _Emitter, storage: SSAValue, t: ReducedPrecisionFloatType) -> SSAValue:
    """The f32 value (exact) of narrow float bits held in a ui8 tensor."""
    s = t.SEMANTICS
    u = em.convert(storage, ui32)
    nan = 0x7FC00000
    if _is_e8m0(t):
        # 2^(u - 127): the exponent field itself, u = 0 is f32's subnormal 2^-127
        bits = em.select(em.compare(u, "EQ", 0), 0x00400000, em.shl(u, 23))
        bits = em.select(em.compare(u, "EQ", 0xFF), nan, bits)
        return em.bitcast(bits, f32)
    width = s.exponent_bits + s.mantissa_bits
    # the sign: any bit above the format's (ml_dtypes reads a 6- or 4-bit float's
    # byte so; the bits it writes only ever set the one just above)
    sign = em.shl(em.convert(em.compare(u, "GE", 1 << width), ui32), 31)
    magnitude = em.and_(u, (1 << width) - 1)
    exponent = em.shr(magnitude, s.mantissa_bits)
    mantissa = em.and_(magnitude, (1 << s.mantissa_bits) - 1)
    normal = em.or_(
        em.shl(em.add(exponent, 127 - s.exponent_bias), 23),
        em.shl(mantissa, 23 - s.mantissa_bits),
    )
    # subnormals: mantissa * 2^(1 - bias - mantissa_bits), exact in f32
    scale = em.const(2.0 ** (1 - s.exponent_bias - s.mantissa_bits), f32)
    subnormal = em.bitcast(em.binary(ew.MultiplyOp, em.convert(mantissa, f32), scale), ui32)
    bits = em.select(em.compare(exponent, "EQ", 0), subnormal, normal)
    if s.nonfinite is Nonfinite.IEEE:
        all_ones_exponent = em.compare(exponent, "EQ", (1 << s.exponent_bits) - 1)
        special = em.select(em.compare(mantissa, "EQ", 0), 0x7F800000, nan)
        bits = em.select(all_ones_exponent, special, bits)
    elif s.nan_encoding is NanEncoding.ALL_ONES:
        bits = em.select(em.compare(magnitude, "EQ", (1 << width) - 1), nan, bits)
    elif s.nonfinite is Nonfinite.NAN_ONLY:  # FNUZ: NaN is the pattern of -0
        bits = em.select(em.compare(u, "EQ", 1 << width), nan, bits)
    return em.bitcast(em.or_(bits, sign), f32)


def _round_half_even_shift(em: _Emitter, value: SSAValue, shift: SSAValue) -> SSAValue:
    """value >> shift rounded to nearest even (1 <= shift <= 31)."""
    quotient = em.shr(value, shift)
    remainder = em.and_(value, em.sub(em.shl(1, shift), 1))
    half = em.shl(1, em.sub(shift, 1))
    above = em.compare(remainder, "GT", half)
    tie_odd = em.binary(ew.AndOp, em.compare(remainder, "EQ", half), em.compare(em.and_(quotient, 1), "EQ", 1))
    up = em.binary(ew.OrOp, above, tie_odd)
    return em.add(quotient, em.convert(up, ui32))


def _encode_e8m0(em: _Emitter, bits: SSAValue) -> SSAValue:
    """f32 -> f8E8M0FNU as ml_dtypes does: a power of two, rounded up from 1.5 times it
    (an f32 subnormal: from just above 2^-127); zero, negatives, NaN and infinity are
    NaN (0xFF), values too small the smallest power, 2^-127."""
    exponent = em.shr(bits, 23)
    rounded = em.add(exponent, em.convert(em.compare(em.and_(bits, 0x7FFFFF), "GE", 0x400000), ui32))
    subnormal = em.convert(em.compare(bits, "GT", 0x400000), ui32)
    out = em.select(em.compare(exponent, "EQ", 0), subnormal, em.binary(ew.MinimumOp, rounded, 0xFF))
    invalid = em.binary(ew.OrOp, em.compare(bits, "EQ", 0), em.compare(bits, "GE", 0x7F800000))
    return em.convert(em.select(invalid, 0xFF, out), ui8)


def encode_float(em: _Emitter, x: SSAValue, t: ReducedPrecisionFloatType) -> SSAValue:
    """The narrow float bits (in a ui8 tensor) of f32 values, rounded as ml_dtypes'
    cast: to nearest even; beyond the largest finite value an infinity (IEEE formats),
    NaN (FN, FNUZ) or the largest value (formats without NaN); NaN and infinity
    encoded as ml_dtypes does (a format without NaN takes zero of the opposite sign)."""
    s = t.SEMANTICS
    bits = em.bitcast(x, ui32)
    if _is_e8m0(t):
        return _encode_e8m0(em, bits)
    e_bits, m_bits, bias = s.exponent_bits, s.mantissa_bits, s.exponent_bias
    width = e_bits + m_bits
    sign = em.shr(bits, 31)
    magnitude = em.and_(bits, 0x7FFFFFFF)
    exponent = em.shr(magnitude, 23)
    digits = 23 - m_bits
    # normal results: round the f32 bits at the narrow mantissa, then rebias
    carry = em.and_(em.shr(magnitude, digits), 1)
    rounded = em.shr(em.add(em.add(magnitude, (1 << (digits - 1)) - 1), carry), digits)
    normal = em.sub(rounded, (127 - bias) << m_bits)
    # subnormal results: the significand (with its hidden bit) shifted to the
    # subnormal unit 2^(1 - bias - m_bits); shifts beyond 31 give 0 as 31 does
    significand = em.or_(em.and_(magnitude, 0x7FFFFF), em.shl(em.convert(em.compare(exponent, "NE", 0), ui32), 23))
    effective_exponent = em.binary(ew.MaximumOp, exponent, 1)
    shift = em.binary(ew.MinimumOp, em.sub(151 - bias - m_bits, effective_exponent), 31)
    subnormal = _round_half_even_shift(em, significand, shift)
    result = em.select(em.compare(exponent, "GE", 128 - bias), normal, subnormal)
    largest = _largest_finite_bits(t)
    if s.nonfinite is Nonfinite.IEEE:
        overflow_bits, nan_bits = ((1 << e_bits) - 1) << m_bits, (((1 << e_bits) - 1) << m_bits) | (1 << (m_bits - 1))
    elif s.nonfinite is Nonfinite.NAN_ONLY:
        nan_bits = (1 << width) - 1 if s.nan_encoding is NanEncoding.ALL_ONES else 1 << width
        overflow_bits = nan_bits
    else:
        overflow_bits, nan_bits = largest, None
    is_inf = em.compare(magnitude, "EQ", 0x7F800000)
    is_nan = em.compare(magnitude, "GT", 0x7F800000)
    result = em.select(em.binary(ew.OrOp, em.compare(result, "GT", largest), is_inf), overflow_bits, result)
    fnuz = s.nan_encoding is NanEncoding.NEGATIVE_ZERO
    if fnuz:  # no negative zero, and NaN has its own sign bit
        signed = em.select(em.compare(result, "EQ", 0), result, em.or_(result, em.shl(sign, width)))
        signed = em.select(em.compare(result, "EQ", nan_bits), nan_bits, signed)
    else:
        signed = em.or_(result, em.shl(sign, width))
    if nan_bits is None:  # ml_dtypes: NaN becomes zero with the sign flipped
        nan_value = em.shl(em.sub(1, sign), width)
    elif fnuz:
        nan_value = em.full(nan_bits)
    else:
        nan_value = em.or_(em.full(nan_bits), em.shl(sign, width))
    return em.convert(em.select(is_nan, nan_value, signed), ui8)


# --------------------------------------------------------------------------------------
# Narrow integers <-> their byte
# --------------------------------------------------------------------------------------


def decode_int(em: _Emitter, storage: SSAValue, t: IntegerType) -> SSAValue:
    """The i8 (signed) or ui8 (unsigned) value of a narrow integer's storage byte."""
    w = t.width.data
    if is_unsigned(t):
        return em.and_(storage, em.const((1 << w) - 1, ui8))
    shifted = em.binary(ew.ShiftLeftOp, em.convert(storage, i8), em.const(8 - w, i8))
    return em.binary(ew.ShiftRightArithmeticOp, shifted, em.const(8 - w, i8))


def encode_int(em: _Emitter, value: SSAValue, t: IntegerType) -> SSAValue:
    """The storage byte of a byte-wide value: its low bits (integers wrap)."""
    return em.and_(em.convert(value, ui8), em.const((1 << t.width.data) - 1, ui8))


def _to_narrow_int(em: _Emitter, x: SSAValue, t: IntegerType) -> SSAValue:
    """convert to a narrow integer: floats saturate to its range (NaN is 0, xla.convert
    to i32 does both), integers wrap."""
    source = elem_of(x.type)
    if is_float(source):
        w = t.width.data
        low, high = (0, (1 << w) - 1) if is_unsigned(t) else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
        clamped = em._add(
            ew.ClampOp.build(
                operands=[em.const(low, i32), em.convert(x, i32), em.const(high, i32)],
                result_types=[tensor(em.shape, i32)],
            )
        )
        return encode_int(em, clamped, t)
    return encode_int(em, em.convert(x, wide_type(t)), t)


def lower_convert(em: _Emitter, x: SSAValue, source: Attribute, target: Attribute) -> SSAValue:
    """convert from `source` to `target`, one of them narrow, on storage."""
    if is_narrow_float(source):
        x, source = decode_float(em, x, source), f32
    elif is_narrow_int(source):
        x, source = decode_int(em, x, source), wide_type(source)
    if is_complex(source) and not is_complex(target):
        x = em._add(ew.RealOp.build(operands=[x], result_types=[tensor(em.shape, source.element_type)]))  # type: ignore[union-attr]
        source = elem_of(x.type)
    if is_narrow_float(target):
        return encode_float(em, em.convert(x, f32), target)
    if is_narrow_int(target):
        return _to_narrow_int(em, x, target)
    return em.convert(x, target)


# --------------------------------------------------------------------------------------
# Step 1: ops on narrow types compute on the wide type
# --------------------------------------------------------------------------------------


def _widen_value(rewriter: PatternRewriter, value: SSAValue, at: InsertPoint) -> SSAValue:
    """`value` converted to its wide type (exact) at `at`."""
    if not _narrow_tensor(value.type):
        return value
    op = ew.ConvertOp.build(operands=[value], result_types=[_widened(value.type)])
    rewriter.insert(op, at)
    return op.result


def _widen_block(rewriter: PatternRewriter, block: Block) -> None:
    """A computation's narrow arguments become wide ones (converted back at its start)
    and its narrow results are widened before its terminator."""
    start = InsertPoint.at_start(block)
    for arg in list(block.args):
        if not _narrow_tensor(arg.type):
            continue
        narrow_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, _widened(narrow_type))
        back = ew.ConvertOp.build(operands=[new_arg], result_types=[narrow_type])
        rewriter.insert(back, start)
        new_arg.replace_uses_with_if(back.result, lambda use, back=back: use.operation is not back)
    term = block.last_op
    if isinstance(term, ReturnOp):
        before = InsertPoint.before(term)
        for i, v in enumerate(term.operands):
            term.operands[i] = _widen_value(rewriter, v, before)


def _needs_widening(op: Operation) -> bool:
    if isinstance(op, (ew.ConvertOp, ew.BitcastConvertOp, ew.ConstantOp, ReturnOp, *_CARRIERS)):
        return False
    if not op.name.startswith("xla."):
        return False
    if any(_narrow_tensor(v.type) for v in (*op.operands, *op.results)):
        return True
    return any(_narrow_tensor(a.type) for r in op.regions for b in r.blocks for a in b.args)


# Integer ops that see the narrow width as the bits of its zero-extended byte
_ZERO_EXTENDED = (ew.PopcntOp, ew.CountLeadingZerosOp, ew.ShiftRightLogicalOp)


class WidenNarrowOp(RewritePattern):
    """An op on narrow types computes on the wide type: narrow operands converted to
    f32 / i8 / ui8 (exact), narrow results converted back (one rounding or wrap per
    op, as the interpreter computes), computation regions widened alike."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not _needs_widening(op):
            return
        narrow_int = next(
            (elem_of(v.type) for v in op.operands if _narrow_tensor(v.type) and is_narrow_int(elem_of(v.type))),
            None,
        )
        before = InsertPoint.before(op)
        operands = [_widen_value(rewriter, v, before) for v in op.operands]
        if narrow_int is not None and isinstance(op, (*_ZERO_EXTENDED, ew.ShiftRightArithmeticOp)):
            operands = self._width_dependent_operands(op, operands, narrow_int, rewriter)
        for region in op.regions:
            for block in region.blocks:
                _widen_block(rewriter, block)
        regions = [op.detach_region(r) for r in list(op.regions)]
        new = type(op).create(
            operands=operands,
            result_types=[_widened(r.type) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        rewriter.insert(new, before)
        results = []
        for old, value in zip(op.results, new.results, strict=True):
            if narrow_int is not None and isinstance(op, ew.CountLeadingZerosOp):
                value = self._clz_adjust(value, narrow_int, rewriter)
            if isinstance(op, RngUniformOp) and is_narrow_float(elem_of(old.type)):
                value = _kept_below_b(rewriter, value, operands[0], operands[1], elem_of(old.type))
            if _narrow_tensor(old.type):
                back = ew.ConvertOp.build(operands=[value], result_types=[old.type])
                rewriter.insert(back, before)
                value = back.result
            results.append(value)
        rewriter.replace(op, [], results)

    @staticmethod
    def _width_dependent_operands(op, operands, t, rewriter):  # type: ignore[no-untyped-def]
        """The byte operand that makes popcnt, clz and the right shifts see the narrow
        width: the zero-extended bits, or (arithmetic shift) the value sign-extended
        from bit w-1 (an unsigned one too). The byte ops then give the narrow results:
        shift amounts from w to 7 shift out only the extension, larger ones (or
        negative, i.e. huge unsigned) give 0 or the sign fill as for the narrow width."""
        em = _Emitter(rewriter, shape_of(operands[0].type))
        w = t.width.data
        wide = elem_of(operands[0].type)
        x = operands[0]
        if isinstance(op, _ZERO_EXTENDED):
            x = em.and_(x, em.const((1 << w) - 1, wide))
        elif isinstance(op, ew.ShiftRightArithmeticOp) and is_unsigned(t):
            signed = em.binary(ew.ShiftLeftOp, em.convert(x, i8), em.const(8 - w, i8))
            x = em.convert(em.binary(ew.ShiftRightArithmeticOp, signed, em.const(8 - w, i8)), wide)
        return [x, *operands[1:]]

    @staticmethod
    def _clz_adjust(value: SSAValue, t: IntegerType, rewriter: PatternRewriter) -> SSAValue:
        """count_leading_zeros of the zero-extended byte counts 8 - w zeros too many."""
        em = _Emitter(rewriter, shape_of(value.type))
        return em.sub(value, em.const(8 - t.width.data, elem_of(value.type)))


def _kept_below_b(rewriter: PatternRewriter, draw: SSAValue, a: SSAValue, b: SSAValue, t: Attribute) -> SSAValue:
    """rng_uniform's f32 draw in [a, b), changed to the largest value of the narrow
    type t below b where rounding it to t would give b (and b > a): the spec's interval
    is half-open, and the interpreter keeps it so (fuzz finding F4)."""
    scalar = _Emitter(rewriter, ())
    below = _narrow_below(scalar, b, t)
    shape = shape_of(draw.type)
    em = _Emitter(rewriter, shape)

    def spread(v: SSAValue) -> SSAValue:
        if not shape:
            return v
        return em._add(
            BroadcastInDimOp.build(
                operands=[v],
                result_types=[tensor(shape, elem_of(v.type))],
                properties={"broadcast_dimensions": i64_array([])},
            )
        )

    rounded = em.convert(em.convert(draw, t), f32)
    reached = em.compare(rounded, "GE", spread(b))
    keep = em.and_(reached, spread(scalar.compare(b, "GT", a)))
    return em.select(keep, spread(below), draw)


def _narrow_below(em: _Emitter, b: SSAValue, t: ReducedPrecisionFloatType) -> SSAValue:
    """The largest value of t below the f32 scalar b (a value of t, not its least):
    b minus the spacing of t's values below b. For |b| in t's normal range the spacing is
    2^(e - m) (e b's exponent, m t's mantissa bits), halved below a power of two moving
    toward zero; in the subnormal range (and at 0) it is 2^(emin - m)."""
    if _is_e8m0(t):  # powers of two only
        return em.binary(ew.MultiplyOp, b, em.const(0.5, f32))
    s = t.SEMANTICS
    emin, m = 1 - s.exponent_bias, s.mantissa_bits
    bits = em.bitcast(em._add(ew.AbsOp.build(operands=[b], result_types=[b.type])), ui32)
    exponent = em.sub(em.convert(em.shr(bits, 23), i32), em.const(127, i32))
    exponent = em.binary(ew.MaximumOp, exponent, em.const(emin, i32))
    power_of_two = em.compare(em.and_(bits, 0x7FFFFF), "EQ", 0)
    above_emin = em.compare(exponent, "GT", em.const(emin, i32))
    positive = em.compare(b, "GT", em.const(0.0, f32))
    # toward zero below a power of two above emin: half the spacing
    halve = em.and_(em.and_(power_of_two, above_emin), positive)
    spacing_exponent = em.sub(exponent, em.select(halve, em.const(m + 1, i32), em.const(m, i32)))
    spacing = em.bitcast(em.shl(em.convert(em.add(spacing_exponent, em.const(127, i32)), ui32), 23), f32)
    return em.sub(b, spacing)


# --------------------------------------------------------------------------------------
# Step 2: converts, constants and signatures on storage
# --------------------------------------------------------------------------------------


class LowerNarrowConvert(RewritePattern):
    """convert from or to a narrow type: bit manipulation of the ui8 storage (decode
    to f32 / the byte value, encode with ml_dtypes' rounding). Of a tensor, the scalar
    ops are the computation of one `xla.map`: as tensor ops, the ~50 of an encode
    were each a generic for the later stages to fuse again, and a program of a few
    dozen f8 ops took seconds to compile (mutant seed 825413)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.ConvertOp, rewriter: PatternRewriter, /) -> None:
        source, target = elem_of(op.operand.type), elem_of(op.result.type)
        if not (is_narrow(source) or is_narrow(target)):
            return
        operand = op.operand
        if is_narrow(source) and operand.type != storage_type(operand.type):
            operand = _as_storage(rewriter, operand, op)
        shape = shape_of(op.result.type)
        if shape:
            computation = Block(arg_types=[tensor((), elem_of(operand.type))])
            scalar = lower_convert(_Emitter(rewriter, (), computation), computation.args[0], source, target)
            computation.add_op(ReturnOp.build(operands=[[scalar]]))
            mapped = MapOp.build(
                operands=[[operand]],
                result_types=[tensor(shape, elem_of(scalar.type))],
                properties={"dimensions": i64_array(range(len(shape)))},
                regions=[Region(computation)],
            )
            rewriter.insert(mapped)
            out = mapped.result
        else:
            out = lower_convert(_Emitter(rewriter, ()), operand, source, target)
        if is_narrow(target):
            out = _storage_cast(rewriter, out, op.result.type, op)
        rewriter.replace(op, [], [out])


class LowerNarrowBitcast(RewritePattern):
    """bitcast_convert to or from a narrow type. Of the same bit width (f8E4M3FN and
    ui8, i4 and f4E2M1FN...): the storage byte, as the other type's byte. Across widths
    (an i8 as two i4, two f4E2M1FN as one ui8...), as the interpreter: the wide
    element's bits split into (or joined from) the minor dimension, lowest bits first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.BitcastConvertOp, rewriter: PatternRewriter, /) -> None:
        source, target = elem_of(op.operand.type), elem_of(op.result.type)
        if not (is_narrow(source) or is_narrow(target)):
            return
        operand = _as_storage(rewriter, op.operand, op) if is_narrow(source) else op.operand
        if bit_width(source) == bit_width(target):
            em = _Emitter(rewriter, shape_of(op.result.type))
            out = em.convert(operand, ui8 if is_narrow(target) else target)  # the same bits
        elif bit_width(source) > bit_width(target):
            out = _split_bits(rewriter, operand, source, target)
        else:
            out = _join_bits(rewriter, operand, source, target)
        rewriter.replace(op, [], [_storage_cast(rewriter, out, op.result.type, op) if is_narrow(target) else out])


def _bits_word(t: Attribute) -> IntegerType:
    """The unsigned integer holding an element's bits: ui8 for a narrow type's
    storage byte (its bits low, the rest zero), else one of the element's width."""
    return ui8 if is_narrow(t) else IntegerType(bit_width(t), Signedness.UNSIGNED)


def _as_word(em: _Emitter, value: SSAValue, t: Attribute) -> SSAValue:
    return value if is_narrow(t) else em.bitcast(value, _bits_word(t))


def _from_word(em: _Emitter, word: SSAValue, t: Attribute) -> SSAValue:
    return word if is_narrow(t) else em.bitcast(word, t)


def _split_bits(rewriter: PatternRewriter, value: SSAValue, source: Attribute, target: Attribute) -> SSAValue:
    """Each element's bits as width(source) / width(target) elements of the target
    along a new minor dimension, the lowest bits first."""
    dims = shape_of(value.type)
    em = _Emitter(rewriter, dims)
    word = _as_word(em, value, source)
    out_bits = bit_width(target)
    pieces = []
    for k in range(bit_width(source) // out_bits):
        bits = em.and_(
            em.shr(word, em.const(k * out_bits, elem_of(word.type))), em.const((1 << out_bits) - 1, elem_of(word.type))
        )
        piece = _from_word(em, em.convert(bits, _bits_word(target)), target)
        pieces.append(
            em._add(ReshapeOp.build(operands=[piece], result_types=[tensor((*dims, 1), elem_of(piece.type))]))
        )
    result_type = tensor((*dims, len(pieces)), elem_of(pieces[0].type))
    props = {"dimension": IntegerAttr(len(dims), i64)}
    return em._add(ConcatenateOp.build(operands=[pieces], result_types=[result_type], properties=props))


def _join_bits(rewriter: PatternRewriter, value: SSAValue, source: Attribute, target: Attribute) -> SSAValue:
    """The minor dimension's elements' bits, the first lowest, as one target element."""
    *dims, ratio = shape_of(value.type)
    em = _Emitter(rewriter, tuple(dims))
    in_bits, word_type = bit_width(source), _bits_word(target)
    joined = None
    for k in range(ratio):
        slice_props = {"start_indices": i64_array([0] * len(dims) + [k]), "limit_indices": i64_array([*dims, k + 1]),
                       "strides": i64_array([1] * (len(dims) + 1))}  # fmt: skip
        one = em._add(
            SliceOp.build(
                operands=[value], result_types=[tensor((*dims, 1), elem_of(value.type))], properties=slice_props
            )
        )
        element = em._add(ReshapeOp.build(operands=[one], result_types=[tensor(tuple(dims), elem_of(value.type))]))
        bits = em.convert(_as_word(em, element, source), word_type)
        if is_narrow(source):  # the storage byte's bits above the element's are zero
            bits = em.and_(bits, em.const((1 << in_bits) - 1, word_type))
        shifted = em.shl(bits, em.const(k * in_bits, word_type))
        joined = shifted if joined is None else em.or_(joined, shifted)
    assert joined is not None
    return _from_word(em, joined, target)


def _as_storage(rewriter: PatternRewriter, value: SSAValue, anchor: Operation) -> SSAValue:
    """A narrow value seen as its ui8 storage (an unrealized cast, removed when the
    signatures and remaining ops are retyped)."""
    cast = _StorageCast.build(operands=[value], result_types=[storage_type(value.type)])
    rewriter.insert(cast, InsertPoint.before(anchor))
    return cast.results[0]


def _storage_cast(rewriter: PatternRewriter, value: SSAValue, narrow_type: Attribute, anchor: Operation) -> SSAValue:
    cast = _StorageCast.build(operands=[value], result_types=[narrow_type])
    rewriter.insert(cast, InsertPoint.before(anchor))
    return cast.results[0]


class LowerNarrowConstant(RewritePattern):
    """A narrow constant: a ui8 constant of its storage bytes (xDSL holds one byte per
    element: a narrow float's bits, a narrow integer sign-extended, whose low bits
    are kept)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.ConstantOp, rewriter: PatternRewriter, /) -> None:
        t = op.output.type
        if not _narrow_tensor(t):
            return
        e = elem_of(t)
        mask = (1 << e.width.data) - 1 if is_narrow_int(e) else 0xFF
        data = op.value.data.data
        storage = tensor(shape_of(t), ui8)
        attr = DenseIntOrFPElementsAttr.from_list(storage, [b & mask for b in data])
        new = ew.ConstantOp.build(properties={"value": attr}, result_types=[storage])
        rewriter.insert(new, InsertPoint.before(op))
        rewriter.replace(op, [], [_storage_cast(rewriter, new.output, t, op)])


# The narrow types a host op (custom call, infeed, outfeed, send, recv) had before its
# values became storage: the host side reads and writes them as those types.
HOST_TYPES_ATTR = "xla.narrow_host_types"


def _retype_storage(module: ModuleOp) -> None:
    """Every value still of a narrow type (function arguments and results, calls,
    tuples, carriers) becomes its ui8 storage; the storage casts disappear."""
    for op in module.walk():  # first, before any value is retyped
        values = (*op.operands, *op.results)
        if isinstance(op, (CustomCallOp, *TOKEN_OPS)) and any(_has_narrow(v.type) for v in values):
            op.attributes[HOST_TYPES_ATTR] = ArrayAttr([v.type for v in values])
    for op in module.walk():
        if isinstance(op, func.FuncOp) and _has_narrow(op.function_type):
            ft = op.function_type
            op.function_type = FunctionType.from_lists(
                [storage_type(t) for t in ft.inputs.data], [storage_type(t) for t in ft.outputs.data]
            )
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            if _has_narrow(value.type):
                value._type = storage_type(value.type)
    for op in list(module.walk()):
        if isinstance(op, _StorageCast) and op.inputs[0].type == op.outputs[0].type:
            op.outputs[0].replace_all_uses_with(op.inputs[0])
            op.detach()
            op.erase()


@dataclass(frozen=True)
class WidenNarrowTypesPass(ModulePass):
    """4- and 2-bit integers and 8-, 6- and 4-bit floats: arithmetic on wide types,
    values in ui8 storage, converts and constants as bit manipulation."""

    name = "xla-widen-narrow-types"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(_has_narrow(v.type) for o in op.walk() for v in (*o.operands, *o.results)) and not any(
            isinstance(o, func.FuncOp) and _has_narrow(o.function_type) for o in op.walk()
        ):
            return
        PatternRewriteWalker(WidenNarrowOp(), walk_regions_first=True, apply_recursively=False).rewrite_module(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([LowerNarrowConvert(), LowerNarrowBitcast(), LowerNarrowConstant()]),
            apply_recursively=False,
        ).rewrite_module(op)
        _retype_storage(op)
