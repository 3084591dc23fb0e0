"""The reductions family to linalg and loops over tensors; every computation region
(reducer, comparator, select, scatter) is inlined as scalar code.

* `xla.reduce` -> one fill generic per result (the init value broadcast into the
  result) and one `linalg.generic` with parallel loops for the kept dimensions and
  reduction loops for the reduced ones;
* `xla.map` -> one element-wise generic;
* `xla.reduce_window` -> the inputs padded and base-dilated with the init values
  (xla.pad), fills, and one generic with parallel result loops and reduction window
  loops (each window folded in row-major order, as the interpreter does); a scan
  longer than 16 (jnp.cumsum...) first becomes XLA:CPU's two-level scan of smaller
  windows (scan_windows.py);
* `xla.sort` -> a call of the radix-sort kernel (one LT / GT compare of a number key:
  jnp.sort, argsort, sort_key_val) and a gather generic per payload, else a stable
  bottom-up merge sort of a permutation (scf.for over tensors, tensor.insert), then
  one gather generic per operand;
* `xla.select_and_scatter` -> a fill and scf.for loops over the windows and their
  offsets, scattering into the carried result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i8,
    i32,
    i64,
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
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.reductions import sort_dimension
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.element_types import bit_width, elem_of, is_float, shape_of
from xla_opt.dialects.xla.reductions import REDUCTION_OPS
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.sort import WIDE_DIGIT_LENGTH, SortVariant
from xla_opt.lowering.utils.llvm_types import row_major_strides

from .common import PARALLEL, REDUCTION, affine_map, fill_from_scalar, generic, padded_and_dilated
from .computation import inline_computation
from .elementwise import identity_generic, in_computation
from .host_calls import call_external
from .scan_windows import CumulativeWindowToTreeScan
from .shape_ops import IndexArithmetic


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
            pad = padded_and_dilated(x, init, window)
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


# --------------------------------------------------------------------------------------
# Loops over tensors (sort, select_and_scatter)
# --------------------------------------------------------------------------------------

LoopBody = Callable[[SSAValue, Sequence[SSAValue]], tuple[list[Operation], list[SSAValue]]]


def for_loop(lb: SSAValue, ub: SSAValue, step: SSAValue, carried: Sequence[SSAValue], build: LoopBody) -> scf.ForOp:
    """scf.for from `lb` to `ub` carrying `carried`, whose body is made by
    `build(induction variable, carried block arguments) -> (ops, yielded values)`."""
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    ops, yielded = build(block.args[0], block.args[1:])
    block.add_ops([*ops, scf.YieldOp(*yielded)])
    return scf.ForOp(lb, ub, step, carried, Region(block))


def row_major_coordinates(b: IndexArithmetic, linear: SSAValue, shape: Sequence[int]) -> list[SSAValue]:
    """The coordinates of the row-major position `linear` in `shape`."""
    coordinates = []
    for d, stride in enumerate(row_major_strides(shape)):
        coordinate = b.div_const(linear, stride)
        coordinates.append(coordinate if d == 0 else b.rem_const(coordinate, shape[d]))
    return coordinates


def gather_along(perm: SSAValue, inputs: Sequence[SSAValue], dim: int) -> list[Operation]:
    """Each input reordered along `dim` by the integer permutation `perm` (same shape):
    result[..., k, ...] = x[..., perm[..., k, ...], ...]; a tensor.empty and a generic
    per input, whose results are every second op."""
    rank = len(shape_of(perm.type))
    gathers: list[Operation] = []
    for x in inputs:

        def gather(args: Sequence[BlockArgument], x: SSAValue = x) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            source = b.add_op(arith.IndexCastOp(args[0], IndexType()))
            indices = [source if d == dim else b.loop_index(d) for d in range(rank)]
            read = b.add_op(tensor.ExtractOp(x, indices, elem_of(x.type)))
            return b.ops, [read]

        gathers += identity_generic([perm], x.type, gather)  # type: ignore[arg-type]
    return gathers


class SortToLoops(RewritePattern):
    """xla.sort -> a stable bottom-up merge sort of a permutation, then a gather of
    every operand through it.

    The permutation (i64, the operands' shape) starts as the iota along `dimension`.
    A merge pass of width w merges, in every 1-D slice along `dimension`, each pair of
    neighbouring sorted runs [lo, lo + w) and [lo + w, lo + 2w) into the other buffer,
    taking the right run's element only when the comparator says it goes strictly
    before the left one (comparator(right, left)): equal elements keep their order, so
    the sort is stable, the interpreter's order for any comparator that is a strict
    weak order (TOTALORDER compares included, NaNs and all). Widths 1, 2, 4, ... up to
    n: the passes run in pairs (src -> dst, then dst -> src) so that the buffers are
    never swapped; a pass whose width reaches n copies. `is_stable` changes nothing.

    The loops carry tensors (scf.for iter_args) written by tensor.insert in the loop
    body that owns them, so that xla-bufferize writes them in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.SortOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        inputs = list(op.inputs)
        shape = shape_of(inputs[0].type)
        dim = sort_dimension(shape, op.get_dimension())
        n = shape[dim]
        if n <= 1 or 0 in shape:
            rewriter.replace(op, [], inputs)  # nothing to reorder
            return
        batch_shape = [size for d, size in enumerate(shape) if d != dim]
        perm_type = TensorType(i64, shape)

        def iota(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            index = linalg.IndexOp(dim)
            value = arith.IndexCastOp(index.result, i64)
            return [index, value], [value.result]

        start = identity_generic([], perm_type, iota)
        scratch = tensor.EmptyOp([], perm_type)
        setup = IndexArithmetic()
        zero, one, size = setup.const(0), setup.const(1), setup.const(n)
        passes = (n - 1).bit_length()  # ceil(log2(n)) widths 1, 2, 4, ...
        pairs = setup.const((passes + 1) // 2)

        def at(coordinates: Sequence[SSAValue], position: SSAValue) -> list[SSAValue]:
            """The indices of `position` along `dimension` in the slice `coordinates`."""
            indices = list(coordinates)
            indices.insert(dim, position)
            return indices

        def merge_pass(src: SSAValue, dst: SSAValue, width: SSAValue) -> scf.ForOp:
            """Every pair of runs of `width` in `src` merged into `dst`."""

            def per_slice(linear: SSAValue, carried: Sequence[SSAValue]):
                b = IndexArithmetic()
                coordinates = row_major_coordinates(b, linear, batch_shape)
                run_step = b.add(width, width)

                def per_run_pair(lo: SSAValue, carried: Sequence[SSAValue]):
                    r = IndexArithmetic()
                    mid = r.min_u(r.add(lo, width), size)
                    hi = r.min_u(r.add(lo, run_step), size)

                    def per_element(k: SSAValue, carried: Sequence[SSAValue]):
                        out, i, j = carried
                        e = IndexArithmetic()
                        last = e.const(n - 1)
                        left = e.add_op(tensor.ExtractOp(src, at(coordinates, e.min_u(i, last)), i64))
                        right = e.add_op(tensor.ExtractOp(src, at(coordinates, e.min_u(j, last)), i64))
                        left_at = e.add_op(arith.IndexCastOp(left, IndexType()))
                        right_at = e.add_op(arith.IndexCastOp(right, IndexType()))
                        pairs_: list[SSAValue] = []
                        for x in inputs:
                            element = elem_of(x.type)
                            pairs_.append(e.add_op(tensor.ExtractOp(x, at(coordinates, right_at), element)))
                            pairs_.append(e.add_op(tensor.ExtractOp(x, at(coordinates, left_at), element)))
                        compare_ops, (right_first,) = inline_computation(op.comparator, pairs_)
                        e.ops += compare_ops
                        left_done = e.cmp("uge", i, mid)
                        right_left = e.cmp("ult", j, hi)
                        take_right = e.add_op(
                            arith.AndIOp(right_left, e.add_op(arith.OrIOp(left_done, right_first)))
                        )
                        chosen = e.add_op(arith.SelectOp(take_right, right, left))
                        written = e.add_op(tensor.InsertOp(chosen, out, at(coordinates, k)))
                        zero_, one_ = e.const(0), e.const(1)
                        next_i = e.add(i, e.add_op(arith.SelectOp(take_right, zero_, one_)))
                        next_j = e.add(j, e.add_op(arith.SelectOp(take_right, one_, zero_)))
                        return e.ops, [written, next_i, next_j]

                    merge = for_loop(lo, hi, one, [carried[0], lo, mid], per_element)
                    return [*r.ops, merge], [merge.results[0]]

                runs = for_loop(zero, size, run_step, carried, per_run_pair)
                return [*b.ops, runs], [runs.results[0]]

            return for_loop(zero, setup.const(math.prod(batch_shape)), one, [dst], per_slice)

        def pass_pair(_: SSAValue, carried: Sequence[SSAValue]):
            src, dst, width = carried
            b = IndexArithmetic()
            into_dst = merge_pass(src, dst, width)
            double = b.add(width, width)
            into_src = merge_pass(into_dst.results[0], src, double)
            quadruple = b.add(double, double)
            return [into_dst, *b.ops, into_src], [into_src.results[0], into_dst.results[0], quadruple]

        sort = for_loop(zero, pairs, one, [start[-1].results[0], scratch.tensor, one], pass_pair)
        perm = sort.results[0]

        gathers = gather_along(perm, inputs, dim)
        results = [g.results[0] for g in gathers[1::2]]
        rewriter.replace(op, [*start, scratch, *setup.ops, sort, *gathers], results)


# Element types with a radix key: the floats, and 8- to 64-bit integers.
_RADIX_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)
_RADIX_INT_WIDTHS = (8, 16, 32, 64)
_FLIPPED = {"LT": "GT", "GT": "LT"}


def radix_comparator(op: xla.SortOp) -> tuple[str, str] | None:
    """(direction, compare type) when the comparator is exactly one LT or GT xla.compare
    of the first operand's two arguments (lhs_0, rhs_0; swapped arguments flip the
    direction) and that operand's element type has a radix key; else None."""
    element = elem_of(op.inputs[0].type)
    radix_type = isinstance(element, _RADIX_FLOATS) or (
        isinstance(element, IntegerType) and element.width.data in _RADIX_INT_WIDTHS
    )
    block = op.comparator.block
    ops = list(block.ops)
    if not radix_type or len(ops) != 2:
        return None
    compare, ret = ops
    if not isinstance(compare, ew.CompareOp) or list(ret.operands) != [compare.results[0]]:
        return None
    direction = compare.get_comparison_direction()
    pair = [compare.lhs, compare.rhs]
    if direction not in _FLIPPED or set(pair) != {block.args[0], block.args[1]} or pair[0] is pair[1]:
        return None
    if pair[0] is block.args[1]:
        direction = _FLIPPED[direction]
    ctype = compare.get_compare_type() if compare.compare_type is not None else ew.default_compare_type(element).value
    return direction, ctype


# The default of convert-xla-to-linalg's `radix-sort-min-length`: shorter rows are
# merge-sorted, since a radix sort clears and sums its counters (256 per digit) for
# every row, which costs more than sorting a few elements by comparisons (measured on
# f32 rows: the merge sort wins at 16, the radix sort at 32 and longer).
RADIX_MIN_LENGTH = 24


def sort_kernel_variant(op: xla.SortOp, n: int) -> SortVariant | None:
    """The radix-sort kernel that sorts `op` (rows of n), or None when its comparator is
    not one LT / GT compare of a radix key (`radix_comparator`)."""
    comparator = radix_comparator(op)
    if comparator is None:
        return None
    direction, ctype = comparator
    element = elem_of(op.inputs[0].type)
    width = bit_width(element)
    kind = "bf" if isinstance(element, BFloat16Type) else ("f" if is_float(element) else "i")
    if kind == "i":
        ctype = "SIGNED" if ctype == "SIGNED" else "UNSIGNED"
    digits = 11 if n >= WIDE_DIGIT_LENGTH and width >= 32 else 8
    return SortVariant(kind, width, ctype.lower(), direction == "GT", digits, len(op.inputs) > 1)


@dataclass(eq=False)  # patterns compare by identity
class SortToRadixKernel(RewritePattern):
    """xla.sort whose comparator is one LT / GT compare of the first operand's pair
    (`radix_comparator`: jnp.sort, argsort, lax.sort_key_val) of a float or integer
    operand, rows of at least `min_length` -> a call of the radix-sort kernel
    (`lowering/kernels/sort.py`), the sort the issue asks for: stable, so it gives the
    interpreter's order (stable whatever `is_stable` says) for any number of payloads.

        %sorted[, %perm] = func.call @xla_opt_sort_<variant>__<type>(outer, n, inner, %keys)

    (outer, n, inner: the operand's shape around `dimension`; one private declaration
    per signature, which the JIT binds to the variant's kernel.) With payloads the
    kernel also returns each result element's position in its row (i32), and every
    other operand is gathered through it."""

    min_length: int = RADIX_MIN_LENGTH

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.SortOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        inputs = list(op.inputs)
        shape = shape_of(inputs[0].type)
        dim = sort_dimension(shape, op.get_dimension())
        n = shape[dim]
        variant = sort_kernel_variant(op, n)
        if variant is None or n >= 1 << 31 or 0 < n < self.min_length:
            return
        if n <= 1 or 0 in shape:
            rewriter.replace(op, [], inputs)  # nothing to reorder
            return
        sizes = [math.prod(shape[:dim]), n, math.prod(shape[dim + 1 :])]
        constants = [arith.ConstantOp(IntegerAttr(size, i64)) for size in sizes]
        results: list[Attribute] = [inputs[0].type]
        if variant.perm:
            results.append(TensorType(i32, shape))
        name = f"{variant.symbol}__{re.sub(r'[^0-9a-zA-Z]', '_', str(inputs[0].type))}"
        libraries.declare_alias(name, libraries.sort_library(variant), variant.symbol)
        call = call_external(op, name, [*(c.result for c in constants), inputs[0]], results)
        new_ops: list[Operation] = [*constants, call]
        values = [call.res[0]]
        if variant.perm:
            gathers = gather_along(call.res[1], inputs[1:], dim)
            new_ops += gathers
            values += [g.results[0] for g in gathers[1::2]]
        rewriter.replace(op, new_ops, values)


class SelectAndScatterToLoops(RewritePattern):
    """xla.select_and_scatter -> the result filled with init_value, then a loop over
    the windows in row-major order (the source's positions) carrying the result.

    Each window's offsets are walked in row-major order, carrying the selected value,
    its operand coordinates and whether one was selected yet: a candidate inside the
    operand (padding is never selected) replaces the selection unless one exists and
    select(selected, candidate) holds, so ties keep the earlier element. The window's
    source value is then combined into the selected position with `scatter`
    (tensor.insert in the loop body that carries the result, so that it is written in
    place); overlapping windows reach a position in row-major window order, as in the
    interpreter. A window holding only padding selects nothing and leaves the result
    alone (its position 0 is written back unchanged)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.SelectAndScatterOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        window = op.window()
        shape = shape_of(op.operand.type)
        source_shape = shape_of(op.source.type)
        element = elem_of(op.operand.type)
        fill = fill_from_scalar(op.init_value, op.result.type)  # type: ignore[arg-type]
        if 0 in shape or 0 in source_shape:
            rewriter.replace(op, fill, fill[-1].results)  # no window selects anything
            return
        setup = IndexArithmetic()
        zero, one = setup.const(0), setup.const(1)
        initial = tensor.ExtractOp(op.init_value, [], element)
        nothing = arith.ConstantOp(IntegerAttr(0, i1))

        def per_window(linear: SSAValue, carried: Sequence[SSAValue]):
            (result,) = carried
            b = IndexArithmetic()
            origin = row_major_coordinates(b, linear, source_shape)
            corner = [
                b.add_const(b.mul_const(o, stride), -low)
                for o, stride, (low, _) in zip(origin, window.strides, window.padding, strict=True)
            ]

            def per_offset(offset: SSAValue, carried: Sequence[SSAValue]):
                selected, have, *at = carried
                e = IndexArithmetic()
                position = [e.add(c, w) for c, w in zip(corner, row_major_coordinates(e, offset, window.dimensions))]
                true = e.add_op(arith.ConstantOp(IntegerAttr(1, i1)))
                inside = e.all_of([e.cmp("ult", p, e.const(size)) for p, size in zip(position, shape)]) or true
                clamped = [e.min_u(p, e.const(size - 1)) for p, size in zip(position, shape)]
                candidate = e.add_op(tensor.ExtractOp(op.operand, clamped, element))
                select_ops, (keep,) = inline_computation(op.select, [selected, candidate])
                e.ops += select_ops
                keeps = e.add_op(arith.AndIOp(have, keep))
                take = e.add_op(arith.AndIOp(inside, e.add_op(arith.XOrIOp(keeps, true))))
                chosen = [e.add_op(arith.SelectOp(take, new, old)) for new, old in zip([candidate, *clamped], [selected, *at])]
                return e.ops, [chosen[0], e.add_op(arith.OrIOp(have, inside)), *chosen[1:]]

            walk = for_loop(
                zero, b.const(math.prod(window.dimensions)), one, [initial.result, nothing.result, *[zero] * len(shape)], per_offset
            )
            b.ops.append(walk)
            have, at = walk.results[1], list(walk.results[2:])
            current = b.add_op(tensor.ExtractOp(result, at, element))
            update = b.add_op(tensor.ExtractOp(op.source, origin, element))
            scatter_ops, (combined,) = inline_computation(op.scatter, [current, update])
            b.ops += scatter_ops
            written = b.add_op(tensor.InsertOp(b.add_op(arith.SelectOp(have, combined, current)), result, at))
            return b.ops, [written]

        windows = for_loop(zero, setup.const(math.prod(source_shape)), one, [fill[-1].results[0]], per_window)
        rewriter.replace(op, [*fill, *setup.ops, initial, nothing, windows], windows.results)


def patterns(radix_sort_min_length: int = RADIX_MIN_LENGTH) -> list[RewritePattern]:
    """The family's patterns, sorting rows of at least `radix_sort_min_length` on the
    radix-sort kernel."""
    return [
        ReduceToGeneric(),
        MapToGeneric(),
        CumulativeWindowToTreeScan(),  # before the generic: XLA:CPU's order for scans
        ReduceWindowToGeneric(),
        SortToRadixKernel(radix_sort_min_length),
        SortToLoops(),
        SelectAndScatterToLoops(),
    ]


PATTERNS: list[RewritePattern] = patterns()

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(op.name for op in REDUCTION_OPS)
