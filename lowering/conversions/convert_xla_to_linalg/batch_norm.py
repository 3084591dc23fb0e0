"""The batch_norm family: batch_norm_training, batch_norm_inference and batch_norm_grad.
No pattern here: `xla-expand-batch-norm` (passes/transforms/xla_expand_batch_norm.py), the first stage
of the pipeline, expands them into reduce, broadcast_in_dim and arithmetic before this
conversion, whose patterns lower those."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

from xla_opt.dialects import xla

PATTERNS: list[RewritePattern] = []

# The ops the pipeline lowers (through xla-expand-batch-norm).
LOWERED: frozenset[str] = frozenset(
    {xla.BatchNormTrainingOp.name, xla.BatchNormInferenceOp.name, xla.BatchNormGradOp.name}
)
