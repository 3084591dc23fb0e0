"""convert-stablehlo-to-xla: Shape ops: reshape, broadcast, transpose, slices, padding, concatenation, tuples;
the dynamic-shape ops whose shape operands are constants, as their static forms."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs

from .common import (
    ARR,
    INT,
    Patterns,
    constant_ints,
    fail,
    i64_array,
    int_prop,
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


PATTERNS.add(
    "stablehlo.broadcast_in_dim", props_rule(xs.BroadcastInDimOp, broadcast_dimensions=("broadcast_dimensions", ARR))
)
PATTERNS.add("stablehlo.broadcast", props_rule(xs.BroadcastOp, broadcast_sizes=("broadcast_sizes", ARR)))
PATTERNS.add("stablehlo.transpose", props_rule(xs.TransposeOp, permutation=("permutation", ARR)))
PATTERNS.add("stablehlo.reverse", props_rule(xs.ReverseOp, dimensions=("dimensions", ARR)))
PATTERNS.add(
    "stablehlo.slice",
    props_rule(
        xs.SliceOp,
        start_indices=("start_indices", ARR),
        limit_indices=("limit_indices", ARR),
        strides=("strides", ARR),
    ),
)
PATTERNS.add(
    "stablehlo.pad",
    props_rule(
        xs.PadOp,
        edge_padding_low=("edge_padding_low", ARR),
        edge_padding_high=("edge_padding_high", ARR),
        interior_padding=("interior_padding", ARR),
    ),
)
PATTERNS.add("stablehlo.get_dimension_size", props_rule(xs.GetDimensionSizeOp, dimension=("dimension", INT)))
PATTERNS.add("stablehlo.set_dimension_size", props_rule(xs.SetDimensionSizeOp, dimension=("dimension", INT)))
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
    props = {"dimension": int_prop(op, "dimension")}
    return b.build(xs.ConcatenateOp, [list(op.operands)], result_types(op), props).results


# ---- dynamic-shape ops whose shape operands are constants: their static forms --------


def _static_result(op, shape_values: list[int] | None = None) -> None:
    result = op.results[0].type
    if not isinstance(result, TensorType) or any(d < 0 for d in result.get_shape()):
        fail(op, "the result type must be static (the shape operands are folded into it)")
    if shape_values is not None and shape_values != list(result.get_shape()):
        fail(op, f"the output shape {shape_values} does not match the result type {result}")


@PATTERNS.rule("stablehlo.dynamic_reshape")
def _dynamic_reshape(op, b):
    _static_result(op, constant_ints(op, op.operands[1], "the output shape"))
    return [b.one(xs.ReshapeOp, [op.operands[0]], op.results[0].type)]


@PATTERNS.rule("stablehlo.dynamic_broadcast_in_dim")
def _dynamic_broadcast_in_dim(op, b):
    _static_result(op, constant_ints(op, op.operands[1], "the output dimensions"))
    props = {"broadcast_dimensions": i64_array(ints(prop(op, "broadcast_dimensions")))}
    return [b.one(xs.BroadcastInDimOp, [op.operands[0]], op.results[0].type, props)]


@PATTERNS.rule("stablehlo.dynamic_iota")
def _dynamic_iota(op, b):
    _static_result(op, constant_ints(op, op.operands[0], "the output shape"))
    props = {"iota_dimension": int_prop(op, "iota_dimension")}
    return [b.one(xe.IotaOp, [], op.results[0].type, props)]


@PATTERNS.rule("stablehlo.real_dynamic_slice")
def _real_dynamic_slice(op, b):
    _static_result(op)
    starts, limits, strides = (
        constant_ints(op, v, what) for v, what in zip(op.operands[1:4], ("start_indices", "limit_indices", "strides"))
    )
    props = {"start_indices": i64_array(starts), "limit_indices": i64_array(limits), "strides": i64_array(strides)}
    return [b.one(xs.SliceOp, [op.operands[0]], op.results[0].type, props)]


@PATTERNS.rule("stablehlo.dynamic_pad")
def _dynamic_pad(op, b):
    _static_result(op)
    low, high, interior = (
        constant_ints(op, v, what)
        for v, what in zip(op.operands[2:5], ("edge_padding_low", "edge_padding_high", "interior_padding"))
    )
    props = {
        "edge_padding_low": i64_array(low),
        "edge_padding_high": i64_array(high),
        "interior_padding": i64_array(interior),
    }
    return [b.one(xs.PadOp, list(op.operands[:2]), op.results[0].type, props)]
