"""The reference interpreter: every xla op executed with numpy, exactly as the spec
says. It is the oracle every lowering is checked against.

Built on xDSL's interpreter framework: each op family registers its implementations
(`@impl`) in an `InterpreterFunctions` class; xDSL's own `func`, `scf`, `cf` and `arith`
implementations run the surrounding code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions


def _family_functions() -> list[InterpreterFunctions]:
    """Every family's implementations (see `families`)."""
    from .families import FAMILIES

    return [functions() for functions in FAMILIES.values()]


def make_interpreter(module: ModuleOp) -> Interpreter:
    interpreter = Interpreter(module)
    for functions in (FuncFunctions(), ScfFunctions(), CfFunctions(), ArithFunctions()):
        interpreter.register_implementations(functions)
    for functions in _family_functions():
        interpreter.register_implementations(functions)
    return interpreter


def interpret(module: ModuleOp, entry: str, args: Sequence[Any]) -> tuple[Any, ...]:
    """Run function `entry` of `module` on already type-checked values."""
    return tuple(make_interpreter(module).call_op(entry, tuple(args)))


def interpret_replicas(
    module: ModuleOp, entry: str, args_per_replica: Sequence[Sequence[Any]], context: Any = None
) -> list[tuple[Any, ...]]:
    """Run function `entry` of `module` on len(args_per_replica) replicas (one thread
    and interpreter each, sharing `context`, a `replicas.ReplicaContext` created when
    None); returns each replica's results, replica by replica."""
    from .replicas import run_replicas

    return run_replicas(module, entry, args_per_replica, context)


def interpreted_op_names() -> set[str]:
    names: set[str] = set()
    for functions in _family_functions():
        names |= {op.name for op, _ in type(functions)._impls() if op.name.startswith("xla.")}
    return names
