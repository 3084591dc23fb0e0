"""Running a program on N replicas, and what the replicas share.

Each replica is the entry function run by its own xDSL `Interpreter` in its own Python
thread. The replicas share one `ReplicaContext`:

* `rendezvous`: where collectives exchange values. A collective of replica group G
  waits until every member of G has reached its next collective of group G, in program
  order, then each member computes its result from all the members' values. Send and
  recv channels (by channel_id) live here too.
* `infeed[r]` / `outfeed[r]`: the host queues of replica r. An infeed element is a
  tuple of arrays (one per infeed result); an outfeed element is the tuple of the
  outfed arrays.
* `host_to_device[c]` / `device_to_host[c]`: data of host transfers
  (`is_host_transfer = true`) on channel c.

No collective hangs forever. A replica that waits is marked blocked; when every replica
still running is blocked and none can go on (a collective some member never reaches,
a recv no one sends to, a member that already returned), all of them raise a
`ReplicaError` that says where each one waits. A wait also ends after
`ReplicaContext.timeout` seconds (a replica that loops forever while the others wait),
and when one replica fails the others stop with a `ReplicaAborted` instead of waiting.

A single replica needs no setup: `CollectiveFunctions` creates a one-replica context
on first use (replica_id 0, collectives over a group of one).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions

from xla_opt.interpreter.timeout import DEFAULT_TIMEOUT


class ReplicaError(RuntimeError):
    """A collective, channel or host queue that cannot complete: a deadlock, a timeout,
    replicas at different collectives, an empty infeed, replica ids out of range."""


class ReplicaAborted(ReplicaError):
    """Raised in the other replicas when one replica fails."""


# --------------------------------------------------------------------------------------
# The rendezvous
# --------------------------------------------------------------------------------------


@dataclass
class _Slot:
    """One collective instance of one replica group: the members' contributions."""

    group: tuple[int, ...]
    values: dict[int, tuple[str, Any]] = field(default_factory=dict)  # replica -> (key, value)
    where: dict[int, str] = field(default_factory=dict)  # replica -> op description
    done: bool = False


@dataclass
class _Waiter:
    description: str
    ready: Callable[[], bool]


