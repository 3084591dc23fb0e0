"""The C allocator compiled code allocates its temporary buffers from, kept from paging.

Compiled programs allocate their intermediate buffers with `malloc` on each call and
free them before returning. glibc gives the memory of a call's large frees back to the
system at once: blocks above its mmap threshold are unmapped, and the top of the heap
is trimmed once more than the trim threshold of it is free. The next call then touches
new pages, each a page fault that zeroes 4 KiB: the U-Net forward pass of
benchmarks/conv_gradients.py spent two thirds of its time there (36.8 ms a call, 8.1 ms
without the faults, jax.jit 15.5 ms: XLA keeps its buffers too).

`keep_freed_memory` raises both thresholds (`mallopt`), as XLA's allocator keeps what it
frees: buffers of up to MMAP_THRESHOLD come from the heap, and up to TRIM_THRESHOLD of
free heap stays mapped for the next call. It applies to the whole process (numpy's
arrays too), once, when the JIT compiles its first program; `XLA_OPT_MALLOC_TUNING=0`
leaves the allocator as it was. Other C libraries than glibc are left alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

# glibc's largest mmap threshold on 64-bit hosts (HEAP_MAX_SIZE / 2): mallopt refuses more
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 256 << 20

_lock = threading.Lock()
_state: dict[str, bool] = {}


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds, once per process (see the module doc);
    whether they are raised."""
    with _lock:
        if "tuned" not in _state:
            _state["tuned"] = _tune()
        return _state["tuned"]


def _tune() -> bool:
    if os.environ.get("XLA_OPT_MALLOC_TUNING", "1") == "0":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it (musl's mallopt does nothing)
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # the mmap threshold first: setting either one stops glibc's own adjustment of both
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
