"""Replicas as MPI ranks: the interpreter's collectives over MPI (issue 12).

Replica r is rank r of `MPI.COMM_WORLD`, each rank one process running its replica
with its own interpreter. `MpiRendezvous` stands in for the threaded `Rendezvous`
(replicas.py), and the collectives (collectives.py) use MPI's own operations on it:
`Iallreduce` with MPI's op where the result is exact (an integer add, multiply, max,
min, and, or, xor: `lowering/kernels/mpi.py: exact_reduction`), otherwise `Iallgather` and the
reducer folded in group order exactly as the threaded replicas fold, so the results
are bit for bit the threaded interpreter's; `Ireduce_scatter_block` likewise,
`Ialltoall`, and `Isend`/`Irecv` for collective_permute. Buffers move as bytes (any
dtype), but for the exact reductions, which MPI computes on typed integers.

* Groups: `replica_groups` becomes one communicator per distinct grouping
  (`Comm_split`, colour = the row, key = the position in the row, so communicator
  ranks are in group order), made the first time a grouping is seen and cached; the
  group of all replicas is COMM_WORLD itself.
* Waiting: every operation is non-blocking and polled, so a wait can end: after
  `timeout` seconds a rank still waiting (a collective some replica never reaches, a
  replica that loops) raises a `ReplicaError` naming the collective, as the threaded
  interpreter reports deadlocks, instead of hanging.
* Members that reached different collectives (op, channel or operand types differ)
  are a `ReplicaError`, as in the threaded run: they first gather the collective's key.
* Send/recv between replicas (channels): as in the threaded run, a channel is one
  queue for all replicas (a send appends, a recv takes the oldest message). Rank 0
  keeps the queues in a broker thread on a communicator of their own; a send posts
  (channel, value) to it, a recv asks for the next message of its channel and polls
  for the answer against the timeout.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from .replicas import DEFAULT_TIMEOUT, ReplicaError, _ids


def _mpi() -> Any:
    from mpi4py import MPI

    return MPI


class MpiRendezvous:
    """Collectives among the ranks of COMM_WORLD (see the module doc)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT):
        mpi = _mpi()
        self.world = mpi.COMM_WORLD
        self.rank = self.world.Get_rank()
        self.num_replicas = self.world.Get_size()
        self.timeout = timeout
        self._communicators: dict[tuple[tuple[int, ...], ...], Any] = {}
        self.channels = self.world.Dup()  # channel traffic never meets the collectives'
        self._broker = None
        if self.rank == 0:
            self._broker = threading.Thread(target=_broker, args=(self.channels,), name="xla-mpi-channels", daemon=True)
            self._broker.start()

    # ---- the threaded Rendezvous's lifecycle calls: nothing to do across processes ----
    def finish(self, replica: int) -> None:
        pass

    def fail(self, replica: int, error: BaseException) -> None:
        pass

    # ---- the collectives' own MPI operations ---------------------------------------------
    # Each first checks that the group's members reached the same collective (op, channel,
    # operand types: `key`), then moves the numpy buffers themselves (as bytes, but for
    # the exact reductions, which MPI computes on typed integers).

    def _agreed(self, group: tuple[int, ...], grouping: Sequence[Sequence[int]], key: str, where: str) -> Any:
        comm = self._communicator(group, grouping, where)
        keys = [k.decode() for k in self._allgather(comm, key.encode(), where, group)]
        if len(set(keys)) != 1:
            places = "; ".join(f"replica {r} at {k}" for r, k in zip(group, keys, strict=True))
            raise ReplicaError(f"the replicas of group {_ids(group)} reached different collectives: {places}")
        return comm

    def all_reduce_exact(self, group, grouping, key: str, where: str, x: np.ndarray, reduction: str) -> np.ndarray:
        """MPI_Allreduce with MPI's own op `reduction` (an exact integer reducer)."""
        from xla_opt.runtime.mpi import integer_datatype_of

        mpi = _mpi()
        comm = self._agreed(tuple(group), grouping, key, where)
        send = _contiguous(x)
        out = np.empty_like(send)
        datatype = integer_datatype_of(send.dtype)
        self._wait(comm.Iallreduce([send, datatype], [out, datatype], op=getattr(mpi, reduction)), where, tuple(group))
        return out

    def all_gather(self, group, grouping, key: str, where: str, x: np.ndarray) -> list[np.ndarray]:
        """MPI_Allgather: every member's `x`, in group order."""
        comm = self._agreed(tuple(group), grouping, key, where)
        send = _contiguous(x)
        out = np.empty((len(group), *send.shape), send.dtype)
        self._wait(comm.Iallgather(_bytes(send), _bytes(out)), where, tuple(group))
        return list(out)

    def reduce_scatter_exact(self, group, grouping, key: str, where: str, x: np.ndarray, dim: int, reduction: str):
        """MPI_Reduce_scatter_block with MPI's own op: this member's block along `dim`."""
        from xla_opt.runtime.mpi import integer_datatype_of

        mpi = _mpi()
        comm = self._agreed(tuple(group), grouping, key, where)
        blocks = _contiguous(np.stack(np.split(x, len(group), axis=dim)))
        out = np.empty(blocks.shape[1:], x.dtype)
        datatype = integer_datatype_of(x.dtype)
        request = comm.Ireduce_scatter_block([blocks, datatype], [out, datatype], op=getattr(mpi, reduction))
        self._wait(request, where, tuple(group))
        return out

    def all_to_all(self, group, grouping, key: str, where: str, x: np.ndarray, split: int) -> list[np.ndarray]:
        """MPI_Alltoall: block j of `x` along `split` to member j; the blocks received,
        in group order."""
        comm = self._agreed(tuple(group), grouping, key, where)
        blocks = _contiguous(np.stack(np.split(x, len(group), axis=split)))
        out = np.empty_like(blocks)
        self._wait(comm.Ialltoall(_bytes(blocks), _bytes(out)), where, tuple(group))
        return list(out)

    def permute(self, key: str, where: str, x: np.ndarray, source: int | None, target: int | None) -> np.ndarray:
        """Isend to `target`, Irecv from `source` (zeros when none)."""
        everyone = tuple(range(self.num_replicas))
        comm = self._agreed(everyone, (), key, where)
        send = _contiguous(x)
        out = np.full_like(send, 0)  # the value 0 (NaN in f8E8M0FNU), as XLA fills
        requests = []
        if source is not None:
            requests.append(comm.Irecv(_bytes(out), source=source, tag=_PERMUTE))
        if target is not None:
            requests.append(comm.Isend(_bytes(send), dest=target, tag=_PERMUTE))
        for request in requests:
            self._wait(request, where, everyone)
        return out

    # ---- channels (the broker on rank 0 keeps the queues) -------------------------------
    def send(self, replica: int, channel: int, value: Any) -> None:
        self.channels.send((channel, value), dest=0, tag=_SEND)

    def recv(self, replica: int, channel: int, where: str) -> tuple[int, Any]:
        """The oldest message on `channel`: (sender, value)."""
        self.channels.send(channel, dest=0, tag=_WANT)
        request = self.channels.irecv(source=0, tag=_DATA)
        deadline = time.monotonic() + self.timeout
        pause = 0.0
        while True:
            done, message = request.test()
            if done:
                return message
            if time.monotonic() > deadline:
                raise ReplicaError(
                    f"replica {self.rank} waited {self.timeout:g} s in {where} for a send on channel {channel}"
                )
            time.sleep(pause)
            pause = min(0.001, pause + 0.00005)

    def close(self) -> None:
        """After every rank has finished: stop rank 0's broker."""
        self.world.Barrier()
        if self._broker is not None:
            self.channels.send(None, dest=0, tag=_STOP)
            self._broker.join()

    # ---- communicators and waiting -----------------------------------------------------
    def _communicator(self, group: tuple[int, ...], grouping: Sequence[Sequence[int]], where: str) -> Any:
        if group == tuple(range(self.num_replicas)):
            return self.world
        rows = tuple(tuple(row) for row in grouping) or (group,)
        comm = self._communicators.get(rows)
        if comm is None:
            # every rank reaches this op with the same replica_groups: a barrier that
            # can time out first, so that Split (which cannot) only runs once all are here
            self._wait(self.world.Ibarrier(), where, tuple(range(self.num_replicas)))
            colour = next(i for i, row in enumerate(rows) if self.rank in row)
            comm = self._communicators[rows] = self.world.Split(colour, rows[colour].index(self.rank))
        return comm

    def _allgather(self, comm: Any, data: bytes, where: str, group: tuple[int, ...]) -> list[bytes]:
        mpi = _mpi()
        sizes = np.zeros(comm.Get_size(), dtype=np.int64)
        self._wait(comm.Iallgather(np.array([len(data)], dtype=np.int64), sizes), where, group)
        displacements = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        received = np.empty(int(sizes.sum()), dtype=np.uint8)
        send = np.frombuffer(data, dtype=np.uint8)
        request = comm.Iallgatherv(send, [received, sizes.tolist(), displacements.tolist(), mpi.BYTE])
        self._wait(request, where, group)
        return [received[d : d + s].tobytes() for d, s in zip(displacements, sizes, strict=True)]

    def _wait(self, request: Any, where: str, group: tuple[int, ...]) -> None:
        """Poll `request` until it completes or `timeout` seconds pass (then a
        ReplicaError: MPI itself would wait forever)."""
        deadline = time.monotonic() + self.timeout
        pause = 0.0
        while not request.Test():
            if time.monotonic() > deadline:
                raise ReplicaError(
                    f"replica {self.rank} waited {self.timeout:g} s in {where} for the other replicas of "
                    f"group {_ids(group)}: some replica never reached this collective"
                )
            time.sleep(pause)
            pause = min(0.001, pause + 0.00005)


