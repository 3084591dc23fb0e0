"""convert-xla-to-stablehlo: reduce, reduce_window, select_and_scatter, sort, map (their
computations move into the StableHLO op as they are: xla.return became stablehlo.return)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import shape_of

from .common import (
    Builder,
    Patterns,
    bool_attr,
    i64_array,
    i64_attr,
    padding_attr,
    result_types,
)

PATTERNS = Patterns()


def with_regions(b: Builder, name: str, props: dict[str, Attribute | None], *regions: Region) -> Sequence[SSAValue]:
    """The converted op as `stablehlo.<name>` of the same operands, taking its regions."""
    op: Operation = b.converted
    moved = [op.detach_region(r) for r in regions]
    return b.op(name, op.operands, result_types(op), props, moved).results


@PATTERNS.rule(xla.ReduceOp)
def _reduce(op: xla.ReduceOp, b: Builder) -> Sequence[SSAValue]:
    return with_regions(b, "reduce", {"dimensions": i64_array(sorted(op.get_dimensions()))}, op.body)


def window_props(op: xla.ReduceWindowOp | xla.SelectAndScatterOp, keys: Sequence[str]) -> dict[str, Attribute | None]:
    """window_dimensions, and the other window attributes given (none for a rank-0 window)."""
    props: dict[str, Attribute | None] = {"window_dimensions": i64_array(op.get_window_dimensions())}
    if op.get_window_dimensions():
        for key in keys:
            value = getattr(op, f"get_{key}")()
            props[key] = i64_array(value) if value is not None else None
        if op.padding is not None:
            props["padding"] = padding_attr(op.get_padding())
    return props


@PATTERNS.rule(xla.ReduceWindowOp)
def _reduce_window(op: xla.ReduceWindowOp, b: Builder) -> Sequence[SSAValue]:
    props = window_props(op, ("window_strides", "base_dilations", "window_dilations"))
    return with_regions(b, "reduce_window", props, op.body)


@PATTERNS.rule(xla.SelectAndScatterOp)
def _select_and_scatter(op: xla.SelectAndScatterOp, b: Builder) -> Sequence[SSAValue]:
    return with_regions(b, "select_and_scatter", window_props(op, ("window_strides",)), op.select, op.scatter)


@PATTERNS.rule(xla.SortOp)
def _sort(op: xla.SortOp, b: Builder) -> Sequence[SSAValue]:
    rank = len(shape_of(op.inputs[0].type))
    dim = op.get_dimension() if op.dimension is not None else rank - 1
    if dim < 0:
        dim += rank
    props = {"dimension": i64_attr(dim), "is_stable": bool_attr(op.get_is_stable())}
    return with_regions(b, "sort", props, op.comparator)


@PATTERNS.rule(xla.MapOp)
def _map(op: xla.MapOp, b: Builder) -> Sequence[SSAValue]:
    return with_regions(b, "map", {"dimensions": i64_array(op.get_dimensions())}, op.computation)
