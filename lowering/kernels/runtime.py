"""The micro-kernel library at run time: its LLVM IR compiled once per process (llvmlite,
O3, host CPU, in an execution engine of its own) on first use, and its entries' symbols
made resolvable for the lowered modules that only declare them (`llvm.add_symbol`).
The library is three modules, each compiled when a program first calls one of its
entries (so an f32 program does not wait for the f64 code): the f32 GEMM and the
convolution, the f64 GEMM, and the f16/bf16-operand GEMMs. The radix sorts (a module
per variant) and the non-temporal stores (`stream.py`) load the same way.

The kernels run on `num_threads()` threads through libgomp when it is on the machine
(loaded permanently, with OMP_WAIT_POLICY=passive unless set: on a busy machine
spinning idle threads steal the cores the team needs, and then GOMP_SPINCOUNT=1000
unless set, see SPIN_COUNT); without it, on one."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import threading
from typing import Any

from xla_opt.lowering.kernels.stream import SYMBOLS as STREAM_SYMBOLS

_lock = threading.Lock()
_libraries: dict[str, Any] = {}  # the compiled modules, kept alive: the symbols point into them


def kernel_shape(element=None, wide: bool = True):
    """The micro-kernel shape for the host CPU's features and an element type (`gemm.F32`
    by default, `gemm.F64` or `gemm.I32`); without `wide`, of vectors of at most 256 bits."""
    import llvmlite.binding as llvm
    from xla_opt.lowering.kernels.gemm import F32, shape_for

    llvm.initialize_native_target()
    return shape_for(llvm.get_host_cpu_features().flatten(), element or F32, wide)


def num_threads() -> int:
    """XLA_OPT_NUM_THREADS if it is a positive integer, else the CPUs this process may
    run on."""
    value = os.environ.get("XLA_OPT_NUM_THREADS", "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    return len(os.sched_getaffinity(0))


# How long (in libgomp's spin iterations, ~10-20 us here) a thread that finished a
# parallel region or reached a barrier spins before it sleeps, when the wait policy is
# ours (passive, where libgomp's own count is 0). A sleeping thread costs the next
# region a futex wake-up, ~50 us on the 2-core VM: a call made of several short regions
# paid it each time, so two threads were slower than one (max pooling 8x56x56x64: 0.17
# ms on two, 0.14 on one; with 1000 spins 0.077 ms, the same as with 10,000 or libgomp's
# active policy; reduce_sum 0.16 -> 0.10 ms, gather 1.10 -> 0.60 ms). 1000 spins keep
# what passive is for: an idle team sleeps within microseconds.
SPIN_COUNT = 1000


_pinned: list[ctypes.CDLL] = []  # libgomp, opened with RTLD_NODELETE (see _load_gomp)


def _load_gomp() -> bool:
    """Load libgomp for the JIT; whether its entry points resolve. libgomp reads its
    environment when it loads: the wait policy passive and SPIN_COUNT unless the user
    set them."""
    import llvmlite.binding as llvm

    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ["OMP_WAIT_POLICY"] = "passive"
        os.environ.setdefault("GOMP_SPINCOUNT", str(SPIN_COUNT))
    name = ctypes.util.find_library("gomp") or "libgomp.so.1"
    try:
        # Never unloaded: at exit llvmlite dlcloses the libraries it loaded, and a team
        # thread still spinning in libgomp (the active wait policy, or within its spin
        # count) then ran unmapped code: a segmentation fault after the program's last
        # line (`OMP_WAIT_POLICY=active`, every run).
        _pinned.append(ctypes.CDLL(name, mode=os.RTLD_NOW | os.RTLD_GLOBAL | os.RTLD_NODELETE))
        llvm.load_library_permanently(name)
    except (OSError, RuntimeError):
        return False
    return all(llvm.address_of_symbol(s) for s in ("GOMP_parallel", "omp_get_thread_num", "omp_get_num_threads"))


def set_num_threads(n: int) -> None:
    """The thread count of the kernels and of every parallel loop from the next call on
    (one setting, xla_opt/threads.py; always 1 without libgomp)."""
    from xla_opt.threads import set_num_threads as set_count

    set_count(n)


def _modules() -> dict[str, list]:
    """The library's modules by name, each a list of entries (gemm.Entry)."""
    from xla_opt.lowering.kernels.conv import SCONV
    from xla_opt.lowering.kernels.gemm import BGEMM, DGEMM, HGEMM, IGEMM, SGEMM, SGEMM_NARROW

    return {"f32": [SGEMM, SGEMM_NARROW, SCONV], "f64": [DGEMM], "f16/bf16": [HGEMM, BGEMM], "i32": [IGEMM]}


