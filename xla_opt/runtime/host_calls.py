"""Host calls (lowering/conversions/convert_xla_to_linalg/host_calls.py): callbacks into
Python for the ops that need the host, and native custom-call targets.

The functions a program declares for infeed, outfeed, send, recv and Python custom calls
are bound to ctypes callbacks working on a one-replica ReplicaContext (the interpreter's
queues and channels); native custom-call targets to compiled wrappers (XLA's CPU
custom-call convention). Such a program runs on a worker thread (`run_with_host`), so
that a callback that fails stops it for good and its error is raised to the caller.
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import llvmlite.binding as llvm
import numpy as np

from xla_opt.interpreter.dtypes import numpy_dtype
from xla_opt.runtime.llvm import NativeModule, compile_llvm_ir

if TYPE_CHECKING:
    from xla_opt.lowering.conversions.convert_xla_to_linalg.host_calls import HostCall

_lock = threading.Lock()
# symbol -> what its address belongs to (a ctypes callback, a compiled wrapper), kept alive
_bound: dict[str, Any] = {}
_current = threading.local()


def bind_host_call(name: str, call: HostCall, native: bool) -> None:
    """Make the declared host-call function `name` resolvable by the JIT (before it
    compiles the module). A custom-call target that is neither registered in Python
    (lowered as a host call) nor a native symbol is a LookupError here, at compile time."""
    with _lock:
        if name in _bound:
            return
    if native:
        target = _native_custom_call(call)
        address = target.address(_WRAPPER)
    else:
        target = _host_callback(call)
        address = ctypes.cast(target, ctypes.c_void_p).value
    with _lock:
        _bound.setdefault(name, target)
    llvm.add_symbol(name, address)


@dataclass
class _HostRun:
    """One run of compiled code that calls the host: the queues and channels it uses
    and the first error a callback raised."""

    context: Any
    replica: int = 0  # the replica of `context` this run is (a thread of a run of several)
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)


def run_with_host(cfunc: Any, pointers: list[int], context: Any, replica: int = 0) -> None:
    """Call `cfunc` on a worker thread whose host calls see `context` (as replica
    `replica` of it); re-raise here
    the first error of a callback. A callback cannot unwind the native code that called
    it, so after an error the worker is left waiting for ever (a daemon thread: its
    buffers are not touched again) instead of running on with unfilled results."""
    from xla_opt.interpreter.replicas import ReplicaContext

    run = _HostRun(context if context is not None else ReplicaContext(1), replica)

    def work() -> None:
        _current.run = run
        cfunc(*pointers)
        run.done.set()

    threading.Thread(target=work, name="xla-jit-host", daemon=True).start()
    run.done.wait()
    if run.error is not None:
        raise run.error


def _host_callback(call: HostCall) -> Any:
    """A C function `void(void* buffer, ...)`: the operands then the results of `call`."""
    from xla_opt.dialects.xla.element_types import elem_of, shape_of

    types = [*call.operand_types, *call.result_types]
    specs = [(tuple(shape_of(t)), numpy_dtype(elem_of(t))) for t in types]
    n_operands = len(call.operand_types)
    handler = _HOST_HANDLERS[call.kind]

    def callback(*addresses: int | None) -> None:
        run: _HostRun = _current.run
        try:
            arrays = [_buffer(a, shape, dtype) for a, (shape, dtype) in zip(addresses, specs, strict=True)]
            handler(call, run, arrays[:n_operands], arrays[n_operands:])
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            run.error = e
            run.done.set()
            threading.Event().wait()  # never returns into the native code

    return ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * len(specs)))(callback)


def _buffer(address: int | None, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """The buffer at `address` as a writable array (no copy)."""
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if size == 0 or not address:
        return np.empty(shape, dtype)
    return np.frombuffer((ctypes.c_char * size).from_address(address), dtype).reshape(shape)


def _fill(results: list[np.ndarray], values: list[Any], types: tuple, what: str, where: str) -> None:
    """Check each received value against its declared type and write it."""
    from xla_opt.interpreter.dtypes import check_value
    from xla_opt.interpreter.replicas import ReplicaError

    if len(values) != len(types):
        raise ReplicaError(f"{where}: {what} has {len(values)} arrays, the op reads {len(types)}")
    try:
        for i, (out, value, t) in enumerate(zip(results, values, types)):
            np.copyto(out, check_value(value, t, f"{what}, array #{i}"))
    except ValueError as e:
        raise ReplicaError(f"{where}: {e}") from None


def _infeed(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    from xla_opt.interpreter.replicas import ReplicaError

    r = run.replica
    with run.context.lock:
        queue = run.context.infeed[r]
        element = queue.popleft() if queue else None
    if element is None:
        raise ReplicaError(f"{call.where}: the infeed queue of replica {r} is empty")
    element = list(element) if isinstance(element, tuple | list) else [element]
    _fill(results, element, call.result_types, f"infeed element of replica {r}", call.where)


def _outfeed(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    with run.context.lock:
        run.context.outfeed[run.replica].append(tuple(a.copy() for a in operands))


def _send(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    context = run.context
    data = tuple(a.copy() for a in operands)
    if call.host_transfer:
        with context.lock:
            context.device_to_host[call.channel].append((run.replica, data))
    else:
        context.rendezvous.send(run.replica, call.channel, data)


def _recv(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    from xla_opt.interpreter.replicas import ReplicaError

    context = run.context
    if call.host_transfer:
        with context.lock:
            queue = context.host_to_device[call.channel]
            if not queue:
                raise ReplicaError(f"{call.where}: the host has no data for channel {call.channel}")
            data = queue.popleft()
        sender = "the host"
        data = list(data) if isinstance(data, tuple | list) else [data]
    else:
        sender_id, data = context.rendezvous.recv(run.replica, call.channel, call.where)
        sender = f"replica {sender_id}"
    _fill(results, list(data), call.result_types, f"received on channel {call.channel} (sent by {sender})", call.where)


def _custom_call(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    """The interpreter's custom_call (the oracle) on the operand buffers."""
    from xla_opt.interpreter.custom_call import custom_call

    for out, value in zip(results, custom_call(_CustomCallSite(call), operands), strict=True):
        np.copyto(out, value)


