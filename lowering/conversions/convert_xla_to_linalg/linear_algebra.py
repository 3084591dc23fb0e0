"""The linear-algebra family to linalg.

* `xla.dot`, `xla.dot_general` -> a zero fill and one generic (parallel batch and free
  loops, reduction contracting loops, body mul + add);
* `xla.convolution` -> a zero fill and one generic over the output (parallel) and the
  kernel window and input features of a group (reduction), reading the input through
  tensor.extract at computed indices (zeros where padding or lhs dilation put them);
* `xla.cholesky`, `xla.triangular_solve` -> scf.for loops over the batch, rows and
  columns carrying the result tensor (tensor.extract / tensor.insert), as the
  interpreter's algorithms, on real and complex (Hermitian) matrices;
* `xla.fft` -> calls of the FFT kernel library (lowering/kernels/fft.py) for lengths
  whose prime factors are at most 13; else generics on complex<f64> tensors:
  mixed-radix Cooley-Tukey steps over the small prime factors of each length,
  Bluestein's algorithm for a length with a larger one.

f16/bf16 accumulate in an f32 tensor, rounded once by a truncating generic (as the
interpreter does)."""

from __future__ import annotations

import math as pymath
import re
import zlib
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith, math, scf, tensor
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import (
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    f32,
    f64,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.windows import Window
from xla_opt.dialects.xla.element_types import elem_of, is_complex, is_float, is_pred, shape_of
from xla_opt.dialects.xla.element_types import tensor as tensor_type
from xla_opt.lowering.kernels import fft, libraries
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import (
    ScalarBuilder,
    complex_divide,
    complex_multiply,
    complex_multiply_accumulate,
)

from .common import (
    PARALLEL,
    REDUCTION,
    affine_map,
    fill_with_zero,
    generic,
    is_half,
    padded_and_dilated,
    zero_constant,
)
from .convolution_forms import ConvolutionPhases, FewFeaturesFirst, KernelLayoutForKernel
from .elementwise import identity_generic
from .host_calls import call_external
from .shape_ops import IndexArithmetic


def multiply_accumulate(
    element_type: Attribute,
) -> Callable[[SSAValue, SSAValue, SSAValue], tuple[list[Operation], SSAValue]]:
    """acc + lhs * rhs on scalars of `element_type` (the accumulator in f32 for
    f16/bf16): floats round per op, integers wrap, PRED is acc | (lhs & rhs), complex
    numbers multiply as numpy does (scalar_ops.complex_multiply_accumulate)."""

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

    if is_complex(element_type):
        return lambda lhs, rhs, acc: complex_multiply_accumulate(acc, lhs, rhs)
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
    """A zero fill and the contraction: `linalg.matmul` for a plain f32/f64 matrix
    product, otherwise one generic whose loops nest as linalg's named contractions do,
    (batch, lhs free, rhs free, contracting), with the body acc + lhs * rhs. (The loop
    order that vectorizes is `linalg-interchange-contractions`'s business.)"""
    element_type = elem_of(op.lhs.type)
    lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    fill = fill_with_zero(accumulator_type(result_type))
    if (
        not lhs_batch
        and (lhs_rank, rhs_rank) == (2, 2)
        and tuple(lhs_contracting) == (1,)
        and tuple(rhs_contracting) == (0,)
        and is_float(element_type)
        and not is_half(element_type)
    ):
        matmul = linalg.MatmulOp([op.lhs, op.rhs], [fill[-1].results[0]], [result_type])
        rewriter.replace(op, [*fill, matmul], matmul.results)
        return
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contracting]
    n_batch, n_lhs_free, n_rhs_free = len(lhs_batch), len(lhs_free), len(rhs_free)
    n_parallel = n_batch + n_lhs_free + n_rhs_free
    n_loops = n_parallel + len(lhs_contracting)

    def operand_loops(rank: int, batch, free, contracting, free_offset: int) -> list[int]:
        loops = [0] * rank
        for i, d in enumerate(batch):
            loops[d] = i
        for i, d in enumerate(free):
            loops[d] = free_offset + i
        for i, d in enumerate(contracting):
            loops[d] = n_parallel + i
        return loops

    lhs_map = affine_map(n_loops, operand_loops(lhs_rank, lhs_batch, lhs_free, lhs_contracting, n_batch))
    rhs_map = affine_map(n_loops, operand_loops(rhs_rank, rhs_batch, rhs_free, rhs_contracting, n_batch + n_lhs_free))
    iterators = [PARALLEL] * n_parallel + [REDUCTION] * len(lhs_contracting)
    mac = multiply_accumulate(element_type)
    maps = [lhs_map, rhs_map, affine_map(n_loops, range(n_parallel))]

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


