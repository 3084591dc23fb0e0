"""custom_call: a call of a target outside XLA (a registered Python function in the
interpreter, a native symbol in the JIT), named by any non-empty string."""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    StringAttr,
)
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from .base import XlaOp


@irdl_op_definition
class CustomCallOp(XlaOp):
    """CustomCall: calls `extern "C" void call_target_name(void* out, void** in)` with
    the operands; the results (tensors or tuples) are whatever the op declares.
    call_target_name is any non-empty string, as in XLA: JAX emits targets such as
    `__gpu$xla.gpu.triton` (printed quoted and escaped, so any name re-parses).

        %r = xla.custom_call %x, %y, call_target_name = "myfunc"
               : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    """

    name = "xla.custom_call"
    inputs = var_operand_def()
    results_ = var_result_def()
    call_target_name = prop_def(StringAttr)
    backend_config = opt_prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"backend_config": "", "has_side_effect": False}

    def verify_xla(self) -> None:
        if not self.call_target_name.data:
            raise VerifyException("call_target_name must not be empty")


CUSTOM_CALL_OPS = (CustomCallOp,)
CUSTOM_CALL_ATTRS: tuple = ()
