"""MPI for compiled code (issue 12): the MPI library mpi4py loaded and made resolvable
by the JIT, the wrappers the lowered collectives call (lowering/kernels/mpi.py) compiled
for its ABI, and the tables they read filled: MPI's datatype and op handles, and one
communicator per replica grouping.

* The library: the very libmpi mpi4py loaded (its path read from /proc/self/maps;
  never a second copy), loaded into the JIT's symbol space with
  `load_library_permanently`.
* Handles are ABI-specific (in MPICH's ABI 32-bit integers, in Open MPI's the
  addresses of globals), so none is hard-coded: the values and their width come from
  mpi4py (`MPI.BYTE.handle`, `MPI._sizeof(MPI.Comm)`).
* Communicators: one per distinct replica grouping the lowering numbered
  (`intern_grouping`), a `Comm_split` of COMM_WORLD made when a program that uses it is
  bound, before it first runs (every rank lowers and binds the same program, so the
  splits match), cached for the process; the grouping of all ranks is COMM_WORLD.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from collections.abc import Sequence
from typing import Any

import llvmlite.binding as llvm

from xla_opt.lowering.kernels import mpi as wrappers
from xla_opt.runtime.llvm import NativeModule, compile_llvm_ir

_lock = threading.Lock()
_library: NativeModule | None = None
_communicators: dict[tuple[tuple[int, ...], ...], Any] = {}
_bound_groupings = 0  # how many interned groupings have their communicator in the table
_timeout = 120.0
_report: tuple[str, str] | None = None  # (file, line) of set_report


def world() -> Any:
    from mpi4py import MPI

    return MPI.COMM_WORLD


def integer_datatype_of(dtype: Any) -> Any:
    """MPI's datatype of a numpy integer (or bool) dtype."""
    from mpi4py import MPI

    if dtype.kind == "b":
        return MPI.C_BOOL
    return getattr(MPI, f"{'U' if dtype.kind == 'u' else ''}INT{dtype.itemsize * 8}_T")


def abi() -> wrappers.Abi:
    """The ABI of the MPI library mpi4py loaded."""
    from mpi4py import MPI

    return wrappers.Abi(
        comm_size=MPI._sizeof(MPI.Comm),
        datatype_size=MPI._sizeof(MPI.Datatype),
        byte_handle=int(MPI.BYTE.handle),
        world_handle=int(MPI.COMM_WORLD.handle),
        request_size=MPI._sizeof(MPI.Request),
    )


def _libmpi_path() -> str:
    """The libmpi that mpi4py loaded into this process."""
    with open("/proc/self/maps") as f:
        paths = sorted(set(re.findall(r"(/\S*lib(?:mpi|pmpi)[^/\s]*\.so[^/\s]*)", f.read())))
    if not paths:
        raise RuntimeError("mpi4py is loaded but no libmpi is mapped into the process")
    return paths[0]


def _table(library: NativeModule, name: str, count: int) -> Any:
    return (ctypes.c_int64 * count).from_address(library.engine.get_global_value_address(name))


def load(build: Any) -> NativeModule:
    """Load libmpi for the JIT and compile the wrappers (`build`: their LLVM IR for this
    ABI), once per process; their datatype and op tables filled."""
    global _library
    with _lock:
        if _library is None:
            from mpi4py import MPI

            llvm.load_library_permanently(_libmpi_path())
            library = compile_llvm_ir(build())
            datatypes = _table(library, wrappers.DATATYPE_TABLE, len(wrappers.DATATYPES))
            for i, name in enumerate(wrappers.DATATYPES):
                datatypes[i] = int(getattr(MPI, name).handle)
            ops = _table(library, wrappers.OP_TABLE, len(wrappers.OPS))
            for i, name in enumerate(wrappers.OPS):
                ops[i] = int(getattr(MPI, name).handle)
            set_timeout_in(library, _timeout)
            if _report is not None:
                _write_report(library, *_report)
            _library = library
        return _library


def bind_communicators() -> None:
    """Make the communicator of every grouping interned so far and write its handle into
    the wrappers' table (every rank calls this at the same point: it splits COMM_WORLD)."""
    global _bound_groupings
    assert _library is not None
    table = _table(_library, wrappers.COMMUNICATORS, wrappers.MAX_GROUPINGS)
    known = wrappers.groupings()
    for number in range(_bound_groupings, len(known)):
        table[number] = int(communicator(known[number]).handle)
    _bound_groupings = len(known)


def communicator(rows: Sequence[Sequence[int]]) -> Any:
    """The communicator of this rank's group in `rows` (a partition of the ranks, each
    row in group order; empty: all ranks, COMM_WORLD), made by a collective split the
    first time (every rank must ask for the same rows at the same point)."""
    comm = world()
    key = tuple(tuple(row) for row in rows)
    if not key or key == (tuple(range(comm.Get_size())),):
        return comm
    with _lock:
        sub = _communicators.get(key)
        if sub is None:
            rank = comm.Get_rank()
            colour = next(i for i, row in enumerate(key) if rank in row)
            sub = _communicators[key] = comm.Split(colour, key[colour].index(rank))
        return sub


def set_report(path: str, line: str) -> None:
    """On a timeout, compiled code writes `line` (and a newline) to stderr and to the
    file `path` (O_CREAT|O_TRUNC, 0644) before MPI_Abort: mpirun may drop the last
    output of an aborting rank, the launcher reads the file (mpi_launch.py)."""
    global _report
    _report = (path, line)
    if _library is not None:
        _write_report(_library, path, line)


def _write_report(library: NativeModule, path: str, line: str) -> None:
    engine = library.engine
    size = wrappers.REPORT_LINE_BYTES
    data = (line.encode()[: size - 2] + b"\n").ljust(size, b"\0")
    ctypes.memmove(engine.get_global_value_address(wrappers.REPORT_LINE), data, len(data))
    where = os.fsencode(path)[: wrappers.REPORT_PATH_BYTES - 1].ljust(wrappers.REPORT_PATH_BYTES, b"\0")
    ctypes.memmove(engine.get_global_value_address(wrappers.REPORT_PATH), where, len(where))


def set_timeout_in(library: NativeModule, seconds: float) -> None:
    ctypes.c_double.from_address(library.engine.get_global_value_address(wrappers.TIMEOUT)).value = seconds


def set_timeout(seconds: float) -> None:
    """Seconds a compiled collective waits for the other replicas before aborting."""
    global _timeout
    _timeout = seconds
    if _library is not None:
        set_timeout_in(_library, seconds)
