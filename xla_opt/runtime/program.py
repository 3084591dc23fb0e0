"""A program from the xla dialect to native code: lowered through the pipeline
(lowering/xla_to_llvm.py), what it calls bound (binding.py), compiled by LLVM
(llvm.py), pipelined so that LLVM compiles one part of the program while Python lowers
the next."""

from __future__ import annotations

import functools
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xla_opt.runtime import llvm
from xla_opt.runtime.binding import Bindings, bind_names, declarations
from xla_opt.runtime.disk_cache import DiskCache
from xla_opt.runtime.llvm import PROGRAM_UNROLL_THRESHOLD, NativeModule, Part

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp


@dataclass
class StageTimes:
    """Compile time per pipeline stage, in seconds."""

    stages: dict[str, float] = field(default_factory=dict)

    def record(self, name: str, start: float) -> float:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + now - start
        return now


@dataclass
class CompiledProgram:
    """A program's native code, its LLVM IR (the parts' texts one after the other when
    pipelined), what its code calls that the runtime bound, and how it was lowered:
    `parts`, the LLVM IR modules as the pipeline printed them (one, or the pipelined
    parts), and `declarations`, the functions they declare, from which
    `compile_lowered` makes the same program again without lowering it."""

    native: NativeModule
    llvm_ir: str
    bindings: Bindings
    parts: list[str] = field(default_factory=list)
    declarations: list[str] = field(default_factory=list)


# Pipelined compilation: a program of at most PIPELINE_MAX_OPS ops once outlined (O3
# size: in a large program an op becomes 1.13-1.16 LLVM instructions, and
# O3_MAX_INSTRUCTIONS is 8,000; the U-Net training step's 5,684 ops became 6,570, and
# its compile on two CPUs took 2.16 s pipelined against 2.57 s with the limit at 2,500
# ops; grown to 6,254 ops (7,067 instructions), it had fallen past the limit of 6,000:
# 4.34 s against 3.95 s pipelined, in process, with 7,000) with
# two kernels or more, when the JIT has two threads or more, is split after
# outline-loop-nests into PIPELINE_PARTS modules (`split_by_kernels`: groups of kernels,
# then the rest). Each is lowered through the remaining stages and handed to a compile
# thread as soon as its LLVM IR is printed, so LLVM (which releases the GIL) compiles
# one part while Python lowers the next; the last part is compiled by the lowering
# thread itself alongside the compile thread. The parts' object code is linked into
# one engine, as `compile_llvm_ir` links the modules it splits. The transformer block's
# 0.11 s of LLVM ran after 0.16 s of lowering; pipelined, most of it runs during it.
PIPELINE_PARTS = 6
PIPELINE_MAX_OPS = 7_000
# While a program is pipelined, the interpreter hands the GIL over every 0.2 ms instead
# of every 5: the compile thread needs it for a moment between its calls into LLVM
# (parse, verify, optimize, emit...), and each time waited up to the whole interval for
# the lowering thread to let go (the first part of the transformer block took 120 ms
# to compile next to the lowering, 48 ms with the shorter interval).
PIPELINE_SWITCH_INTERVAL = 0.0002
# compiled parts by (text, level, unroll threshold): as many as the programs kept have
_parts = llvm.ProgramCache(scale=PIPELINE_PARTS)
llvm._caches.append(_parts)


def compile_program(
    xla_module: ModuleOp, times: StageTimes, options: Mapping[str, Mapping[str, Any]] | None = None
) -> CompiledProgram:
    """Lower an xla module through the pipeline (`options`: pass options by stage name,
    such as an MPI rank's `{"convert-xla-to-linalg": {"replica_id": rank}}`) and compile
    it."""
    from xla_opt.lowering.transforms.outline_loop_nests import split_by_kernels
    from xla_opt.lowering.xla_to_llvm import gc_paused, lower_outlined, lower_through_outlining

    with gc_paused():
        outlined = lower_through_outlining(xla_module, times, options)
        pipelined = llvm.compile_threads() > 1 and sum(1 for _ in outlined.walk()) <= PIPELINE_MAX_OPS
        modules = split_by_kernels(outlined, PIPELINE_PARTS) if pipelined else [outlined]
        if len(modules) == 1:
            text = lower_outlined(outlined, times, options)
            start = time.perf_counter()
            names = declarations(outlined)
            bindings = bind_names(names)
            native = compile_lowered([text])
            times.record(f"llvm-O{native.opt}+codegen", start)
            return CompiledProgram(native, text, bindings, [text], names)
        return _compile_pipelined(modules, times, options)


def compile_lowered(parts: list[str]) -> NativeModule:
    """The native code of a program lowered to the LLVM IR `parts` (`CompiledProgram.parts`;
    what they call already bound): one module compiled by `compile_llvm_ir`, split for
    the compile threads; pipelined parts compiled each on its own (on threads, at the
    level `opt_level` gives the whole program), as `_compile_pipelined` compiles them.
    Each step hits the process's and the disk's caches the first compile filled."""
    if len(parts) == 1:
        return llvm.compile_llvm_ir(parts[0], PROGRAM_UNROLL_THRESHOLD, split=True)
    key = ("\n".join(parts), PROGRAM_UNROLL_THRESHOLD, True)
    if (native := llvm.cached_program(key)) is not None:
        return native
    level = llvm.opt_level(key[0])
    disk = DiskCache.from_environment()
    llvm.target_machine(level)  # initializes LLVM's target before the threads
    compiled = llvm.in_parallel([functools.partial(_program_part, text, level, disk) for text in parts])
    return llvm.remember_program(key, llvm.link(compiled, level))


