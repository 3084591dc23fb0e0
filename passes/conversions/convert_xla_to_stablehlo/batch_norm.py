"""convert-xla-to-stablehlo: batch_norm_training, batch_norm_inference, batch_norm_grad."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, f32
from xdsl.ir import SSAValue
from xla_opt.dialects import xla

from .common import Builder, ByTable, Patterns, i64_attr

PATTERNS = Patterns()


def _batch_norm(op: xla.BatchNormOp, b: Builder, name: str) -> Sequence[SSAValue]:
    props = {"epsilon": FloatAttr(op.get_epsilon(), f32), "feature_index": i64_attr(op.get_feature_index())}
    return b.same(name, props)


PATTERNS.append(
    ByTable(
        {cls: cls.name.removeprefix("xla.") for cls in (xla.BatchNormTrainingOp, xla.BatchNormInferenceOp, xla.BatchNormGradOp)},
        _batch_norm,
    )
)