class Rendezvous:
    """Exchanges values among replicas (collectives) and carries channel messages.

    All state is guarded by one condition variable; every change notifies all waiters,
    which re-check whether they can go on, whether some replica failed, and whether the
    replicas are deadlocked."""

    def __init__(self, num_replicas: int, timeout: float = DEFAULT_TIMEOUT):
        self.num_replicas = num_replicas
        self.timeout = timeout
        self._cond = threading.Condition()
        self._open: dict[frozenset[int], _Slot] = {}
        self._channels: dict[int, deque[tuple[int, Any]]] = defaultdict(deque)
        self._blocked: dict[int, _Waiter] = {}
        self._finished: set[int] = set()
        self._failure: str | None = None

    # ---- lifecycle -------------------------------------------------------------------
    def finish(self, replica: int) -> None:
        """Replica `replica` returned: it reaches no more collectives."""
        with self._cond:
            self._finished.add(replica)
            self._cond.notify_all()

    def fail(self, replica: int, error: BaseException) -> None:
        """Replica `replica` raised: every waiting replica stops."""
        with self._cond:
            self._finished.add(replica)
            if self._failure is None:
                self._failure = f"replica {replica} failed: {_one_line(error)}"
            self._cond.notify_all()

    # ---- collectives -----------------------------------------------------------------
    def exchange(
        self, replica: int, group: Sequence[int], key: str, where: str, value: Any
    ) -> dict[int, Any]:
        """Contribute `value` to the next collective of `group` and wait for the other
        members; returns every member's value. `key` names the collective (op name,
        channel id, operand types): all members must reach the same one."""
        group = tuple(group)
        members = frozenset(group)
        with self._cond:
            self._check_failure()
            slot = self._open.get(members)
            if slot is None:
                slot = self._open[members] = _Slot(group)
            slot.values[replica] = (key, value)
            slot.where[replica] = where
            if len(slot.values) == len(members):
                slot.done = True
                del self._open[members]
                self._cond.notify_all()
            else:
                missing = lambda: sorted(members - slot.values.keys())  # noqa: E731
                self._wait(
                    replica,
                    _Waiter(
                        f"replica {replica} waits in {where} for replicas "
                        f"{_ids(missing())} of group {_ids(group)}",
                        lambda: slot.done,
                    ),
                )
        keys = {k for k, _ in slot.values.values()}
        if len(keys) != 1:
            places = "; ".join(f"replica {r} at {slot.where[r]}" for r in group)
            raise ReplicaError(f"the replicas of group {_ids(group)} reached different collectives: {places}")
        return {r: v for r, (_, v) in slot.values.items()}

    # ---- channels --------------------------------------------------------------------
    def send(self, replica: int, channel: int, value: Any) -> None:
        with self._cond:
            self._check_failure()
            self._channels[channel].append((replica, value))
            self._cond.notify_all()

    def recv(self, replica: int, channel: int, where: str) -> tuple[int, Any]:
        """The oldest message on `channel` (waiting for a send): (sender, value)."""
        with self._cond:
            self._check_failure()
            queue = self._channels[channel]
            if not queue:
                self._wait(
                    replica,
                    _Waiter(
                        f"replica {replica} waits in {where} for a send on channel {channel}",
                        lambda: bool(queue),
                    ),
                )
            return queue.popleft()

    # ---- waiting ---------------------------------------------------------------------
    def _check_failure(self) -> None:
        if self._failure is not None:
            raise ReplicaAborted(f"stopped because {self._failure}")

    def _wait(self, replica: int, waiter: _Waiter) -> None:
        """Block (holding the condition) until `waiter.ready()`; raise on a failure,
        a deadlock or the timeout."""
        deadline = time.monotonic() + self.timeout
        self._blocked[replica] = waiter
        self._cond.notify_all()  # a change the others' deadlock checks must see
        try:
            while not waiter.ready():
                self._check_failure()
                deadlock = self._deadlock()
                if deadlock is not None:
                    self._failure = deadlock
                    self._cond.notify_all()
                    raise ReplicaError(deadlock)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    message = f"timed out after {self.timeout:g} s: {waiter.description}"
                    self._failure = message
                    self._cond.notify_all()
                    raise ReplicaError(message)
                self._cond.wait(remaining)
        finally:
            del self._blocked[replica]

    def _deadlock(self) -> str | None:
        """A description of the deadlock when every running replica waits and none can
        go on, else None."""
        running = set(range(self.num_replicas)) - self._finished
        if not running <= self._blocked.keys():
            return None
        waiting = [self._blocked[r] for r in sorted(running)]
        if any(w.ready() for w in waiting):
            return None
        parts = [w.description for w in waiting]
        if self._finished:
            parts.append(f"replicas {_ids(sorted(self._finished))} have returned")
        return "deadlock: " + "; ".join(parts)


def _ids(ids: Sequence[int]) -> str:
    return "{" + ", ".join(map(str, ids)) + "}"


def _one_line(error: BaseException) -> str:
    text = "; ".join(p.strip() for p in str(error).splitlines() if p.strip())
    return text or type(error).__name__


# --------------------------------------------------------------------------------------
# What the replicas share, and what each interpreter knows
# --------------------------------------------------------------------------------------


class ReplicaContext:
    """Everything the N replicas of one run share.

    `infeed` maps a replica to the elements its infeed ops read, oldest first (each a
    tuple of arrays, or one array for a one-result infeed); `outfeed` maps a replica to
    the elements its outfeed ops wrote. `host_to_device[c]` holds what a host-transfer
    recv on channel c reads; `device_to_host[c]` collects what host-transfer sends on
    channel c wrote, as (replica, arrays) pairs."""

    def __init__(
        self,
        num_replicas: int = 1,
        *,
        infeed: dict[int, Sequence[Any]] | None = None,
        host_to_device: dict[int, Sequence[Any]] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ):
        if num_replicas < 1:
            raise ValueError(f"the number of replicas must be at least 1, got {num_replicas}")
        self.num_replicas = num_replicas
        self.timeout = timeout
        self.rendezvous = Rendezvous(num_replicas, timeout)
        self.infeed: dict[int, deque[Any]] = {r: deque() for r in range(num_replicas)}
        for r, elements in (infeed or {}).items():
            if r not in self.infeed:
                raise ValueError(f"infeed data for replica {r}, but there are {num_replicas} replicas")
            self.infeed[r].extend(elements)
        self.outfeed: dict[int, list[tuple[Any, ...]]] = {r: [] for r in range(num_replicas)}
        self.host_to_device: dict[int, deque[Any]] = defaultdict(deque)
        for c, elements in (host_to_device or {}).items():
            self.host_to_device[c].extend(elements)
        self.device_to_host: dict[int, list[tuple[int, tuple[Any, ...]]]] = defaultdict(list)
        self._lock = threading.Lock()  # guards the host queues

    @property
    def lock(self) -> threading.Lock:
        return self._lock


