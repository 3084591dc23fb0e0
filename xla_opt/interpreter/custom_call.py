"""Reference semantics of custom_call: targets are Python functions registered with
`register_custom_call` (the Python API re-exports it), called on read-only operands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.diagnostics import op_location
from xla_opt.dialects import xla

from .dtypes import check_value
from .regions import plain

# target name -> the Python function xla.custom_call runs
_CUSTOM_CALLS: dict[str, Callable[..., Any]] = {}


def register_custom_call(name: str, fn: Callable[..., Any] | None = None):
    """Register `fn` as the custom-call target `name` (replacing any previous one):
    `fn(*operands)` returns the result, a tuple of results, or nothing. Without `fn`,
    returns a decorator."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"custom-call target name {name!r} must be a non-empty string")
    if fn is None:
        return lambda f: register_custom_call(name, f)
    if not callable(fn):
        raise TypeError(f'custom-call target "{name}": {fn!r} is not callable')
    _CUSTOM_CALLS[name] = fn
    return fn


def unregister_custom_call(name: str) -> None:
    _CUSTOM_CALLS.pop(name, None)


def registered_custom_calls() -> list[str]:
    return sorted(_CUSTOM_CALLS)


def _read_only(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_read_only(v) for v in value)
    if isinstance(value, np.ndarray):
        view = plain(value).view()
        view.flags.writeable = False
        return view
    return value


def _owned(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_owned(v) for v in value)
    if isinstance(value, np.ndarray):
        return np.array(value, copy=True)
    return value


def custom_call(op: xla.CustomCallOp, args: Sequence[Any]) -> tuple[Any, ...]:
    name = op.call_target_name.data
    fn = _CUSTOM_CALLS.get(name)
    if fn is None:
        known = ", ".join(registered_custom_calls()) or "none"
        file, line, col = op_location(op)
        raise LookupError(
            f'{op.name} ({file}:{line}:{col}): no Python target registered under "{name}" (registered: {known}); '
            "use xla_opt.register_custom_call(name, fn)"
        )
    returned = fn(*(_read_only(a) for a in args))
    types = [r.type for r in op.results]
    if not types:
        return ()
    if len(types) == 1:
        values = [returned]
    elif not isinstance(returned, tuple | list) or len(returned) != len(types):
        raise ValueError(
            f'custom_call "{name}": expected a tuple of {len(types)} results, got {type(returned).__name__}'
            + (f" of {len(returned)}" if isinstance(returned, tuple | list) else "")
        )
    else:
        values = list(returned)
    return tuple(
        _owned(check_value(v, t, f'custom_call "{name}" result #{i}'))
        for i, (v, t) in enumerate(zip(values, types, strict=True))
    )


@register_impls
class CustomCallFunctions(InterpreterFunctions):
    @impl(xla.CustomCallOp)
    def run_custom_call(self, interpreter: Interpreter, op: xla.CustomCallOp, args: tuple[Any, ...]):
        return custom_call(op, args)
