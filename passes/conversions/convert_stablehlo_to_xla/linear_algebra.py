"""convert-stablehlo-to-xla: dot, dot_general, convolution, fft, cholesky, triangular_solve."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import Attribute, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import enum_value
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.properties import i64_matrix

from .common import (
    ARR,
    Patterns,
    bool_of,
    constant_ints,
    elem,
    fail,
    field,
    i64_array,
    i64_attr,
    int_of,
    ints,
    matrix,
    prop,
    props_rule,
    result_types,
    shape,
)

PATTERNS = Patterns()


def to_result_element(op, b, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """dot/convolution with a wider result element type (preferred_element_type):
    the operands are converted to it first."""
    e = elem(op.results[0])
    return [b.convert(v, e) for v in operands]


@PATTERNS.rule("stablehlo.dot")
def _dot(op, b):
    lhs, rhs = to_result_element(op, b, op.operands)
    return [b.one(xla.DotOp, [lhs, rhs], op.results[0].type)]


@PATTERNS.rule("stablehlo.dot_general")
def _dot_general(op, b):
    lhs, rhs = to_result_element(op, b, op.operands)
    props = {
        name: i64_array(ints(field(op, "dot_dimension_numbers", name)))
        for name in (
            "lhs_batching_dimensions",
            "rhs_batching_dimensions",
            "lhs_contracting_dimensions",
            "rhs_contracting_dimensions",
        )
    }
    return [b.one(xla.DotGeneralOp, [lhs, rhs], op.results[0].type, props)]


_CONV_SCALARS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "output_batch_dimension",
    "output_feature_dimension",
)
_CONV_ARRAYS = ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions")


@PATTERNS.rule("stablehlo.convolution")
def _convolution(op, b):
    return _convolve(op, b, matrix(prop(op, "padding"), 2) if prop(op, "padding") is not None else None)


@PATTERNS.rule("stablehlo.dynamic_conv")
def _dynamic_conv(op, b):
    """dynamic_conv: a convolution whose padding is its third operand; a constant
    padding is the static convolution's."""
    flat = constant_ints(op, op.operands[2], "the padding")
    if len(flat) % 2 or list(shape(op.operands[2])) != [len(flat) // 2, 2]:
        fail(op, f"the padding must be a [N, 2] tensor, got {op.operands[2].type}")
    return _convolve(op, b, [flat[i : i + 2] for i in range(0, len(flat), 2)])


def _convolve(op, b, padding: list[list[int]] | None):
    lhs_type, rhs_type = (elem(v) for v in op.operands[:2])
    if lhs_type != rhs_type:  # StableHLO (C27): one element type for both inputs
        fail(op, f"the lhs element type {lhs_type} and the rhs element type {rhs_type} differ")
    lhs, rhs = to_result_element(op, b, op.operands[:2])
    props: dict[str, Attribute] = {}
    for name in _CONV_SCALARS:
        props[name] = i64_attr(int_of(field(op, "dimension_numbers", name)))
    for name in _CONV_ARRAYS:
        props[name] = i64_array(ints(field(op, "dimension_numbers", name)))
    n = len(ints(props["input_spatial_dimensions"]))
    for name in ("window_strides", "lhs_dilation", "rhs_dilation"):
        if prop(op, name) is not None:
            props[name] = i64_array(ints(prop(op, name)))
    if padding is not None:
        props["padding"] = i64_matrix(padding) if n else None
    for name in ("feature_group_count", "batch_group_count"):
        if prop(op, name) is not None:
            props[name] = i64_attr(int_of(prop(op, name)))
    reversal = ints(prop(op, "window_reversal"))
    if prop(op, "window_reversal") is not None and len(reversal) != n:
        fail(op, f"window_reversal has {len(reversal)} entries for {n} spatial dimensions")
    if any(reversal):
        kernel_dims = ints(props["kernel_spatial_dimensions"])
        dims = [d for d, r in zip(kernel_dims, reversal) if r]
        rhs = b.one(xs.ReverseOp, [rhs], rhs.type, {"dimensions": i64_array(dims)})
    return [b.one(xla.ConvolutionOp, [lhs, rhs], op.results[0].type, props)]


PATTERNS.add("stablehlo.fft", props_rule(
    xla.FftOp,
    fft_type=("fft_type", lambda a: xla.FftTypeAttr(xla.FftType(enum_value(a)))),
    fft_length=("fft_length", ARR),
))
PATTERNS.add("stablehlo.cholesky", props_rule(
    xla.CholeskyOp, lower=("lower", lambda a: BoolAttr.from_bool(bool_of(a)))
))


def _transpose_a(op) -> xla.TransposeAttr:
    """triangular_solve's transpose_a: NO_TRANSPOSE (the default), TRANSPOSE or ADJOINT;
    StableHLO's TRANSPOSE_INVALID (XLA rejects it) is an error at the op."""
    word = enum_value(prop(op, "transpose_a")) or "NO_TRANSPOSE"
    if word not in xla.Transpose.__members__:
        fail(op, f"transpose_a = {word} is not one of {', '.join(xla.Transpose.__members__)}")
    return xla.TransposeAttr(xla.Transpose(word))


@PATTERNS.rule("stablehlo.triangular_solve")
def _triangular_solve(op, b):
    props = {
        "left_side": BoolAttr.from_bool(bool_of(prop(op, "left_side"))),
        "lower": BoolAttr.from_bool(bool_of(prop(op, "lower"))),
        "unit_diagonal": BoolAttr.from_bool(bool_of(prop(op, "unit_diagonal"))),
        "transpose_a": _transpose_a(op),
    }
    return b.build(xla.TriangularSolveOp, op.operands, result_types(op), props).results
