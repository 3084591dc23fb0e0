"""The linear-algebra family to linalg: `xla.dot`, `xla.dot_general` -> a zero fill
and one generic (parallel batch and free loops, reduction contracting loops, body
mul + add); f16/bf16 accumulate in an f32 tensor, rounded once by a truncating generic
(as the interpreter does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    TensorType,
    f32,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.xla.base import elem_of, is_float, is_pred, shape_of
from xla_opt.dialects.xla.base import tensor as tensor_type

from .common import PARALLEL, REDUCTION, affine_map, fill_with_zero, generic, is_half


def multiply_accumulate(
    element_type: Attribute,
) -> Callable[[SSAValue, SSAValue, SSAValue], tuple[list[Operation], SSAValue]]:
    """acc + lhs * rhs on scalars of `element_type` (the accumulator in f32 for
    f16/bf16): floats round per op, integers wrap, PRED is acc | (lhs & rhs)."""

    def half(lhs: SSAValue, rhs: SSAValue, acc: SSAValue):
        wide_lhs, wide_rhs = arith.ExtFOp(lhs, f32), arith.ExtFOp(rhs, f32)
        product = arith.MulfOp(wide_lhs, wide_rhs)
        total = arith.AddfOp(acc, product)
        return [wide_lhs, wide_rhs, product, total], total.result

    def floating(lhs: SSAValue, rhs: SSAValue, acc: SSAValue):
        product = arith.MulfOp(lhs, rhs)
        total = arith.AddfOp(acc, product)
        return [product, total], total.result

    def integer(lhs: SSAValue, rhs: SSAValue, acc: SSAValue):
        product = arith.MuliOp(lhs, rhs)
        total = arith.AddiOp(acc, product)
        return [product, total], total.result

    def pred(lhs: SSAValue, rhs: SSAValue, acc: SSAValue):
        both = arith.AndIOp(lhs, rhs)
        either = arith.OrIOp(acc, both)
        return [both, either], either.result

    if is_half(element_type):
        return half
    if is_float(element_type):
        return floating
    if is_pred(element_type):
        return pred
    return integer


def lower_dot_general(
    op: xla.DotOp | xla.DotGeneralOp,
    rewriter: PatternRewriter,
    lhs_batch: Sequence[int],
    rhs_batch: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_contracting: Sequence[int],
) -> None:
    """One generic whose loops nest as (batch, lhs free, contracting, rhs free): the
    innermost loop then walks rows of rhs and of the result contiguously, which LLVM
    vectorizes, while each result element still sums its products in contracting
    order (the same result as with the contraction innermost)."""
    element_type = elem_of(op.lhs.type)
    lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contracting]
    n_batch, n_lhs_free, n_contracting = len(lhs_batch), len(lhs_free), len(lhs_contracting)
    n_parallel = n_batch + n_lhs_free + len(rhs_free)
    n_loops = n_parallel + n_contracting
    contracting_start = n_batch + n_lhs_free
    rhs_free_start = contracting_start + n_contracting

    def operand_loops(rank: int, batch, free, contracting, free_offset: int) -> list[int]:
        loops = [0] * rank
        for i, d in enumerate(batch):
            loops[d] = i
        for i, d in enumerate(free):
            loops[d] = free_offset + i
        for i, d in enumerate(contracting):
            loops[d] = contracting_start + i
        return loops

    lhs_map = affine_map(n_loops, operand_loops(lhs_rank, lhs_batch, lhs_free, lhs_contracting, n_batch))
    rhs_map = affine_map(
        n_loops, operand_loops(rhs_rank, rhs_batch, rhs_free, rhs_contracting, rhs_free_start)
    )
    result_loops = [*range(contracting_start), *range(rhs_free_start, n_loops)]
    iterators = [REDUCTION if contracting_start <= d < rhs_free_start else PARALLEL for d in range(n_loops)]
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    accumulator_type = tensor_type(shape_of(result_type), f32 if is_half(element_type) else element_type)
    fill = fill_with_zero(accumulator_type)
    mac = multiply_accumulate(element_type)

    maps = [lhs_map, rhs_map, affine_map(n_loops, result_loops)]

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        ops, total = mac(*args)
        return ops, [total]

    dot = generic([op.lhs, op.rhs], [fill[-1].results[0]], maps, iterators, body)
    new_ops: list[Operation] = [*fill, dot]
    if is_half(element_type):
        empty = tensor.EmptyOp([], result_type)

        def truncate(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            rounded = arith.TruncFOp(args[0], element_type)
            return [rounded], [rounded.result]

        identity = affine_map(n_parallel, range(n_parallel))
        new_ops += [
            empty,
            generic(
                dot.results, [empty.tensor], [identity, identity], [PARALLEL] * n_parallel, truncate
            ),
        ]
    rewriter.replace(op, new_ops, new_ops[-1].results)


class DotToGeneric(RewritePattern):
    """xla.dot: lhs's last dimension contracts with rhs's first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.DotOp, rewriter: PatternRewriter):
        lower_dot_general(op, rewriter, (), (), (len(shape_of(op.lhs.type)) - 1,), (0,))


class DotGeneralToGeneric(RewritePattern):
    """xla.dot_general -> one generic with its batching and contracting dimensions."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.DotGeneralOp, rewriter: PatternRewriter):
        lower_dot_general(
            op,
            rewriter,
            op.get_lhs_batching_dimensions(),
            op.get_rhs_batching_dimensions(),
            op.get_lhs_contracting_dimensions(),
            op.get_rhs_contracting_dimensions(),
        )


PATTERNS: list[RewritePattern] = [DotToGeneric(), DotGeneralToGeneric()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset({xla.DotOp.name, xla.DotGeneralOp.name})
