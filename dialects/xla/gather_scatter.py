"""Gather and scatter: batched dynamic slices and their updates."""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute
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
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.gather_scatter import check_scatter, gather_shape

from .base import XlaOp
from .element_types import elem_of, is_integer, shape_of, tensor
from .computation import verify_computation


def _check_indices(t: Attribute, what: str) -> None:
    if not is_integer(elem_of(t)):
        raise VerifyException(f"{what} must have an integer element type, got {t}")


# --------------------------------------------------------------------------------------
# Gather, scatter
# --------------------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(XlaOp):
    """Gather: stitches slices of slice_sizes taken at the integer start_indices; the
    result's offset_dims hold the slices (without the size-1 collapsed_slice_dims) and
    its other dimensions are start_indices' batch dimensions (all but index_vector_dim).

        %r = xla.gather %operand, %idx, offset_dims = [1], collapsed_slice_dims = [0],
               start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3]
               : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    """

    name = "xla.gather"
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    result = result_def(TensorType)
    offset_dims = prop_def(DenseArrayBase.constr(i64))
    collapsed_slice_dims = prop_def(DenseArrayBase.constr(i64))
    start_index_map = prop_def(DenseArrayBase.constr(i64))
    index_vector_dim = prop_def(IntegerAttr.constr(type=i64))
    slice_sizes = prop_def(DenseArrayBase.constr(i64))
    indices_are_sorted = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"indices_are_sorted": False, "unique_indices": False}
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = gather_shape(
            shape_of(self.operand.type),
            shape_of(self.start_indices.type),
            self.get_offset_dims(),
            self.get_collapsed_slice_dims(),
            self.get_start_index_map(),
            self.get_index_vector_dim(),
            self.get_slice_sizes(),
        )
        return [tensor(shape, elem_of(self.operand.type))]

    def verify_xla(self) -> None:
        _check_indices(self.start_indices.type, "start_indices")


@irdl_op_definition
class ScatterOp(XlaOp):
    """Scatter: the results are the inputs with update_computation(current, update)
    applied at the windows the integer scatter_indices select; updates hold
    update_window_dims (at most the input bounds without inserted_window_dims) and
    scatter_indices' batch dimensions; update_computation maps 2N rank-0 tensors to N.

        %r = xla.scatter (%input), %idx, (%upd), update_window_dims = [1],
               inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
               index_vector_dim = 1 update_computation {...}
               : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    """

    name = "xla.scatter"
    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    update_window_dims = prop_def(DenseArrayBase.constr(i64))
    inserted_window_dims = prop_def(DenseArrayBase.constr(i64))
    scatter_dims_to_operand_dims = prop_def(DenseArrayBase.constr(i64))
    index_vector_dim = prop_def(IntegerAttr.constr(type=i64))
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"indices_are_sorted": False, "unique_indices": False}
    update_computation = region_def()
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def infer_result_types(self) -> list[Attribute]:
        return [v.type for v in self.inputs]

    def verify_xla(self) -> None:
        _check_indices(self.scatter_indices.type, "scatter_indices")
        check_scatter(
            [shape_of(v.type) for v in self.inputs],
            shape_of(self.scatter_indices.type),
            [shape_of(v.type) for v in self.updates],
            self.get_update_window_dims(),
            self.get_inserted_window_dims(),
            self.get_scatter_dims_to_operand_dims(),
            self.get_index_vector_dim(),
        )
        input_elements = [elem_of(v.type) for v in self.inputs]
        for i, upd in enumerate(self.updates):
            if elem_of(upd.type) != input_elements[i]:
                raise VerifyException(
                    f"update #{i} element type {elem_of(upd.type)} must be input #{i}'s "
                    f"{input_elements[i]}"
                )
        scalars = [tensor((), t) for t in input_elements]
        verify_computation(
            self.update_computation, scalars + scalars, scalars, "update_computation"
        )


# --------------------------------------------------------------------------------------
# Random number generators
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# Custom call
# --------------------------------------------------------------------------------------


GATHER_SCATTER_OPS = (GatherOp, ScatterOp)
GATHER_SCATTER_ATTRS: tuple = ()
