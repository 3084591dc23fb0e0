"""`linalg-write-in-place`: a parallel generic that fills a fresh buffer only to have it
copied over another buffer writes that buffer directly.

`xla-bufferize` gives every value a buffer of its own and copies a loop's new state
back into the state's buffer at the end of each trip: a while body computing
`x = x * 0.5 + 1` allocates `t`, runs the generic `t[i] = x[i] * 0.5 + 1`, then copies
`t` into `x` (a second pass over the state on every trip, as long as the computation
itself for an element-wise body). Where the generic can write `x` itself, the copy,
`t`'s allocation and its dealloc go: MLIR's one-shot bufferization makes the same
in-place decision on tensors. Given `memref.copy(t, d)` in a block, it applies when

* `t` comes from a `memref.alloc` or `memref.alloca` whose only uses are one generic's
  output operand, this copy and at most one dealloc;
* that generic comes before the copy in the same block, has only parallel loops, does
  not read its output `t` in its body (`t`'s initial contents are undefined anyway),
  and its indexing map for `t` is a permutation of its loops (each element written by
  one iteration);
* every operand of the generic that is `d` is indexed by the same map as `t`: the
  iteration that writes `d[f(i)]` is the only one reading it, and reads it first (so
  `y = x + x` stays in place, `y = reverse(x)` does not); no other operand is a view of
  `d` (a subview, cast or reshape of it), whose elements could be read elsewhere;
* the generic's body does not use `d` or a view of it as a captured value (a gather's
  `memref.load d[perm[i]]`, as a sort lowers to): it reads elements other iterations
  may already have written;
* `d` is defined before the generic, and nothing between the generic and the copy uses
  `d` or a view of it: the old `d` it might read is gone once the generic has written it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xla_opt.pattern_dispatch import ConversionWalker

# ops whose result is a view of (aliases) their first operand's buffer
VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.MemorySpaceCastOp,
)


def buffer_root(value: SSAValue) -> SSAValue:
    """The buffer `value` is a view of (itself when it is not a view)."""
    while isinstance(value.owner, VIEWS):
        value = value.owner.operands[0]
    return value


def views_of(buffer: SSAValue) -> list[SSAValue]:
    """`buffer` and every view of it, transitively."""
    found, work = [], [buffer]
    while work:
        value = work.pop()
        found.append(value)
        work.extend(use.operation.results[0] for use in value.uses if isinstance(use.operation, VIEWS))
    return found


def _producer(fresh: SSAValue, copy: memref.CopyOp) -> tuple[linalg.GenericOp, int] | None:
    """The generic writing the fresh buffer `fresh` and its output index, when `fresh`'s
    only other uses are `copy` and one dealloc."""
    users = [use.operation for use in fresh.uses]
    generics = [op for op in users if isinstance(op, linalg.GenericOp)]
    deallocs = [op for op in users if isinstance(op, memref.DeallocOp)]
    if len(generics) != 1 or len(deallocs) > 1 or len(users) != 1 + len(deallocs) + 1:
        return None
    (generic,) = generics
    outputs = list(generic.outputs)
    if fresh not in outputs or outputs.count(fresh) != 1 or fresh in generic.inputs:
        return None
    if generic.parent_block() is not copy.parent_block():
        return None
    return generic, outputs.index(fresh)


def _writes_in_place_safely(generic: linalg.GenericOp, out: int, dest: SSAValue, copy: memref.CopyOp) -> bool:
    """The conditions of the module doc on the generic, `dest` and the ops between them."""
    if any(it.data != linalg.IteratorType.PARALLEL for it in generic.iterator_types.data):
        return False
    n_in = len(generic.inputs)
    maps = generic.indexing_maps.data
    out_map = maps[n_in + out]
    written = out_map.data
    one_element_per_iteration = (
        not written.num_symbols
        and len(written.results) == written.num_dims
        and written.inverse_permutation() is not None
    )  # a permutation of the loops
    if not one_element_per_iteration or generic.body.block.args[n_in + out].uses:
        return False
    root = buffer_root(dest)
    for i, operand in enumerate(generic.operands):
        if i == n_in + out:
            continue
        if operand == dest:
            if maps[i] != out_map:
                return False
        elif buffer_root(operand) == root:
            return False  # another view of dest: elements read elsewhere
    views = views_of(root)
    if any(use.operation is not generic and generic.is_ancestor(use.operation) for view in views for use in view.uses):
        return False  # read in the body at an index of its own (a gather): maybe already overwritten
    block = copy.parent_block()
    assert block is not None
    between = set()
    op = generic.next_op
    while op is not None and op is not copy:
        between.add(op)
        op = op.next_op
    if op is None:
        return False  # the copy is not after the generic
    if isinstance(dest.owner, Operation) and dest.owner in between:
        return False  # dest defined after the generic: it could not write it
    # a use outside the block runs before or after the whole block, not between
    return not any(block.find_ancestor_op_in_block(use.operation) in between for view in views for use in view.uses)


class WriteInPlace(RewritePattern):
    """`t = alloc; generic(... outs t); ...; copy(t, d); dealloc t` -> `generic(... outs d)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        fresh, dest = op.source, op.destination
        if fresh.type != dest.type or not isinstance(fresh.owner, memref.AllocOp | memref.AllocaOp):
            return
        found = _producer(fresh, op)
        if found is None or not _writes_in_place_safely(*found, dest, op):
            return
        generic, out = found
        operands = list(generic.operands)
        operands[len(generic.inputs) + out] = dest
        generic.operands = operands
        alloc = fresh.owner
        rewriter.erase(op)
        for use in list(fresh.uses):
            rewriter.erase(use.operation)  # the dealloc
        rewriter.erase(alloc)


@dataclass(frozen=True)
class WriteInPlacePass(ModulePass):
    """Generics write the buffers their results are copied into (see the module doc)."""

    name = "linalg-write-in-place"
    input_dialects = ("linalg", "memref")
    output_dialects = ("linalg",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConversionWalker([WriteInPlace()], repeat=False, erase_dead=False).rewrite_module(op)