@dataclass
class ReplicaState:
    """The per-interpreter data: which replica this interpreter runs, and the context."""

    context: ReplicaContext
    replica: int


class ReplicaData(InterpreterFunctions):
    """The key of the replica state among an interpreter's data (no implementations)."""


def attach(interpreter: Interpreter, context: ReplicaContext, replica: int) -> None:
    """Make `interpreter` run replica `replica` of `context`."""
    interpreter.set_data(ReplicaData, "replica", ReplicaState(context, replica))


def replica_state(interpreter: Interpreter) -> ReplicaState:
    """The interpreter's replica (a fresh one-replica context when none was attached)."""
    return interpreter.get_data(ReplicaData, "replica", lambda: ReplicaState(ReplicaContext(1), 0))


# --------------------------------------------------------------------------------------
# Running N replicas
# --------------------------------------------------------------------------------------


def run_replicas(
    module: ModuleOp,
    entry: str,
    args_per_replica: Sequence[Sequence[Any]],
    context: ReplicaContext | None = None,
) -> list[tuple[Any, ...]]:
    """Run function `entry` on len(args_per_replica) replicas (replica r gets
    `args_per_replica[r]`, already type-checked) and return each replica's results.

    One replica runs in the calling thread; more run in one thread each. When a replica
    raises, the first error (not the others' ReplicaAborted) is re-raised here, with its
    replica number in the attribute `replica` and in a note."""
    from .engine import call_entry, make_interpreter

    n = len(args_per_replica)
    context = context or ReplicaContext(n)
    if context.num_replicas != n:
        raise ValueError(f"{n} argument lists for a context of {context.num_replicas} replicas")

    def body(r: int) -> tuple[Any, ...]:
        interpreter = make_interpreter(module)
        attach(interpreter, context, r)
        return call_entry(interpreter, module, entry, args_per_replica[r])

    return run_on_replicas(context, body)


def run_on_replicas(context: ReplicaContext, body: Callable[[int], tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """`body(r)` for every replica r of `context`, each on a thread of its own (one
    replica: the calling thread), meeting in the context's rendezvous; each replica's
    results. When a replica raises, the first error (not the others' ReplicaAborted) is
    re-raised here, with its replica number in the attribute `replica` and in a note."""
    n = context.num_replicas
    results: list[tuple[Any, ...] | None] = [None] * n
    errors: dict[int, BaseException] = {}

    def run(r: int) -> None:
        try:
            results[r] = body(r)
        except BaseException as e:  # noqa: BLE001 - handed to the caller below
            errors[r] = e
            context.rendezvous.fail(r, e)
        else:
            context.rendezvous.finish(r)

    if n == 1:
        run(0)
    else:
        threads = [threading.Thread(target=run, args=(r,), name=f"xla-replica-{r}", daemon=True) for r in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        # the lowest replica that failed of itself (the others stopped because of a
        # failure): when every replica fails alike, which one fails first in time is a
        # race, and the report must not change from run to run
        primary = [r for r, e in errors.items() if not isinstance(e, ReplicaAborted)]
        r = min(primary) if primary else min(errors)
        error = errors[r]
        if n > 1:
            error.replica = r  # type: ignore[attr-defined]
            if hasattr(error, "add_note"):
                error.add_note(f"(raised by replica {r} of {n})")
        raise error
    return [res for res in results if res is not None]
