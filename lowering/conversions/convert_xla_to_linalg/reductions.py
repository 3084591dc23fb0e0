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
* `xla.sort` -> calls of the radix-sort kernel (a comparator that is a lexicographic
  order of number keys, as JAX writes them: jnp.sort, argsort, lax.sort with num_keys,
  sort_key_val; sort_idioms.py) and a gather generic per payload, or of the top-k
  kernel when only the first k are read (chlo.top_k), else a stable bottom-up merge
  sort of a permutation (scf.for over tensors, tensor.insert), then one gather generic
  per operand;
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
    IndexType,
    IntegerAttr,
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
from xdsl.rewriter import InsertPoint
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.reductions import sort_dimension
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.element_types import bit_width, elem_of, is_float, shape_of
from xla_opt.dialects.xla.reductions import REDUCTION_OPS
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.sort import (
    RADIX_MIN_LENGTH,
    SortVariant,
    TopKVariant,
    radix_digit_bits,
    takes_top_k_kernel,
)
from xla_opt.lowering.utils.contractions import body_at
from xla_opt.lowering.utils.llvm_types import row_major_strides

from .common import PARALLEL, REDUCTION, affine_map, fill_from_scalar, generic, padded_and_dilated
from .computation import inline_computation
from .elementwise import identity_generic, in_computation
from .host_calls import call_external
from .scalar_ops import emit_convert
from .scan_windows import CumulativeWindowToTreeScan
from .shape_ops import IndexArithmetic
from .sort_idioms import SortKey, index_function, sort_keys, top_k_slices


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
    """Each input reordered along `dim` by the integer permutation `perm` (the
    result's shape: the input's, or its first k along `dim`):
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

        gathers += identity_generic([perm], TensorType(elem_of(x.type), shape_of(perm.type)), gather)
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


def _kernel_name(symbol: str, *types: Attribute) -> str:
    """A declaration's name: the kernel's symbol and its call's types (one per signature)."""
    return "__".join([symbol, *(re.sub(r"[^0-9a-zA-Z]", "_", str(t)) for t in types)])


def sort_kernel_variant(key: SortKey, element: Attribute, n: int, perm: bool) -> SortVariant:
    """The radix-sort kernel sorting rows of n `element`s by `key` (returning the
    permutation when `perm`): 11-bit digits for long rows of 32- and 64-bit keys."""
    width = bit_width(element)
    kind = "bf" if isinstance(element, BFloat16Type) else ("f" if is_float(element) else "i")
    return SortVariant(kind, width, key.ctype, key.direction == "GT", radix_digit_bits(n, width), perm)


def top_k_kernel_variant(key: SortKey, element: Attribute) -> TopKVariant:
    kind = "bf" if isinstance(element, BFloat16Type) else ("f" if is_float(element) else "i")
    return TopKVariant(kind, bit_width(element), key.ctype, key.direction == "GT")


def gathered_payload(perm: SSAValue, x: SSAValue, dim: int) -> tuple[list[Operation], SSAValue]:
    """`x` reordered along `dim` through the positions `perm` (i32; its shape is the
    result's): a payload that is a function of its index along `dim` (an iota:
    `index_function`) is that function of the positions, computed instead of read
    (the positions themselves for an i32 iota: `jnp.argsort`'s result is the kernel's,
    not a copy of it); any other is gathered (`gather_along`). The ops, and the result."""
    source = index_function(x, dim)
    if source is None:
        ops = gather_along(perm, [x], dim)
        return ops, ops[-1].results[0]
    element = elem_of(x.type)
    if element == i32 and _index_itself(source):
        return [], perm
    result_type = TensorType(element, shape_of(perm.type))

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        if isinstance(source, xla.IotaOp):  # s64 positions converted as the iota's are
            count = arith.ExtSIOp(args[0], i64)
            ops, value = emit_convert(count.result, i64, element)
            return [count, *ops], [value]
        index = arith.IndexCastOp(args[0], IndexType())
        # its body reads the index along `dim` alone (index_function)
        ops, value = body_at(source, [index.result] * len(shape_of(x.type)))
        return [index, *ops], [value]

    ops = identity_generic([perm], result_type, body)
    return ops, ops[-1].results[0]


def _index_itself(source: xla.IotaOp | linalg.GenericOp) -> bool:
    """Whether a payload `index_function` found is its element's index as an integer:
    an iota, or a generic whose body yields the index through integer casts alone
    (index_cast, extsi, extui, trunci; a position is below 2^31, so any of them keeps
    it)."""
    if isinstance(source, xla.IotaOp):
        return True
    casts = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)
    value = source.body.block.last_op.operands[0] if source.body.block.last_op else None
    while value is not None and isinstance(value.owner, casts):
        value = value.owner.operands[0]
    return value is not None and isinstance(value.owner, linalg.IndexOp)


def _read(value: SSAValue) -> bool:
    """Whether anything reads `value`: a use by an xla.slice that nothing reads does
    not count (chlo.top_k's slices are there whether its results are used or not)."""
    return any(not isinstance(use.operation, xla.SliceOp) or _read(use.operation.results[0]) for use in value.uses)


