"""The control-flow family to scf/func: `xla.while` -> `scf.while`, `xla.conditional`
-> (nested) `scf.if`, `xla.call` -> `func.call`; the regions are moved as they are
(their xla ops are lowered by the other patterns of the pass) and their `xla.return`
becomes `scf.condition` / `scf.yield`.

A while whose state holds tuples first becomes a while over the tuples' tensors:
buffers have no tuple type, and the tuple ops left at its boundaries fold away
(get_tuple_element of tuple)."""

from __future__ import annotations

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    IntegerAttr,
    TupleType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.control_flow import CONTROL_FLOW_OPS

Path = tuple[int, ...]


def tuple_leaves(t: Attribute, path: Path = ()) -> list[tuple[Path, Attribute]]:
    """(path, type) of every non-tuple element of `t`, depth first (t itself if it is
    not a tuple)."""
    if not isinstance(t, TupleType):
        return [(path, t)]
    return [leaf for i, e in enumerate(t.types.data) for leaf in tuple_leaves(e, (*path, i))]


def extract_leaves(value: SSAValue, insert: InsertPoint, location: Attribute) -> list[SSAValue]:
    """The tensors of `value` (get_tuple_element chains inserted at `insert`, located
    at `location`)."""
    leaves = []
    for path, _ in tuple_leaves(value.type):
        v = value
        for index in path:
            element_type = v.type.types.data[index]  # type: ignore[attr-defined]
            get = xla.GetTupleElementOp.build(
                operands=[v], result_types=[element_type], properties={"index": IntegerAttr(index, i64)}
            )
            get.location = location
            Rewriter.insert_op(get, insert)
            v = get.result
        leaves.append(v)
    return leaves


def build_from_leaves(t: Attribute, leaves: list[SSAValue], insert: InsertPoint, location: Attribute) -> SSAValue:
    """A value of type `t` made of `leaves` (consumed from the front)."""
    if not isinstance(t, TupleType):
        return leaves.pop(0)
    elements = [build_from_leaves(e, leaves, insert, location) for e in t.types.data]
    op = xla.TupleOp.build(operands=[elements], result_types=[t])
    op.location = location
    Rewriter.insert_op(op, insert)
    return op.result


class FlattenTupleWhileState(RewritePattern):
    """An xla.while whose state holds tuples -> an xla.while over the tuples' tensors;
    each region rebuilds the tuples from its new arguments and returns the tensors of
    what it returned; the results are rebuilt into tuples after the loop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.WhileOp, rewriter: PatternRewriter):
        state_types = [v.type for v in op.operand]
        if not any(isinstance(t, TupleType) for t in state_types):
            return
        flat_types = [t for s in state_types for _, t in tuple_leaves(s)]
        before_op = InsertPoint.before(op)
        flat_operands = [leaf for v in op.operand for leaf in extract_leaves(v, before_op, op.location)]
        for region in (op.cond, op.body):
            block = region.block
            old_args = list(block.args)
            new_args = [block.insert_arg(t, len(block.args)) for t in flat_types]
            at_start = InsertPoint.at_start(block)
            remaining = list(new_args)
            for arg in old_args:
                arg.replace_all_uses_with(build_from_leaves(arg.type, remaining, at_start, op.location))
            for arg in reversed(old_args):
                block.erase_arg(arg)
        body_return = op.body.block.last_op
        assert isinstance(body_return, ReturnOp)
        at_return = InsertPoint.before(body_return)
        flat_returned = [leaf for v in body_return.operands for leaf in extract_leaves(v, at_return, op.location)]
        rewriter.replace(body_return, ReturnOp.build(operands=[flat_returned]))
        new_while = xla.WhileOp.build(
            operands=[flat_operands],
            result_types=[flat_types],
            regions=[
                rewriter.move_region_contents_to_new_regions(op.cond),
                rewriter.move_region_contents_to_new_regions(op.body),
            ],
        )
        new_while.location = op.location
        rewriter.insert_op(new_while, before_op)
        after_op = InsertPoint.after(new_while)
        remaining = list(new_while.results)
        rebuilt = [build_from_leaves(t, remaining, after_op, op.location) for t in state_types]
        rewriter.replace(op, [], rebuilt)


class WhileToScf(RewritePattern):
    """xla.while -> scf.while: cond becomes the before region (its xla.return, a PRED
    scalar, becomes scf.condition forwarding the state), body the after region."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.WhileOp, rewriter: PatternRewriter):
        before = rewriter.move_region_contents_to_new_regions(op.cond)
        after = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, 
            scf.WhileOp(op.operand, [r.type for r in op.outputs], before, after)
        )


