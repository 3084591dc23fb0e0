"""Patches to xDSL's pattern rewriting: what a rewrite creates keeps a location, the
dead-code check of every visited op stops at its first effect, two of xDSL's
conversion passes visit only the ops they convert, and linalg.generic has memory
effects (dead code on tensors)."""

from __future__ import annotations

from types import ModuleType

from xdsl.dialects.builtin import MemRefType, UnknownLoc
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect

from xla_opt.xdsl_patches.patch import Changes, Patch

# --------------------------------------------------------------------------------------
# locations survive rewrites
# --------------------------------------------------------------------------------------


def _locate_new_ops(ops, anchor: Operation | None) -> None:  # type: ignore[no-untyped-def]
    """Give every op of `ops` created without a location (and the ops and block
    arguments inside it that have none) the location of `anchor`."""
    from xla_opt.diagnostics import locate_unlocated

    if anchor is None or isinstance(anchor.location, UnknownLoc):
        return
    for op in (ops,) if isinstance(ops, Operation) else ops:
        if isinstance(op.location, UnknownLoc):  # created, not moved
            locate_unlocated(op, anchor.location)


def _install_rewrite_locations(changes: Changes) -> None:
    from xdsl.pattern_rewriter import PatternRewriter
    from xdsl.rewriter import Rewriter

    original_insert = PatternRewriter.insert
    original_replace = PatternRewriter.replace
    original_insert_block_argument = PatternRewriter.insert_block_argument
    original_replace_value_with_new_type = Rewriter.replace_value_with_new_type

    def insert(self, op, insertion_point=None):  # type: ignore[no-untyped-def]
        anchor = getattr(self, "_replaced_op", None) or self._current_operation
        _locate_new_ops(op, anchor)
        return original_insert(self, op, insertion_point)

    def replace(self, op, new_ops, new_results=None, safe_erase=True):  # type: ignore[no-untyped-def]
        outer, self._replaced_op = getattr(self, "_replaced_op", None), op
        try:
            original_replace(self, op, new_ops, new_results, safe_erase)
        finally:
            self._replaced_op = outer

    def insert_block_argument(self, block, index, arg_type):  # type: ignore[no-untyped-def]
        arg = original_insert_block_argument(self, block, index, arg_type)
        if isinstance(arg.location, UnknownLoc) and (owner := block.parent_op()) is not None:
            arg.location = owner.location
        return arg

    def replace_value_with_new_type(val, new_type):  # type: ignore[no-untyped-def]
        new_value = original_replace_value_with_new_type(val, new_type)
        if isinstance(val, BlockArgument) and isinstance(new_value, BlockArgument):
            new_value.location = val.location
        return new_value

    changes.replace(PatternRewriter, "insert", insert)
    changes.replace(PatternRewriter, "replace", replace)
    changes.replace(PatternRewriter, "insert_block_argument", insert_block_argument)
    changes.replace(Rewriter, "replace_value_with_new_type", staticmethod(replace_value_with_new_type))


REWRITE_LOCATIONS = Patch(
    name="rewrite-locations",
    reason="""
    (9) Locations survive rewrites (MLIR's rule: an op a pattern creates takes the location
    of the op it replaces): xDSL 0.74's rewriter leaves new ops at `loc(unknown)`. An op
    a PatternRewriter inserts without a location, the ops and block arguments it holds
    included, takes the location of the op being replaced (`replace`) or else of the
    matched op; a block argument the rewriter adds takes its parent op's location, and
    `replace_value_with_new_type` keeps a block argument's location (xDSL drops it).
    Ops that already have a location (moved, not created) keep theirs.
    """,
    upstream="""
    upstream candidate: xdsl/pattern_rewriter.py (PatternRewriter.insert, replace,
    insert_block_argument) and xdsl/rewriter.py (Rewriter.replace_value_with_new_type); not reported
    """,
    apply=_install_rewrite_locations,
)

# --------------------------------------------------------------------------------------
# trivially-dead checks that stop at the first observable effect
# --------------------------------------------------------------------------------------


# the trait method that stands for "the effects of the nested ops" (checked by
# identity: a subclass overriding it computes its own effects)
_RECURSIVE_EFFECTS = RecursiveMemoryEffect.get_effects.__func__  # type: ignore[attr-defined]


def _result_only_effects(root: Operation) -> bool:
    """xDSL's `result_only_effects(root)`: whether `root`'s memory effects, with those
    of the ops nested in it (`RecursiveMemoryEffect`), are all reads or allocations of
    values defined within `root`, and all known; False at the first that is not.
    Called for every op a greedy rewrite visits: nothing is imported or looked up here."""
    pending = [root]
    while pending:
        op = pending.pop()
        traits = op.get_traits_of_type(MemoryEffect)
        if not traits:
            return False  # unknown effects
        for trait in traits:
            if getattr(type(trait).get_effects, "__func__", None) is _RECURSIVE_EFFECTS:
                pending.extend(child for region in op.regions for block in region.blocks for child in block.ops)
                continue
            effects = trait.get_effects(op)
            if effects is None:
                return False
            for e in effects:
                if e.kind == MemoryEffectKind.READ:
                    continue
                if (
                    e.kind == MemoryEffectKind.ALLOC
                    and isinstance(v := e.value, SSAValue)
                    and root.is_ancestor(v.owner)
                ):
                    continue
                return False
    return True