def _program_part(text: str, level: int, disk: DiskCache | None) -> Part:
    """One part of a program compiled at `level` (O0 if it is straight-line:
    `part_level`), kept in `_parts` by its text and level, its object code from the
    disk cache when that has it."""
    level = llvm.part_level(text, level)
    key = (text, level, PROGRAM_UNROLL_THRESHOLD)
    if (part := _parts.get(key)) is None:
        with llvm.unroll_gate.set_to(PROGRAM_UNROLL_THRESHOLD):
            part = llvm.compile_part(text, level, disk, (level, PROGRAM_UNROLL_THRESHOLD))
        part = _parts.setdefault(key, part)
    return part


_switch = {"users": 0, "saved": 0.005}
_switch_lock = threading.Lock()


def _short_switch_interval(change: int) -> None:
    """Enter (+1) or leave (-1) a pipelined compile: the first one in shortens the GIL
    switch interval to PIPELINE_SWITCH_INTERVAL, the last one out restores it (so
    compiles on several threads at once leave the user's setting as it was)."""
    with _switch_lock:
        if change > 0 and _switch["users"] == 0:
            _switch["saved"] = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch["saved"], PIPELINE_SWITCH_INTERVAL))
        _switch["users"] += change
        if change < 0 and _switch["users"] == 0:
            sys.setswitchinterval(_switch["saved"])


def _take_parts(pending: queue.SimpleQueue, take: Callable[..., None]) -> None:
    """Hand each queued part to `take` until the queue is empty or at its end marker
    (left in place for the compile thread)."""
    while True:
        try:
            item = pending.get_nowait()
        except queue.Empty:
            return
        if item is None:
            pending.put(None)
            return
        take(*item)


def _compile_pipelined(
    modules: list[ModuleOp], times: StageTimes, options: Mapping[str, Mapping[str, Any]] | None
) -> CompiledProgram:
    """Lower `modules` one after the other, each compiled (at O3) on the compile thread
    as soon as it is lowered; the lowering thread compiles what is left once done; at
    the level `opt_level` gives the whole program, recompiled should that not be O3."""
    from xla_opt.lowering.xla_to_llvm import lower_outlined

    llvm.target_machine(3)  # initializes LLVM's target before the thread
    disk = DiskCache.from_environment()
    pending: queue.SimpleQueue[tuple[int, str] | None] = queue.SimpleQueue()
    compiled: dict[int, Part] = {}
    errors: list[BaseException] = []

    def compile_one(index: int, text: str, level: int = 3) -> None:
        try:
            compiled[index] = _program_part(text, level, disk)
        except BaseException as e:  # noqa: BLE001 - re-raised on the lowering thread
            errors.append(e)

    def work() -> None:
        while (item := pending.get()) is not None:
            compile_one(*item)

    worker = threading.Thread(target=work, name="xla-opt-compile")
    _short_switch_interval(+1)
    worker.start()
    texts: list[str] = []
    names: list[str] = []
    try:
        for index, module in enumerate(modules):
            texts.append(lower_outlined(module, times, options))
            declared = declarations(module)
            names += [name for name in declared if name not in names]
            pending.put((index, texts[-1]))
        pending.put(None)  # the compile thread's end, after the parts
        start = time.perf_counter()
        _take_parts(pending, compile_one)  # what it has not taken yet, compiled here too
    except BaseException:
        _take_parts(pending, lambda *_: None)  # a failed lowering: what is queued is dropped
        pending.put(None)
        raise
    finally:
        worker.join()
        _short_switch_interval(-1)
    if errors:
        raise errors[0]
    # Bound once every part is lowered and compiled: code generation does not need what
    # the parts call, and a library the lowering declared is compiling meanwhile
    # (binding.prefetch); the link does.
    bindings = bind_names(names)
    text = "\n".join(texts)
    key = (text, PROGRAM_UNROLL_THRESHOLD, True)  # compile_llvm_ir's key of a program
    if (native := llvm.cached_program(key)) is not None:
        times.record(f"llvm-O{native.opt}+codegen", start)
        return CompiledProgram(native, text, bindings, texts, names)
    parts = [compiled[i] for i in range(len(texts))]
    if (level := llvm.opt_level(text)) != 3:
        for i, part_text in enumerate(texts):
            compile_one(i, part_text, level)
        if errors:
            raise errors[0]
        parts = [compiled[i] for i in range(len(texts))]
    native = llvm.remember_program(key, llvm.link(parts, level))
    times.record(f"llvm-O{level}+codegen", start)
    return CompiledProgram(native, text, bindings, texts, names)


def clear_cache() -> None:
    """Forget every program and part compiled or lowered in this process (the disk
    cache stays)."""
    llvm.clear_cache()
