"""The reductions family to linalg: `xla.reduce` -> one fill generic per result (the
init value broadcast into the result) and one `linalg.generic` with parallel loops for
the kept dimensions and reduction loops for the reduced ones, whose body is the reducer
as scalar code."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.base import elem_of, is_float, shape_of
from xla_opt.dialects.xla.computation import ReturnOp

from .common import PARALLEL, REDUCTION, affine_map, fill_from_scalar, generic
from .computation import inline_computation
from .elementwise import identity_generic, in_computation


def reduce_loops(rank: int, reduced: Sequence[int]) -> list[int]:
    """The loop iterating each input dimension: dimension d is loop d, except that the
    reduced dimensions' loops are taken in the order `reduced` lists them, so that each
    result element folds its inputs in the interpreter's order (row-major over
    `dimensions` as listed); for sorted `dimensions` this is the identity."""
    loops = list(range(rank))
    for slot, d in zip(sorted(reduced), reduced, strict=True):
        loops[d] = slot
    return loops


def _float_extremum_reducer(op: xla.ReduceOp):
    """arith.MaximumfOp/MinimumfOp when the reducer is one float xla.maximum/minimum
    of its two arguments, else None."""
    if len(op.inputs) != 1:
        return None
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[1], ReturnOp) or ops[1].operands[0] is not ops[0].results[0]:
        return None
    kinds = {ew.MaximumOp: arith.MaximumfOp, ew.MinimumOp: arith.MinimumfOp}
    kind = kinds.get(type(ops[0]))
    if kind is None or set(ops[0].operands) != set(block.args) or not is_float(elem_of(op.inputs[0].type)):
        return None
    return kind


class ReduceToGeneric(RewritePattern):
    """xla.reduce -> fills of the init values + a generic folding the inputs into
    them, the reducer (accumulators then inputs) inlined as scalar code."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ReduceOp, rewriter: PatternRewriter):
        inputs, inits = list(op.inputs), list(op.init_values)
        n = len(inputs)
        rank = len(shape_of(inputs[0].type))
        reduced = op.get_dimensions()
        kept = [d for d in range(rank) if d not in reduced]
        loops = reduce_loops(rank, reduced)

        fills: list[Operation] = []
        accumulators: list[SSAValue] = []
        for init, result in zip(inits, op.outputs, strict=True):
            ops = fill_from_scalar(init, result.type)  # type: ignore[arg-type]
            fills += ops
            accumulators.append(ops[-1].results[0])

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            elements, accs = args[:n], args[n:]
            extremum = _float_extremum_reducer(op)
            if extremum is not None:
                # a max/min fold is order-independent but for which zero or NaN wins;
                # NaN-propagating maximumf/minimumf are what LLVM vectorizes
                combine = extremum(accs[0], elements[0])
                return [combine], [combine.result]
            ops, results = inline_computation(op.body, [*accs, *elements])
            for inner in ops:
                # XLA may reassociate a reduction (the spec leaves its order open):
                # flag the float combiners so that LLVM can vectorize the fold
                if isinstance(inner, arith.AddfOp | arith.MulfOp):
                    inner.fastmath = arith.FastMathFlagsAttr([FastMathFlag.REASSOC])
            return ops, results

        reduce = generic(
            inputs,
            accumulators,
            [affine_map(rank, loops)] * n + [affine_map(rank, kept)] * n,
            [REDUCTION if d in reduced else PARALLEL for d in range(rank)],
            body,
        )
        rewriter.replace(op, [*fills, reduce], reduce.results)


class MapToGeneric(RewritePattern):
    """xla.map -> one element-wise generic (identity maps, parallel loops) whose body is
    the computation inlined on one element of each input. The spec's `dimensions` are
    all dimensions in order (the verifier enforces it), so every loop is mapped."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.MapOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        inputs = list(op.inputs)

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            return inline_computation(op.computation, args[: len(inputs)])

        rewriter.replace(op, identity_generic(inputs, op.result.type, body))


PATTERNS: list[RewritePattern] = [ReduceToGeneric(), MapToGeneric()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset({xla.ReduceOp.name, xla.MapOp.name})
