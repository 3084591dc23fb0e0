"""The collectives family to linalg: replica_id and the collectives, one pattern per
op, for one replica or, when the module says it runs on N > 1 replicas
(`xla.num_replicas`, or `mhlo.num_replicas` as JAX writes it), for N replicas as the
N ranks of an MPI job (see "Over MPI" below).

With one replica every replica group is {0} (an empty `replica_groups` is one group of
all replicas), so, as the interpreter computes them:

* replica_id is the constant 0 (a tensor<ui32>);
* all_reduce folds one contribution: "the reducer applied to no other operand", the
  operand itself; all_gather concatenates one block, reduce_scatter keeps the only
  block and all_to_all splits into and concatenates one block (split_count 1): each
  result is the operand;
* collective_permute: "a replica that is no target gets zeros", so the operand when a
  pair [0, 0] targets replica 0, else zeros.

A program made for more replicas (a replica id other than 0 in replica_groups or
source_target_pairs, a result shape of a group of several, a split_count other than
1) is a located error naming what does not fit one replica: the interpreter runs it
on `replicas=N`.

Over MPI (issue 12). The module is lowered by each rank for itself: the pass's
`replica-id` option says which replica (its rank), so its replica id and its place in
every group are compile-time constants (`xla-opt -p 'convert-xla-to-linalg{replica-id=1}'`
prints what rank 1 runs). Each collective becomes calls of the MPI wrappers
(lowering/kernels/mpi.py: `func.call` of a private declaration, like host calls:
scalars, then operand buffers, then result buffers) and plain generics; a grouping is
passed as its number (`intern_grouping`), MPI's datatypes and ops as codes, and the
runtime turns them into the job's communicators and handles:

* replica_id: the constant rank;
* all_reduce: with an integer reducer MPI applies exactly (add, multiply, max, min,
  and, or, xor: `exact_reduction`), MPI_Allreduce with MPI's own op; otherwise each
  operand gathered from the G members into a [G, ...] tensor (MPI_Allgather) and
  folded in group order, `computation(...computation(x0, x1)...,
  x(G-1))`, one element-wise generic per member, the reducer inlined unchanged: the
  interpreter's fold, so floats agree bit for bit (MPI's own reduction may reorder);
* all_gather: the [G, ...] gather read into place along all_gather_dim;
* reduce_scatter: the all_reduce fold, then this member's block;
* all_to_all: the blocks packed as [G, block] (block j for member j), exchanged with
  MPI_Alltoall, then concatenated along concat_dimension in group order;
* collective_permute: MPI_Sendrecv to the target and from the source of this replica's
  pairs (zeros when no pair targets it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable
from xla_opt.dialects.shapes.collectives import fmt_rows
from xla_opt.dialects.xla import collectives as co
from xla_opt.dialects.xla.element_types import bit_width, elem_of, shape_of

from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.mpi import (
    ALLGATHER,
    ALLREDUCE,
    ALLTOALL,
    PERMUTE,
    datatype_code,
    exact_reduction,
    intern_grouping,
    op_code,
)

from .common import PARALLEL, affine_map, fill_with_zero, generic
from .computation import inline_computation
from .host_calls import attach_op, describe, replace_with_host_call
from .shape_ops import gather_through_indices

RUNS_ONE_REPLICA = "the jit backend runs one replica in-process (replicas=N runs on the interpreter, or as MPI ranks on either backend)"


def _fits_one_replica(op: Operation, what: str, rows: Sequence[Sequence[int]]) -> None:
    """Every replica id named in `rows` (replica_groups, source_target_pairs) is 0."""
    others = sorted({r for row in rows for r in row if r != 0})
    if others:
        raise DiagnosticError(
            [op_diagnostic(op, f"{what} {fmt_rows(rows)} names replica ids {others}: {RUNS_ONE_REPLICA}")]
        )


def _same_shape_as_operand(op: Operation, operand_type: TensorType, result_type: TensorType) -> None:
    """A group of one: all_gather and reduce_scatter keep the operand's shape."""
    if shape_of(operand_type) != shape_of(result_type):
        raise DiagnosticError(
            [
                op_diagnostic(
                    op,
                    f"the result type {result_type} is that of a replica group of several "
                    f"(operand {operand_type}): {RUNS_ONE_REPLICA}",
                )
            ]
        )


