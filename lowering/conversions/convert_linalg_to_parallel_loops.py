"""`convert-linalg-to-parallel-loops`: the outermost parallel loops of a big bufferized
`linalg.generic` become one `scf.parallel`, the rest of its loop nest `scf.for`.

It runs after `xla-bufferize` (and `linalg-matmul-to-kernel`), before xDSL's
`convert-linalg-to-loops`, which lowers the generics left alone to `scf.for` nests.
A generic is taken when

* every operand is a statically shaped memref,
* its first iterator is parallel: the `scf.parallel` holds the leading run of parallel
  iterators only, so a reduction dimension is never split (each output element is
  accumulated by one thread in the serial order: results are bit-identical to one
  thread's),
* its loop nest has at least `min_iterations` iterations in all: waking a team costs
  microseconds (see MIN_ITERATIONS), which a smaller nest does not repay, and
* threads write disjoint elements: every output is indexed by each parallel loop as a
  plain dimension, its body writes no memory, and a buffer both read and written is
  read where it is written (the same indexing map), so no thread reads what another
  writes.

The `scf.parallel` takes the leading parallel loops while fewer than PARALLEL_GRAIN
iterations are collapsed into it (enough to split evenly over a few threads), never
the innermost loop of a nest of two or more: that one stays an `scf.for` of unit
stride that LLVM vectorizes. The loop nest itself is xDSL's (`convert-linalg-to-loops`'
pattern), whose outer loops are then merged into the `scf.parallel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, ShapedType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import MemoryEffectKind, has_effects
from xdsl.transforms.convert_linalg_to_loops import LowerLinalgStructuredOpPattern
from xla_opt.lowering.conversions.convert_xla_to_linalg.common import PARALLEL

from xla_opt.pattern_dispatch import ConversionWalker

# The default `min_iterations`, measured on the 2-core development machine: a parallel
# region costs ~7.5 us (GOMP_parallel with OMP_WAIT_POLICY=passive wakes the sleeping
# thread and joins it). On the cheapest loop body, an f32 add (~0.15 ns an iteration),
# two threads break even at 2^17 iterations (19.4 us on one thread, 18.9 us on two) and
# halve the time from 2^20 on; heavier bodies gain earlier (tanh from ~2^14), which an
# iteration count cannot see, so small nests of them stay serial.
MIN_ITERATIONS = 1 << 17
# The default `grain`: leading parallel loops go into the scf.parallel until it has this
# many iterations: static chunks of >= 16 iterations each on 4 threads are even to 1/16.
PARALLEL_GRAIN = 64


def parallel_loop_count(op: linalg.GenericOp, min_iterations: int, grain: int = PARALLEL_GRAIN) -> int:
    """How many outer loops of `op` go into its scf.parallel (0: it stays serial)."""
    shaped = [v.type for v in op.operands if isinstance(v.type, ShapedType)]
    if op.res or not all(isinstance(t, MemRefType) and t.has_static_shape() for t in shaped):
        return 0
    ranges = op.get_static_loop_ranges()
    if not ranges or math.prod(ranges) < min_iterations:
        return 0
    iterators = [it.data for it in op.iterator_types.data]
    leading = next((i for i, it in enumerate(iterators) if it != PARALLEL.data), len(iterators))
    if len(ranges) > 1:
        leading = min(leading, len(ranges) - 1)  # the innermost loop stays an scf.for
    count = 0
    while count < leading and math.prod(ranges[:count]) < grain:
        count += 1
    return count if count and _disjoint_writes(op, count) else 0


def _disjoint_writes(op: linalg.GenericOp, count: int) -> bool:
    """Whether threads owning distinct values of the first `count` loops write distinct
    elements and read none another thread writes (see the module doc)."""
    maps = [m.data for m in op.indexing_maps.data]
    n_in = len(op.inputs)
    for output, out_map in zip(op.outputs, maps[n_in:], strict=True):
        dims = {e.position for e in out_map.results if isinstance(e, AffineDimExpr)}
        if not dims.issuperset(range(count)):
            return False
        for value, in_map in zip(op.inputs, maps[:n_in], strict=True):
            if value is output and in_map != out_map:
                return False
    return not any(
        isinstance(inner, memref.StoreOp | func.CallOp | llvm.CallOp) or has_effects(inner, MemoryEffectKind.WRITE)
        for inner in op.body.walk()
    )


@dataclass
class GenericToParallelLoops(RewritePattern):
    """A big generic (see the module doc) -> scf.parallel over its outer parallel loops,
    scf.for inside."""

    min_iterations: int
    grain: int = PARALLEL_GRAIN

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        count = parallel_loop_count(op, self.min_iterations, self.grain)
        if not count:
            return
        after = op.next_op  # a generic is never a block's terminator
        assert after is not None
        LowerLinalgStructuredOpPattern().match_and_rewrite(op, rewriter)
        outer = after.prev_op
        assert isinstance(outer, scf.ForOp)
        # xDSL's nest is perfect: each loop's body is the next loop and its yield
        loops = [outer]
        while len(loops) < count:
            inner = loops[-1].body.block.first_op
            assert isinstance(inner, scf.ForOp)
            loops.append(inner)
        body = Block(arg_types=[IndexType()] * count)
        for loop, iv in zip(loops, body.args, strict=True):
            loop.body.block.args[0].replace_all_uses_with(iv)
        innermost = loops[-1].body.block
        for nested in list(innermost.ops)[:-1]:  # all but its scf.yield
            nested.detach()
            body.add_op(nested)
        body.add_op(scf.ReduceOp())
        parallel = scf.ParallelOp(
            [loop.lb for loop in loops],
            [loop.ub for loop in loops],
            [loop.step for loop in loops],
            Region(body),
        )
        rewriter.replace(outer, parallel, new_results=[])


@dataclass(frozen=True)
class ConvertLinalgToParallelLoopsPass(ModulePass):
    """Big bufferized generics as scf.parallel over their outer parallel loops (see the
    module doc); `min_iterations`: the smallest loop nest (iterations in all) that
    runs on several threads."""

    name = "convert-linalg-to-parallel-loops"
    input_dialects = ("linalg",)
    output_dialects = ("arith", "memref", "scf")

    min_iterations: int = MIN_ITERATIONS
    """The smallest loop nest (iterations in all) that runs on several threads: a
    parallel region costs ~7.5 us, which a smaller nest of cheap iterations does not
    repay."""

    grain: int = PARALLEL_GRAIN
    """Leading parallel loops join the scf.parallel until it has this many iterations
    (so that the threads' static chunks come out even)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GenericToParallelLoops(self.min_iterations, self.grain)
        ConversionWalker([pattern], repeat=False, erase_dead=False).rewrite_module(op)
