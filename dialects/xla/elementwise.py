"""The element-wise family, declared once as tables and instantiated: unary functions,
binary arithmetic/logical ops with XLA broadcasting, compare; plus constant, iota,
select, clamp, convert, bitcast_convert and reduce_precision."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xla_opt.dialects.shapes.broadcast import broadcast_shapes
from xla_opt.dialects.shapes.elementwise import (
    bitcast_convert_shape,
    check_iota,
    check_reduce_precision,
    clamp_shape,
    select_shape,
)

from .base import XlaOp
from .element_types import (
    bit_width,
    elem_of,
    element_type_name,
    is_complex,
    is_float,
    is_integer,
    is_pred,
    is_unsigned,
    shape_of,
    tensor,
)

# --------------------------------------------------------------------------------------
# Element-type categories used by the tables
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ElementCategory:
    """A named set of element types an op accepts (the name goes into diagnostics)."""

    description: str
    accepts: Callable[[Attribute], bool]

    def __call__(self, t: Attribute) -> bool:
        return self.accepts(t)


FLOAT = ElementCategory("floating-point", is_float)
FLOAT_OR_COMPLEX = ElementCategory("floating-point or complex", lambda t: is_float(t) or is_complex(t))
NUMERIC = ElementCategory(
    "integer, floating-point or complex", lambda t: is_integer(t) or is_float(t) or is_complex(t)
)
NUMERIC_OR_PRED = ElementCategory("PRED, integer, floating-point or complex", lambda t: NUMERIC(t) or is_pred(t))
SIGNED_NUMERIC = ElementCategory(
    "signed integer, floating-point or complex",
    lambda t: (is_integer(t) and not is_unsigned(t)) or is_float(t) or is_complex(t),
)
INTEGER_OR_FLOAT = ElementCategory("integer or floating-point", lambda t: is_integer(t) or is_float(t))
INTEGER = ElementCategory("integer", is_integer)
PRED_OR_INTEGER = ElementCategory("PRED or integer", lambda t: is_pred(t) or is_integer(t))
ANY = ElementCategory("any", lambda t: True)


# IRDL accepts class constants only as annotated, upper-case ClassVars.
_ALLOWED_ANNOTATION = {"ALLOWED": ClassVar[ElementCategory]}


def _check_elements(op: XlaOp, t: Attribute, allowed: ElementCategory, what: str) -> None:
    if not allowed(t):
        raise VerifyException(
            f"{what} element type {t} ({element_type_name(t)}) is not allowed; expected "
            f"{allowed.description}"
        )


def _real_part_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, ComplexType) else t  # type: ignore[return-value]


# --------------------------------------------------------------------------------------
# Unary element-wise ops
# --------------------------------------------------------------------------------------


class UnaryElementwiseOp(XlaOp):
    """x -> f(x) element by element; the result has the operand's shape."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    ALLOWED: ClassVar[ElementCategory] = ANY
    # Maps the operand element type to the result's (identity for most ops).
    result_element: Callable[[Attribute], Attribute] = staticmethod(lambda t: t)

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        return [tensor(shape_of(t), type(self).result_element(elem_of(t)))]

    def verify_xla(self) -> None:
        _check_elements(self, elem_of(self.operand.type), type(self).ALLOWED, "operand")


def _unary(
    name: str, allowed: ElementCategory, doc: str, result_element=None
) -> type[UnaryElementwiseOp]:
    cls_name = "".join(p.capitalize() for p in name.split("_")) + "Op"
    body: dict = {"name": f"xla.{name}", "ALLOWED": allowed, "__doc__": doc, "__annotations__": _ALLOWED_ANNOTATION}
    if result_element is not None:
        body["result_element"] = staticmethod(result_element)
    return irdl_op_definition(type(cls_name, (UnaryElementwiseOp,), body))