class ReplicaIdToConstant(RewritePattern):
    """replica_id -> the constant 0: the JIT runs replica 0 only."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReplicaIdOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        t = op.result.type
        assert isinstance(t, TensorType)
        rewriter.replace(op, arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0])))


class AllReduceOfOne(RewritePattern):
    """all_reduce over a group of one: each result is its input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllReduceOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        _fits_one_replica(op, "replica_groups", op.get_replica_groups())
        rewriter.replace(op, [], list(op.inputs))


def _forward_block_of_one(op: co.AllGatherOp | co.ReduceScatterOp, rewriter: PatternRewriter) -> None:
    """all_gather / reduce_scatter over a group of one: one block, the operand."""
    _fits_one_replica(op, "replica_groups", op.get_replica_groups())
    _same_shape_as_operand(op, op.operand.type, op.result.type)  # type: ignore[arg-type]
    rewriter.replace(op, [], [op.operand])


class AllGatherOfOne(RewritePattern):
    """all_gather over a group of one: the operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllGatherOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        _forward_block_of_one(op, rewriter)


class ReduceScatterOfOne(RewritePattern):
    """reduce_scatter over a group of one: the operand reduced with nothing, one block."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReduceScatterOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        _forward_block_of_one(op, rewriter)


class AllToAllOfOne(RewritePattern):
    """all_to_all over a group of one (split_count 1): the operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllToAllOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        _fits_one_replica(op, "replica_groups", op.get_replica_groups())
        if op.get_split_count() != 1:
            message = f"split_count {op.get_split_count()} needs as many replicas: {RUNS_ONE_REPLICA}"
            raise DiagnosticError([op_diagnostic(op, message)])
        rewriter.replace(op, [], [op.operand])


class CollectivePermuteOfOne(RewritePattern):
    """collective_permute on one replica: the operand if [0, 0] is a pair, else zeros
    (replica 0 is no target)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.CollectivePermuteOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) > 1:
            return
        pairs = op.get_source_target_pairs()
        _fits_one_replica(op, "source_target_pairs", pairs)
        if pairs:  # only [0, 0] is left
            rewriter.replace(op, [], [op.operand])
            return
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        rewriter.replace(op, fill_with_zero(result_type))


# --------------------------------------------------------------------------------------
# Over MPI: N replicas as the ranks of an MPI job (see the module doc)
# --------------------------------------------------------------------------------------

NUM_REPLICAS_ATTRIBUTES = ("xla.num_replicas", "mhlo.num_replicas")


def num_replicas(op: Operation) -> int:
    """The replica count the enclosing module declares (1 when it says nothing)."""
    module = op.get_toplevel_object()
    if isinstance(module, ModuleOp):
        for name in NUM_REPLICAS_ATTRIBUTES:
            value = module.attributes.get(name)
            if isinstance(value, IntegerAttr):
                return value.value.data
    return 1


def _replica(op: Operation, replica_id: int | None) -> int:
    """The replica the module is lowered for (the pass's `replica-id`), checked against
    the module's replica count."""
    n = num_replicas(op)
    if replica_id is None:
        message = (
            f"the module runs on {n} replicas, one per rank of an MPI job: lower it for one of them "
            "(convert-xla-to-linalg{replica-id=R}, as each rank's JIT does)"
        )
        raise DiagnosticError([op_diagnostic(op, message)])
    if not 0 <= replica_id < n:
        raise DiagnosticError([op_diagnostic(op, f"replica-id {replica_id} is not one of the module's {n} replicas")])
    return replica_id


