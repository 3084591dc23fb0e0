"""Contexts with every dialect xla-opt knows: xDSL's and ours, all from the registry
of installed xDSL plugins (`xla_opt/universe.py` registers ours)."""

from __future__ import annotations

from functools import cache

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.universe import Universe

from xla_opt.xdsl_patches import install as install_xdsl_patches


@cache
def multiverse() -> Universe:
    """Every installed xDSL plugin's dialects, passes and targets (ours included);
    computed once per process."""
    return Universe.get_multiverse()


def register_extra_llvm_ops(ctx: Context) -> None:
    """The casts xDSL's llvm dialect lacks (used by convert-to-llvm), so that lowered
    modules parse back: they join the llvm dialect when it loads (on the first llvm op
    parsed), since importing the llvm dialect costs ~0.1 s that most runs never need."""
    factory = ctx._registered_dialects.get("llvm")  # wrapping xDSL's factory
    if factory is None:
        from xla_opt.dialects.llvm_casts import EXTRA_LLVM_OPS

        for op in EXTRA_LLVM_OPS:
            if ctx.get_optional_op(op.name) is None:
                ctx.load_op(op)
        return

    def llvm_with_casts() -> Dialect:
        from xla_opt.dialects.llvm_casts import EXTRA_LLVM_OPS

        dialect = factory()
        ops = list(dialect.operations)
        return Dialect(
            dialect.name,
            [*ops, *(op for op in EXTRA_LLVM_OPS if op not in ops)],
            list(dialect.attributes),
            list(dialect._interfaces),
        )

    ctx._registered_dialects["llvm"] = llvm_with_casts


def make_context() -> Context:
    """A context with every registered dialect, for the Python API and tests."""
    install_xdsl_patches()
    ctx = Context()
    for name, factory in multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_extra_llvm_ops(ctx)
    return ctx
