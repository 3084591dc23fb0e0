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

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint


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


@dataclass(eq=False)
class ConversionWalker:
    """Apply conversion patterns to the ops of the types they name, each op once per
    sweep, in the walk order of xDSL's PatternRewriteWalker (an op before the ops
    nested in it); sweep again over what is left of those types while a sweep changes
    something. Returns whether the IR changed.

    xDSL's walker visits every op, tries every pattern on it and checks it for dead
    code, then walks the whole module once more to confirm nothing matches: on the
    loop level of the transformer block, ~600 ops for ~150 rewrites, half of
    `lower-affine` and of `convert-scf-to-cf`. A conversion's patterns each rewrite
    one op type into other dialects, so only the ops of those types need a visit; ops
    of those types that a rewrite creates, or moves where the sweep has been, are
    picked up by the next sweep. A root op that is trivially dead is erased instead of
    converted, as xDSL's applier does (TypeDispatchApplier). A pattern whose op type
    cannot be read matches anything: then every op is a root."""

    patterns: list[RewritePattern]

    def rewrite_module(self, module: ModuleOp) -> bool:
        applier = TypeDispatchApplier(self.patterns)
        types = [t for _, t in applier._typed]
        roots: tuple[type, ...] = (
            (Operation,)
            if any(t is None for t in types)
            else tuple(c for t in types for c in (t if isinstance(t, tuple) else (t,)))
        )
        removed: set[Operation] = set()

        def forget(op: Operation) -> None:
            removed.update(op.walk() if op.regions else (op,))

        changed = False
        pending = [op for op in module.walk() if isinstance(op, roots)]
        while pending:
            rewriter = PatternRewriter(pending[0])
            rewriter.operation_removal_handler.append(forget)
            progress = False
            for op in pending:
                if op in removed:
                    continue
                rewriter.has_done_action = False
                rewriter._current_operation = op  # as xDSL's walker sets it
                rewriter.insertion_point = InsertPoint.before(op)
                rewriter.name_hint = None
                try:
                    applier.match_and_rewrite(op, rewriter)
                except Exception as err:  # noqa: BLE001 - located, as xDSL's walker does
                    op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
                progress |= rewriter.has_done_action
            changed |= progress
            if not progress:
                break
            removed.clear()
            pending = [op for op in module.walk() if isinstance(op, roots)]
        return changed
