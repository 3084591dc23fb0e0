"""convert-stablehlo-to-xla: Tokens and host transfers: create_token, after_all, infeed, outfeed, send, recv."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, StringAttr
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import TokenType

from .common import Patterns, bool_of, channel_id, convert_type, fail, i64_attr, prop, result_types

PATTERNS = Patterns()


def _is_token(t) -> bool:
    return isinstance(convert_type(t), TokenType)


def _listed(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


def _token_in_token_out(op) -> list:
    """The result types of an infeed/recv, checked against the StableHLO spec: the op
    takes one token and its results end with a token ("type(results[-1]) = token"), so
    `-> ()` or a missing token operand is an error at the op, not an IndexError."""
    if len(op.operands) != 1 or not _is_token(op.operands[0].type):
        fail(op, f"takes one !stablehlo.token operand, got {_listed(v.type for v in op.operands)}")
    types = result_types(op)
    if not types or not isinstance(types[-1], TokenType):
        fail(op, f"returns at least a !stablehlo.token, its last result; got {_listed(types)}")
    return types


def _token_last_operand(op) -> None:
    """outfeed/send take their inputs then a token (StableHLO: `token` is the last operand)."""
    if not op.operands or not _is_token(op.operands[-1].type):
        fail(op, f"takes its inputs then a !stablehlo.token, got {_listed(v.type for v in op.operands)}")


@PATTERNS.rule("stablehlo.after_all")
def _after_all(op, b):
    return b.build(xla.AfterAllOp, [list(op.operands)], result_types(op)).results


@PATTERNS.rule("stablehlo.create_token")
def _create_token(op, b):
    return b.build(xla.AfterAllOp, [[]], [TokenType()]).results


@PATTERNS.rule("stablehlo.infeed")
def _infeed(op, b):
    config = prop(op, "infeed_config")
    props = {"infeed_config": config if isinstance(config, StringAttr) and config.data else None}
    types = _token_in_token_out(op)
    return b.build(xla.InfeedOp, [op.operands[0]], [types[:-1], types[-1]], props).results


@PATTERNS.rule("stablehlo.outfeed")
def _outfeed(op, b):
    config = prop(op, "outfeed_config")
    props = {"outfeed_config": config if isinstance(config, StringAttr) and config.data else None}
    _token_last_operand(op)
    return b.build(xla.OutfeedOp, [list(op.operands[:-1]), op.operands[-1]], result_types(op), props).results


@PATTERNS.rule("stablehlo.send")
def _send(op, b):
    _token_last_operand(op)
    props = {"channel_id": channel_id(op) or i64_attr(0)}
    if prop(op, "is_host_transfer") is not None:
        props["is_host_transfer"] = BoolAttr.from_bool(bool_of(prop(op, "is_host_transfer")))
    return b.build(xla.SendOp, [list(op.operands[:-1]), op.operands[-1]], result_types(op), props).results


@PATTERNS.rule("stablehlo.recv")
def _recv(op, b):
    props = {"channel_id": channel_id(op) or i64_attr(0)}
    if prop(op, "is_host_transfer") is not None:
        props["is_host_transfer"] = BoolAttr.from_bool(bool_of(prop(op, "is_host_transfer")))
    types = _token_in_token_out(op)
    return b.build(xla.RecvOp, [op.operands[0]], [types[:-1], types[-1]], props).results