# One row per op of the spec's "element-wise unary functions" (+ those JAX emits).
AbsOp = _unary("abs", SIGNED_NUMERIC, "Abs: x -> |x|; of a complex number, its real modulus.", _real_part_type)
CeilOp = _unary("ceil", FLOAT, "Ceil: x -> ceil(x), on floating-point types.")
CosineOp = _unary("cosine", FLOAT_OR_COMPLEX, "Cos: x -> cos(x).")
SineOp = _unary("sine", FLOAT_OR_COMPLEX, "Sin: x -> sin(x).")
TanOp = _unary("tan", FLOAT_OR_COMPLEX, "Tan: x -> tan(x).")
ExponentialOp = _unary("exponential", FLOAT_OR_COMPLEX, "Exp: x -> e^x.")
ExponentialMinusOneOp = _unary("exponential_minus_one", FLOAT_OR_COMPLEX, "Expm1: x -> e^x - 1.")
FloorOp = _unary("floor", FLOAT, "Floor: x -> floor(x), on floating-point types.")
ImagOp = _unary("imag", FLOAT_OR_COMPLEX, "Imag: the imaginary part of a complex (0 for a real) operand.", _real_part_type)
RealOp = _unary("real", FLOAT_OR_COMPLEX, "Real: the real part of a complex (the value of a real) operand.", _real_part_type)
IsFiniteOp = _unary("is_finite", FLOAT, "IsFinite: true where the element is neither infinite nor NaN; the result is PRED.", lambda t: i1)
LogOp = _unary("log", FLOAT_OR_COMPLEX, "Log: x -> ln(x).")
LogPlusOneOp = _unary("log_plus_one", FLOAT_OR_COMPLEX, "Log1p: x -> ln(1 + x).")
NotOp = _unary("not", PRED_OR_INTEGER, "LogicalNot: logical not of PRED, bitwise not of integers.")
LogisticOp = _unary("logistic", FLOAT_OR_COMPLEX, "Logistic: x -> 1 / (1 + e^-x).")
PopcntOp = _unary("popcnt", INTEGER, "PopulationCount: the number of set bits of each integer.")
CountLeadingZerosOp = _unary("count_leading_zeros", INTEGER, "Clz: the number of leading zero bits of each integer.")
NegateOp = _unary("negate", NUMERIC, "Neg: x -> -x.")
RsqrtOp = _unary("rsqrt", FLOAT_OR_COMPLEX, "Rsqrt: x -> 1 / sqrt(x).")
SignOp = _unary("sign", SIGNED_NUMERIC, "Sign: -1, -0, NaN, +0 or 1 by the element's comparison with 0.")
SqrtOp = _unary("sqrt", FLOAT_OR_COMPLEX, "Sqrt: x -> sqrt(x).")
CbrtOp = _unary("cbrt", FLOAT, "Cbrt: x -> cbrt(x).")
TanhOp = _unary("tanh", FLOAT_OR_COMPLEX, "Tanh: x -> tanh(x).")
RoundNearestAfzOp = _unary("round_nearest_afz", FLOAT, "Round: to nearest, ties away from zero.")
RoundNearestEvenOp = _unary("round_nearest_even", FLOAT, "RoundNearestEven: to nearest, ties to even.")

UNARY_OPS: tuple[type[UnaryElementwiseOp], ...] = (
    AbsOp, CeilOp, CosineOp, SineOp, TanOp, ExponentialOp, ExponentialMinusOneOp,
    FloorOp, ImagOp, RealOp, IsFiniteOp, LogOp, LogPlusOneOp, NotOp, LogisticOp,
    PopcntOp, CountLeadingZerosOp, NegateOp, RsqrtOp, SignOp, SqrtOp, CbrtOp, TanhOp,
    RoundNearestAfzOp, RoundNearestEvenOp,
)  # fmt: skip


# --------------------------------------------------------------------------------------
# Binary element-wise ops with XLA broadcasting
# --------------------------------------------------------------------------------------


