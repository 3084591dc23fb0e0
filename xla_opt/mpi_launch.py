"""Running N replicas as the N ranks of an MPI job (issue 12), for `xla_opt.run(...,
replicas=N, launcher="mpi")` and `xla-run --replicas N --launcher mpi`.

Outside an MPI job, `run_replicas_mpi` starts one: `mpirun -np N python -m
xla_opt.mpi_launch JOBDIR`, with the `mpirun` beside `sys.executable` (the MPI that
mpi4py in this environment loads: a different MPI's `mpirun` would start N
single-rank jobs, which every rank checks for). JOBDIR holds the job (the program's
text, entry, backend, every replica's inputs); each rank runs its replica (the
interpreter with its collectives over `MpiRendezvous`, or the JIT: each rank compiles
the program with its collectives as MPI calls), the results are gathered to rank 0,
which writes them back. Already inside an MPI job of N ranks (started by the site's
own `mpirun`), the ranks run their replicas directly and every rank returns all
results.

A rank that fails writes its one-line error and aborts the job (MPI_Abort), so no
rank waits for it forever; the caller gets that line as a ReplicaError.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from xla_opt.interpreter.replicas import DEFAULT_TIMEOUT, ReplicaError

JOB_FILE = "job.pkl"
RESULTS_FILE = "results.pkl"
LAUNCH_TIMEOUT = 600.0  # seconds for a whole job started here, on top of the waits' own timeouts
_MPI_JOB_VARIABLES = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


def mpi_available() -> str | None:
    """None when mpi4py and an `mpirun` beside the interpreter are installed, else why not."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "the MPI launcher needs mpi4py and an MPI (pip install 'xla-opt[mpi]')"
    if not mpirun().exists():
        return f"the MPI launcher needs {mpirun()} (pip install 'xla-opt[mpi]' installs MPICH's)"
    return None


def mpirun() -> Path:
    return Path(sys.executable).parent / "mpirun"


def in_mpi_job() -> bool:
    """Whether this process was started by mpirun (as one rank of a job)."""
    return any(v in os.environ for v in _MPI_JOB_VARIABLES)


def run_replicas_mpi(
    program_text: str, entry: str, backend: str, inputs: list[list[Any]], timeout: float = DEFAULT_TIMEOUT
) -> list[tuple[Any, ...]]:
    """Every replica's results, replica r run by rank r of an MPI job of len(inputs)
    ranks (started here unless this process is already one of them)."""
    if why := mpi_available():
        raise ValueError(why)
    job = {"program": program_text, "entry": entry, "backend": backend, "inputs": inputs, "timeout": timeout}
    if in_mpi_job():
        return _run_rank(job, everyone_gets_results=True)
    workdir = tempfile.mkdtemp(prefix="xla-opt-mpi-")
    try:
        return _launch(job, workdir, len(inputs), timeout)
    finally:
        remove_workdir(workdir)


def _launch(job: dict, workdir: str, ranks: int, timeout: float) -> list[tuple[Any, ...]]:
    """Run `job` as an MPI job of `ranks` ranks sharing `workdir`; every replica's
    results, or the ReplicaError of the first rank that failed."""
    with open(Path(workdir) / JOB_FILE, "wb") as f:
        pickle.dump(job, f, protocol=pickle.HIGHEST_PROTOCOL)
    command = [str(mpirun()), "-np", str(ranks), sys.executable, "-m", "xla_opt.mpi_launch", workdir]
    env = {k: v for k, v in os.environ.items() if k not in _MPI_JOB_VARIABLES}
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=LAUNCH_TIMEOUT + timeout, check=False
        )
    except subprocess.TimeoutExpired:
        raise ReplicaError(f"the MPI job of {ranks} ranks did not finish in {LAUNCH_TIMEOUT + timeout:g} s") from None
    if error := first_error(Path(workdir)):
        raise ReplicaError(error)
    results = Path(workdir) / RESULTS_FILE
    if done.returncode != 0 or not results.exists():
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        ours = [line.removeprefix("xla-opt: ") for line in lines if line.startswith("xla-opt: ")]
        last = ours[0] if ours else lines[-1] if lines else "no output"
        raise ReplicaError(f"the MPI job failed (exit {done.returncode}): {last}")
    with open(results, "rb") as f:
        return pickle.load(f)


# Attempts at removing a job's directory, REMOVE_PAUSE seconds apart: when one rank fails,
# mpirun may return while another rank of the aborted job is still writing its error
# file there, and a removal that meets the new file fails ("Directory not empty": the
# caller got that OSError instead of the failing rank's one line, tests/test_mpi.py).
REMOVE_ATTEMPTS = 5
REMOVE_PAUSE = 0.1


def remove_workdir(workdir: str) -> None:
    """Remove a job's directory and what its ranks wrote there, trying again while a
    late rank adds files; left in the temporary directory if one still does."""
    for _ in range(REMOVE_ATTEMPTS):
        shutil.rmtree(workdir, ignore_errors=True)
        if not os.path.exists(workdir):
            return
        time.sleep(REMOVE_PAUSE)


def _run_rank(job: dict, everyone_gets_results: bool, workdir: Path | None = None) -> list[tuple[Any, ...]]:
    """Run this rank's replica of `job`; all ranks' results (on rank 0, or on every
    rank with `everyone_gets_results`)."""
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    rank = world.Get_rank()
    mine = run_this_rank(
        job["program"], job["entry"], job["backend"], job["inputs"][rank], len(job["inputs"]), job["timeout"], workdir
    )
    if everyone_gets_results:
        return world.allgather(mine)
    gathered = world.gather(mine, root=0)
    return gathered if rank == 0 else []


