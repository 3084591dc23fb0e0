"""Convolution gradients as JAX writes them, against jax.jit (issue 32, item 2).

    .venv/bin/python benchmarks/conv_gradients.py                  # everything, 1 and 2 threads
    .venv/bin/python benchmarks/conv_gradients.py wgrad_s2 unet_train_step --threads 1

Every program is exported by JAX here (`jax.jit(f).lower(*args).as_text()`) and compiled
by us from that StableHLO text (`xla_opt.compile(text, backend="jit")`): a 3x3 "SAME"
convolution (NHWC/HWIO, as JAX emits it), its weight gradient (a convolution whose
"window" is the image and whose batch is contracted: `[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b,
f]`, rhs-dilated by a forward stride) and its input gradient (a convolution of the
reversed kernel, lhs-dilated by a forward stride), at stride 1 and 2; then a small U-Net
training step (two strided down blocks, two transposed-convolution up blocks with skips,
group norm, SiLU, SGD on a squared error) and its forward pass.

Per workload and thread count: the median wall time of our JIT and of jax.jit (compiled,
inputs on device, `block_until_ready`) in ROUNDS alternating rounds (bench.py's
`median_time`: the median of each side's round medians), the ratio (> 1: we are faster),
the best single call of each side (the other measure under load: a call of a few
milliseconds is often cut by the scheduler), a check of our results against JAX's, and
how many of the program's convolutions are calls of the convolution kernel
(`xla_opt_sconv`) or the GEMM (`xla_opt_sgemm`) in the LLVM IR we compile. Each thread count runs in a fresh process pinned to that many CPUs
(bench.py's environment). The machine is shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402 - benchmarks/ is not a package

import xla_opt  # noqa: E402

ROUNDS = 5

# (name, what): the workloads, in order.
NAMES = [
    "fwd_s1",
    "wgrad_s1",
    "igrad_s1",
    "fwd_s2",
    "wgrad_s2",
    "igrad_s2",
    "wgrad_s1_64",
    "igrad_s2_64",
    "unet_forward",
    "unet_train_step",
]


def _conv(lax, x, k, stride):
    return lax.conv_general_dilated(x, k, (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _conv_workload(jax, jnp, r, kind: str, stride: int, n=8, hw=32, c=32, o=64):
    """The forward 3x3 convolution, or its gradient for the kernel (given x and the
    output's cotangent) or for the input (given the kernel and the cotangent)."""
    from jax import lax

    x = r.standard_normal((n, hw, hw, c), np.float32)
    k = r.standard_normal((3, 3, c, o), np.float32) / np.float32(np.sqrt(9 * c))
    dy = r.standard_normal((n, hw // stride, hw // stride, o), np.float32)
    if kind == "fwd":
        return (lambda x, k: _conv(lax, x, k, stride)), [x, k], f"{n}x{hw}x{hw}x{c} * 3x3x{c}x{o}, stride {stride}"
    if kind == "wgrad":

        def wgrad(x, dy):
            return jax.vjp(lambda k: _conv(lax, x, k, stride), k)[1](dy)[0]

        return wgrad, [x, dy], f"dK of {n}x{hw}x{hw}x{c} * 3x3x{c}x{o}, stride {stride}"

    def igrad(k, dy):
        return jax.vjp(lambda x: _conv(lax, x, k, stride), x)[1](dy)[0]

    return igrad, [k, dy], f"dX of {n}x{hw}x{hw}x{c} * 3x3x{c}x{o}, stride {stride}"


def _group_norm(jnp, x, scale, offset, groups=8, eps=1e-5):
    n, h, w, c = x.shape
    g = x.reshape(n, h, w, groups, c // groups)
    mean = g.mean(axis=(1, 2, 4), keepdims=True)
    var = ((g - mean) ** 2).mean(axis=(1, 2, 4), keepdims=True)
    g = (g - mean) / jnp.sqrt(var + eps)
    return g.reshape(n, h, w, c) * scale + offset


def _unet(jax, jnp, n=8, hw=32, cin=3, c1=32, c2=64, c3=128):
    """A small U-Net: a stem, two stride-2 down blocks, two stride-2 transposed-conv up
    blocks with skip connections, each conv followed by group norm and SiLU; a 3x3 head."""
    from jax import lax

    def block(x, k, s, o, stride=1):
        return jax.nn.silu(_group_norm(jnp, _conv(lax, x, k, stride), s, o))

    def up(x, k, s, o):
        y = lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jax.nn.silu(_group_norm(jnp, y, s, o))

    def forward(params, x):
        (k0, s0, o0), (k1, s1, o1), (k2, s2, o2), (k3, s3, o3), (k4, s4, o4), (k5,) = params
        h0 = block(x, k0, s0, o0)  # hw, c1
        h1 = block(h0, k1, s1, o1, 2)  # hw/2, c2
        h2 = block(h1, k2, s2, o2, 2)  # hw/4, c3
        u1 = up(h2, k3, s3, o3) + h1  # hw/2, c2
        u2 = up(u1, k4, s4, o4) + h0  # hw, c1
        return _conv(lax, u2, k5, 1)

    shapes = [
        ((3, 3, cin, c1), c1),
        ((3, 3, c1, c2), c2),
        ((3, 3, c2, c3), c3),
        ((3, 3, c3, c2), c2),
        ((3, 3, c2, c1), c1),
    ]

    def make_params(r):
        params = []
        for kshape, c in shapes:
            k = r.standard_normal(kshape, np.float32) / np.float32(np.sqrt(np.prod(kshape[:3])))
            params.append((k, np.ones(c, np.float32), np.zeros(c, np.float32)))
        params.append((r.standard_normal((3, 3, c1, cin), np.float32) / np.float32(np.sqrt(9 * c1)),))
        return params

    return forward, make_params, (n, hw, hw, cin)


def _unet_workload(jax, jnp, r, train: bool):
    forward, make_params, xshape = _unet(jax, jnp)
    params = make_params(r)
    flat, tree = jax.tree_util.tree_flatten(params)
    x = r.standard_normal(xshape, np.float32)
    y = r.standard_normal(xshape, np.float32)
    if not train:

        def fwd(x, *flat):
            return forward(jax.tree_util.tree_unflatten(tree, flat), x)

        return fwd, [x, *flat], f"U-Net forward, {'x'.join(map(str, xshape))}"

    def loss(flat, x, y):
        return ((forward(jax.tree_util.tree_unflatten(tree, flat), x) - y) ** 2).mean()

    def step(x, y, *flat):
        value, grads = jax.value_and_grad(loss)(list(flat), x, y)
        return (value, *[p - 0.01 * g for p, g in zip(flat, grads, strict=True)])

    return step, [x, y, *flat], f"U-Net SGD step, {'x'.join(map(str, xshape))}"


def make(name: str, jax, jnp, r) -> tuple[Callable, list[np.ndarray], str]:
    if name.startswith("unet"):
        return _unet_workload(jax, jnp, r, train=name == "unet_train_step")
    kind, stride, *size = name.split("_")
    hw = int(size[0]) if size else 32
    return _conv_workload(jax, jnp, r, kind, int(stride[1:]), hw=hw)


def kernel_calls(llvm_ir: str) -> dict[str, int]:
    """Calls of the convolution kernel and of the GEMM in compiled LLVM IR."""
    return {
        name: len(re.findall(rf'call [^\n]*@"?{symbol}"?\(', llvm_ir))
        for name, symbol in (("sconv", "xla_opt_sconv"), ("sgemm", "xla_opt_sgemm"))
    }


def measure(name: str, jax, jnp) -> dict:
    fn, args, label = make(name, jax, jnp, np.random.default_rng(0))
    text = jax.jit(fn).lower(*args).as_text()
    convs = text.count("stablehlo.convolution")
    start = time.perf_counter()
    ours = xla_opt.compile(text, backend="jit")
    compile_s = time.perf_counter() - start
    calls = kernel_calls(ours.jit.llvm_ir)
    jf = jax.jit(fn)
    dev = [jax.device_put(a) for a in args]
    expected = [np.asarray(v) for v in jax.tree_util.tree_leaves(jf(*dev))]
    got = ours(*args)
    ok = len(got) == len(expected) and all(
        np.allclose(g, e, rtol=1e-3, atol=1e-3 * max(1.0, float(np.abs(e).max())))
        for g, e in zip(got, expected, strict=True)
    )
    timed = {"ours": lambda: ours(*args), "jax": lambda: jax.block_until_ready(jf(*dev))}
    rounds: dict[str, list[float]] = {k: [] for k in timed}
    best: dict[str, float] = dict.fromkeys(timed, float("inf"))
    for _ in range(ROUNDS):
        for k, f in timed.items():
            rounds[k].append(bench.median_time(f))
            best[k] = min(best[k], _best_of(f))
    t_ours, t_jax = (float(np.median(rounds[k])) for k in ("ours", "jax"))
    print(
        f"  {name:16s} {'ok ' if ok else 'BAD'} ours {bench._ms(t_ours):>10s}  jax {bench._ms(t_jax):>10s}  "
        f"x{t_jax / t_ours:.2f}  best x{best['jax'] / best['ours']:.2f}  convs {convs} sconv {calls['sconv']} "
        f"sgemm {calls['sgemm']}  compile {compile_s:.2f} s  ({bench._load()})",
        flush=True,
    )
    return {
        "name": name, "label": label, "ok": ok, "ours": t_ours, "jax": t_jax, "best_ours": best["ours"],
        "best_jax": best["jax"], "convs": convs, **calls, "compile": compile_s, "rounds": rounds,
    }  # fmt: skip


def _best_of(f: Callable[[], object], calls: int = 5) -> float:
    """The fastest of a few calls: on a loaded machine a call of a few milliseconds is often
    cut by the scheduler's time slices (medians of one workload measured 2.9 and 7 ms in
    one process), so the best call is the other measure of what the code costs."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def run_workloads(names: list[str]) -> list[dict]:
    jax, jnp = bench._import_jax()
    return [measure(n, jax, jnp) for n in NAMES if not names or n in names]


def _worker(threads: int, names: list[str], out_path: str) -> int:
    cpus = sorted(os.sched_getaffinity(0))
    if threads < len(cpus):
        os.sched_setaffinity(0, cpus[:threads])
    with open(out_path, "w") as f:
        json.dump(run_workloads(names), f)
    return 0


def run_threads(threads: int, names: list[str]) -> list[dict] | None:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", str(threads), out, *names]
        done = subprocess.run(cmd, env=bench._thread_env(threads), check=False)
        if done.returncode != 0 or not os.path.exists(out):
            print(f"  the {threads}-thread run failed (exit {done.returncode})")
            return None
        with open(out) as f:
            return json.load(f)


def print_table(threads: int, rows: list[dict]) -> None:
    print(f"\n### {threads} thread{'s' if threads > 1 else ''}\n")
    print(
        "| workload | what | ours | jax.jit | vs JAX | best: ours / jax.jit / vs JAX | convolutions: sconv / sgemm calls | ok |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['name']} | {r['label']} | {bench._ms(r['ours'])} | {bench._ms(r['jax'])} | "
            f"x{r['jax'] / r['ours']:.2f} | {bench._ms(r['best_ours'])} / {bench._ms(r['best_jax'])} / "
            f"x{r['best_jax'] / r['best_ours']:.2f} | {r['convs']}: {r['sconv']} / {r['sgemm']} | {'ok' if r['ok'] else 'BAD'} |"
        )


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        return _worker(int(argv[1]), argv[3:], argv[2])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"workloads (default: all of {', '.join(NAMES)})")
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated (default 1,2)")
    args = parser.parse_args(argv)
    head = subprocess.run(["git", "log", "--oneline", "-1"], capture_output=True, text=True, check=False)
    print(f"convolution gradients, commit {head.stdout.strip() or '?'}; {bench._load()}")
    results, ok = {}, True
    for n in (int(t) for t in args.threads.split(",") if t):
        print(f"\n{n} thread(s): {bench._load()}", flush=True)
        rows = run_threads(n, args.names)
        ok = ok and rows is not None and all(r["ok"] for r in rows)
        results[n] = rows or []
    for n, rows in results.items():
        print_table(n, rows)
    print(f"\nfinished: {bench._load()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
