"""convert-stablehlo-to-xla: Ops with a reduction computation: reduce, reduce_window, select_and_scatter, sort, map."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import Attribute
from xla_opt.dialects import xla
from xla_opt.dialects.xla.properties import i64_matrix

from .common import (
    Patterns,
    bool_of,
    check_isolated,
    i64_array,
    i64_attr,
    int_of,
    ints,
    matrix,
    prop,
    result_types,
    shape,
    take_regions,
)

PATTERNS = Patterns()


@PATTERNS.rule("stablehlo.reduce")
def _reduce(op, b):
    n = len(op.operands) // 2
    props = {"dimensions": i64_array(ints(prop(op, "dimensions")))}
    check_isolated(op)
    return b.build(
        xla.ReduceOp, [list(op.operands[:n]), list(op.operands[n:])], result_types(op), props, take_regions(op)
    ).results


@PATTERNS.rule("stablehlo.reduce_window")
def _reduce_window(op, b):
    n = len(op.operands) // 2
    props: dict[str, Attribute | None] = {
        "window_dimensions": i64_array(ints(prop(op, "window_dimensions"))),
    }
    for name in ("window_strides", "base_dilations", "window_dilations"):
        if prop(op, name) is not None:
            props[name] = i64_array(ints(prop(op, name)))
    if prop(op, "padding") is not None:
        props["padding"] = i64_matrix(matrix(prop(op, "padding"), 2))
    check_isolated(op)
    return b.build(
        xla.ReduceWindowOp, [list(op.operands[:n]), list(op.operands[n:])], result_types(op), props, take_regions(op)
    ).results


@PATTERNS.rule("stablehlo.select_and_scatter")
def _select_and_scatter(op, b):
    props: dict[str, Attribute | None] = {
        "window_dimensions": i64_array(ints(prop(op, "window_dimensions"))),
    }
    if prop(op, "window_strides") is not None:
        props["window_strides"] = i64_array(ints(prop(op, "window_strides")))
    if prop(op, "padding") is not None:
        props["padding"] = i64_matrix(matrix(prop(op, "padding"), 2))
    check_isolated(op)
    return b.build(xla.SelectAndScatterOp, op.operands, result_types(op), props, take_regions(op)).results


@PATTERNS.rule("stablehlo.sort")
def _sort(op, b):
    dim = int_of(prop(op, "dimension"), -1)
    if dim < 0:
        dim += len(shape(op.operands[0]))
    props = {"dimension": i64_attr(dim)}
    if prop(op, "is_stable") is not None:
        props["is_stable"] = BoolAttr.from_bool(bool_of(prop(op, "is_stable")))
    check_isolated(op)
    return b.build(xla.SortOp, [list(op.operands)], result_types(op), props, take_regions(op)).results


@PATTERNS.rule("stablehlo.map")
def _map(op, b):
    props = {"dimensions": i64_array(ints(prop(op, "dimensions")))}
    check_isolated(op)
    return b.build(xla.MapOp, [list(op.operands)], result_types(op), props, take_regions(op)).results
