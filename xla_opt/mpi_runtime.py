"""MPI for compiled code (issue 12): the MPI library mpi4py loaded, made resolvable by
the JIT, a few wrappers the lowered collectives call, and the communicators of the
replica groupings.

* The library: the very libmpi mpi4py loaded (its path read from /proc/self/maps;
  never a second copy), loaded into the JIT's symbol space with
  `load_library_permanently`.
* Handles are ABI-specific (in MPICH's ABI 32-bit integers, in Open MPI's the
  addresses of globals), so none is hard-coded: the values and their width come from
  mpi4py (`MPI.BYTE.handle`, `MPI._sizeof(MPI.Comm)`), and a communicator is passed
  to the wrappers as an i64 that they narrow (or turn into a pointer) to the ABI's
  handle type.
* The wrappers, emitted as LLVM IR by `wrappers_ir` and compiled once per process:
      xla_opt_mpi_allgather(i64 comm, i64 bytes, ptr send, ptr recv)
      xla_opt_mpi_alltoall(i64 comm, i64 block_bytes, ptr send, ptr recv)
      xla_opt_mpi_permute(i64 comm, i64 bytes, i64 source, i64 target, ptr send, ptr recv)
  (their argument order is the lowering's calling convention: scalars, operand
  buffers, result buffers); they move bytes, so every element type is one datatype
  (MPI_BYTE). `permute` sends to `target` and receives from `source` (-1: none; a
  replica that receives nothing gets zeros).
* Communicators: one per distinct replica grouping, `Comm_split` of COMM_WORLD made
  while the program is lowered (every rank lowers the same program, so the splits
  match), cached for the process.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import Any

ALLGATHER = "xla_opt_mpi_allgather"
ALLTOALL = "xla_opt_mpi_alltoall"
PERMUTE = "xla_opt_mpi_permute"

_lock = threading.Lock()
_library: Any = None
_communicators: dict[tuple[tuple[int, ...], ...], Any] = {}


def world() -> Any:
    from mpi4py import MPI

    return MPI.COMM_WORLD


def _handle_type(size: int) -> str:
    return {4: "i32", 8: "i64"}.get(size, "ptr")


def _narrow(name: str, size: int, pointer_sized: bool) -> tuple[str, str]:
    """(the instruction turning i64 %name into the ABI's handle, its LLVM type)."""
    if pointer_sized:
        return f"%{name}.h = inttoptr i64 %{name} to ptr", "ptr"
    if size == 4:
        return f"%{name}.h = trunc i64 %{name} to i32", "i32"
    return f"%{name}.h = add i64 %{name}, 0", "i64"


def wrappers_ir(
    comm_size: int, comm_is_pointer: bool, byte_handle: int, datatype_size: int, datatype_is_pointer: bool
) -> str:
    """The LLVM IR of the wrappers for one MPI ABI (see the module doc)."""
    narrow_comm, comm_t = _narrow("comm", comm_size, comm_is_pointer)
    if datatype_is_pointer:
        byte = f"inttoptr (i64 {byte_handle} to ptr)"
        byte_t = "ptr"
    else:
        byte_t = "i32" if datatype_size == 4 else "i64"
        byte = str(byte_handle if byte_handle < 2**31 or byte_t == "i64" else byte_handle - 2**32)
    count = "i32"  # MPI's counts are C ints
    return f"""
declare i32 @MPI_Allgather(ptr, {count}, {byte_t}, ptr, {count}, {byte_t}, {comm_t})
declare i32 @MPI_Alltoall(ptr, {count}, {byte_t}, ptr, {count}, {byte_t}, {comm_t})
declare i32 @MPI_Sendrecv(ptr, {count}, {byte_t}, i32, i32, ptr, {count}, {byte_t}, i32, i32, {comm_t}, ptr)
declare i32 @MPI_Send(ptr, {count}, {byte_t}, i32, i32, {comm_t})
declare i32 @MPI_Recv(ptr, {count}, {byte_t}, i32, i32, {comm_t}, ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @{ALLGATHER}(i64 %comm, i64 %bytes, ptr %send, ptr %recv) {{
  {narrow_comm}
  %n = trunc i64 %bytes to i32
  %r = call i32 @MPI_Allgather(ptr %send, i32 %n, {byte_t} {byte}, ptr %recv, i32 %n, {byte_t} {byte}, {comm_t} %comm.h)
  ret void
}}

define void @{ALLTOALL}(i64 %comm, i64 %bytes, ptr %send, ptr %recv) {{
  {narrow_comm}
  %n = trunc i64 %bytes to i32
  %r = call i32 @MPI_Alltoall(ptr %send, i32 %n, {byte_t} {byte}, ptr %recv, i32 %n, {byte_t} {byte}, {comm_t} %comm.h)
  ret void
}}

define void @{PERMUTE}(i64 %comm, i64 %bytes, i64 %source, i64 %target, ptr %send, ptr %recv) {{
entry:
  {narrow_comm}
  %n = trunc i64 %bytes to i32
  %src = trunc i64 %source to i32
  %dst = trunc i64 %target to i32
  %status = alloca [64 x i8], align 8
  %sends = icmp sge i64 %target, 0
  %receives = icmp sge i64 %source, 0
  %both = and i1 %sends, %receives
  br i1 %both, label %sendrecv, label %one_side
sendrecv:
  %r0 = call i32 @MPI_Sendrecv(ptr %send, i32 %n, {byte_t} {byte}, i32 %dst, i32 0, ptr %recv, i32 %n, {byte_t} {byte}, i32 %src, i32 0, {comm_t} %comm.h, ptr %status)
  ret void
one_side:
  br i1 %sends, label %send_only, label %maybe_recv
send_only:
  %r1 = call i32 @MPI_Send(ptr %send, i32 %n, {byte_t} {byte}, i32 %dst, i32 0, {comm_t} %comm.h)
  br label %zeros
maybe_recv:
  br i1 %receives, label %recv_only, label %zeros
recv_only:
  %r2 = call i32 @MPI_Recv(ptr %recv, i32 %n, {byte_t} {byte}, i32 %src, i32 0, {comm_t} %comm.h, ptr %status)
  ret void
zeros:
  call void @llvm.memset.p0.i64(ptr %recv, i8 0, i64 %bytes, i1 false)
  ret void
}}
"""


def _libmpi_path() -> str:
    """The libmpi that mpi4py loaded into this process."""
    with open("/proc/self/maps") as f:
        paths = sorted(set(re.findall(r"(/\S*lib(?:mpi|pmpi)[^/\s]*\.so[^/\s]*)", f.read())))
    if not paths:
        raise RuntimeError("mpi4py is loaded but no libmpi is mapped into the process")
    return paths[0]


def load() -> None:
    """Load libmpi for the JIT and compile the wrappers (once per process)."""
    global _library
    with _lock:
        if _library is not None:
            return
        import llvmlite.binding as llvm
        from mpi4py import MPI

        from xla_opt.jit import compile_llvm_ir

        llvm.load_library_permanently(_libmpi_path())
        comm_size, type_size = MPI._sizeof(MPI.Comm), MPI._sizeof(MPI.Datatype)
        # 8-byte handles are pointers (Open MPI's ABI), 4-byte ones integers (MPICH's)
        ir = wrappers_ir(comm_size, comm_size == 8, int(MPI.BYTE.handle), type_size, type_size == 8)
        library = compile_llvm_ir(ir)
        for symbol in (ALLGATHER, ALLTOALL, PERMUTE):
            llvm.add_symbol(symbol, library.address(symbol))
        _library = library


def alias(name: str, symbol: str) -> None:
    """Make `name` resolve to the wrapper `symbol` (a lowered module declares one name
    per call signature)."""
    import llvmlite.binding as llvm

    load()
    llvm.add_symbol(name, _library.address(symbol))


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


def handle(comm: Any) -> int:
    """A communicator's handle as the i64 the wrappers take."""
    return int(comm.handle)
