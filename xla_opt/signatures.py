"""Entry functions and the values passed to them, shared by both backends: finding a
function, and checking inputs against its signature (count, dtype, shape; no silent
casts) before anything runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp

from xla_opt.interpreter.dtypes import check_value, tensor_spec


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
    return [
        a if type(a) is np.ndarray and spec is not None and (a.dtype, a.shape) == spec
        else check_value(a, t, f"input #{i} of @{entry}")
        for i, (a, t, spec) in enumerate(zip(arrays, inputs, input_specs(signature)))
    ]  # fmt: skip


_SPECS: dict[int, tuple[FunctionType, list[tuple[np.dtype, tuple[int, ...]] | None]]] = {}


def input_specs(signature: FunctionType) -> list[tuple[np.dtype, tuple[int, ...]] | None]:
    """Each tensor parameter's numpy dtype and shape (None for a token or tuple), read
    once per signature: an array that matches is passed as it is (`check_value` says
    the same of it). Reading them from the types on every call, or hashing the types to
    look them up, was a third of a small call's ~35 us."""
    known = _SPECS.get(id(signature))
    if known is None or known[0] is not signature:  # the object kept: its id is not reused
        if len(_SPECS) >= 1024:
            _SPECS.clear()
        specs = [tensor_spec(t) if isinstance(t, TensorType) else None for t in signature.inputs.data]
        known = _SPECS[id(signature)] = (signature, specs)
    return known[1]
