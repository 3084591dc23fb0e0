"""xla-opt: an MLIR-style compiler framework for XLA's operations, built on xDSL.

The Python API (`run`, `compile`, `optimize`, `load_program`, `ProgramError`,
`Builder`, `register_custom_call`, `set_num_threads`, `get_num_threads`,
`set_program_cache_size`, `get_program_cache_size`) is imported on first use, so that
`xla-opt`, which needs neither the builder, the interpreter nor the JIT, starts
quickly.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__version__ = "0.1.0"

_API = {
    "run": "xla_opt.api",
    "compile": "xla_opt.api",
    "optimize": "xla_opt.api",
    "load_program": "xla_opt.api",
    "ProgramError": "xla_opt.api",
    "Builder": "xla_opt.builder",
    "register_custom_call": "xla_opt.interpreter.custom_call",
    # compiled code's threads (the kernels and parallel loops): XLA_OPT_NUM_THREADS, or this
    "set_num_threads": "xla_opt.runtime.threads",
    "get_num_threads": "xla_opt.runtime.threads",
    # compiled programs kept in the process: XLA_OPT_PROGRAM_CACHE_SIZE, or this
    "set_program_cache_size": "xla_opt.runtime.llvm",
    "get_program_cache_size": "xla_opt.runtime.llvm",
}
__all__ = list(_API)


def lazy_attributes(module_name: str, table: dict[str, str]) -> Callable[[str], Any]:
    """A module's `__getattr__` (PEP 562) giving each name of `table` from the module
    the table names, imported on first use."""

    def getattr_(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return getattr_


__getattr__ = lazy_attributes(__name__, _API)
