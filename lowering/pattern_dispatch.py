"""A greedy pattern applier that tries on an op only the patterns that can match its type.

xDSL's GreedyRewritePatternApplier tries every pattern on every op until one acts; a
pattern decorated with `op_type_rewrite_pattern` returns at once unless the op is an
instance of the type its signature names. With ~50 such patterns (convert-xla-to-linalg)
that is ~50 calls per visited op: a quarter of the pass on a 2,000-op program.
`TypeDispatchApplier` reads each pattern's type once and keeps, per op class, the
patterns in their original order whose type the class matches, plus every pattern
whose type it cannot read (those are tried on every op, as before). The patterns tried
on an op, and their order, are the ones that could act on it under xDSL's applier:
the rewrites are the same.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern


def matched_type(pattern: RewritePattern) -> type | tuple[type, ...] | None:
    """The op type (or union) an `op_type_rewrite_pattern` pattern matches, or the tuple
    of classes a pattern declares as its `matched_types`; None for any other pattern
    (one that checks the op itself)."""
    if (declared := getattr(pattern, "matched_types", None)) is not None:
        return declared
    method = type(pattern).match_and_rewrite
    if getattr(method, "__qualname__", "") != "op_type_rewrite_pattern.<locals>.impl":
        return None
    return inspect.getclosurevars(method).nonlocals.get("expected_type")


@dataclass(eq=False, repr=False)
class TypeDispatchApplier(RewritePattern):
    """GreedyRewritePatternApplier over `rewrite_patterns` (dead-op erasure on, no
    folding, as its defaults), trying on each op only the patterns that can match its
    class (see the module doc): one GreedyRewritePatternApplier per op class."""

    rewrite_patterns: list[RewritePattern]
    _typed: list[tuple[RewritePattern, type | None]] = field(default_factory=list, init=False)
    _by_class: dict[type, GreedyRewritePatternApplier] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._typed = [(p, matched_type(p)) for p in self.rewrite_patterns]

    def patterns_for(self, cls: type) -> list[RewritePattern]:
        return [p for p, t in self._typed if t is None or issubclass(cls, t)]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        cls = type(op)
        if (applier := self._by_class.get(cls)) is None:
            applier = self._by_class[cls] = GreedyRewritePatternApplier(self.patterns_for(cls))
        applier.match_and_rewrite(op, rewriter)