@dataclass
class _CustomCallSite:
    """What the interpreter's custom_call reads of the op: its target and result types."""

    call: HostCall

    @property
    def call_target_name(self) -> Any:
        from xdsl.dialects.builtin import StringAttr

        return StringAttr(self.call.target)

    @property
    def results(self) -> list[Any]:
        return [_Typed(t) for t in self.call.result_types]


@dataclass
class _Typed:
    type: Any


_interpreters = threading.local()  # per thread: the interpreter of its collectives, by replica context


def _collective(call: HostCall, run: _HostRun, operands: list, results: list) -> None:
    """A collective of replicas that are threads of this process: the interpreter's
    collective (the oracle's semantics and rendezvous) on this replica's operands."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg.host_calls import attached_op

    from xla_opt.interpreter import make_interpreter
    from xla_opt.interpreter.replicas import attach

    key = (id(run.context), run.replica)
    interpreter = getattr(_interpreters, "by_run", {}).get(key)
    if interpreter is None:
        from xdsl.dialects.builtin import ModuleOp

        interpreter = make_interpreter(ModuleOp([]))
        attach(interpreter, run.context, run.replica)
        _interpreters.by_run = {key: interpreter}  # one run at a time per thread
    values = interpreter.run_op(attached_op(call), tuple(np.array(a) for a in operands))
    for out, value in zip(results, values, strict=True):
        np.copyto(out, value)


_HOST_HANDLERS = {
    "infeed": _infeed,
    "outfeed": _outfeed,
    "send": _send,
    "recv": _recv,
    "custom_call": _custom_call,
    "collective": _collective,
}

# The native wrapper of a custom-call target: the JIT's convention (one pointer per
# operand, then per result) to XLA's CPU custom-call convention (API version 1):
# `void target(void* out, const void** in)`, `in` the array of operand pointers, `out`
# the result buffer when there is one result, else the array of result pointers.
_WRAPPER = "__xla_custom_call_v1"


def _native_custom_call(call: HostCall) -> NativeModule:
    """A compiled wrapper calling the native symbol `call.target` (LookupError if the
    JIT cannot resolve it)."""
    from xla_opt.interpreter.custom_call import registered_custom_calls

    compile_llvm_ir("define void @__xla_process_symbols() {\n  ret void\n}\n")  # the process's symbols resolve
    if llvm.address_of_symbol(call.target) is None:
        known = ", ".join(registered_custom_calls()) or "none"
        raise LookupError(
            f'{call.where}: custom_call target "{call.target}" is neither registered in Python '
            f"(registered: {known}; xla_opt.register_custom_call(name, fn)) nor a native symbol "
            "the JIT can resolve (llvmlite.binding.load_library_permanently / add_symbol)"
        )
    n_in, n_out = len(call.operand_types), len(call.result_types)
    params = [f"ptr %in{i}" for i in range(n_in)] + [f"ptr %out{i}" for i in range(n_out)]
    # the target as a quoted LLVM name (any string: `$`, `.`, spaces, quotes as \XX escapes)
    target = '@"' + "".join(c if c.isalnum() or c in "_$.-" else f"\\{ord(c):02X}" for c in call.target) + '"'
    lines = [f"declare void {target}(ptr, ptr)", f"define void @{_WRAPPER}({', '.join(params)}) {{"]

    def pointer_array(name: str, prefix: str, n: int) -> None:
        lines.append(f"  %{name} = alloca [{max(n, 1)} x ptr]")
        for i in range(n):
            lines.append(f"  %{name}{i} = getelementptr [{n} x ptr], ptr %{name}, i64 0, i64 {i}")
            lines.append(f"  store ptr %{prefix}{i}, ptr %{name}{i}")

    pointer_array("ins", "in", n_in)
    if n_out == 1:
        out = "%out0"
    else:
        pointer_array("outs", "out", n_out)
        out = "%outs"
    lines += [f"  call void {target}(ptr {out}, ptr %ins)", "  ret void", "}", ""]
    return compile_llvm_ir("\n".join(lines))

