"""Lowered programs on disk across processes, as JAX's persistent compilation cache keeps
executables: a process compiling a program that one compiled before (the same bytes,
entry and build of xla-opt) skips parsing and lowering it, and never imports xDSL.

Lowering is most of a first compile: the transformer block's 1.9 s from `import xla_opt`
to a callable in a fresh process are ~1.3 s of imports, parsing and the pipeline before
LLVM runs, which the disk's object code (disk_cache.py) already skips. An entry here holds
what the pipeline produced for `xla_opt.compile(program, backend="jit")`: the LLVM IR
parts (whose object code the disk cache holds), the functions they declare with the
libraries that provide them, and the entry's signature as numpy shapes and dtypes. A hit
binds the libraries, loads the parts' object code and calls the entry on arrays that are
exactly its parameters; anything else a caller does (inputs to convert, `.module`) parses
the program then, on demand.

An entry's key is a SHA-256 of the program's bytes (text, a file's content, bytecode), the
entry asked for, the build (`build_fingerprint`: every source file of the installed
package by size and modification time, the versions of Python, xDSL, numpy and
ml_dtypes), the `toolchain` the object code's key holds too (the CPU, LLVM, its options)
and the compile threads. Files live next to the object code (XLA_OPT_CACHE_DIR,
~/.cache/xla-opt; off with XLA_OPT_CACHE=0) as `<key>.program`, compressed JSON behind
its own digest (`DiskCache`). What calls back into Python (host calls: callbacks, infeed) or runs on
several replicas or partitions is compiled as before and not kept.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import sys
import zlib
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from xla_opt.runtime import llvm
from xla_opt.runtime.disk_cache import DiskCache, toolchain

if TYPE_CHECKING:
    from xla_opt.runtime.executable import JitFunction

FORMAT = 2  # of the files: a change makes every older file a miss
# the installed package's folders (pyproject.toml's package-dir): xla_opt and what maps into it
PACKAGES = ("xla_opt", "xla_opt.dialects", "xla_opt.passes", "xla_opt.lowering")
VERSIONED = ("xdsl", "numpy", "ml_dtypes")  # (LLVM and llvmlite: the `toolchain`)


@functools.cache
def build_fingerprint() -> str:
    """What identifies this build of the compiler, once per process: each source file of
    the package (path, size, modification time: an edit, a checkout or a reinstall
    changes it; ~400 stats, 2 ms), Python's version and the libraries the code it
    produces depends on, by the same stat of each one's `__init__.py` (an upgrade or a
    reinstall changes it; `importlib.metadata`, which would give their versions, takes
    20 ms to import)."""
    h = hashlib.sha256()
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for root, dirs, files in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(files):
                    if name.endswith(".py"):
                        stat = os.stat(os.path.join(root, name))
                        h.update(f"{os.path.join(root, name)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    h.update(sys.version.encode())
    for library in VERSIONED:
        spec = importlib.util.find_spec(library)
        try:
            stat = os.stat(spec.origin) if spec and spec.origin else None
        except OSError:
            stat = None
        installed = f"{spec.origin}\0{stat.st_size}\0{stat.st_mtime_ns}" if stat else "-"
        h.update(f"\0{library}={installed}".encode())
    return h.hexdigest()


def program_bytes(program: Any) -> bytes | None:
    """The bytes `load_program` reads for `program` (text, bytecode, a file's content),
    or None when it is not read from bytes (a module) or a file cannot be read (the
    compile then reports it)."""
    if isinstance(program, bytes | bytearray | memoryview):
        return bytes(program)
    from xla_opt.loading import program_path

    if (path := program_path(program)) is not None:
        try:
            return path.read_bytes()
        except OSError:
            return None
    return program.encode() if isinstance(program, str) else None


def key_of(program: Any, entry: str | None) -> str | None:
    """The key of `xla_opt.compile(program, entry, backend="jit")`, or None when it is
    not cached (see `program_bytes`; the cache is off)."""
    disk = DiskCache.from_environment()
    if disk is None or (data := program_bytes(program)) is None:
        return None
    from xla_opt.runtime.cpu import num_threads

    h = hashlib.sha256()
    for part in (FORMAT, build_fingerprint(), entry, *toolchain(), num_threads()):
        h.update(f"{part}\0".encode())
    h.update(data)
    return h.hexdigest()


def _dtype(name: str) -> np.dtype:
    """numpy's dtype `name`, or ml_dtypes' (bfloat16, float8_e4m3fn, int4...)."""
    try:
        return np.dtype(name)
    except TypeError:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, name))


@dataclass
class Lowered:
    """An entry of the cache: a program's entry function as the pipeline lowered it."""

    entry: str
    parts: list[str]  # CompiledProgram.parts
    declarations: dict[str, dict[str, Any] | None]  # name -> libraries.describe(name)
    inputs: list[tuple[str, list[int]] | None]  # dtype name and shape of each parameter
    outputs: list[tuple[list[int], str]]  # shape and dtype name of each result
    scalar_results: list[int]

    @staticmethod
    def of(jit: JitFunction) -> Lowered | None:
        """What the cache keeps of `jit`, or None when it cannot be kept (it calls the
        host, or was not compiled by `compile_program`)."""
        from xla_opt.lowering.kernels import libraries

        program = jit.program
        if jit.calls_host or not program.parts:
            return None
        return Lowered(
            jit.entry,
            program.parts,
            {name: libraries.describe(name) for name in program.declarations},
            [None if spec is None else (spec[0].name, list(spec[1])) for spec in jit.input_specs],
            [(list(shape), dtype.name) for shape, dtype in jit.out_specs],
            jit._scalar_results,
        )

    def jit(self, signature: Any) -> JitFunction:
        """The entry compiled from the parts (object code from the disk, what they call
        bound), reading `signature()` (the entry's FunctionType) only if a call needs it."""
        from xla_opt.lowering.kernels import libraries
        from xla_opt.runtime.binding import bind_names
        from xla_opt.runtime.executable import JitFunction
        from xla_opt.runtime.program import CompiledProgram, compile_lowered

        for name, description in self.declarations.items():
            if description is not None:
                libraries.redeclare(name, description)
        names = list(self.declarations)
        bindings = bind_names(names)
        native = compile_lowered(self.parts)
        program = CompiledProgram(native, "\n".join(self.parts), bindings, self.parts, names)
        return JitFunction.from_lowered(
            self.entry,
            program,
            [(tuple(shape), _dtype(dtype)) for shape, dtype in self.outputs],
            list(self.scalar_results),
            [None if spec is None else (_dtype(spec[0]), tuple(spec[1])) for spec in self.inputs],
            signature,
        )


# what this process read or wrote, by key, as many as it keeps programs (cleared with them)
_memory = llvm.ProgramCache()
llvm._caches.append(_memory)


def _file(key: str) -> tuple[DiskCache, str] | None:
    disk = DiskCache.from_environment()
    return None if disk is None else (disk, os.path.join(disk.directory, f"{key}.program"))


def load(key: str) -> Lowered | None:
    """The entry kept under `key`, or None (a file that is not one, damaged or of
    another format, is a miss and is rewritten)."""
    if (kept := _memory.get(key)) is not None:
        return kept
    file = _file(key)
    data = file[0].load(file[1]) if file else None
    if data is None:
        return None
    try:
        record = json.loads(zlib.decompress(data))
        lowered = Lowered(**record) if record.pop("format", None) == FORMAT else None
    except (ValueError, TypeError, zlib.error):
        return None
    return _memory.setdefault(key, lowered) if lowered is not None else None


def store(key: str, lowered: Lowered) -> None:
    """Keep `lowered` under `key`, in the process and on disk."""
    _memory.setdefault(key, lowered)
    if (file := _file(key)) is not None:
        file[0].store(file[1], zlib.compress(json.dumps({"format": FORMAT, **asdict(lowered)}).encode(), 1))


def clear_memory() -> None:
    """Forget what this process read or wrote (the files stay)."""
    _memory.clear()
