"""Sharded programs as JAX exports them run partitioned, with JAX's results (issue 30).

Every program of the corpus (tests/sharding/: data-parallel and FSDP training steps, a
Megatron MLP, a 2-D mesh, resharding constraints, reductions and argmax over sharded
dimensions, a batch-sharded convolution with batch-norm statistics, an embedding lookup
from a vocabulary-sharded table, an uneven intermediate, shard_map bodies with psum,
all_gather, ppermute and all_to_all, integers), on 2 and 4 devices, in Shardy's form
and, for some, GSPMD's: partitioned by `xla-spmd-partition` and run as threads on the
interpreter and the JIT, its global results compared with JAX's (integers exactly,
floats to 1e-5). A few run as MPI ranks too, on both backends.
"""

from __future__ import annotations

import pytest

import xla_opt
from tests.sharding.corpus import assert_results, programs

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


MPI_CASES = ["dp_train_step", "megatron_mlp", "shard_map_psum"]


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("name", MPI_CASES)
def test_runs_as_mpi_ranks(name, backend):
    pytest.importorskip("mpi4py", reason="MPI is not installed (pip install -e '.[mpi]')")
    (case,) = [c for c in programs() if c.name == name and c.devices == 2]
    assert_results(case, xla_opt.run(case.path, *case.inputs(), backend=backend, launcher="mpi"))
