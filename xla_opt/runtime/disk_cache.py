"""Object code on disk across processes, like JAX's compilation cache: one file per
compiled LLVM module, in ~/.cache/xla-opt (or $XLA_OPT_CACHE_DIR; off with
XLA_OPT_CACHE=0)."""

from __future__ import annotations

import hashlib
import os
import threading

import llvmlite
import llvmlite.binding as llvm

from xla_opt.runtime.cpu import LLVM_OPTIONS, cpu_features, cpu_name


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
