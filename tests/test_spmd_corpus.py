"""Sharded programs as JAX exports them run partitioned, with JAX's results (issue 30).

Every program of the corpus (tests/sharding/: data-parallel and FSDP training steps, a
Megatron MLP, a 2-D mesh, resharding constraints, reductions and argmax over sharded
dimensions, a batch-sharded convolution with batch-norm statistics, an embedding lookup
from a vocabulary-sharded table, an uneven intermediate, shard_map bodies with psum,
all_gather, ppermute and all_to_all, integers), on 2 and 4 devices, in Shardy's form
and, for some, GSPMD's: partitioned by `xla-spmd-partition` and run as threads on the
interpreter and the JIT, its global results compared with JAX's (integers exactly,
floats to 1e-5). Every one runs as MPI ranks too, on both backends: one job of 2 ranks
runs all the 2-device programs, one of 4 ranks the 4-device ones (inside a job, each
rank runs its device of each program and gets the global results).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import xla_opt
from tests.sharding.corpus import assert_results, programs
from xla_opt.mpi_launch import _MPI_JOB_VARIABLES, mpi_available, mpirun

ROOT = Path(__file__).resolve().parents[1]

CASES = [(case, form) for case in programs() for form in ("sdy", "gspmd") if form == "sdy" or case.gspmd_path]


def _id(item) -> str:
    case, form = item
    return f"{case.id}-{form}"


def _path(case, form: str):
    return case.path if form == "sdy" else case.gspmd_path


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("item", CASES, ids=[_id(c) for c in CASES])
def test_runs_partitioned_with_jaxs_results(item, backend):
    case, form = item
    f = xla_opt.compile(_path(case, form), backend=backend)
    assert f.partitions is not None and f.partitions.devices == case.devices
    assert_results(case, f(*case.inputs()))


@pytest.mark.parametrize("item", CASES, ids=[_id(c) for c in CASES])
def test_the_per_device_program_takes_shards(item):
    """Every argument the annotations shard (evenly) reaches each device as its shard:
    the per-device entry's argument is the global one divided along the sharded axes."""
    case, form = item
    f = xla_opt.compile(_path(case, form))
    program = f.partitions
    assert program is not None
    for boundary in program.arguments:
        rows = {tuple(row) for row in boundary.offsets.tolist()}
        sharded = len(rows) > 1
        assert (boundary.local_shape != boundary.global_shape) == sharded


# One rank of a job of N ranks: every N-device program, in each form, on each backend.
EVERY_PROGRAM = textwrap.dedent(
    """
    from mpi4py import MPI

    import xla_opt
    from tests.sharding.corpus import assert_results, programs

    world = MPI.COMM_WORLD
    runs, failures = 0, []
    for case in programs():
        if case.devices != world.Get_size():
            continue
        for form, path in (("sdy", case.path), ("gspmd", case.gspmd_path)):
            for backend in ("interpreter", "jit") if path is not None else ():
                try:
                    assert_results(case, xla_opt.run(path, *case.inputs(), backend=backend, launcher="mpi"))
                except AssertionError as e:
                    failures.append(f"{case.id} {form} {backend}: {e}")
                runs += 1
    print(f"rank {world.Get_rank()}: {runs} runs; failures: {failures}")
    """
)


@pytest.mark.skipif(mpi_available() is not None, reason=f"MPI missing: {mpi_available()}")
@pytest.mark.parametrize("ranks", [2, 4])
def test_every_program_runs_as_mpi_ranks(tmp_path, ranks):
    script = tmp_path / "every_program.py"
    script.write_text(EVERY_PROGRAM)
    env = {k: v for k, v in os.environ.items() if k not in _MPI_JOB_VARIABLES}
    env["PYTHONPATH"] = str(ROOT)
    command = [str(mpirun()), "-np", str(ranks), sys.executable, str(script)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:] or done.stdout[-3000:]
    expected = 2 * sum(1 + (c.gspmd_path is not None) for c in programs() if c.devices == ranks)
    for rank in range(ranks):
        assert f"rank {rank}: {expected} runs; failures: []" in done.stdout, done.stdout