def load_kernels(module: str = "f32") -> Any:
    """Compile one module of the library (once per process) and register its entry
    symbols."""
    with _lock:
        if module not in _libraries:
            import llvmlite.binding as llvm
            from xla_opt.lowering.kernels.gemm import F32, F64, I32, library_ir

            from xla_opt.jit import compile_llvm_ir
            from xla_opt.threads import load as load_threads

            parallel = load_threads()  # libgomp, and the thread count the library calls
            entries = _modules()[module]
            shapes = [kernel_shape(F32), kernel_shape(F32, wide=False), kernel_shape(F64), kernel_shape(I32)]
            library = compile_llvm_ir(library_ir(shapes, entries, parallel))
            for entry in entries:
                llvm.add_symbol(entry.symbol, library.address(entry.symbol))
            _libraries[module] = library
        return _libraries[module]


_sort_kernels: dict[str, Any] = {}  # variant symbol -> its compiled module, kept alive
_SORT_CALL = re.compile(r'@"?((xla_opt_sort_\w+?)__\w+)"?\(')


def load_sort_kernel(symbol: str) -> Any:
    """Compile the radix-sort kernel `symbol` names (lowering/kernels/sort.py), once per
    process."""
    with _lock:
        if symbol not in _sort_kernels:
            from xla_opt.lowering.kernels.sort import SortVariant, sort_ir

            from xla_opt.jit import compile_llvm_ir
            from xla_opt.threads import load as load_threads

            parallel = load_threads()
            _sort_kernels[symbol] = compile_llvm_ir(sort_ir(SortVariant.from_symbol(symbol), parallel))
        return _sort_kernels[symbol]


_stream_kernels: list[Any] = []  # the compiled stream module, kept alive


def load_stream_kernels() -> Any:
    """Compile the non-temporal store kernels (lowering/kernels/stream.py) once per
    process and register their symbols."""
    with _lock:
        if not _stream_kernels:
            import llvmlite.binding as llvm
            from xla_opt.lowering.kernels.stream import STREAM_IR

            from xla_opt.jit import compile_llvm_ir

            library = compile_llvm_ir(STREAM_IR)
            for symbol in STREAM_SYMBOLS:
                llvm.add_symbol(symbol, library.address(symbol))
            _stream_kernels.append(library)
        return _stream_kernels[0]


def bind_kernel_symbols(ir_text: str) -> bool:
    """Load the library if the LLVM IR `ir_text` declares one of its symbols, and bind
    each radix-sort call (`xla_opt_sort_<variant>__<type>`, a name per signature) to
    its variant's kernel (before the JIT compiles it); returns whether it calls any."""
    import llvmlite.binding as llvm

    sorts = dict(match.groups() for match in _SORT_CALL.finditer(ir_text))
    for name, symbol in sorts.items():
        llvm.add_symbol(name, load_sort_kernel(symbol).address(symbol))
    calls = False
    if re.search(rf'@"?({"|".join(STREAM_SYMBOLS)})"?\(', ir_text):
        load_stream_kernels()
        calls = True
    for module, entries in _modules().items():
        symbols = "|".join(entry.symbol for entry in entries)
        if re.search(rf'@"?({symbols})"?\(', ir_text):  # xDSL quotes every symbol
            load_kernels(module)
            calls = True
    return calls or bool(sorts)
