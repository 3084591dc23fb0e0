"""The linear-algebra family to linalg.

* `xla.dot`, `xla.dot_general` -> a zero fill and one generic (parallel batch and free
  loops, reduction contracting loops, body mul + add);
* `xla.convolution` -> a zero fill and one generic over the output (parallel) and the
  kernel window and input features of a group (reduction), reading the input through
  tensor.extract at computed indices (zeros where padding or lhs dilation put them);
* `xla.cholesky`, `xla.triangular_solve` -> scf.for loops over the batch, rows and
  columns carrying the result tensor (tensor.extract / tensor.insert), as the
  interpreter's algorithms.

f16/bf16 accumulate in an f32 tensor, rounded once by a truncating generic (as the
interpreter does)."""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math, scf, tensor
from xdsl.dialects.builtin import FloatAttr, IndexType, TensorType, f32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.windows import Window
from xla_opt.dialects.xla.base import elem_of, is_float, is_pred, shape_of
from xla_opt.dialects.xla.base import tensor as tensor_type

from .common import (
    PARALLEL,
    REDUCTION,
    affine_map,
    fill_with_zero,
    generic,
    is_half,
    zero_attr,
)
from .elementwise import identity_generic
from .shape_ops import IndexArithmetic


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


def accumulator_type(result_type: TensorType) -> TensorType:
    """The tensor sums of products are accumulated in: f32 for f16/bf16 results, the
    result type itself otherwise."""
    element_type = elem_of(result_type)
    return tensor_type(shape_of(result_type), f32 if is_half(element_type) else element_type)


