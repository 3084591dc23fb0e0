"""StableHLO export: broadcasts, reshapes (collapse orders as a transpose), concatenate, slices,
padding, tuples."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xla_opt.dialects.xla import shape_ops as sh
from xla_opt.dialects.xla.base import elem_of, shape_of

from .common import (
    UNSUPPORTED,
    Emitter,
    handles,
    i64_array,
    i64_attr,
    same_properties,
    type_text,
    types_text,
)

same_properties(
    {
        sh.TransposeOp: ("stablehlo.transpose", ('permutation',)),
        sh.ReverseOp: ("stablehlo.reverse", ('dimensions',)),
        sh.SliceOp: ("stablehlo.slice", ('start_indices', 'limit_indices', 'strides')),
        sh.DynamicSliceOp: ("stablehlo.dynamic_slice", ('slice_sizes',)),
        sh.DynamicUpdateSliceOp: ("stablehlo.dynamic_update_slice", ()),
        sh.PadOp: ("stablehlo.pad", ('edge_padding_low', 'edge_padding_high', 'interior_padding')),
        sh.TupleOp: ("stablehlo.tuple", ()),
        sh.OptimizationBarrierOp: ("stablehlo.optimization_barrier", ()),
    }
)

UNSUPPORTED.update(
    {
        sh.SetDimensionSizeOp.name: "gives a static shape a dynamic size",
    }
)


@handles(sh.BroadcastOp)
def _broadcast(e: Emitter, op: sh.BroadcastOp) -> None:
    n, rank = len(op.get_broadcast_sizes()), len(shape_of(op.operand.type))
    e.simple(
        op, "stablehlo.broadcast_in_dim", {"broadcast_dimensions": i64_array(range(n, n + rank))}
    )


@handles(sh.BroadcastInDimOp)
def _broadcast_in_dim(e: Emitter, op: sh.BroadcastInDimOp) -> None:
    e.simple(
        op,
        "stablehlo.broadcast_in_dim",
        {"broadcast_dimensions": i64_array(op.get_broadcast_dimensions())},
    )


@handles(sh.ReshapeOp, sh.CollapseOp)
def _reshape(e: Emitter, op: Operation) -> None:
    operand = op.operand  # type: ignore[attr-defined]
    source = e.name(operand)
    dims = op.get_dimensions() if isinstance(op, sh.ReshapeOp) and op.dimensions else ()
    if dims and list(dims) != list(range(len(dims))):
        shape = shape_of(operand.type)
        transposed = TensorType(elem_of(operand.type), [shape[d] for d in dims])
        source = e.op(
            "stablehlo.transpose",
            [source],
            [type_text(operand.type)],
            [type_text(transposed)],
            {"permutation": i64_array(dims)},
        )[0]
        in_type = type_text(transposed)
        if transposed == op.results[0].type:
            return e.bind(op, [source])
    else:
        in_type = type_text(operand.type)
    e.bind(op, e.op("stablehlo.reshape", [source], [in_type], types_text(op.results)))


@handles(sh.ConcatenateOp)
def _concatenate(e: Emitter, op: sh.ConcatenateOp) -> None:
    e.simple(op, "stablehlo.concatenate", {"dimension": i64_attr(op.get_dimension())})


@handles(sh.GetDimensionSizeOp)
def _get_dimension_size(e: Emitter, op: sh.GetDimensionSizeOp) -> None:
    e.simple(op, "stablehlo.get_dimension_size", {"dimension": i64_attr(op.get_dimension())})


@handles(sh.GetTupleElementOp)
def _get_tuple_element(e: Emitter, op: sh.GetTupleElementOp) -> None:
    e.simple(op, "stablehlo.get_tuple_element", {"index": f"{op.get_index()} : i32"})
