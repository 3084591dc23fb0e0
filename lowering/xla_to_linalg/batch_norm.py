"""The batch_norm family to linalg: batch_norm_training, batch_norm_inference and batch_norm_grad. Not lowered yet: the interpreter runs
these ops."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

PATTERNS: list[RewritePattern] = []

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset()
