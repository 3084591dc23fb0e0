"""The threads of compiled code: libgomp loaded for `GOMP_parallel`, and the one
process-wide thread count every parallel region and multi-thread kernel asks for
(lowering/kernels/threads.py names and builds both).

The count starts at `num_threads()` (XLA_OPT_NUM_THREADS, else the CPUs of the process's
affinity mask) and is set by `set_num_threads` (`xla_opt.set_num_threads`). libgomp is
loaded on first use, permanently, with OMP_WAIT_POLICY=passive and GOMP_SPINCOUNT=1000
unless the user set them (see SPIN_COUNT). Without libgomp the count stays 1, so
compiled code calls its outlined regions directly, and `GOMP_parallel`,
`omp_get_thread_num` and `omp_get_num_threads` resolve to serial stand-ins: the same
code runs on one thread.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from typing import Any

import llvmlite.binding as llvm

from xla_opt.lowering.kernels.threads import COUNTER_IR, GOMP_SYMBOLS, NUM_THREADS, SERIAL_GOMP_IR, SET_NUM_THREADS
from xla_opt.runtime.cpu import num_threads
from xla_opt.runtime.llvm import compile_llvm_ir

# How long (in libgomp's spin iterations, ~10-20 us here) a thread that finished a
# parallel region or reached a barrier spins before it sleeps, when the wait policy is
# ours (passive, where libgomp's own count is 0). A sleeping thread costs the next
# region a futex wake-up, ~50 us on the 2-core VM: a call made of several short regions
# paid it each time, so two threads were slower than one (max pooling 8x56x56x64: 0.17
# ms on two, 0.14 on one; with 1000 spins 0.077 ms, the same as with 10,000 or libgomp's
# active policy; reduce_sum 0.16 -> 0.10 ms, gather 1.10 -> 0.60 ms). 1000 spins keep
# what passive is for: an idle team sleeps within microseconds.
SPIN_COUNT = 1000

_lock = threading.Lock()
_state: dict[str, Any] = {}  # "parallel": libgomp loaded; "modules": compiled code kept alive; "set": the setter
_pinned: list[ctypes.CDLL] = []  # libgomp, opened with RTLD_NODELETE (see _load_gomp)


def _load_gomp() -> bool:
    """Load libgomp for the JIT; whether its entry points resolve. libgomp reads its
    environment when it loads: the wait policy passive and SPIN_COUNT unless the user
    set them."""
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
    return all(llvm.address_of_symbol(s) for s in GOMP_SYMBOLS)


def load() -> bool:
    """Load libgomp and the counter module (once per process) and register their
    symbols for the JIT; returns whether parallel regions can run on several threads."""
    with _lock:
        if "parallel" not in _state:
            parallel = _load_gomp()
            modules = [compile_llvm_ir(COUNTER_IR)]
            if not parallel:
                modules.append(compile_llvm_ir(SERIAL_GOMP_IR))
                for name in GOMP_SYMBOLS:
                    llvm.add_symbol(name, modules[-1].address(name))
            llvm.add_symbol(NUM_THREADS, modules[0].address(NUM_THREADS))
            setter = ctypes.CFUNCTYPE(None, ctypes.c_int32)(modules[0].address(SET_NUM_THREADS))
            setter(num_threads() if parallel else 1)
            _state.update(parallel=parallel, modules=modules, set=setter)
        return _state["parallel"]


def set_num_threads(n: int) -> None:
    """The thread count of the kernels and of every parallel loop from their next run on
    (1 without libgomp)."""
    parallel = load()
    _state["set"](max(1, n) if parallel else 1)


def get_num_threads() -> int:
    """The thread count parallel regions ask for now."""
    load()
    getter = ctypes.CFUNCTYPE(ctypes.c_int32)(_state["modules"][0].address(NUM_THREADS))
    return getter()
