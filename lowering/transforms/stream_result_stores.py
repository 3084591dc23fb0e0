"""`stream-result-stores`: a loop that writes a large result buffer, and nothing else
in the function reads, writes it through non-temporal stores: each chunk of its run
is computed into a small buffer on the stack (in L1), then copied out by
`xla_opt_stream_store` (lowering/kernels/stream.py), which writes whole cache lines
without reading them first.

Why: an ordinary store of a line the core does not hold reads the line from memory
first. A result larger than the caches is then read and written; and as it fills L3
it evicts the inputs the next call (or the next kernel) reads. Compilers and libraries
switch to non-temporal stores at a size: glibc's memcpy above a quarter of the
last-level cache (since 2.38), the default `min_bytes` here. A 2048x2048 f32
broadcast add (a 16 MiB result) took 1.05-1.33 ms on one thread with ordinary stores
and 0.74-0.83 ms streamed. LLVM cannot be asked for this on the loop itself: its
vectorizer refuses a `!nontemporal` store it cannot prove aligned to the vector, which
no element store of a loop over a row is.

It runs on the loop level, after `fuse-loop-nests` and before `outline-loop-nests`.
A store is streamed when

* its buffer (through `memref.collapse_shape`/`expand_shape` views) is an argument of
  its function, of static shape and identity layout, at least `min_bytes` large, and
  every use of it and of its views is the buffer operand of a `memref.store`: the
  function never reads it back, so caching it serves nothing here (a result the caller
  reads later, from memory anyway at that size);
* it is directly in the body of an `scf.for` (carrying no values) or a one-dimensional
  `scf.parallel` (no reductions) stepping by 1 between constants, its last index is
  that loop's induction variable plus a value defined outside the loop (or the
  variable alone) and its other indices are defined outside the loop: the loop writes
  one contiguous run;
* the loop neither divides nor computes a transcendental function (`_compute_bound`);
* the run is at least `min_run_bytes` long. Shorter runs measured no faster (a
  65536x64 broadcast add) or slower (an embedding lookup of 65536 rows of 256 bytes
  from a 25 MB table: 1.9 ms with ordinary stores, 3.5 ms streamed a row at a time).

The loop then stores into `scratch[iv - start]` (a `memref.alloca` of one chunk,
`chunk_bytes`), and after it `xla_opt_stream_store` copies the chunk to its place. A
loop longer than a chunk, and every parallel loop, is strip-mined first: an outer loop
of the same kind over chunks, an `scf.for` over one chunk inside it. The scratch is
allocated at the top of the innermost `scf.parallel` around the loop (one per thread:
`convert-omp-to-llvm` hoists it into the thread's body), else just before the loop
nest. Non-temporal stores are weakly ordered: `convert-omp-to-llvm` fences each
thread's stores at the end of its share of a parallel loop, and a nest that is not
parallel is followed by `xla_opt_stream_fence()`.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.utils.exceptions import PassFailedException
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.stream import FENCE, FENCE_PARAMS, STORE, STORE_PARAMS
from xla_opt.lowering.utils.llvm_types import PTR, byte_width, num_elements, row_major_strides, storage_type

from xla_opt.diagnostics import locate_unlocated

_VIEWS = (memref.CollapseShapeOp, memref.ExpandShapeOp)
_INDEX = IndexType()


@functools.cache
def last_level_cache_bytes() -> int | None:
    """The size of the host's largest cache (sysfs, else glibc's sysconf), or None; read
    once per process (the pass runs on every program compiled)."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    sizes = []
    try:
        for entry in os.listdir(base):
            if entry.startswith("index"):
                with open(os.path.join(base, entry, "size")) as f:
                    text = f.read().strip()
                scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
                sizes.append(int(text.rstrip("KMG")) * scale)
    except (OSError, ValueError):
        pass
    if not sizes:
        try:
            sizes.append(os.sysconf("SC_LEVEL3_CACHE_SIZE"))
        except (ValueError, OSError):
            pass
    largest = max(sizes, default=0)
    return largest if largest > 0 else None


def default_min_bytes() -> int:
    """A quarter of the last-level cache (glibc's threshold); 8 MiB when unknown."""
    cache = last_level_cache_bytes()
    return cache // 4 if cache else 8 << 20


