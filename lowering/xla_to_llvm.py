"""The progressive lowering pipeline, `xla-to-llvm`, and its LLVM IR output.

    xla  --xla-inline-calls-->        xla (calls replaced by their callees' bodies, as XLA's CallInliner)
         --xla-widen-narrow-types-->  xla (4/2-bit integers, 8/6/4-bit floats as ui8 storage, wide arithmetic)
         --xla-expand-batch-norm-->   xla (batch norms as reduce, broadcast, arithmetic)
         --xla-fold-dot-transpose-->  xla (a transposed dot_general's result as the swapped operands' product)
         --xla-fold-sort-negation-->  xla (a sort of negated floats as a sort of the floats the other way round)
         --xla-legalize-broadcast-->  xla (explicit broadcasts)
         --convert-xla-to-linalg-->   linalg (named matmul, generics)/tensor/arith/math/scf on tensors
         --linalg-generalize-named-ops--> every linalg op a generic
         --linalg-interchange-contractions--> contraction loops in vectorizable order
         --linalg-block-rows-->       register blocking of float dots
         --linalg-fuse-elementwise--> producer/consumer loop fusion
         --canonicalize, cse-->
         --xla-bufferize-->           linalg on memrefs (destination passing)
         --linalg-matmul-to-kernel--> f32/f64/f16/bf16 matrix products (and batches) as calls of the GEMM micro-kernel
         --hoist-gemm-transposes-->   a product in a loop reads a matrix the loop only reads transposed from a copy made before it
         --linalg-conv-to-kernel-->   f32 2-D convolutions as calls of the implicit-GEMM kernel
         --linalg-write-in-place-->   a generic whose result is copied into a buffer writes that buffer (a loop's state)
         --buffer-loop-hoisting-->    a loop's per-trip allocations made once around it
         --convert-linalg-to-parallel-loops--> big generics' outer parallel loops as scf.parallel
         --convert-linalg-to-loops--> scf loops with memref.load/store
         --fold-delinearized-accesses--> a reshape's merged dimensions read in memory order: 1-D views, no division
         --lower-affine-->            index arithmetic of non-trivial indexing maps
         --split-loop-ranges-->       loops split where compares of their index change (concatenations, pads)
         --coalesce-contiguous-loops--> nests walking buffers in memory order as one loop
         --fuse-loop-nests-->         consecutive nests over the same rows as one nest
         --stream-result-stores-->    loops writing large results store through non-temporal chunk copies
         --outline-loop-nests-->      each top-level loop nest a kernel function (compiled in parallel)
         --convert-scf-to-openmp-->   scf.parallel as omp.parallel/wsloop/loop_nest
         --convert-omp-to-llvm-->     omp regions outlined, run by libgomp's GOMP_parallel
         --convert-scf-while-to-cf, convert-scf-to-cf--> cf branches
         --convert-to-llvm-->         llvm dialect
         --(xdsl.backend.llvm)-->     LLVM IR text
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

STAGES: tuple[str, ...] = (
    "xla-inline-calls",
    "xla-widen-narrow-types",
    "xla-expand-batch-norm",
    "xla-fold-dot-transpose",
    "xla-fold-sort-negation",
    "xla-legalize-broadcast",
    "convert-xla-to-linalg",
    "linalg-generalize-named-ops",
    "linalg-interchange-contractions",
    "linalg-block-rows",
    "linalg-fuse-elementwise",
    "canonicalize",
    "cse",
    "xla-bufferize",
    "linalg-matmul-to-kernel",
    "hoist-gemm-transposes",
    "linalg-conv-to-kernel",
    "linalg-write-in-place",
    "buffer-loop-hoisting",
    "convert-linalg-to-parallel-loops",
    "convert-linalg-to-loops",
    "fold-delinearized-accesses",
    "lower-affine",
    "split-loop-ranges",
    "coalesce-contiguous-loops",
    "fuse-loop-nests",
    "stream-result-stores",
    "outline-loop-nests",
    "convert-scf-to-openmp",
    "convert-omp-to-llvm",
    "convert-scf-while-to-cf",
    "convert-scf-to-cf",
    "convert-to-llvm",
)


# Pass options by stage name, for the stages that are not to run with their defaults:
# `{"convert-xla-to-linalg": {"replica_id": 1}}` (the dataclass fields' names).
StageOptions = Mapping[str, Mapping[str, Any]]


def stage_passes(stages: tuple[str, ...] = STAGES, options: StageOptions | None = None) -> list[tuple[str, ModulePass]]:
    """The passes of `stages`, each with its `options` (else its defaults)."""
    from xla_opt.context import multiverse

    passes = multiverse().all_passes
    options = options or {}
    return [(name, passes[name]()(**options.get(name, {}))) for name in stages]


def verify_each_stage() -> bool:
    """Whether run_stages verifies the module after every stage: the tests turn it on
    (XLA_OPT_VERIFY_STAGES=1), so every pass's output is checked on every program the
    JIT compiles; `xla-opt -p` verifies between passes anyway."""
    return os.environ.get("XLA_OPT_VERIFY_STAGES", "") not in ("", "0")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while lowering: the passes allocate
    hundreds of thousands of IR objects that live until the module is printed, and
    each collection of the oldest generation walks all of them (~15% of lowering the
    transformer block or the 2,000-op program, for ~10% more peak memory). The
    collector's previous state is restored; what became garbage is collected later."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def run_stages(
    module: ModuleOp,
    ctx: Context | None = None,
    times=None,
    verify: bool | None = None,
    stages=STAGES,
    options: StageOptions | None = None,
) -> ModuleOp:
    """Lower `module` in place through `stages` (default: every stage, each with its
    `options`); record each stage's time. With `verify` (default: verify_each_stage()),
    a stage whose output does not verify is a DiagnosticError naming it."""
    from xla_opt.context import make_context
    from xla_opt.diagnostics import Diagnostic, DiagnosticError, verify_module

    ctx = ctx or make_context()
    verify = verify_each_stage() if verify is None else verify
    with gc_paused():
        for name, p in stage_passes(stages, options):
            start = time.perf_counter()
            p.apply(ctx, module)
            if times is not None:
                times.record(name, start)
            if verify and (diags := verify_module(module)):
                raise DiagnosticError(
                    [Diagnostic(d.file, d.line, d.col, f"{d.message} (after pass '{name}')") for d in diags]
                )
    return module


# The stages up to outlining run on the whole program; the ones after it on each part
# of it that `split_by_kernels` makes, if the JIT splits it (see `lower_outlined`).
OUTLINING = STAGES.index("outline-loop-nests") + 1


def lower_through_outlining(module: ModuleOp, times=None, options: StageOptions | None = None) -> ModuleOp:
    """A copy of an xla module lowered through `outline-loop-nests` (`module` itself
    is left untouched)."""
    with gc_paused():
        return run_stages(module.clone(), times=times, stages=STAGES[:OUTLINING], options=options)


def lower_outlined(module: ModuleOp, times=None, options: StageOptions | None = None) -> str:
    """The LLVM IR text of a module out of `lower_through_outlining` (or of one of the
    parts `split_by_kernels` makes of it), lowered in place through the other stages."""
    from xdsl.backend.llvm.convert import convert_module

    with gc_paused():
        run_stages(module, times=times, stages=STAGES[OUTLINING:], options=options)
        start = time.perf_counter()
        ir = str(convert_module(module, fallback_target_triple=None))
    if times is not None:
        times.record("llvm-ir", start)
    return ir


def lower_to_llvm_ir(module: ModuleOp, times=None, options: StageOptions | None = None) -> str:
    """LLVM IR text of an xla module (the module itself is left untouched)."""
    return lower_outlined(lower_through_outlining(module, times, options), times, options)


@dataclass(frozen=True)
class XlaToLLVMPass(ModulePass):
    """The whole pipeline, from the xla dialect to the llvm dialect."""

    name = "xla-to-llvm"
    input_dialects = ("func", "sdy", "xla")  # sdy: a sharded program compiled whole drops its annotations
    output_dialects = ("llvm",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_stages(op, ctx)
