"""convert-stablehlo-to-xla: batch_norm_training, batch_norm_inference, batch_norm_grad."""

from __future__ import annotations

from xdsl.dialects.builtin import FloatAttr, f32
from xla_opt.dialects import xla

from .common import Patterns, Rule, i64_attr, int_of, prop, result_types

PATTERNS = Patterns()


def _batch_norm(cls) -> Rule:
    def convert(op, b):
        eps = prop(op, "epsilon")
        props = {
            "epsilon": FloatAttr(float(eps.value.data), f32),  # type: ignore[union-attr]
            "feature_index": i64_attr(int_of(prop(op, "feature_index"))),
        }
        return b.build(cls, op.operands, result_types(op), props).results

    return convert


PATTERNS.add("stablehlo.batch_norm_training", _batch_norm(xla.BatchNormTrainingOp))
PATTERNS.add("stablehlo.batch_norm_inference", _batch_norm(xla.BatchNormInferenceOp))
PATTERNS.add("stablehlo.batch_norm_grad", _batch_norm(xla.BatchNormGradOp))
