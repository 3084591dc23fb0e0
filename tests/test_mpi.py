"""Replicas as MPI ranks (issue 12): the interpreter's collectives over MPI give the
threaded interpreter's results bit for bit (the threaded run is the oracle, itself
checked against the spec's examples in test_interp_collectives.py), `xla-run
--launcher mpi` prints what the threaded run prints, and failures end the job with
one line instead of a hang. Jobs stay at <= 4 ranks with small tensors (the machine
has 2 cores; MPICH ranks busy-poll)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from xla_opt.api import load_program
from xla_opt.interpreter.replicas import ReplicaError
from xla_opt.mpi_launch import mpi_available, mpirun, run_replicas_mpi

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(mpi_available() is not None, reason=f"MPI missing: {mpi_available()}")

COLLECTIVES = """
func.func @main(%x: tensor<4x2xf32>, %k: tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<i32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<ui32>, tensor<4x8xf32>, tensor<1x8xf32>) {
  %sum = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %pair_max = xla.all_reduce %x, replica_groups = [[0, 2], [3, 1]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %int_sum = xla.all_reduce %k, replica_groups = [[1, 0], [2, 3]] computation {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  } : (tensor<i32>) -> tensor<i32>
  %gathered = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 2], [3, 1]] : (tensor<4x2xf32>) -> tensor<8x2xf32>
  %scattered = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [[1, 0], [2, 3]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x2xf32>) -> tensor<2x2xf32>
  %swapped = xla.all_to_all %x, split_dimension = 0, concat_dimension = 0, split_count = 4, replica_groups = [[0, 1, 2, 3]] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %permuted = xla.collective_permute %x, source_target_pairs = [[0, 1], [1, 2], [2, 0]] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %id = xla.replica_id : tensor<ui32>
  %columns = xla.all_gather %x, all_gather_dim = 1, replica_groups = [] : (tensor<4x2xf32>) -> tensor<4x8xf32>
  %transposed = xla.all_to_all %x, split_dimension = 0, concat_dimension = 1, split_count = 4, replica_groups = [[3, 2, 1, 0]] : (tensor<4x2xf32>) -> tensor<1x8xf32>
  func.return %sum, %pair_max, %int_sum, %gathered, %scattered, %swapped, %permuted, %id, %columns, %transposed : tensor<4x2xf32>, tensor<4x2xf32>, tensor<i32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<ui32>, tensor<4x8xf32>, tensor<1x8xf32>
}
"""


def assert_same(got, expected) -> None:
    assert len(got) == len(expected)
    for replica_got, replica_expected in zip(got, expected, strict=True):
        assert len(replica_got) == len(replica_expected)
        for g, e in zip(replica_got, replica_expected, strict=True):
            assert g.dtype == e.dtype and g.shape == e.shape
            np.testing.assert_array_equal(g, e)  # bit for bit: same folds, same order


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_every_collective_matches_the_threaded_replicas(backend):
    """Four ranks, interpreted or compiled (the collectives then MPI calls): all_reduce
    over all replicas and over groups given out of order (float sum, max, integer
    sum), all_gather along either dimension, reduce_scatter, all_to_all (same and
    different split/concat dimensions), collective_permute (replica 3 is no target:
    zeros) and replica_id."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal((4, 4, 2)).astype(np.float32)  # one (4, 2) value per replica
    k = np.array([3, -7, 11, 100], dtype=np.int32)
    threads = xla_opt.run(COLLECTIVES, x, k, replicas=4)
    mpi = xla_opt.run(COLLECTIVES, x, k, replicas=4, launcher="mpi", backend=backend)
    assert_same(mpi, threads)
    np.testing.assert_array_equal(mpi[3][6], np.zeros((4, 2), np.float32))
    assert [int(r[7]) for r in mpi] == [0, 1, 2, 3]


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_xla_run_prints_what_the_threaded_run_prints(tmp_path, backend):
    program = tmp_path / "p.mlir"
    program.write_text(COLLECTIVES)
    x = np.arange(32, dtype=np.float32).reshape(4, 4, 2)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "k.npy", np.arange(4, dtype=np.int32))
    base = [sys.executable, "-m", "xla_opt.run_main", str(program), "--input", str(tmp_path / "x.npy"),
            str(tmp_path / "k.npy"), "--replicas", "4"]  # fmt: skip
    threads = subprocess.run(base, capture_output=True, text=True, check=True)
    mpi = subprocess.run(
        [*base, "--launcher", "mpi", "--backend", backend], capture_output=True, text=True, check=False
    )
    assert mpi.returncode == 0, mpi.stderr
    assert mpi.stdout == threads.stdout
    assert "replica 3 result #7: uint32[]" in mpi.stdout


