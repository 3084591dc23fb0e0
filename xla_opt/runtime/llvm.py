"""LLVM IR to native code: llvmlite compiles a module for the host CPU (all its
features; LLVM's O3 pipeline for modules of ordinary size, see `opt_level`), split
into parts compiled on several threads for a program's kernels (`split_llvm_ir`, XLA's
parallel codegen), linked into one execution engine. Compiled code is cached by its
LLVM IR within the process (the most recently used PROGRAM_CACHE_SIZE programs, a
setting: `ProgramCache`), and as object code on disk across processes
(disk_cache.py)."""

from __future__ import annotations

import ctypes
import functools
import os
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

import llvmlite.binding as llvm

from xla_opt.runtime.cpu import cpu_features, cpu_name, initialize_llvm, num_threads
from xla_opt.runtime.disk_cache import DiskCache

_lock = threading.Lock()

# The in-process cache of compiled programs keeps the most recently used ones: at most
# this many (`XLA_OPT_PROGRAM_CACHE_SIZE`, or `xla_opt.set_program_cache_size(n)`; 0
# keeps none). A program takes ~0.2 MB (its execution engine, object code and
# optimized LLVM modules); an unbounded cache grew a process compiling distinct
# programs (a service, a parameter sweep, a fuzzing campaign) without end. An evicted
# program is freed once nothing else holds it: a compiled function holds its own, and
# keeps working; compiling its program again recompiles it (or loads its object code
# from the disk cache).
PROGRAM_CACHE_SIZE = 64


def _size_from_environment() -> int:
    value = os.environ.get("XLA_OPT_PROGRAM_CACHE_SIZE", "")
    try:
        size = int(value) if value.strip() else PROGRAM_CACHE_SIZE
    except ValueError:
        raise ValueError(f"XLA_OPT_PROGRAM_CACHE_SIZE must be a non-negative integer, got {value!r}") from None
    if size < 0:
        raise ValueError(f"XLA_OPT_PROGRAM_CACHE_SIZE must be a non-negative integer, got {value!r}")
    return size


class ProgramCache:
    """A bounded mapping, least recently used first out: compiled programs by
    (LLVM IR, unroll threshold, split), or compiled parts. Its capacity is
    `scale` times the program cache size (a setting read on first use)."""

    def __init__(self, scale: int = 1) -> None:
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._scale = scale
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def setdefault(self, key: Hashable, value: Any) -> Any:
        """The value kept under `key` (now the most recently used), `value` if none was."""
        with self._lock:
            kept = self._entries.setdefault(key, value)
            self._entries.move_to_end(key)
            self._evict()
            return kept

    def _evict(self) -> None:
        capacity = get_program_cache_size() * self._scale
        while len(self._entries) > capacity:
            self._entries.popitem(last=False)  # freed with its last reference

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[Hashable]:
        """The keys, least recently used first (a snapshot)."""
        with self._lock:
            return iter(list(self._entries))

    def trim(self) -> None:
        with self._lock:
            self._evict()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_cache = ProgramCache()  # programs by (LLVM IR, unroll threshold, split)
_caches: list[ProgramCache] = [_cache]  # every cache the size bounds (program.py adds its parts')
_size: dict[str, int] = {}  # "programs": the setting, once read or set


def get_program_cache_size() -> int:
    """How many compiled programs the process keeps (see PROGRAM_CACHE_SIZE)."""
    if "programs" not in _size:
        _size["programs"] = _size_from_environment()
    return _size["programs"]


