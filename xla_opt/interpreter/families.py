"""The interpreter's implementations, one module per op family: the family names of the
dialect (`xla_opt.dialects.xla.FAMILIES`), and `sharding` (the `sdy` dialect's ops),
each module defining one `InterpreterFunctions` class with an `@impl` per op of its
family."""

from __future__ import annotations

import importlib

from xdsl.interpreter import InterpreterFunctions

from xla_opt.dialects.xla import FAMILIES as DIALECT_FAMILIES


def _functions_of(family: str) -> type[InterpreterFunctions]:
    module = importlib.import_module(f"{__package__}.{family}")
    (functions,) = (
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, InterpreterFunctions) and value.__module__ == module.__name__
    )
    return functions


FAMILIES: dict[str, type[InterpreterFunctions]] = {
    family: _functions_of(family) for family in (*DIALECT_FAMILIES, "sharding")
}
