"""convert-stablehlo-to-xla: Tokens and host transfers: create_token, after_all, infeed, outfeed, send, recv."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, FunctionType, StringAttr
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


def _marked(table, k: int) -> bool:
    """Whether entry k of an arg_attrs/res_attrs table says `jax.token = true`."""
    entries = table.data if table is not None else ()
    return k < len(entries) and bool_of(entries[k].data.get("jax.token"))


def strip_jax_tokens(f) -> None:
    """JAX's effect tokens (`jax.token = true` on a function's token arguments and
    results, which an ordered `jax.debug.print` or `io_callback` threads through
    @main) are the runtime's, not the caller's: `jax.jit(f)(x)` takes and returns none.
    The function makes its own (`after_all()`, XLA's new token) and returns fewer
    results, so both backends take what JAX's caller passes."""
    args_table = f.properties.get("arg_attrs") or f.attributes.get("arg_attrs")
    results_table = f.properties.get("res_attrs") or f.attributes.get("res_attrs")
    ft = f.function_type
    drop_args = [k for k, t in enumerate(ft.inputs.data) if _is_token(t) and _marked(args_table, k)]
    drop_results = [k for k, t in enumerate(ft.outputs.data) if _is_token(t) and _marked(results_table, k)]
    if not (drop_args or drop_results) or not f.body.blocks:
        return
    entry = f.body.blocks[0]
    for k in reversed(drop_args):
        arg = entry.args[k]
        if arg.uses:
            token = xla.AfterAllOp.build(operands=[[]], result_types=[TokenType()])
            entry.insert_op_before(token, entry.first_op)
            token.location = f.location
            arg.replace_all_uses_with(token.results[0])
        entry.erase_arg(arg)
    for op in f.walk():
        if isinstance(op, func.ReturnOp) and op.parent_op() is f:
            op.operands = [v for k, v in enumerate(op.operands) if k not in drop_results]
    for name, table, dropped in (("arg_attrs", args_table, drop_args), ("res_attrs", results_table, drop_results)):
        if table is not None:
            kept = ArrayAttr([e for k, e in enumerate(table.data) if k not in dropped])
            (f.properties if name in f.properties else f.attributes)[name] = kept
    f.function_type = FunctionType.from_lists(
        [t for k, t in enumerate(ft.inputs.data) if k not in drop_args],
        [t for k, t in enumerate(ft.outputs.data) if k not in drop_results],
    )