@dataclass(eq=False)  # patterns compare by identity
class SortToRadixKernel(RewritePattern):
    """xla.sort whose comparator is a lexicographic order of radix keys (`sort_keys`,
    sort_idioms.py: jnp.sort, argsort, lax.sort with num_keys, sort_key_val, the
    canonicalizing selects of JAX's float comparators), rows of at least `min_length`
    -> calls of the radix-sort kernel (`lowering/kernels/sort.py`): stable, so it gives
    the interpreter's order (stable whatever `is_stable` says) for any number of
    payloads. The keys are sorted least significant first, each through the positions
    the previous ones left (a stable sort by the more significant key keeps the order
    of the less significant ones among its ties):

        %sorted[, %perm] = func.call @xla_opt_sort_<variant>__<type>(outer, n, inner, %keys)

    (outer, n, inner: the operand's shape around `dimension`; one private declaration
    per signature, which the JIT binds to the variant's kernel.) With a payload that
    is read (`_read`: not only by slices nothing reads) or several keys the kernel
    also returns each result element's position in its row (i32), which the other
    operands are gathered through (an iota payload is computed from the positions:
    `gathered_payload`); unread results are not computed.

    When every result is only sliced to its first k along `dimension` (`top_k_slices`:
    chlo.top_k, ApproxTopK) and there is one key, the slices become the results of the
    top-k kernel instead, which selects the first k of each row without sorting it
    (the stable order's first k: ties by position), for k up to 1/TOP_K_MAX_FRACTION
    of the row, or any k of rows shorter than `min_length`:

        %first_k, %perm = func.call @xla_opt_topk_<variant>__<type>__<type>(outer, n, inner, k, %keys)
    """

    min_length: int = RADIX_MIN_LENGTH

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.SortOp, rewriter: PatternRewriter):
        if in_computation(op):
            return
        inputs = list(op.inputs)
        shape = shape_of(inputs[0].type)
        dim = sort_dimension(shape, op.get_dimension())
        n = shape[dim]
        keys = sort_keys(op)
        if keys is None or n >= 1 << 31:
            return
        if n <= 1 or 0 in shape:
            rewriter.replace(op, [], inputs)  # nothing to reorder
            return
        sizes = [math.prod(shape[:dim]), n, math.prod(shape[dim + 1 :])]
        top = top_k_slices(op, dim)
        if top is not None and len(keys) == 1 and takes_top_k_kernel(top[0], n, self.min_length):
            self._top_k(op, rewriter, keys[0], sizes, dim, *top)
            return
        if n < self.min_length:
            return
        constants = [arith.ConstantOp(IntegerAttr(size, i64)) for size in sizes]
        new_ops: list[Operation] = [*constants]
        perm: SSAValue | None = None  # each result element's position in its source row
        # positions only for several keys or a payload read (jnp.partition's chlo.top_k
        # of most of a row reads its values alone: sorted without positions, 3x faster)
        read = [_read(result) for result in op.results]
        needs_perm = len(keys) > 1 or any(r for i, r in enumerate(read) if i != keys[0].operand)
        for key in reversed(keys):  # least significant first
            x = inputs[key.operand]
            if perm is not None:
                gather = gather_along(perm, [x], dim)
                new_ops += gather
                x = gather[-1].results[0]
            variant = sort_kernel_variant(key, elem_of(x.type), n, needs_perm)
            results: list[Attribute] = [x.type]
            if variant.perm:
                results.append(TensorType(i32, shape))
            name = _kernel_name(variant.symbol, x.type)
            libraries.declare_alias(name, libraries.sort_library(variant), variant.symbol)
            call = call_external(op, name, [*(c.result for c in constants), x], results)
            new_ops.append(call)
            sorted_key = call.res[0]
            if variant.perm:
                if perm is None:
                    perm = call.res[1]
                else:  # positions in the source rows of the positions in the gathered rows
                    compose = gather_along(call.res[1], [perm], dim)
                    new_ops += compose
                    perm = compose[-1].results[0]
        values: list[SSAValue] = []
        for i, (x, result) in enumerate(zip(inputs, op.results, strict=True)):
            if i == keys[0].operand:
                values.append(sorted_key)
                continue
            if read[i] and perm is not None:
                ops, value = gathered_payload(perm, x, dim)
            else:
                empty = tensor.EmptyOp([], x.type)
                ops, value = [empty], empty.tensor
            new_ops += ops
            values.append(value)
        rewriter.replace(op, new_ops, values)

    def _top_k(
        self, op: xla.SortOp, rewriter: PatternRewriter, key: SortKey, sizes: list[int], dim: int,
        k: int, slices: list[list[xla.SliceOp]],
    ) -> None:  # fmt: skip
        """The first k of each row by the top-k kernel; each slice replaced by its result."""
        inputs = list(op.inputs)
        x = inputs[key.operand]
        shape = list(shape_of(x.type))
        shape[dim] = k
        variant = top_k_kernel_variant(key, elem_of(x.type))
        constants = [arith.ConstantOp(IntegerAttr(size, i64)) for size in [*sizes, k]]
        first_k = TensorType(elem_of(x.type), shape)
        name = _kernel_name(variant.symbol, x.type, first_k)
        libraries.declare_alias(name, libraries.sort_library(variant), variant.symbol)
        call = call_external(op, name, [*(c.result for c in constants), x], [first_k, TensorType(i32, shape)])
        new_ops: list[Operation] = [*constants, call]
        values: list[SSAValue] = []
        for i, x in enumerate(inputs):
            if i == key.operand:
                values.append(call.res[0])
            elif slices[i]:
                ops, value = gathered_payload(call.res[1], x, dim)
                new_ops += ops
                values.append(value)
            else:
                values.append(call.res[0])  # unread
        rewriter.insert(new_ops, InsertPoint.before(op))
        for value, users in zip(values, slices, strict=True):
            for user in users:
                rewriter.replace(user, [], [value])
        rewriter.erase(op)


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