def _group_of(op: Operation, rows: Sequence[Sequence[int]], rank: int) -> tuple[tuple[int, ...], int]:
    """This replica's group (in group order) and the number of the grouping."""
    n = num_replicas(op)
    rows = [tuple(r) for r in rows] or [tuple(range(n))]
    group = next((row for row in rows if rank in row), None)
    if group is None:
        raise DiagnosticError([op_diagnostic(op, f"replica {rank} is in no group of replica_groups {fmt_rows(rows)}")])
    return group, intern_grouping(rows)


def _element_bytes(t: Attribute) -> int:
    return max(1, bit_width(t) // 8)  # i1 is a byte in memory


def _mangled(t: Attribute) -> str:
    return re.sub(r"\W", "_", str(t).removeprefix("tensor<").removesuffix(">"))


def _mpi_call(symbol: str, scalars: Sequence[int], operand: SSAValue, result_type: TensorType, op: Operation):
    """`func.call @<symbol>__<types>(i64 scalars..., operand) -> result_type` and its
    private declaration in the module: a name per signature (a call must match its
    declaration's types), every one declared to call the MPI wrapper `symbol`."""
    constants = [arith.ConstantOp(IntegerAttr(v, i64)) for v in scalars]
    module = op.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    name = f"{symbol}__{_mangled(operand.type)}__{_mangled(result_type)}"
    if SymbolTable.lookup_symbol(module, name) is None:
        declaration = func.FuncOp.external(name, [i64] * len(scalars) + [operand.type], [result_type])
        module.body.block.add_op(declaration)
        libraries.declare_alias(name, libraries.MPI, symbol)
    call = func.CallOp(name, [*(c.result for c in constants), operand], [result_type])
    return [*constants, call], call.res[0]


def _gather(op: Operation, operand: SSAValue, group: tuple[int, ...], grouping: int):
    """Every member's `operand`, as a [G, ...] tensor in group order (MPI_Allgather)."""
    t = operand.type
    assert isinstance(t, TensorType)
    shape = shape_of(t)
    gathered = TensorType(elem_of(t), [len(group), *shape])
    size = _element_bytes(elem_of(t)) * prod(shape)
    return _mpi_call(ALLGATHER, [grouping, size], operand, gathered, op)


def _map(num_loops: int, results: Sequence[AffineExpr]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(num_loops, 0, tuple(results)))


def _read_into(source: SSAValue, result_type: TensorType, source_index) -> list[Operation]:
    """A generic over `result_type`'s loops yielding source[source_index(dims)] (read
    in its body: an offset index is no indexing map linalg could size its loops by)."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    return [empty, gather_through_indices(source, empty, source_index([AffineExpr.dimension(d) for d in range(rank)]))]


def _fold_gathered(computation, gathered: SSAValue, result_type: TensorType) -> tuple[list[Operation], SSAValue]:
    """computation(...computation(g[0], g[1])..., g[G-1]) element-wise: the group-order
    fold, the reducer inlined unchanged (no reassociation)."""
    members = shape_of(gathered.type)[0]  # type: ignore[arg-type]
    rank = len(shape_of(result_type))
    ops = _read_into(gathered, result_type, lambda dims: [AffineExpr.constant(0), *dims])
    acc = ops[-1].results[0]
    for g in range(1, members):
        empty = tensor.EmptyOp([], result_type)
        step = generic(
            [acc, gathered],
            [empty.tensor],
            [
                affine_map(rank, range(rank)),
                _map(rank, [AffineExpr.constant(g), *(AffineExpr.dimension(d) for d in range(rank))]),
                affine_map(rank, range(rank)),
            ],
            [PARALLEL] * rank,
            lambda args: inline_computation(computation, [args[0], args[1]]),
        )
        ops += [empty, step]
        acc = step.results[0]
    return ops, acc


def _concatenated(op, blocks: SSAValue, result_type: TensorType, dim: int) -> list[Operation]:
    """result[..., g * B + i, ...] = blocks[g, ..., i, ...] (B: a block's size along
    dim), as a generic over the blocks' loops (g, d...) writing through an affine
    output map (no floordiv/mod on the reading side)."""
    block_shape = shape_of(blocks.type)[1:]  # type: ignore[arg-type]
    loops = len(block_shape) + 1
    dims = [AffineExpr.dimension(d) for d in range(loops)]
    at = dims[1:]
    at[dim] = dims[0] * block_shape[dim] + dims[1 + dim]
    empty = tensor.EmptyOp([], result_type)
    place = generic(
        [blocks],
        [empty.tensor],
        [affine_map(loops, range(loops)), _map(loops, at)],
        [PARALLEL] * loops,
        lambda args: ([], [args[0]]),
    )
    return [empty, place]


@dataclass(eq=False)  # patterns compare by identity
class _OverMpi(RewritePattern):
    """A collective of a module that runs on N > 1 replicas, lowered for replica
    `replica_id` (the pass's option; None: a located error naming it)."""

    replica_id: int | None = None


class ReplicaIdOfRank(_OverMpi):
    """replica_id over MPI: this rank, a constant of its compiled code."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReplicaIdOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        t = op.result.type
        assert isinstance(t, TensorType)
        rank = _replica(op, self.replica_id)
        rewriter.replace(op, arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [rank])))


class AllReduceOverMpi(_OverMpi):
    """all_reduce over MPI: gather, then the group-order fold, per operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllReduceOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        group, grouping = _group_of(op, op.get_replica_groups(), _replica(op, self.replica_id))
        new_ops: list[Operation] = []
        results = []
        reduction = exact_reduction(op.computation)
        for operand in op.inputs:
            if reduction is not None:  # MPI's own op gives the same integers
                t = operand.type
                assert isinstance(t, TensorType)
                scalars = [grouping, prod(shape_of(t)), datatype_code(elem_of(t)), op_code(reduction)]
                ops, reduced = _mpi_call(ALLREDUCE, scalars, operand, t, op)
                new_ops += ops
                results.append(reduced)
                continue
            ops, gathered = _gather(op, operand, group, grouping)
            fold, value = _fold_gathered(op.computation, gathered, operand.type)  # type: ignore[arg-type]
            new_ops += [*ops, *fold]
            results.append(value)
        rewriter.replace(op, new_ops, results)


class AllGatherOverMpi(_OverMpi):
    """all_gather over MPI: the [G, ...] gather read into place along all_gather_dim."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllGatherOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        group, grouping = _group_of(op, op.get_replica_groups(), _replica(op, self.replica_id))
        ops, gathered = _gather(op, op.operand, group, grouping)
        place = _concatenated(op, gathered, op.result.type, op.get_all_gather_dim())  # type: ignore[arg-type]
        rewriter.replace(op, [*ops, *place], [place[-1].results[0]])


class ReduceScatterOverMpi(_OverMpi):
    """reduce_scatter over MPI: the all_reduce fold, then this member's block."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.ReduceScatterOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        rank = _replica(op, self.replica_id)
        group, grouping = _group_of(op, op.get_replica_groups(), rank)
        ops, gathered = _gather(op, op.operand, group, grouping)
        fold, reduced = _fold_gathered(op.computation, gathered, op.operand.type)  # type: ignore[arg-type]
        dim = op.get_scatter_dimension()
        offset = group.index(rank) * shape_of(op.result.type)[dim]  # type: ignore[arg-type]

        def index(dims):
            at = list(dims)
            at[dim] = dims[dim] + offset
            return at

        block = _read_into(reduced, op.result.type, index)  # type: ignore[arg-type]
        rewriter.replace(op, [*ops, *fold, *block], [block[-1].results[0]])


class AllToAllOverMpi(_OverMpi):
    """all_to_all over MPI: blocks packed as [G, block], MPI_Alltoall, concatenated."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.AllToAllOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        group, grouping = _group_of(op, op.get_replica_groups(), _replica(op, self.replica_id))
        t = op.operand.type
        assert isinstance(t, TensorType)
        count, split = len(group), op.get_split_dimension()
        block_shape = list(shape_of(t))
        block_shape[split] //= count
        packed_type = TensorType(elem_of(t), [count, *block_shape])

        def pack_index(dims):  # packed loops (j, d...) -> operand (..., j * B + d_split, ...)
            at = list(dims[1:])
            at[split] = dims[0] * block_shape[split] + dims[1 + split]
            return at

        pack = _read_into(op.operand, packed_type, pack_index)
        size = _element_bytes(elem_of(t)) * prod(block_shape)
        exchange, received = _mpi_call(ALLTOALL, [grouping, size], pack[-1].results[0], packed_type, op)
        place = _concatenated(op, received, op.result.type, op.get_concat_dimension())  # type: ignore[arg-type]
        rewriter.replace(op, [*pack, *exchange, *place], [place[-1].results[0]])


class CollectivePermuteOverMpi(_OverMpi):
    """collective_permute over MPI: send to this replica's target, receive from its
    source (MPI_Sendrecv; zeros when no pair targets it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: co.CollectivePermuteOp, rewriter: PatternRewriter, /) -> None:
        if num_replicas(op) == 1:
            return
        rank = _replica(op, self.replica_id)
        pairs = op.get_source_target_pairs()
        n = num_replicas(op)
        if out_of_range := sorted({r for pair in pairs for r in pair if not 0 <= r < n}):
            message = f"source_target_pairs {fmt_rows(pairs)} names replica ids {out_of_range} of {n} replicas"
            raise DiagnosticError([op_diagnostic(op, message)])
        source = next((s for s, t in pairs if t == rank), -1)
        target = next((t for s, t in pairs if s == rank), -1)
        t = op.operand.type
        assert isinstance(t, TensorType)
        size = _element_bytes(elem_of(t)) * prod(shape_of(t))
        everyone = intern_grouping([range(n)])  # ranks of the world are replica ids
        ops, received = _mpi_call(PERMUTE, [everyone, size, source, target], op.operand, op.result.type, op)  # type: ignore[arg-type]
        rewriter.replace(op, ops, [received])


class CollectiveOnHost(RewritePattern):
    """A collective (or replica_id) of a module of N > 1 replicas whose replicas run as
    threads of one process: a host call running the interpreter's collective on the
    run's replica context (xla_opt/runtime/host_calls.py), so one compiled program
    serves every replica."""

    @property
    def matched_types(self) -> tuple[type, ...]:  # for the ConversionWalker's dispatch
        return HOST_COLLECTIVES

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, HOST_COLLECTIVES) or num_replicas(op) == 1:
            return
        operands = list(op.operands)
        call = describe(op, "collective", operands, list(op.results), detail=str(op))
        attach_op(call, op)
        replace_with_host_call(op, rewriter, call, operands, token=False)


HOST_COLLECTIVES = (
    co.ReplicaIdOp,
    co.AllReduceOp,
    co.AllGatherOp,
    co.ReduceScatterOp,
    co.AllToAllOp,
    co.CollectivePermuteOp,
)


def patterns(replica_id: int | None = None, host: bool = False) -> list[RewritePattern]:
    """The family's patterns, lowering a module of N > 1 replicas for `replica_id` (its
    collectives MPI calls), or with `host` for replicas that are threads of one process
    (its collectives host calls)."""
    if host:
        return [CollectiveOnHost(), *patterns()[6:]]
    return [
        ReplicaIdOfRank(replica_id),
        AllReduceOverMpi(replica_id),
        AllGatherOverMpi(replica_id),
        ReduceScatterOverMpi(replica_id),
        AllToAllOverMpi(replica_id),
        CollectivePermuteOverMpi(replica_id),
        ReplicaIdToConstant(),
        AllReduceOfOne(),
        AllGatherOfOne(),
        ReduceScatterOfOne(),
        AllToAllOfOne(),
        CollectivePermuteOfOne(),
    ]


PATTERNS: list[RewritePattern] = patterns()

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset(op.name for op in co.COLLECTIVE_OPS)