def _write_only(buffer: SSAValue) -> bool:
    """Whether every use of `buffer` and of its views is the buffer of a memref.store."""
    for use in buffer.uses:
        user = use.operation
        if isinstance(user, memref.StoreOp) and use.index == 1:
            continue
        if isinstance(user, _VIEWS) and _write_only(user.results[0]):
            continue
        return False
    return True


def _stores(buffer: SSAValue) -> list[memref.StoreOp]:
    found = []
    for use in buffer.uses:
        user = use.operation
        found.extend(_stores(user.results[0]) if isinstance(user, _VIEWS) else [user])  # type: ignore[list-item]
    return found


def _streamable_buffer(arg: BlockArgument, min_bytes: int) -> bool:
    t = arg.type
    if not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr):
        return False
    if any(d < 0 for d in t.get_shape()):
        return False
    try:
        size = byte_width(t.get_element_type()) * num_elements(t)
    except PassFailedException:
        return False
    return size >= min_bytes and bool(arg.uses) and _write_only(arg)


def _defined_outside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is not loop and not loop.is_ancestor(op)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Run:
    """A streamed store: its loop writes `store.memref` at indices `prefix` + [iv + offset]."""

    store: memref.StoreOp
    offset: SSAValue | None


def _loop_facts(loop: Operation) -> tuple[SSAValue, int, int] | None:
    """A loop's induction variable and constant bounds, if it steps by 1 and carries
    nothing."""
    if isinstance(loop, scf.ForOp):
        if loop.iter_args:
            return None
        bounds, iv = (loop.lb, loop.ub, loop.step), loop.body.block.args[0]
    elif isinstance(loop, scf.ParallelOp):
        if len(loop.lowerBound) != 1 or loop.initVals:
            return None
        bounds, iv = (loop.lowerBound[0], loop.upperBound[0], loop.step[0]), loop.body.block.args[0]
    else:
        return None
    lb, ub, step = (const_evaluate_operand(v) for v in bounds)
    if step != 1 or lb is None or ub is None or ub <= lb:
        return None
    return iv, lb, ub


def _run(store: memref.StoreOp, loop: Operation, iv: SSAValue) -> _Run | None:
    """The store as a contiguous run of its loop, if it is one (module doc)."""
    *prefix, last = store.indices
    if not all(_defined_outside(i, loop) for i in prefix) or not _defined_outside(store.memref, loop):
        return None
    if last is iv:
        return _Run(store, None)
    add = last.owner
    if isinstance(add, arith.AddiOp):
        for this, other in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
            if this is iv and _defined_outside(other, loop):
                return _Run(store, other)
    return None


class _Emitter:
    """Ops inserted before an anchor (at the end of the block without one), each placed
    where the loop being rewritten was (MLIR's rule for what a rewrite creates)."""

    def __init__(self, block: Block, before: Operation | None, location: Attribute):
        self.block, self.before, self.location = block, before, location

    def add(self, op: Operation) -> SSAValue:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        locate_unlocated(op, self.location)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, _INDEX)))

    def i64(self, value: int) -> SSAValue:
        return self.add(llvm.ConstantOp(IntegerAttr(value, i64), i64))


def _stream_out(e: _Emitter, run: _Run, scratch: SSAValue, start: SSAValue | int, count: SSAValue | int) -> None:
    """`xla_opt_stream_store(&buffer[prefix, start + offset], scratch, count * size)`."""
    t = run.store.memref.type
    assert isinstance(t, MemRefType)
    element = t.get_element_type()
    if isinstance(start, int):
        first = e.index(start) if start else None  # None: zero, no term
    else:
        first = start
    if run.offset is None:
        last = first
    else:
        last = run.offset if first is None else e.add(arith.AddiOp(first, run.offset))
    offset: SSAValue | None = None
    for index, stride in zip([*run.store.indices[:-1], last], row_major_strides(t.get_shape()), strict=True):
        if index is None:
            continue
        term = index if stride == 1 else e.add(arith.MuliOp(index, e.index(stride)))
        offset = term if offset is None else e.add(arith.AddiOp(offset, term))
    offset = offset or e.index(0)
    base = e.add(llvm.BitcastOp(run.store.memref, PTR))
    at = e.add(llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], storage_type(element), ssa_indices=[e.add(arith.IndexCastOp(offset, i64))], inbounds=True))
    if isinstance(count, int):
        size = e.i64(count * byte_width(element))
    else:
        size = e.add(arith.MuliOp(e.add(arith.IndexCastOp(count, i64)), e.i64(byte_width(element))))
    e.add(llvm.CallOp(STORE, at, e.add(llvm.BitcastOp(scratch, PTR)), size))


