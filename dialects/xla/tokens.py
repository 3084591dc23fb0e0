"""The token-ordered, side-effecting ops: infeed, outfeed, send and recv take and
produce an `!xla.token` that orders them, and after_all joins tokens:

    %t1 = xla.outfeed %x, %t0 : (tensor<2xf32>, !xla.token) -> !xla.token

None of these is Pure: deleting or merging one would change what the host or the other
replicas observe.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)

from .base import XlaOp
from .element_types import TokenType


@irdl_op_definition
class AfterAllOp(XlaOp):
    """AfterAll: joins any number of tokens (none creates a fresh one) into one token
    that is ordered after all of them."""

    name = "xla.after_all"
    inputs = var_operand_def(TokenType)
    result = result_def(TokenType)


@irdl_op_definition
class InfeedOp(XlaOp):
    """Infeed: after `token`, reads one element of data of the result types from the
    device's infeed queue; the results are that data (none: a no-op) then a token."""

    name = "xla.infeed"
    token = operand_def(TokenType)
    infeed_config = opt_prop_def(StringAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"infeed_config": ""}
    outputs = var_result_def(TensorType)
    output_token = result_def(TokenType)


@irdl_op_definition
class OutfeedOp(XlaOp):
    """Outfeed: after `token`, writes the `inputs` tensors to the device's outfeed queue;
    the result is a token."""

    name = "xla.outfeed"
    inputs = var_operand_def(TensorType)
    token = operand_def(TokenType)
    outfeed_config = opt_prop_def(StringAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"outfeed_config": ""}
    result = result_def(TokenType)


@irdl_op_definition
class SendOp(XlaOp):
    """Send: after `token`, sends the `inputs` tensors to the Recv sharing its
    channel_id (to the host with is_host_transfer); the result is a token."""

    name = "xla.send"
    inputs = var_operand_def(TensorType)
    token = operand_def(TokenType)
    channel_id = prop_def(IntegerAttr.constr(type=i64))
    is_host_transfer = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"is_host_transfer": False}
    result = result_def(TokenType)


@irdl_op_definition
class RecvOp(XlaOp):
    """Recv: after `token`, receives tensors of the result types from the Send sharing
    its channel_id (from the host with is_host_transfer); the results are the data
    then a token."""

    name = "xla.recv"
    token = operand_def(TokenType)
    channel_id = prop_def(IntegerAttr.constr(type=i64))
    is_host_transfer = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"is_host_transfer": False}
    outputs = var_result_def(TensorType)
    output_token = result_def(TokenType)


TOKEN_OPS = (AfterAllOp, InfeedOp, OutfeedOp, SendOp, RecvOp)
TOKEN_ATTRS: tuple = ()
