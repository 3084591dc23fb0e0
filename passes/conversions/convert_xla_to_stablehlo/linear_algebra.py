"""convert-xla-to-stablehlo: dot (as dot_general), dot_general, convolution, fft,
cholesky, triangular_solve."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr
from xdsl.ir import Attribute, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import (
    ConvDimensionNumbersAttr,
    DotDimensionNumbersAttr,
)
from xla_opt.dialects.xla.element_types import shape_of

from .common import (
    Builder,
    Patterns,
    bool_attr,
    enum_attr,
    i64_array,
    i64_attr,
    padding_attr,
)

PATTERNS = Patterns()


def dot_numbers(lb: Sequence[int], rb: Sequence[int], lc: Sequence[int], rc: Sequence[int]) -> DotDimensionNumbersAttr:
    fields: dict[str, Attribute] = {}
    if lb or rb:
        fields |= {"lhs_batching_dimensions": i64_array(lb), "rhs_batching_dimensions": i64_array(rb)}
    fields |= {"lhs_contracting_dimensions": i64_array(lc), "rhs_contracting_dimensions": i64_array(rc)}
    return DotDimensionNumbersAttr(DictionaryAttr(fields))


@PATTERNS.rule(xla.DotOp)
def _dot(op: xla.DotOp, b: Builder) -> Sequence[SSAValue]:
    """lhs' last dimension against rhs' first."""
    lhs_rank = len(shape_of(op.lhs.type))
    return b.same("dot_general", {"dot_dimension_numbers": dot_numbers([], [], [lhs_rank - 1], [0])})


@PATTERNS.rule(xla.DotGeneralOp)
def _dot_general(op: xla.DotGeneralOp, b: Builder) -> Sequence[SSAValue]:
    numbers = dot_numbers(
        op.get_lhs_batching_dimensions(),
        op.get_rhs_batching_dimensions(),
        op.get_lhs_contracting_dimensions(),
        op.get_rhs_contracting_dimensions(),
    )
    return b.same("dot_general", {"dot_dimension_numbers": numbers})


@PATTERNS.rule(xla.ConvolutionOp)
def _convolution(op: xla.ConvolutionOp, b: Builder) -> Sequence[SSAValue]:
    dn = op.dimension_numbers()
    numbers = ConvDimensionNumbersAttr.from_fields(
        input_batch_dimension=i64_attr(dn.input_batch),
        input_feature_dimension=i64_attr(dn.input_feature),
        input_spatial_dimensions=i64_array(dn.input_spatial),
        kernel_input_feature_dimension=i64_attr(dn.kernel_input_feature),
        kernel_output_feature_dimension=i64_attr(dn.kernel_output_feature),
        kernel_spatial_dimensions=i64_array(dn.kernel_spatial),
        output_batch_dimension=i64_attr(dn.output_batch),
        output_feature_dimension=i64_attr(dn.output_feature),
        output_spatial_dimensions=i64_array(dn.output_spatial),
    )
    props: dict[str, Attribute | None] = {
        "dimension_numbers": numbers,
        "feature_group_count": i64_attr(op.get_feature_group_count()),
        "batch_group_count": i64_attr(op.get_batch_group_count()),
    }
    if dn.input_spatial:  # a window of no spatial dimension has no window attributes
        for key in ("window_strides", "lhs_dilation", "rhs_dilation"):
            value = getattr(op, f"get_{key}")()
            props[key] = i64_array(value) if value is not None else None
        if op.padding is not None:
            props["padding"] = padding_attr(op.get_padding())
    return b.same("convolution", props)


@PATTERNS.rule(xla.FftOp)
def _fft(op: xla.FftOp, b: Builder) -> Sequence[SSAValue]:
    props = {"fft_type": enum_attr("fft_type", op.get_fft_type()), "fft_length": i64_array(op.get_fft_length())}
    return b.same("fft", props)


@PATTERNS.rule(xla.CholeskyOp)
def _cholesky(op: xla.CholeskyOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("cholesky", {"lower": bool_attr(op.get_lower())})


@PATTERNS.rule(xla.TriangularSolveOp)
def _triangular_solve(op: xla.TriangularSolveOp, b: Builder) -> Sequence[SSAValue]:
    props = {
        "left_side": bool_attr(op.get_left_side()),
        "lower": bool_attr(op.get_lower()),
        "unit_diagonal": bool_attr(op.get_unit_diagonal()),
        "transpose_a": enum_attr("transpose", op.get_transpose_a()),
    }
    return b.same("triangular_solve", props)
