"""Gather and scatter (batched dynamic slices and their updates), the random number
generators and custom calls."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_attr_definition,
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
from xdsl.utils.str_enum import StrEnum

from xla_opt.dialects.shapes.gather_scatter import check_rng_state, check_scatter, gather_shape

from .base import (
    XlaOp,
    elem_of,
    ints,
    is_float,
    is_integer,
    is_pred,
    is_unsigned,
    shape_of,
    tensor,
)
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
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = gather_shape(
            shape_of(self.operand.type),
            shape_of(self.start_indices.type),
            ints(self.offset_dims),
            ints(self.collapsed_slice_dims),
            ints(self.start_index_map),
            self.index_vector_dim.value.data,
            ints(self.slice_sizes),
        )
        return [tensor(shape, elem_of(self.operand.type))]

    def verify_xla(self) -> None:
        _check_indices(self.start_indices.type, "start_indices")
        self.check_inferred_result_types()


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
            ints(self.update_window_dims),
            ints(self.inserted_window_dims),
            ints(self.scatter_dims_to_operand_dims),
            self.index_vector_dim.value.data,
        )
        input_elements = [elem_of(v.type) for v in self.inputs]
        for i, upd in enumerate(self.updates):
            if elem_of(upd.type) != input_elements[i]:
                raise VerifyException(
                    f"update #{i} element type {elem_of(upd.type)} must be input #{i}'s "
                    f"{input_elements[i]}"
                )
        self.check_inferred_result_types()
        scalars = [tensor((), t) for t in input_elements]
        verify_computation(
            self.update_computation, scalars + scalars, scalars, "update_computation"
        )


# --------------------------------------------------------------------------------------
# Random number generators
# --------------------------------------------------------------------------------------


def _check_scalar_params(op: XlaOp, names: tuple[str, str]) -> Attribute:
    """Both distribution parameters are rank-0 of the result's element type T; returns T."""
    result_element = elem_of(op.results[0].type)
    for name in names:
        t = getattr(op, name).type
        if shape_of(t) != () or elem_of(t) != result_element:
            raise VerifyException(
                f"{name} must be a scalar (rank-0 tensor) of the result's element type "
                f"{result_element}, got {t}"
            )
    return result_element


@irdl_op_definition
class RngNormalOp(XlaOp):
    """RngNormal: a result of any shape drawn from N(mu, sigma); mu, sigma and the result
    share one floating-point element type, and mu and sigma are scalars."""

    name = "xla.rng_normal"
    mu = operand_def(TensorType)
    sigma = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_xla(self) -> None:
        t = _check_scalar_params(self, ("mu", "sigma"))
        if not is_float(t):
            raise VerifyException(f"element type {t} must be floating-point")


@irdl_op_definition
class RngUniformOp(XlaOp):
    """RngUniform: a result of any shape drawn uniformly from [a, b); a, b and the result
    share one PRED, integer or floating-point element type, and a and b are scalars."""

    name = "xla.rng_uniform"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_xla(self) -> None:
        t = _check_scalar_params(self, ("a", "b"))
        if not (is_pred(t) or is_integer(t) or is_float(t)):
            raise VerifyException(f"element type {t} must be PRED, integer or floating-point")


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


@irdl_attr_definition
class RngAlgorithmAttr(EnumAttribute[RngAlgorithm], SpacedOpaqueSyntaxAttribute):
    name = "xla.rng_algorithm"


@irdl_op_definition
class RngBitGeneratorOp(XlaOp):
    """RngBitGenerator: uniform random bits of the output's integer type and a new state
    of initial_state's type, deterministically from initial_state, a u64 vector sized by
    rng_algorithm (THREE_FRY: 2; PHILOX, DEFAULT: 2 or 3)."""

    name = "xla.rng_bit_generator"
    initial_state = operand_def(TensorType)
    output_state = result_def(TensorType)
    output = result_def(TensorType)
    rng_algorithm = prop_def(RngAlgorithmAttr)
    traits = traits_def(Pure())

    def verify_xla(self) -> None:
        state = self.initial_state.type
        if not (is_unsigned(elem_of(state)) and elem_of(state).width.data == 64):
            raise VerifyException(f"initial_state must have element type ui64, got {state}")
        check_rng_state(self.rng_algorithm.data.value, shape_of(state))
        if self.output_state.type != state:
            raise VerifyException(
                f"output_state type {self.output_state.type} must be initial_state's {state}"
            )
        if not is_integer(elem_of(self.output.type)):
            raise VerifyException(
                f"output must have an integer element type, got {self.output.type}"
            )


# --------------------------------------------------------------------------------------
# Custom call
# --------------------------------------------------------------------------------------

C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@irdl_op_definition
class CustomCallOp(XlaOp):
    """CustomCall: calls `extern "C" void call_target_name(void* out, void** in)` with
    the operands, so call_target_name must be a C identifier; the results (tensors or
    tuples) are whatever the op declares.

        %r = xla.custom_call %x, %y, call_target_name = "myfunc"
               : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    """

    name = "xla.custom_call"
    inputs = var_operand_def()
    results_ = var_result_def()
    call_target_name = prop_def(StringAttr)
    backend_config = opt_prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)

    def verify_xla(self) -> None:
        target = self.call_target_name.data
        if not C_IDENTIFIER.fullmatch(target):
            raise VerifyException(
                f'call_target_name "{target}" must be a C identifier '
                "([A-Za-z_][A-Za-z0-9_]*)"
            )


GATHER_SCATTER_OPS = (
    GatherOp,
    ScatterOp,
    RngNormalOp,
    RngUniformOp,
    RngBitGeneratorOp,
    CustomCallOp,
)
GATHER_SCATTER_ATTRS = (RngAlgorithmAttr,)
