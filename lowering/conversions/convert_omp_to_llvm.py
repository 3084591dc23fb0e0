"""`convert-omp-to-llvm`: each `omp.parallel` region (the form `convert-scf-to-openmp`
emits: `omp.parallel { omp.wsloop { omp.loop_nest ... } }`) becomes an outlined
function run by libgomp's `GOMP_parallel`.

It runs on the loop level, before `convert-scf-to-cf`; what it emits is func/scf/arith
code plus the llvm-dialect glue of the runtime interface (a struct of captured values
on the stack), which `convert-to-llvm` finishes. For a region in `@f`:

* `@f_omp_body_N(captured..., %tid: i32, %team: i32)` (internal: `llvm.linkage`): the
  region's code, with the loop nest under a static schedule: its iterations, linearized
  (the collapsed loops in row-major order), split into `team` contiguous chunks of
  ceil(total / team); thread `tid` runs [tid * chunk, min((tid + 1) * chunk, total)) as
  an `scf.for` that recomputes the induction variables. The team's actual size is a
  parameter: libgomp may give fewer threads than asked, and the chunks always cover the
  nest. Static allocas that start the loop body (`stream-result-stores`' scratch) are
  made once, before the thread's chunk; a body that streams (non-temporal stores) ends
  with the thread's `xla_opt_stream_fence()`.
* `@f_omp_region_N(%data: !llvm.ptr)`, the `void(void*)` GOMP_parallel runs on each
  thread: it loads the captured values from the struct at %data, asks
  `omp_get_thread_num`/`omp_get_num_threads` and calls the body.
* at the region's place: the captured values stored into a struct (one `llvm.alloca`
  in the function's entry block, so a region in a loop does not grow the stack), then
  `GOMP_parallel(@f_omp_region_N, %struct, n, 0)` when the runtime's thread count
  `n = xla_opt_num_threads()` (lowering/kernels/threads.py) is above 1, else a direct call of
  the region function (which then runs the whole nest: thread 0 of 1).

Captured memrefs are bare pointers after `convert-to-llvm`, which marks a function's
memref parameters `noalias`, the knowledge LLVM needs to vectorize the loops and keep
reduction accumulators in registers. The body takes them as memrefs (so `noalias`)
only when that is true: when each is a distinct buffer (an entry-block argument, as
the calling convention already promises, an alloc, an alloca, or a distinct global);
otherwise as `!llvm.ptr`, cast back inside. Constants and globals used in the region
are rematerialized in the body rather than passed (LLVM then sees constant bounds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, omp, scf
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.utils.exceptions import PassFailedException
from xla_opt.lowering.kernels.stream import FENCE as STREAM_FENCE
from xla_opt.lowering.utils.llvm_types import PTR, llvm_type
from xla_opt.lowering.utils.outlining import REMATERIALIZED, FreshNames, captured_values, distinct_buffers
from xla_opt.lowering.transforms.stream_result_stores import streams

from xla_opt.diagnostics import locate_unlocated
from xla_opt.pattern_dispatch import ConversionWalker
from xla_opt.lowering.kernels.threads import GOMP_PARALLEL, NUM_THREADS, TEAM_SIZE, THREAD_NUM

_INDEX = IndexType()
@dataclass(frozen=True)
class _Region:
    """The parts of a supported omp.parallel: the pure ops before the worksharing loop
    (each thread runs them) and the loop nest."""

    prologue: list[Operation]
    nest: omp.LoopNestOp


def _region_parts(op: omp.ParallelOp) -> _Region:
    def unsupported(what: str) -> PassFailedException:
        return PassFailedException(f"convert-omp-to-llvm: {what} is not supported")

    if op.num_threads is not None or op.if_expr is not None or op.private_vars or op.reduction_vars or op.allocate_vars:
        raise unsupported("an omp.parallel with clauses")
    if len(op.region.blocks) != 1:
        raise unsupported("an omp.parallel region of several blocks")
    ops = list(op.region.block.ops)
    if len(ops) < 2 or not isinstance(ops[-2], omp.WsLoopOp) or not isinstance(ops[-1], omp.TerminatorOp):
        raise unsupported("an omp.parallel region that is not one omp.wsloop")
    wsloop = ops[-2]
    if wsloop.reduction_vars or wsloop.private_vars or wsloop.linear_vars or wsloop.ordered is not None:
        raise unsupported("an omp.wsloop with reduction, private, linear or ordered clauses")
    nest = wsloop.body.block.first_op
    if not isinstance(nest, omp.LoopNestOp) or nest.loop_inclusive is not None:
        raise unsupported("an omp.wsloop around anything but an exclusive omp.loop_nest")
    for prologue_op in ops[:-2]:
        if prologue_op.regions or not isinstance(prologue_op, REMATERIALIZED + (arith.IndexCastOp,)):
            raise unsupported(f"'{prologue_op.name}' before the omp.wsloop")
    return _Region(ops[:-2], nest)


class _Builder:
    """Appends ops to a block."""

    def __init__(self, block: Block):
        self.block = block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, _INDEX)))

    def cast(self, value: SSAValue, to: Attribute) -> SSAValue:
        if value.type == to:
            return value
        return self.add(UnrealizedConversionCastOp.get([value], [to]))


def _static_schedule(b: _Builder, nest: omp.LoopNestOp, tid: SSAValue, team: SSAValue, values: dict) -> None:
    """The thread's chunk of `nest` (see the module doc) appended to `b`, with `values`
    mapping the nest's bounds and its outside values to the body's. Trip counts of
    constant bounds are folded, and so is the arithmetic of a zero lower bound or a
    unit step."""
    lbs, ubs, steps = ([values[v] for v in group] for group in (nest.lowerBound, nest.upperBound, nest.step))
    if any(v.type != _INDEX for v in (*lbs, *ubs, *steps)):
        raise PassFailedException("convert-omp-to-llvm: loop bounds must be of index type")
    zero, one = b.index(0), b.index(1)
    trips = []  # iterations of each loop: max(ceil((ub - lb) / step), 0)
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        bounds = [const_evaluate_operand(v) for v in (lb, ub, step)]
        if None not in bounds and bounds[2] > 0:  # type: ignore[operator]
            low, high, stride = bounds
            trips.append(b.index(max(-(-(high - low) // stride), 0)))  # type: ignore[operator]
            continue
        span = b.add(arith.SubiOp(b.add(arith.AddiOp(b.add(arith.SubiOp(ub, lb)), step)), one))
        trips.append(b.add(arith.MaxSIOp(b.add(arith.DivSIOp(span, step)), zero)))
    counts = [const_evaluate_operand(trip) for trip in trips]
    if len(trips) > 1 and None not in counts:
        total = b.index(math.prod(counts))  # type: ignore[arg-type]
    else:
        total = trips[0]
        for trip in trips[1:]:
            total = b.add(arith.MuliOp(total, trip))
    tid_i, team_i = (b.add(arith.IndexCastOp(v, _INDEX)) for v in (tid, team))
    chunk = b.add(arith.DivSIOp(b.add(arith.SubiOp(b.add(arith.AddiOp(total, team_i)), one)), team_i))
    begin = b.add(arith.MinSIOp(b.add(arith.MuliOp(tid_i, chunk)), total))
    end = b.add(arith.MinSIOp(b.add(arith.AddiOp(begin, chunk)), total))
    allocas, body_ops = _loop_body_ops(nest)
    for alloca in allocas:  # the thread's own, before its iterations
        values[alloca.memref] = b.add(alloca.clone(value_mapper=values))
    loop_body = Block(arg_types=[_INDEX])
    b.add(scf.ForOp(begin, end, one, [], Region(loop_body)))
    inner = _Builder(loop_body)
    rest = loop_body.args[0]
    ivs: list[SSAValue] = []
    for k in reversed(range(len(trips))):  # the last loop varies fastest
        iv = rest
        if k:
            iv = inner.add(arith.RemSIOp(rest, trips[k]))
            rest = inner.add(arith.DivSIOp(rest, trips[k]))
        if const_evaluate_operand(steps[k]) != 1:
            iv = inner.add(arith.MuliOp(iv, steps[k]))
        if const_evaluate_operand(lbs[k]) != 0:
            iv = inner.add(arith.AddiOp(lbs[k], iv))
        ivs.insert(0, iv)
    for arg, iv in zip(nest.body.block.args, ivs, strict=True):
        values[arg] = iv
    for op in body_ops:
        loop_body.add_op(op.clone(value_mapper=values))
    loop_body.add_op(scf.YieldOp())
    if streams(nest):  # the thread's non-temporal stores done before it reports
        b.add(llvm.CallOp(STREAM_FENCE))


def _loop_body_ops(nest: omp.LoopNestOp) -> tuple[list[memref.AllocaOp], list[Operation]]:
    """The loop nest's body without its omp.yield, memref.alloca_scope inlined: the
    allocas of static shape it starts with (scratch buffers, `stream-result-stores`),
    which the thread allocates once for all its iterations (an iteration's alloca is
    fresh, uninitialized memory: one a thread reuses is as good), and the other ops, in
    which no alloca may be (the scf.for would grow the stack at every iteration)."""
    ops = list(nest.body.block.ops)[:-1]
    if len(ops) == 1 and isinstance(scope := ops[0], memref.AllocaScopeOp) and not scope.results:
        ops = list(scope.scope.block.ops)[:-1]
    allocas: list[memref.AllocaOp] = []
    while ops and isinstance(ops[0], memref.AllocaOp) and not ops[0].dynamic_sizes:
        allocas.append(ops.pop(0))  # type: ignore[arg-type]
    for op in ops:
        if any(isinstance(o, memref.AllocaOp | memref.AllocaScopeOp) for o in op.walk()):
            raise PassFailedException("convert-omp-to-llvm: a stack allocation in a parallel loop is not supported")
    return allocas, ops


def _enclosing_function(op: Operation) -> func.FuncOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    if parent is None:
        raise PassFailedException("convert-omp-to-llvm: an omp.parallel outside a function")
    return parent


class ParallelToGomp(RewritePattern):
    """omp.parallel -> outlined body and region functions + GOMP_parallel (module doc)."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names = FreshNames(module)
        self.used = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: omp.ParallelOp, rewriter: PatternRewriter) -> None:
        parts = _region_parts(op)
        fn = _enclosing_function(op)
        outside = captured_values(op)
        captured = [v for v in outside if not isinstance(v.owner, REMATERIALIZED)]
        rematerialized = [v for v in outside if isinstance(v.owner, REMATERIALIZED)]
        as_memrefs = distinct_buffers(captured)
        param_types = [v.type if as_memrefs and isinstance(v.type, MemRefType) else llvm_type(v.type) for v in captured]
        fields = [llvm_type(v.type) for v in captured]
        struct = llvm.LLVMStructType.from_type_list(fields)
        prefix = fn.sym_name.data

        # the body: captured values, then thread number and team size
        body_name = self.names.fresh(f"{prefix}_omp_body")
        body_block = Block(arg_types=[*param_types, i32, i32])
        b = _Builder(body_block)
        values: dict[SSAValue, SSAValue] = {}
        for v in rematerialized:
            values[v] = b.add(v.owner.clone())  # type: ignore[union-attr]
        for v, arg in zip(captured, body_block.args, strict=False):
            arg.name_hint = v.name_hint
            values[v] = b.cast(arg, v.type)
        body_block.args[-2].name_hint, body_block.args[-1].name_hint = "tid", "team"
        for prologue_op in parts.prologue:
            b.add(prologue_op.clone(value_mapper=values))
        _static_schedule(b, parts.nest, body_block.args[-2], body_block.args[-1], values)
        b.add(func.ReturnOp())
        body_type = FunctionType.from_lists(body_block.arg_types, [])
        body = func.FuncOp(body_name, body_type, Region(body_block), visibility="private")
        # Internal: called by the region function alone, which LLVM inlines it into and
        # then deletes it, where an external body was optimized and compiled twice (in
        # itself and inlined): the transformer block's LLVM compile 18% longer.
        body.attributes["llvm.linkage"] = llvm.LinkageAttr("internal")

        # the region: void(ptr), unpacks the struct
        region_name = self.names.fresh(f"{prefix}_omp_region")
        region_block = Block(arg_types=[PTR])
        region_block.args[0].name_hint = "data"
        r = _Builder(region_block)
        args = []
        for i, (field, param) in enumerate(zip(fields, param_types, strict=True)):
            at = r.add(llvm.GEPOp(region_block.args[0], [0, i], struct, inbounds=True))
            args.append(r.cast(r.add(llvm.LoadOp(at, field)), param))
        tid = r.add(func.CallOp(THREAD_NUM, [], [i32]))
        team = r.add(func.CallOp(TEAM_SIZE, [], [i32]))
        r.add(func.CallOp(body_name, [*args, tid, team], []))
        r.add(func.ReturnOp())
        region = func.FuncOp(
            region_name,
            FunctionType.from_lists([PTR], []),
            Region(region_block),
            visibility="private",
        )
        for new_fn in (body, region):
            locate_unlocated(new_fn, op.location)  # outlined from the parallel region
            self.module.body.block.insert_op_before(new_fn, fn)

        # the call site: the struct (allocated once, in the entry block), the team
        entry = fn.body.blocks.first
        assert entry is not None
        one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
        alloca = llvm.AllocaOp(one.result, struct, alignment=8)
        # as a plain `ptr`: llvmlite types a GEP into the alloca's typed pointer wrongly
        data = llvm.BitcastOp(alloca.res, PTR)
        rewriter.insert([one, alloca, data], InsertPoint.at_start(entry))
        site = Block()
        s = _Builder(site)
        for i, (v, field) in enumerate(zip(captured, fields, strict=True)):
            at = s.add(llvm.GEPOp(data.result, [0, i], struct, inbounds=True))
            s.add(llvm.StoreOp(s.cast(v, field), at))
        threads = s.add(func.CallOp(NUM_THREADS, [], [i32]))
        many = s.add(arith.CmpiOp(threads, s.add(arith.ConstantOp(IntegerAttr(1, i32))), "sgt"))
        team_block, serial_block = Block(), Block()
        t = _Builder(team_block)
        fn_ptr = t.add(llvm.AddressOfOp(region_name, PTR))
        t.add(
            func.CallOp(
                GOMP_PARALLEL,
                [
                    fn_ptr,
                    data.result,
                    threads,
                    t.add(arith.ConstantOp(IntegerAttr(0, i32))),
                ],
                [],
            )
        )
        t.add(scf.YieldOp())
        _Builder(serial_block).add(func.CallOp(region_name, [data.result], []))
        serial_block.add_op(scf.YieldOp())
        s.add(scf.IfOp(many, [], Region(team_block), Region(serial_block)))
        new_ops = list(site.ops)
        for new_op in new_ops:
            new_op.detach()
        rewriter.replace(op, new_ops, new_results=[])
        self.used = True


_RUNTIME: dict[str, tuple[list[Attribute], list[Attribute]]] = {
    GOMP_PARALLEL: ([PTR, PTR, i32, i32], []),
    THREAD_NUM: ([], [i32]),
    TEAM_SIZE: ([], [i32]),
    NUM_THREADS: ([], [i32]),
}


@dataclass(frozen=True)
class ConvertOmpToLLVMPass(ModulePass):
    """omp.parallel regions as outlined functions run by GOMP_parallel (see the module
    doc)."""

    name = "convert-omp-to-llvm"
    input_dialects = ("memref", "omp")
    output_dialects = ("arith", "builtin", "func", "llvm", "memref", "scf")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = ParallelToGomp(op)
        ConversionWalker([pattern], repeat=False, erase_dead=False).rewrite_module(op)
        if not pattern.used:
            return
        for name, (inputs, outputs) in _RUNTIME.items():
            if SymbolTable.lookup_symbol(op, name) is None:
                op.body.block.add_op(func.FuncOp.external(name, inputs, outputs))
