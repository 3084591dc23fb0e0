"""The JIT runtime: LLVM IR compiled by llvmlite for the host CPU (all its features,
LLVM's O3 pipeline for functions of ordinary size, see `opt_level`) and called on
numpy arrays.

Calling convention (see lowering/conversions/xla_bufferize.py): the entry function takes one pointer
per input, then one pointer per result, and writes the results. Before any native
call, inputs are checked against the program's signature (count, dtype, shape) and
made C-contiguous; outputs are freshly allocated numpy arrays. Compiled code is cached
by its LLVM IR within the process, and on disk across processes (`_DiskCache`, like
JAX's compilation cache: object code keyed by the IR, the host CPU and llvmlite's
version; in ~/.cache/xla-opt, or $XLA_OPT_CACHE_DIR; off with XLA_OPT_CACHE=0).

Host calls (lowering/conversions/convert_xla_to_linalg/host_calls.py): the external symbols a program
declares for infeed, outfeed, send, recv and Python custom calls are bound to ctypes
callbacks working on a one-replica ReplicaContext (the interpreter's queues and
channels); native custom-call targets to compiled wrappers (XLA's CPU custom-call
convention). Such a program runs on a worker thread, so that a callback that fails
stops it for good and its error is raised to the caller.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import llvmlite.binding as llvm
import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType

from xla_opt.diagnostics import DiagnosticError
from xla_opt.interpreter.dtypes import numpy_dtype
from xla_opt.signatures import check_inputs_against, find_function

if TYPE_CHECKING:
    from xla_opt.lowering.conversions.convert_xla_to_linalg.host_calls import HostCall

_lock = threading.Lock()
_initialized = False
_cache: dict[tuple[str, int, bool], _NativeModule] = {}  # by (LLVM IR, unroll threshold, split)


# LLVM's optimization level by the size of the module (instructions). Measured on
# generated element-wise chains (benchmarks/compile_time.py): 15k instructions in one
# function take 4.7 s at O3 and 3.7 s at O1; 76k take 77 s at O1 (the function passes
# grow quadratically on one huge function) and 1 s at O0. With every loop nest a
# function of its own (outline-loop-nests) nothing is quadratic any more, but the
# cost per instruction stays: the 2,000-op program's 26k instructions in 693
# functions take 3.2 s at O3, 2.0 s at O1, 0.35 s at O0 (two threads). Big programs
# trade run time for compile time.
O3_MAX_INSTRUCTIONS = 8_000
O1_MAX_INSTRUCTIONS = 30_000


def opt_level(ir_text: str) -> int:
    """3 when the module has at most O3_MAX_INSTRUCTIONS instructions, 1 up to
    O1_MAX_INSTRUCTIONS, else 0. An instruction is an indented line of a function body
    (the textual IR's layout: labels and braces start at column 0); a call of an
    `alwaysinline` function (convert-to-llvm's f32 exp and tanh) counts as the callee's
    instructions: the optimizer inlines them there (at O0 the call stays), and the
    callee's own body is not counted."""
    own: dict[str, int] = {}  # function -> its instructions
    callees: dict[str, list[str]] = {}  # function -> the functions its calls name
    always: set[str] = set()  # the alwaysinline ones
    name = ""
    for line in ir_text.splitlines():
        if line.startswith("define "):
            name = line[line.index("@") : line.index("(")]
            own[name], callees[name] = 0, []
            if "alwaysinline" in line[line.rindex(")") :]:
                always.add(name)
        elif name and line.startswith("  "):
            own[name] += 1
            if " call " in line and "@" in line:
                at = line.index("@")
                callees[name].append(line[at : line.find("(", at)])
        elif line.startswith("}"):
            name = ""  # what follows a body is not an instruction
    total = sum(
        size + sum(own[c] for c in callees[f] if c in always) for f, size in own.items() if f not in always
    )
    if total <= O3_MAX_INSTRUCTIONS:
        return 3
    return 1 if total <= O1_MAX_INSTRUCTIONS else 0


_LABEL = re.compile(r'^(?:"[^"]*"|[-.$\w]+):')


def straight_line(ir_text: str) -> bool:
    """Whether every function `ir_text` defines is one basic block: no branch, so no
    loop, only calls and scalar code, as the program's driver function is once its
    loop nests are outlined kernels (a call per kernel, its buffers' malloc and free).
    Such a module is compiled at O0: the optimizer has nothing to do there and O3 with
    code generation took 13 ms for the transformer block's driver, O0 6 ms; the
    kernels it calls are compiled at their own level."""
    labels = 0
    for line in ir_text.splitlines():
        if line.startswith("define "):
            labels = 0
        elif _LABEL.match(line):
            labels += 1
            if labels > 1:
                return False
    return True


# LLVM's loop-unroll cost threshold at O3 (its `-unroll-threshold-aggressive`). LLVM's
# own 300 fully unrolls every vectorized loop of a few iterations, and then the small
# outer loops around it: on the exported JAX programs (benchmarks/bench.py) the
# optimized IR grows 3-5x and O3 + code generation takes 0.39 / 0.22 / 0.21 s; at 50
# 0.23 / 0.07 / 0.09 s, and their run times and the memory-bound workloads' stay within
# noise (transformer block 2.77 vs 2.80 ms). 50 still unrolls what pays: the few-column
# loops of a skinny product (512x512 by 512x4: 92 us, 803 without unrolling).
# The micro-kernel libraries keep LLVM's default: compiled once per process.
LLVM_UNROLL_THRESHOLD = 300
PROGRAM_UNROLL_THRESHOLD = 50


def _target_machine(opt: int = 3) -> llvm.TargetMachine:
    """A new TargetMachine for the host CPU (all its features, code generation at
    optimization level `opt`).

    Each execution engine gets its own: `create_mcjit_compiler` takes ownership of the
    TargetMachine it is given and frees it with the engine, so a shared one would be
    used after free once any engine is gone (e.g. after `clear_cache()`)."""
    global _initialized
    if not _initialized:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _initialized = True
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt,
        jit=True,
    )


@dataclass
class _NativeModule:
    engine: Any
    llvm_modules: list[Any]  # the optimized modules its object code was compiled from
    opt: int = 3
    from_disk: bool = False  # loaded from the on-disk cache
    addresses: dict[str, int] = field(default_factory=dict)

    @property
    def optimized_ir(self) -> str:
        """The optimized LLVM IR, printed on demand (10-30 ms for a JAX program, which
        compiling does not need)."""
        return "\n".join(str(m) for m in self.llvm_modules)

    def address(self, name: str) -> int:
        if name not in self.addresses:
            self.addresses[name] = self.engine.get_function_address(name)
        return self.addresses[name]


class _DiskCache:
    """Object code on disk, one file per module: `<key>.o`, the key a SHA-256 of the
    LLVM IR text, the optimization level, the host CPU's name and features and
    llvmlite's version (code for another CPU or LLVM is never loaded). A file holds
    the SHA-256 of its object code, then the code: an entry whose digest does not
    match (truncated, overwritten) is ignored and rewritten. Files are written to a
    temporary name and renamed, so a reader never sees half a file; a directory that
    cannot be written only costs the compile."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    @staticmethod
    def from_environment() -> _DiskCache | None:
        if os.environ.get("XLA_OPT_CACHE", "1") == "0":
            return None
        directory = os.environ.get("XLA_OPT_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xla-opt"
        )
        return _DiskCache(directory)

    def path(self, ir_text: str, level: int, unroll_threshold: int) -> str:
        h = hashlib.sha256()
        for part in (ir_text, str(level), str(unroll_threshold), llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(), llvm.llvm_version_info, _llvmlite_version()):
            h.update(str(part).encode())
            h.update(b"\0")
        return os.path.join(self.directory, h.hexdigest() + ".o")

    def load(self, path: str) -> bytes | None:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        digest, code = data[:32], data[32:]
        return code if code and hashlib.sha256(code).digest() == digest else None

    def store(self, path: str, code: bytes) -> None:
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            os.makedirs(self.directory, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(hashlib.sha256(code).digest() + code)
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _llvmlite_version() -> str:
    import llvmlite

    return llvmlite.__version__


def _unresolved_declarations(modules: list[llvm.ModuleRef]) -> list[str]:
    """Functions the modules declare that nothing provides: not defined by one of them,
    not an LLVM intrinsic, not registered with the JIT (`llvm.add_symbol`, a library
    loaded permanently) and not in the process (libc, libm). MCJIT would bind such a
    call to address 0."""
    import ctypes

    process = ctypes.CDLL(None)
    defined = {f.name for m in modules for f in m.functions if not f.is_declaration}
    return sorted(
        {
            f.name
            for m in modules
            for f in m.functions
            if f.is_declaration
            and f.name not in defined
            and not f.name.startswith("llvm.")
            and llvm.address_of_symbol(f.name) is None
            and not hasattr(process, f.name)
        }
    )


# Parallel code generation (XLA's parallel codegen): a module of at least
# SPLIT_MIN_INSTRUCTIONS instructions is split by function into one LLVM module per
# compile thread (`split_llvm_ir`), which are optimized and compiled to object code at
# the same time, each in its own LLVMContext, then linked into one engine.
# outline-loop-nests makes each loop nest a function, so the work splits evenly. Below
# the threshold a second thread saves less than it costs (~1 ms); the ResNet block's
# 186 instructions compile in 28 ms on two threads, 41 ms on one.
SPLIT_MIN_INSTRUCTIONS = 100

_DEFINE = re.compile(r'define (?P<linkage>(?:internal |private )?)[^@]*@(?P<name>"[^"]*"|[\w.$]+)\(')
# globals that every part may hold its own copy of: read-only internal data, declarations
_COPYABLE_GLOBAL = re.compile(r'@\S+ = (?:(?:internal|private) (?:unnamed_addr )?constant|external (?:global|constant)) ')


@dataclass
class _Function:
    name: str
    lines: list[str]  # `define ...` to `}`
    internal: bool

    @functools.cached_property
    def instructions(self) -> int:
        """Read once the function is complete (the split sorts, sums and deals by it)."""
        return sum(1 for line in self.lines if line.startswith("  "))

    def declaration(self) -> str:
        """The `define` line as a declaration (without the `{` that may end it)."""
        return "declare" + self.lines[0][len("define") :].rstrip().removesuffix("{").rstrip()


def split_llvm_ir(ir_text: str, parts: int) -> list[str]:
    """`ir_text` as at most `parts` modules that together define what it defines: its
    external functions dealt out by size (largest first, to the smallest part), each
    declared in the other parts; its internal functions (the alwaysinline math) and
    everything outside functions (globals, declarations) in every part. One part
    (`[ir_text]`) when the module is small, has fewer than two external functions, or
    has a global that is not read-only internal data (two copies would be two
    variables)."""
    header: list[str] = []
    functions: list[_Function] = []
    current: _Function | None = None
    for line in ir_text.splitlines():
        if current is not None:
            current.lines.append(line)
            if line.startswith("}"):
                current = None
        elif line.startswith("define ") and (m := _DEFINE.match(line)):
            current = _Function(m["name"], [line], bool(m["linkage"]))
            functions.append(current)
        else:
            if line.startswith("@") and not _COPYABLE_GLOBAL.match(line):
                return [ir_text]
            header.append(line)
    external = sorted((f for f in functions if not f.internal), key=lambda f: -f.instructions)
    total = sum(f.instructions for f in external)
    parts = min(parts, len(external))
    if parts < 2 or total < SPLIT_MIN_INSTRUCTIONS:
        return [ir_text]
    owner: dict[str, int] = {}
    sizes = [0] * parts
    for f in external:
        k = sizes.index(min(sizes))
        owner[f.name] = k
        sizes[k] += f.instructions
    texts = []
    for k in range(parts):
        lines = list(header)
        for f in functions:
            if f.internal or owner[f.name] == k:
                lines.extend(f.lines)
            else:
                lines.append(f.declaration())
        texts.append("\n".join(lines) + "\n")
    return texts


def compile_threads() -> int:
    """Threads for code generation: the JIT's thread count (XLA_OPT_NUM_THREADS, else
    the CPUs of the process's affinity mask)."""
    from xla_opt.lowering.kernels.runtime import num_threads

    return num_threads()


def _unlocked(name: str) -> Any:
    """llvmlite's C-API function `name` without llvmlite's lock. llvmlite serializes
    every call into LLVM behind one process-wide lock; LLVM itself lets threads work at
    the same time on modules of different LLVMContexts (each with its own
    TargetMachine and PassBuilder), which is all `_compile_part` does between taking
    its module and handing back object code. Falls back to the locked call should
    llvmlite's wrapper change (correct, only serial)."""
    wrapper = getattr(llvm.ffi.lib, name)
    return getattr(wrapper, "_cfn", wrapper)


@dataclass
class _Part:
    module: Any  # the optimized llvmlite module (it holds its own LLVMContext)
    code: bytes  # its object code
    from_disk: bool


def _compile_part(text: str, level: int, disk: _DiskCache | None, cache_key: tuple) -> _Part:
    """Parse, verify, optimize and compile one module to object code in a context of
    its own (run on a compile thread); object code from the disk cache when it has it."""
    tm = _target_machine(level)
    mod = llvm.parse_assembly(text, context=llvm.create_context())
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    mod.verify()
    path = disk.path(text, *cache_key) if disk else None
    if disk and path and (code := disk.load(path)) is not None:
        return _Part(mod, code, True)
    if level > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=level)
        pto.loop_vectorization = pto.slp_vectorization = level >= 2
        pto.loop_unrolling = pto.loop_interleaving = level >= 2
        pb = llvm.create_pass_builder(tm, pto)
        _unlocked("LLVMPY_RunNewModulePassManager")(pb.getModulePassManager(), mod, pb)
    with llvm.ffi.OutputString() as error:
        buffer = _unlocked("LLVMPY_TargetMachineEmitToMemory")(tm, mod, 1, error)
        if not buffer:
            raise RuntimeError(f"LLVM code generation failed: {error}")
    try:
        code = ctypes.string_at(llvm.ffi.lib.LLVMPY_GetBufferStart(buffer), llvm.ffi.lib.LLVMPY_GetBufferSize(buffer))
    finally:
        llvm.ffi.lib.LLVMPY_DisposeMemoryBuffer(buffer)
    if disk and path:
        disk.store(path, code)
    return _Part(mod, code, False)


