"""convert-stablehlo-to-xla: Element-wise StableHLO ops (a table of one-to-one ops), constants, iota, compare."""

from __future__ import annotations

from xdsl.dialects.builtin import ComplexType, DenseIntOrFPElementsAttr, TensorType
from xla_opt.dialects.stablehlo.attrs import enum_value
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs

from .common import Patterns, elem, fail, i64_attr, int_prop, one_to_one, prop, shape

PATTERNS = Patterns()

# stablehlo.<name> -> the xla op of the same operands and results
ELEMENTWISE = {
    "abs": xe.AbsOp,
    "cbrt": xe.CbrtOp,
    "ceil": xe.CeilOp,
    "cosine": xe.CosineOp,
    "sine": xe.SineOp,
    "tan": xe.TanOp,
    "exponential": xe.ExponentialOp,
    "exponential_minus_one": xe.ExponentialMinusOneOp,
    "floor": xe.FloorOp,
    "imag": xe.ImagOp,
    "real": xe.RealOp,
    "is_finite": xe.IsFiniteOp,
    "log": xe.LogOp,
    "log_plus_one": xe.LogPlusOneOp,
    "logistic": xe.LogisticOp,
    "not": xe.NotOp,
    "negate": xe.NegateOp,
    "popcnt": xe.PopcntOp,
    "count_leading_zeros": xe.CountLeadingZerosOp,
    "rsqrt": xe.RsqrtOp,
    "sign": xe.SignOp,
    "sqrt": xe.SqrtOp,
    "tanh": xe.TanhOp,
    "round_nearest_afz": xe.RoundNearestAfzOp,
    "round_nearest_even": xe.RoundNearestEvenOp,
    "add": xe.AddOp,
    "subtract": xe.SubtractOp,
    "multiply": xe.MultiplyOp,
    "divide": xe.DivideOp,
    "remainder": xe.RemainderOp,
    "maximum": xe.MaximumOp,
    "minimum": xe.MinimumOp,
    "power": xe.PowerOp,
    "atan2": xe.Atan2Op,
    "and": xe.AndOp,
    "or": xe.OrOp,
    "xor": xe.XorOp,
    "shift_left": xe.ShiftLeftOp,
    "shift_right_logical": xe.ShiftRightLogicalOp,
    "shift_right_arithmetic": xe.ShiftRightArithmeticOp,
    "select": xe.SelectOp,
    "clamp": xe.ClampOp,
}
PATTERNS.append(one_to_one(ELEMENTWISE))


@PATTERNS.rule("stablehlo.convert")
def _convert(op, b):
    """StableHLO's convert of a complex number to a real type takes its real part
    (`xla.convert` leaves that case undefined: the real part, then converted)."""
    source, target = elem(op.operands[0]), elem(op.results[0])
    x = op.operands[0]
    if isinstance(source, ComplexType) and not isinstance(target, ComplexType):
        x = b.one(xe.RealOp, [x], TensorType(source.element_type, shape(x)))
        if elem(x) == target:
            return [x]
    return [b.one(xe.ConvertOp, [x], op.results[0].type)]


@PATTERNS.rule("stablehlo.complex")
def _complex(op, b):
    """complex(re, im), bit-exact for every value (infinities and NaNs included): the
    parts interleaved along a new minor dimension of 2 and bitcast to the complex type
    (real part first, as XLA lays complex numbers out); no arithmetic."""
    re, im = op.operands
    dims = list(shape(re))
    pair = TensorType(elem(re), [*dims, 1])
    parts = [b.one(xs.ReshapeOp, [v], pair) for v in (re, im)]
    both = b.one(xs.ConcatenateOp, [parts], TensorType(elem(re), [*dims, 2]), {"dimension": i64_attr(len(dims))})
    return [b.one(xe.BitcastConvertOp, [both], op.results[0].type)]


@PATTERNS.rule("stablehlo.bitcast_convert")
def _bitcast_convert(op, b):
    """StableHLO (C2): a bitcast keeps complexness; a real <-> complex bitcast, which the
    xla dialect allows as XLA does, is not a StableHLO program."""
    source, target = elem(op.operands[0]), elem(op.results[0])
    if isinstance(source, ComplexType) != isinstance(target, ComplexType):
        fail(op, f"bitcast_convert between a real and a complex type ({source} -> {target}) is invalid")
    return [b.one(xe.BitcastConvertOp, op.operands, op.results[0].type)]


@PATTERNS.rule("stablehlo.constant", "chlo.constant")
def _constant(op, b):
    value = prop(op, "value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        fail(op, f"constant value {value} is not a dense elements attribute")
    return [b.one(xe.ConstantOp, [], op.results[0].type, {"value": value})]


@PATTERNS.rule("stablehlo.iota")
def _iota(op, b):
    return [b.one(xe.IotaOp, [], op.results[0].type, {"iota_dimension": int_prop(op, "iota_dimension")})]


@PATTERNS.rule("stablehlo.compare")
def _compare(op, b):
    direction = enum_value(prop(op, "comparison_direction"))
    ctype = enum_value(prop(op, "compare_type"))
    if ctype == "NOTYPE":
        ctype = None
    props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection(direction))}
    if ctype is not None:
        props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType(ctype))
    return [b.one(xe.CompareOp, op.operands, op.results[0].type, props)]


@PATTERNS.rule("stablehlo.reduce_precision")
def _reduce_precision(op, b):
    props = {
        "exponent_bits": int_prop(op, "exponent_bits"),
        "mantissa_bits": int_prop(op, "mantissa_bits"),
    }
    return [b.one(xe.ReducePrecisionOp, op.operands, op.results[0].type, props)]
