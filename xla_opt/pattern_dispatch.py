"""Pattern drivers by op type: an applier that tries on an op only the patterns that can
match its type, and a walker that visits only the ops some pattern can match.

xDSL's GreedyRewritePatternApplier tries every pattern on every op until one acts; a
pattern decorated with `op_type_rewrite_pattern` returns at once unless the op is an
instance of the type its signature names. With ~50 such patterns (convert-xla-to-linalg)
that is ~50 calls per visited op: a quarter of the pass on a 2,000-op program.
`TypeDispatchApplier` reads each pattern's type once and keeps, per op class, the
patterns in their original order whose type the class matches, plus every pattern
whose type it cannot read (those are tried on every op, as before). The patterns tried
on an op, and their order, are the ones that could act on it under xDSL's applier:
the rewrites are the same.

`ConversionWalker` drives the conversion passes (convert-xla-to-linalg and the passes
that rewrite one op kind: legalize-broadcast, matmul-to-kernel, parallel loops, omp to
llvm..., and through xdsl_patches 21 xDSL's lower-affine and convert-scf-to-cf) in
place of xDSL's PatternRewriteWalker: the same patterns and visiting order, without
visiting the ops no pattern can match (see its docstring).
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
    cls = type(pattern)
    if cls not in _MATCHED_TYPE:  # read once per pattern class (inspect is slow)
        method = cls.match_and_rewrite
        _MATCHED_TYPE[cls] = (
            inspect.getclosurevars(method).nonlocals.get("expected_type")
            if getattr(method, "__qualname__", "") == "op_type_rewrite_pattern.<locals>.impl"
            else None
        )
    return _MATCHED_TYPE[cls]


_MATCHED_TYPE: dict[type, type | None] = {}
# Per tuple of matched types (a pass's pattern list), per op class: the positions of
# the patterns that can match the class. Pass runs build their appliers anew; the
# subclass checks (against ABCs: ~1 us each, ~60 patterns per class) are made once.
_POSITIONS: dict[tuple, dict[type, tuple[int, ...]]] = {}


@dataclass(eq=False, repr=False)
class TypeDispatchApplier(RewritePattern):
    """GreedyRewritePatternApplier over `rewrite_patterns` (dead-op erasure on, no
    folding, as its defaults), trying on each op only the patterns that can match its
    class (see the module doc): one GreedyRewritePatternApplier per op class."""

    rewrite_patterns: list[RewritePattern]
    dce_enabled: bool = True
    _typed: list[tuple[RewritePattern, type | None]] = field(default_factory=list, init=False)
    _by_class: dict[type, GreedyRewritePatternApplier] = field(default_factory=dict, init=False)
    _positions: dict[type, tuple[int, ...]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._typed = [(p, matched_type(p)) for p in self.rewrite_patterns]
        self._positions = _POSITIONS.setdefault(tuple(t for _, t in self._typed), {})

    def positions(self, cls: type) -> tuple[int, ...]:
        """Where the patterns that can match `cls` are in `rewrite_patterns`."""
        if (found := self._positions.get(cls)) is None:
            found = self._positions[cls] = tuple(
                i for i, (_, t) in enumerate(self._typed) if t is None or issubclass(cls, t)
            )
        return found

    def patterns_for(self, cls: type) -> list[RewritePattern]:
        return [self.rewrite_patterns[i] for i in self.positions(cls)]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        cls = type(op)
        if (applier := self._by_class.get(cls)) is None:
            applier = self._by_class[cls] = GreedyRewritePatternApplier(
                self.patterns_for(cls), dce_enabled=self.dce_enabled
            )
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
    converted, as xDSL's applier does (TypeDispatchApplier), unless `erase_dead` is
    False (xDSL's walker given a bare pattern, no applier). A pattern whose op type
    cannot be read matches anything: then every op is a root. With `repeat` False, one
    sweep only (as xDSL's walker with apply_recursively=False: a pattern whose output
    it would match again, e.g. blocking a dot into smaller dots, runs once per op)."""

    patterns: list[RewritePattern]
    repeat: bool = True
    erase_dead: bool = True

    def _match(self, applier: RewritePattern, op: Operation, rewriter: PatternRewriter) -> None:
        """One application (wrapped by --mlir-pass-statistics to count rewrites)."""
        applier.match_and_rewrite(op, rewriter)

    def rewrite_module(self, module: ModuleOp) -> bool:
        applier = TypeDispatchApplier(self.patterns, self.erase_dead)

        def roots() -> list[Operation]:
            positions = applier.positions
            return [op for op in module.body.walk() if positions(type(op))]

        removed: set[Operation] = set()
        # repeat mode, as xDSL's recursive walker: the producers of a removed op's
        # operands and the ops a rewrite inserts that nothing uses are visited again
        # (erased when trivially dead: a tuple left unused once its elements are read
        # directly, a value made for a result nobody reads)
        revisit: list[Operation] = []

        def forget(op: Operation) -> None:
            removed.update(op.walk() if op.regions else (op,))
            if self.repeat:
                revisit.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))

        def inserted(op: Operation) -> None:
            if self.repeat and op.results:
                revisit.append(op)

        def visit(op: Operation) -> bool:
            rewriter.has_done_action = False
            rewriter._current_operation = op  # as xDSL's walker sets it
            rewriter.insertion_point = InsertPoint.before(op)
            rewriter.name_hint = None
            try:
                self._match(applier, op, rewriter)
            except Exception as err:  # noqa: BLE001 - located, as xDSL's walker does
                op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
            return rewriter.has_done_action

        changed = False
        pending = roots()
        rewriter = PatternRewriter(InsertPoint.at_start(module.body.block))
        rewriter.operation_removal_handler.append(forget)
        rewriter.operation_insertion_handler.append(inserted)
        while pending:
            progress = False
            for op in pending:
                if op in removed or op.parent is None:  # erased, or detached by a rewrite
                    continue
                progress |= visit(op)
                while revisit:
                    again = revisit.pop()
                    if (
                        again not in removed
                        and again.parent is not None
                        and all(r.first_use is None for r in again.results)
                    ):
                        progress |= visit(again)
            changed |= progress
            if not progress or not self.repeat:
                break
            removed.clear()
            pending = roots()
        return changed
