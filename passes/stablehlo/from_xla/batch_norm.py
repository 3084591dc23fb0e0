"""StableHLO export: batch_norm_training, batch_norm_inference, batch_norm_grad."""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type
from xla_opt.dialects import xla

from .common import Emitter, float_bits_text, handles, i64_attr


@handles(xla.BatchNormTrainingOp, xla.BatchNormInferenceOp, xla.BatchNormGradOp)
def _batch_norm(e: Emitter, op: xla.BatchNormOp) -> None:
    e.simple(
        op,
        "stablehlo." + op.name[len("xla.") :],
        {
            "epsilon": float_bits_text(op.get_epsilon(), Float32Type()),
            "feature_index": i64_attr(op.get_feature_index()),
        },
    )