def branch_region(branch: Region, operand: SSAValue) -> Region:
    """A branch's block in a new region of a non-isolated op, its argument replaced by
    the branch operand (the branch's xla.return is left for ReturnToScf)."""
    block = Block()
    Rewriter.inline_block(branch.block, InsertPoint.at_end(block), [operand])
    return Region(block)


class ConditionalToScf(RewritePattern):
    """xla.conditional -> scf.if on a PRED index (true: branch 0); on an S32 index,
    nested scf.if on index == 0, 1, ..., N-2, the last branch running otherwise (out of
    range included)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConditionalOp, rewriter: PatternRewriter):
        branches = list(op.branches)
        operands = list(op.branch_operands)
        result_types = [r.type for r in op.outputs]
        if len(branches) == 1:
            self.inline_single_branch(op, rewriter, branches[0], operands[0])
            return
        index_type = elem_of(op.index.type)
        index = tensor.ExtractOp(op.index, [], index_type)
        if index_type == i1:
            selected = scf.IfOp(
                index,
                result_types,
                branch_region(branches[0], operands[0]),
                branch_region(branches[1], operands[1]),
            )
            rewriter.replace(op, [index, selected])
            return

        def select_from(k: int) -> list[Operation]:
            """Ops running branch k if index == k, else the branches after k."""
            constant = arith.ConstantOp(IntegerAttr(k, i32))
            is_k = arith.CmpiOp(index, constant, "eq")
            if k + 1 == len(branches) - 1:
                otherwise = branch_region(branches[k + 1], operands[k + 1])
            else:
                rest = select_from(k + 1)
                otherwise = Region(Block([*rest, scf.YieldOp(*rest[-1].results)]))
            selected = scf.IfOp(
                is_k, result_types, branch_region(branches[k], operands[k]), otherwise
            )
            return [constant, is_k, selected]

        rewriter.replace(op, [index, *select_from(0)])

    @staticmethod
    def inline_single_branch(
        op: xla.ConditionalOp,
        rewriter: PatternRewriter,
        branch: Region,
        operand: SSAValue,
    ) -> None:
        """Every index selects the only branch: its ops replace the conditional."""
        block = branch.block
        terminator = block.last_op
        assert isinstance(terminator, ReturnOp)
        # a returned block argument is the branch operand itself
        results = [operand if v is block.args[0] else v for v in terminator.operands]
        rewriter.erase(terminator)
        rewriter.inline_block(block, InsertPoint.before(op), [operand])
        rewriter.replace(op, [], results)


class ReturnToScf(RewritePattern):
    """xla.return ending a region of scf.while / scf.if (moved there from xla.while /
    xla.conditional): scf.condition(pred, state...) in the before region of scf.while,
    scf.yield elsewhere."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReturnOp, rewriter: PatternRewriter):
        parent = op.parent_op()
        if isinstance(parent, scf.WhileOp) and op.parent_region() is parent.before_region:
            pred = tensor.ExtractOp(op.results_[0], [], i1)
            state = op.parent_block().args  # type: ignore[union-attr]
            rewriter.replace(op, [pred, scf.ConditionOp(pred, *state)])
        elif isinstance(parent, scf.WhileOp | scf.IfOp):
            rewriter.replace(op, scf.YieldOp(*op.results_))


class CallToFunc(RewritePattern):
    """xla.call -> func.call of the same callee."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.CallOp, rewriter: PatternRewriter):
        rewriter.replace(op, 
            func.CallOp(op.callee, op.args, [r.type for r in op.outputs])
        )


PATTERNS: list[RewritePattern] = [
    FlattenTupleWhileState(),
    WhileToScf(),
    ConditionalToScf(),
    ReturnToScf(),
    CallToFunc(),
]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(op.name for op in (*CONTROL_FLOW_OPS, ReturnOp))