WHILE_ALL_REDUCE = """
func.func @main(%x: tensor<2xf32>, %n: tensor<i32>) -> tensor<2xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %i, %r, %m = xla.while %zero, %x, %n cond {
  ^bb0(%ci: tensor<i32>, %cx: tensor<2xf32>, %cn: tensor<i32>):
    %go = xla.compare %ci, %cn, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %go : tensor<i1>
  } body {
  ^bb0(%bi: tensor<i32>, %bx: tensor<2xf32>, %bn: tensor<i32>):
    %one = xla.constant dense<1> : tensor<i32>
    %ni = xla.add %bi, %one : tensor<i32>
    %s = xla.all_reduce %bx, replica_groups = [] computation {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = xla.add %a, %b : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    xla.return %ni, %s, %bn : tensor<i32>, tensor<2xf32>, tensor<i32>
  } : (tensor<i32>, tensor<2xf32>, tensor<i32>) -> (tensor<i32>, tensor<2xf32>, tensor<i32>)
  func.return %r : tensor<2xf32>
}
"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_a_collective_one_replica_never_reaches_times_out(backend):
    """Replica 1 loops once more than replica 0: its second all_reduce has no partner.
    MPI would wait forever; the rank reports where it waits and the job ends."""
    module = load_program(WHILE_ALL_REDUCE)
    x = np.ones(2, np.float32)
    inputs = [[x, np.array(1, np.int32)], [x, np.array(2, np.int32)]]
    message = {
        "interpreter": r"replica 1 of 2 failed: replica 1 waited 2 s in xla.all_reduce .*never reached",
        "jit": r"an MPI collective waited longer than the replica timeout: some replica never reached it",
    }[backend]
    with pytest.raises(ReplicaError, match=message):
        run_replicas_mpi(str(module), "main", backend, inputs, timeout=2.0)


def test_a_failing_replica_ends_the_job_with_one_line():
    """A run-time error (a replica id the job does not have) aborts the job: the
    caller gets the failing rank's one line, no rank waits for it."""
    program = COLLECTIVES.replace(
        "source_target_pairs = [[0, 1], [1, 2], [2, 0]]", "source_target_pairs = [[0, 1], [1, 5]]"
    )
    x = np.zeros((4, 2), np.float32)
    with pytest.raises(
        ReplicaError,
        match=r"^replica \d of 4 failed: xla.collective_permute .*names replica ids \[5\] but the program runs on 4 replica\(s\)$",
    ):
        xla_opt.run(program, x, np.array(0, np.int32), replicas=4, launcher="mpi")


def test_a_late_ranks_file_does_not_fail_the_jobs_cleanup(tmp_path, monkeypatch):
    """Reproducer: test_a_failing_replica_ends_the_job_with_one_line failed on a fresh
    install with `OSError: Directory not empty` instead of the failing rank's line:
    mpirun returned while another rank of the aborted job still wrote its error file,
    and removing the job's directory met the new file. The removal tries again."""
    import shutil

    from xla_opt import mpi_launch

    workdir = tmp_path / "job"
    workdir.mkdir()
    (workdir / "rank-0.err").write_text("replica 0 of 2 failed: ...")
    removals = []
    real_rmtree = shutil.rmtree

    def rmtree_meeting_a_late_rank(path, ignore_errors=False):
        removals.append(path)
        real_rmtree(path, ignore_errors=ignore_errors)
        if len(removals) == 1:  # a rank of the aborted job writes while it is removed
            workdir.mkdir()
            (workdir / "rank-1.err").write_text("")

    monkeypatch.setattr(mpi_launch.shutil, "rmtree", rmtree_meeting_a_late_rank)
    monkeypatch.setattr(mpi_launch, "REMOVE_PAUSE", 0.0)
    mpi_launch.remove_workdir(str(workdir))
    assert not workdir.exists() and len(removals) == 2


