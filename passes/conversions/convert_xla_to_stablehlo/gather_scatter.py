"""convert-xla-to-stablehlo: gather and scatter (`#stablehlo.gather<...>`,
`#stablehlo.scatter<...>` dimension numbers)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import (
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
)

from .common import Builder, Patterns, bool_attr, i64_array, i64_attr, result_types

PATTERNS = Patterns()


@PATTERNS.rule(xla.GatherOp)
def _gather(op: xla.GatherOp, b: Builder) -> Sequence[SSAValue]:
    numbers = GatherDimensionNumbersAttr.from_fields(
        offset_dims=i64_array(op.get_offset_dims()),
        collapsed_slice_dims=i64_array(op.get_collapsed_slice_dims()),
        start_index_map=i64_array(op.get_start_index_map()),
        index_vector_dim=i64_attr(op.get_index_vector_dim()),
    )
    props = {
        "dimension_numbers": numbers,
        "slice_sizes": i64_array(op.get_slice_sizes()),
        "indices_are_sorted": bool_attr(op.get_indices_are_sorted()),
    }
    return b.same("gather", props)


@PATTERNS.rule(xla.ScatterOp)
def _scatter(op: xla.ScatterOp, b: Builder) -> Sequence[SSAValue]:
    numbers = ScatterDimensionNumbersAttr.from_fields(
        update_window_dims=i64_array(op.get_update_window_dims()),
        inserted_window_dims=i64_array(op.get_inserted_window_dims()),
        scatter_dims_to_operand_dims=i64_array(op.get_scatter_dims_to_operand_dims()),
        index_vector_dim=i64_attr(op.get_index_vector_dim()),
    )
    props = {
        "scatter_dimension_numbers": numbers,
        "indices_are_sorted": bool_attr(op.get_indices_are_sorted()),
        "unique_indices": bool_attr(op.get_unique_indices()),
    }
    operands = [*op.inputs, op.scatter_indices, *op.updates]
    region = op.detach_region(op.update_computation)
    return b.op("scatter", operands, result_types(op), props, [region]).results
