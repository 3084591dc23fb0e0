"""Reference semantics of the collectives.

Every replica runs its own interpreter; the replicas meet in the `Rendezvous` of their
shared `ReplicaContext` (see replicas.py). A collective exchanges the operands of the
replicas of one group, then each replica computes its own result:

* all_reduce: the inputs folded with `computation` in group order (the same order,
  hence the same bits, on every member).
* all_gather: the operands concatenated along all_gather_dim in group order.
* reduce_scatter: the all_reduce result split along scatter_dimension into group-size
  blocks; the i-th member of the group keeps block i.
* all_to_all: each member splits its operand along split_dimension into split_count
  blocks and sends block j to the j-th member; each concatenates what it receives
  along concat_dimension in group order.
* collective_permute: among all replicas, the target of a [source, target] pair gets
  the source's operand; a replica that is no target gets zeros.

`replica_groups` empty means one group of all replicas, ordered 0..N-1; otherwise the
group of a replica is the row that holds its id. Collectives with a channel_id only
meet collectives with the same channel_id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation, Region

from xla_opt.diagnostics import op_location
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import shape_of
from xla_opt.lowering.kernels.mpi import exact_reduction

from .dtypes import describe
from .mpi import MpiRendezvous
from .regions import is_elementwise, run_vectorized
from .replicas import ReplicaError, ReplicaState, replica_state


def where(op: Operation) -> str:
    file, line, col = op_location(op)
    return f"{op.name} ({file}:{line}:{col})" if line else op.name


def _group(state: ReplicaState, op: Operation, rows: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The replica group of this replica: the row of `rows` holding its id, or all
    replicas when `rows` is empty."""
    n = state.context.num_replicas
    if not rows:
        return tuple(range(n))
    out_of_range = sorted({r for row in rows for r in row if not 0 <= r < n})
    if out_of_range:
        raise ReplicaError(
            f"{where(op)}: replica_groups {_rows(rows)} names replica ids "
            f"{out_of_range} but the program runs on {n} replica(s)"
        )
    for row in rows:
        if state.replica in row:
            return tuple(row)
    raise ReplicaError(f"{where(op)}: replica {state.replica} is in no group of replica_groups {_rows(rows)}")


def _rows(rows: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, r)) + "]" for r in rows) + "]"


def _key(op: Operation, values: Sequence[np.ndarray]) -> str:
    """What the members of a group must agree on: the op kind, its channel and the
    types of what they contribute."""
    get_channel_id = getattr(op, "get_channel_id", None)  # collectives without channels have none
    channel = get_channel_id() if get_channel_id is not None else None
    channel_text = f" channel_id={channel}" if channel is not None else ""
    return f"{op.name}{channel_text} ({', '.join(describe(v) for v in values)})"


def _exchange(state: ReplicaState, op: Operation, group: tuple[int, ...], values: tuple[np.ndarray, ...]):
    """Every member's `values`, in group order."""
    got = state.context.rendezvous.exchange(state.replica, group, _key(op, values), where(op), values)
    return [got[r] for r in group]


def _mpi(state: ReplicaState) -> MpiRendezvous | None:
    """The MPI rendezvous when the replicas are MPI ranks (its collectives are MPI's own
    operations), else None (threads: values exchanged through the shared rendezvous)."""
    rendezvous = state.context.rendezvous
    return rendezvous if isinstance(rendezvous, MpiRendezvous) else None


def _gathered(state, op, group, values: tuple[np.ndarray, ...], grouping) -> list[tuple[np.ndarray, ...]]:
    """Every member's `values`, in group order (over MPI: one MPI_Allgather each)."""
    mpi = _mpi(state)
    if mpi is None:
        return _exchange(state, op, group, values)
    per_value = [mpi.all_gather(group, grouping, _key(op, values), where(op), v) for v in values]
    return [tuple(parts[m] for parts in per_value) for m in range(len(group))]


def _fold(interpreter: Interpreter, region: Region, parts: Sequence[np.ndarray]) -> np.ndarray:
    """parts[0] combined with parts[1], then with parts[2], ... by the computation."""
    acc = parts[0].copy()
    if acc.size == 0 and not is_elementwise(region):
        return acc
    for part in parts[1:]:
        (acc,) = run_vectorized(interpreter, region, [acc, part], "computation")
    return np.asarray(acc)


def _check_result_shape(op: Operation, result_type: Any, shape: tuple[int, ...], group: tuple[int, ...]) -> None:
    if tuple(shape_of(result_type)) != tuple(shape):
        raise ReplicaError(
            f"{where(op)}: the result type {result_type} does not fit a replica group "
            f"of {len(group)} (the result would have shape {list(shape)})"
        )


