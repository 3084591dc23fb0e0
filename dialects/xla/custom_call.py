"""custom_call: a call of a target outside XLA (a registered Python function in the
interpreter), with a C-identifier name."""

from __future__ import annotations

import re
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
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"backend_config": "", "has_side_effect": False}

    def verify_xla(self) -> None:
        target = self.call_target_name.data
        if not C_IDENTIFIER.fullmatch(target):
            raise VerifyException(
                f'call_target_name "{target}" must be a C identifier '
                "([A-Za-z_][A-Za-z0-9_]*)"
            )


CUSTOM_CALL_OPS = (CustomCallOp,)
CUSTOM_CALL_ATTRS: tuple = ()
