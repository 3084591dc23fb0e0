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
      xla_opt_mpi_allreduce(i64 comm, i64 count, i64 datatype, i64 op, ptr send, ptr recv)
      xla_opt_mpi_allgather(i64 comm, i64 bytes, ptr send, ptr recv)
      xla_opt_mpi_alltoall(i64 comm, i64 block_bytes, ptr send, ptr recv)
      xla_opt_mpi_permute(i64 comm, i64 bytes, i64 source, i64 target, ptr send, ptr recv)
  (their argument order is the lowering's calling convention: scalars, operand
  buffers, result buffers); but for `allreduce` (integer reducers MPI applies
  exactly, `exact_reduction`) they move bytes, so every element type is one datatype
  (MPI_BYTE). `permute` sends to `target` and receives from `source` (-1: none; a
  replica that receives nothing gets zeros). They start non-blocking operations and
  poll them against a deadline (`set_timeout`, the replica timeout): a collective
  some replica never reaches aborts the job with one line instead of hanging.
* Communicators: one per distinct replica grouping, `Comm_split` of COMM_WORLD made
  while the program is lowered (every rank lowers the same program, so the splits
  match), cached for the process.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from typing import Any

ALLREDUCE = "xla_opt_mpi_allreduce"
ALLGATHER = "xla_opt_mpi_allgather"
ALLTOALL = "xla_opt_mpi_alltoall"
PERMUTE = "xla_opt_mpi_permute"

# A reducer MPI can apply itself without changing the result: one of these ops on the two
# arguments of an integer computation (exact and commutative, wrapping as XLA's do; its
# order of application then cannot show). Floats are always folded in group order.
EXACT_REDUCTIONS = {
    "xla.add": "SUM",
    "xla.multiply": "PROD",
    "xla.maximum": "MAX",
    "xla.minimum": "MIN",
    "xla.and": "BAND",
    "xla.or": "BOR",
    "xla.xor": "BXOR",
}
_BOOL_REDUCTIONS = {"xla.and": "LAND", "xla.or": "LOR", "xla.xor": "LXOR"}


def exact_reduction(computation: Any) -> str | None:
    """The name of MPI's built-in op equal to `computation` (an xla reducer region) on
    integers or booleans, or None (a float, or any other region: folded in group order)."""
    from xdsl.dialects.builtin import IntegerType

    block = computation.block
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2 or ops[1].name != "xla.return":
        return None
    combine, ret = ops
    if (
        set(combine.operands) != set(block.args)
        or len(combine.operands) != 2
        or list(ret.operands) != list(combine.results)
    ):
        return None
    element = block.args[0].type.get_element_type()
    if not isinstance(element, IntegerType):
        return None
    table = _BOOL_REDUCTIONS if element.width.data == 1 else EXACT_REDUCTIONS
    return table.get(combine.name)


