"""Entry functions and the values passed to them, shared by both backends: finding a
function, and checking inputs against its signature (count, dtype, shape; no silent
casts) before anything runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.dialects.func import FuncOp

from xla_opt.interpreter.dtypes import check_value


def find_function(module: ModuleOp, entry: str) -> FuncOp:
    for op in module.walk():
        if isinstance(op, FuncOp) and op.sym_name.data == entry:
            return op
    names = [op.sym_name.data for op in module.walk() if isinstance(op, FuncOp)]
    raise ValueError(f"no function @{entry} in the program (functions: {', '.join(names) or 'none'})")


def check_inputs(func: FuncOp, arrays: Sequence[Any]) -> list[Any]:
    """Validate inputs against the signature: count, dtype, shape (no silent casts)."""
    return check_inputs_against(func.function_type, arrays, func.sym_name.data)


def check_inputs_against(signature: FunctionType, arrays: Sequence[Any], entry: str) -> list[Any]:
    inputs = signature.inputs.data
    if len(arrays) != len(inputs):
        raise ValueError(f"@{entry} takes {len(inputs)} inputs, got {len(arrays)}")
    return [check_value(a, t, f"input #{i} of @{entry}") for i, (a, t) in enumerate(zip(arrays, inputs))]
