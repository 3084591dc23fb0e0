"""The reductions family to linalg: `xla.reduce` -> one fill generic per result (the
init value broadcast into the result) and one `linalg.generic` with parallel loops for
the kept dimensions and reduction loops for the reduced ones, whose body is the reducer
as scalar code."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, TensorType, i8, i64
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.windows import Window, padded_size
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.base import elem_of, is_float, shape_of
from xla_opt.dialects.xla.base import tensor as tensor_type
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


def _padded_and_dilated(x: SSAValue, init: SSAValue, window: Window) -> list[Operation]:
    """`x` base-dilated and padded with `init` as the window sees it (the spec: padded
    and dilated positions hold the init value): an xla.pad with interior padding
    dilation - 1, lowered by its own pattern; nothing when there is neither."""
    rank = len(window.dimensions)
    lows = [lo for lo, _ in window.padding]
    highs = [hi for _, hi in window.padding]
    interiors = [d - 1 for d in window.base_dilations]
    if not any(lows) and not any(highs) and not any(interiors):
        return []
    shape = shape_of(x.type)
    padded = [padded_size(shape[d], window.base_dilations[d], window.padding[d]) for d in range(rank)]
    pad = xla.PadOp.build(
        operands=[x, init],
        result_types=[tensor_type(padded, elem_of(x.type))],
        properties={
            "edge_padding_low": DenseArrayBase.from_list(i64, lows),
            "edge_padding_high": DenseArrayBase.from_list(i64, highs),
            "interior_padding": DenseArrayBase.from_list(i64, interiors),
        },
    )
    return [pad]


class ReduceWindowToGeneric(RewritePattern):
    """xla.reduce_window -> each input padded and base-dilated with its init value
    (xla.pad), fills of the init values into the results, then one generic with
    parallel loops (o...) over the results and reduction loops (w...) over the window
    reading input index o * stride + w * window_dilation in every dimension. The loops
    nest result then window dimensions, in order, so each result element folds its
    window in row-major order from the init value, as the interpreter does; the
    reducer is inlined unchanged (no reassociation), so floats agree exactly.

    linalg takes a loop's bound from an operand indexing it with a plain dimension:
    an unread tensor.empty of the window's shape carries the window loops' bounds."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ReduceWindowOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        inputs, inits = list(op.inputs), list(op.init_values)
        n = len(inputs)
        window = op.window()
        rank = len(window.dimensions)
        if 0 in shape_of(op.outputs[0].type):
            empties = [tensor.EmptyOp([], r.type) for r in op.outputs]
            rewriter.replace(op, empties, [e.tensor for e in empties])
            return
        new_ops: list[Operation] = []
        sources: list[SSAValue] = []
        for x, init in zip(inputs, inits, strict=True):
            pad = _padded_and_dilated(x, init, window)
            new_ops += pad
            sources.append(pad[-1].results[0] if pad else x)
        accumulators: list[SSAValue] = []
        for init, result in zip(inits, op.outputs, strict=True):
            fill = fill_from_scalar(init, result.type)  # type: ignore[arg-type]
            new_ops += fill
            accumulators.append(fill[-1].results[0])
        bounds = tensor.EmptyOp([], TensorType(i8, window.dimensions))
        new_ops.append(bounds)

        loops = 2 * rank
        read = AffineMapAttr(
            AffineMap(
                loops,
                0,
                tuple(
                    AffineExpr.dimension(d) * window.strides[d]
                    + AffineExpr.dimension(rank + d) * window.window_dilations[d]
                    for d in range(rank)
                ),
            )
        )

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            elements, accs = args[:n], args[n + 1 :]
            return inline_computation(op.body, [*accs, *elements])

        reduce = generic(
            [*sources, bounds.tensor],
            accumulators,
            [read] * n + [affine_map(loops, range(rank, loops))] + [affine_map(loops, range(rank))] * n,
            [PARALLEL] * rank + [REDUCTION] * rank,
            body,
        )
        rewriter.replace(op, [*new_ops, reduce], reduce.results)


PATTERNS: list[RewritePattern] = [ReduceToGeneric(), MapToGeneric(), ReduceWindowToGeneric()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset({xla.ReduceOp.name, xla.MapOp.name, xla.ReduceWindowOp.name})