def _part_level(text: str, level: int) -> int:
    """The level a module is compiled at within a program compiled at `level`: O0
    when it is straight-line."""
    return 0 if straight_line(text) else level


def _compile_part_at(text: str, level: int, disk: _DiskCache | None, unroll_threshold: int) -> _Part:
    """`_compile_part` at `_part_level`."""
    level = _part_level(text, level)
    return _compile_part(text, level, disk, (level, unroll_threshold))


def _in_parallel(jobs: list[Any]) -> list[Any]:
    """Run the callables `jobs`, all but the first on threads of their own; their
    results in order, or the first error raised."""
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException | None] = [None] * len(jobs)

    def run(i: int) -> None:
        try:
            results[i] = jobs[i]()
        except BaseException as e:  # noqa: BLE001 - re-raised on the calling thread
            errors[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(1, len(jobs))]
    for t in threads:
        t.start()
    run(0)
    for t in threads:
        t.join()
    if first := next((e for e in errors if e is not None), None):
        raise first
    return results


def compile_llvm_ir(ir_text: str, unroll_threshold: int = LLVM_UNROLL_THRESHOLD, split: bool = False) -> _NativeModule:
    """Parse, verify, optimize (at `opt_level`, host CPU, loops unrolled up to
    `unroll_threshold`) and JIT-compile LLVM IR; with `split` (a program's kernels), as
    modules compiled on `compile_threads()` threads (`split_llvm_ir`) and linked into
    one engine. The micro-kernel libraries stay one module: compiled once per process,
    they gain little from threads, and LLVM keeps optimizing across their functions
    (inlining and constants propagated into their parallel regions). Cached by text in
    the process and as object code on disk (`_DiskCache`): a hit skips optimization and
    code generation."""
    with _lock:
        key = (ir_text, unroll_threshold, split)
        cached = _cache.get(key)
        if cached is not None:
            return cached
        level = opt_level(ir_text)
        _target_machine(level)  # initializes LLVM's target before any thread
        disk = _DiskCache.from_environment()
        texts = split_llvm_ir(ir_text, compile_threads() if split and level > 0 else 1)
        with _unroll.set_to(unroll_threshold):
            parts: list[_Part] = _in_parallel(
                [functools.partial(_compile_part_at, text, level, disk, unroll_threshold) for text in texts]
            )
        native = _link(parts, level)
        _cache[key] = native
        return native