def test_the_launcher_skips_an_error_file_a_killed_rank_left_empty(tmp_path):
    """Reproducer: under load, one failing rank's MPI_Abort killed another between
    creating its error file and writing it, and the job failed with an empty message
    (test_a_failing_replica_ends_the_job_with_one_line flaked in CI). The launcher
    reports the first error written whole."""
    from xla_opt.mpi_launch import first_error

    assert first_error(tmp_path) is None
    (tmp_path / "error-0.txt").write_text("")
    (tmp_path / "error-2.txt").write_text("replica 2 of 4 failed: boom\n")
    (tmp_path / "error-3.partial").write_text("replica 3 of 4 failed: half")
    assert first_error(tmp_path) == "replica 2 of 4 failed: boom"


def test_the_lowest_failing_rank_is_reported_by_number_not_by_file_name(tmp_path):
    """error-10.txt sorts before error-2.txt as text; rank 2 is the lowest."""
    from xla_opt.mpi_launch import first_error

    (tmp_path / "error-10.txt").write_text("replica 10 of 12 failed: late\n")
    (tmp_path / "error-2.txt").write_text("replica 2 of 12 failed: first\n")
    assert first_error(tmp_path) == "replica 2 of 12 failed: first"


def test_inside_an_mpi_job_the_ranks_run_their_replicas(tmp_path):
    """Started by mpirun (as a site's own would be): each rank runs its replica and
    gets every replica's results; a job of the wrong size is a clear error."""
    script = tmp_path / "job.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        import numpy as np
        import xla_opt
        from mpi4py import MPI
        program = {COLLECTIVES!r}
        x = np.arange(32, dtype=np.float32).reshape(4, 4, 2)
        k = np.arange(4, dtype=np.int32)
        replicas = int(sys.argv[1])
        try:
            results = xla_opt.run(program, x, k, replicas=replicas, launcher="mpi")
        except Exception as e:
            print(f"rank {{MPI.COMM_WORLD.Get_rank()}}: {{e}}")
            raise SystemExit(1)
        expected = xla_opt.run(program, x, k, replicas=replicas)
        same = all(np.array_equal(g, e) for rg, re in zip(results, expected) for g, e in zip(rg, re))
        print(f"rank {{MPI.COMM_WORLD.Get_rank()}}: same={{same}}")
    """)
    )

    def job(ranks: int) -> subprocess.CompletedProcess:
        command = [str(mpirun()), "-np", str(ranks), sys.executable, str(script), "4"]
        return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)

    ok = job(4)
    assert ok.returncode == 0, ok.stderr
    assert all(f"rank {r}: same=True" in ok.stdout for r in range(4)), ok.stdout
    wrong = job(2)
    assert wrong.returncode != 0
    assert "the MPI job has 2 rank(s) for 4 replicas" in wrong.stderr + wrong.stdout


def data_parallel_step(w, b, xs, ys, learning_rate=0.1):
    """numpy: one SGD step of tanh(x @ w + b) on the mean squared error, gradients and
    loss averaged over the devices' batches (examples/export_data_parallel_step.py)."""
    w64, b64 = w.astype(np.float64), b.astype(np.float64)
    gws, gbs, losses = [], [], []
    for x, y in zip(xs.astype(np.float64), ys.astype(np.float64), strict=True):
        p = np.tanh(x @ w64 + b64)
        losses.append(np.mean((p - y) ** 2))
        dz = 2 * (p - y) / p.size * (1 - p**2)
        gws.append(x.T @ dz)
        gbs.append(dz.sum(axis=0))
    return w64 - learning_rate * np.mean(gws, 0), b64 - learning_rate * np.mean(gbs, 0), np.mean(losses)