_SEND, _WANT, _DATA, _STOP = 1, 2, 3, 4  # message tags of the channel broker
_PERMUTE = 5  # collective_permute's messages (on COMM_WORLD, not the channels' communicator)


def _contiguous(array: np.ndarray) -> np.ndarray:
    """`array` in C order, keeping its shape (np.ascontiguousarray makes rank 0 rank 1)."""
    return array if array.flags.c_contiguous else array.copy(order="C")


def _bytes(array: np.ndarray) -> list[Any]:
    """A contiguous array as an MPI buffer of bytes (any dtype, ml_dtypes' included)."""
    return [array.reshape(-1).view(np.uint8), _mpi().BYTE]


def _broker(comm: Any) -> None:
    """Rank 0's channel queues: SEND (channel, value) appends, WANT channel asks for
    the channel's oldest message (answered with DATA (sender, value) once there is
    one), STOP ends. Polls with short sleeps rather than blocking in MPI, whose
    progress engine would spin on a core."""
    mpi = _mpi()
    queues: dict[int, deque[tuple[int, Any]]] = defaultdict(deque)
    waiting: dict[int, deque[int]] = defaultdict(deque)
    status = mpi.Status()
    while True:
        if not comm.iprobe(source=mpi.ANY_SOURCE, tag=mpi.ANY_TAG, status=status):
            time.sleep(0.0002)
            continue
        message = comm.recv(source=status.Get_source(), tag=status.Get_tag())
        tag, source = status.Get_tag(), status.Get_source()
        if tag == _STOP:
            return
        if tag == _SEND:
            channel, value = message
            queues[channel].append((source, value))
        else:
            channel = message
            waiting[channel].append(source)
        while waiting[channel] and queues[channel]:
            comm.send(queues[channel].popleft(), dest=waiting[channel].popleft(), tag=_DATA)