def round_accumulator(accumulated: SSAValue, result_type: TensorType) -> list[Operation]:
    """For f16/bf16 results, a generic rounding the f32 accumulator once to the result
    type (the last op gives the result); nothing otherwise."""
    element_type = elem_of(result_type)
    if not is_half(element_type):
        return []

    def truncate(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        rounded = arith.TruncFOp(args[0], element_type)
        return [rounded], [rounded.result]

    return identity_generic([accumulated], result_type, truncate)


def nonempty_result(op: Operation, rewriter: PatternRewriter) -> TensorType | None:
    """The type of `op`'s single result; None, `op` replaced by a tensor.empty, when
    that result has no elements (nothing to compute, and no element to read)."""
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    if 0 in shape_of(result_type):
        rewriter.replace(op, tensor.EmptyOp([], result_type))
        return None
    return result_type


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
    n_loops = n_batch + n_lhs_free + len(rhs_free) + n_contracting
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
    fill = fill_with_zero(accumulator_type(result_type))
    mac = multiply_accumulate(element_type)

    maps = [lhs_map, rhs_map, affine_map(n_loops, result_loops)]

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        ops, total = mac(*args)
        return ops, [total]

    dot = generic([op.lhs, op.rhs], [fill[-1].results[0]], maps, iterators, body)
    new_ops: list[Operation] = [*fill, dot, *round_accumulator(dot.results[0], result_type)]
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


class ConvolutionToGeneric(RewritePattern):
    """xla.convolution -> a zero fill and one generic. Its loops are the output's
    dimensions in the output's order (parallel), then the kernel's spatial dimensions
    and the input features of one group (reduction, the features innermost: per window
    position a sum over features, as the interpreter takes them). For output position
    (b, o, p...) and reduction position (k..., c), with group g = o // (O / groups):

    * the kernel is read through its indexing map at (o, c, k...);
    * the input is read at batch g * (N / batch_group_count) + b and feature
      g * (C / feature_group_count) + c (each count > 1 making its own g), and in each
      spatial dimension at q / lhs_dilation where q = p * stride + k * rhs_dilation -
      padding_low; only 0 <= q <= (size - 1) * lhs_dilation with q divisible by
      lhs_dilation is an input element, elsewhere padding or a dilation hole reads 0
      (multiplied all the same, so a kernel inf or nan there gives nan, as in the
      interpreter, which pads with zeros)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConvolutionOp, rewriter: PatternRewriter):
        result_type = nonempty_result(op, rewriter)
        if result_type is None:
            return
        dims = op.dimension_numbers()
        lhs_shape, rhs_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
        n = len(dims.input_spatial)
        window = Window.of(
            [rhs_shape[d] for d in dims.kernel_spatial],
            op.get_window_strides(),
            op.get_lhs_dilation(),
            op.get_rhs_dilation(),
            op.get_padding(),
        )
        batch_groups, feature_groups = op.get_batch_group_count(), op.get_feature_group_count()
        out_features = rhs_shape[dims.kernel_output_feature]
        group_batch = lhs_shape[dims.input_batch] // batch_groups
        group_features = rhs_shape[dims.kernel_input_feature]
        element_type = elem_of(op.lhs.type)
        n_parallel = n + 2
        feature_loop = n_parallel + n  # after the kernel's spatial loops
        n_loops = feature_loop + 1
        kernel_loops = [0] * (n + 2)
        kernel_loops[dims.kernel_output_feature] = dims.output_feature
        kernel_loops[dims.kernel_input_feature] = feature_loop
        for i, d in enumerate(dims.kernel_spatial):
            kernel_loops[d] = n_parallel + i
        maps = [affine_map(n_loops, kernel_loops), affine_map(n_loops, range(n_parallel))]
        iterators = [PARALLEL] * n_parallel + [REDUCTION] * (n + 1)
        mac = multiply_accumulate(element_type)

        def input_element(b: IndexArithmetic) -> SSAValue:
            """The input element (or 0) this iteration multiplies."""
            zero = b.add_op(arith.ConstantOp(zero_attr(element_type)))
            if 0 in lhs_shape:
                return zero  # all padding

            def grouped(index: SSAValue, groups: int, group_size: int) -> SSAValue:
                if groups == 1:
                    return index
                feature = b.loop_index(dims.output_feature)
                group = b.div_const(feature, out_features // groups)
                return b.add(b.mul_const(group, group_size), index)

            indices: list[SSAValue] = [zero] * (n + 2)  # each one set below
            indices[dims.input_batch] = grouped(
                b.loop_index(dims.output_batch), batch_groups, group_batch
            )
            indices[dims.input_feature] = grouped(
                b.loop_index(feature_loop), feature_groups, group_features
            )
            valid: list[SSAValue] = []
            for i, d in enumerate(dims.input_spatial):
                size, dilation = lhs_shape[d], window.base_dilations[i]
                position = b.add(
                    b.mul_const(b.loop_index(dims.output_spatial[i]), window.strides[i]),
                    b.mul_const(b.loop_index(n_parallel + i), window.window_dilations[i]),
                )
                shifted = b.add_const(position, -window.padding[i][0])
                # unsigned: a position before the input (negative) is out of range too
                valid.append(b.cmp("ule", shifted, b.const((size - 1) * dilation)))
                if dilation > 1:
                    valid.append(b.cmp("eq", b.rem_const(shifted, dilation), b.const(0)))
                indices[d] = b.min_u(b.div_const(shifted, dilation), b.const(size - 1))
            read = b.add_op(tensor.ExtractOp(op.lhs, indices, element_type))
            inside = b.all_of(valid)
            return read if inside is None else b.add_op(arith.SelectOp(inside, read, zero))

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            x = input_element(b)
            ops, total = mac(x, args[0], args[1])
            return [*b.ops, *ops], [total]

        fill = fill_with_zero(accumulator_type(result_type))
        conv = generic([op.rhs], [fill[-1].results[0]], maps, iterators, body)
        new_ops: list[Operation] = [*fill, conv, *round_accumulator(conv.results[0], result_type)]
        rewriter.replace(op, new_ops, new_ops[-1].results)


# --------------------------------------------------------------------------------------
# Cholesky, TriangularSolve: loops over tensors
# --------------------------------------------------------------------------------------


class LoopBuilder(IndexArithmetic):
    """IndexArithmetic plus float arithmetic, tensor reads and writes and scf.for
    loops whose bodies are built by nested builders."""

    def float_const(self, value: float, element_type: Attribute) -> SSAValue:
        return self.add_op(arith.ConstantOp(FloatAttr(value, element_type)))  # type: ignore[arg-type]

    def read(self, source: SSAValue, indices: Sequence[SSAValue], as_type: Attribute) -> SSAValue:
        """source[indices], extended to `as_type` (f32 for an f16/bf16 source)."""
        value = self.add_op(tensor.ExtractOp(source, indices, elem_of(source.type)))
        return value if value.type == as_type else self.add_op(arith.ExtFOp(value, as_type))

    def write(self, value: SSAValue, dest: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        return self.add_op(tensor.InsertOp(value, dest, indices))

    def for_range(
        self,
        lower: SSAValue,
        upper: SSAValue,
        carried: Sequence[SSAValue],
        body: Callable[[LoopBuilder, SSAValue, list[SSAValue]], list[SSAValue]],
    ) -> list[SSAValue]:
        """scf.for i in [lower, upper) carrying `carried`; `body(builder, i, values)`
        adds the body's ops to `builder` and returns the values it yields."""
        step = self.const(1)
        block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        inner = LoopBuilder()
        yielded = body(inner, block.args[0], list(block.args[1:]))
        block.add_ops([*inner.ops, scf.YieldOp(*yielded)])
        loop = scf.ForOp(lower, upper, step, carried, block)
        self.ops.append(loop)
        return list(loop.results)

    def for_each(
        self,
        shape: Sequence[int],
        state: SSAValue,
        body: Callable[[LoopBuilder, list[SSAValue], SSAValue], SSAValue],
    ) -> SSAValue:
        """Nested loops over every index of `shape` (row-major) updating the tensor
        `state`; `body(builder, indices, state)` returns the updated state."""

        def nest(b: LoopBuilder, outer: list[SSAValue], current: SSAValue) -> SSAValue:
            if len(outer) == len(shape):
                return body(b, outer, current)
            size = shape[len(outer)]
            return b.for_range(
                b.const(0), b.const(size), [current], lambda inner, i, st: [nest(inner, [*outer, i], st[0])]
            )[0]

        return nest(self, [], state)

    def sum_products(
        self,
        lower: SSAValue,
        upper: SSAValue,
        element_type: Attribute,
        factors: Callable[[LoopBuilder, SSAValue], tuple[SSAValue, SSAValue]],
    ) -> SSAValue:
        """0 + sum over k in [lower, upper), in increasing k, of the product of the two
        `factors(builder, k)`."""

        def step(b: LoopBuilder, k: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            x, y = factors(b, k)
            return [b.add_op(arith.AddfOp(acc[0], b.add_op(arith.MulfOp(x, y))))]

        return self.for_range(lower, upper, [self.float_const(0.0, element_type)], step)[0]




class CholeskyToLoops(RewritePattern):
    """xla.cholesky -> loops over the batch and over the columns j of each matrix
    (Cholesky-Crout, in f32 for f16/bf16): L[j][j] = sqrt(A[j][j] - sum_k<j L[j][k]^2)
    and L[i][j] = (A[i][j] - sum_k<j L[i][k] L[j][k]) / L[j][j] for i > j, reading only
    the requested triangle of a (lower: A[i][j] = a[i][j]; upper: A[i][j] = a[j][i],
    where U = L^T is written too). The other triangle is zero.

    "A matrix that is not positive definite gives NaNs in the requested triangle": a
    pivot that is not > 0 (or NaN) is made NaN, which the later columns carry to the
    last pivot; a final generic then writes NaN over the whole triangle of each matrix
    whose last pivot is NaN (and rounds f16/bf16 back)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.CholeskyOp, rewriter: PatternRewriter):
        result_type = nonempty_result(op, rewriter)
        if result_type is None:
            return
        shape = shape_of(result_type)
        batch, rank = shape[:-2], len(shape)
        m = shape[-1]
        lower = op.get_lower()
        work_type = accumulator_type(result_type)
        t = elem_of(work_type)

        def at(batch_index: list[SSAValue], i: SSAValue, j: SSAValue) -> list[SSAValue]:
            """Where element (i, j), i >= j, of A and of L lives."""
            return [*batch_index, i, j] if lower else [*batch_index, j, i]

        def factor(b: LoopBuilder, index: list[SSAValue], work: SSAValue) -> SSAValue:
            def column(b: LoopBuilder, j: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                work = state[0]
                zero = b.const(0)
                squares = b.sum_products(
                    zero, j, t, lambda b, k: (b.read(work, at(index, j, k), t),) * 2
                )
                d = b.add_op(arith.SubfOp(b.read(op.a, at(index, j, j), t), squares))
                positive = b.add_op(arith.CmpfOp(d, b.float_const(0.0, t), "ogt"))
                pivot = b.add_op(
                    arith.SelectOp(positive, b.add_op(math.SqrtOp(d)), b.float_const(pymath.nan, t))
                )
                work = b.write(pivot, work, at(index, j, j))

                def row(b: LoopBuilder, i: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                    work = state[0]
                    dot = b.sum_products(
                        b.const(0), j,
                        t, lambda b, k: (b.read(work, at(index, i, k), t), b.read(work, at(index, j, k), t)),
                    )  # fmt: skip
                    rest = b.add_op(arith.SubfOp(b.read(op.a, at(index, i, j), t), dot))
                    return [b.write(b.add_op(arith.DivfOp(rest, pivot)), work, at(index, i, j))]

                return b.for_range(b.add_const(j, 1), b.const(m), [work], row)

            return b.for_range(b.const(0), b.const(m), [work], column)[0]

        b = LoopBuilder()
        fill = fill_with_zero(work_type)
        factored = b.for_each(batch, fill[-1].results[0], factor)

        def finish(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            f = LoopBuilder()
            index = [f.loop_index(d) for d in range(rank)]
            last = f.const(m - 1)
            pivot = f.read(factored, [*index[:-2], last, last], t)
            failed = f.add_op(arith.CmpfOp(pivot, pivot, "uno"))
            i, j = index[-2:]
            in_triangle = f.cmp("uge" if lower else "ule", i, j)
            nan = f.float_const(pymath.nan, t)
            value = f.add_op(arith.SelectOp(f.add_op(arith.AndIOp(failed, in_triangle)), nan, args[0]))
            if value.type != elem_of(result_type):
                value = f.add_op(arith.TruncFOp(value, elem_of(result_type)))
            return f.ops, [value]

        rewriter.replace(op, [*fill, *b.ops, *identity_generic([factored], result_type, finish)])


class TriangularSolveToLoops(RewritePattern):
    """xla.triangular_solve -> substitution loops (in f32 for f16/bf16), as the
    interpreter: the system solved is T x = r with T = op(a) on the left side and
    T = op(a)^T (x^T and b^T as x and r) on the right, so T[i][j] = a[i][j] or, when
    exactly one of "transposed by transpose_a" and "right side" holds, a[j][i]
    (ADJOINT = TRANSPOSE for real types). T is lower triangular when `lower` xor that
    swap. Rows i are solved in order (forward for a lower T, backward otherwise):
    x[i][k] = (r[i][k] - sum_j T[i][j] x[j][k]) / T[i][i] over the rows j already
    solved, in increasing j; with unit_diagonal, T[i][i] = 1 is not read."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.TriangularSolveOp, rewriter: PatternRewriter):
        result_type = nonempty_result(op, rewriter)
        if result_type is None:
            return
        shape = shape_of(result_type)
        batch = shape[:-2]
        m = shape_of(op.a.type)[-1]
        left = op.get_left_side()
        columns = shape[-1] if left else shape[-2]
        swapped = (not left) != (op.get_transpose_a() != xla.Transpose.NO_TRANSPOSE)
        t_lower = op.get_lower() != swapped
        work_type = accumulator_type(result_type)
        t = elem_of(work_type)

        def solve(b: LoopBuilder, index: list[SSAValue], work: SSAValue) -> SSAValue:
            def a_at(i: SSAValue, j: SSAValue) -> list[SSAValue]:
                return [*index, j, i] if swapped else [*index, i, j]

            def x_at(i: SSAValue, k: SSAValue) -> list[SSAValue]:
                return [*index, i, k] if left else [*index, k, i]

            def row(b: LoopBuilder, step: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                i = step if t_lower else b.sub(b.const(m - 1), step)
                # the rows solved before row i
                first, end = (b.const(0), i) if t_lower else (b.add_const(i, 1), b.const(m))

                def column(b: LoopBuilder, k: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                    work = state[0]
                    known = b.sum_products(
                        first, end, t, lambda b, j: (b.read(op.a, a_at(i, j), t), b.read(work, x_at(j, k), t))
                    )
                    x = b.add_op(arith.SubfOp(b.read(op.b, x_at(i, k), t), known))
                    if not op.get_unit_diagonal():
                        x = b.add_op(arith.DivfOp(x, b.read(op.a, a_at(i, i), t)))
                    return [b.write(x, work, x_at(i, k))]

                return b.for_range(b.const(0), b.const(columns), state, column)

            return b.for_range(b.const(0), b.const(m), [work], row)[0]

        b = LoopBuilder()
        empty = tensor.EmptyOp([], work_type)
        solved = b.for_each(batch, empty.tensor, solve)
        new_ops: list[Operation] = [empty, *b.ops, *round_accumulator(solved, result_type)]
        rewriter.replace(op, new_ops, new_ops[-1].results)


PATTERNS: list[RewritePattern] = [
    DotToGeneric(),
    DotGeneralToGeneric(),
    ConvolutionToGeneric(),
    CholeskyToLoops(),
    TriangularSolveToLoops(),
]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(
    op.name
    for op in (xla.DotOp, xla.DotGeneralOp, xla.ConvolutionOp, xla.CholeskyOp, xla.TriangularSolveOp)
)