def _install_early_exit_effects(changes: Changes) -> None:
    def use_early_exit_effects(dce: ModuleType) -> None:
        # looked up by would_be_trivially_dead at each call
        changes.replace(dce, "result_only_effects", _result_only_effects)

    changes.when_imported("xdsl.transforms.dead_code_elimination", use_early_exit_effects)


EARLY_EXIT_EFFECTS = Patch(
    name="early-exit-effects",
    reason="""
    (17) Every greedy rewrite asks of each op it visits whether it is trivially dead, and
    `result_only_effects` collects every memory effect of the op and of all the ops
    nested in it before looking at any: a loop nest of depth d is walked whole at each
    of its d levels, on every visit, though its first store already answers (a third
    of a pattern walk over loops). The same question is answered with a walk that
    stops at the first effect beyond reads and the op's own allocations (or an op of
    unknown effects): the same answer, computed as xDSL's.
    """,
    upstream="upstream candidate: xdsl/transforms/dead_code_elimination.py (result_only_effects); not reported",
    apply=_install_early_exit_effects,
)

# --------------------------------------------------------------------------------------
# lower-affine and convert-scf-to-cf visit only the ops they convert
# --------------------------------------------------------------------------------------


def _install_conversion_sweeps(changes: Changes) -> None:
    def convert_with_sweeps(module: ModuleType) -> None:
        from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

        from xla_opt.pattern_dispatch import ConversionWalker

        def walker(pattern, **options):  # type: ignore[no-untyped-def]
            """The walker these passes build (`PatternRewriteWalker(applier)`, no options)
            as a ConversionWalker over the same patterns; any other call as before."""
            if options or not isinstance(pattern, GreedyRewritePatternApplier):
                return PatternRewriteWalker(pattern, **options)
            return ConversionWalker(list(pattern.rewrite_patterns))

        changes.replace(module, "PatternRewriteWalker", walker)

    for name in ("xdsl.transforms.convert_scf_to_cf", "xdsl.transforms.lower_affine"):
        changes.when_imported(name, convert_with_sweeps)


CONVERSION_SWEEPS = Patch(
    name="conversion-sweeps",
    reason="""
    (21) `lower-affine` and `convert-scf-to-cf` run their patterns under the greedy walker,
    which visits every op, tries every pattern and a dead-code check on it, then walks
    the module again to confirm nothing matches: half of each pass. Their patterns
    each convert one op type, so they run under `ConversionWalker`
    (`xla_opt.pattern_dispatch`), which visits only the ops of those types
    (the same patterns, from xDSL's own lists, in the same order): on the transformer
    block 17 -> 4.5 ms and 34 -> 21 ms, the same output. One difference: xDSL's walker
    also erases every trivially dead op it visits; the ConversionWalker erases only dead
    ops of the converted types and leaves other dead ops in place.
    """,
    upstream="""
    not reported (ConversionWalker is ours; upstream, a conversion driver that visits
    only the ops its patterns name would serve xdsl/transforms/lower_affine.py and
    convert_scf_to_cf.py)
    """,
    apply=_install_conversion_sweeps,
)

# --------------------------------------------------------------------------------------
# linalg.generic's memory effects: those of its memref operands
# --------------------------------------------------------------------------------------


class LinalgOperandEffects(MemoryEffect):
    """A linalg.generic's memory effects as MLIR's linalg ops report them: a read of each
    memref input, a read and a write of each memref output; on tensors, none."""

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset:  # type: ignore[override]
        effects = set()
        for value in op.inputs:  # type: ignore[attr-defined]
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
        for value in op.outputs:  # type: ignore[attr-defined]
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
                effects.add(EffectInstance(MemoryEffectKind.WRITE, value))
        return frozenset(effects)


def _install_linalg_memory_effects(changes: Changes) -> None:
    def add_effects(linalg: ModuleType) -> None:
        traits = linalg.GenericOp.traits
        changes.replace(traits, "_traits", traits.traits.union((LinalgOperandEffects(),)))

    changes.when_imported("xdsl.dialects.linalg.ops", add_effects)


LINALG_MEMORY_EFFECTS = Patch(
    name="linalg-memory-effects",
    reason="""
    (23) xDSL's linalg.generic declares no memory effects, so every generic counts as
    having unknown ones: one on tensors whose result nothing uses is never erased. The
    lowering of `lax.top_k` (a sort of the row with an iota, whose top-k kernel makes
    the positions itself) kept the iota's generic, bufferized into a 4 MiB buffer
    filled on every call and never read (a top 16 of 1M f32: 0.43-0.46 -> 0.23-0.26 ms
    on one thread). The generic gets MLIR's effects: a read of each memref input, a
    read and a write of each memref output, none on tensors, so a pure one is dead code
    once unused (and `cse` may merge two identical ones).
    """,
    upstream="upstream candidate: xdsl/dialects/linalg/ops.py (GenericOp's MemoryEffect trait); not reported",
    apply=_install_linalg_memory_effects,
)

PATCHES = (REWRITE_LOCATIONS, EARLY_EXIT_EFFECTS, CONVERSION_SWEEPS, LINALG_MEMORY_EFFECTS)
