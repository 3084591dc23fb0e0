"""convert-stablehlo-to-xla: Shape ops: reshape, broadcast, transpose, slices, padding, concatenation, tuples."""

from __future__ import annotations

from xla_opt.dialects.xla import shape_ops as xs

from .common import (
    ARR,
    INT,
    Patterns,
    i64_array,
    i64_attr,
    int_of,
    ints,
    one_to_one,
    prop,
    props_rule,
    result_types,
)

PATTERNS = Patterns()

PATTERNS.append(one_to_one({"reshape": xs.ReshapeOp}))


@PATTERNS.rule("stablehlo.tuple")
def _tuple(op, b):
    return b.build(xs.TupleOp, [list(op.operands)], result_types(op)).results


@PATTERNS.rule("stablehlo.optimization_barrier")
def _optimization_barrier(op, b):
    return b.build(xs.OptimizationBarrierOp, [list(op.operands)], result_types(op)).results


PATTERNS.add("stablehlo.broadcast_in_dim", props_rule(
    xs.BroadcastInDimOp, broadcast_dimensions=("broadcast_dimensions", ARR)
))
PATTERNS.add("stablehlo.broadcast", props_rule(xs.BroadcastOp, broadcast_sizes=("broadcast_sizes", ARR)))
PATTERNS.add("stablehlo.transpose", props_rule(xs.TransposeOp, permutation=("permutation", ARR)))
PATTERNS.add("stablehlo.reverse", props_rule(xs.ReverseOp, dimensions=("dimensions", ARR)))
PATTERNS.add("stablehlo.slice", props_rule(
    xs.SliceOp,
    start_indices=("start_indices", ARR),
    limit_indices=("limit_indices", ARR),
    strides=("strides", ARR),
))
PATTERNS.add("stablehlo.pad", props_rule(
    xs.PadOp,
    edge_padding_low=("edge_padding_low", ARR),
    edge_padding_high=("edge_padding_high", ARR),
    interior_padding=("interior_padding", ARR),
))
PATTERNS.add("stablehlo.get_dimension_size", props_rule(xs.GetDimensionSizeOp, dimension=("dimension", INT)))
PATTERNS.add("stablehlo.get_tuple_element", props_rule(xs.GetTupleElementOp, index=("index", INT)))


@PATTERNS.rule("stablehlo.dynamic_slice")
def _dynamic_slice(op, b):
    x, *starts = op.operands
    props = {"slice_sizes": i64_array(ints(prop(op, "slice_sizes")))}
    return b.build(xs.DynamicSliceOp, [x, starts], result_types(op), props).results


@PATTERNS.rule("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(op, b):
    x, update, *starts = op.operands
    return b.build(xs.DynamicUpdateSliceOp, [x, update, starts], result_types(op)).results


@PATTERNS.rule("stablehlo.concatenate")
def _concatenate(op, b):
    props = {"dimension": i64_attr(int_of(prop(op, "dimension")))}
    return b.build(xs.ConcatenateOp, [list(op.operands)], result_types(op), props).results
