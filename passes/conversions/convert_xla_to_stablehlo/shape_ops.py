"""convert-xla-to-stablehlo: broadcasts, reshapes (a collapse order as a transpose first),
concatenate, slices, padding, tuples."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xla_opt.dialects.xla import shape_ops as sh
from xla_opt.dialects.xla.element_types import elem_of, shape_of

from .common import (
    Builder,
    Patterns,
    Unsupported,
    i32_attr,
    i64_array,
    i64_attr,
    renamed,
    same_properties,
)

PATTERNS = Patterns()

PATTERNS.append(
    same_properties(
        {
            sh.TransposeOp: ("transpose", ("permutation",)),
            sh.ReverseOp: ("reverse", ("dimensions",)),
            sh.SliceOp: ("slice", ("start_indices", "limit_indices", "strides")),
            sh.DynamicSliceOp: ("dynamic_slice", ("slice_sizes",)),
            sh.PadOp: ("pad", ("edge_padding_low", "edge_padding_high", "interior_padding")),
            sh.BroadcastInDimOp: ("broadcast_in_dim", ("broadcast_dimensions",)),
        }
    )
)
PATTERNS.append(
    renamed(
        {
            sh.DynamicUpdateSliceOp: "dynamic_update_slice",
            sh.TupleOp: "tuple",
            sh.OptimizationBarrierOp: "optimization_barrier",
        }
    )
)
PATTERNS.append(Unsupported({sh.SetDimensionSizeOp.name: "gives a static shape a dynamic size"}))


@PATTERNS.rule(sh.BroadcastOp)
def _broadcast(op: sh.BroadcastOp, b: Builder) -> Sequence[SSAValue]:
    """New leading dimensions: the operand's dimensions are the last ones."""
    n, rank = len(op.get_broadcast_sizes()), len(shape_of(op.operand.type))
    return b.same("broadcast_in_dim", {"broadcast_dimensions": i64_array(range(n, n + rank))})


@PATTERNS.rule(sh.ReshapeOp, sh.CollapseOp)
def _reshape(op: Operation, b: Builder) -> Sequence[SSAValue]:
    """A reshape with `dimensions` (XLA's collapse order) transposes the operand to
    that order first."""
    source = op.operand  # type: ignore[attr-defined]
    dims = op.get_dimensions() if isinstance(op, sh.ReshapeOp) and op.dimensions else ()
    if dims and list(dims) != list(range(len(dims))):
        shape = shape_of(source.type)
        transposed = TensorType(elem_of(source.type), [shape[d] for d in dims])
        source = b.one("transpose", [source], transposed, {"permutation": i64_array(dims)})
        if transposed == op.results[0].type:
            return [source]
    return b.same("reshape", operands=[source])


@PATTERNS.rule(sh.ConcatenateOp)
def _concatenate(op: sh.ConcatenateOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("concatenate", {"dimension": i64_attr(op.get_dimension())})


@PATTERNS.rule(sh.GetDimensionSizeOp)
def _get_dimension_size(op: sh.GetDimensionSizeOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("get_dimension_size", {"dimension": i64_attr(op.get_dimension())})


@PATTERNS.rule(sh.GetTupleElementOp)
def _get_tuple_element(op: sh.GetTupleElementOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("get_tuple_element", {"index": i32_attr(op.get_index())})