def integer_datatype_of(dtype: Any) -> Any:
    """MPI's datatype of a numpy integer (or bool) dtype (of an xla element type:
    `integer_datatype_of(numpy_dtype(t))`)."""
    from mpi4py import MPI

    if dtype.kind == "b":
        return MPI.C_BOOL
    return getattr(MPI, f"{'U' if dtype.kind == 'u' else ''}INT{dtype.itemsize * 8}_T")


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
    comm_size: int,
    comm_is_pointer: bool,
    byte_handle: int,
    datatype_size: int,
    datatype_is_pointer: bool,
    world: int,
    request_size: int,
) -> str:
    """The LLVM IR of the wrappers for one MPI ABI (see the module doc). Each starts
    non-blocking operations and polls them (`wait`) against the deadline in the global
    `xla_opt_mpi_timeout` (seconds, set from Python): a collective some replica never
    reaches prints one line and aborts the job instead of hanging."""
    narrow_comm, comm_t = _narrow("comm", comm_size, comm_is_pointer)
    narrow_type, type_t = _narrow("type", datatype_size, datatype_is_pointer)
    narrow_op, op_t = _narrow("op", datatype_size, datatype_is_pointer)  # MPI_Op: the same kind of handle
    if datatype_is_pointer:
        byte, byte_t = f"inttoptr (i64 {byte_handle} to ptr)", "ptr"
    else:
        byte_t = "i32" if datatype_size == 4 else "i64"
        byte = str(byte_handle - 2**32 if byte_t == "i32" and byte_handle >= 2**31 else byte_handle)
    world_value = (
        f"inttoptr (i64 {world} to ptr)"
        if comm_is_pointer
        else str(world - 2**32 if comm_t == "i32" and world >= 2**31 else world)
    )
    # the line reported on a timeout (set_report: the rank's own words and the file the
    # launcher reads, since mpirun may drop what an aborting rank printed last)
    text = TIMEOUT_MESSAGE.encode()
    line = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}" for c in text)
    line += "\\0A" + "\\00" * (REPORT_LINE_BYTES - len(text) - 1)
    def byte_collective(symbol: str, mpi_function: str) -> str:
        """A wrapper of an MPI collective moving `bytes` bytes per member (allgather, alltoall)."""
        return f"""define void @{symbol}(i64 %comm, i64 %bytes, ptr %send, ptr %recv) {{
  {narrow_comm}
  %n = trunc i64 %bytes to i32
  %request = alloca [{request_size} x i8], align 8
  %r = call i32 @{mpi_function}(ptr %send, i32 %n, {byte_t} {byte}, ptr %recv, i32 %n, {byte_t} {byte}, {comm_t} %comm.h, ptr %request)
  call void @wait(i32 1, ptr %request)
  ret void
}}
"""

    return f"""
@xla_opt_mpi_timeout = global double 1.200000e+02
@xla_opt_mpi_report_line = global [{REPORT_LINE_BYTES} x i8] c"{line}"
@xla_opt_mpi_report_path = global [{REPORT_PATH_BYTES} x i8] zeroinitializer
declare i32 @MPI_Iallreduce(ptr, ptr, i32, {type_t}, {op_t}, {comm_t}, ptr)
declare i32 @MPI_Iallgather(ptr, i32, {byte_t}, ptr, i32, {byte_t}, {comm_t}, ptr)
declare i32 @MPI_Ialltoall(ptr, i32, {byte_t}, ptr, i32, {byte_t}, {comm_t}, ptr)
declare i32 @MPI_Isend(ptr, i32, {byte_t}, i32, i32, {comm_t}, ptr)
declare i32 @MPI_Irecv(ptr, i32, {byte_t}, i32, i32, {comm_t}, ptr)
declare i32 @MPI_Testall(i32, ptr, ptr, ptr)
declare double @MPI_Wtime()
declare i32 @MPI_Abort({comm_t}, i32)
declare i32 @dprintf(i32, ptr, ...)
declare i32 @open(ptr, i32, ...)
declare i64 @write(i32, ptr, i64)
declare i32 @close(i32)
declare i64 @strlen(ptr)
declare i32 @usleep(i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define internal void @wait(i32 %count, ptr %requests) {{
entry:
  %flag = alloca i32, align 4
  %statuses = alloca [512 x i8], align 16
  %start = call double @MPI_Wtime()
  %limit = load double, ptr @xla_opt_mpi_timeout, align 8
  %deadline = fadd double %start, %limit
  br label %poll
poll:
  %r = call i32 @MPI_Testall(i32 %count, ptr %requests, ptr %flag, ptr %statuses)
  %done = load i32, ptr %flag, align 4
  %finished = icmp ne i32 %done, 0
  br i1 %finished, label %exit, label %check
check:
  %now = call double @MPI_Wtime()
  %late = fcmp ogt double %now, %deadline
  br i1 %late, label %abort, label %again
again:
  %s = call i32 @usleep(i32 50)
  br label %poll
abort:
  %length = call i64 @strlen(ptr @xla_opt_mpi_report_line)
  %p = call i64 @write(i32 2, ptr @xla_opt_mpi_report_line, i64 %length)
  %first = load i8, ptr @xla_opt_mpi_report_path, align 1
  %reported = icmp ne i8 %first, 0
  br i1 %reported, label %report, label %stop
report:
  %fd = call i32 (ptr, i32, ...) @open(ptr @xla_opt_mpi_report_path, i32 577, i32 420)
  %w = call i64 @write(i32 %fd, ptr @xla_opt_mpi_report_line, i64 %length)
  %c = call i32 @close(i32 %fd)
  br label %stop
stop:
  %a = call i32 @MPI_Abort({comm_t} {world_value}, i32 1)
  br label %exit
exit:
  ret void
}}

define void @{ALLREDUCE}(i64 %comm, i64 %count, i64 %type, i64 %op, ptr %send, ptr %recv) {{
  {narrow_comm}
  {narrow_type}
  {narrow_op}
  %n = trunc i64 %count to i32
  %request = alloca [{request_size} x i8], align 8
  %r = call i32 @MPI_Iallreduce(ptr %send, ptr %recv, i32 %n, {type_t} %type.h, {op_t} %op.h, {comm_t} %comm.h, ptr %request)
  call void @wait(i32 1, ptr %request)
  ret void
}}

{byte_collective(ALLGATHER, "MPI_Iallgather")}
{byte_collective(ALLTOALL, "MPI_Ialltoall")}
define void @{PERMUTE}(i64 %comm, i64 %bytes, i64 %source, i64 %target, ptr %send, ptr %recv) {{
entry:
  {narrow_comm}
  %n = trunc i64 %bytes to i32
  %requests = alloca [2 x [{request_size} x i8]], align 8
  %second = getelementptr inbounds [{request_size} x i8], ptr %requests, i64 1
  %count = alloca i32, align 4
  store i32 0, ptr %count, align 4
  %receives = icmp sge i64 %source, 0
  br i1 %receives, label %post_recv, label %zeros
post_recv:
  %src = trunc i64 %source to i32
  %r0 = call i32 @MPI_Irecv(ptr %recv, i32 %n, {byte_t} {byte}, i32 %src, i32 0, {comm_t} %comm.h, ptr %requests)
  store i32 1, ptr %count, align 4
  br label %maybe_send
zeros:
  call void @llvm.memset.p0.i64(ptr %recv, i8 0, i64 %bytes, i1 false)
  br label %maybe_send
maybe_send:
  %sends = icmp sge i64 %target, 0
  br i1 %sends, label %post_send, label %finish
post_send:
  %dst = trunc i64 %target to i32
  %posted = load i32, ptr %count, align 4
  %slot = select i1 %receives, ptr %second, ptr %requests
  %r1 = call i32 @MPI_Isend(ptr %send, i32 %n, {byte_t} {byte}, i32 %dst, i32 0, {comm_t} %comm.h, ptr %slot)
  %more = add i32 %posted, 1
  store i32 %more, ptr %count, align 4
  br label %finish
finish:
  %total = load i32, ptr %count, align 4
  call void @wait(i32 %total, ptr %requests)
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
        world_handle, request_size = int(MPI.COMM_WORLD.handle), MPI._sizeof(MPI.Request)
        ir = wrappers_ir(
            comm_size, comm_size == 8, int(MPI.BYTE.handle), type_size, type_size == 8, world_handle, request_size
        )
        library = compile_llvm_ir(ir)
        set_timeout_in(library, _timeout)
        if _report is not None:
            _write_report(library, *_report)
        for symbol in (ALLREDUCE, ALLGATHER, ALLTOALL, PERMUTE):
            llvm.add_symbol(symbol, library.address(symbol))
        _library = library


_timeout = 120.0
TIMEOUT_MESSAGE = "xla-opt: an MPI collective waited longer than the replica timeout: some replica never reached it"
REPORT_LINE_BYTES, REPORT_PATH_BYTES = 1024, 4096
_report: tuple[str, str] | None = None  # (file, line) of set_report


def set_report(path: str, line: str) -> None:
    """On a timeout, compiled code writes `line` (and a newline) to stderr and to the
    file `path` (O_CREAT|O_TRUNC, 0644) before MPI_Abort: mpirun may drop the last
    output of an aborting rank, the launcher reads the file (mpi_launch.py)."""
    global _report
    _report = (path, line)
    if _library is not None:
        _write_report(_library, path, line)


def _write_report(library: Any, path: str, line: str) -> None:
    import ctypes

    engine = library.engine
    data = (line.encode()[: REPORT_LINE_BYTES - 2] + b"\n").ljust(REPORT_LINE_BYTES, b"\0")
    ctypes.memmove(engine.get_global_value_address("xla_opt_mpi_report_line"), data, len(data))
    where = os.fsencode(path)[: REPORT_PATH_BYTES - 1].ljust(REPORT_PATH_BYTES, b"\0")
    ctypes.memmove(engine.get_global_value_address("xla_opt_mpi_report_path"), where, len(where))


def set_timeout_in(library: Any, seconds: float) -> None:
    import ctypes

    ctypes.c_double.from_address(library.engine.get_global_value_address("xla_opt_mpi_timeout")).value = seconds


def set_timeout(seconds: float) -> None:
    """Seconds a compiled collective waits for the other replicas before aborting."""
    global _timeout
    _timeout = seconds
    if _library is not None:
        set_timeout_in(_library, seconds)


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
