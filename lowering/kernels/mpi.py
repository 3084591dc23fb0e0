"""The MPI wrappers compiled collectives call (issue 12), declared once: their symbols
and calling convention, the codes that stand for MPI's datatypes, reduction ops and
communicators in compiled code, and their LLVM IR for a given MPI ABI.

    xla_opt_mpi_allreduce(i64 grouping, i64 count, i64 datatype, i64 op, ptr send, ptr recv)
    xla_opt_mpi_allgather(i64 grouping, i64 bytes, ptr send, ptr recv)
    xla_opt_mpi_alltoall(i64 grouping, i64 block_bytes, ptr send, ptr recv)
    xla_opt_mpi_permute(i64 grouping, i64 bytes, i64 source, i64 target, ptr send, ptr recv)

(the lowering's calling convention: scalars, operand buffers, result buffers). Compiled
code holds no MPI handle: handles are ABI-specific (in MPICH's ABI 32-bit integers, in
Open MPI's the addresses of globals) and communicators exist only in a running job. So
the lowering passes codes, compile-time facts:

* `grouping`: the number of a replica grouping (`intern_grouping`: the rows of
  `replica_groups`, one table per process, numbered in the order the lowering meets
  them, so every rank, lowering the same program, numbers them alike);
* `datatype`, `op`: positions in `DATATYPES` and `OPS`.

The wrappers read the handles from three tables of i64 that the runtime fills
(xla_opt/runtime/mpi.py: MPI's handles from mpi4py, one communicator per grouping made
by `Comm_split` before the program first runs): `@xla_opt_mpi_communicators`,
`@xla_opt_mpi_datatypes`, `@xla_opt_mpi_ops`. But for `allreduce` (integer reducers MPI
applies exactly, `exact_reduction`) they move bytes, so every element type is one
datatype (MPI_BYTE). `permute` sends to `target` and receives from `source` (-1: none;
a replica that receives nothing gets zeros). They start non-blocking operations and
poll them against a deadline (`@xla_opt_mpi_timeout`, the replica timeout): a
collective some replica never reaches aborts the job with one line instead of hanging.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ALLREDUCE = "xla_opt_mpi_allreduce"
ALLGATHER = "xla_opt_mpi_allgather"
ALLTOALL = "xla_opt_mpi_alltoall"
PERMUTE = "xla_opt_mpi_permute"
SYMBOLS = (ALLREDUCE, ALLGATHER, ALLTOALL, PERMUTE)

# The tables the runtime fills, and their sizes
COMMUNICATORS = "xla_opt_mpi_communicators"
DATATYPE_TABLE = "xla_opt_mpi_datatypes"
OP_TABLE = "xla_opt_mpi_ops"
TIMEOUT = "xla_opt_mpi_timeout"
REPORT_LINE = "xla_opt_mpi_report_line"
REPORT_PATH = "xla_opt_mpi_report_path"
MAX_GROUPINGS = 4096

# MPI's names (attributes of mpi4py's MPI) of the datatypes and ops compiled code uses,
# in the order of their codes
DATATYPES = ("C_BOOL", "INT8_T", "INT16_T", "INT32_T", "INT64_T", "UINT8_T", "UINT16_T", "UINT32_T", "UINT64_T")
OPS = ("SUM", "PROD", "MAX", "MIN", "BAND", "BOR", "BXOR", "LAND", "LOR", "LXOR")

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

TIMEOUT_MESSAGE = "xla-opt: an MPI collective waited longer than the replica timeout: some replica never reached it"
REPORT_LINE_BYTES, REPORT_PATH_BYTES = 1024, 4096


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


def datatype_code(element: Any) -> int:
    """The code of MPI's datatype of an xla integer or boolean element type."""
    from xdsl.dialects.builtin import Signedness

    width = element.width.data
    if width == 1:
        return DATATYPES.index("C_BOOL")
    unsigned = element.signedness.data == Signedness.UNSIGNED
    return DATATYPES.index(f"{'U' if unsigned else ''}INT{width}_T")


def op_code(name: str) -> int:
    """The code of MPI's reduction op `name` (a value of EXACT_REDUCTIONS)."""
    return OPS.index(name)


_lock = threading.Lock()
_GROUPINGS: list[tuple[tuple[int, ...], ...]] = []
_GROUPING_IDS: dict[tuple[tuple[int, ...], ...], int] = {}


def intern_grouping(rows: Sequence[Sequence[int]]) -> int:
    """The number of a replica grouping (a partition of the replicas, each row in group
    order) in this process's table; equal groupings, equal numbers."""
    key = tuple(tuple(row) for row in rows)
    with _lock:
        if key not in _GROUPING_IDS:
            if len(_GROUPINGS) == MAX_GROUPINGS:
                raise ValueError(f"more than {MAX_GROUPINGS} distinct replica groupings in one process")
            _GROUPING_IDS[key] = len(_GROUPINGS)
            _GROUPINGS.append(key)
        return _GROUPING_IDS[key]


def groupings() -> list[tuple[tuple[int, ...], ...]]:
    """Every grouping interned so far, by number."""
    with _lock:
        return list(_GROUPINGS)


