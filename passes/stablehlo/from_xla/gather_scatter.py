"""StableHLO export: gather and scatter."""

from __future__ import annotations

from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import ints

from .common import Emitter, bool_text, handles, i64_array, int_list, types_text


@handles(xla.GatherOp)
def _gather(e: Emitter, op: xla.GatherOp) -> None:
    numbers = (
        "#stablehlo.gather<"
        + ", ".join(
            [
                f"offset_dims = {int_list(ints(op.offset_dims))}",
                f"collapsed_slice_dims = {int_list(ints(op.collapsed_slice_dims))}",
                f"start_index_map = {int_list(ints(op.start_index_map))}",
                f"index_vector_dim = {op.index_vector_dim.value.data}",
            ]
        )
        + ">"
    )
    sorted_ = bool(op.indices_are_sorted.value.data) if op.indices_are_sorted is not None else False
    e.simple(
        op,
        "stablehlo.gather",
        {
            "dimension_numbers": numbers,
            "slice_sizes": i64_array(ints(op.slice_sizes)),
            "indices_are_sorted": bool_text(sorted_),
        },
    )


@handles(xla.ScatterOp)
def _scatter(e: Emitter, op: xla.ScatterOp) -> None:
    numbers = (
        "#stablehlo.scatter<"
        + ", ".join(
            [
                f"update_window_dims = {int_list(ints(op.update_window_dims))}",
                f"inserted_window_dims = {int_list(ints(op.inserted_window_dims))}",
                f"scatter_dims_to_operand_dims = {int_list(ints(op.scatter_dims_to_operand_dims))}",
                f"index_vector_dim = {op.index_vector_dim.value.data}",
            ]
        )
        + ">"
    )

    def flag(attr) -> str:
        return bool_text(bool(attr.value.data) if attr is not None else False)

    operands = [*op.inputs, op.scatter_indices, *op.updates]
    results = e.op(
        "stablehlo.scatter",
        [e.name(v) for v in operands],
        types_text(operands),
        types_text(op.results),
        {
            "scatter_dimension_numbers": numbers,
            "indices_are_sorted": flag(op.indices_are_sorted),
            "unique_indices": flag(op.unique_indices),
        },
        e.regions_of(op.update_computation),
    )
    e.bind(op, results)
