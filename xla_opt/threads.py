"""The JIT's thread count: one process-wide setting for every parallel region of the
compiled code (`convert-omp-to-llvm`'s `GOMP_parallel` calls).

A tiny native module, compiled once per process, holds the count and defines
`i32 xla_opt_num_threads()` (read at each parallel region) and
`void xla_opt_set_num_threads(i32)`; the JIT resolves lowered modules' calls to them
(`llvm.add_symbol`). The count starts at `runtime.num_threads()`
(`XLA_OPT_NUM_THREADS`, else the CPUs of the process's affinity mask) and is set by
`set_num_threads`.

libgomp is loaded on first use (`runtime._load_gomp`: permanently, OMP_WAIT_POLICY=
passive unless set). Without it the count stays 1, so compiled code calls its
outlined regions directly, and `GOMP_parallel`, `omp_get_thread_num` and
`omp_get_num_threads` resolve to serial stand-ins defined here (the regions read
thread 0 of 1; GOMP_parallel runs the region once on the calling thread), so the same
code runs on one thread.
"""

from __future__ import annotations

import ctypes
import re
import threading
from typing import Any

NUM_THREADS = "xla_opt_num_threads"  # i32 (): the thread count a parallel region asks for
SET_NUM_THREADS = "xla_opt_set_num_threads"  # void (i32)
GOMP_PARALLEL = "GOMP_parallel"  # void (void (*fn)(void *), void *data, unsigned nthreads, unsigned flags)
THREAD_NUM = "omp_get_thread_num"  # i32 ()
TEAM_SIZE = "omp_get_num_threads"  # i32 ()

_COUNTER_IR = f"""
@count = internal global i32 1, align 4

define i32 @{NUM_THREADS}() nounwind {{
  %n = load atomic i32, ptr @count monotonic, align 4
  ret i32 %n
}}

define void @{SET_NUM_THREADS}(i32 %n) nounwind {{
  store atomic i32 %n, ptr @count monotonic, align 4
  ret void
}}
"""

# libgomp's entry points on one thread: the region runs once, as thread 0 of a team of 1
_SERIAL_GOMP_IR = f"""
define void @{GOMP_PARALLEL}(ptr %fn, ptr %data, i32 %n, i32 %flags) {{
  call void %fn(ptr %data)
  ret void
}}

define i32 @{THREAD_NUM}() nounwind {{
  ret i32 0
}}

define i32 @{TEAM_SIZE}() nounwind {{
  ret i32 1
}}
"""

_lock = threading.Lock()
_state: dict[str, Any] = {}  # "parallel": libgomp loaded; "modules": compiled code kept alive; "set": the setter


def load() -> bool:
    """Load libgomp and the counter module (once per process) and register their
    symbols for the JIT; returns whether parallel regions can run on several threads."""
    with _lock:
        if "parallel" not in _state:
            import llvmlite.binding as llvm

            from xla_opt.jit import compile_llvm_ir
            from xla_opt.lowering.kernels.runtime import _load_gomp, num_threads

            parallel = _load_gomp()
            modules = [compile_llvm_ir(_COUNTER_IR)]
            if not parallel:
                modules.append(compile_llvm_ir(_SERIAL_GOMP_IR))
                for name in (GOMP_PARALLEL, THREAD_NUM, TEAM_SIZE):
                    llvm.add_symbol(name, modules[-1].address(name))
            llvm.add_symbol(NUM_THREADS, modules[0].address(NUM_THREADS))
            setter = ctypes.CFUNCTYPE(None, ctypes.c_int32)(modules[0].address(SET_NUM_THREADS))
            setter(num_threads() if parallel else 1)
            _state.update(parallel=parallel, modules=modules, set=setter)
        return _state["parallel"]


def set_num_threads(n: int) -> None:
    """The thread count of every parallel region from its next run on (1 without
    libgomp)."""
    parallel = load()
    _state["set"](max(1, n) if parallel else 1)


def get_num_threads() -> int:
    """The thread count parallel regions ask for now."""
    load()
    getter = ctypes.CFUNCTYPE(ctypes.c_int32)(_state["modules"][0].address(NUM_THREADS))
    return getter()


_DECLARED = re.compile(rf'declare [^@\n]*@"?(?:{NUM_THREADS}|{GOMP_PARALLEL})"?\(')


def bind_thread_symbols(ir_text: str) -> bool:
    """Load libgomp and the counter if the LLVM IR `ir_text` declares the thread count or
    GOMP_parallel (before the JIT compiles it); returns whether it does."""
    if not _DECLARED.search(ir_text):
        return False
    load()
    return True
