"""convert-stablehlo-to-xla: rng (normal or uniform) and rng_bit_generator."""

from __future__ import annotations

from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import enum_value

from .common import Patterns, prop, result_types

PATTERNS = Patterns()


@PATTERNS.rule("stablehlo.rng")
def _rng(op, b):
    distribution = enum_value(prop(op, "rng_distribution"))
    cls = xla.RngNormalOp if distribution == "NORMAL" else xla.RngUniformOp
    return [b.one(cls, op.operands[:2], op.results[0].type)]


@PATTERNS.rule("stablehlo.rng_bit_generator")
def _rng_bit_generator(op, b):
    algorithm = enum_value(prop(op, "rng_algorithm")) or "DEFAULT"
    props = {"rng_algorithm": xla.RngAlgorithmAttr(xla.RngAlgorithm(algorithm))}
    return b.build(xla.RngBitGeneratorOp, op.operands, result_types(op), props).results
