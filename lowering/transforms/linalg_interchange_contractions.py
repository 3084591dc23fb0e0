"""`linalg-interchange-contractions`: the loop order of contraction `linalg.generic`s
for vectorization, an optimization kept out of the conversion.

A contraction comes with its loops in linalg's order, e.g. `linalg.matmul`
generalized as (i, j, k): the reduction innermost, so each result element is a dot
product along a column of rhs. This pass reorders the loops of a contraction-shaped
generic (two inputs and one output indexed by plain loop dimensions, with reduction
loops) to (batch, lhs free, contracting, rhs free), each group in its original order:
the innermost loop then walks rhs's and the result's rows contiguously, which LLVM
vectorizes, and `linalg-block-rows` finds the shape it blocks. Whatever the body,
each result element still folds its reduction iterations in the same order: the
result is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.lowering.conversions.convert_xla_to_linalg.common import REDUCTION

from xla_opt.pattern_dispatch import ConversionWalker


def contraction_order(op: linalg.GenericOp) -> list[int] | None:
    """The loops of a contraction-shaped generic in (batch, lhs free, contracting, rhs
    free) order, or None when it is not one (no reduction, a parallel loop that no
    input reads, or an indexing map that is not plain loop dimensions)."""
    lhs_map, rhs_map, out_map = (m.data for m in op.indexing_maps.data)
    if not all(isinstance(e, AffineDimExpr) for m in (lhs_map, rhs_map, out_map) for e in m.results):
        return None
    lhs = {e.position for e in lhs_map.results}  # type: ignore[attr-defined]
    rhs = {e.position for e in rhs_map.results}  # type: ignore[attr-defined]
    if REDUCTION.data not in (it.data for it in op.iterator_types.data):
        return None
    groups: list[list[int]] = [[], [], [], []]
    for loop, it in enumerate(op.iterator_types.data):
        if it.data == REDUCTION.data:
            groups[2].append(loop)
        elif loop in lhs and loop in rhs:
            groups[0].append(loop)
        elif loop in lhs:
            groups[1].append(loop)
        elif loop in rhs:
            groups[3].append(loop)
        else:
            return None
    return [loop for group in groups for loop in group]


class InterchangeContraction(RewritePattern):
    """A contraction-shaped generic's loops reordered as the module doc says."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1:
            return
        order = contraction_order(op)
        if order is None or order == sorted(order):
            return
        position = {old: new for new, old in enumerate(order)}  # old loop -> new loop
        n = len(order)

        def renumber(m: AffineMapAttr) -> AffineMapAttr:
            results = tuple(AffineDimExpr(position[e.position]) for e in m.data.results)  # type: ignore[attr-defined]
            return AffineMapAttr(AffineMap(n, 0, results))

        iterators = op.iterator_types.data
        op.indexing_maps = ArrayAttr([renumber(m) for m in op.indexing_maps.data])
        op.iterator_types = ArrayAttr([iterators[old] for old in order])
        rewriter.handle_operation_modification(op)


@dataclass(frozen=True)
class InterchangeContractionsPass(ModulePass):
    """Contraction loops in vectorizable order (see the module doc)."""

    name = "linalg-interchange-contractions"
    input_dialects = ("linalg",)
    output_dialects = ("linalg",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConversionWalker([InterchangeContraction()], repeat=False, erase_dead=False).rewrite_module(op)
