"""The tokens family to linalg: after_all, infeed, outfeed, send and recv. Not lowered yet: the interpreter runs
these ops."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

PATTERNS: list[RewritePattern] = []

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset()
