"""The random number generators: rng_normal and rng_uniform (distribution parameters
as scalars) and rng_bit_generator (THREE_FRY, PHILOX or the default algorithm over a
state vector)."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    TensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xla_opt.dialects.shapes.rng import check_rng_state

from .base import XlaOp
from .element_types import elem_of, is_float, is_integer, is_pred, is_unsigned, shape_of


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


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


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
        check_rng_state(self.get_rng_algorithm(), shape_of(state))
        if self.output_state.type != state:
            raise VerifyException(
                f"output_state type {self.output_state.type} must be initial_state's {state}"
            )
        if not is_integer(elem_of(self.output.type)):
            raise VerifyException(
                f"output must have an integer element type, got {self.output.type}"
            )


RNG_OPS = (RngNormalOp, RngUniformOp, RngBitGeneratorOp)
RNG_ATTRS = (RngAlgorithmAttr,)
