"""The element-wise half of convert-xla-to-linalg.

* every element-wise op (unary, binary, compare, select, clamp, convert, bitcast_convert
  of equal widths, reduce_precision), whose operands all have the result's shape after
  xla-legalize-broadcast, becomes one `linalg.generic` with identity maps and parallel
  loops whose body is the op as scalar code (`emit_scalar`); complex numbers included;
* `xla.bitcast_convert` between widths becomes a generic over the result: to a
  narrower type, each element is one piece of its operand element's bits (the
  operand's map drops the new minor dimension); to a wider type, the pieces of the
  removed minor dimension are read with tensor.extract and joined (little endian);
* `xla.constant` becomes `arith.constant` of the same dense value (signless);
* `xla.iota` becomes a generic writing `linalg.index` converted to the element type.

Ops inside computation regions (reducers, comparators...) are left to the pattern
lowering their parent, which inlines the computation as scalar code; ops without a
scalar lowering stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, IntegerAttr, TensorType, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.base import XlaOp
from xla_opt.dialects.xla.element_types import bit_width, elem_of, shape_of
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import (
    ScalarLoweringError,
    emit_bitcast_join,
    emit_bitcast_piece,
    emit_convert,
    emit_scalar,
)

from .common import PARALLEL, affine_map, fill_from_scalar, generic

# The ops computed element by element from same-shape operands.
SCALAR_ELEMENTWISE_OPS: tuple[type[Operation], ...] = (
    *ew.UNARY_OPS,
    *ew.BINARY_OPS,
    ew.CompareOp,
    ew.SelectOp,
    ew.ClampOp,
    ew.ConvertOp,
    ew.BitcastConvertOp,
    ew.ReducePrecisionOp,
)


_SCALAR_ELEMENTWISE_CLASSES = frozenset(SCALAR_ELEMENTWISE_OPS)  # concrete classes: membership is isinstance


def in_computation(op: Operation) -> bool:
    """Whether `op` belongs to a computation region of an xla op (a reducer, a
    comparator...): the parent's own lowering inlines it as scalar code. The regions of
    xla.while and xla.conditional are lowered once they have become scf regions."""
    return isinstance(op.parent_op(), XlaOp)


def identity_generic(inputs: Sequence[SSAValue], result_type: TensorType, build_body) -> list[Operation]:
    """tensor.empty of `result_type` and a generic over it with identity maps and
    parallel loops; the last op gives the result."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    identity = affine_map(rank, range(rank))
    return [
        empty,
        generic(inputs, [empty.tensor], [identity] * (len(inputs) + 1), [PARALLEL] * rank, build_body),
    ]


class ElementwiseToGeneric(RewritePattern):
    """An element-wise op on same-shape operands -> a generic computing it as scalar
    code on one element of each operand."""

    # the op classes it acts on, for TypeDispatchApplier (an isinstance against the ~60
    # classes, each an ABC check, was a sixth of the pass)
    matched_types = SCALAR_ELEMENTWISE_OPS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) not in _SCALAR_ELEMENTWISE_CLASSES or in_computation(op):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        if any(shape_of(v.type) != shape_of(result_type) for v in op.operands):
            return  # implicit broadcasting: xla-legalize-broadcast runs first
        inputs = list(op.operands)

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            return emit_scalar(op, list(args[: len(inputs)]))

        try:
            new_ops = identity_generic(inputs, result_type, body)
        except ScalarLoweringError:
            return
        rewriter.replace(op, new_ops)


class ConstantToArith(RewritePattern):
    """xla.constant -> arith.constant of the same dense tensor value, with unsigned
    element types made signless with the other integers, at the end of the pass (a
    zero-element constant -> tensor.empty of its type)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.ConstantOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        value = op.value
        if 0 in shape_of(value.type):
            # no values to keep: an empty tensor of the constant's own type (xDSL's type
            # conversion sweep never finishes on an empty unsigned dense attribute), an
            # unsigned one made signless with the other values, so that the patterns of
            # its users (a host call's operand types) read its signedness
            rewriter.replace(op, tensor.EmptyOp([], value.type))
            return
        if len(value) == 1 and prod(shape_of(value.type)) > 1:
            # a splat kept as one value (large splats are, from the parser on): a fill
            # loop, never a global of every element
            scalar = DenseIntOrFPElementsAttr(TensorType(elem_of(value.type), []), value.data)
            one = arith.ConstantOp(scalar)
            rewriter.replace(op, [one, *fill_from_scalar(one.result, value.type)])
            return
        # Otherwise an unsigned constant keeps its type until the pass makes every
        # integer signless (the same bytes): the patterns of its users read its
        # signedness.
        rewriter.replace(op, arith.ConstantOp(value))


class IotaToGeneric(RewritePattern):
    """xla.iota -> a generic without inputs yielding linalg.index of iota_dimension,
    converted like xla.convert from s64 to the element type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.IotaOp, rewriter: PatternRewriter, /) -> None:
        result_type = op.output.type
        element = elem_of(result_type)
        if in_computation(op):
            return
        dimension = op.get_iota_dimension()

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            index = linalg.IndexOp(dimension)
            count = arith.IndexCastOp(index.result, i64)
            ops, value = emit_convert(count.result, i64, element)
            return [index, count, *ops], [value]

        rewriter.replace(op, identity_generic([], result_type, body))


class BitcastConvertAcrossWidths(RewritePattern):
    """xla.bitcast_convert between element types of different widths, little endian
    like the interpreter (numpy's view): B-bit to narrower b-bit elements adds a minor
    dimension of size B/b whose element k is bits [k*b, (k+1)*b); wider elements are
    made of the B/b elements of the removed minor dimension, the first the lowest."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.BitcastConvertOp, rewriter: PatternRewriter, /) -> None:
        src, dst = elem_of(op.operand.type), elem_of(op.result.type)
        if in_computation(op) or bit_width(src) == bit_width(dst):
            return
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        rank = len(shape_of(result_type))
        if bit_width(src) > bit_width(dst):

            def piece(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
                index = linalg.IndexOp(rank - 1)
                ops, value = emit_bitcast_piece(args[0], src, dst, index.result)
                return [index, *ops], [value]

            empty = tensor.EmptyOp([], result_type)
            maps = [affine_map(rank, range(rank - 1)), affine_map(rank, range(rank))]
            rewriter.replace(op, [empty, generic([op.operand], [empty.tensor], maps, [PARALLEL] * rank, piece)])
            return
        operand = op.operand

        def join(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            indices = [linalg.IndexOp(d) for d in range(rank)]
            minor = [arith.ConstantOp(IntegerAttr(k, IndexType())) for k in range(bit_width(dst) // bit_width(src))]
            reads = [tensor.ExtractOp(operand, [*(i.result for i in indices), k.result], src) for k in minor]
            ops, value = emit_bitcast_join([r.result for r in reads], src, dst)
            return [*indices, *minor, *reads, *ops], [value]

        rewriter.replace(op, identity_generic([], result_type, join))


PATTERNS: list[RewritePattern] = [
    ElementwiseToGeneric(),
    BitcastConvertAcrossWidths(),
    ConstantToArith(),
    IotaToGeneric(),
]

# The ops these patterns lower: every element-wise op.
LOWERED: frozenset[str] = frozenset(op.name for op in ew.ELEMENTWISE_OPS)