def run_this_rank(
    program_text: str,
    entry: str,
    backend: str,
    inputs: list[Any],
    n: int,
    timeout: float = DEFAULT_TIMEOUT,
    workdir: Path | None = None,
) -> tuple[Any, ...]:
    """This rank's results of its replica of `n` on its own `inputs`, inside an MPI
    job of `n` ranks: nothing of another rank's inputs or results passes through it."""
    return RankProgram(program_text, entry, backend, n, timeout, workdir)(inputs)


class RankProgram:
    """A program as one rank of an MPI job of `n` ranks runs it, prepared once (parsed,
    and compiled on the jit backend: its collectives become MPI calls) and callable on
    this rank's inputs. Any failure, preparing or running, is reported and aborts the
    whole job (`_abort`), so no other rank waits for this one forever."""

    def __init__(
        self,
        program_text: str,
        entry: str,
        backend: str,
        n: int,
        timeout: float = DEFAULT_TIMEOUT,
        workdir: Path | None = None,
    ):
        from mpi4py import MPI

        from xla_opt.loading import load_program

        world = MPI.COMM_WORLD
        self.rank, size = world.Get_rank(), world.Get_size()
        self.n, self.entry, self.timeout, self.workdir = n, entry, timeout, workdir
        try:
            if size != n:
                raise ReplicaError(
                    f"the MPI job has {size} rank(s) for {n} replicas (an `mpirun` of another MPI than "
                    "mpi4py's starts single-rank jobs: use the one beside the Python interpreter)"
                )
            module = load_program(program_text)
            if backend == "jit":
                # each rank compiles the program for itself: its collectives become MPI
                # calls (lowering/conversions/convert_xla_to_linalg/collectives.py, "Over MPI")
                from xdsl.dialects.builtin import IntegerAttr, i32

                from xla_opt.lowering.kernels.mpi import TIMEOUT_MESSAGE
                from xla_opt.runtime.executable import JitFunction
                from xla_opt.runtime.mpi import set_report, set_timeout

                set_timeout(timeout)
                report = str(workdir / f"error-{self.rank}.txt") if workdir is not None else ""
                set_report(report, f"replica {self.rank} of {n} failed: {TIMEOUT_MESSAGE.removeprefix('xla-opt: ')}")
                module.attributes["xla.num_replicas"] = IntegerAttr(n, i32)
                self.compiled: Any = JitFunction(module, entry, replica_id=self.rank)
                self.interpreter: Any = None
            else:
                from xla_opt.interpreter import make_interpreter

                self.compiled, self.interpreter = None, make_interpreter(module)
        except BaseException as e:
            _abort(self.rank, n, e, workdir)
            raise

    def __call__(self, inputs: list[Any]) -> tuple[Any, ...]:
        from xla_opt.interpreter.mpi import MpiRendezvous
        from xla_opt.interpreter.replicas import ReplicaContext, attach

        try:
            rendezvous = MpiRendezvous(self.timeout)
            context = ReplicaContext(self.n, timeout=self.timeout)
            context.rendezvous = rendezvous  # type: ignore[assignment]
            if self.compiled is not None:
                mine = tuple(self.compiled.call_checked(list(inputs), context))
            else:
                attach(self.interpreter, context, self.rank)
                mine = tuple(self.interpreter.call_op(self.entry, tuple(inputs)))
            rendezvous.close()
        except BaseException as e:  # reported, then the whole job stops
            _abort(self.rank, self.n, e, self.workdir)
            raise
        return mine


def first_error(workdir: Path) -> str | None:
    """The error line of the lowest failing rank that wrote one whole (`_abort` writes
    `error-<rank>.txt` by renaming a complete file; an empty one is skipped all the
    same)."""
    for path in sorted(workdir.glob("error-*.txt"), key=lambda p: int(p.stem.removeprefix("error-"))):
        if text := path.read_text().strip():
            return text
    return None


def _abort(rank: int, n: int, error: BaseException, workdir: Path | None) -> None:
    from mpi4py import MPI

    text = "; ".join(p.strip() for p in str(error).splitlines() if p.strip()) or type(error).__name__
    line = f"replica {rank} of {n} failed: {text}"
    if workdir is not None:
        # written whole then renamed: another failing rank's Abort may kill this one
        # mid-write, and the launcher must never read a half-written (empty) line
        partial = workdir / f"error-{rank}.partial"
        partial.write_text(line + "\n")
        os.replace(partial, workdir / f"error-{rank}.txt")
    print(f"xla-opt: {line}", file=sys.stderr, flush=True)
    MPI.COMM_WORLD.Abort(1)


def main(argv: list[str]) -> int:
    """A rank of a job started by run_replicas_mpi: argv = [JOBDIR]."""
    workdir = Path(argv[0])
    with open(workdir / JOB_FILE, "rb") as f:
        job = pickle.load(f)
    results = _run_rank(job, everyone_gets_results=False, workdir=workdir)
    from mpi4py import MPI

    if MPI.COMM_WORLD.Get_rank() == 0:
        with open(workdir / RESULTS_FILE, "wb") as f:
            pickle.dump(results, f, protocol=pickle.HIGHEST_PROTOCOL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
