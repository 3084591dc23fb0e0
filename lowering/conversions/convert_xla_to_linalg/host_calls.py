"""Calls out of the compiled code: the ops that need the host (custom calls of Python
targets, infeed, outfeed, send, recv) become calls of external functions that the JIT
runtime (xla_opt/jit.py) supplies.

Each call site is described by a `HostCall` (what the op does, the xla types of what
it passes and receives, where it is in the source). Descriptions are interned in one
process-wide table, so each has a stable number `id`, and the op becomes

    %r = func.call @__xla_host_<id>_<kind>(%operand...) : (tensor...) -> tensor...

of a private declaration of that name, which the table records (`declared_host_call`).
Bufferization passes it the operand buffers then the result buffers, one pointer each
(the calling convention of every function here), so the native symbol is
`void __xla_host_<id>_<kind>(void*, ..., void*)`; the runtime
(xla_opt/runtime/host_calls.py), walking a lowered module's declarations, binds each
such name to a callback for its description. Equal descriptions share an id, so
lowering a program again gives the same code.

A custom call of a native symbol is a call of `__xla_native_<id>_<target>` instead: the
runtime binds it to a native wrapper calling `target` with XLA's CPU custom-call
convention (see custom_call.py).

Tokens (!xla.token) carry no data: a tensor<0xi1> stands for one (no element, so no
buffer to fill); the order of the calls is the program order, which no pass changes
(a call has unknown side effects: nothing removes, merges or reorders it).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType, i1
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, TypeConversionPattern, attr_type_rewrite_pattern
from xdsl.traits import SymbolTable
from xla_opt.dialects.xla import TokenType

from xla_opt.diagnostics import op_location

# What stands for an !xla.token after the conversion: a tensor without elements.
TOKEN_TENSOR = TensorType(i1, [0])

@dataclass(frozen=True)
class HostCall:
    """One call site: `kind` (custom_call, infeed, outfeed, send, recv), the custom-call
    target (else ""), the xla types of the operands and results passed as buffers, the
    channel of send/recv and whether it is a host transfer, and where the op is (for
    error messages)."""

    kind: str
    operand_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    where: str
    target: str = ""
    channel: int = 0
    host_transfer: bool = False
    detail: str = ""  # a collective's op, printed (two collectives at one place differ by it)


_lock = threading.Lock()
_CALLS: list[HostCall] = []
_IDS: dict[HostCall, int] = {}
_DECLARED: dict[str, tuple[HostCall, bool]] = {}  # declared name -> (its call, whether native)
_NOT_WORD = re.compile(r"\W")


def intern(call: HostCall) -> int:
    """The id of `call` in the process-wide table (equal descriptions, equal ids)."""
    with _lock:
        if call not in _IDS:
            _IDS[call] = len(_CALLS)
            _CALLS.append(call)
        return _IDS[call]


_OPS: dict[int, Operation] = {}  # a collective's call id -> a copy of its op, which the runtime runs


def attach_op(call: HostCall, op: Operation) -> None:
    """Keep a copy of the op a collective host call runs (the interpreter's collective on
    the run's replica context, xla_opt/runtime/host_calls.py)."""
    number = intern(call)
    # the copy reads block arguments of a block of its own, not the program's values
    holder = Block(arg_types=[v.type for v in op.operands])
    copy = op.clone(value_mapper=dict(zip(op.operands, holder.args, strict=True)))
    holder.add_op(copy)
    with _lock:
        _OPS.setdefault(number, copy)


def attached_op(call: HostCall) -> Operation:
    with _lock:
        return _OPS[_IDS[call]]


def host_call_name(call: HostCall, native: bool = False) -> str:
    """The function a call site declares: `__xla_host_<id>_<kind>` for a callback into
    Python, `__xla_native_<id>_<target>` for a native custom-call target (the id
    identifies the call; the rest only makes the name readable, kept to word characters:
    `__gpu$xla.gpu.triton`), recorded for `declared_host_call`."""
    number = intern(call)
    name = f"__xla_native_{number}_{_NOT_WORD.sub('_', call.target)}" if native else f"__xla_host_{number}_{call.kind}"
    with _lock:
        _DECLARED[name] = (call, native)
    return name


def declared_host_call(name: str) -> tuple[HostCall, bool] | None:
    """The call site a declared function `name` stands for and whether it calls a native
    target, or None (not a host call)."""
    with _lock:
        return _DECLARED.get(name)


def where(op: Operation) -> str:
    """`xla.infeed (file:line:col)`, as the interpreter names an op in its errors."""
    file, line, col = op_location(op)
    return f"{op.name} ({file}:{line}:{col})" if line else op.name


def describe(op: Operation, kind: str, operands: Sequence[SSAValue], results: Sequence[SSAValue], **details) -> HostCall:
    """The call of `op` with these operands and results (its tokens left out). Values
    that xla-widen-narrow-types stored as bytes keep their narrow types here: the host
    side sees them as ml_dtypes arrays (the same bytes)."""
    original = dict(zip((*op.operands, *op.results), _narrow_host_types(op), strict=False))
    operand_types = tuple(original.get(v, v.type) for v in operands)
    result_types = tuple(original.get(r, r.type) for r in results)
    return HostCall(kind, operand_types, result_types, where(op), **details)


def _narrow_host_types(op: Operation) -> list[Attribute]:
    from xla_opt.passes.transforms.xla_widen_narrow_types import HOST_TYPES_ATTR

    recorded = op.attributes.get(HOST_TYPES_ATTR)
    return list(recorded.data) if recorded is not None else []  # type: ignore[attr-defined]


def call_external(op: Operation, symbol: str, operands: Sequence[SSAValue], results: Sequence[Attribute]) -> func.CallOp:
    """`func.call @symbol(operands)` (to insert in place of `op`), declaring `symbol`
    (private, no body) in the module on first use."""
    module = op.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    if SymbolTable.lookup_symbol(module, symbol) is None:
        module.body.block.add_op(func.FuncOp.external(symbol, [v.type for v in operands], list(results)))
    return func.CallOp(symbol, list(operands), list(results))


def replace_with_host_call(
    op: Operation, rewriter: PatternRewriter, call: HostCall, operands: Sequence[SSAValue], token: bool
) -> None:
    """Replace `op` by the call described by `call`; the op's results are the call's
    results, then (`token`) a fresh token."""
    from xla_opt.passes.transforms.xla_widen_narrow_types import storage_type

    # the call's results in the IR: a narrow type the host side sees is stored as bytes
    ir_results = [storage_type(t) for t in call.result_types]
    external = call_external(op, host_call_name(call), operands, ir_results)
    ops: list[Operation] = [external]
    results = list(external.results)
    if token:
        empty = tensor.EmptyOp([], TOKEN_TENSOR)
        ops.append(empty)
        results.append(empty.tensor)
    rewriter.replace(op, ops, results)


class TokensAsEmptyTensors(TypeConversionPattern):
    """!xla.token -> tensor<0xi1> wherever a token is left once the token ops are
    lowered: the state of loops, branches, function arguments and results."""

    @attr_type_rewrite_pattern
    def convert_type(self, typ: TokenType) -> TensorType:
        return TOKEN_TENSOR
