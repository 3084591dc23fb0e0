"""XLA's element types and the checks on them: the token type, the element-type
predicates (`is_float`, `is_unsigned`, ...), tensor shape helpers (`shape_of`,
`elem_of`, `tensor`) and the check that a type is one XLA has (`check_xla_type`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.utils.exceptions import VerifyException

# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!xla.token`: orders side-effecting ops (infeed, outfeed, send, recv, after_all)."""

    name = "xla.token"


# The 8-, 6- and 4-bit floats XLA has (F8E4M3FN, F4E2M1FN...): they are stored one per
# byte and computed in f32 (element-wise ops round once, dots accumulate in f32).
NARROW_FLOAT_TYPES = (
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E4M3Type,
    Float8E3M4Type,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E4M3B11FNUZType,
    Float8E8M0FNUType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float4E2M1FNType,
)

# Integer widths below a byte (XLA's S4/U4/S2/U2, used by quantized models).
NARROW_INT_WIDTHS = (2, 4)


def is_narrow_float(t: Attribute) -> bool:
    return isinstance(t, NARROW_FLOAT_TYPES)


def is_narrow_int(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data in NARROW_INT_WIDTHS


def is_narrow(t: Attribute) -> bool:
    """An element type narrower than a byte's worth of precision: i4/ui4/i2/ui2, the 8-,
    6- and 4-bit floats."""
    return is_narrow_float(t) or is_narrow_int(t)


def element_type_name(t: Attribute) -> str:
    """The spec's spelling of an element type (PRED, S32, U8, S4, F32, BF16, F8E4M3FN,
    C64...)."""
    if is_narrow_float(t):
        return t.name.upper()
    if isinstance(t, IntegerType):
        if t.width.data == 1:
            return "PRED"
        prefix = "U" if t.signedness.data == Signedness.UNSIGNED else "S"
        return f"{prefix}{t.width.data}"
    if isinstance(t, BFloat16Type):
        return "BF16"
    if isinstance(t, Float16Type | Float32Type | Float64Type):
        return f"F{t.bitwidth}"
    if isinstance(t, ComplexType):
        return f"C{2 * t.element_type.bitwidth}"  # type: ignore[union-attr]
    return str(t)


def is_pred(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def is_integer(t: Attribute) -> bool:
    """Signed, signless or unsigned integers of width > 1 (not PRED)."""
    return isinstance(t, IntegerType) and t.width.data > 1


def is_unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def is_complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType)


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    if isinstance(t, ComplexType):
        return 2 * t.element_type.bitwidth  # type: ignore[union-attr]
    raise ValueError(f"no bit width for {t}")


_VALID_INT_WIDTHS = (1, *NARROW_INT_WIDTHS, 8, 16, 32, 64)


def is_xla_element_type(t: Attribute) -> bool:
    """The element types of OPS.md: i1, (u)i2, (u)i4, (u)i8..64, f16, bf16, f32, f64,
    the 8-bit floats f8E4M3FN, f8E5M2, f8E4M3, f8E3M4, f8E4M3FNUZ, f8E5M2FNUZ,
    f8E4M3B11FNUZ, f8E8M0FNU, the micro-floats f6E2M3FN, f6E3M2FN, f4E2M1FN,
    complex<f32|f64>."""
    if isinstance(t, IntegerType):
        w, s = t.width.data, t.signedness.data
        if w == 1:
            return s == Signedness.SIGNLESS
        return w in _VALID_INT_WIDTHS and s in (Signedness.SIGNLESS, Signedness.UNSIGNED)
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type) or is_narrow_float(t):
        return True
    if isinstance(t, ComplexType):
        return isinstance(t.element_type, Float32Type | Float64Type)
    return False


def is_static_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())


def shape_of(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def elem_of(t: Attribute) -> Attribute:
    assert isinstance(t, TensorType)
    return t.get_element_type()


def tensor(shape: Sequence[int], element_type: Attribute) -> TensorType:
    return TensorType(element_type, list(shape))


def same_element_type(**operands: Attribute) -> Attribute:
    """The element type shared by the named operand types."""
    (first_name, first), *rest = operands.items()
    for name, t in rest:
        if elem_of(t) != elem_of(first):
            raise VerifyException(
                f"{first_name} {first} and {name} {t} must have the same element type"
            )
    return elem_of(first)


def check_xla_type(t: Attribute, what: str, allow_token: bool = False) -> None:
    """Operands and results are static tensors of an XLA element type, tuples, tokens."""
    if isinstance(t, TokenType):
        if allow_token:
            return
        raise VerifyException(f"{what} cannot be a token")
    if isinstance(t, TupleType):
        for i, e in enumerate(t.types.data):
            check_xla_type(e, f"{what} tuple element {i}", allow_token=True)
        return
    if not isinstance(t, TensorType):
        raise VerifyException(f"{what} must be a tensor, tuple or token, got {t}")
    if not is_static_tensor(t):
        raise VerifyException(f"{what} must have a static shape, got {t}")
    if not is_xla_element_type(t.get_element_type()):
        raise VerifyException(
            f"{what} has element type {t.get_element_type()}, which is not an XLA "
            "element type (i1, i2-i64, ui2-ui64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, "
            "f8E4M3, f8E3M4, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E8M0FNU, f6E2M3FN, "
            "f6E3M2FN, f4E2M1FN, complex<f32>, complex<f64>)"
        )


