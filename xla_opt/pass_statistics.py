"""Statistics a pass reports about its own work, as MLIR's `Pass::Statistic` does:
`--mlir-pass-statistics` prints them under the pass, beside the pass manager's own
op counts.

A pass calls `record(name, value, description)` while it runs; outside a pass manager
that collects statistics (the flag off, or the pass applied directly), it is a no-op.
Names are kebab-case, as MLIR's; values of one name add up over a run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Recorder = Callable[[str, int, str], None]
_recorder: ContextVar[Recorder | None] = ContextVar("xla_opt_pass_statistics", default=None)


def record(name: str, value: int, description: str) -> None:
    """Count `value` under statistic `name` of the pass now running."""
    recorder = _recorder.get()
    if recorder is not None:
        recorder(name, value, description)


@contextmanager
def collecting(recorder: Recorder) -> Iterator[None]:
    """Route the statistics passes record meanwhile to `recorder` (the pass manager's
    node of the pass it runs)."""
    token = _recorder.set(recorder)
    try:
        yield
    finally:
        _recorder.reset(token)
