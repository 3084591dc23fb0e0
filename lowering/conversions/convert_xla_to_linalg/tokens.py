"""The tokens family to host calls: after_all, infeed, outfeed, send and recv.

Tokens carry no data (a tensor<0xi1> stands for one, see host_calls.py); the ops that
move data become calls of host callbacks (`__xla_host_<id>_<kind>`) working on the
queues and channels the interpreter uses (xla_opt/interpreter/tokens.py): the
replica's infeed and outfeed queues, send/recv channels by channel_id (with
is_host_transfer, the context's host_to_device / device_to_host queues). As in the
interpreter, an infeed or outfeed of no data only orders: no call.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.func import FuncOp
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, TypeConversionPattern, op_type_rewrite_pattern
from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.dialects.xla import tokens as tk
from xla_opt.dialects.xla import TokenType

from .host_calls import TOKEN_TENSOR, TokensAsEmptyTensors, describe, replace_with_host_call


class TokensStayInside(RewritePattern):
    """A public function (an entry point) with a token in its signature: buffers cross
    its boundary, and a token has none. A located not-lowered error (the interpreter
    runs it); private functions pass tokens as tensor<0xi1>."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FuncOp, rewriter: PatternRewriter, /) -> None:
        signature = [*op.function_type.inputs.data, *op.function_type.outputs.data]
        if op.sym_visibility is None or op.sym_visibility.data == "public":
            if token := next((t for t in signature if isinstance(t, TokenType)), None):
                raise DiagnosticError([op_diagnostic(op, f"is not lowered to linalg: {token} values run on the interpreter only")])


class AfterAllToToken(RewritePattern):
    """after_all -> a fresh token (program order already orders the calls)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tk.AfterAllOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, tensor.EmptyOp([], TOKEN_TENSOR))


class InfeedToHostCall(RewritePattern):
    """infeed -> a host call reading the next infeed element into the result buffers."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tk.InfeedOp, rewriter: PatternRewriter, /) -> None:
        if not op.outputs:
            rewriter.replace(op, tensor.EmptyOp([], TOKEN_TENSOR))
            return
        replace_with_host_call(op, rewriter, describe(op, "infeed", [], list(op.outputs)), [], token=True)


class OutfeedToHostCall(RewritePattern):
    """outfeed -> a host call appending the operands to the outfeed queue."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tk.OutfeedOp, rewriter: PatternRewriter, /) -> None:
        data = list(op.inputs)
        if not data:
            rewriter.replace(op, tensor.EmptyOp([], TOKEN_TENSOR))
            return
        replace_with_host_call(op, rewriter, describe(op, "outfeed", data, []), data, token=True)


class SendToHostCall(RewritePattern):
    """send -> a host call putting the operands on channel channel_id."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tk.SendOp, rewriter: PatternRewriter, /) -> None:
        data = list(op.inputs)
        channel = {"channel": op.get_channel_id(), "host_transfer": op.get_is_host_transfer()}
        replace_with_host_call(op, rewriter, describe(op, "send", data, [], **channel), data, token=True)


class RecvToHostCall(RewritePattern):
    """recv -> a host call taking the oldest message of channel channel_id."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tk.RecvOp, rewriter: PatternRewriter, /) -> None:
        channel = {"channel": op.get_channel_id(), "host_transfer": op.get_is_host_transfer()}
        replace_with_host_call(op, rewriter, describe(op, "recv", [], list(op.outputs), **channel), [], token=True)


PATTERNS: list[RewritePattern] = [
    TokensStayInside(),
    AfterAllToToken(),
    InfeedToHostCall(),
    OutfeedToHostCall(),
    SendToHostCall(),
    RecvToHostCall(),
]

# Applied once after every family's op patterns (convert-xla-to-linalg's final type
# walk): tokens left in loops, branches and signatures become tensor<0xi1>.
TYPE_CONVERSIONS: list[TypeConversionPattern] = [TokensAsEmptyTensors()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(op.name for op in tk.TOKEN_OPS)