def _link(parts: list[_Part], level: int) -> _NativeModule:
    """One execution engine running the object code of `parts`; a LookupError when they
    call a function nothing provides."""
    if missing := _unresolved_declarations([p.module for p in parts]):
        raise LookupError(
            f"the program calls {', '.join(missing)}, which the JIT cannot resolve (register it "
            "with llvmlite.binding.add_symbol or load its library with load_library_permanently)"
        )
    tm = _target_machine(level)
    host = llvm.parse_assembly("")
    host.triple = tm.triple
    host.data_layout = str(tm.target_data)
    engine = llvm.create_mcjit_compiler(host, tm)
    for part in parts:
        engine.add_object_file(llvm.ObjectFileRef.from_data(part.code))
    engine.finalize_object()
    return _NativeModule(engine, [p.module for p in parts], level, from_disk=all(p.from_disk for p in parts))


class _UnrollGate:
    """LLVM's `-unroll-threshold-aggressive` is one process-wide option, read while a
    module is optimized: compiles that want the same value run together, one that wants
    another value waits until they are done (and they for it). A program's modules are
    compiled at PROGRAM_UNROLL_THRESHOLD, the micro-kernel libraries at LLVM's default,
    and a library can be compiled on first use while a program's parts are compiling."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._value: int | None = None
        self._users = 0

    @contextmanager
    def set_to(self, value: int) -> Iterator[None]:
        with self._changed:
            while self._users and self._value != value:
                self._changed.wait()
            if self._value != value:
                llvm.set_option("", f"-unroll-threshold-aggressive={value}")
                self._value = value
            self._users += 1
        try:
            yield
        finally:
            with self._changed:
                self._users -= 1
                if not self._users:
                    self._changed.notify_all()


_unroll = _UnrollGate()


# Pipelined compilation: a program of at most PIPELINE_MAX_OPS ops once outlined (O3
# size: an op becomes about 1.2 LLVM instructions, O3_MAX_INSTRUCTIONS is 8,000) with
# two kernels or more, when the JIT has two threads or more, is split after
# outline-loop-nests into PIPELINE_PARTS modules (`split_by_kernels`: groups of kernels,
# then the rest). Each is lowered through the remaining stages and handed to a compile
# thread as soon as its LLVM IR is printed, so LLVM (which releases the GIL) compiles
# one part while Python lowers the next; the last part is compiled by the lowering
# thread itself alongside the compile thread. The parts' object code is linked into
# one engine, as `compile_llvm_ir` links the modules it splits. The transformer block's
# 0.11 s of LLVM ran after 0.16 s of lowering; pipelined, most of it runs during it.
PIPELINE_PARTS = 6
PIPELINE_MAX_OPS = 2_500
# While a program is pipelined, the interpreter hands the GIL over every 0.2 ms instead
# of every 5: the compile thread needs it for a moment between its calls into LLVM
# (parse, verify, optimize, emit...), and each time waited up to the whole interval for
# the lowering thread to let go (the first part of the transformer block took 120 ms
# to compile next to the lowering, 48 ms with the shorter interval).
PIPELINE_SWITCH_INTERVAL = 0.0002
_parts: dict[tuple[str, int, int], _Part] = {}  # compiled parts by (text, level, unroll threshold)


def compile_program(xla_module: ModuleOp, times: StageTimes) -> tuple[_NativeModule, str]:
    """Lower an xla module through the pipeline and compile it: its native code and
    LLVM IR text (the parts' texts, one after the other, when pipelined)."""
    from xla_opt.lowering.transforms.outline_loop_nests import split_by_kernels
    from xla_opt.lowering.xla_to_llvm import gc_paused, lower_outlined, lower_through_outlining

    with gc_paused():
        outlined = lower_through_outlining(xla_module, times)
        pipelined = compile_threads() > 1 and sum(1 for _ in outlined.walk()) <= PIPELINE_MAX_OPS
        modules = split_by_kernels(outlined, PIPELINE_PARTS) if pipelined else [outlined]
        if len(modules) == 1:
            text = lower_outlined(outlined, times)
            start = time.perf_counter()
            _bind_symbols(text)
            native = compile_llvm_ir(text, PROGRAM_UNROLL_THRESHOLD, split=True)
            times.record(f"llvm-O{native.opt}+codegen", start)
            return native, text
        return _compile_pipelined(modules, times)


def _bind_symbols(ir_text: str) -> None:
    """Make what the LLVM IR calls resolvable: host callbacks, the micro-kernels (compiled
    on first use) and libgomp with the thread count."""
    from xla_opt.lowering.kernels.runtime import bind_kernel_symbols
    from xla_opt.threads import bind_thread_symbols

    bind_host_symbols(ir_text)
    bind_kernel_symbols(ir_text)
    bind_thread_symbols(ir_text)


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


def _compile_pipelined(modules: list[ModuleOp], times: StageTimes) -> tuple[_NativeModule, str]:
    """Lower `modules` one after the other, each compiled (at O3) on the compile thread
    as soon as it is lowered; the lowering thread compiles what is left once done; at
    the level `opt_level` gives the whole program, recompiled should that not be O3."""
    from xla_opt.lowering.xla_to_llvm import lower_outlined

    _target_machine(3)  # initializes LLVM's target before the thread
    disk = _DiskCache.from_environment()
    pending: queue.SimpleQueue[tuple[int, str] | None] = queue.SimpleQueue()
    compiled: dict[int, _Part] = {}
    errors: list[BaseException] = []

    def compile_one(index: int, text: str, level: int = 3) -> None:
        level = _part_level(text, level)
        key = (text, level, PROGRAM_UNROLL_THRESHOLD)
        try:
            if (part := _parts.get(key)) is None:
                with _unroll.set_to(PROGRAM_UNROLL_THRESHOLD):
                    part = _compile_part(text, level, disk, (level, PROGRAM_UNROLL_THRESHOLD))
                _parts[key] = part
            compiled[index] = part
        except BaseException as e:  # noqa: BLE001 - re-raised on the lowering thread
            errors.append(e)

    def work() -> None:
        while (item := pending.get()) is not None:
            compile_one(*item)

    worker = threading.Thread(target=work, name="xla-opt-compile")
    _short_switch_interval(+1)
    worker.start()
    texts: list[str] = []
    try:
        for index, module in enumerate(modules):
            texts.append(lower_outlined(module, times))
            _bind_symbols(texts[-1])
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
    text = "\n".join(texts)
    key = (text, PROGRAM_UNROLL_THRESHOLD, True)  # compile_llvm_ir's key of a program
    with _lock:
        if (native := _cache.get(key)) is not None:
            times.record(f"llvm-O{native.opt}+codegen", start)
            return native, text
    parts = [compiled[i] for i in range(len(texts))]
    if (level := opt_level(text)) != 3:
        for i, part_text in enumerate(texts):
            compile_one(i, part_text, level)
        if errors:
            raise errors[0]
        parts = [compiled[i] for i in range(len(texts))]
    native = _link(parts, level)
    with _lock:
        native = _cache.setdefault(key, native)
    times.record(f"llvm-O{level}+codegen", start)
    return native, text


@dataclass
class StageTimes:
    """Compile time per pipeline stage, in seconds."""

    stages: dict[str, float] = field(default_factory=dict)

    def record(self, name: str, start: float) -> float:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + now - start
        return now


def _address(array: np.ndarray) -> int:
    """The address of a contiguous array's data: through the buffer protocol (0.6 us)
    where the array exports a writable, non-empty buffer; else numpy's ctypes view (2 us:
    three of them were a quarter of a small call). Read-only arrays, empty ones and
    ml_dtypes' types (no buffer format) take the second way."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError, BufferError):
        return array.ctypes.data


REUSE_MIN_BYTES = 1 << 16  # results at least this large may reuse a dropped one's buffer

# Result buffers of at least ALIGN_MIN_BYTES start on a cache line (numpy's allocator
# gives 16 bytes): a 32-byte vector access at 16 mod 32 straddles two lines every other
# time, which halves the speed of a loop over data in L1 (a while loop updating a 4 KiB
# result 1000 times in place: 82 us at 16 mod 32, 38 us aligned). Aligning costs ~1.8 us
# per result, so small ones keep numpy's allocation.
ALIGNMENT = 64
ALIGN_MIN_BYTES = 1 << 12


def _unreferenced(result: np.ndarray) -> bool:
    """Whether only `_output_buffers` holds a previous result: the `spare` list, its `old`
    and the argument make 3 references. An aligned result is a view of a padded
    allocation, which the caller's views of it have as their `base` instead of the
    result (numpy collapses view chains): that allocation must be the result's alone
    (its `base` attribute, `base` here and the argument)."""
    if sys.getrefcount(result) != 4:  # the three, and this function's parameter
        return False
    base = result.base
    return base is None or sys.getrefcount(base) == 3


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype, count: int) -> np.ndarray:
    """An uninitialized C-contiguous array of `count` elements whose data starts at a
    multiple of ALIGNMENT bytes (a view into a slightly larger allocation)."""
    pad = -(-ALIGNMENT // dtype.itemsize)
    raw = np.empty(count + pad, dtype)
    start = -_address(raw) % ALIGNMENT // dtype.itemsize
    return raw[start : start + count].reshape(shape)


def memory_limit() -> int:
    """The bytes a process may allocate here: the machine's memory, or less under an
    address-space limit (`ulimit -v`)."""
    import resource

    limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return min(limit, soft) if soft != resource.RLIM_INFINITY else limit


def check_buffers_fit(module: ModuleOp, limit: int | None = None) -> None:
    """A value larger than memory (say a 78 GiB splat constant the interpreter keeps as
    a broadcast view) is a located error before compiling: compiled code would have to
    materialize it, and a failed allocation there cannot be reported."""
    from xla_opt.diagnostics import op_diagnostic
    from xla_opt.dialects.xla.element_types import bit_width

    limit = memory_limit() if limit is None else limit
    for op in module.walk():
        for result in op.results:
            t = result.type
            if not isinstance(t, TensorType) or not t.get_shape():
                continue
            size = int(np.prod(t.get_shape(), dtype=object)) * max(1, bit_width(t.get_element_type()) // 8)
            if size > limit:
                raise DiagnosticError(
                    [op_diagnostic(op, f"its result {t} takes {size / 2**30:.1f} GiB, more than the "
                                       f"{limit / 2**30:.1f} GiB this process may allocate")]  # fmt: skip
                )


class JitFunction:
    """A compiled entry function callable on numpy arrays."""

    def __init__(self, xla_module: ModuleOp, entry: str, times: StageTimes | None = None):
        self.entry = entry
        fn = find_function(xla_module, entry)
        self.signature = fn.function_type
        for t in (*self.signature.inputs.data, *self.signature.outputs.data):
            if not isinstance(t, TensorType):
                raise ValueError(
                    f"the jit backend passes tensors across @{entry}'s boundary; got {t}"
                )
        self.out_specs = [
            (tuple(t.get_shape()), numpy_dtype(t.get_element_type()))  # type: ignore[attr-defined]
            for t in self.signature.outputs.data
        ]
        # per result: its shape, dtype and, when it is to be aligned, its element count
        self._out_allocations = [
            (shape, dtype, count if count * dtype.itemsize >= ALIGN_MIN_BYTES else 0)
            for shape, dtype in self.out_specs
            for count in [int(np.prod(shape, dtype=np.int64))]
        ]
        self.times = times or StageTimes()
        try:
            check_buffers_fit(xla_module)
            self.native, self.llvm_ir = compile_program(xla_module, self.times)
        except DiagnosticError as e:
            raise NotImplementedError(f"the jit backend cannot compile @{entry}:\n{e}") from None
        self.calls_host = bool(_DECLARED_HOST_SYMBOL.search(self.llvm_ir))
        self._spare: list[np.ndarray | None] = []  # the last results, for _output_buffers
        self._spare_lock = threading.Lock()
        n_args = len(self.signature.inputs.data) + len(self.out_specs)
        self._cfunc = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * n_args))(self.native.address(entry))

    def __call__(self, *arrays: Any) -> list[np.ndarray]:
        return self.call_checked(check_inputs_against(self.signature, arrays, self.entry))

    def call_checked(self, inputs: list[np.ndarray], context: Any = None) -> list[np.ndarray]:
        """Run on inputs already checked against the signature. `context` (a one-replica
        ReplicaContext) holds the host queues and channels the program's host calls
        use; a fresh one by default."""
        inputs = [np.ascontiguousarray(a) for a in inputs]
        outputs = self._output_buffers()
        pointers = [*map(_address, inputs), *map(_address, outputs)]
        if self.calls_host:
            run_with_host(self._cfunc, pointers, context)
        else:
            self._cfunc(*pointers)
        with self._spare_lock:
            self._spare = [o if o.nbytes >= REUSE_MIN_BYTES else None for o in outputs]
        return outputs

    def _output_buffers(self) -> list[np.ndarray]:
        """Fresh result arrays, except that a large result of the previous call that
        nothing references any more (its refcount is ours alone: no variable, view or
        container of the caller's holds it) is handed out again. A fresh large numpy
        array is new mmapped memory whose every page faults on first write (a 16 MiB
        result: ~1 ms of a 4 ms call), which XLA avoids by reusing its buffers too."""
        with self._spare_lock:
            spare, self._spare = self._spare, []
        outputs = []
        for i, (shape, dtype, count) in enumerate(self._out_allocations):
            old = spare[i] if i < len(spare) else None
            if old is not None and _unreferenced(old):
                outputs.append(old)
            else:
                outputs.append(aligned_empty(shape, dtype, count) if count else np.empty(shape, dtype))
            old = None
        return outputs


# --------------------------------------------------------------------------------------
# Host calls (lowering/conversions/convert_xla_to_linalg/host_calls.py): callbacks into Python for the ops
# that need the host, and native custom-call targets
# --------------------------------------------------------------------------------------

_DECLARED_HOST_SYMBOL = re.compile(r'declare [^@\n]*@"?(__xla_(?:host|native)_\d+_\w+)"?\(')
# symbol -> what its address belongs to (a ctypes callback, a compiled wrapper), kept alive
_bound: dict[str, Any] = {}
_current = threading.local()


def bind_host_symbols(ir_text: str) -> bool:
    """Make every host-call symbol the LLVM IR declares resolvable by the JIT (before it
    compiles the module); returns whether there is any. A custom-call target that is
    neither registered in Python (lowered as a host call) nor a native symbol is a
    LookupError here, at compile time."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg.host_calls import HOST_SYMBOL, host_call

    symbols = sorted(set(_DECLARED_HOST_SYMBOL.findall(ir_text)))
    for symbol in symbols:
        with _lock:
            if symbol in _bound:
                continue
        kind, number, _ = HOST_SYMBOL.fullmatch(symbol).groups()  # type: ignore[union-attr]
        call = host_call(int(number))
        if kind == "host":
            target = _host_callback(call)
            address = ctypes.cast(target, ctypes.c_void_p).value
        else:
            target = _native_custom_call(call)
            address = target.address(_WRAPPER)
        with _lock:
            _bound.setdefault(symbol, target)
        llvm.add_symbol(symbol, address)
    return bool(symbols)


@dataclass
class _HostRun:
    """One run of compiled code that calls the host: the queues and channels it uses
    and the first error a callback raised."""

    context: Any
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)


def run_with_host(cfunc: Any, pointers: list[int], context: Any) -> None:
    """Call `cfunc` on a worker thread whose host calls see `context`; re-raise here
    the first error of a callback. A callback cannot unwind the native code that called
    it, so after an error the worker is left waiting for ever (a daemon thread: its
    buffers are not touched again) instead of running on with unfilled results."""
    from xla_opt.interpreter.replicas import ReplicaContext

    run = _HostRun(context if context is not None else ReplicaContext(1))

    def work() -> None:
        _current.run = run
        cfunc(*pointers)
        run.done.set()

    threading.Thread(target=work, name="xla-jit-host", daemon=True).start()
    run.done.wait()
    if run.error is not None:
        raise run.error


def _host_callback(call: HostCall) -> Any:
    """A C function `void(void* buffer, ...)`: the operands then the results of `call`."""
    from xla_opt.dialects.xla.element_types import elem_of, shape_of

    types = [*call.operand_types, *call.result_types]
    specs = [(tuple(shape_of(t)), numpy_dtype(elem_of(t))) for t in types]
    n_operands = len(call.operand_types)
    handler = _HOST_HANDLERS[call.kind]

    def callback(*addresses: int | None) -> None:
        run: _HostRun = _current.run
        try:
            arrays = [_buffer(a, shape, dtype) for a, (shape, dtype) in zip(addresses, specs, strict=True)]
            handler(call, run.context, arrays[:n_operands], arrays[n_operands:])
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            run.error = e
            run.done.set()
            threading.Event().wait()  # never returns into the native code

    return ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * len(specs)))(callback)


