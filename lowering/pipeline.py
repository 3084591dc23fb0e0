"""The progressive lowering pipeline, `xla-to-llvm`, and its LLVM IR output.

    xla  --xla-legalize-broadcast-->  xla (explicit broadcasts)
         --convert-xla-to-linalg-->   linalg/tensor/arith/math/scf on tensors
         --linalg-fuse-elementwise--> producer/consumer loop fusion
         --canonicalize, cse-->
         --xla-bufferize-->           linalg on memrefs (destination passing)
         --convert-linalg-to-loops--> scf loops with memref.load/store
         --lower-affine-->            index arithmetic of non-trivial indexing maps
         --convert-scf-while-to-cf, convert-scf-to-cf--> cf branches
         --convert-to-llvm-->         llvm dialect
         --(xdsl.backend.llvm)-->     LLVM IR text
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

STAGES: tuple[str, ...] = (
    "xla-legalize-broadcast",
    "convert-xla-to-linalg",
    "linalg-fuse-elementwise",
    "canonicalize",
    "cse",
    "xla-bufferize",
    "convert-linalg-to-loops",
    "lower-affine",
    "convert-scf-while-to-cf",
    "convert-scf-to-cf",
    "convert-to-llvm",
)


def stage_passes() -> list[tuple[str, ModulePass]]:
    from xla_opt.context import xla_passes

    registry = xla_passes()
    from xdsl.universe import Universe

    builtin = Universe.get_multiverse().all_passes
    out = []
    for name in STAGES:
        factory = registry.get(name) or builtin[name]
        out.append((name, factory()()))
    return out


def run_stages(module: ModuleOp, ctx: Context | None = None, times=None) -> ModuleOp:
    """Lower `module` in place through every stage; record each stage's time."""
    from xla_opt.context import make_context

    ctx = ctx or make_context()
    for name, p in stage_passes():
        start = time.perf_counter()
        p.apply(ctx, module)
        if times is not None:
            times.record(name, start)
    return module


def lower_to_llvm_ir(module: ModuleOp, times=None) -> str:
    """LLVM IR text of an xla module (the module itself is left untouched)."""
    from xdsl.backend.llvm.convert import convert_module

    lowered = run_stages(module.clone(), times=times)
    start = time.perf_counter()
    ir = str(convert_module(lowered, fallback_target_triple=None))
    if times is not None:
        times.record("llvm-ir", start)
    return ir


@dataclass(frozen=True)
class XlaToLLVMPass(ModulePass):
    """The whole pipeline, from the xla dialect to the llvm dialect."""

    name = "xla-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_stages(op, ctx)
