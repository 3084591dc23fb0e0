"""`convert-scf-while-to-cf`: `scf.while` to branches (xDSL 0.74's convert-scf-to-cf
handles scf.for, scf.if and scf.index_switch, not scf.while).

    scf.while (%x = %init) { before(%x) ... scf.condition(%c) %args } do { after(%y) ... scf.yield %next }

becomes

    cf.br ^before(%init)
  ^before(%x): ...  cf.cond_br %c, ^after(%args), ^end(%args)
  ^after(%y):  ...  cf.br ^before(%next)
  ^end(%results): ...

as MLIR's SCFToControlFlow does.

Every `scf.for`, `scf.if` and `scf.index_switch` that encloses an `scf.while` is
lowered to branches too: their regions hold a single block, so the branches of a
while inside one would not verify (MLIR lowers all scf ops in one conversion; xDSL's
`convert-scf-to-cf` lowers the remaining ones).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.dialects.cf import BranchOp, ConditionalBranchOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from xla_opt.pattern_dispatch import ConversionWalker


class WhileLowering(RewritePattern):
    """Lowers `scf.while` to conditional branching."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter):
        init_block = op.parent_block()
        if init_block is None:
            return
        end_block = init_block.split_before(op)
        for t in op.result_types:
            end_block.insert_arg(t, len(end_block.args))

        before = op.before_region.first_block
        after = op.after_region.first_block
        assert before is not None and after is not None
        condition = before.last_op
        yield_ = op.after_region.last_block.last_op  # type: ignore[union-attr]
        assert isinstance(condition, scf.ConditionOp) and isinstance(yield_, scf.YieldOp)

        rewriter.replace(
            condition,
            ConditionalBranchOp(
                condition.condition, after, condition.args, end_block, condition.args
            ),
        )
        rewriter.replace(yield_, BranchOp(before, *yield_.operands))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(end_block))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(after))
        rewriter.insert(BranchOp(before, *op.arguments), InsertPoint.at_end(init_block))
        rewriter.replace(op, [], end_block.args)


class EnclosingWhileLowering(RewritePattern):
    """Lowers an `scf.for`/`scf.if`/`scf.index_switch` that holds an `scf.while`
    (with xDSL's pattern for it), so that the while's branches land in a region that
    may hold several blocks."""

    def __init__(self, lowering: RewritePattern):
        self.lowering = lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, scf.ForOp | scf.IfOp | scf.IndexSwitchOp) and any(
            isinstance(inner, scf.WhileOp) for inner in op.walk()
        ):
            self.lowering.match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class ConvertScfWhileToCfPass(ModulePass):
    """`scf.while` to branches, and the scf ops around one (see the module doc)."""

    name = "convert-scf-while-to-cf"
    input_dialects = ("arith", "memref", "scf")
    output_dialects = ("cf",)

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # most programs have no while loop: one walk instead of the walker's matching of
        # every scf op against a walk of its body
        if not any(isinstance(inner, scf.WhileOp) for inner in op.walk()):
            return
        patterns = [WhileLowering(), *(EnclosingWhileLowering(p) for p in (ForLowering(), IfLowering(), SwitchLowering()))]
        ConversionWalker(patterns).rewrite_module(op)
