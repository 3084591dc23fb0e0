"""convert-xla-to-stablehlo: rng_uniform/rng_normal (`stablehlo.rng` with a constant
shape), rng_bit_generator."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of, shape_of

from .common import Builder, Patterns, enum_attr

PATTERNS = Patterns()


def _is_pred(t) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


@PATTERNS.rule(xla.RngUniformOp, xla.RngNormalOp)
def _rng(op: Operation, b: Builder) -> Sequence[SSAValue]:
    result = op.results[0].type
    shape = list(shape_of(result))
    shape_value = b.constant(DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(shape)]), shape))
    bounds = list(op.operands)
    out_type = result
    pred = _is_pred(elem_of(result))
    if pred:  # XLA's RngExpander has no PRED: draw S32 in [a, b) and convert back
        bounds = [b.one("convert", [v], TensorType(i32, [])) for v in bounds]
        out_type = TensorType(i32, shape)
    dist = "UNIFORM" if isinstance(op, xla.RngUniformOp) else "NORMAL"
    drawn = b.one("rng", [*bounds, shape_value], out_type, {"rng_distribution": enum_attr("rng_distribution", dist)})
    if pred:
        drawn = b.one("convert", [drawn], result)
    return [drawn]


@PATTERNS.rule(xla.RngBitGeneratorOp)
def _rng_bit_generator(op: xla.RngBitGeneratorOp, b: Builder) -> Sequence[SSAValue]:
    """XLA hands back unsigned bits for a signed output type: draw unsigned, bitcast."""
    out = op.output.type
    element = elem_of(out)
    signed = isinstance(element, IntegerType) and element.signedness.data != Signedness.UNSIGNED
    drawn_type = TensorType(IntegerType(element.width.data, Signedness.UNSIGNED), list(shape_of(out))) if signed else out
    props = {"rng_algorithm": enum_attr("rng_algorithm", op.get_rng_algorithm())}
    state, bits = b.op("rng_bit_generator", [op.initial_state], [op.output_state.type, drawn_type], props).results
    if signed:
        bits = b.one("bitcast_convert", [bits], out)
    return [state, bits]
