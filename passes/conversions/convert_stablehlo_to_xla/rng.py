"""convert-stablehlo-to-xla: rng (normal or uniform) and rng_bit_generator."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import enum_value

from .common import Patterns, fail, prop, result_types, shape

PATTERNS = Patterns()


@PATTERNS.rule("stablehlo.rng")
def _rng(op, b):
    """The shape operand must be a constant equal to the result's shape (StableHLO C3);
    the xla op carries the shape in its type only."""
    result_shape = list(shape(op.results[0]))
    shape_op = op.operands[2].owner
    constant = getattr(shape_op, "name", "") in ("stablehlo.constant", "xla.constant")  # converted or not yet
    value = prop(shape_op, "value") if constant else None
    if not isinstance(value, DenseIntOrFPElementsAttr):
        fail(op, f"the shape operand must be a constant (the result shape {result_shape} is static)")
    given = [int(v) for v in value.get_values()] if len(value) else []
    if given != result_shape:
        fail(op, f"the shape operand {given} does not match the result shape {result_shape}")
    distribution = enum_value(prop(op, "rng_distribution"))
    cls = xla.RngNormalOp if distribution == "NORMAL" else xla.RngUniformOp
    return [b.one(cls, op.operands[:2], op.results[0].type)]


@PATTERNS.rule("stablehlo.rng_bit_generator")
def _rng_bit_generator(op, b):
    algorithm = enum_value(prop(op, "rng_algorithm")) or "DEFAULT"
    props = {"rng_algorithm": xla.RngAlgorithmAttr(xla.RngAlgorithm(algorithm))}
    return b.build(xla.RngBitGeneratorOp, op.operands, result_types(op), props).results
