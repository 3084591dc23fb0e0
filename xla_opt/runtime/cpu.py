"""The host this process compiles for and runs on: LLVM's native target, the CPU's name
and features, and how many threads compiled code may use."""

from __future__ import annotations

import functools
import os
import threading

import llvmlite.binding as llvm

_lock = threading.Lock()
_initialized = False


def initialize_llvm() -> None:
    """LLVM's native target and assembly printer, once per process."""
    global _initialized
    with _lock:
        if not _initialized:
            llvm.initialize_native_target()
            llvm.initialize_native_asmprinter()
            _initialized = True


@functools.cache
def cpu_name() -> str:
    return llvm.get_host_cpu_name()


@functools.cache
def cpu_features() -> str:
    """LLVM's feature string of the host CPU (`+avx2,+fma,...`)."""
    return llvm.get_host_cpu_features().flatten()


def num_threads() -> int:
    """XLA_OPT_NUM_THREADS if it is a positive integer, else the CPUs this process may
    run on."""
    value = os.environ.get("XLA_OPT_NUM_THREADS", "").strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    return len(os.sched_getaffinity(0))