@dataclass(frozen=True)
class Abi:
    """What the wrappers' LLVM IR depends on in an MPI library: the sizes of a
    communicator and a datatype handle (8-byte handles are pointers, as in Open MPI's
    ABI; 4-byte ones integers, as in MPICH's), MPI_BYTE's and MPI_COMM_WORLD's handles,
    and the size of a request."""

    comm_size: int
    datatype_size: int
    byte_handle: int
    world_handle: int
    request_size: int


def _load_handle(name: str, table: str, size: int, count: int) -> tuple[str, str]:
    """(the instructions reading entry `%name` of `table` into `%name.h`, the ABI's
    handle type: an i32 or a pointer)."""
    load = (
        f"%{name}.slot = getelementptr inbounds [{count} x i64], ptr @{table}, i64 0, i64 %{name}\n"
        f"  %{name}.raw = load i64, ptr %{name}.slot, align 8\n  "
    )
    if size == 8:
        return load + f"%{name}.h = inttoptr i64 %{name}.raw to ptr", "ptr"
    if size == 4:
        return load + f"%{name}.h = trunc i64 %{name}.raw to i32", "i32"
    return load + f"%{name}.h = add i64 %{name}.raw, 0", "i64"


def wrappers_ir(abi: Abi) -> str:
    """The LLVM IR of the wrappers for one MPI ABI (see the module doc). Each starts
    non-blocking operations and polls them (`wait`) against the deadline in the global
    `xla_opt_mpi_timeout` (seconds, set by the runtime): a collective some replica never
    reaches prints one line and aborts the job instead of hanging."""
    comm, comm_t = _load_handle("comm", COMMUNICATORS, abi.comm_size, MAX_GROUPINGS)
    datatype, type_t = _load_handle("type", DATATYPE_TABLE, abi.datatype_size, len(DATATYPES))
    op, op_t = _load_handle("op", OP_TABLE, abi.datatype_size, len(OPS))  # MPI_Op: the same kind of handle
    request_size = abi.request_size
    if abi.datatype_size == 8:
        byte, byte_t = f"inttoptr (i64 {abi.byte_handle} to ptr)", "ptr"
    else:
        byte_t = "i32" if abi.datatype_size == 4 else "i64"
        byte = str(abi.byte_handle - 2**32 if byte_t == "i32" and abi.byte_handle >= 2**31 else abi.byte_handle)
    world = abi.world_handle
    world_value = (
        f"inttoptr (i64 {world} to ptr)"
        if comm_t == "ptr"
        else str(world - 2**32 if comm_t == "i32" and world >= 2**31 else world)
    )
    # the line reported on a timeout (the runtime's set_report: the rank's own words and
    # the file the launcher reads, since mpirun may drop what an aborting rank printed last)
    text = TIMEOUT_MESSAGE.encode()
    line = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}" for c in text)
    line += "\\0A" + "\\00" * (REPORT_LINE_BYTES - len(text) - 1)

    def byte_collective(symbol: str, mpi_function: str) -> str:
        """A wrapper of an MPI collective moving `bytes` bytes per member (allgather, alltoall)."""
        return f"""define void @{symbol}(i64 %comm, i64 %bytes, ptr %send, ptr %recv) {{
  {comm}
  %n = trunc i64 %bytes to i32
  %request = alloca [{request_size} x i8], align 8
  %r = call i32 @{mpi_function}(ptr %send, i32 %n, {byte_t} {byte}, ptr %recv, i32 %n, {byte_t} {byte}, {comm_t} %comm.h, ptr %request)
  call void @wait(i32 1, ptr %request)
  ret void
}}
"""

    return f"""
@{TIMEOUT} = global double 1.200000e+02
@{REPORT_LINE} = global [{REPORT_LINE_BYTES} x i8] c"{line}"
@{REPORT_PATH} = global [{REPORT_PATH_BYTES} x i8] zeroinitializer
@{COMMUNICATORS} = global [{MAX_GROUPINGS} x i64] zeroinitializer
@{DATATYPE_TABLE} = global [{len(DATATYPES)} x i64] zeroinitializer
@{OP_TABLE} = global [{len(OPS)} x i64] zeroinitializer
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
  %limit = load double, ptr @{TIMEOUT}, align 8
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
  %length = call i64 @strlen(ptr @{REPORT_LINE})
  %p = call i64 @write(i32 2, ptr @{REPORT_LINE}, i64 %length)
  %first = load i8, ptr @{REPORT_PATH}, align 1
  %reported = icmp ne i8 %first, 0
  br i1 %reported, label %report, label %stop
report:
  %fd = call i32 (ptr, i32, ...) @open(ptr @{REPORT_PATH}, i32 577, i32 420)
  %w = call i64 @write(i32 %fd, ptr @{REPORT_LINE}, i64 %length)
  %c = call i32 @close(i32 %fd)
  br label %stop
stop:
  %a = call i32 @MPI_Abort({comm_t} {world_value}, i32 1)
  br label %exit
exit:
  ret void
}}

define void @{ALLREDUCE}(i64 %comm, i64 %count, i64 %type, i64 %op, ptr %send, ptr %recv) {{
  {comm}
  {datatype}
  {op}
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
  {comm}
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
