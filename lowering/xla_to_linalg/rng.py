"""The rng family to linalg: rng_uniform, rng_normal and rng_bit_generator. Not lowered yet: the interpreter runs
these ops."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

PATTERNS: list[RewritePattern] = []

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset()
