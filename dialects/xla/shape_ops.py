"""The shape family: ops that move, copy or select elements without computing on them
(broadcast, broadcast_in_dim, reshape, collapse, transpose, reverse, slice,
dynamic_slice, dynamic_update_slice, concatenate, pad), dimension sizes, tuples and the
optimization barrier."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    TupleType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.shape_ops import (
    broadcast_shape,
    check_broadcast_in_dim,
    check_dimension,
    check_dynamic_update_slice,
    check_reshape,
    check_reverse,
    check_tuple_index,
    collapse_shape,
    concatenate_shape,
    dynamic_slice_shape,
    pad_shape,
    slice_shape,
    transpose_shape,
)

from .base import XlaOp
from .element_types import elem_of, is_integer, shape_of, tensor

I64_ARRAY = DenseArrayBase.constr(i64)
I64 = IntegerAttr.constr(type=i64)


def _check_same_element_type(what: str, t: Attribute, other_what: str, other: Attribute) -> None:
    if elem_of(t) != elem_of(other):
        raise VerifyException(
            f"{what} element type {elem_of(t)} must equal the {other_what} element type "
            f"{elem_of(other)}"
        )


def _check_start_indices(indices: tuple[SSAValue, ...]) -> None:
    """Start indices are rank-0 integer tensors, all of one type."""
    for i, index in enumerate(indices):
        t = index.type
        if not isinstance(t, TensorType) or shape_of(t) != () or not is_integer(elem_of(t)):
            raise VerifyException(f"start index #{i} must be a rank-0 integer tensor, got {t}")
        if t != indices[0].type:
            raise VerifyException(
                f"start indices must have one type, but #0 is {indices[0].type} and #{i} is {t}"
            )


# --------------------------------------------------------------------------------------
# Broadcasts
# --------------------------------------------------------------------------------------


@irdl_op_definition
class BroadcastOp(XlaOp):
    """Broadcast: adds dimensions broadcast_sizes on the left, result shape =
    broadcast_sizes + operand shape, copying the operand along them."""

    name = "xla.broadcast"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_sizes = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        return [tensor(broadcast_shape(shape_of(t), self.get_broadcast_sizes()), elem_of(t))]


@irdl_op_definition
class BroadcastInDimOp(XlaOp):
    """BroadcastInDim: operand dimension i maps to result dimension
    broadcast_dimensions[i] (in range, unique) and is 1 or that dimension's size; the
    element type is kept."""

    name = "xla.broadcast_in_dim"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        _check_same_element_type("result", self.result.type, "operand", self.operand.type)
        check_broadcast_in_dim(
            shape_of(self.operand.type),
            shape_of(self.result.type),
            self.get_broadcast_dimensions(),
        )


# --------------------------------------------------------------------------------------
# Reshapes and permutations
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ReshapeOp(XlaOp):
    """Reshape: the element count is preserved and the optional `dimensions` (the order
    in which the operand is collapsed, default in order) is a permutation of the
    operand's dimensions; the element type is kept."""

    name = "xla.reshape"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = opt_prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        _check_same_element_type("result", self.result.type, "operand", self.operand.type)
        check_reshape(
            shape_of(self.operand.type),
            shape_of(self.result.type),
            self.get_dimensions() if self.dimensions is not None else None,
        )


class CollapseHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (CollapseToReshape(),)


@irdl_op_definition
class CollapseOp(XlaOp):
    """Collapse: `dimensions`, an in-order, consecutive subset of the operand's
    dimensions, become one dimension of their product in their place."""

    name = "xla.collapse"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(I64_ARRAY)
    traits = traits_def(Pure(), CollapseHasCanonicalizationPatterns())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        return [tensor(collapse_shape(shape_of(t), self.get_dimensions()), elem_of(t))]


class CollapseToReshape(RewritePattern):
    """Collapsing in-order consecutive dimensions is a reshape in the default
    (row-major) collapse order, so `xla.collapse` becomes `xla.reshape`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CollapseOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(
            op, ReshapeOp.build(operands=[op.operand], result_types=[op.result.type])
        )


@irdl_op_definition
class TransposeOp(XlaOp):
    """Transpose: `permutation` is a permutation of the operand's dimensions and result
    dimension i is operand dimension permutation[i]."""

    name = "xla.transpose"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    permutation = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        return [tensor(transpose_shape(shape_of(t), self.get_permutation()), elem_of(t))]


@irdl_op_definition
class ReverseOp(XlaOp):
    """Rev: the reversed `dimensions` are distinct dimensions of the operand; the result
    has the operand's type."""

    name = "xla.reverse"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        check_reverse(shape_of(self.operand.type), self.get_dimensions())


# --------------------------------------------------------------------------------------
# Slices
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SliceOp(XlaOp):
    """Slice: per dimension 0 <= start <= limit <= size and stride >= 1; the result
    dimension is ceil((limit - start) / stride)."""

    name = "xla.slice"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    start_indices = prop_def(I64_ARRAY)
    limit_indices = prop_def(I64_ARRAY)
    strides = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        shape = slice_shape(
            shape_of(t), self.get_start_indices(), self.get_limit_indices(), self.get_strides()
        )
        return [tensor(shape, elem_of(t))]