@register_impls
class CollectiveFunctions(InterpreterFunctions):

    @impl(xla.ReplicaIdOp)
    def run_replica_id(self, interpreter: Interpreter, op: xla.ReplicaIdOp, args: tuple[Any, ...]):
        return (np.array(replica_state(interpreter).replica, dtype=np.uint32),)





    @impl(xla.AllReduceOp)
    def run_all_reduce(self, interpreter: Interpreter, op: xla.AllReduceOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        rows = op.get_replica_groups()
        group = _group(state, op, rows)
        mpi = _mpi(state)
        if mpi is not None and (reduction := exact_reduction(op.computation)):
            key = _key(op, tuple(args))
            return tuple(mpi.all_reduce_exact(group, rows, key, where(op), a, reduction) for a in args)
        contributions = _gathered(state, op, group, tuple(args), rows)
        return tuple(
            _fold(interpreter, op.computation, [c[i] for c in contributions]) for i in range(len(args))
        )

    @impl(xla.AllGatherOp)
    def run_all_gather(self, interpreter: Interpreter, op: xla.AllGatherOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        rows = op.get_replica_groups()
        group = _group(state, op, rows)
        dim = op.get_all_gather_dim()
        operand = args[0]
        shape = list(operand.shape)
        shape[dim] *= len(group)
        _check_result_shape(op, op.result.type, tuple(shape), group)
        contributions = _gathered(state, op, group, (operand,), rows)
        return (np.concatenate([c[0] for c in contributions], axis=dim),)

    @impl(xla.ReduceScatterOp)
    def run_reduce_scatter(self, interpreter: Interpreter, op: xla.ReduceScatterOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        rows = op.get_replica_groups()
        group = _group(state, op, rows)
        dim = op.get_scatter_dimension()
        operand = args[0]
        if operand.shape[dim] % len(group):
            raise ReplicaError(
                f"{where(op)}: scatter_dimension {dim} of size {operand.shape[dim]} is not divisible "
                f"by the replica group size {len(group)}"
            )
        shape = list(operand.shape)
        shape[dim] //= len(group)
        _check_result_shape(op, op.result.type, tuple(shape), group)
        mpi = _mpi(state)
        if mpi is not None and (reduction := exact_reduction(op.computation)):
            return (mpi.reduce_scatter_exact(group, rows, _key(op, (operand,)), where(op), operand, dim, reduction),)
        contributions = _gathered(state, op, group, (operand,), rows)
        reduced = _fold(interpreter, op.computation, [c[0] for c in contributions])
        block = np.split(reduced, len(group), axis=dim)[group.index(state.replica)]
        return (block.copy(),)

    @impl(xla.AllToAllOp)
    def run_all_to_all(self, interpreter: Interpreter, op: xla.AllToAllOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        rows = op.get_replica_groups()
        group = _group(state, op, rows)
        split_count = op.get_split_count()
        if split_count != len(group):
            raise ReplicaError(
                f"{where(op)}: split_count {split_count} differs from the replica group size {len(group)}"
            )
        operand = args[0]
        split_dim = op.get_split_dimension()
        concat_dim = op.get_concat_dimension()
        mpi = _mpi(state)
        if mpi is not None:
            received = mpi.all_to_all(group, rows, _key(op, (operand,)), where(op), operand, split_dim)
            return (np.concatenate(received, axis=concat_dim),)
        contributions = _exchange(state, op, group, (operand,))
        me = group.index(state.replica)
        received = [np.split(c[0], split_count, axis=split_dim)[me] for c in contributions]
        return (np.concatenate(received, axis=concat_dim),)

    @impl(xla.CollectivePermuteOp)
    def run_collective_permute(self, interpreter: Interpreter, op: xla.CollectivePermuteOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        n = state.context.num_replicas
        pairs = op.get_source_target_pairs()
        out_of_range = sorted({r for pair in pairs for r in pair if not 0 <= r < n})
        if out_of_range:
            raise ReplicaError(
                f"{where(op)}: source_target_pairs {_rows(pairs)} names replica ids "
                f"{out_of_range} but the program runs on {n} replica(s)"
            )
        sources = [s for s, t in pairs if t == state.replica]
        mpi = _mpi(state)
        if mpi is not None:
            target = next((t for s, t in pairs if s == state.replica), None)
            key = _key(op, (args[0],))
            return (mpi.permute(key, where(op), args[0], sources[0] if sources else None, target),)
        group = tuple(range(n))
        contributions = _exchange(state, op, group, (args[0],))
        if not sources:
            # the value 0 in the operand's type, as XLA fills: NaN in f8E8M0FNU, which
            # has no zero (its zero bits are 2^-127: fuzz seed 803694)
            return (np.full_like(args[0], 0),)
        return (contributions[sources[0]][0].copy(),)
