"""One place that knows every dialect, pass and output target of xla-opt."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


# The dialects of programs we import (JAX's StableHLO output), converted to xla by
# convert-stablehlo-to-xla.
IMPORTED_DIALECTS = ("stablehlo", "chlo", "sdy")


def _imported_dialect(name: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        from xla_opt.dialects.stablehlo import DIALECTS

        return next(d for d in DIALECTS if d.name == name)

    return load


def register_xla_dialects(ctx: Context) -> None:
    """Add our dialects to a context (xDSL's are registered by the caller)."""
    from xla_opt.dialects.xla import XLA

    if "xla" not in ctx.registered_dialect_names:
        ctx.load_dialect(XLA)
    for name in IMPORTED_DIALECTS:  # loaded on first use, like xDSL's own dialects
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, _imported_dialect(name))
    from xla_opt.lowering.to_llvm import EXTRA_LLVM_OPS

    for op in EXTRA_LLVM_OPS:  # casts that xDSL's llvm dialect lacks, used by convert-to-llvm
        if ctx.get_optional_op(op.name) is None:
            ctx.load_op(op)


def make_context() -> Context:
    """A context with every xDSL dialect and ours, for the Python API and tests."""
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_xla_dialects(ctx)
    return ctx


def xla_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Our passes by their kebab-case name (imported lazily, as xDSL does)."""
    from xla_opt.passes import PASSES

    return dict(PASSES)


def xla_targets() -> dict[str, Callable]:
    from xla_opt.passes import TARGETS

    return dict(TARGETS)
