"""The structural half of convert-xla-to-linalg: reductions, dots and control flow.

* `xla.reduce` -> one fill generic per result (the init value broadcast into the
  result) and one `linalg.generic` with parallel loops for the kept dimensions and
  reduction loops for the reduced ones, whose body is the reducer as scalar code.
* `xla.dot`, `xla.dot_general` -> a zero fill and one generic (parallel batch and free
  loops, reduction contracting loops, body mul + add); f16/bf16 accumulate in an f32
  tensor, rounded once by a truncating generic (as the interpreter does).
* `xla.while` -> `scf.while`, `xla.conditional` -> (nested) `scf.if`, `xla.call` ->
  `func.call`; the regions are moved as they are (their xla ops are lowered by the
  other patterns of the pass) and their `xla.return` becomes `scf.condition` /
  `scf.yield`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f32,
    i1,
    i32,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.base import elem_of, ints, is_float, is_pred, shape_of
from xla_opt.dialects.xla.base import tensor as tensor_type
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.lowering.scalar_ops import signless

from .computation import inline_computation

PARALLEL = linalg.IteratorTypeAttr.parallel()
REDUCTION = linalg.IteratorTypeAttr.reduction()

BodyBuilder = Callable[[Sequence[BlockArgument]], tuple[list[Operation], list[SSAValue]]]


# --------------------------------------------------------------------------------------
# Building generics
# --------------------------------------------------------------------------------------


def affine_map(num_loops: int, loops: Sequence[int]) -> AffineMapAttr:
    """`(d0, ..., d<num_loops-1>) -> (d<loops[0]>, d<loops[1]>, ...)`."""
    return AffineMapAttr(AffineMap(num_loops, 0, tuple(AffineExpr.dimension(d) for d in loops)))


def generic(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    maps: Sequence[AffineMapAttr],
    iterators: Sequence[Attribute],
    build_body: BodyBuilder,
) -> linalg.GenericOp:
    """A linalg.generic on tensors whose body (one scalar argument per input, then per
    output) is made by `build_body(args) -> (ops, yielded values)`."""
    block = Block(arg_types=[elem_of(v.type) for v in (*inputs, *outputs)])
    ops, yielded = build_body(block.args)
    block.add_ops([*ops, linalg.YieldOp(*yielded)])
    return linalg.GenericOp(
        inputs,
        outputs,
        Region(block),
        maps,
        iterators,
        result_types=[v.type for v in outputs],
    )


def fill_from_scalar(value: SSAValue, result_type: TensorType) -> list[Operation]:
    """`result_type` filled with the rank-0 tensor `value`: tensor.empty + a generic
    reading `value` through the map `(d...) -> ()`; the last op gives the result."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    fill = generic(
        [value],
        [empty.tensor],
        [affine_map(rank, []), affine_map(rank, range(rank))],
        [PARALLEL] * rank,
        lambda args: ([], [args[0]]),
    )
    return [empty, fill]


def fill_with_zero(result_type: TensorType) -> list[Operation]:
    """`result_type` filled with zeros (false for i1): tensor.empty + a generic whose
    body yields the constant; the last op gives the result."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        zero = arith.ConstantOp(zero_attr(elem_of(result_type)))
        return [zero], [zero.result]

    fill = generic(
        [], [empty.tensor], [affine_map(rank, range(rank))], [PARALLEL] * rank, body
    )
    return [empty, fill]


def zero_attr(element_type: Attribute) -> IntegerAttr | FloatAttr:
    if is_float(element_type):
        return FloatAttr(0.0, element_type)  # type: ignore[arg-type]
    return IntegerAttr(0, signless(element_type))


def is_half(element_type: Attribute) -> bool:
    return isinstance(element_type, Float16Type | BFloat16Type)


# --------------------------------------------------------------------------------------
# Reduce
# --------------------------------------------------------------------------------------


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
        reduced = ints(op.dimensions)
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


# --------------------------------------------------------------------------------------
# Dot, DotGeneral
# --------------------------------------------------------------------------------------


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


# Rows of the result computed together, so that each vector of rhs loaded in the
# innermost loop serves that many rows. Measured on f32 matmuls of 256^2 to 1024^2:
# between no change and 2x faster, depending on the arrays' alignment. Blocking the
# contraction for the L2 cache as well measured no gain at 1024^2, where the loads and
# stores of the result rows bound the loop: keeping a result tile in registers is the
# next step.
ROW_BLOCK = 4


def _block_rows(maps, iterators, extents, row_loop: int, element_type):
    """Split the last lhs-free loop r into a loop over blocks of ROW_BLOCK rows (in r's
    place) and a new innermost loop over the rows of a block (r = outer * ROW_BLOCK +
    inner): LLVM unrolls the innermost loop fully and vectorizes the rhs-free loop
    around it. Each result element still sums its products in contraction order.

    xDSL takes a loop's bound from the first operand indexing it with a plain
    dimension, so two unread placeholder inputs, first, carry the two loops' extents.
    Returns (placeholder constants, maps, iterators), or None when not worth it."""
    rows = extents[row_loop]
    if not is_float(element_type) or is_half(element_type) or rows <= ROW_BLOCK or rows % ROW_BLOCK:
        return None
    n = len(iterators)
    d = AffineExpr.dimension
    split = d(row_loop) * ROW_BLOCK + d(n)

    def rewrite(m: AffineMapAttr) -> AffineMapAttr:
        return AffineMapAttr(AffineMap(n + 1, 0, tuple(split if e == d(row_loop) else e for e in m.data.results)))

    placeholders = [
        arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(tensor_type([extent], element_type), [0.0]))
        for extent in (rows // ROW_BLOCK, ROW_BLOCK)
    ]
    placeholder_maps = [AffineMapAttr(AffineMap(n + 1, 0, (d(loop),))) for loop in (row_loop, n)]
    return placeholders, [*placeholder_maps, *(rewrite(m) for m in maps)], [*iterators, PARALLEL]


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

    inputs: list[SSAValue] = [op.lhs, op.rhs]
    maps = [lhs_map, rhs_map, affine_map(n_loops, result_loops)]
    extra_ops: list[Operation] = []
    if lhs_free and rhs_free:
        extents = [0] * n_loops
        for operand, operand_map in ((op.lhs, lhs_map), (op.rhs, rhs_map)):
            for size, e in zip(shape_of(operand.type), operand_map.data.results, strict=True):
                extents[e.position] = size  # type: ignore[attr-defined]
        tiled = _block_rows(maps, iterators, extents, contracting_start - 1, element_type)
        if tiled is not None:
            extra_ops, maps, iterators = tiled
            inputs = [*(p.result for p in extra_ops), *inputs]
    n_placeholders = len(inputs) - 2

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        ops, total = mac(*args[n_placeholders : n_placeholders + 3])
        return ops, [total]

    dot = generic(inputs, [fill[-1].results[0]], maps, iterators, body)
    new_ops: list[Operation] = [*fill, *extra_ops, dot]
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
            ints(op.lhs_batching_dimensions),
            ints(op.rhs_batching_dimensions),
            ints(op.lhs_contracting_dimensions),
            ints(op.rhs_contracting_dimensions),
        )


# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------


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


STRUCTURAL_PATTERNS: list[RewritePattern] = [
    ReduceToGeneric(),
    DotToGeneric(),
    DotGeneralToGeneric(),
    WhileToScf(),
    ConditionalToScf(),
    ReturnToScf(),
    CallToFunc(),
]