def set_program_cache_size(n: int) -> None:
    """Keep at most `n` compiled programs in the process (0: none), the least recently
    used ones evicted first, now and from then on (overrides
    XLA_OPT_PROGRAM_CACHE_SIZE)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"the program cache size must be a non-negative integer, got {n!r}")
    _size["programs"] = n
    for cache in _caches:
        cache.trim()


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
    total = sum(size + sum(own[c] for c in callees[f] if c in always) for f, size in own.items() if f not in always)
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


def target_machine(opt: int = 3) -> llvm.TargetMachine:
    """A new TargetMachine for the host CPU (all its features, code generation at
    optimization level `opt`).

    Each execution engine gets its own: `create_mcjit_compiler` takes ownership of the
    TargetMachine it is given and frees it with the engine, so a shared one would be
    used after free once any engine is gone (e.g. after `clear_cache()`)."""
    initialize_llvm()
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=cpu_name(),
        features=cpu_features(),
        opt=opt,
        jit=True,
    )


@dataclass
class NativeModule:
    engine: Any
    parts: list[Part]  # what its object code was compiled from (kept: they own their modules)
    opt: int = 3
    from_disk: bool = False  # loaded from the on-disk cache
    addresses: dict[str, int] = field(default_factory=dict)

    @property
    def llvm_modules(self) -> list[Any]:
        """The optimized modules its object code was compiled from."""
        return [part.module for part in self.parts]

    @property
    def optimized_ir(self) -> str:
        """The optimized LLVM IR, printed on demand (10-30 ms for a JAX program, which
        compiling does not need)."""
        return "\n".join(str(m) for m in self.llvm_modules)

    def address(self, name: str) -> int:
        if name not in self.addresses:
            self.addresses[name] = self.engine.get_function_address(name)
        return self.addresses[name]


def _unresolved_declarations(modules: list[llvm.ModuleRef]) -> list[str]:
    """Functions the modules declare that nothing provides: not defined by one of them,
    not an LLVM intrinsic, not registered with the JIT (`llvm.add_symbol`, a library
    loaded permanently) and not in the process (libc, libm). MCJIT would bind such a
    call to address 0."""
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
_SYMBOL = re.compile(r'@("[^"]*"|[\w.$]+)')
_NOINLINE = re.compile(r"\)[^{]*\bnoinline\b")  # the attribute, after a define line's parameters
# globals that every part may hold its own copy of: read-only internal data, declarations
_COPYABLE_GLOBAL = re.compile(
    r"@\S+ = (?:(?:internal|private) (?:unnamed_addr )?constant|external (?:global|constant)) "
)


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
    external functions dealt out by size (with the internal functions each reaches:
    largest first, to the smallest part), each declared in the other parts; an internal
    `noinline` function (a library's micro-kernel, packing, FFT step) dealt out as an
    external one is, made hidden (LLVM optimizes it alone whichever module holds it);
    any other internal function (the alwaysinline math, an omp region's body) in every
    part whose functions reach it, and everything outside functions (globals,
    declarations) in every part. One part (`[ir_text]`) when the module is small, has
    fewer than two external functions, or has a global that is not read-only internal
    data (two copies would be two variables)."""
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
    for f in functions:
        if f.internal and _NOINLINE.search(f.lines[0]):  # a unit of its own, visible to the other parts
            f.internal = False
            f.lines[0] = (
                f.lines[0]
                .replace("define internal ", "define hidden ", 1)
                .replace("define private ", "define hidden ", 1)
            )
    internal = {f.name: f for f in functions if f.internal}

    def reached(lines: list[str]) -> set[str]:
        """The internal functions `lines` name, and those they name in turn."""
        found: set[str] = set()
        todo = [lines]
        while todo:
            for name in _SYMBOL.findall("\n".join(todo.pop())):
                if name in internal and name not in found:
                    found.add(name)
                    todo.append(internal[name].lines[1:])
        return found

    everywhere = reached(header)
    external = [f for f in functions if not f.internal]
    reach = {f.name: reached(f.lines[1:]) - everywhere for f in external}
    size = {f.name: f.instructions + sum(internal[g].instructions for g in reach[f.name]) for f in external}
    external.sort(key=lambda f: -size[f.name])
    total = sum(size.values())
    parts = min(parts, len(external))
    if parts < 2 or total < SPLIT_MIN_INSTRUCTIONS:
        return [ir_text]
    owner: dict[str, int] = {}
    sizes = [0] * parts
    needed: list[set[str]] = [set(everywhere) for _ in range(parts)]
    for f in external:
        k = sizes.index(min(sizes))
        owner[f.name] = k
        sizes[k] += size[f.name]
        needed[k] |= reach[f.name]
    texts = []
    for k in range(parts):
        lines = list(header)
        for f in functions:
            if f.name in needed[k] or owner.get(f.name) == k:
                lines.extend(f.lines)
            elif not f.internal:
                lines.append(f.declaration())
        texts.append("\n".join(lines) + "\n")
    return texts


