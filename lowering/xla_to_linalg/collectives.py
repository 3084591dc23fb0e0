"""The collectives family to linalg, for the one replica the JIT runs: replica_id and
the collectives, one pattern per op (a multi-replica lowering replaces these patterns).

With one replica every replica group is {0} (an empty `replica_groups` is one group of
all replicas), so, as the interpreter computes them:

* replica_id is the constant 0 (a tensor<ui32>);
* all_reduce folds one contribution: "the reducer applied to no other operand", the
  operand itself; all_gather concatenates one block, reduce_scatter keeps the only
  block and all_to_all splits into and concatenates one block (split_count 1): each
  result is the operand;
* collective_permute: "a replica that is no target gets zeros", so the operand when a
  pair [0, 0] targets replica 0, else zeros.

A program made for more replicas (a replica id other than 0 in replica_groups or
source_target_pairs, a result shape of a group of several, a split_count other than
1) is a located error naming what does not fit one replica: the interpreter runs it
on `replicas=N`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.dialects.shapes.collectives import fmt_rows
from xla_opt.dialects.xla import collectives as co
from xla_opt.dialects.xla.element_types import shape_of

from .common import fill_with_zero

RUNS_ONE_REPLICA = "the jit backend runs one replica (the interpreter runs replicas=N)"


def _fits_one_replica(op: Operation, what: str, rows: Sequence[Sequence[int]]) -> None:
    """Every replica id named in `rows` (replica_groups, source_target_pairs) is 0."""
    others = sorted({r for row in rows for r in row if r != 0})
    if others:
        raise DiagnosticError(
            [op_diagnostic(op, f"{what} {fmt_rows(rows)} names replica ids {others}: {RUNS_ONE_REPLICA}")]
        )


def _same_shape_as_operand(op: Operation, operand_type: TensorType, result_type: TensorType) -> None:
    """A group of one: all_gather and reduce_scatter keep the operand's shape."""
    if shape_of(operand_type) != shape_of(result_type):
        raise DiagnosticError(
            [
                op_diagnostic(
                    op,
                    f"the result type {result_type} is that of a replica group of several "
                    f"(operand {operand_type}): {RUNS_ONE_REPLICA}",
                )
            ]
        )


class ReplicaIdToConstant(RewritePattern):
    """replica_id -> the constant 0: the JIT runs replica 0 only."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReplicaIdOp, rewriter: PatternRewriter, /) -> None:
        t = op.result.type
        assert isinstance(t, TensorType)
        rewriter.replace(op, arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0])))


class AllReduceOfOne(RewritePattern):
    """all_reduce over a group of one: each result is its input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllReduceOp, rewriter: PatternRewriter, /) -> None:
        _fits_one_replica(op, "replica_groups", op.get_replica_groups())
        rewriter.replace(op, [], list(op.inputs))


def _forward_block_of_one(op: co.AllGatherOp | co.ReduceScatterOp, rewriter: PatternRewriter) -> None:
    """all_gather / reduce_scatter over a group of one: one block, the operand."""
    _fits_one_replica(op, "replica_groups", op.get_replica_groups())
    _same_shape_as_operand(op, op.operand.type, op.result.type)  # type: ignore[arg-type]
    rewriter.replace(op, [], [op.operand])


class AllGatherOfOne(RewritePattern):
    """all_gather over a group of one: the operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllGatherOp, rewriter: PatternRewriter, /) -> None:
        _forward_block_of_one(op, rewriter)


class ReduceScatterOfOne(RewritePattern):
    """reduce_scatter over a group of one: the operand reduced with nothing, one block."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReduceScatterOp, rewriter: PatternRewriter, /) -> None:
        _forward_block_of_one(op, rewriter)


class AllToAllOfOne(RewritePattern):
    """all_to_all over a group of one (split_count 1): the operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllToAllOp, rewriter: PatternRewriter, /) -> None:
        _fits_one_replica(op, "replica_groups", op.get_replica_groups())
        if op.get_split_count() != 1:
            message = f"split_count {op.get_split_count()} needs as many replicas: {RUNS_ONE_REPLICA}"
            raise DiagnosticError([op_diagnostic(op, message)])
        rewriter.replace(op, [], [op.operand])


class CollectivePermuteOfOne(RewritePattern):
    """collective_permute on one replica: the operand if [0, 0] is a pair, else zeros
    (replica 0 is no target)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.CollectivePermuteOp, rewriter: PatternRewriter, /) -> None:
        pairs = op.get_source_target_pairs()
        _fits_one_replica(op, "source_target_pairs", pairs)
        if pairs:  # only [0, 0] is left
            rewriter.replace(op, [], [op.operand])
            return
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        rewriter.replace(op, fill_with_zero(result_type))


PATTERNS: list[RewritePattern] = [
    ReplicaIdToConstant(),
    AllReduceOfOne(),
    AllGatherOfOne(),
    ReduceScatterOfOne(),
    AllToAllOfOne(),
    CollectivePermuteOfOne(),
]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(op.name for op in co.COLLECTIVE_OPS)