@pytest.mark.parametrize("devices", [2, 4])
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_data_parallel_training_step_from_jax(devices, backend):
    """The README's example: a pmap'd training step exported by JAX (GSPMD StableHLO,
    all_reduce of the gradients), its body an sdy.manual_computation, partitioned on
    `devices` ranks: the global results are the threaded run's (bit for bit on the
    interpreter) and numpy's step."""
    program = ROOT / "examples" / f"data_parallel_step_{devices}.mlir"
    rng = np.random.default_rng(devices)
    w = rng.standard_normal((8, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    xs = rng.standard_normal((devices, 16, 8)).astype(np.float32)
    ys = rng.standard_normal((devices, 16, 4)).astype(np.float32)
    got = xla_opt.run(program, w, b, xs, ys, launcher="mpi", backend=backend)
    if backend == "interpreter":
        assert_same([got], [xla_opt.run(program, w, b, xs, ys)])
    new_w, new_b, loss = data_parallel_step(w, b, xs, ys)
    new_ws, new_bs, losses = got  # pmap's results: one per device, stacked
    np.testing.assert_allclose(new_ws, np.broadcast_to(new_w, (devices, 8, 4)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(new_bs, np.broadcast_to(new_b, (devices, 4)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(losses, np.full(devices, loss), rtol=1e-5)


# ---- every collective, dtype, reducer and grouping on 2, 3 and 4 ranks ------------------

GROUPINGS = {  # besides [] (all replicas): groups given out of order, of one, and of several
    2: ["[[1, 0]]", "[[0], [1]]"],
    3: ["[[2, 0, 1]]", "[[1], [2], [0]]"],
    4: ["[[3, 1], [0, 2]]", "[[2, 3, 0, 1]]"],
}
DTYPES = ["i8", "i32", "ui16", "f16", "bf16", "f32", "f64"]
REDUCERS = ["add", "maximum", "minimum", "multiply"]


def _reducer(op: str, element: str) -> str:
    t = f"tensor<{element}>"
    return f"computation {{\n  ^bb0(%p: {t}, %q: {t}):\n    %s = xla.{op} %p, %q : {t}\n    xla.return %s : {t}\n  }}"


def _groups_of(grouping: str, n: int) -> list[list[int]]:
    rows = eval(grouping) or [list(range(n))]
    return rows


def collectives_program(n: int) -> str:
    """One program with every collective: all_reduce for each dtype and reducer over
    every grouping, all_gather / reduce_scatter / all_to_all over every grouping (with
    their dimensions varied), collective_permute (a rotation, one replica untargeted)
    and replica_id. Its inputs: one 2x12 tensor per dtype."""
    lines, results = [], []
    params = [f"tensor<2x12x{d}>" for d in DTYPES]
    for k, d in enumerate(DTYPES):
        t = f"tensor<2x12x{d}>"
        for j, grouping in enumerate(["[]", *GROUPINGS[n]]):
            size = len(_groups_of(grouping, n)[0])
            reducer = REDUCERS[(k + j) % len(REDUCERS)]
            lines.append(
                f"  %ar{k}_{j} = xla.all_reduce %a{k}, replica_groups = {grouping} {_reducer(reducer, d)} : {t}"
            )
            results.append((f"%ar{k}_{j}", t))
            dim = j % 2
            gathered = [2, 12]
            gathered[dim] *= size
            gt = f"tensor<{gathered[0]}x{gathered[1]}x{d}>"
            lines.append(
                f"  %ag{k}_{j} = xla.all_gather %a{k}, all_gather_dim = {dim}, replica_groups = {grouping} : ({t}) -> {gt}"
            )
            results.append((f"%ag{k}_{j}", gt))
            st = f"tensor<2x{12 // size}x{d}>"
            lines.append(
                f"  %rs{k}_{j} = xla.reduce_scatter %a{k}, scatter_dimension = 1, replica_groups = {grouping} "
                f"{_reducer(reducer, d)} : ({t}) -> {st}"
            )
            results.append((f"%rs{k}_{j}", st))
            concat = 1 - dim
            a2a = [2, 12 // size]
            a2a[concat] *= size
            at = f"tensor<{a2a[0]}x{a2a[1]}x{d}>"
            lines.append(
                f"  %aa{k}_{j} = xla.all_to_all %a{k}, split_dimension = 1, concat_dimension = {concat}, "
                f"split_count = {size}, replica_groups = {grouping} : ({t}) -> {at}"
            )
            results.append((f"%aa{k}_{j}", at))
        pairs = ", ".join(f"[{r}, {(r + 1) % n}]" for r in range(n - 1))  # replica 0 is no target
        lines.append(f"  %cp{k} = xla.collective_permute %a{k}, source_target_pairs = [{pairs}] : ({t}) -> {t}")
        results.append((f"%cp{k}", t))
    lines.append("  %id = xla.replica_id : tensor<ui32>")
    results.append(("%id", "tensor<ui32>"))
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
    names, types = ", ".join(r for r, _ in results), ", ".join(t for _, t in results)
    text = f"func.func @main({args}) -> ({types}) {{\n" + "\n".join(lines) + f"\n  func.return {names} : {types}\n}}\n"
    return text


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_dtype_reducer_and_grouping_matches_the_threads(n, backend):
    """The done-when of issue 12: N = 2, 3, 4 ranks, both backends, output identical to
    the threaded interpreter's (floats bit for bit: the fold is in group order)."""
    text = collectives_program(n)
    rng = np.random.default_rng(n)
    dtypes = {"i8": np.int8, "i32": np.int32, "ui16": np.uint16, "f16": np.float16,
              "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}  # fmt: skip
    inputs = []
    for d in DTYPES:
        dtype = np.dtype(dtypes[d])
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            values = rng.integers(info.min, info.max, (n, 2, 12), endpoint=True)
        else:
            values = rng.standard_normal((n, 2, 12))
        inputs.append(values.astype(dtype))
    expected = xla_opt.run(text, *inputs, replicas=n)
    got = xla_opt.run(text, *inputs, replicas=n, launcher="mpi", backend=backend)
    assert_same(got, expected)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_send_on_one_replica_recv_on_another(backend):
    """Channels over MPI: replica 0 sends on channel 5, replica 1 receives and adds its
    own value (the threaded interpreter's test program)."""
    from tests.test_interp_collectives import SEND_RECV_2

    xs = np.array([[1, 2, 3], [10, 20, 30]], np.float32)
    got = xla_opt.run(SEND_RECV_2, xs, replicas=2, launcher="mpi", backend=backend)
    assert_same(got, xla_opt.run(SEND_RECV_2, xs, replicas=2))
    np.testing.assert_array_equal(got[1][0], xs[0] + xs[1])


def test_recv_that_no_replica_sends_to_times_out():
    program = """func.func @main() -> tensor<2xf32> {
  %t0 = xla.after_all : !xla.token
  %y, %t1 = xla.recv %t0, channel_id = 9 : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return %y : tensor<2xf32>
}"""
    with pytest.raises(
        ReplicaError, match=r"replica \d of 2 failed: replica \d waited 2 s in xla.recv .* for a send on channel 9"
    ):
        run_replicas_mpi(program, "main", "interpreter", [[], []], timeout=2.0)


def test_mpi_applies_its_own_op_only_where_the_result_is_exact(tmp_path):
    """Compiled: an integer sum is MPI_Allreduce (MPI's SUM gives the same integers);
    a float sum is gathered and folded in group order (MPI's order could change it)."""
    script = tmp_path / "lower.py"
    script.write_text(
        textwrap.dedent("""
        from mpi4py import MPI
        from xdsl.dialects.builtin import IntegerAttr, i32
        from xla_opt.api import load_program
        from xla_opt.runtime.executable import JitFunction

        program = '''func.func @main(%i: tensor<3xi32>, %f: tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>) {
          %a = xla.all_reduce %i, replica_groups = [] computation {
          ^bb0(%p: tensor<i32>, %q: tensor<i32>):
            %s = xla.add %p, %q : tensor<i32>
            xla.return %s : tensor<i32>
          } : tensor<3xi32>
          %b = xla.all_reduce %f, replica_groups = [] computation {
          ^bb0(%p: tensor<f32>, %q: tensor<f32>):
            %s = xla.add %p, %q : tensor<f32>
            xla.return %s : tensor<f32>
          } : tensor<3xf32>
          func.return %a, %b : tensor<3xi32>, tensor<3xf32>
        }'''
        module = load_program(program)
        module.attributes["xla.num_replicas"] = IntegerAttr(2, i32)
        ir = JitFunction(module, "main", replica_id=MPI.COMM_WORLD.Get_rank()).llvm_ir
        calls = sorted({name for name in ("xla_opt_mpi_allreduce__3xi32", "xla_opt_mpi_allgather__3xf32") if name in ir})
        print(f"rank {MPI.COMM_WORLD.Get_rank()}: {calls}")
    """)
    )
    done = subprocess.run(
        [str(mpirun()), "-np", "2", sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for r in range(2):
        assert f"rank {r}: ['xla_opt_mpi_allgather__3xf32', 'xla_opt_mpi_allreduce__3xi32']" in done.stdout


def test_the_replica_timeout_is_a_setting(tmp_path, monkeypatch):
    """`replica_timeout=` / `--replica-timeout` / XLA_OPT_REPLICA_TIMEOUT: how long a
    rank waits before a collective no other rank reaches ends the job."""
    import time

    x = np.ones((2, 2), np.float32)
    counts = np.array([1, 2], np.int32)
    start = time.monotonic()
    with pytest.raises(ReplicaError, match="waited 1.5 s in xla.all_reduce"):
        xla_opt.run(WHILE_ALL_REDUCE, x, counts, replicas=2, launcher="mpi", replica_timeout=1.5)
    assert time.monotonic() - start < 60
    program = tmp_path / "p.mlir"
    program.write_text(WHILE_ALL_REDUCE)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "n.npy", counts)
    command = [sys.executable, "-m", "xla_opt.run_main", str(program), "--input", str(tmp_path / "x.npy"),
               str(tmp_path / "n.npy"), "--replicas", "2", "--launcher", "mpi", "--backend", "jit",
               "--replica-timeout", "1.5"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "xla-run: error: replica 1 of 2 failed: an MPI collective waited longer than the replica timeout: "
        "some replica never reached it\n"
    )
    monkeypatch.setenv("XLA_OPT_REPLICA_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="XLA_OPT_REPLICA_TIMEOUT must be a number of seconds, got 'soon'"):
        xla_opt.compile(WHILE_ALL_REDUCE, replicas=2)


RAGGED_GROUPS = """
func.func @main(%x: tensor<2xf32>, %k: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %s = xla.all_reduce %x, replica_groups = [[0, 2, -1], [1, 3, 4]] computation {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = xla.add %p, %q : tensor<f32>
    xla.return %r : tensor<f32>
  } : tensor<2xf32>
  %m = xla.all_reduce %k, replica_groups = [[4, 1, 3], [2, 0, -1]] computation {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %r = xla.maximum %p, %q : tensor<i32>
    xla.return %r : tensor<i32>
  } : tensor<i32>
  func.return %s, %m : tensor<2xf32>, tensor<i32>
}
"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_replica_groups_of_different_sizes(backend):
    """Groups padded with -1 (StableHLO's spelling of XLA's groups of different
    sizes): each group reduces on its own, on five ranks, as the threaded replicas do."""
    x = np.arange(10, dtype=np.float32).reshape(5, 2) ** 2
    k = np.array([3, -7, 11, 100, 5], dtype=np.int32)
    threads = xla_opt.run(RAGGED_GROUPS, x, k, replicas=5)
    assert [int(r[1]) for r in threads] == [11, 100, 11, 100, 100]
    np.testing.assert_array_equal(threads[1][0], x[1] + x[3] + x[4])
    assert_same(xla_opt.run(RAGGED_GROUPS, x, k, replicas=5, launcher="mpi", backend=backend), threads)
