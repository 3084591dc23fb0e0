"""StableHLO export: gather and scatter."""

from __future__ import annotations

from xla_opt.dialects import xla

from .common import Emitter, bool_text, handles, i64_array, int_list, types_text


@handles(xla.GatherOp)
def _gather(e: Emitter, op: xla.GatherOp) -> None:
    numbers = (
        "#stablehlo.gather<"
        + ", ".join(
            [
                f"offset_dims = {int_list(op.get_offset_dims())}",
                f"collapsed_slice_dims = {int_list(op.get_collapsed_slice_dims())}",
                f"start_index_map = {int_list(op.get_start_index_map())}",
                f"index_vector_dim = {op.get_index_vector_dim()}",
            ]
        )
        + ">"
    )
    sorted_ = op.get_indices_are_sorted()
    e.simple(
        op,
        "stablehlo.gather",
        {
            "dimension_numbers": numbers,
            "slice_sizes": i64_array(op.get_slice_sizes()),
            "indices_are_sorted": bool_text(sorted_),
        },
    )


@handles(xla.ScatterOp)
def _scatter(e: Emitter, op: xla.ScatterOp) -> None:
    numbers = (
        "#stablehlo.scatter<"
        + ", ".join(
            [
                f"update_window_dims = {int_list(op.get_update_window_dims())}",
                f"inserted_window_dims = {int_list(op.get_inserted_window_dims())}",
                f"scatter_dims_to_operand_dims = {int_list(op.get_scatter_dims_to_operand_dims())}",
                f"index_vector_dim = {op.get_index_vector_dim()}",
            ]
        )
        + ">"
    )

    operands = [*op.inputs, op.scatter_indices, *op.updates]
    results = e.op(
        "stablehlo.scatter",
        [e.name(v) for v in operands],
        types_text(operands),
        types_text(op.results),
        {
            "scatter_dimension_numbers": numbers,
            "indices_are_sorted": bool_text(op.get_indices_are_sorted()),
            "unique_indices": bool_text(op.get_unique_indices()),
        },
        e.regions_of(op.update_computation),
    )
    e.bind(op, results)