def _scratch_site(loop: Operation, location: Attribute) -> _Emitter:
    """Where a loop's scratch is allocated: the top of the innermost scf.parallel body
    around it (one per thread), else just before the function-level op holding it."""
    op = loop
    while True:
        parent = op.parent_op()
        if isinstance(parent, scf.ParallelOp):
            block = parent.body.block
            return _Emitter(block, block.first_op, location)
        if isinstance(parent, func.FuncOp) or parent is None:
            return _Emitter(op.parent_block(), op, location)  # type: ignore[arg-type]
        op = parent


def _in_parallel(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.ParallelOp):
            return True
        parent = parent.parent_op()
    return False


def _top_level(op: Operation) -> Operation:
    while not isinstance(op.parent_op(), func.FuncOp):
        op = op.parent_op()  # type: ignore[assignment]
    return op


def _redirect(run: _Run, scratch: SSAValue, position: SSAValue) -> None:
    """The run's store writes `scratch[position]` instead; the sum that computed its
    last index goes when nothing else reads it."""
    store = run.store
    last = store.indices[-1].owner
    into_scratch = memref.StoreOp.get(store.value, scratch, [position])
    into_scratch.location = store.location
    store.parent_block().insert_op_before(into_scratch, store)  # type: ignore[union-attr]
    store.detach()
    store.erase()
    if run.offset is not None and isinstance(last, arith.AddiOp) and not last.result.uses:
        last.detach()
        last.erase()


