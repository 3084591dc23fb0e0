"""`buffer-loop-hoisting`: allocations a loop makes and frees on every trip are made
once, around the loop (MLIR's pass of the same name).

`xla-bufferize` frees every allocation a region makes at the end of that region, so a
loop body's temporaries (a while loop's new state, its condition's i1) are a
`memref.alloc` at the top of each trip and a `memref.dealloc` at its end: a malloc and
a free per iteration, the largest part of a small loop's time. An allocation

* of a static shape (no size operands: the same buffer fits every trip),
* in a block of a loop (`scf.for`, `scf.while`, `scf.parallel`),
* freed in that same block (its contents do not outlive the trip that wrote them),

moves before the loop and its dealloc after it; the next trip reuses the buffer, whose
old contents it overwrites as a fresh allocation's undefined ones would be. Repeated
until nothing moves, so a buffer leaves every loop it is nested in. One that ends up
in the function's top-level block and is small (`xla-bufferize`'s stack limit) becomes
a `memref.alloca` with no dealloc, as `xla-bufferize` makes top-level temporaries.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xla_opt.lowering.conversions.xla_bufferize import STACK_LIMIT_BYTES, _byte_size

LOOPS = (scf.ForOp, scf.WhileOp, scf.ParallelOp)


def _dealloc_in_block(alloc: memref.AllocOp, block: Block) -> memref.DeallocOp | None:
    """The dealloc of `alloc`'s buffer among `block`'s own ops, if that is where it is
    freed (and freed once)."""
    deallocs = [use.operation for use in alloc.memref.uses if isinstance(use.operation, memref.DeallocOp)]
    if len(deallocs) != 1 or deallocs[0].parent_block() is not block:
        return None
    return deallocs[0]


def _hoist_once(fn: func.FuncOp) -> bool:
    """Move every hoistable allocation one loop out; whether any moved."""
    moved = False
    for alloc in [op for op in fn.walk() if isinstance(op, memref.AllocOp)]:
        block = alloc.parent_block()
        loop = block.parent_op() if block is not None else None
        if block is None or not isinstance(loop, LOOPS) or alloc.dynamic_sizes or alloc.symbol_operands:
            continue
        dealloc = _dealloc_in_block(alloc, block)
        if dealloc is None:
            continue
        outer = loop.parent_block()
        assert outer is not None
        alloc.detach()
        dealloc.detach()
        outer.insert_op_before(alloc, loop)
        outer.insert_op_after(dealloc, loop)
        moved = True
    return moved


def _to_stack(fn: func.FuncOp, stack_limit_bytes: int) -> None:
    """Small allocations of the function's top-level block become stack allocations."""
    top = fn.body.block
    for alloc in [op for op in top.ops if isinstance(op, memref.AllocOp)]:
        t = alloc.memref.type
        if not isinstance(t, MemRefType) or alloc.dynamic_sizes or _byte_size(t) > stack_limit_bytes:
            continue
        deallocs = [use.operation for use in alloc.memref.uses if isinstance(use.operation, memref.DeallocOp)]
        if len(deallocs) != 1 or deallocs[0].parent_block() is not top:
            continue
        stack = memref.AllocaOp.get(t.get_element_type(), shape=t.get_shape())
        top.insert_op_before(stack, alloc)
        alloc.memref.replace_all_uses_with(stack.memref)
        top.erase_op(deallocs[0])
        top.erase_op(alloc)


def hoist_loop_buffers(fn: func.FuncOp, stack_limit_bytes: int = STACK_LIMIT_BYTES) -> None:
    hoisted = False
    while _hoist_once(fn):
        hoisted = True
    if hoisted:
        _to_stack(fn, stack_limit_bytes)


@dataclass(frozen=True)
class BufferLoopHoistingPass(ModulePass):
    """Per-trip allocations of loops made once around them (see the module doc)."""

    name = "buffer-loop-hoisting"
    input_dialects = ("memref",)
    output_dialects = ("memref",)

    stack_limit_bytes: int = STACK_LIMIT_BYTES
    """A hoisted buffer of at most this many bytes at a function's top level goes on the
    stack (xla-bufferize's limit)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                hoist_loop_buffers(fn, self.stack_limit_bytes)
