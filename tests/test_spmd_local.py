"""Partitioned programs inside an MPI job, at scale (issue 30, items 3 and 4): with
`local=True` each rank passes only its own shards and gets only its result shards, so
nothing global is materialized on any rank; and each rank's peak memory for a
data-parallel step falls about N-fold against the whole program on one process.

The ranks are started here by MPICH's `mpirun` (as a site's `mpirun` would start a
user's script), with small jobs: the machine has 2 cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import xla_opt
from tests.sharding.corpus import case
from xla_opt.mpi_launch import _MPI_JOB_VARIABLES, mpi_available, mpirun

ROOT = Path(__file__).resolve().parents[1]
# exported by `python examples/export_sharded_mlp.py 4 --data-parallel --batch 65536`:
# one SGD step of a 2-layer MLP, the batch (65536 x 4 inputs, 65536 x 2 targets) split
# over "data"=4, the (small) weights replicated
DATA_PARALLEL_STEP = ROOT / "examples" / "data_parallel_mlp_4.mlir"

needs_mpi = pytest.mark.skipif(mpi_available() is not None, reason=f"MPI missing: {mpi_available()}")

# One rank of a job: its shards of the corpus case's inputs (cut here from the stored
# global inputs, as a data loader would read only its part), run with local=True; it
# checks its result shards against the parts of JAX's results it holds.
LOCAL_RANK = textwrap.dedent(
    """
    import sys
    import numpy as np
    from mpi4py import MPI
    import xla_opt

    program, data, backend = sys.argv[1:4]
    rank = MPI.COMM_WORLD.Get_rank()
    f = xla_opt.compile(program, backend=backend, launcher="mpi")
    with np.load(data) as z:
        inputs = [z[f"in{i}"] for i in range(len(f.partitions.arguments))]
        expected = [z[f"out{i}"] for i in range(len(f.partitions.results))]
    mine = [x[b.slices(rank)] for x, b in zip(inputs, f.partitions.arguments)]
    del inputs
    for _ in range(2):  # the second call reuses the prepared (compiled) rank program
        got = f(*mine, local=True)
    for i, (g, e, b) in enumerate(zip(got, expected, f.partitions.results)):
        assert g.shape == b.local_shape, (i, g.shape, b.local_shape)
        np.testing.assert_allclose(g, e[b.slices(rank)], rtol=1e-5, atol=1e-5, err_msg=f"result {i}")
    print(f"rank {rank}: ok", [tuple(g.shape) for g in got])
    """
)

# The peak resident memory a call adds, of one rank (local=True, its shards made on
# the rank) or of the whole program on one process (partitions=1): VmHWM after the
# call less VmRSS before it, the peak reset (/proc/self/clear_refs) after a first,
# warm-up call. MALLOC_MMAP_THRESHOLD_ (set by the test) keeps glibc from caching freed
# large blocks, so every tensor's pages come and go with it.
MEMORY_RANK = textwrap.dedent(
    """
    import json, os, sys
    import numpy as np
    import xla_opt

    program, backend, mode, out = sys.argv[1:5]

    def status():
        fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
        return {k: int(fields[k].split()[0]) * 1024 for k in ("VmRSS", "VmHWM")}

    if mode == "rank":
        f = xla_opt.compile(program, backend=backend, launcher="mpi")
        types = [(b.local_shape, b.dtype) for b in f.partitions.arguments]
        call = lambda xs: f(*xs, local=True)
    else:
        f = xla_opt.compile(program, backend=backend, partitions=1)
        types = [(tuple(t.get_shape()), np.float32) for t in f.function.function_type.inputs.data]
        call = lambda xs: f(*xs)
    rng = np.random.default_rng(0)
    make = lambda: [rng.standard_normal(s).astype(d) for s, d in types]
    call(make())  # warm-up: compiles (jit), fills Python's caches
    with open("/proc/self/clear_refs", "w") as f_:
        f_.write("5")
    before = status()["VmRSS"]
    results = call(make())
    peak = status()["VmHWM"] - before
    report = {"peak": peak, "argument_bytes": sum(int(np.prod(s)) * 4 for s, _ in types)}
    with open(os.path.join(out, f"{mode}-{os.environ.get('PMI_RANK', '0')}.json"), "w") as f_:
        json.dump(report, f_)
    """
)


def _mpirun(ranks: int, script: Path, *args: str, env: dict | None = None) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in _MPI_JOB_VARIABLES}
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    command = [str(mpirun()), "-np", str(ranks), sys.executable, str(script), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:] or done.stdout[-3000:]
    return done.stdout


@needs_mpi
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_each_rank_runs_its_own_shards(tmp_path, backend):
    """Megatron's MLP on 2 ranks (w1 column- and w2 row-sharded): each rank passes its
    local shards, whose shapes are the per-device program's, and gets its part of JAX's
    result."""
    c = case("megatron_mlp", 2)
    script = tmp_path / "rank.py"
    script.write_text(LOCAL_RANK)
    out = _mpirun(2, script, str(c.path), str(c.data), backend)
    assert "rank 0: ok" in out and "rank 1: ok" in out, out


def test_local_outside_an_mpi_job_is_an_error():
    c = case("megatron_mlp", 2)
    f = xla_opt.compile(c.path, launcher="mpi")
    with pytest.raises(ValueError, match="local=True runs one MPI rank's shards"):
        f(*c.inputs(), local=True)
    with pytest.raises(ValueError, match="launcher='mpi'"):
        xla_opt.run(c.path, *c.inputs(), local=True)


def test_a_rank_gets_local_argument_and_result_types():
    """The per-device entry of the data-parallel step: the batch arguments are a
    quarter of the global ones, the replicated weights and results whole."""
    f = xla_opt.compile(DATA_PARALLEL_STEP)
    assert [(b.global_shape, b.local_shape) for b in f.partitions.arguments] == [
        ((4, 8), (4, 8)),
        ((8, 2), (8, 2)),
        ((65536, 4), (16384, 4)),
        ((65536, 2), (16384, 2)),
    ]
    assert [b.local_shape for b in f.partitions.results] == [(4, 8), (8, 2), ()]
    types = [tuple(t.get_shape()) for t in f.partitions.function.function_type.inputs.data]
    assert types == [(4, 8), (8, 2), (16384, 4), (16384, 2)]


@needs_mpi
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_per_rank_memory_falls_about_n_fold(tmp_path, backend):
    """A data-parallel step on 4 ranks against the whole program on one process: each
    rank's peak (its shards of the batch, its activations) is about a quarter."""
    script = tmp_path / "memory.py"
    script.write_text(MEMORY_RANK)
    # every buffer its own mapping, unmapped when freed, so that a call's peak is what it
    # allocates (the JIT otherwise keeps freed buffers mapped: runtime/allocator.py)
    env = {"MALLOC_MMAP_THRESHOLD_": "65536", "XLA_OPT_MALLOC_TUNING": "0"}
    _mpirun(1, script, str(DATA_PARALLEL_STEP), backend, "whole", str(tmp_path), env=env)
    _mpirun(4, script, str(DATA_PARALLEL_STEP), backend, "rank", str(tmp_path), env=env)
    whole = json.loads((tmp_path / "whole-0.json").read_text())
    ranks = [json.loads((tmp_path / f"rank-{r}.json").read_text()) for r in range(4)]
    worst = max(r["peak"] for r in ranks)
    print(f"{backend}: whole {whole['peak'] / 2**20:.1f} MiB, per rank <= {worst / 2**20:.1f} MiB")
    # the whole step holds at least its 1.5 MiB of batch arguments; a rank a quarter of them
    assert whole["peak"] > whole["argument_bytes"]
    assert whole["peak"] / worst > 3.0, (whole, ranks)
