"""The host this process compiles for and runs on: LLVM's native target, the CPU's name
and features, and how many threads compiled code may use."""

from __future__ import annotations

import functools
import os
import threading

import llvmlite.binding as llvm

_lock = threading.Lock()
_initialized = False

# LLVM options set once per process, before anything is compiled (and part of the disk
# cache's key, so object code compiled without them is never reused).
#
# No tail folding in the loop vectorizer: LLVM 22.1's X86 backend (llvmlite 0.47) turns a
# masked store of a truncated vector whose constant mask enables one lane into a scalar
# store of the untruncated element (llvm/llvm-project#179489, fixed upstream by #179853
# after 22.1). A short loop storing bf16, f16 or i8 (`tensor<4x9xbf16>`: 8 lanes, then a
# masked tail of 1) wrote 2 or 3 bytes past its row, corrupting the heap after the
# result buffer (fuzz seed 804842; tests/test_jit_llvm_workarounds.py). Loops shorter
# than 16 iterations, which LLVM vectorizes only by folding their tail into masked
# operations, are vectorized with a scalar epilogue instead, as longer loops are.
# Drop both once llvmlite ships an LLVM with the fix (the test then still guards it).
LLVM_OPTIONS: tuple[str, ...] = ("-force-tail-folding-style=none", "-vectorizer-min-trip-count=2")


def initialize_llvm() -> None:
    """LLVM's native target and assembly printer, once per process."""
    global _initialized
    with _lock:
        if not _initialized:
            llvm.initialize_native_target()
            llvm.initialize_native_asmprinter()
            for option in LLVM_OPTIONS:
                llvm.set_option("", option)
            _initialized = True


@functools.cache
def cpu_name() -> str:
    return llvm.get_host_cpu_name()


@functools.cache
def cpu_features() -> str:
    """LLVM's feature string of the host CPU (`+avx2,+fma,...`)."""
    return llvm.get_host_cpu_features().flatten()


@functools.cache
def l1_data_cache_bytes() -> int:
    """The size of CPU 0's level-1 data cache, from Linux's sysfs; 0 where unknown."""
    root = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(os.listdir(root)):
            with open(f"{root}/{index}/level") as level, open(f"{root}/{index}/type") as kind:
                if level.read().strip() != "1" or kind.read().strip() not in ("Data", "Unified"):
                    continue
            with open(f"{root}/{index}/size") as size:
                text = size.read().strip()
            scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
            return int(text.rstrip("KM")) * scale
    except (OSError, ValueError):
        pass
    return 0


def num_threads() -> int:
    """XLA_OPT_NUM_THREADS if it is a positive integer, else the CPUs this process may
    run on."""
    value = os.environ.get("XLA_OPT_NUM_THREADS", "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    return len(os.sched_getaffinity(0))
