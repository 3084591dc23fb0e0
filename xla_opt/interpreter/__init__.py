"""The reference interpreter: every xla op executed with numpy, exactly as the spec
says. It is the oracle every lowering is checked against.

Built on xDSL's interpreter framework: each op family registers its implementations
(`@impl`) in an `InterpreterFunctions` class; xDSL's own `func`, `scf`, `cf` and `arith`
implementations run the surrounding code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from .engine import interpret, interpreted_op_names, make_interpreter


def __getattr__(name: str) -> Any:
    """The engine is imported on first use, not with the package: its submodules that
    need no interpreter (`dtypes`, which the API and the JIT read) then cost no import
    of xDSL's interpreter framework (~0.4 s, half of `import xla_opt.api`, issue 32)."""
    if name in ("interpret", "interpreted_op_names", "make_interpreter"):
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def interpret_replicas(
    module: ModuleOp, entry: str, args_per_replica: Sequence[Sequence[Any]], context: Any = None
) -> list[tuple[Any, ...]]:
    """Run function `entry` of `module` on len(args_per_replica) replicas (one thread
    and interpreter each, sharing `context`, a `replicas.ReplicaContext` created when
    None); returns each replica's results, replica by replica."""
    from .replicas import run_replicas

    return run_replicas(module, entry, args_per_replica, context)


__all__ = ["interpret", "interpret_replicas", "interpreted_op_names", "make_interpreter"]
