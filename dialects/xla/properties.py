"""Property values: building them (`i64_array`, `i64_matrix`) and reading them as
plain Python values (`property_value`, behind every op's generated `get_<prop>()`
accessor; `verified_int_matrix` for matrices a verifier must check first)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
)
from xdsl.utils.exceptions import VerifyException

# --------------------------------------------------------------------------------------
# Property values in the pretty form
# --------------------------------------------------------------------------------------


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i64_matrix(rows: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """A rank-2 i64 elements attribute: padding pairs, replica groups, source-target pairs."""
    rows = [list(map(int, r)) for r in rows]
    ncols = len(rows[0]) if rows else 0
    if any(len(r) != ncols for r in rows):
        raise ValueError("rows of an integer matrix must have the same length")
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(rows), ncols]), [v for r in rows for v in r]
    )


def ints(attr: Attribute | None) -> tuple[int, ...]:
    """The integers of an i64 array property (empty when absent)."""
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(int(a.value.data) for a in attr.data)  # type: ignore[attr-defined]
    raise TypeError(f"not an integer array: {attr}")


def int_matrix(attr: Attribute | None) -> list[tuple[int, ...]]:
    """The rows of an i64 matrix property (empty when absent)."""
    if attr is None:
        return []
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    shape = attr.get_shape() or ()
    values = [int(v) for v in attr.get_values()]
    if len(shape) != 2:
        return [tuple(values)]
    n = shape[1]
    return [tuple(values[i * n : (i + 1) * n]) for i in range(shape[0])]


def verified_int_matrix(attr: DenseIntOrFPElementsAttr, name: str) -> list[tuple[int, ...]]:
    """The rows of an integer-matrix property (padding, replica_groups,
    source_target_pairs) after checking that it is one: a rank-2 i64 tensor. (What a
    row must hold, e.g. a [low, high] pair, the shape functions check.)"""
    if attr.get_element_type() != i64 or len(attr.get_shape() or ()) != 2:
        raise VerifyException(f"{name} must be a rank-2 i64 tensor, got {attr.get_type()}")
    return int_matrix(attr)


def property_value(attr: Attribute) -> Any:
    """A property as a plain Python value: integer arrays as tuples, i64 matrices as
    lists of row tuples, booleans, integers, floats, strings, enums as their spelling,
    symbols as their name; other attributes (dimension numbers...) as they are."""
    if isinstance(attr, DenseArrayBase | ArrayAttr):
        return ints(attr)
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.get_element_type(), IntegerType):
        return int_matrix(attr)
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        return bool(value) if attr.type == IntegerType(1) else value
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, EnumAttribute):
        return str(attr.data.value)
    if isinstance(attr, SymbolRefAttr):
        return attr.root_reference.data
    return attr


def property_accessor(name: str) -> Callable[[Any], Any]:
    """The generated `get_<name>()` of an op (see `XlaOp`)."""

    def get(self: Any) -> Any:
        attr = self.properties.get(name)
        if attr is None:
            default = type(self).PROPERTY_DEFAULTS.get(name)
            return default(self) if callable(default) else default
        return property_value(attr)

    get.__name__ = f"get_{name}"
    get.__doc__ = f"The `{name}` property as a plain Python value (the spec's default when absent)."
    return get


