"""convert-xla-to-stablehlo: element-wise ops (tables of unary and binary ops, the binary
ones with XLA's implicit broadcasts as explicit `stablehlo.broadcast_in_dim` operands),
compare, constants, iota, reduce_precision."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.element_types import elem_of

from .common import Builder, ByTable, Patterns, enum_attr, i32_attr, i64_attr, renamed

PATTERNS = Patterns()

# xla.<name> -> stablehlo.<name>: the same operands and results
PATTERNS.append(
    renamed(
        {
            **{cls: cls.name.removeprefix("xla.") for cls in ew.UNARY_OPS},
            ew.SelectOp: "select",
            ew.ClampOp: "clamp",
            ew.ConvertOp: "convert",
            ew.BitcastConvertOp: "bitcast_convert",
        }
    )
)


def broadcast_operands(op: ew.BinaryElementwiseOp, b: Builder) -> list[SSAValue]:
    """XLA's element-wise broadcast (a scalar, `broadcast_dimensions`, degenerate
    dimensions) made explicit: both operands at the result's shape."""
    result, dims = op.result.type, op.get_broadcast_dimensions()
    return [b.broadcast_to(op.lhs, result, dims), b.broadcast_to(op.rhs, result, dims)]


def _binary(op: ew.BinaryElementwiseOp, b: Builder, name: str) -> Sequence[SSAValue]:
    return b.same(name, operands=broadcast_operands(op, b))


PATTERNS.append(ByTable({cls: cls.name.removeprefix("xla.") for cls in ew.BINARY_OPS}, _binary))


@PATTERNS.rule(ew.CompareOp)
def _compare(op: ew.CompareOp, b: Builder) -> Sequence[SSAValue]:
    compare_type = op.compare_type.data if op.compare_type is not None else None
    compare_type = compare_type or ew.default_compare_type(elem_of(op.lhs.type))
    props = {
        "comparison_direction": enum_attr("comparison_direction", op.get_comparison_direction()),
        "compare_type": enum_attr("comparison_type", compare_type.value),
    }
    return b.same("compare", props, broadcast_operands(op, b))


@PATTERNS.rule(ew.ConstantOp)
def _constant(op: ew.ConstantOp, b: Builder) -> Sequence[SSAValue]:
    return [b.constant(op.value)]


@PATTERNS.rule(ew.IotaOp)
def _iota(op: ew.IotaOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("iota", {"iota_dimension": i64_attr(op.get_iota_dimension())})


@PATTERNS.rule(ew.ReducePrecisionOp)
def _reduce_precision(op: ew.ReducePrecisionOp, b: Builder) -> Sequence[SSAValue]:
    props = {"exponent_bits": i32_attr(op.get_exponent_bits()), "mantissa_bits": i32_attr(op.get_mantissa_bits())}
    return b.same("reduce_precision", props)