class ConvolutionToNamedConv(RewritePattern):
    """A plain 2-D f32/f64 convolution in linalg's layout (input NHWC, kernel HWIO,
    output NHWC; no feature or batch groups) -> its input padded and lhs-dilated with
    zeros (an xla.pad, lowered by its own pattern), a zero fill and the named
    `linalg.conv_2d_nhwc_hwcf` with the window strides and rhs dilation. A padded
    position contributes 0 * kernel, as in the generic lowering. An f32 one with padding
    (and no lhs dilation) is left to ConvolutionToGeneric: `linalg-conv-to-kernel` hands
    its clamped reads to the convolution kernel, which never materializes the padding
    (the padded copy was a pass over the input and a loop nest to compile). Anything
    else is ConvolutionToGeneric's."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConvolutionOp, rewriter: PatternRewriter):
        element_type = elem_of(op.lhs.type)
        dims = op.dimension_numbers()
        nhwc = (dims.input_batch, dims.input_feature, tuple(dims.input_spatial)) == (0, 3, (1, 2))
        hwio = (dims.kernel_input_feature, dims.kernel_output_feature, tuple(dims.kernel_spatial)) == (2, 3, (0, 1))
        out = (dims.output_batch, dims.output_feature, tuple(dims.output_spatial)) == (0, 3, (1, 2))
        if not (nhwc and hwio and out) or not is_float(element_type) or is_half(element_type):
            return
        if op.get_feature_group_count() != 1 or op.get_batch_group_count() != 1:
            return
        padded = any(p != (0, 0) for p in op.get_padding() or ())
        if padded and element_type == f32 and not any(d != 1 for d in op.get_lhs_dilation() or ()):
            return  # the generic's clamped reads: the f32 kernel takes the padding in its packing
        result_type = nonempty_result(op, rewriter)
        if result_type is None:
            return
        strides = op.get_window_strides() or (1, 1)
        rhs_dilation = op.get_rhs_dilation() or (1, 1)
        window = Window.of(
            (1, 1, 1, 1),
            base_dilations=(1, *(op.get_lhs_dilation() or (1, 1)), 1),
            padding=((0, 0), *(op.get_padding() or ((0, 0), (0, 0))), (0, 0)),
        )
        zero = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(tensor_type((), element_type), [0.0]))
        pad = padded_and_dilated(op.lhs, zero.result, window)
        lhs = pad[-1].results[0] if pad else op.lhs
        fill = fill_with_zero(result_type)

        def i64_vector(values) -> DenseIntOrFPElementsAttr:
            return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), list(values))

        conv = linalg.Conv2DNhwc_HwcfOp(
            [lhs, op.rhs], [fill[-1].results[0]], [result_type],
            strides=i64_vector(strides), dilations=i64_vector(rhs_dilation),
        )  # fmt: skip
        rewriter.replace(op, [zero, *pad, *fill, conv], conv.results)


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
            zero = b.add_op(zero_constant(element_type))
            if 0 in lhs_shape:
                return zero  # all padding

            def grouped(index: SSAValue, groups: int, group_size: int) -> SSAValue:
                if groups == 1:
                    return index
                feature = b.loop_index(dims.output_feature)
                group = b.div_const(feature, out_features // groups)
                return b.add(b.mul_const(group, group_size), index)

            indices: list[SSAValue] = [zero] * (n + 2)  # each one set below
            indices[dims.input_batch] = grouped(b.loop_index(dims.output_batch), batch_groups, group_batch)
            indices[dims.input_feature] = grouped(b.loop_index(feature_loop), feature_groups, group_features)
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
        `factors(builder, k)` (real or complex numbers of `element_type`)."""

        def step(b: LoopBuilder, k: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            x, y = factors(b, k)
            return [b.plus(acc[0], b.times(x, y))]

        return self.for_range(lower, upper, [self.add_op(zero_constant(element_type))], step)[0]

    # ---- arithmetic on real or complex numbers (the complex ones as numpy's) ---------
    def _scalar(self) -> ScalarBuilder:
        """A ScalarBuilder adding its ops to this builder's."""
        scalar = ScalarBuilder()
        scalar.ops = self.ops
        return scalar

    def plus(self, x: SSAValue, y: SSAValue) -> SSAValue:
        if not isinstance(x.type, ComplexType):
            return self.add_op(arith.AddfOp(x, y))
        return self.complex_parts(x, y, arith.AddfOp)

    def minus(self, x: SSAValue, y: SSAValue) -> SSAValue:
        if not isinstance(x.type, ComplexType):
            return self.add_op(arith.SubfOp(x, y))
        return self.complex_parts(x, y, arith.SubfOp)

    def times(self, x: SSAValue, y: SSAValue) -> SSAValue:
        if not isinstance(x.type, ComplexType):
            return self.add_op(arith.MulfOp(x, y))
        return complex_multiply(self._scalar(), x, y)

    def divided(self, x: SSAValue, y: SSAValue) -> SSAValue:
        if not isinstance(x.type, ComplexType):
            return self.add_op(arith.DivfOp(x, y))
        return complex_divide(self._scalar(), x, y)

    def complex_parts(self, x: SSAValue, y: SSAValue, kind: type[arith.AddfOp | arith.SubfOp]) -> SSAValue:
        """`kind` (addf, subf) on the real parts and on the imaginary parts."""
        (xr, xi), (yr, yi) = parts(self, x), parts(self, y)
        return make_complex(self, self.add_op(kind(xr, yr)), self.add_op(kind(xi, yi)))

    def conj(self, z: SSAValue) -> SSAValue:
        """z's complex conjugate (z itself for a real number)."""
        if not isinstance(z.type, ComplexType):
            return z
        re, im = parts(self, z)
        return make_complex(self, re, self.add_op(arith.NegfOp(im)))


class CholeskyToLoops(RewritePattern):
    """xla.cholesky -> loops over the batch and over the columns j of each matrix
    (Cholesky-Crout, in f32 for f16/bf16): L[j][j] = sqrt(A[j][j] - sum_k<j L[j][k]^2)
    and L[i][j] = (A[i][j] - sum_k<j L[i][k] L[j][k]) / L[j][j] for i > j, reading only
    the requested triangle of a (lower: A[i][j] = a[i][j]; upper: A[i][j] = a[j][i],
    where U = L^T is written too). The other triangle is zero.

    Complex matrices are Hermitian, "a = L L^H" (or U^H U): the diagonal's real part
    only is read, L[j][j] = sqrt(Re A[j][j] - sum_k<j |L[j][k]|^2) is real and L[i][j] =
    (A[i][j] - sum_k<j L[i][k] conj(L[j][k])) / L[j][j], with conjugates where the
    real code transposes (upper: A[i][j] = conj(a[j][i]), U = L^H).

    "A matrix that is not positive definite gives NaNs in the requested triangle": a
    pivot that is not > 0 (or NaN) is made NaN, which the later columns carry to the
    last pivot; a final generic then writes NaN (NaN + 0i) over the whole triangle of
    each matrix whose last pivot is NaN (and rounds f16/bf16 back)."""

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
        complex_ = isinstance(t, ComplexType)
        real = t.element_type if isinstance(t, ComplexType) else t

        def at(batch_index: list[SSAValue], i: SSAValue, j: SSAValue) -> list[SSAValue]:
            """Where element (i, j), i >= j, of A and of L lives."""
            return [*batch_index, i, j] if lower else [*batch_index, j, i]

        def read(b: LoopBuilder, source: SSAValue, batch_index: list[SSAValue], i: SSAValue, j: SSAValue) -> SSAValue:
            """Element (i, j), i >= j, of A or L: the upper triangle holds their
            conjugates."""
            value = b.read(source, at(batch_index, i, j), t)
            return value if lower else b.conj(value)

        def real_part(b: LoopBuilder, z: SSAValue) -> SSAValue:
            return parts(b, z)[0] if complex_ else z

        def squared_magnitude(b: LoopBuilder, z: SSAValue) -> SSAValue:
            if not complex_:
                return b.times(z, z)
            re, im = parts(b, z)
            return b.plus(b.times(re, re), b.times(im, im))

        def factor(b: LoopBuilder, index: list[SSAValue], work: SSAValue) -> SSAValue:
            def column(b: LoopBuilder, j: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                work = state[0]
                zero = b.const(0)

                def square(b: LoopBuilder, k: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                    return [b.plus(acc[0], squared_magnitude(b, b.read(work, at(index, j, k), t)))]

                squares = b.for_range(zero, j, [b.float_const(0.0, real)], square)[0]
                d = b.minus(real_part(b, b.read(op.a, at(index, j, j), t)), squares)
                positive = b.add_op(arith.CmpfOp(d, b.float_const(0.0, real), "ogt"))
                pivot = b.add_op(arith.SelectOp(positive, b.add_op(math.SqrtOp(d)), b.float_const(pymath.nan, real)))
                work = b.write(
                    make_complex(b, pivot, b.float_const(0.0, real)) if complex_ else pivot, work, at(index, j, j)
                )

                def row(b: LoopBuilder, i: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                    work = state[0]
                    dot = b.sum_products(
                        b.const(0), j,
                        t, lambda b, k: (read(b, work, index, i, k), b.conj(read(b, work, index, j, k))),
                    )  # fmt: skip
                    rest = b.minus(read(b, op.a, index, i, j), dot)
                    if complex_:
                        value = make_complex(b, *(b.divided(p, pivot) for p in parts(b, rest)))
                        value = value if lower else b.conj(value)
                    else:
                        value = b.divided(rest, pivot)
                    return [b.write(value, work, at(index, i, j))]

                return b.for_range(b.add_const(j, 1), b.const(m), [work], row)

            return b.for_range(b.const(0), b.const(m), [work], column)[0]

        b = LoopBuilder()
        fill = fill_with_zero(work_type)
        factored = b.for_each(batch, fill[-1].results[0], factor)

        def finish(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            f = LoopBuilder()
            index = [f.loop_index(d) for d in range(rank)]
            last = f.const(m - 1)
            pivot = real_part(f, f.read(factored, [*index[:-2], last, last], t))
            failed = f.add_op(arith.CmpfOp(pivot, pivot, "uno"))
            i, j = index[-2:]
            in_triangle = f.cmp("uge" if lower else "ule", i, j)
            nan = f.float_const(pymath.nan, real)
            if complex_:
                nan = make_complex(f, nan, f.float_const(0.0, real))
            value = f.add_op(arith.SelectOp(f.add_op(arith.AndIOp(failed, in_triangle)), nan, args[0]))
            if value.type != elem_of(result_type):
                value = f.add_op(arith.TruncFOp(value, elem_of(result_type)))
            return f.ops, [value]

        rewriter.replace(op, [*fill, *b.ops, *identity_generic([factored], result_type, finish)])


class TriangularSolveToLoops(RewritePattern):
    """xla.triangular_solve -> substitution loops (in f32 for f16/bf16), as the
    interpreter: the system solved is T x = r with T = op(a) on the left side and
    T = op(a)^T (x^T and b^T as x and r) on the right, so T[i][j] = a[i][j] or, when
    exactly one of "transposed by transpose_a" and "right side" holds, a[j][i]; with
    transpose_a = ADJOINT, each element of a read is conjugated (ADJOINT = TRANSPOSE for
    real types). T is lower triangular when `lower` xor that swap. Rows i are solved in
    order (forward for a lower T, backward otherwise): x[i][k] = (r[i][k] - sum_j T[i][j]
    x[j][k]) / T[i][i] over the rows j already solved, in increasing j (complex numbers
    multiplied and divided as numpy does); with unit_diagonal, T[i][i] = 1 is not read."""

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
        adjoint = op.get_transpose_a() == xla.Transpose.ADJOINT
        t_lower = op.get_lower() != swapped
        work_type = accumulator_type(result_type)
        t = elem_of(work_type)

        def solve(b: LoopBuilder, index: list[SSAValue], work: SSAValue) -> SSAValue:
            def a_at(i: SSAValue, j: SSAValue) -> list[SSAValue]:
                return [*index, j, i] if swapped else [*index, i, j]

            def t_read(b: LoopBuilder, i: SSAValue, j: SSAValue) -> SSAValue:
                value = b.read(op.a, a_at(i, j), t)
                return b.conj(value) if adjoint else value

            def x_at(i: SSAValue, k: SSAValue) -> list[SSAValue]:
                return [*index, i, k] if left else [*index, k, i]

            def row(b: LoopBuilder, step: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                i = step if t_lower else b.sub(b.const(m - 1), step)
                # the rows solved before row i
                first, end = (b.const(0), i) if t_lower else (b.add_const(i, 1), b.const(m))

                def column(b: LoopBuilder, k: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
                    work = state[0]
                    known = b.sum_products(first, end, t, lambda b, j: (t_read(b, i, j), b.read(work, x_at(j, k), t)))
                    x = b.minus(b.read(op.b, x_at(i, k), t), known)
                    if not op.get_unit_diagonal():
                        x = b.divided(x, t_read(b, i, i))
                    return [b.write(x, work, x_at(i, k))]

                return b.for_range(b.const(0), b.const(columns), state, column)

            return b.for_range(b.const(0), b.const(m), [work], row)[0]

        b = LoopBuilder()
        empty = tensor.EmptyOp([], work_type)
        solved = b.for_each(batch, empty.tensor, solve)
        new_ops: list[Operation] = [empty, *b.ops, *round_accumulator(solved, result_type)]
        rewriter.replace(op, new_ops, new_ops[-1].results)


# --------------------------------------------------------------------------------------
# Fft: mixed-radix Cooley-Tukey stages, each one generic
# --------------------------------------------------------------------------------------

WORK = ComplexType(f64)  # FFTs compute in complex<f64>, rounded once at the end


def prime_factors(n: int) -> list[int]:
    """n's prime factors, smallest first (n >= 1; [] for 1)."""
    factors, p = [], 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return [*factors, n] if n > 1 else factors


def complex_fill(result_type: TensorType) -> list[Operation]:
    """`result_type` (complex) filled with 0 + 0i; the last op gives the result."""
    element = elem_of(result_type)
    assert isinstance(element, ComplexType)
    zero = cplx.ConstantOp.from_floats((0.0, 0.0), element.element_type)  # type: ignore[arg-type]
    return identity_generic([], result_type, lambda args: ([zero], [zero.complex]))


def reshaped_axis(t: TensorType, axis: int, size: int, element: Attribute) -> TensorType:
    shape = list(shape_of(t))
    shape[axis] = size
    return tensor_type(shape, element)


def over_result(
    result_type: TensorType, axis: int, element: Callable[[LoopBuilder, SSAValue, list[SSAValue]], SSAValue]
) -> list[Operation]:
    """A generic over `result_type` whose element at `indices` is `element(builder,
    position along axis, indices)`; the last op gives the result."""
    rank = len(shape_of(result_type))

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        b = LoopBuilder()
        indices = [b.loop_index(d) for d in range(rank)]
        return b.ops, [element(b, indices[axis], indices)]

    return identity_generic([], result_type, body)


def complex_table(values: Sequence[complex]) -> arith.ConstantOp:
    """A constant tensor<N x complex<f64>> of `values` (twiddle factors, chirps)."""
    table_type = TensorType(WORK, [len(values)])
    return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(table_type, [(v.real, v.imag) for v in values]))


def roots_of_unity(n: int, sign: float) -> list[complex]:
    """exp(sign 2 pi i k / n) for k < n, each rounded once from the exact value."""
    return [complex(pymath.cos(2 * pymath.pi * k / n), sign * pymath.sin(2 * pymath.pi * k / n)) for k in range(n)]


def parts(b: LoopBuilder, z: SSAValue) -> tuple[SSAValue, SSAValue]:
    return b.add_op(cplx.ReOp(z)), b.add_op(cplx.ImOp(z))


def times(b: LoopBuilder, z: SSAValue, w: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The parts of the product z * w (w complex): for a real z, the two real products
    (z c, z s), so that z's NaN or infinity meets no imaginary part of its own (XLA's
    real FFTs multiply so: inf * (1 + 0i) is inf + 0i, not inf + NaN i)."""
    c, s = parts(b, w)
    mul, add, sub = arith.MulfOp, arith.AddfOp, arith.SubfOp
    if not isinstance(z.type, ComplexType):
        return b.add_op(mul(z, c)), b.add_op(mul(z, s))
    re, im = parts(b, z)
    return (
        b.add_op(sub(b.add_op(mul(re, c)), b.add_op(mul(im, s)))),
        b.add_op(add(b.add_op(mul(re, s)), b.add_op(mul(im, c)))),
    )


def make_complex(b: LoopBuilder, re: SSAValue, im: SSAValue) -> SSAValue:
    return b.add_op(cplx.CreateOp(re, im, ComplexType(re.type)))  # type: ignore[arg-type]


def complex_zero(b: LoopBuilder) -> SSAValue:
    return b.add_op(cplx.ConstantOp.from_floats((0.0, 0.0), f64))  # type: ignore[arg-type]


def scaled(b: LoopBuilder, z: SSAValue, factor: float) -> SSAValue:
    f = b.float_const(factor, f64)
    return make_complex(b, *(b.add_op(arith.MulfOp(p, f)) for p in parts(b, z)))


def at_axis(indices: list[SSAValue], axis: int, position: SSAValue) -> list[SSAValue]:
    return [position if d == axis else i for d, i in enumerate(indices)]


def work_parts(b: LoopBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The parts of a work value: a real one (f64) has the exact imaginary part 0."""
    return parts(b, x) if isinstance(x.type, ComplexType) else (x, b.float_const(0.0, f64))


def twiddled(
    b: LoopBuilder, x: SSAValue, exponent: SSAValue, block: int, roots: SSAValue, n: int, inverse: bool
) -> tuple[SSAValue, SSAValue]:
    """The parts of x * w^exponent, w = exp(-+2 pi i / block) (roots[e n / block]). The
    trivial twiddles, 1, -1 and -+i (exponent 0, block/2, block/4, 3 block/4), are
    applied exactly, by sign changes and swapping the parts, as XLA's FFT (DUCC's
    radix-2/4 butterflies) applies them: no product meets a NaN or an infinity of x
    there (inf * (0 - 1i) is 0 - inf i, not NaN - inf i)."""
    product = times(b, x, b.read(roots, [b.mul_const(exponent, n // block)], WORK))
    re, im = work_parts(b, x)
    negate = arith.NegfOp
    # w = -i forward (exp(-i pi/2)), +i inverse: x * -i = (im, -re), x * i = (-im, re)
    quarter_turns = (
        [(0, (re, im)), (block // 2, (b.add_op(negate(re)), b.add_op(negate(im))))]
        if block % 2 == 0
        else [(0, (re, im))]
    )
    if block % 4 == 0:
        minus_i = (im, b.add_op(negate(re)))
        plus_i = (b.add_op(negate(im)), re)
        quarter_turns += [
            (block // 4, plus_i if inverse else minus_i),
            (3 * block // 4, minus_i if inverse else plus_i),
        ]
    result = product
    for e, exact in quarter_turns:
        hit = b.cmp("eq", exponent, b.const(e))
        result = (
            b.add_op(arith.SelectOp(hit, exact[0], result[0])),
            b.add_op(arith.SelectOp(hit, exact[1], result[1])),
        )
    return result


def dft_stage(z: SSAValue, axis: int, block: int, radix: int, roots: SSAValue, inverse: bool) -> list[Operation]:
    """One Cooley-Tukey step on every block of `block` = radix * q elements along
    `axis` (a sub-transform of the previous steps): with j = q j1 + j2, position
    b*block + k1*q + j2 gets sum_j1 z[b*block + q*j1 + j2] * w^(k1 (j2 + q j1)) with
    w = exp(sign 2 pi i / block), summed over j1 in increasing order (unrolled up to
    UNROLLED_RADIX terms, else an scf.for loop adding the same terms in the same order:
    a direct step of a prime up to ~270 would be thousands of ops per element).
    `roots` holds the n-th roots of unity (n = the axis's length),
    w^e = roots[e * n / block]; the trivial ones are applied exactly (`twiddled`). z is
    complex<f64>, or f64 (a real input's first step: real times complex products);
    the result is complex<f64>. The remaining length-q transforms of each (b, k1) row
    are the next steps'; the last op gives the result."""
    z_type = z.type
    assert isinstance(z_type, TensorType)
    n = shape_of(z_type)[axis]
    q = block // radix

    def element(b: LoopBuilder, position: SSAValue, indices: list[SSAValue]) -> SSAValue:
        base = b.mul_const(b.div_const(position, block), block)
        within = b.rem_const(position, block)
        k1, j2 = b.div_const(within, q), b.rem_const(within, q)

        def term(t: LoopBuilder, offset: SSAValue) -> tuple[SSAValue, SSAValue]:
            x = t.read(z, at_axis(indices, axis, t.add(base, offset)), elem_of(z_type))
            exponent = t.rem_const(t.add_op(arith.MuliOp(k1, offset)), block)
            return twiddled(t, x, exponent, block, roots, n, inverse)

        def plus(t: LoopBuilder, total: Sequence[SSAValue], more: Sequence[SSAValue]) -> list[SSAValue]:
            return [t.add_op(arith.AddfOp(total[0], more[0])), t.add_op(arith.AddfOp(total[1], more[1]))]

        total = list(term(b, j2))
        if radix <= UNROLLED_RADIX:
            for j1 in range(1, radix):
                total = plus(b, total, term(b, b.add_const(j2, q * j1)))
        else:
            total = b.for_range(
                b.const(1),
                b.const(radix),
                total,
                lambda t, j1, acc: plus(t, acc, term(t, t.add(j2, t.mul_const(j1, q)))),
            )
        return make_complex(b, *total)

    return over_result(reshaped_axis(z_type, axis, n, WORK), axis, element)


# A length is transformed by Cooley-Tukey steps (n * p terms each, a step per prime
# factor p) or by Bluestein's algorithm (two power-of-2 transforms) as XLA's FFT
# (DUCC) and numpy's (pocketfft) choose (`takes_bluestein`): where a NaN or an
# infinity goes depends on the way (a length-53 FFT of a vector with an infinity was
# NaN everywhere by Bluestein's, infinities by theirs: mutant seed 827292).
DIRECT_BELOW = 50
UNROLLED_RADIX = DIRECT_BELOW - 1  # a Cooley-Tukey step of a larger radix sums its terms in a loop


def _cost_guess(n: int) -> float:
    """pocketfft's and DUCC's estimate of the cost of Cooley-Tukey steps for length n:
    n times the sum of its prime factors, those above 5 weighted 1.1."""
    return n * sum(p if p <= 5 else 1.1 * p for p in prime_factors(n))


def _good_size(n: int) -> int:
    """The smallest product of powers of 2, 3, 5, 7 and 11 that is at least n (n <= 12:
    n), pocketfft's `good_size_cmplx`."""
    if n <= 12:
        return n
    best, f11 = 2 * n, 1
    while f11 < best:
        f7 = f11
        while f7 < best:
            f5 = f7
            while f5 < best:
                f3 = f5
                while f3 < best:
                    x = f3
                    while x < n:
                        x *= 2
                    best = min(best, x)
                    f3 *= 3
                f5 *= 5
            f7 *= 7
        f11 *= 11
    return best


def takes_bluestein(n: int, real: bool = False) -> bool:
    """Whether a DFT of length n takes Bluestein's algorithm, as DUCC's and pocketfft's
    plans decide: not below DIRECT_BELOW nor when the largest prime factor's square is
    at most n; else when twice the cost of a transform of the good size >= 2n - 1, times
    1.5, is below the cost of n's steps (halved for a real FFT's, `real`)."""
    if n < DIRECT_BELOW or prime_factors(n)[-1] ** 2 <= n:
        return False
    steps = (0.5 if real else 1.0) * _cost_guess(n)
    return 2 * _cost_guess(_good_size(2 * n - 1)) * 1.5 < steps


def as_complex(z: SSAValue) -> list[Operation]:
    """A real (f64) work tensor as complex<f64> (imaginary parts +0); nothing for a
    complex one."""
    z_type = z.type
    assert isinstance(z_type, TensorType)
    if isinstance(elem_of(z_type), ComplexType):
        return []

    def widen(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
        return make_complex(b, *work_parts(b, b.read(z, indices, f64)))

    return over_result(reshaped_axis(z_type, 0, shape_of(z_type)[0], WORK), 0, widen)


def dft_axis(z: SSAValue, axis: int, inverse: bool, real: bool = False) -> list[Operation]:
    """The DFT of length n = z's size along `axis` (z complex<f64>, or f64 for a real
    input; the result complex<f64>; the inverse one scaled by 1/n); the last op gives
    the result. One stage per prime factor of n (4 for two 2s), then a generic reading
    each frequency k = k1 + p1 k2 + p1 p2 k3 ... where the stages left it, at
    digit-reversed position k1 n/p1 + k2 n/(p1 p2) + ...; Bluestein's algorithm where
    `takes_bluestein` (of a real FFT's transform with `real`)."""
    z_type = z.type
    assert isinstance(z_type, TensorType)
    n = shape_of(z_type)[axis]
    radices = prime_factors(n)
    if not radices:
        return as_complex(z)  # a length-1 transform is the identity
    if takes_bluestein(n, real):
        return bluestein(z, axis, inverse)
    # radix-4 steps where two factors 2 allow: as many terms, half the generics
    twos = radices.count(2)
    radices = [4] * (twos // 2) + [2] * (twos % 2) + radices[twos:]
    roots = complex_table(roots_of_unity(n, 1.0 if inverse else -1.0))
    ops: list[Operation] = [roots]
    block = n
    for radix in radices:
        ops += dft_stage(z, axis, block, radix, roots.result, inverse)
        z = ops[-1].results[0]
        block //= radix

    def reorder(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
        position, below, above = None, 1, n
        for radix in radices:
            above //= radix
            term = b.mul_const(b.rem_const(b.div_const(k, below), radix), above)
            position = term if position is None else b.add(position, term)
            below *= radix
        assert position is not None
        value = b.read(z, at_axis(indices, axis, position), WORK)
        return scaled(b, value, 1.0 / n) if inverse else value

    z_type = z.type
    assert isinstance(z_type, TensorType)
    return [*ops, *over_result(z_type, axis, reorder)]


# A Bluestein row whose largest magnitude is at least 2^HUGE_ROW_EXPONENT is scaled
# (`bluestein`): its sums would reach 2^1024 for lengths up to ~2^300.
HUGE_ROW_EXPONENT = 101
_F64_BIAS, _F64_MANTISSA = 1023, 52


def row_exponent(b: LoopBuilder, z: SSAValue, axis: int, indices: list[SSAValue]) -> SSAValue:
    """The biased exponent (i64) of the largest magnitude of a part of z's row along
    `axis` through `indices` (2047 when the row has a NaN or an infinity)."""
    n = shape_of(z.type)[axis]

    def step(inner: LoopBuilder, j: SSAValue, largest: list[SSAValue]) -> list[SSAValue]:
        re, im = work_parts(inner, inner.read(z, at_axis(indices, axis, j), elem_of(z.type)))
        magnitude = inner.add_op(arith.MaximumfOp(inner.add_op(math.AbsFOp(re)), inner.add_op(math.AbsFOp(im))))
        return [inner.add_op(arith.MaximumfOp(largest[0], magnitude))]

    largest = b.for_range(b.const(0), b.const(n), [b.float_const(0.0, f64)], step)[0]
    bits = b.add_op(arith.BitcastOp(largest, i64))
    shifted = b.add_op(arith.ShRUIOp(bits, b.add_op(arith.ConstantOp(IntegerAttr(_F64_MANTISSA, i64)))))
    return b.add_op(arith.AndIOp(shifted, b.add_op(arith.ConstantOp(IntegerAttr(0x7FF, i64)))))


def row_scale(b: LoopBuilder, exponents: SSAValue, axis: int, indices: list[SSAValue], up: bool) -> SSAValue:
    """The scale down (or `up`) of the row through `indices`: for a biased exponent E
    of its largest magnitude in [1023 + HUGE_ROW_EXPONENT, 2046], 2^(1024 - E) (or
    2^(E - 1024): normal doubles, their product 1), else 1."""

    def integer(value: int) -> SSAValue:
        return b.add_op(arith.ConstantOp(IntegerAttr(value, i64)))

    e = b.read(exponents, at_axis(indices, axis, b.const(0)), i64)
    huge = b.add_op(
        arith.AndIOp(
            b.add_op(arith.CmpiOp(e, integer(_F64_BIAS + HUGE_ROW_EXPONENT), "uge")),
            b.add_op(arith.CmpiOp(e, integer(2046), "ule")),
        )
    )
    # 2^(E - 1024): biased exponent E - 1; 2^(1024 - E): 2047 - E
    biased = arith.SubiOp(e, integer(1)) if up else arith.SubiOp(integer(2047), e)
    bits = b.add_op(arith.ShLIOp(b.add_op(biased), integer(_F64_MANTISSA)))
    return b.add_op(arith.SelectOp(huge, b.add_op(arith.BitcastOp(bits, f64)), b.float_const(1.0, f64)))


def real_scaled(b: LoopBuilder, z: SSAValue, factor: SSAValue) -> SSAValue:
    """A complex z times the real `factor` (each part)."""
    return make_complex(b, *(b.add_op(arith.MulfOp(p, factor)) for p in parts(b, z)))


def bluestein(z: SSAValue, axis: int, inverse: bool) -> list[Operation]:
    """Bluestein's DFT of length n along `axis`: with the chirp w[k] = exp(s i pi k^2 /
    n) (s = -1, or +1 for the inverse), jk = (k^2 + j^2 - (k - j)^2) / 2 makes
    X[k] = w[k] sum_j (z[j] w[j]) conj(w[k - j]), a cyclic convolution of length
    M = the power of 2 >= 2n - 1: the FFT of the chirped z, times the FFT of the
    filter conj(w[min(j, M - j)]) (a constant, as the chirp: k^2 taken mod 2n), and
    the inverse FFT of that product, chirped again. z is complex<f64>, or f64 (real
    times complex products); the result is complex<f64>.

    The convolution's sums reach ~8 n^3 times the row's largest magnitude: a row whose
    largest part is at least 2^HUGE_ROW_EXPONENT is scaled by a power of two to below
    4 first and back at the end (exact, each product and sum scaled alike), else values
    near the largest double overflowed to inf - inf = NaN where the DFT is finite
    (mutant seed 825934). Other rows are transformed unscaled, as before."""
    z_type = z.type
    assert isinstance(z_type, TensorType)
    n = shape_of(z_type)[axis]
    m = 1 << (2 * n - 2).bit_length()
    sign = 1.0 if inverse else -1.0
    # exp(s i pi k^2 / n) = the (2n)-th root of unity number k^2 mod 2n
    roots = roots_of_unity(2 * n, sign)
    chirp_values = [roots[k * k % (2 * n)] for k in range(n)]
    filter_values = [chirp_values[min(j, m - j)].conjugate() if min(j, m - j) < n else 0j for j in range(m)]
    chirp = complex_table(chirp_values)
    # a constant: its FFT at compile time (numpy's, in f64)
    spectrum_of_filter = complex_table(list(np.fft.fft(np.array(filter_values, np.complex128))))
    exponents = over_result(reshaped_axis(z_type, axis, 1, i64), axis, lambda b, _, i: row_exponent(b, z, axis, i))

    def chirped(b: LoopBuilder, j: SSAValue, indices: list[SSAValue]) -> SSAValue:
        """z[j] w[j] for j < n (scaled down in a huge row), else 0."""
        last = b.const(n - 1)
        jj = b.min_u(j, last)
        x = b.read(z, at_axis(indices, axis, jj), elem_of(z_type))
        down = row_scale(b, exponents[-1].results[0], axis, indices, up=False)
        x = b.add_op(arith.MulfOp(x, down)) if not isinstance(x.type, ComplexType) else real_scaled(b, x, down)
        product = make_complex(b, *times(b, x, b.read(chirp.result, [jj], WORK)))
        return b.add_op(arith.SelectOp(b.cmp("ule", j, last), product, complex_zero(b)))

    ops: list[Operation] = [chirp, spectrum_of_filter, *exponents]
    ops += over_result(reshaped_axis(z_type, axis, m, WORK), axis, chirped)
    ops += dft_axis(ops[-1].results[0], axis, False)
    spectrum = ops[-1].results[0]

    def product(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
        y = b.read(spectrum, indices, WORK)
        return make_complex(b, *times(b, y, b.read(spectrum_of_filter.result, [k], WORK)))

    spectrum_type = spectrum.type
    assert isinstance(spectrum_type, TensorType)
    ops += over_result(spectrum_type, axis, product)
    ops += dft_axis(ops[-1].results[0], axis, True)
    convolved = ops[-1].results[0]

    def dechirp(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
        value = make_complex(b, *times(b, b.read(convolved, indices, WORK), b.read(chirp.result, [k], WORK)))
        value = scaled(b, value, 1.0 / n) if inverse else value
        return real_scaled(b, value, row_scale(b, exponents[-1].results[0], axis, indices, up=True))

    return [*ops, *over_result(reshaped_axis(z_type, axis, n, WORK), axis, dechirp)]


def _fft_element(element: Attribute) -> str | None:
    """The FFT kernel's name of an element type (fft.TYPES), None for another type."""
    return fft.ELEMENT_NAMES.get(str(element))


def fft_kernel_calls(op: xla.FftOp) -> list[fft.KernelCall] | None:
    """The FFT kernel's calls that compute `op` (`fft.kernel_calls`), or None when the
    kernel does not take it."""
    operand_type, result_type = op.operand.type, op.results[0].type
    assert isinstance(operand_type, TensorType) and isinstance(result_type, TensorType)
    return fft.kernel_calls(
        str(op.get_fft_type()),
        shape_of(operand_type),
        shape_of(result_type),
        op.get_fft_length(),
        _fft_element(elem_of(operand_type)),
        _fft_element(elem_of(result_type)),
    )


def fft_kernel_library(root: Operation) -> libraries.Library | None:
    """The FFT kernel library of every FFT under `root` that the kernel takes: their
    variants and the radices of their lengths' fast steps (`fft.library_need`), one
    module for the program; None without such an FFT."""
    calls = [c for op in root.walk() if isinstance(op, xla.FftOp) for c in fft_kernel_calls(op) or ()]
    return libraries.fft_library(*fft.library_need(calls)) if calls else None


def _library_tag(library: libraries.Library) -> str:
    """What tells an FFT library's declarations from another's: its fast radices and a
    digest of its name (its variants), `r842_1f0c3a9e`."""
    _, radices = library.key
    return "r" + "".join(map(str, radices)) + f"_{zlib.crc32(library.name.encode()):08x}"


class FftToKernel(RewritePattern):
    """xla.fft whose transformed lengths are all ones the FFT kernel takes
    (`fft.supported`: prime factors up to 13) -> calls of the kernel library
    (`lowering/kernels/fft.py`), one per transformed axis (`fft_kernel_calls`):

        %r = func.call @xla_opt_fft_<kind>_<dir>_<src>_<dst>__<library tag>__<type>__<type>(outer, n, inner, %x)

    (outer, n, inner: the sizes before, of and after the axis; one private declaration
    per library and signature, which the JIT binds to the library's entry). `library`:
    the program's FFT library (`fft_kernel_library` of the module, which the pass
    gives); None: the op's own. The kernel computes in complex<f64> as FftToGeneric
    does, and the values between two calls stay complex<f64>: one rounding to the
    result type, at the end. A row with a NaN or an infinity takes the kernel's exact
    steps, FftToGeneric's arithmetic term by term (the same NaNs and infinities). Other
    lengths (Bluestein's, a prime factor above 13), zero lengths and empty operands are
    FftToGeneric's."""

    def __init__(self, library: libraries.Library | None = None):
        self.library = library

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.FftOp, rewriter: PatternRewriter):
        calls = fft_kernel_calls(op)
        if calls is None:
            return
        library = self.library or fft_kernel_library(op)
        assert library is not None
        result_type = op.results[0].type
        ops: list[Operation] = []
        x: SSAValue = op.operand
        current = list(shape_of(op.operand.type))
        for i, call in enumerate(calls):
            variant, axis, n = call.variant, call.axis, call.n
            out_shape = list(current)
            if variant.kind == "r2c":
                out_shape[axis] = n // 2 + 1
            elif variant.kind == "c2r":
                out_shape[axis] = n
            out_type = result_type if i == len(calls) - 1 else tensor_type(out_shape, WORK)
            sizes = [pymath.prod(current[:axis]), n, pymath.prod(current[axis + 1 :])]
            constants = [arith.ConstantOp(IntegerAttr(size, i64)) for size in sizes]
            name = "__".join(
                [variant.symbol, _library_tag(library), *(re.sub(r"[^0-9a-zA-Z]", "_", str(t)) for t in (x.type, out_type))]
            )
            libraries.declare_alias(name, library, variant.symbol)
            call_op = call_external(op, name, [*(c.result for c in constants), x], [out_type])
            ops += [*constants, call_op]
            x, current = call_op.res[0], out_shape
        rewriter.replace(op, ops, [x])


class FftToGeneric(RewritePattern):
    """xla.fft -> generics on complex<f64> tensors (rounded once to the result type):

    * FFT / IFFT: the DFT (exp(-2 pi i jk/n); IFFT exp(+...) and 1/n) along each of the
      len(fft_length) innermost axes, over the operand's own sizes;
    * RFFT: the real operand (in f64) transformed along the innermost axis first, real
      times complex twiddles, cut to fft_length[-1] // 2 + 1 bins with the imaginary
      parts of bin 0 and (n even) bin n/2 exactly 0, as a real FFT has them (XLA's:
      an RFFT of a vector with a NaN has bin 0 NaN + 0i); then the outer axes;
    * IRFFT: the IFFT of the outer axes, then the innermost axis extended to
      fft_length[-1] by Hermitian symmetry (X[k] = conj(X[n - k]) for k > n / 2) and
      inverse-transformed, its real part the result; the imaginary parts of X[0] and
      X[n/2] are ignored (taken as 0, as numpy's irfft and XLA's do: a NaN there
      changes nothing);
    * a zero fft_length or an empty operand gives zeros, as the interpreter.

    Each DFT (`dft_axis`) is mixed-radix Cooley-Tukey over the prime factors of its
    length, n (p1 + p2 + ...) terms, or, where XLA's and numpy's FFTs take it
    (`takes_bluestein`: a length of 50 or more with a large prime factor), Bluestein's
    algorithm (`bluestein`): O(n log n) for every length. A NaN or an infinity in the
    input keeps XLA's exact zeros and infinities where the steps multiply it by trivial
    twiddles only; where two steps both multiply it by non-trivial ones, whether a part
    is NaN or an infinity can differ from XLA's (its DUCC butterflies and factor order
    are not these)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.FftOp, rewriter: PatternRewriter):
        result_type = nonempty_result(op, rewriter)
        if result_type is None:
            return
        operand_type = op.operand.type
        assert isinstance(operand_type, TensorType)
        kind, lengths = op.get_fft_type(), op.get_fft_length()
        result_element = elem_of(result_type)
        if 0 in lengths or 0 in shape_of(operand_type):
            zeros = (
                complex_fill(result_type) if isinstance(result_element, ComplexType) else fill_with_zero(result_type)
            )
            rewriter.replace(op, zeros)
            return
        rank = len(shape_of(operand_type))
        axes = list(range(rank - len(lengths), rank))
        last = axes[-1]
        inverse = kind in (xla.FftType.IFFT, xla.FftType.IRFFT)
        real = kind == xla.FftType.RFFT

        def widen(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
            x = b.add_op(tensor.ExtractOp(op.operand, indices, elem_of(operand_type)))
            if real:
                return x if x.type == f64 else b.add_op(arith.ExtFOp(x, f64))
            return make_complex(b, *(p if p.type == f64 else b.add_op(arith.ExtFOp(p, f64)) for p in parts(b, x)))

        ops = over_result(tensor_type(shape_of(operand_type), f64 if real else WORK), last, widen)
        z = ops[-1].results[0]
        if real:
            n = shape_of(operand_type)[last]
            ops += dft_axis(z, last, False, real=True)
            z = ops[-1].results[0]

            def cut(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
                re, im = parts(b, b.read(z, indices, WORK))
                real_bin = b.cmp("eq", k, b.const(0))
                if n % 2 == 0:
                    real_bin = b.add_op(arith.OrIOp(real_bin, b.cmp("eq", k, b.const(n // 2))))
                return make_complex(b, re, b.add_op(arith.SelectOp(real_bin, b.float_const(0.0, f64), im)))

            z_type = z.type
            assert isinstance(z_type, TensorType)
            ops += over_result(reshaped_axis(z_type, last, n // 2 + 1, WORK), last, cut)
            z = ops[-1].results[0]
        for axis in axes[:-1]:
            ops += dft_axis(z, axis, inverse)
            z = ops[-1].results[0]
        if kind == xla.FftType.IRFFT:
            n, half = lengths[-1], shape_of(operand_type)[last]

            def hermitian(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
                upper = b.cmp("ugt", k, b.const(half - 1))
                mirrored = b.min_u(b.sub(b.const(n), k), b.const(half - 1))
                source = b.add_op(arith.SelectOp(upper, mirrored, k))
                re, im = parts(b, b.read(z, at_axis(indices, last, source), WORK))
                im = b.add_op(arith.SelectOp(upper, b.add_op(arith.NegfOp(im)), im))
                # bins 0 and n/2 of a Hermitian spectrum are real: their imaginary parts
                # are not read
                real_bin = b.cmp("eq", source, b.const(0))
                if n % 2 == 0:
                    real_bin = b.add_op(arith.OrIOp(real_bin, b.cmp("eq", source, b.const(n // 2))))
                return make_complex(b, re, b.add_op(arith.SelectOp(real_bin, b.float_const(0.0, f64), im)))

            z_type = z.type
            assert isinstance(z_type, TensorType)
            ops += over_result(reshaped_axis(z_type, last, n, WORK), last, hermitian)
            z = ops[-1].results[0]
        if not real:
            ops += dft_axis(z, last, inverse, real=kind == xla.FftType.IRFFT)
            z = ops[-1].results[0]

        def narrow(b: LoopBuilder, k: SSAValue, indices: list[SSAValue]) -> SSAValue:
            x = b.read(z, indices, WORK)
            if kind == xla.FftType.IRFFT:
                re = parts(b, x)[0]
                return re if result_element == f64 else b.add_op(arith.TruncFOp(re, result_element))
            assert isinstance(result_element, ComplexType)
            if result_element == WORK:
                return x
            part_type = result_element.element_type
            return make_complex(b, *(b.add_op(arith.TruncFOp(p, part_type)) for p in parts(b, x)))

        ops += over_result(result_type, last, narrow)
        rewriter.replace(op, ops, ops[-1].results)


PATTERNS: list[RewritePattern] = [
    FftToKernel(),  # before the generic: the lengths the kernel takes
    FftToGeneric(),
    DotToGeneric(),
    DotGeneralToGeneric(),
    ConvolutionPhases(),  # before the others: the forms the convolution kernel takes
    KernelLayoutForKernel(),
    FewFeaturesFirst(),
    ConvolutionToNamedConv(),  # before the generic: the named form where it fits
    ConvolutionToGeneric(),
    CholeskyToLoops(),
    TriangularSolveToLoops(),
]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(
    op.name for op in (xla.DotOp, xla.DotGeneralOp, xla.ConvolutionOp, xla.CholeskyOp, xla.TriangularSolveOp, xla.FftOp)
)