def compile_threads() -> int:
    """Threads for code generation: the JIT's thread count (XLA_OPT_NUM_THREADS, else
    the CPUs of the process's affinity mask)."""
    return num_threads()


def _unlocked(name: str) -> Any:
    """llvmlite's C-API function `name` without llvmlite's lock. llvmlite serializes
    every call into LLVM behind one process-wide lock; LLVM itself lets threads work at
    the same time on modules of different LLVMContexts (each with its own
    TargetMachine and PassBuilder), which is all `compile_part` does between taking
    its module and handing back object code. Falls back to the locked call should
    llvmlite's wrapper change (correct, only serial)."""
    wrapper = getattr(llvm.ffi.lib, name)
    return getattr(wrapper, "_cfn", wrapper)


@dataclass
class Part:
    module: Any  # the optimized llvmlite module (in an LLVMContext of its own: `_own`)
    code: bytes  # its object code
    from_disk: bool


# Each part's module and context, disposed in that order when the part is gone (whatever
# uses the module holds the part: a NativeModule its parts). llvmlite
# leaves the order to Python: a module in a reference cycle (a user's object holding a
# compiled function that refers back to it) is collected with its context, and the
# collector may dispose the context first, which frees the module, then the module
# again: a segfault (tests/test_jit_llvm_workarounds.py). Held here, neither is ever
# cyclic garbage; the part's finalizer disposes them, module first.
_owned: dict[int, tuple[Any, Any]] = {}
_owned_lock = threading.Lock()


def _own(part: Part, context: Any) -> Part:
    key = id(part.module)
    with _owned_lock:
        _owned[key] = (part.module, context)
    weakref.finalize(part, _dispose_owned, key)
    return part


def _dispose_owned(key: int) -> None:
    with _owned_lock:
        module, context = _owned.pop(key)
    module.close()
    context.close()


def compile_part(
    text: str, level: int, disk: DiskCache | None, cache_key: tuple, vectorize: bool | None = None
) -> Part:
    """Parse, verify, optimize and compile one module to object code in a context of
    its own (run on a compile thread); object code from the disk cache when it has it.
    `vectorize`: whether LLVM's loop and SLP vectorizers run (by default from O2 up)."""
    context = llvm.create_context()
    mod = llvm.parse_assembly(text, context=context)
    try:
        return _own(Part(mod, *_object_code(mod, text, level, disk, cache_key, vectorize)), context)
    except BaseException:
        mod.close()  # before its context, whatever holds the failure's frames
        context.close()
        raise


def _object_code(
    mod: Any, text: str, level: int, disk: DiskCache | None, cache_key: tuple, vectorize: bool | None
) -> tuple[bytes, bool]:
    """`compile_part`'s object code of `mod` (parsed from `text`) and whether it came
    from the disk cache."""
    tm = target_machine(level)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    mod.verify()
    path = disk.path(text, *cache_key) if disk else None
    if disk and path and (code := disk.load(path)) is not None:
        return code, True
    if level > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=level)
        pto.loop_vectorization = pto.slp_vectorization = level >= 2 if vectorize is None else vectorize
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
    return code, False


def part_level(text: str, level: int) -> int:
    """The level a module is compiled at within a program compiled at `level`: O0
    when it is straight-line."""
    return 0 if straight_line(text) else level


def _compile_part_at(
    text: str, level: int, disk: DiskCache | None, unroll_threshold: int, vectorize: bool | None = None
) -> Part:
    """`compile_part` at `part_level`."""
    level = part_level(text, level)
    key = (level, unroll_threshold) + (() if vectorize is None else (vectorize,))
    return compile_part(text, level, disk, key, vectorize)


def in_parallel(jobs: list[Any]) -> list[Any]:
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


