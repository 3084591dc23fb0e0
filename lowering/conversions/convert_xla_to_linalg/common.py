"""Builders shared by the patterns of convert-xla-to-linalg: affine maps, generics,
fills and the element-type helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import (
    DenseArrayBase,
    AffineMapAttr,
    BFloat16Type,
    ComplexType,
    Float16Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xla_opt.dialects.shapes.windows import Window, padded_size
from xla_opt.dialects.xla.element_types import elem_of, is_float, shape_of
from xla_opt.dialects.xla.element_types import tensor as tensor_type
from xla_opt.dialects.xla.shape_ops import PadOp
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import signless

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
    """`result_type` filled with zeros (false for i1, 0 + 0i for complex numbers):
    tensor.empty + a generic whose body yields the constant; the last op gives the
    result."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    element = elem_of(result_type)

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        zero = zero_constant(element)
        return [zero], [zero.results[0]]

    fill = generic(
        [], [empty.tensor], [affine_map(rank, range(rank))], [PARALLEL] * rank, body
    )
    return [empty, fill]


def zero_constant(element_type: Attribute) -> Operation:
    """The constant 0 (false, 0 + 0i) of a scalar type."""
    if isinstance(element_type, ComplexType):
        return cplx.ConstantOp.from_floats((0.0, 0.0), element_type.element_type)
    return arith.ConstantOp(zero_attr(element_type))


def zero_attr(element_type: Attribute) -> IntegerAttr | FloatAttr:
    if is_float(element_type):
        return FloatAttr(0.0, element_type)  # type: ignore[arg-type]
    return IntegerAttr(0, signless(element_type))


def is_half(element_type: Attribute) -> bool:
    return isinstance(element_type, Float16Type | BFloat16Type)


# --------------------------------------------------------------------------------------
# Reduce
# --------------------------------------------------------------------------------------








# --------------------------------------------------------------------------------------
# Dot, DotGeneral
# --------------------------------------------------------------------------------------




# Rows of the result computed together, so that each vector of rhs loaded in the
# innermost loop serves that many rows. Measured on f32 matmuls of 256^2 to 1024^2:
# between no change and 2x faster, depending on the arrays' alignment. Blocking the
# contraction for the L2 cache as well measured no gain at 1024^2, where the loads and
# stores of the result rows bound the loop: keeping a result tile in registers is the
# next step.










# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------


def padded_and_dilated(x: SSAValue, init: SSAValue, window: Window) -> list[Operation]:
    """`x` base-dilated and padded with `init` as a window sees it (reduce_window: the
    padded and dilated positions hold the init value; convolution: zeros): an xla.pad
    with interior padding dilation - 1, lowered by its own pattern; nothing when there
    is neither."""
    rank = len(window.dimensions)
    lows = [lo for lo, _ in window.padding]
    highs = [hi for _, hi in window.padding]
    interiors = [d - 1 for d in window.base_dilations]
    if not any(lows) and not any(highs) and not any(interiors):
        return []
    shape = shape_of(x.type)
    padded = [padded_size(shape[d], window.base_dilations[d], window.padding[d]) for d in range(rank)]
    pad = PadOp.build(
        operands=[x, init],
        result_types=[tensor_type(padded, elem_of(x.type))],
        properties={
            "edge_padding_low": DenseArrayBase.from_list(i64, lows),
            "edge_padding_high": DenseArrayBase.from_list(i64, highs),
            "interior_padding": DenseArrayBase.from_list(i64, interiors),
        },
    )
    return [pad]
