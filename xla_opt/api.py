"""The Python API: `run` and `compile` an xla program on numpy arrays.

    import xla_opt
    results = xla_opt.run(program, a, b)                     # -> list[np.ndarray]
    f = xla_opt.compile(program, entry="main")               # -> callable
    results = f(a, b)

`program` is MLIR text, a path to a `.mlir` file, or a parsed `ModuleOp`. Inputs are
checked against the entry function's signature before anything runs: a wrong count,
dtype or shape is a `ValueError` naming the argument.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from xla_opt.context import make_context
from xla_opt.diagnostics import DiagnosticError, parse_source, verify_module

BACKENDS = ("interpreter",)


class ProgramError(ValueError):
    """The program does not parse or verify; the message holds the diagnostics."""


def load_program(program: str | os.PathLike | ModuleOp, name: str | None = None) -> ModuleOp:
    """Parse and verify a program given as text, a path or a module."""
    if isinstance(program, ModuleOp):
        module = program
        diags = verify_module(module, name or "<module>")
    else:
        if isinstance(program, os.PathLike) or (
            isinstance(program, str) and "\n" not in program and program.endswith(".mlir")
        ):
            path = Path(program)
            try:
                text = path.read_text()
            except OSError as e:
                raise ProgramError(f"{path}: error: cannot open input file: {e.strerror}") from None
            name = name or str(path)
        else:
            text = str(program)
            name = name or "<program>"
        try:
            module = parse_source(make_context(), text, name)
        except DiagnosticError as e:
            raise ProgramError(str(e)) from None
        diags = verify_module(module, name)
    if diags:
        raise ProgramError("\n".join(map(str, diags)))
    return module


def find_function(module: ModuleOp, entry: str) -> FuncOp:
    for op in module.walk():
        if isinstance(op, FuncOp) and op.sym_name.data == entry:
            return op
    names = [op.sym_name.data for op in module.walk() if isinstance(op, FuncOp)]
    raise ValueError(f"no function @{entry} in the program (functions: {', '.join(names) or 'none'})")


def check_inputs(func: FuncOp, arrays: Sequence[Any]) -> list[Any]:
    """Validate inputs against the signature: count, dtype, shape (no silent casts)."""
    from xla_opt.interpreter.dtypes import check_value

    inputs = func.function_type.inputs.data
    if len(arrays) != len(inputs):
        raise ValueError(
            f"@{func.sym_name.data} takes {len(inputs)} inputs, got {len(arrays)}"
        )
    return [check_value(a, t, f"input #{i} of @{func.sym_name.data}") for i, (a, t) in enumerate(zip(arrays, inputs))]


class CompiledFunction:
    """A program's entry function, ready to call on numpy arrays."""

    def __init__(self, module: ModuleOp, entry: str, backend: str):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend '{backend}'; expected one of {', '.join(BACKENDS)}")
        self.module = module
        self.entry = entry
        self.backend = backend
        self.function = find_function(module, entry)
        self._run: Callable[[list[Any]], tuple[Any, ...]] = self._interpreter_runner()

    def _interpreter_runner(self) -> Callable[[list[Any]], tuple[Any, ...]]:
        from xla_opt.interpreter import interpret

        return lambda inputs: interpret(self.module, self.entry, inputs)

    def __call__(self, *arrays: Any) -> list[Any]:
        inputs = check_inputs(self.function, arrays)
        return list(self._run(inputs))


def compile(  # noqa: A001 - mirrors jax.jit / torch.compile naming
    program: str | os.PathLike | ModuleOp, entry: str = "main", backend: str = "interpreter"
) -> CompiledFunction:
    return CompiledFunction(load_program(program), entry, backend)


def run(
    program: str | os.PathLike | ModuleOp,
    *arrays: Any,
    entry: str = "main",
    backend: str = "interpreter",
) -> list[Any]:
    return compile(program, entry=entry, backend=backend)(*arrays)


