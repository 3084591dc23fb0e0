"""f64 matmul: our JIT (`xla_opt_dgemm`) against NumPy (OpenBLAS's dgemm), in one run.

    .venv/bin/python benchmarks/matmul_f64.py                 # 512 and 1024, 1 and 2 threads
    .venv/bin/python benchmarks/matmul_f64.py --sizes 256 2048 --threads 1

Each thread count runs in a fresh process pinned to that many CPUs with
XLA_OPT_NUM_THREADS and NumPy's BLAS thread variables set (OpenBLAS's idle threads
sleeping at once). Our call and NumPy's alternate (the machine is shared: a load change hits both alike); the medians and
GFLOP/s are printed, and our result is checked against NumPy's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def measure(n: int, rounds: int) -> None:
    """One size: our call and NumPy's alternating, then their medians."""
    import xla_opt

    ty = f"tensor<{n}x{n}xf64>"
    program = f"""
func.func @main(%a: {ty}, %b: {ty}) -> {ty} {{
  %0 = xla.dot %a, %b : ({ty}, {ty}) -> {ty}
  func.return %0 : {ty}
}}"""
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    ours = xla_opt.compile(program, backend="jit")
    assert "xla_opt_dgemm" in ours.jit.llvm_ir
    bound = n * np.finfo(np.float64).eps * (np.abs(a) @ np.abs(b))  # any summation order
    assert np.all(np.abs(ours(a, b)[0] - a @ b) <= bound)
    calls = {"ours": lambda: ours(a, b), "numpy": lambda: a @ b}
    times: dict[str, list[float]] = {name: [] for name in calls}
    deadline = time.perf_counter() + 0.3
    while time.perf_counter() < deadline:  # warm-up of both
        for call in calls.values():
            call()
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    gflop = 2.0 * n**3 / 1e9
    ours_s, numpy_s = (float(np.median(times[name])) for name in ("ours", "numpy"))
    print(
        f"  f64 {n}x{n}: ours {ours_s * 1e3:.2f} ms ({gflop / ours_s:.1f} GFLOP/s), "
        f"numpy {numpy_s * 1e3:.2f} ms ({gflop / numpy_s:.1f} GFLOP/s), ours/numpy time x{ours_s / numpy_s:.2f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[512, 1024])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        for n in args.sizes:
            measure(n, args.rounds)
        return
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    for threads in args.threads:
        print(f"{threads} thread(s):", flush=True)
        env = dict(os.environ, XLA_OPT_NUM_THREADS=str(threads), **dict.fromkeys(BLAS_THREADS, str(threads)))
        # OpenBLAS's idle threads spin for a while after each call and would take a core
        # from our next (interleaved) call: make them sleep at once
        env.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")
        cpus = ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:threads])
        command = ["taskset", "-c", cpus, sys.executable, __file__, "--child", "--rounds", str(args.rounds)]
        subprocess.run([*command, "--sizes", *map(str, args.sizes)], env=env, check=True)


if __name__ == "__main__":
    main()
