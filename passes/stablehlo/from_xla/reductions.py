"""StableHLO export: reduce, reduce_window, select_and_scatter, sort, map."""

from __future__ import annotations

from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import shape_of

from .common import (
    Emitter,
    bool_text,
    handles,
    i64_array,
    i64_attr,
    padding_attr,
    types_text,
)


@handles(xla.ReduceOp)
def _reduce(e: Emitter, op: xla.ReduceOp) -> None:
    results = e.op(
        "stablehlo.reduce",
        [e.name(v) for v in op.operands],
        types_text(op.operands),
        types_text(op.results),
        {"dimensions": i64_array(sorted(op.get_dimensions()))},
        e.regions_of(op.body),
    )
    e.bind(op, results)


def _optional_array(props: dict[str, str], key: str, values: tuple[int, ...] | None) -> None:
    if values is not None:
        props[key] = i64_array(values)


@handles(xla.ReduceWindowOp)
def _reduce_window(e: Emitter, op: xla.ReduceWindowOp) -> None:
    props = {"window_dimensions": i64_array(op.get_window_dimensions())}
    rank = len(op.get_window_dimensions())
    if rank:
        _optional_array(props, "window_strides", op.get_window_strides())
        _optional_array(props, "base_dilations", op.get_base_dilations())
        _optional_array(props, "window_dilations", op.get_window_dilations())
        if op.padding is not None:
            props["padding"] = padding_attr(op.get_padding())
    results = e.op(
        "stablehlo.reduce_window",
        [e.name(v) for v in op.operands],
        types_text(op.operands),
        types_text(op.results),
        props,
        e.regions_of(op.body),
    )
    e.bind(op, results)


@handles(xla.SelectAndScatterOp)
def _select_and_scatter(e: Emitter, op: xla.SelectAndScatterOp) -> None:
    props = {"window_dimensions": i64_array(op.get_window_dimensions())}
    if op.get_window_dimensions():
        _optional_array(props, "window_strides", op.get_window_strides())
        if op.padding is not None:
            props["padding"] = padding_attr(op.get_padding())
    results = e.op(
        "stablehlo.select_and_scatter",
        [e.name(v) for v in op.operands],
        types_text(op.operands),
        types_text(op.results),
        props,
        e.regions_of(op.select, op.scatter),
    )
    e.bind(op, results)


@handles(xla.SortOp)
def _sort(e: Emitter, op: xla.SortOp) -> None:
    rank = len(shape_of(op.inputs[0].type))
    dim = op.get_dimension() if op.dimension is not None else rank - 1
    if dim < 0:
        dim += rank
    stable = op.get_is_stable()
    results = e.op(
        "stablehlo.sort",
        [e.name(v) for v in op.inputs],
        types_text(op.inputs),
        types_text(op.results),
        {"dimension": i64_attr(dim), "is_stable": bool_text(stable)},
        e.regions_of(op.comparator),
    )
    e.bind(op, results)


@handles(xla.MapOp)
def _map(e: Emitter, op: xla.MapOp) -> None:
    results = e.op(
        "stablehlo.map",
        [e.name(v) for v in op.inputs],
        types_text(op.inputs),
        types_text(op.results),
        {"dimensions": i64_array(op.get_dimensions())},
        e.regions_of(op.computation),
    )
    e.bind(op, results)