def _stream_loop(loop: Operation, facts: tuple[SSAValue, int, int], runs: list[_Run], chunk_bytes: int) -> Operation:
    """Rewrite `loop`, whose induction variable and bounds are `facts` (module doc);
    returns the loop op now at its place."""
    iv, lb, ub = facts
    at = loop.location
    trips = ub - lb
    width = max(byte_width(r.store.memref.type.get_element_type()) for r in runs)  # type: ignore[attr-defined]
    chunk = max(1, chunk_bytes // width)
    if isinstance(loop, scf.ForOp) and trips <= chunk:
        site = _scratch_site(loop, at)
        scratches = [site.add(memref.AllocaOp.get(r.store.value.type, shape=[trips])) for r in runs]
        body = loop.body.block
        e = _Emitter(body, body.first_op, at)
        position = iv if lb == 0 else e.add(arith.SubiOp(iv, e.index(lb)))
        for run, scratch in zip(runs, scratches, strict=True):
            _redirect(run, scratch, position)
        after = _Emitter(loop.parent_block(), loop.next_op, at)  # type: ignore[arg-type]
        for run, scratch in zip(runs, scratches, strict=True):
            _stream_out(after, run, scratch, lb, trips)
        return loop

    # strip-mined: an outer loop of the same kind over chunks, an scf.for over one chunk
    parent = loop.parent_block()
    assert parent is not None
    e = _Emitter(parent, loop, at)
    lower, upper, step = e.index(lb), e.index(ub), e.index(chunk)
    outer_body = Block(arg_types=[_INDEX])
    if isinstance(loop, scf.ForOp):
        outer: Operation = scf.ForOp(lower, upper, step, [], Region(outer_body))
    else:
        outer = scf.ParallelOp([lower], [upper], [step], Region(outer_body))
    e.add(outer)
    k = outer_body.args[0]
    o = _Emitter(outer_body, None, at)
    scratch_site = o if isinstance(loop, scf.ParallelOp) else _scratch_site(outer, at)
    scratches = [scratch_site.add(memref.AllocaOp.get(r.store.value.type, shape=[chunk])) for r in runs]
    end = o.add(arith.MinSIOp(o.add(arith.AddiOp(k, o.index(chunk))), upper))
    inner_body = Block(arg_types=[_INDEX])
    o.add(scf.ForOp(k, end, o.add(arith.ConstantOp(IntegerAttr(1, _INDEX))), [], Region(inner_body)))
    body = loop.body.block
    terminator = body.last_op
    assert terminator is not None
    for op in list(body.ops):
        if op is not terminator:
            op.detach()
            inner_body.add_op(op)
    iv.replace_all_uses_with(inner_body.args[0])
    inner_body.add_op(scf.YieldOp())
    j = inner_body.args[0]
    i = _Emitter(inner_body, inner_body.first_op, at)
    position = i.add(arith.SubiOp(j, k))
    for run, scratch in zip(runs, scratches, strict=True):
        _redirect(run, scratch, position)
    count = o.add(arith.SubiOp(end, k))
    for run, scratch in zip(runs, scratches, strict=True):
        _stream_out(o, run, scratch, k, count)
    o.add(scf.YieldOp() if isinstance(outer, scf.ForOp) else scf.ReduceOp())
    locate_unlocated(outer, at)
    loop.detach()
    loop.erase()
    return outer


def _compute_bound(loop: Operation) -> bool:
    """Whether the loop computes a transcendental function or divides (a `math` op or
    `arith.divf`): it is then slower than the memory it writes, and streaming saves
    nothing; its chunk loop also kept LLVM from hoisting the function's constants on
    AVX2 (16 vector registers): `tanh(a*b+c)*0.5+a` on 4M f32 took 4.3 ms streamed
    and 2.9 ms not (one thread, the AMD EPYC)."""
    return any(o.dialect_name() == "math" or isinstance(o, arith.DivfOp) for o in loop.walk())


def _declare(module: ModuleOp) -> None:
    libraries.declare(module, STORE, STORE_PARAMS)
    libraries.declare(module, FENCE, FENCE_PARAMS)


def streams(op: Operation) -> bool:
    """Whether `op` holds a call of `xla_opt_stream_store` (its stores then need a fence)."""
    return any(isinstance(o, llvm.CallOp) and o.callee.string_value() == STORE for o in op.walk())


@dataclass(frozen=True)
class StreamResultStoresPass(ModulePass):
    """Stores of large write-only result buffers through non-temporal chunk copies (see
    the module doc)."""

    name = "stream-result-stores"
    input_dialects = ("memref", "scf")
    output_dialects = ("arith", "llvm", "memref", "scf")

    min_bytes: int | None = None
    """Buffers at least this large are streamed; default: a quarter of the host's
    last-level cache."""

    min_run_bytes: int = 4096
    """The shortest contiguous run of a loop that is streamed."""

    chunk_bytes: int = 4096
    """The scratch chunk a loop computes before each copy."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        min_bytes = default_min_bytes() if self.min_bytes is None else self.min_bytes
        used = False
        for fn in [o for o in op.body.block.ops if isinstance(o, func.FuncOp) and o.body.blocks]:
            runs_by_loop: dict[Operation, list[_Run]] = {}
            facts_of: dict[Operation, tuple[SSAValue, int, int]] = {}
            for arg in fn.args:
                if not _streamable_buffer(arg, min_bytes):
                    continue
                for store in _stores(arg):
                    loop = store.parent_op()
                    facts = _loop_facts(loop) if loop is not None else None
                    if facts is None or store.parent_block() is not loop.body.block:  # type: ignore[union-attr]
                        continue
                    iv, lb, ub = facts
                    width = byte_width(store.memref.type.get_element_type())  # type: ignore[attr-defined]
                    if (ub - lb) * width < self.min_run_bytes:
                        continue
                    if (run := _run(store, loop, iv)) is not None:  # type: ignore[arg-type]
                        runs_by_loop.setdefault(loop, []).append(run)  # type: ignore[arg-type]
                        facts_of[loop] = facts  # type: ignore[index]
            fenced: set[Operation] = set()
            for loop, runs in runs_by_loop.items():
                if _compute_bound(loop):
                    continue
                streamed = _stream_loop(loop, facts_of[loop], runs, self.chunk_bytes)
                used = True
                if not _in_parallel(streamed) and not isinstance(streamed, scf.ParallelOp):
                    top = _top_level(streamed)
                    if top not in fenced:
                        fenced.add(top)
                        fence = llvm.CallOp(FENCE)
                        fence.location = top.location
                        top.parent_block().insert_op_after(fence, top)  # type: ignore[union-attr]
        if used:
            _declare(op)
