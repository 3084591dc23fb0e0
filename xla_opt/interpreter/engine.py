"""The interpreter itself: xDSL's interpreter with every family's implementations
registered (`families.py`), and `interpret`, which runs one function of a module."""

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


def interpreted_op_names() -> set[str]:
    names: set[str] = set()
    for functions in _family_functions():
        names |= {op.name for op, _ in type(functions)._impls() if op.name.startswith("xla.")}
    return names
