"""`xla-fold-dot-transpose`: a transpose that swaps a dot_general's two groups of free
dimensions becomes the dot_general of the swapped operands, as XLA's algebraic
simplifier folds it: (A B)^T = B^T A^T.

A dot_general's result holds the batch dimensions, then lhs's free dimensions, then
rhs's. JAX's reverse mode writes the weight gradient of `x @ W` as
`transpose(dot_general(dy, x))` (an LSTM scan's backward pass: a 512x128 product
transposed to 128x512 and added to the accumulated gradient on each of 32 steps), and
a transposed read of a matrix is a column walk: the add that read it gathered its
elements, a third of the training step's time. With the operands swapped (their
batching and contracting dimensions with them) the product is computed in the
transposed layout itself.

The transpose must keep the batch dimensions where they are, put rhs's free dimensions
first and keep each group's order; the dot_general must have no other use (it would be
computed twice). The result is the same: each element is the same sum of the same
products, over the same contracting dimensions in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects.xla.linear_algebra import DotGeneralOp
from xla_opt.dialects.xla.properties import i64_array
from xla_opt.dialects.xla.shape_ops import TransposeOp


def swapped_groups_permutation(batch: int, lhs_free: int, rhs_free: int) -> list[int]:
    """The permutation of a dot_general's result that puts rhs's free dimensions before
    lhs's, the batch dimensions and each group's order kept."""
    first_rhs = batch + lhs_free
    return [*range(batch), *range(first_rhs, first_rhs + rhs_free), *range(batch, first_rhs)]


class FoldTransposeOfDotGeneral(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        dot = op.operand.owner
        if not isinstance(dot, DotGeneralOp) or not dot.result.has_one_use():
            return
        lhs_batch, rhs_batch = dot.get_lhs_batching_dimensions(), dot.get_rhs_batching_dimensions()
        lhs_contracting, rhs_contracting = dot.get_lhs_contracting_dimensions(), dot.get_rhs_contracting_dimensions()
        batch = len(lhs_batch)
        lhs_free = dot.lhs.type.get_num_dims() - batch - len(lhs_contracting)  # type: ignore[attr-defined]
        rhs_free = dot.rhs.type.get_num_dims() - batch - len(rhs_contracting)  # type: ignore[attr-defined]
        if lhs_free == 0 or rhs_free == 0:
            return  # nothing to swap: the transpose moves batch dimensions, or none
        if list(op.get_permutation()) != swapped_groups_permutation(batch, lhs_free, rhs_free):
            return
        dimensions = {
            "lhs_batching_dimensions": rhs_batch,
            "rhs_batching_dimensions": lhs_batch,
            "lhs_contracting_dimensions": rhs_contracting,
            "rhs_contracting_dimensions": lhs_contracting,
        }
        swapped = DotGeneralOp(
            operands=[dot.rhs, dot.lhs],
            result_types=[op.result.type],
            properties={name: i64_array(dims) for name, dims in dimensions.items() if dims},  # absent: none
        )
        rewriter.replace(op, swapped)
        rewriter.erase(dot)


@dataclass(frozen=True)
class XlaFoldDotTransposePass(ModulePass):
    name = "xla-fold-dot-transpose"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([FoldTransposeOfDotGeneral()]), apply_recursively=False
        ).rewrite_module(op)
