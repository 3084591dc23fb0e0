"""`fuse-loop-nests`: consecutive loop nests over the same rows become one nest (MLIR's
affine loop fusion, limited to the nests whose shared buffers each iteration touches
in its own row only, so no dependence analysis beyond that is needed).

Two `scf.for` nests A and B of a block, B after A with only movable ops between them
(constants, `memref.get_global`, `alloc`/`alloca` and views of buffers defined
before A, ops without memory effects), fuse when

* their outer loops run over the same constant range (lower bound, upper bound and
  step) and carry no values (`iter_args`);
* their bodies hold only loads, stores, inner `scf.for`/`scf.if` and ops without
  memory effects, on buffers told apart by `outlining.buffer_root`;
* B accesses a buffer A writes (a producer and its consumer: independent nests gain
  nothing, and LLVM optimizes one big function slower than two small ones), or B is
  a fill: one loop loading scalars only (a row's accumulator set before the nest
  that reduces into it);
* every buffer one of them writes and the other accesses is accessed, in both, only
  through the same memref value (or the same collapsed view of it) with the outer
  loop's index as its first index (`%m[%i, ...]`).

Then iteration i of A and iteration i of B touch the shared buffers in row i alone:
running them in the order A(0), B(0), A(1), B(1)... instead of A(0..n), B(0..n) leaves
each row's accesses in their order, and rows do not interact. The ops between move
before A, B's body moves to the end of A's (its index becomes A's) and B is erased;
the fused nest is A, which the next nest may fuse with in turn.

A layer norm or a softmax lowers to 5-8 row nests (fill the accumulator, reduce the
row, scale, subtract, reduce again...): fused, one kernel reads each row while it is
in cache, and LLVM compiles one function instead of eight (~7 ms each at O3). The
pass runs after `coalesce-contiguous-loops`: a nest walking its buffers in memory
order is one loop by then, over a different range, and stays as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import get_effects
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xla_opt.lowering.outlining import buffer_root

# ops that may stand between two nests and move before the first: they only define
# values (a buffer, a view, a constant) from values defined before it
_MOVABLE = (memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp, memref.CollapseShapeOp)


def _pure(op: Operation) -> bool:
    return not op.regions and get_effects(op) == set()


def _range(loop: scf.ForOp) -> tuple[int, int, int] | None:
    bounds = tuple(const_evaluate_operand(v) for v in (loop.lb, loop.ub, loop.step))
    if loop.iter_args or None in bounds:
        return None
    return bounds  # type: ignore[return-value]


def _is_index(value: SSAValue, iv: SSAValue) -> bool:
    """`value` is the loop index `iv`, or `iv + 0` (lower-affine's map results)."""
    if value is iv:
        return True
    owner = value.owner
    return (
        isinstance(owner, arith.AddiOp)
        and iv in (owner.lhs, owner.rhs)
        and const_evaluate_operand(owner.rhs if owner.lhs is iv else owner.lhs) == 0
    )


@dataclass
class _Accesses:
    """The buffers a nest loads and stores, by root: the memref values used, whether
    each access has the outer index first, whether any is a store; whether the nest
    is a fill."""

    values: dict[object, set[SSAValue]]
    rowwise: dict[object, bool]
    written: set[object]
    fill: bool = True  # one loop loading scalars (rank-0 buffers) only

    def absorb(self, other: _Accesses) -> None:
        """Add the accesses of a nest fused into this one (its index now this one's)."""
        for root, values in other.values.items():
            self.values.setdefault(root, set()).update(values)
            self.rowwise[root] = self.rowwise.get(root, True) and other.rowwise[root]
        self.written |= other.written
        self.fill = False


def _accesses(loop: scf.ForOp) -> _Accesses | None:
    """What `loop`'s nest accesses, or None when it holds an op other than loads, stores,
    loops, conditionals and effect-free ops, or a buffer whose root is unknown."""
    iv = loop.body.block.args[0]
    found = _Accesses({}, {}, set())
    for op in loop.body.walk():
        if isinstance(op, memref.LoadOp | memref.StoreOp):
            root = buffer_root(op.memref)
            if root is None:
                return None
            found.values.setdefault(root, set()).add(op.memref)
            indices = list(op.indices)
            first = bool(indices) and _is_index(indices[0], iv)
            found.rowwise[root] = found.rowwise.get(root, True) and first
            if isinstance(op, memref.StoreOp):
                found.written.add(root)
            elif indices:
                found.fill = False
        elif isinstance(op, scf.ForOp):
            found.fill = False
        elif not isinstance(op, scf.YieldOp | scf.IfOp) and not _pure(op):
            return None
    return found


def _view(value: SSAValue) -> object:
    """`value`, or for a collapsed view what makes it the same view as another: its
    source's, its type and its reassociation (each coalesced nest makes its own)."""
    owner = value.owner
    if isinstance(owner, memref.CollapseShapeOp):
        return (_view(owner.src), owner.result.type, owner.reassociation)
    return value


def _fusable(a: _Accesses, b: _Accesses) -> bool:
    if not a.written & b.values.keys() and not b.fill:
        return False  # B does not use what A makes: nothing to keep in cache
    for root in (a.written | b.written) & (a.values.keys() & b.values.keys()):
        if not (a.rowwise[root] and b.rowwise[root]):
            return False
        if len({_view(v) for v in a.values[root] | b.values[root]}) != 1:  # the same rows
            return False
    return True


def _fuse(a: scf.ForOp, b: scf.ForOp, between: list[Operation]) -> None:
    for op in between:
        op.detach()
        a.parent.insert_op_before(op, a)  # type: ignore[union-attr]
    body, moved = a.body.block, b.body.block
    moved.args[0].replace_all_uses_with(body.args[0])
    terminator = body.last_op
    for op in list(moved.ops)[:-1]:  # all but B's scf.yield
        op.detach()
        body.insert_op_before(op, terminator)  # type: ignore[arg-type]
    b.detach()
    b.erase()


def fuse_block(block: Block) -> int:
    """Fuse the nests of `block` (see the module doc); how many fusions were made."""
    fused = 0
    nest: scf.ForOp | None = None
    nest_range: tuple[int, int, int] | None = None
    nest_accesses: _Accesses | None = None
    between: list[Operation] = []
    for op in list(block.ops):
        if nest is not None and isinstance(op, scf.ForOp) and _range(op) == nest_range:
            accesses = _accesses(op)
            if accesses is not None and nest_accesses is not None and _fusable(nest_accesses, accesses):
                # the ops between follow A directly: moved before it in order, each
                # still comes after what it uses
                _fuse(nest, op, between)
                nest_accesses.absorb(accesses)
                between = []
                fused += 1
                continue
        if nest is not None and not isinstance(op, scf.ForOp) and (isinstance(op, _MOVABLE) or _pure(op)):
            between.append(op)
            continue
        between = []
        nest, nest_range, nest_accesses = None, None, None
        if isinstance(op, scf.ForOp) and (nest_range := _range(op)) is not None:
            nest, nest_accesses = op, _accesses(op)
    return fused


@dataclass(frozen=True)
class FuseLoopNestsPass(ModulePass):
    """Fuse consecutive row-wise loop nests of every function body (see module doc)."""

    name = "fuse-loop-nests"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                for block in function.body.blocks:
                    fuse_block(block)