@irdl_op_definition
class DynamicSliceOp(XlaOp):
    """DynamicSlice: one rank-0 integer start index per operand dimension, all of one
    type, and 0 <= slice_sizes[i] <= operand dimension i; the result has shape
    slice_sizes (starts are clamped so the slice stays in bounds)."""

    name = "xla.dynamic_slice"
    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    slice_sizes = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        shape = dynamic_slice_shape(shape_of(t), len(self.start_indices), self.get_slice_sizes())
        return [tensor(shape, elem_of(t))]

    def verify_xla(self) -> None:
        _check_start_indices(tuple(self.start_indices))


@irdl_op_definition
class DynamicUpdateSliceOp(XlaOp):
    """DynamicUpdateSlice: one rank-0 integer start index per operand dimension, all of
    one type; the update has the operand's rank and element type and no larger
    dimension; the result has the operand's type (starts are clamped)."""

    name = "xla.dynamic_update_slice"
    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        _check_same_element_type("update", self.update.type, "operand", self.operand.type)
        _check_start_indices(tuple(self.start_indices))
        check_dynamic_update_slice(
            shape_of(self.operand.type), shape_of(self.update.type), len(self.start_indices)
        )


# --------------------------------------------------------------------------------------
# Concatenate, pad
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConcatenateOp(XlaOp):
    """Concatenate: N >= 1 inputs of one element type and one rank >= 1, equal in every
    dimension but `dimension`, along which their sizes add up."""

    name = "xla.concatenate"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(I64)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = concatenate_shape(
            [shape_of(v.type) for v in self.inputs], self.get_dimension()
        )
        return [tensor(shape, elem_of(self.inputs[0].type))]

    def verify_xla(self) -> None:
        for i, v in enumerate(self.inputs):
            _check_same_element_type(f"input #{i}", v.type, "input #0", self.inputs[0].type)


@irdl_op_definition
class PadOp(XlaOp):
    """Pad: padding_value is a scalar of the operand's element type; edge padding may be
    negative, interior padding is >= 0, and each result dimension
    low + high + size + max(size - 1, 0) * interior is >= 0."""

    name = "xla.pad"
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    result = result_def(TensorType)
    edge_padding_low = prop_def(I64_ARRAY)
    edge_padding_high = prop_def(I64_ARRAY)
    interior_padding = prop_def(I64_ARRAY)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        t = self.operand.type
        shape = pad_shape(
            shape_of(t),
            self.get_edge_padding_low(),
            self.get_edge_padding_high(),
            self.get_interior_padding(),
        )
        return [tensor(shape, elem_of(t))]

    def verify_xla(self) -> None:
        value_type = self.padding_value.type
        if shape_of(value_type) != ():
            raise VerifyException(f"padding_value must be a rank-0 tensor, got {value_type}")
        _check_same_element_type("padding_value", value_type, "operand", self.operand.type)


# --------------------------------------------------------------------------------------
# Dimension sizes
# --------------------------------------------------------------------------------------


@irdl_op_definition
class GetDimensionSizeOp(XlaOp):
    """GetDimensionSize: the size of operand dimension `dimension` (in [0, rank)) as a
    tensor<i32>."""

    name = "xla.get_dimension_size"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(I64)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [tensor((), i32)]

    def verify_xla(self) -> None:
        check_dimension(shape_of(self.operand.type), self.get_dimension())


@irdl_op_definition
class SetDimensionSizeOp(XlaOp):
    """SetDimensionSize: `size`, a tensor<i32>, becomes the dynamic size of operand
    dimension `dimension` (in [0, rank)); the static shape stays as its bound, so the
    result has the operand's type."""

    name = "xla.set_dimension_size"
    operand = operand_def(TensorType)
    size = operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(I64)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        if self.size.type != tensor((), i32):
            raise VerifyException(f"size must be a tensor<i32>, got {self.size.type}")
        check_dimension(shape_of(self.operand.type), self.get_dimension())


# --------------------------------------------------------------------------------------
# Tuples, optimization barrier
# --------------------------------------------------------------------------------------


@irdl_op_definition
class TupleOp(XlaOp):
    """Tuple: groups its operands into one value of type tuple<T0, T1, ...>."""

    name = "xla.tuple"
    elements = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        # through ArrayAttr: TupleType's own converter keeps a list, which never
        # compares equal to the parsed type's tuple
        return [TupleType(ArrayAttr([v.type for v in self.elements]))]


@irdl_op_definition
class GetTupleElementOp(XlaOp):
    """GetTupleElement: element `index` (in range) of a tuple; its type is the result's."""

    name = "xla.get_tuple_element"
    operand = operand_def(TupleType)
    result = result_def()
    index = prop_def(I64)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        element_types = self.operand.type.types.data
        index = self.get_index()
        check_tuple_index(len(element_types), index)
        return [element_types[index]]


@irdl_op_definition
class OptimizationBarrierOp(XlaOp):
    """OptimizationBarrier: passes its operands through unchanged (results have the
    operands' types) and keeps computations from moving across it."""

    name = "xla.optimization_barrier"
    operands_ = var_operand_def()
    results_ = var_result_def()
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [v.type for v in self.operands_]


SHAPE_OPS = (
    BroadcastOp,
    BroadcastInDimOp,
    ReshapeOp,
    CollapseOp,
    TransposeOp,
    ReverseOp,
    SliceOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    ConcatenateOp,
    PadOp,
    GetDimensionSizeOp,
    SetDimensionSizeOp,
    TupleOp,
    GetTupleElementOp,
    OptimizationBarrierOp,
)
SHAPE_ATTRS: tuple = ()