class SharedJobs:
    """Callables run by whichever threads help, each by the first to take it: a
    library's parts (`compile_library`). The thread compiling the library takes them
    one at a time, so that beside the lowering it keeps to one CPU; a thread that comes
    to wait for the library takes the parts nobody has started, so that once the
    lowering is done waiting, both CPUs compile."""

    def __init__(self, jobs: list[Any]) -> None:
        self._jobs = jobs
        self._results: list[Any] = [None] * len(jobs)
        self._errors: list[BaseException] = []
        self._taken = 0
        self._left = len(jobs)
        self._changed = threading.Condition()

    def help(self) -> None:
        """Run the jobs nobody has taken, until none is left."""
        while True:
            with self._changed:
                if self._taken == len(self._jobs):
                    return
                index = self._taken
                self._taken += 1
            try:
                result, error = self._jobs[index](), None
            except BaseException as e:  # noqa: BLE001 - raised by results(), to whoever waits
                result, error = None, e
            with self._changed:
                self._results[index] = result
                if error is not None:
                    self._errors.append(error)
                self._left -= 1
                self._changed.notify_all()

    def results(self) -> list[Any]:
        """Every job's result in order once all are done (helping meanwhile), or the
        first error one raised."""
        self.help()
        with self._changed:
            self._changed.wait_for(lambda: self._left == 0)
        if self._errors:
            raise self._errors[0]
        return list(self._results)


# A kernel library compiled on two CPUs or more is split (`split_llvm_ir`: its noinline
# functions dealt out) into a part per LIBRARY_PART_LINES lines of LLVM IR, at most
# LIBRARY_PARTS, compiled as `SharedJobs`, the largest first. Each part repeats the
# module's declarations and constants and costs a context and a target machine of its
# own (~10 ms): the f32 GEMMs' 2,485 lines compile in 0.35 s as one module or two, in
# 0.42-0.46 s as four. The FFTs' 7,421 lines (1.0 s as one module) in four parts: a
# fresh process compiling an FFT filter (empty disk cache) finished lowering at 0.99 s
# and took the last part while the library's thread compiled the third: 1.34 s where
# it waited until 1.57 s for the whole module.
LIBRARY_PARTS = 4
LIBRARY_PART_LINES = 1200


