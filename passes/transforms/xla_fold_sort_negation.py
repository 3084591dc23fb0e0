"""`xla-fold-sort-negation`: a sort whose key is the negation of floats compared by
their total order sorts the floats themselves in the other direction, and negates
what comes out.

JAX asks for the k smallest elements as `-lax.top_k(-x, k)` (a nearest-neighbour
search, `jnp.partition`): a sort of `negate(x)` whose first k are kept. The negation
is a pass over the whole operand, written to memory and read back by the sort (4 MiB
for a million f32, as long as the top-k kernel's own work for k = 16). Negation flips
the sign bit, which reverses the IEEE total order exactly (-NaN < -inf < ... < -0 <
+0 < ... < +inf < +NaN): -a < -b exactly when b < a, and -a == -b exactly when
a == b. So the comparator applied to the negated key equals the comparator with that
key's two arguments swapped, applied to x: the same permutation, of x instead of -x.
The sorted key is then negated, which costs only what is kept (k elements per row
once the top-k's slices read it).

The key must be one that `sort_keys` (convert-xla-to-linalg's sort_idioms.py) proves
is compared by its total order alone (TOTALORDER compares of the key's own two
arguments): under JAX's canonicalizing float comparator (zeros tie, every NaN above
+inf whatever its sign) negation is not a reversal, and a comparator of another form
is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_opt.dialects.xla.elementwise import NegateOp
from xla_opt.dialects.xla.reductions import SortOp
from xla_opt.dialects.xla.shape_ops import SliceOp
from xla_opt.lowering.conversions.convert_xla_to_linalg.sort_idioms import negated_source, sort_keys


class FoldNegatedSortKey(RewritePattern):
    """sort(..., negate(x), ...) with that key compared by its total order ->
    negate(sort(..., x, ...) with the key's comparator arguments swapped). A sorted
    key read only by slices (chlo.top_k's first k) is negated after each slice, so
    that the slices still read the sort (the top-k kernel's form) and only what they
    keep is negated; a slice negated again (JAX's k smallest, `-top_k(-x, k)[0]`) is
    read as it is (negation is exact: -(-v) is v, bit for bit)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SortOp, rewriter: PatternRewriter) -> None:
        keys = sort_keys(op)
        if keys is None:
            return
        sources = {key.operand: source for key in keys if (source := negated_source(op, key)) is not None}
        if not sources:
            return
        negations = [op.inputs[operand].owner for operand in sources]
        folded = op.clone()
        args = folded.comparator.block.args
        for operand, source in sources.items():
            folded.operands[operand] = source
            lhs, rhs = args[2 * operand], args[2 * operand + 1]
            lhs_uses, rhs_uses = list(lhs.uses), list(rhs.uses)
            for use in lhs_uses:
                use.operation.operands[use.index] = rhs
            for use in rhs_uses:
                use.operation.operands[use.index] = lhs
        rewriter.insert(folded, InsertPoint.before(op))
        results: list[SSAValue] = list(folded.results)
        for operand in sources:
            slices = [use.operation for use in op.results[operand].uses]
            if slices and all(isinstance(s, SliceOp) for s in slices):
                for s in slices:  # the slice of the sort, negated
                    twice = [use.operation for use in s.result.uses if isinstance(use.operation, NegateOp)]
                    if any(not isinstance(use.operation, NegateOp) for use in s.result.uses):
                        negate = NegateOp(operands=[s.result], result_types=[s.result.type])
                        rewriter.insert(negate, InsertPoint.after(s))
                        rewriter.replace_uses_with_if(
                            s.result, negate.result, lambda use, n=negate: not isinstance(use.operation, NegateOp)
                        )
                    for again in twice:  # -(-v) is v: JAX's -top_k(-x, k)[0]
                        rewriter.replace(again, [], [s.result])
            else:
                negate = NegateOp(operands=[folded.results[operand]], result_types=[folded.results[operand].type])
                rewriter.insert(negate, InsertPoint.before(op))
                results[operand] = negate.result
        rewriter.replace(op, [], results)
        for negation in negations:  # the whole operand's negation, when nothing else reads it
            if isinstance(negation, Operation) and negation.parent is not None and not negation.results[0].uses:
                rewriter.erase(negation)


@dataclass(frozen=True)
class XlaFoldSortNegationPass(ModulePass):
    name = "xla-fold-sort-negation"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([FoldNegatedSortKey()]), apply_recursively=False
        ).rewrite_module(op)
