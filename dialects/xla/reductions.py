"""The ops that fold or order elements with a computation: reduce, reduce_window,
select_and_scatter, sort and map.

XLA's computations are separate functions that see only their parameters, so every
computation region here is isolated from above and takes rank-0 tensors for scalars:

    %s = xla.reduce %x, %zero, dimensions = [1] body {
    ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
      %t = xla.add %acc, %v : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    IsolatedFromAbove,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.reductions import (
    check_map_dimensions,
    common_shape,
    reduce_shape,
    reduce_window_shape,
    select_and_scatter_source_shape,
    sort_dimension,
)
from xla_opt.dialects.shapes.windows import Window

from .base import XlaOp
from .element_types import elem_of, shape_of, tensor
from .properties import verified_int_matrix
from .computation import (
    PRED_SCALAR,
    fmt_types,
    region_signature,
    scalar_of,
    types_of,
    verify_computation,
)


def _padding_pairs(attr: DenseIntOrFPElementsAttr | None) -> list[tuple[int, ...]] | None:
    """The [low, high] rows of a padding property (None when absent)."""
    return None if attr is None else verified_int_matrix(attr, "padding")


def _input_shape(inputs: Sequence[SSAValue]) -> tuple[int, ...]:
    """The one shape of a variadic operand group (inputs of reduce, sort, map...)."""
    return common_shape([shape_of(v.type) for v in inputs], "inputs")


def _check_init_values(inputs: Sequence[SSAValue], init_values: Sequence[SSAValue]) -> None:
    """N inputs with N init values, init_values[i] a scalar of inputs[i]'s type."""
    if len(init_values) != len(inputs):
        raise VerifyException(
            f"expects one init value per input, got {len(inputs)} inputs and "
            f"{len(init_values)} init_values"
        )
    for i, (x, init) in enumerate(zip(inputs, init_values, strict=True)):
        if init.type != scalar_of(x.type):
            raise VerifyException(
                f"init_values #{i} must be {scalar_of(x.type)}, a scalar of input #{i}'s "
                f"element type, got {init.type}"
            )


class ReductionOp(XlaOp):
    """N >= 1 inputs of one shape reduced with N init values by a `body` computation
    (accumulators then inputs, 2N scalars -> N scalars) into N results."""

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of every result, given the inputs' shape (each reduction's rule)."""
        raise NotImplementedError

    def infer_result_types(self) -> list[Attribute]:
        shape = self.reduced_shape(_input_shape(self.inputs))
        return [tensor(shape, elem_of(x.type)) for x in self.inputs]

    def verify_xla(self) -> None:
        _input_shape(self.inputs)
        _check_init_values(self.inputs, self.init_values)
        accumulators = [scalar_of(x.type) for x in self.inputs]
        verify_computation(self.body, accumulators * 2, accumulators, "body")


@irdl_op_definition
class ReduceOp(ReductionOp):
    """Reduce: `dimensions` (distinct, in range) are removed from the N same-shaped inputs,
    each folded by `body` from its init value; the body takes the N accumulators then the
    N input elements and returns the N new accumulators."""

    name = "xla.reduce"
    dimensions = prop_def(DenseArrayBase.constr(i64))

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        return reduce_shape(input_shape, self.get_dimensions())


@irdl_op_definition
class ReduceWindowOp(ReductionOp):
    """ReduceWindow: `body` reduces each window of the N same-shaped inputs; per dimension
    the result has floor((padded_dilated_base - dilated_window) / stride) + 1 windows,
    dilated sizes being (s - 1) * d + 1 (SAME and VALID are explicit `padding`)."""

    name = "xla.reduce_window"
    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    base_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    window_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)

    def get_padding(self) -> list[tuple[int, ...]] | None:
        """The [low, high] rows of `padding` (None when absent)."""
        return _padding_pairs(self.padding)

    def window(self) -> Window:
        """The window over every input dimension, the spec's defaults applied."""
        return Window.of(
            self.get_window_dimensions(),
            self.get_window_strides(),
            self.get_base_dilations(),
            self.get_window_dilations(),
            self.get_padding(),
        )

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        return reduce_window_shape(
            input_shape,
            self.get_window_dimensions(),
            self.get_window_strides(),
            self.get_base_dilations(),
            self.get_window_dilations(),
            self.get_padding(),
        )