class BinaryElementwiseOp(XlaOp):
    """lhs op rhs element by element, both of element type T; shapes broadcast by
    broadcasting.md (scalars freely, other ranks through broadcast_dimensions,
    degenerate dimensions of equal-rank operands)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())

    ALLOWED: ClassVar[ElementCategory] = NUMERIC

    def result_element_type(self) -> Attribute:
        return elem_of(self.lhs.type)

    def infer_result_types(self) -> list[Attribute]:
        shape = broadcast_shapes(shape_of(self.lhs.type), shape_of(self.rhs.type), self.get_broadcast_dimensions())
        return [tensor(shape, self.result_element_type())]

    def verify_xla(self) -> None:
        lt, rt = elem_of(self.lhs.type), elem_of(self.rhs.type)
        if lt != rt:
            raise VerifyException(f"operands must have the same element type, got {lt} and {rt}")
        _check_elements(self, lt, type(self).ALLOWED, "operand")


def _binary(name: str, allowed: ElementCategory, doc: str) -> type[BinaryElementwiseOp]:
    cls_name = "".join(p.capitalize() for p in name.split("_")) + "Op"
    body = {"name": f"xla.{name}", "ALLOWED": allowed, "__doc__": doc, "__annotations__": _ALLOWED_ANNOTATION}
    return irdl_op_definition(type(cls_name, (BinaryElementwiseOp,), body))


# One row per binary op of the spec (+ those JAX emits).
AddOp = _binary("add", NUMERIC_OR_PRED, "Add: lhs + rhs (logical or on PRED).")
SubtractOp = _binary("subtract", NUMERIC, "Sub: lhs - rhs.")
MultiplyOp = _binary("multiply", NUMERIC_OR_PRED, "Mul: lhs * rhs (logical and on PRED).")
DivideOp = _binary("divide", NUMERIC, "Div: lhs / rhs; integer division by zero gives a defined value.")
RemainderOp = _binary("remainder", INTEGER_OR_FLOAT, "Rem: the result takes the dividend's sign and |result| < |divisor|.")
MaximumOp = _binary("maximum", NUMERIC_OR_PRED, "Max: the larger of lhs and rhs.")
MinimumOp = _binary("minimum", NUMERIC_OR_PRED, "Min: the smaller of lhs and rhs.")
PowerOp = _binary("power", NUMERIC, "Pow: lhs ** rhs.")
Atan2Op = _binary("atan2", FLOAT_OR_COMPLEX, "Atan2: atan(lhs / rhs) in the quadrant of (rhs, lhs).")
AndOp = _binary("and", PRED_OR_INTEGER, "LogicalAnd: logical on PRED, bitwise on integers.")
OrOp = _binary("or", PRED_OR_INTEGER, "LogicalOr: logical on PRED, bitwise on integers.")
XorOp = _binary("xor", PRED_OR_INTEGER, "Xor: logical on PRED, bitwise on integers.")
ShiftLeftOp = _binary("shift_left", INTEGER, "ShiftLeft: lhs << rhs; shifts of the bit width or more give 0.")
ShiftRightLogicalOp = _binary("shift_right_logical", INTEGER, "ShiftRightLogical: lhs >> rhs filling with zeros.")
ShiftRightArithmeticOp = _binary("shift_right_arithmetic", INTEGER, "ShiftRightArithmetic: lhs >> rhs filling with the sign bit.")

BINARY_OPS: tuple[type[BinaryElementwiseOp], ...] = (
    AddOp, SubtractOp, MultiplyOp, DivideOp, RemainderOp, MaximumOp, MinimumOp, PowerOp,
    Atan2Op, AndOp, OrOp, XorOp, ShiftLeftOp, ShiftRightLogicalOp, ShiftRightArithmeticOp,
)  # fmt: skip


# --------------------------------------------------------------------------------------
# Compare
# --------------------------------------------------------------------------------------


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    name = "xla.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "xla.comparison_type"


def default_compare_type(t: Attribute) -> ComparisonType:
    """FLOAT for floats and complex numbers, UNSIGNED for PRED and unsigned integers,
    SIGNED otherwise (XLA's default)."""
    if is_float(t) or is_complex(t):
        return ComparisonType.FLOAT
    if is_pred(t) or is_unsigned(t):
        return ComparisonType.UNSIGNED
    return ComparisonType.SIGNED


@irdl_op_definition
class CompareOp(BinaryElementwiseOp):
    """Compare: lhs <direction> rhs element by element into PRED, with the operands'
    broadcasting; TOTALORDER orders -NaN < -Inf < -finite < -0 < +0 < +finite < +Inf < +NaN.
    The compare type must suit the element type, and complex numbers only compare EQ/NE."""

    name = "xla.compare"
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    ALLOWED: ClassVar[ElementCategory] = ANY

    def result_element_type(self) -> Attribute:
        return i1

    def verify_xla(self) -> None:
        super().verify_xla()
        t = elem_of(self.lhs.type)
        direction = self.comparison_direction.data
        if is_complex(t) and direction not in (ComparisonDirection.EQ, ComparisonDirection.NE):
            raise VerifyException(
                f"complex operands ({t}) only compare EQ or NE, not {direction.value}"
            )
        if self.compare_type is None:
            return
        ct = self.compare_type.data
        allowed = {
            ComparisonType.FLOAT: is_float(t) or is_complex(t),
            ComparisonType.TOTALORDER: is_float(t),
            ComparisonType.SIGNED: is_integer(t) and not is_unsigned(t),
            ComparisonType.UNSIGNED: is_pred(t) or is_unsigned(t),
        }[ct]
        if not allowed:
            raise VerifyException(
                f"compare_type {ct.value} does not suit element type {t}; expected "
                f"{default_compare_type(t).value}"
            )


# --------------------------------------------------------------------------------------
# Constant, iota
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(XlaOp):
    """ConstantLiteral: a literal array; the result type is the value's type.

        %c = xla.constant dense<[1.0, 2.0]> : tensor<2xf32>
    """

    name = "xla.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def verify_xla(self) -> None:
        vt = self.value.get_type()
        if vt != self.output.type:
            raise VerifyException(
                f"value type {vt} does not match result type {self.output.type}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attrs = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute", pos, parser.pos)
        return cls.build(properties={"value": value}, result_types=[value.get_type()], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)


@irdl_op_definition
class IotaOp(XlaOp):
    """Iota: the result counts 0, 1, 2, ... along iota_dimension, which must be a
    dimension of the result (floats are converted integer iotas)."""

    name = "xla.iota"
    iota_dimension = prop_def(IntegerAttr.constr(type=i64))
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        t = self.output.type
        _check_elements(self, elem_of(t), NUMERIC, "result")
        check_iota(shape_of(t), self.get_iota_dimension())


# --------------------------------------------------------------------------------------
# Select, clamp
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SelectOp(XlaOp):
    """Select: on_true where pred, else on_false; pred is PRED, a scalar or of the
    operands' shape; on_true and on_false have one type, the result's."""

    name = "xla.select"
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = select_shape(
            shape_of(self.pred.type), shape_of(self.on_true.type), shape_of(self.on_false.type)
        )
        return [tensor(shape, elem_of(self.on_true.type))]

    def verify_xla(self) -> None:
        if not is_pred(elem_of(self.pred.type)):
            raise VerifyException(f"pred must have element type i1 (PRED), got {self.pred.type}")
        if elem_of(self.on_true.type) != elem_of(self.on_false.type):
            raise VerifyException(
                f"on_true {self.on_true.type} and on_false {self.on_false.type} must have "
                "the same element type"
            )


@irdl_op_definition
class ClampOp(XlaOp):
    """Clamp: min(max(operand, min), max); min and max are scalars or of the operand's
    shape, and all three share the element type."""

    name = "xla.clamp"
    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = clamp_shape(
            shape_of(self.min.type), shape_of(self.operand.type), shape_of(self.max.type)
        )
        return [tensor(shape, elem_of(self.operand.type))]

    def verify_xla(self) -> None:
        t = elem_of(self.operand.type)
        for name, v in (("min", self.min), ("max", self.max)):
            if elem_of(v.type) != t:
                raise VerifyException(
                    f"{name} element type {elem_of(v.type)} differs from the operand's {t}"
                )
        _check_elements(self, t, INTEGER_OR_FLOAT, "operand")


# --------------------------------------------------------------------------------------
# Conversions
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConvertOp(XlaOp):
    """ConvertElementType: element-wise conversion to another element type of the same
    shape (round to nearest even; float to integer saturates, NaN becomes 0)."""

    name = "xla.convert"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        if shape_of(self.operand.type) != shape_of(self.result.type):
            raise VerifyException(
                f"result type {self.result.type} must have the shape of operand type "
                f"{self.operand.type}"
            )
        if is_complex(elem_of(self.operand.type)) and not is_complex(elem_of(self.result.type)):
            raise VerifyException(
                "complex to real conversion is not defined; use xla.real or xla.imag"
            )


@irdl_op_definition
class BitcastConvertOp(XlaOp):
    """BitcastConvertType: reinterprets the bits; B-bit to B'-bit elements with B > B'
    appends a minor dimension of size B/B', with B < B' drops one of size B'/B."""

    name = "xla.bitcast_convert"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        it, ot = elem_of(self.operand.type), elem_of(self.result.type)
        if is_pred(it) or is_pred(ot):
            raise VerifyException("bitcast_convert does not apply to PRED")
        expected = bitcast_convert_shape(shape_of(self.operand.type), bit_width(it), bit_width(ot))
        if tuple(expected) != shape_of(self.result.type):
            raise VerifyException(
                f"inferred result shape {list(expected)} does not match declared "
                f"{self.result.type}"
            )


@irdl_op_definition
class ReducePrecisionOp(XlaOp):
    """ReducePrecision: rounds floats to exponent_bits (>= 1) and mantissa_bits (>= 0)
    of precision; the result has the operand's type."""

    name = "xla.reduce_precision"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr.constr(type=i64))
    mantissa_bits = prop_def(IntegerAttr.constr(type=i64))
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        _check_elements(self, elem_of(self.operand.type), FLOAT, "operand")
        check_reduce_precision(self.get_exponent_bits(), self.get_mantissa_bits())


ELEMENTWISE_OPS = (
    *UNARY_OPS,
    *BINARY_OPS,
    CompareOp,
    ConstantOp,
    IotaOp,
    SelectOp,
    ClampOp,
    ConvertOp,
    BitcastConvertOp,
    ReducePrecisionOp,
)
ELEMENTWISE_ATTRS = (ComparisonDirectionAttr, ComparisonTypeAttr)