def _buffer(address: int | None, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """The buffer at `address` as a writable array (no copy)."""
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if size == 0 or not address:
        return np.empty(shape, dtype)
    return np.frombuffer((ctypes.c_char * size).from_address(address), dtype).reshape(shape)


def _fill(results: list[np.ndarray], values: list[Any], types: tuple, what: str, where: str) -> None:
    """Check each received value against its declared type and write it."""
    from xla_opt.interpreter.dtypes import check_value
    from xla_opt.interpreter.replicas import ReplicaError

    if len(values) != len(types):
        raise ReplicaError(f"{where}: {what} has {len(values)} arrays, the op reads {len(types)}")
    try:
        for i, (out, value, t) in enumerate(zip(results, values, types)):
            np.copyto(out, check_value(value, t, f"{what}, array #{i}"))
    except ValueError as e:
        raise ReplicaError(f"{where}: {e}") from None


def _infeed(call: HostCall, context: Any, operands: list, results: list) -> None:
    from xla_opt.interpreter.replicas import ReplicaError

    queue = context.infeed[0]
    if not queue:
        raise ReplicaError(f"{call.where}: the infeed queue of replica 0 is empty")
    element = queue.popleft()
    element = list(element) if isinstance(element, tuple | list) else [element]
    _fill(results, element, call.result_types, "infeed element of replica 0", call.where)


def _outfeed(call: HostCall, context: Any, operands: list, results: list) -> None:
    context.outfeed[0].append(tuple(a.copy() for a in operands))


def _send(call: HostCall, context: Any, operands: list, results: list) -> None:
    data = tuple(a.copy() for a in operands)
    if call.host_transfer:
        with context.lock:
            context.device_to_host[call.channel].append((0, data))
    else:
        context.rendezvous.send(0, call.channel, data)


def _recv(call: HostCall, context: Any, operands: list, results: list) -> None:
    from xla_opt.interpreter.replicas import ReplicaError

    if call.host_transfer:
        with context.lock:
            queue = context.host_to_device[call.channel]
            if not queue:
                raise ReplicaError(f"{call.where}: the host has no data for channel {call.channel}")
            data = queue.popleft()
        sender = "the host"
        data = list(data) if isinstance(data, tuple | list) else [data]
    else:
        sender_id, data = context.rendezvous.recv(0, call.channel, call.where)
        sender = f"replica {sender_id}"
    _fill(results, list(data), call.result_types, f"received on channel {call.channel} (sent by {sender})", call.where)


def _custom_call(call: HostCall, context: Any, operands: list, results: list) -> None:
    """The interpreter's custom_call (the oracle) on the operand buffers."""
    from xla_opt.interpreter.custom_call import custom_call

    for out, value in zip(results, custom_call(_CustomCallSite(call), operands), strict=True):
        np.copyto(out, value)


@dataclass
class _CustomCallSite:
    """What the interpreter's custom_call reads of the op: its target and result types."""

    call: HostCall

    @property
    def call_target_name(self) -> Any:
        from xdsl.dialects.builtin import StringAttr

        return StringAttr(self.call.target)

    @property
    def results(self) -> list[Any]:
        return [_Typed(t) for t in self.call.result_types]


@dataclass
class _Typed:
    type: Any


_HOST_HANDLERS = {"infeed": _infeed, "outfeed": _outfeed, "send": _send, "recv": _recv, "custom_call": _custom_call}

# The native wrapper of a custom-call target: the JIT's convention (one pointer per
# operand, then per result) to XLA's CPU custom-call convention (API version 1):
# `void target(void* out, const void** in)`, `in` the array of operand pointers, `out`
# the result buffer when there is one result, else the array of result pointers.
_WRAPPER = "__xla_custom_call_v1"


def _native_custom_call(call: HostCall) -> _NativeModule:
    """A compiled wrapper calling the native symbol `call.target` (LookupError if the
    JIT cannot resolve it)."""
    from xla_opt.interpreter.custom_call import registered_custom_calls

    compile_llvm_ir("define void @__xla_process_symbols() {\n  ret void\n}\n")  # the process's symbols resolve
    if llvm.address_of_symbol(call.target) is None:
        known = ", ".join(registered_custom_calls()) or "none"
        raise LookupError(
            f'{call.where}: custom_call target "{call.target}" is neither registered in Python '
            f"(registered: {known}; xla_opt.register_custom_call(name, fn)) nor a native symbol "
            "the JIT can resolve (llvmlite.binding.load_library_permanently / add_symbol)"
        )
    n_in, n_out = len(call.operand_types), len(call.result_types)
    params = [f"ptr %in{i}" for i in range(n_in)] + [f"ptr %out{i}" for i in range(n_out)]
    # the target as a quoted LLVM name (any string: `$`, `.`, spaces, quotes as \XX escapes)
    target = '@"' + "".join(c if c.isalnum() or c in "_$.-" else f"\\{ord(c):02X}" for c in call.target) + '"'
    lines = [f"declare void {target}(ptr, ptr)", f"define void @{_WRAPPER}({', '.join(params)}) {{"]

    def pointer_array(name: str, prefix: str, n: int) -> None:
        lines.append(f"  %{name} = alloca [{max(n, 1)} x ptr]")
        for i in range(n):
            lines.append(f"  %{name}{i} = getelementptr [{n} x ptr], ptr %{name}, i64 0, i64 {i}")
            lines.append(f"  store ptr %{prefix}{i}, ptr %{name}{i}")

    pointer_array("ins", "in", n_in)
    if n_out == 1:
        out = "%out0"
    else:
        pointer_array("outs", "out", n_out)
        out = "%outs"
    lines += [f"  call void {target}(ptr {out}, ptr %ins)", "  ret void", "}", ""]
    return compile_llvm_ir("\n".join(lines))


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _parts.clear()