@irdl_op_definition
class SelectAndScatterOp(XlaOp):
    """SelectAndScatter: `select` (T, T -> PRED) picks one element of each window of the
    operand and `scatter` (T, T -> T) adds the source value there into a result of the
    operand's type initialised to init_value; source has the windowed (ReduceWindow)
    shape of the operand."""

    name = "xla.select_and_scatter"
    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    result = result_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def("single_block")
    scatter = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def get_padding(self) -> list[tuple[int, ...]] | None:
        """The [low, high] rows of `padding` (None when absent)."""
        return _padding_pairs(self.padding)

    def window(self) -> Window:
        """The window over every operand dimension, the spec's defaults applied."""
        return Window.of(self.get_window_dimensions(), self.get_window_strides(), padding=self.get_padding())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        element = scalar_of(self.operand.type)
        if elem_of(self.source.type) != elem_of(self.operand.type):
            raise VerifyException(
                f"source {self.source.type} must have the operand's element type "
                f"{elem_of(self.operand.type)}"
            )
        if self.init_value.type != element:
            raise VerifyException(f"init_value must be {element}, got {self.init_value.type}")
        select_and_scatter_source_shape(
            shape_of(self.operand.type),
            self.get_window_dimensions(),
            self.get_window_strides(),
            self.get_padding(),
            shape_of(self.source.type),
        )
        verify_computation(self.select, [element, element], [PRED_SCALAR], "select")
        verify_computation(self.scatter, [element, element], [element], "scatter")


@irdl_op_definition
class SortOp(XlaOp):
    """Sort: the same-shaped inputs are sorted together along `dimension` (default: the
    last) by `comparator`, which takes 2N scalars (lhs_0, rhs_0, lhs_1, rhs_1, ...) and
    returns PRED; the results have the inputs' types."""

    name = "xla.sort"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    dimension = opt_prop_def(IntegerAttr.constr(type=i64))
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"is_stable": False}

    def infer_result_types(self) -> list[Attribute]:
        return types_of(self.inputs)

    def verify_xla(self) -> None:
        shape = _input_shape(self.inputs)
        sort_dimension(shape, self.get_dimension())
        pairs = [s for x in self.inputs for s in (scalar_of(x.type), scalar_of(x.type))]
        verify_computation(self.comparator, pairs, [PRED_SCALAR], "comparator")


@irdl_op_definition
class MapOp(XlaOp):
    """Map: `computation` (N scalars of the inputs' element types -> one scalar of type S)
    applied at every index of the N same-shaped inputs; the result has their shape and
    element type S, and `dimensions` are all dimensions in order."""

    name = "xla.map"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def _returned_scalar(self) -> TensorType:
        _, returned = region_signature(self.computation)
        if len(returned) != 1 or not isinstance(returned[0], TensorType) or shape_of(returned[0]):
            raise VerifyException(
                f"computation must return one scalar (a rank-0 tensor), but returns "
                f"{fmt_types(returned)}"
            )
        return returned[0]

    def infer_result_types(self) -> list[Attribute]:
        shape = _input_shape(self.inputs)
        return [tensor(shape, elem_of(self._returned_scalar()))]

    def verify_xla(self) -> None:
        shape = _input_shape(self.inputs)
        check_map_dimensions(shape, self.get_dimensions())
        returned = self._returned_scalar()
        verify_computation(
            self.computation, [scalar_of(x.type) for x in self.inputs], [returned], "computation"
        )


REDUCTION_OPS = (ReduceOp, ReduceWindowOp, SelectAndScatterOp, SortOp, MapOp)
REDUCTION_ATTRS: tuple = ()
