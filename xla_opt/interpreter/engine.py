"""The interpreter itself: xDSL's interpreter with every family's implementations
registered (`families.py`), and `interpret`, which runs one function of a module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.utils.exceptions import InterpretationError
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions


def _family_functions() -> list[InterpreterFunctions]:
    """Every family's implementations (see `families`)."""
    from .families import FAMILIES

    return [functions() for functions in FAMILIES.values()]


def make_interpreter(module: ModuleOp) -> Interpreter:
    from .scalars import ScalarFunctions

    interpreter = Interpreter(module)
    for functions in (FuncFunctions(), ScfFunctions(), CfFunctions(), ArithFunctions()):
        interpreter.register_implementations(functions)
    # scalars: arith in their declared float types, into tensors and out (scalars.py)
    interpreter.register_implementations(ScalarFunctions(), override=True)
    for functions in _family_functions():
        interpreter.register_implementations(functions)
    return interpreter


def call_entry(interpreter: Interpreter, module: ModuleOp, entry: str, args: Sequence[Any]) -> tuple[Any, ...]:
    """Call function `entry` of `module` on already type-checked values, its scalar
    parameters and results converted as `scalars.py` says."""
    from xla_opt.signatures import find_function

    from .scalars import arguments_in, results_out

    signature = find_function(module, entry).function_type
    try:
        results = interpreter.call_op(entry, tuple(arguments_in(signature, args)))
    except InterpretationError as e:
        raise _located(module, e) from None
    return results_out(signature, results)


_UNINTERPRETED = "Could not find interpretation function for op "


def _located(module: ModuleOp, error: InterpretationError) -> Exception:
    """An op the interpreter has no implementation of, as a located one-line error
    (xDSL names the op only); any other interpretation error as it is."""
    message = str(error)
    if not message.startswith(_UNINTERPRETED):
        return error
    from xla_opt.diagnostics import ProgramError, op_diagnostic

    name = message.removeprefix(_UNINTERPRETED).strip()
    op = next((o for o in module.walk() if o.name == name), None)
    if op is None:
        return error
    return ProgramError(str(op_diagnostic(op, "is not interpreted (the interpreter has no implementation of it)")))


def interpret(module: ModuleOp, entry: str, args: Sequence[Any]) -> tuple[Any, ...]:
    """Run function `entry` of `module` on already type-checked values."""
    return call_entry(make_interpreter(module), module, entry, args)


def interpreted_op_names() -> set[str]:
    names: set[str] = set()
    for functions in _family_functions():
        names |= {op.name for op, _ in type(functions)._impls() if op.name.startswith("xla.")}
    return names
