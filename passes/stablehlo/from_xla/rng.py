"""StableHLO export: rng_uniform/rng_normal (`stablehlo.rng` with a constant shape), rng_bit_generator."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType, Signedness, TensorType
from xdsl.ir import Operation
from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import elem_of, shape_of

from .common import Emitter, enum_attr, handles, type_text


@handles(xla.RngUniformOp, xla.RngNormalOp)
def _rng(e: Emitter, op: Operation) -> None:
    result = op.results[0].type
    shape = shape_of(result)
    shape_type = TensorType(IntegerType(64), [len(shape)])
    shape_value = e.constant(np.array(shape, dtype=np.int64), shape_type)
    a, b = op.operands
    dist = "UNIFORM" if isinstance(op, xla.RngUniformOp) else "NORMAL"
    bounds, bound_type, out_type = [e.name(a), e.name(b)], type_text(a.type), result
    pred = isinstance(elem_of(result), IntegerType) and elem_of(result).width.data == 1
    if pred:  # XLA's RngExpander has no PRED: draw S32 in [a, b) and convert back
        bound_type = type_text(TensorType(IntegerType(32), []))
        bounds = [e.op("stablehlo.convert", [n], [type_text(a.type)], [bound_type])[0] for n in bounds]
        out_type = TensorType(IntegerType(32), list(shape))
    drawn = e.op(
        "stablehlo.rng",
        [*bounds, shape_value],
        [bound_type, bound_type, type_text(shape_type)],
        [type_text(out_type)],
        {"rng_distribution": enum_attr("rng_distribution", dist)},
    )
    if pred:
        drawn = e.op("stablehlo.convert", drawn, [type_text(out_type)], [type_text(result)])
    e.bind(op, drawn)


@handles(xla.RngBitGeneratorOp)
def _rng_bit_generator(e: Emitter, op: xla.RngBitGeneratorOp) -> None:
    # XLA hands back unsigned bits for a signed output type: draw unsigned, bitcast.
    out = op.output.type
    element = elem_of(out)
    signed = isinstance(element, IntegerType) and element.signedness.data != Signedness.UNSIGNED
    drawn_type = (
        TensorType(IntegerType(element.width.data, Signedness.UNSIGNED), list(shape_of(out)))
        if signed
        else out
    )
    state, bits = e.op(
        "stablehlo.rng_bit_generator",
        [e.name(op.initial_state)],
        [type_text(op.initial_state.type)],
        [type_text(op.output_state.type), type_text(drawn_type)],
        {"rng_algorithm": enum_attr("rng_algorithm", op.get_rng_algorithm())},
    )
    if signed:
        bits = e.op("stablehlo.bitcast_convert", [bits], [type_text(drawn_type)], [type_text(out)])[0]
    e.bind(op, [state, bits])