def compile_library(
    ir_text: str, level: int | None, vectorize: bool | None, started: Callable[[SharedJobs], None]
) -> NativeModule:
    """A kernel library's LLVM IR compiled (at `level`, by default `opt_level`'s; the
    vectorizers as `vectorize` says, by default from O2 up) into an engine of its own:
    on two compile threads or more, in parts (LIBRARY_PART_LINES) that the calling thread
    compiles one after the other, and that any thread `started` hands them to helps
    with (a thread that waits for the library). Each part's object code is in the disk
    cache by its text."""
    parts = min(LIBRARY_PARTS, ir_text.count("\n") // LIBRARY_PART_LINES) if compile_threads() > 1 else 1

    def shared(jobs: list[Any]) -> list[Part]:
        started(work := SharedJobs(jobs))
        return work.results()

    return _compile(ir_text, LLVM_UNROLL_THRESHOLD, parts, level, vectorize, shared)


def compile_llvm_ir(
    ir_text: str,
    unroll_threshold: int = LLVM_UNROLL_THRESHOLD,
    split: bool = False,
    level: int | None = None,
    vectorize: bool | None = None,
) -> NativeModule:
    """Parse, verify, optimize (at `level`, by default `opt_level`'s; host CPU, loops
    unrolled up to `unroll_threshold`, the vectorizers run with `vectorize`, by default
    from O2 up) and JIT-compile LLVM IR; with `split` (a
    program's kernels), as modules compiled on `compile_threads()` threads
    (`split_llvm_ir`) and linked into one engine (the kernel libraries:
    `compile_library`). Cached by text in the process and as object code on disk
    (`DiskCache`): a hit skips optimization and code generation. Compiles of different
    texts run at once (a library prefetched on its thread beside a program's compile);
    a compile of a text already under way is waited for, not repeated."""
    chosen = () if level is None and vectorize is None else (level, vectorize)
    key: tuple = (ir_text, unroll_threshold, split, *chosen)
    with _lock:
        if (cached := _cache.get(key)) is not None:
            return cached
        pending = _compiling.get(key)
        mine = pending is None
        if pending is None:
            pending = _compiling[key] = Future()
    if not mine:
        return pending.result()
    try:
        parts = compile_threads() if split else 1
        native = _cache.setdefault(key, _compile(ir_text, unroll_threshold, parts, level, vectorize))
    except BaseException as e:
        pending.set_exception(e)
        raise
    else:
        pending.set_result(native)
        return native
    finally:
        with _lock:
            del _compiling[key]


# compiles under way, by `compile_llvm_ir`'s key: whoever asks for one waits for it
_compiling: dict[tuple, Future] = {}


def _compile(
    ir_text: str,
    unroll_threshold: int,
    parts: int,
    level: int | None,
    vectorize: bool | None,
    run: Callable[[list[Any]], list[Part]] = in_parallel,
) -> NativeModule:
    """`compile_llvm_ir`'s and `compile_library`'s compile, without caches: `ir_text`
    in at most `parts` modules (`split_llvm_ir`; one below O1), each compiled by a job
    that `run` runs (`in_parallel`: on threads of their own), linked into one engine."""
    level = opt_level(ir_text) if level is None else level
    target_machine(level)  # initializes LLVM's target before any thread
    disk = DiskCache.from_environment()
    texts = split_llvm_ir(ir_text, parts if level > 0 else 1)

    def compile_one(text: str) -> Part:
        with unroll_gate.set_to(unroll_threshold) if level >= 2 else nullcontext():
            return _compile_part_at(text, level, disk, unroll_threshold, vectorize)

    return link(run([functools.partial(compile_one, text) for text in texts]), level)


def link(parts: list[Part], level: int) -> NativeModule:
    """One execution engine running the object code of `parts`; a LookupError when they
    call a function nothing provides."""
    if missing := _unresolved_declarations([p.module for p in parts]):
        raise LookupError(
            f"the program calls {', '.join(missing)}, which the JIT cannot resolve (register it "
            "with llvmlite.binding.add_symbol or load its library with load_library_permanently)"
        )
    tm = target_machine(level)
    host = llvm.parse_assembly("")
    host.triple = tm.triple
    host.data_layout = str(tm.target_data)
    engine = llvm.create_mcjit_compiler(host, tm)
    for part in parts:
        engine.add_object_file(llvm.ObjectFileRef.from_data(part.code))
    engine.finalize_object()
    return NativeModule(engine, list(parts), level, from_disk=all(p.from_disk for p in parts))


class _UnrollGate:
    """LLVM's `-unroll-threshold-aggressive` is one process-wide option, read while a
    module is optimized: compiles that want the same value run together, one that wants
    another value waits until they are done (and they for it). A program's modules are
    compiled at PROGRAM_UNROLL_THRESHOLD, the micro-kernel libraries at LLVM's default,
    and a library can be compiled on first use while a program's parts are compiling.
    Below O2 nothing reads the option (LLVM unrolls only at O2 and up: the pipeline
    tuning options in `compile_part`), so those compiles do not pass the gate: the f32
    GEMM library, compiled at O1 for its size, compiles beside a program's parts."""

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


unroll_gate = _UnrollGate()


def cached_program(key: tuple[str, int, bool]) -> NativeModule | None:
    """A program compiled before, by `compile_llvm_ir`'s key (LLVM IR, unroll threshold, split)."""
    return _cache.get(key)


def remember_program(key: tuple[str, int, bool], native: NativeModule) -> NativeModule:
    """Keep `native` under `compile_llvm_ir`'s key; the one kept first if there is one."""
    return _cache.setdefault(key, native)


def clear_cache() -> None:
    """Forget every module compiled in this process and whatever else the caches that
    registered in `_caches` keep (program.py's parts, executable_cache.py's lowered
    programs); the disk cache stays, and what a compiled function or a library holds
    stays alive with it."""
    with _lock:
        for cache in _caches:
            cache.clear()
