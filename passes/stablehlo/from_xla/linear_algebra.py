"""StableHLO export: dot (as dot_general), dot_general, convolution, fft, cholesky,
triangular_solve."""

from __future__ import annotations

from collections.abc import Sequence

from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import shape_of

from .common import (
    Emitter,
    bool_text,
    enum_attr,
    handles,
    i64_array,
    i64_attr,
    int_list,
    padding_attr,
)


def _dot_numbers(lb: Sequence[int], rb: Sequence[int], lc: Sequence[int], rc: Sequence[int]) -> str:
    fields = []
    if lb or rb:
        fields += [f"lhs_batching_dimensions = {int_list(lb)}", f"rhs_batching_dimensions = {int_list(rb)}"]
    fields += [
        f"lhs_contracting_dimensions = {int_list(lc)}",
        f"rhs_contracting_dimensions = {int_list(rc)}",
    ]
    return "#stablehlo.dot<" + ", ".join(fields) + ">"


@handles(xla.DotOp)
def _dot(e: Emitter, op: xla.DotOp) -> None:
    lhs_rank = len(shape_of(op.lhs.type))
    e.simple(
        op, "stablehlo.dot_general", {"dot_dimension_numbers": _dot_numbers([], [], [lhs_rank - 1], [0])}
    )


@handles(xla.DotGeneralOp)
def _dot_general(e: Emitter, op: xla.DotGeneralOp) -> None:
    numbers = _dot_numbers(
        op.get_lhs_batching_dimensions(),
        op.get_rhs_batching_dimensions(),
        op.get_lhs_contracting_dimensions(),
        op.get_rhs_contracting_dimensions(),
    )
    e.simple(op, "stablehlo.dot_general", {"dot_dimension_numbers": numbers})


def _layout(rank: int, first: tuple[str, int], second: tuple[str, int], spatial: Sequence[int]) -> str:
    labels = ["?"] * rank
    labels[first[1]] = first[0]
    labels[second[1]] = second[0]
    for i, d in enumerate(spatial):
        labels[d] = str(i)
    return "[" + ", ".join(labels) + "]"


@handles(xla.ConvolutionOp)
def _convolution(e: Emitter, op: xla.ConvolutionOp) -> None:
    dn = op.dimension_numbers()
    rank = len(shape_of(op.lhs.type))
    numbers = (
        "#stablehlo.conv<"
        + _layout(rank, ("b", dn.input_batch), ("f", dn.input_feature), dn.input_spatial)
        + "x"
        + _layout(rank, ("i", dn.kernel_input_feature), ("o", dn.kernel_output_feature), dn.kernel_spatial)
        + "->"
        + _layout(rank, ("b", dn.output_batch), ("f", dn.output_feature), dn.output_spatial)
        + ">"
    )
    n = len(dn.input_spatial)
    props = {
        "dimension_numbers": numbers,
        "feature_group_count": i64_attr(op.get_feature_group_count()),
        "batch_group_count": i64_attr(op.get_batch_group_count()),
    }
    for key in ("window_strides", "lhs_dilation", "rhs_dilation"):
        value = getattr(op, f"get_{key}")()
        if value is not None and n:
            props[key] = i64_array(value)
    if op.padding is not None and n:
        props["padding"] = padding_attr(op.get_padding())
    e.simple(op, "stablehlo.convolution", props)


@handles(xla.FftOp)
def _fft(e: Emitter, op: xla.FftOp) -> None:
    e.simple(
        op,
        "stablehlo.fft",
        {"fft_type": enum_attr("fft_type", op.get_fft_type()), "fft_length": i64_array(op.get_fft_length())},
    )


@handles(xla.CholeskyOp)
def _cholesky(e: Emitter, op: xla.CholeskyOp) -> None:
    lower = op.get_lower()
    e.simple(op, "stablehlo.cholesky", {"lower": bool_text(lower)})


@handles(xla.TriangularSolveOp)
def _triangular_solve(e: Emitter, op: xla.TriangularSolveOp) -> None:
    e.simple(
        op,
        "stablehlo.triangular_solve",
        {
            "left_side": bool_text(bool(op.get_left_side())),
            "lower": bool_text(bool(op.get_lower())),
            "unit_diagonal": bool_text(bool(op.get_unit_diagonal())),
            "transpose_a": enum_attr("transpose", op.get_transpose_a()),
        },
    )
