"""Object code on disk across processes, like JAX's compilation cache: one file per
compiled LLVM module, in ~/.cache/xla-opt (or $XLA_OPT_CACHE_DIR; off with
XLA_OPT_CACHE=0), at most XLA_OPT_CACHE_MAX_MB megabytes of it (default 1,024; 0: no
bound), the least recently used files evicted first, as ccache bounds its cache."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
from collections.abc import Iterator

import llvmlite
import llvmlite.binding as llvm

from xla_opt.runtime.cpu import LLVM_OPTIONS, cpu_features, cpu_name

try:
    import fcntl
except ImportError:  # not POSIX: the cache is not bounded
    fcntl = None

DEFAULT_MAX_MB = 1024
ENTRY_SUFFIXES = (".o", ".program")  # object code (this module's), lowered programs (executable_cache)
USAGE_FILE = ".usage"  # the bytes the entries take, as the stores since the last count added them
EVICT_TO = 0.8  # a cache over its bound is cut to this share of it (so the next eviction is not the next store)
STALE_TMP_SECONDS = 3600  # a temporary file older than this was left by a writer that died


def max_bytes() -> int:
    """XLA_OPT_CACHE_MAX_MB in bytes; 0 when the cache is not bounded."""
    try:
        mb = float(os.environ.get("XLA_OPT_CACHE_MAX_MB", DEFAULT_MAX_MB))
    except ValueError:
        mb = DEFAULT_MAX_MB
    return max(0, int(mb * (1 << 20)))


def toolchain() -> tuple:
    """What compiled code depends on besides its LLVM IR and how it is optimized: the
    host CPU's name and features, LLVM's and llvmlite's versions and the LLVM options
    set (`LLVM_OPTIONS`). Part of every key on disk (this cache's, executable_cache's)."""
    return (cpu_name(), cpu_features(), llvm.llvm_version_info, llvmlite.__version__, LLVM_OPTIONS)


class DiskCache:
    """Object code on disk, one file per module: `<key>.o`, the key a SHA-256 of the
    LLVM IR text, the optimization level, the unroll threshold and the `toolchain`:
    code for another CPU, LLVM or options is never loaded. A file holds the SHA-256 of its object code, then the
    code: an entry whose digest does not match (truncated, overwritten) is ignored and
    rewritten. Files are written to a temporary name and renamed, so a reader never
    sees half a file; a directory that cannot be written only costs the compile."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    @staticmethod
    def from_environment() -> DiskCache | None:
        if os.environ.get("XLA_OPT_CACHE", "1") == "0":
            return None
        directory = os.environ.get("XLA_OPT_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xla-opt"
        )
        return DiskCache(directory)

    def path(self, ir_text: str, level: int, unroll_threshold: int, *options: object) -> str:
        """Where the object code of `ir_text` compiled so goes (`options`: any other
        choice of the compile, such as a library's vectorizers)."""
        h = hashlib.sha256()
        for part in (ir_text, str(level), str(unroll_threshold), *options, *toolchain()):
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
        if not code or hashlib.sha256(code).digest() != digest:
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: the eviction goes by modification time (atime is often not kept)
        return code

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
            return
        self.account(32 + len(code))

    def account(self, written: int) -> None:
        """Add `written` bytes to the usage count (USAGE_FILE, under a lock: the
        processes sharing the directory keep one count) and evict when the count is
        over the bound. The count starts from the directory's entries, counted once
        (the first store after this count existed: ~0.1 s for 70,000 entries); an
        entry rewritten is counted twice until the next eviction counts again."""
        limit = max_bytes()
        if limit == 0 or fcntl is None:
            return
        with contextlib.suppress(OSError), self._usage() as usage:
            count = usage.read().strip()
            total = int(count) + written if count.isdigit() else self.used()  # counted, this entry too
            if total > limit:
                total = self.evict(int(limit * EVICT_TO))
            usage.seek(0)
            usage.truncate()
            usage.write(str(total))

    @contextlib.contextmanager
    def _usage(self) -> Iterator:
        with open(os.path.join(self.directory, USAGE_FILE), "a+") as usage:
            fcntl.flock(usage, fcntl.LOCK_EX)
            usage.seek(0)
            yield usage

    def _entries(self) -> list[tuple[float, int, str]]:
        """(modification time, size, path) of each entry; stale temporary files removed."""
        entries = []
        now = time.time()
        with os.scandir(self.directory) as found:
            for entry in found:
                with contextlib.suppress(OSError):
                    stat = entry.stat()
                    if entry.name.endswith(ENTRY_SUFFIXES):
                        entries.append((stat.st_mtime, stat.st_size, entry.path))
                    elif entry.name.endswith(".tmp") and now - stat.st_mtime > STALE_TMP_SECONDS:
                        os.unlink(entry.path)
        return entries

    def used(self) -> int:
        """The bytes the entries take."""
        return sum(size for _, size, _ in self._entries())

    def evict(self, target: int) -> int:
        """Delete the least recently used entries until at most `target` bytes are
        left; the bytes left. A process that has an entry open keeps reading it, one
        that looks for it next compiles again."""
        entries = sorted(self._entries())
        total = sum(size for _, size, _ in entries)
        for _, size, path in entries:
            if total <= target:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size
        return total
