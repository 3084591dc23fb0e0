"""Whole programs exported from JAX, against jax.jit: run time and compile time (issue 32, item 5).

    .venv/bin/python benchmarks/models.py                             # everything, 1 and 2 threads
    .venv/bin/python benchmarks/models.py transformer_block moe_layer --threads 1 --rounds 3
    .venv/bin/python benchmarks/models.py --threads 2 --json models.json
    .venv/bin/python benchmarks/models.py --quick resnet_block mlp_train_step --threads 1

Every program is written in JAX here and exported by JAX (`jax.jit(f).lower(*args).as_text()`,
StableHLO exactly as JAX writes it), then compiled by us from that text
(`xla_opt.compile(text, backend="jit")`): a pre-norm transformer block (causal attention,
GELU MLP, layer norms), a ResNet block (3x3 convolutions, NHWC, normalized by batch
statistics, relu, residual), an MLP training step and a U-Net training step
(conv_gradients.py's U-Net; `value_and_grad`, then SGD), a mixture-of-experts layer
(`lax.top_k` gating, dispatch and combine by one-hot einsums into per-expert buffers of
fixed capacity), an LSTM (`lax.scan`) with its gradient, a sort workload on 1M f32
(`jnp.sort`, `jnp.argsort`, `lax.top_k`) and an FFT filter (rfft, multiply, irfft). Their
sizes make a jax.jit call take 1-50 ms on one thread, but sort_topk's: 1M f32 as in
bench.py, where XLA's CPU sorts take most of a second.

Per program and thread count:

* Run time: the median wall time of our JIT and of jax.jit (compiled, inputs on device,
  `block_until_ready`) in ROUNDS alternating rounds (bench.py's `median_time`: each
  side's figure is the median of its round medians); the ratio (> 1: we are faster). Our
  results are checked against JAX's (`allclose` with each program's tolerance, relative
  to the largest magnitude of the result; integer results exactly): the table says
  MISMATCH, or FAILED with our error, loudly.
* Compile time, in process (warm: the process has compiled the program once already):
  ours is `xla_opt.compile(text, backend="jit")` with our caches cleared and the disk
  cache off between repeats (as bench.py), XLA's `jax.jit(f).lower(*args).compile()` with
  `jax.clear_caches()` between repeats (it includes JAX's tracing and lowering, ours
  parsing the text); the median of REPEATS.
* Compile time in a fresh process, for each side, from the StableHLO text in a file:
  (a) from the start of `import xla_opt` / `import jax` to a compiled callable, and (b)
  the compile alone, from after the import statement (our import is lazy: (b) includes
  loading the compiler; JAX's includes creating its CPU client, parsing the text and
  XLA's `compile_and_load`, called directly: JAX's persistent cache is not involved).
  Ours twice: with the on-disk object cache empty (a new XLA_OPT_CACHE_DIR: a first run
  ever, the micro-kernel libraries compiled too) and warm (the same directory again: a
  user's second run); the median of COLD_REPEATS runs of each. Our package's byte code
  is written first (`cache_bytecode`), as an installed package's is.

Each thread count runs in a fresh process pinned to that many CPUs (bench.py's
environment: XLA_OPT_NUM_THREADS, and for one thread XLA's Eigen pool off); the
fresh-process compiles inherit it. The machine is shared: the load average is printed.
`--quick` is a smoke mode: tiny sizes, 1 round, 1 repeat (its figures mean nothing).
`--json PATH` saves the raw numbers. The exit status is 1 when a program fails or
mismatches.
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
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402 - benchmarks/ is not a package

ROUNDS = 5  # alternating rounds of the run time
REPEATS = 5  # in-process compiles of each side
COLD_REPEATS = 3  # fresh processes of each kind


@dataclass
class Program:
    name: str
    # (jax, jnp, rng, quick) -> (function, arguments, label)
    build: Callable[..., tuple[Callable, list[np.ndarray], str]]
    rtol: float  # relative to the largest magnitude of each result (at least 1)


def _weights(r, shapes) -> list[np.ndarray]:
    """Standard normal f32, matrices divided by the square root of their fan-in."""
    return [r.standard_normal(s, np.float32) / np.float32(np.sqrt(s[0]) if len(s) > 1 else 1) for s in shapes]


def _layer_norm(jnp, x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * g + b


def _transformer_block(jax, jnp, r, quick):
    """Pre-norm causal self-attention and a GELU MLP, residual connections, batched."""
    b, seq, d, heads, ff = (2, 16, 32, 2, 64) if quick else (4, 128, 256, 4, 1024)
    hd = d // heads

    def block(x, wqkv, wo, w1, w2, g1, b1, g2, b2):
        h = _layer_norm(jnp, x, g1, b1)
        q, k, v = jnp.split(h @ wqkv, 3, axis=-1)
        split = lambda t: t.reshape(b, seq, heads, hd).transpose(0, 2, 1, 3)
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd))
        causal = jnp.tril(jnp.ones((seq, seq), bool))
        att = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
        x = x + (att @ v).transpose(0, 2, 1, 3).reshape(b, seq, d) @ wo
        return x + jax.nn.gelu(_layer_norm(jnp, x, g2, b2) @ w1) @ w2

    x = r.standard_normal((b, seq, d), np.float32)
    weights = _weights(r, [(d, 3 * d), (d, d), (d, ff), (ff, d)])
    norms = [np.ones(d, np.float32), np.zeros(d, np.float32)] * 2
    return block, [x, *weights, *norms], f"{b}x{seq}x{d}, {heads} heads, MLP {ff}"


def _resnet_block(jax, jnp, r, quick):
    """conv3x3 -> batch norm (batch statistics) -> relu -> conv3x3 -> batch norm, plus the
    input, relu; NHWC / HWIO."""
    from jax import lax

    n, hw, c = (2, 8, 8) if quick else (8, 32, 64)

    def conv(x, k):
        return lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def batch_norm(x, scale, offset, eps=1e-5):
        mean = x.mean(axis=(0, 1, 2))
        var = ((x - mean) ** 2).mean(axis=(0, 1, 2))
        return (x - mean) * lax.rsqrt(var + eps) * scale + offset

    def block(x, k1, s1, o1, k2, s2, o2):
        h = jax.nn.relu(batch_norm(conv(x, k1), s1, o1))
        return jax.nn.relu(batch_norm(conv(h, k2), s2, o2) + x)

    x = r.standard_normal((n, hw, hw, c), np.float32)
    k1, k2 = (r.standard_normal((3, 3, c, c), np.float32) / np.float32(np.sqrt(9 * c)) for _ in range(2))
    s1, o1, s2, o2 = (np.full(c, v, np.float32) for v in (1, 0, 1, 0))
    return block, [x, k1, s1, o1, k2, s2, o2], f"{n}x{hw}x{hw}x{c}, two 3x3 convs"


def _mlp_train_step(jax, jnp, r, quick):
    """One SGD step of a 3-layer MLP on a squared error: value_and_grad, then the update."""
    b, d, h, o = (8, 16, 32, 4) if quick else (256, 256, 512, 10)

    def loss(params, x, y):
        w1, b1, w2, b2, w3, b3 = params
        z = jax.nn.relu(x @ w1 + b1)
        z = jax.nn.relu(z @ w2 + b2)
        return ((z @ w3 + b3 - y) ** 2).mean()

    def step(x, y, *params):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        return (value, *[p - 0.01 * g for p, g in zip(params, grads, strict=True)])

    x, y = r.standard_normal((b, d), np.float32), r.standard_normal((b, o), np.float32)
    return step, [x, y, *_weights(r, [(d, h), (h,), (h, h), (h,), (h, o), (o,)])], f"{b}x{d} -> {h} -> {h} -> {o}"


def _unet_train_step(jax, jnp, r, quick):
    """conv_gradients.py's U-Net (group norm, SiLU, strided and transposed convolutions,
    skips): value_and_grad of a squared error, then SGD."""
    import conv_gradients

    sizes = {"n": 1, "hw": 8, "c1": 8, "c2": 16, "c3": 16} if quick else {"n": 2}
    forward, make_params, xshape = conv_gradients._unet(jax, jnp, **sizes)
    flat, tree = jax.tree_util.tree_flatten(make_params(r))
    x, y = (r.standard_normal(xshape, np.float32) for _ in range(2))

    def loss(flat, x, y):
        return ((forward(jax.tree_util.tree_unflatten(tree, flat), x) - y) ** 2).mean()

    def step(x, y, *flat):
        value, grads = jax.value_and_grad(loss)(list(flat), x, y)
        return (value, *[p - 0.01 * g for p, g in zip(flat, grads, strict=True)])

    return step, [x, y, *flat], f"{'x'.join(map(str, xshape))}, {len(flat)} parameters"


def _moe_layer(jax, jnp, r, quick):
    """Top-2 gating (`lax.top_k` of the softmax), each (token, choice) given a slot in its
    expert's buffer of fixed capacity (choice-major priority, overflow dropped), dispatch
    and combine as one-hot einsums, a GELU MLP per expert."""
    from jax import lax

    t, d, h, e, k = (16, 8, 16, 4, 2) if quick else (512, 256, 512, 8, 2)
    capacity = int(1.25 * t * k / e)

    def moe(x, wg, w1, w2):
        gates, idx = lax.top_k(jax.nn.softmax(x @ wg, axis=-1), k)  # [t, k]
        gates = gates / gates.sum(-1, keepdims=True)
        mask = jax.nn.one_hot(idx, e, dtype=x.dtype)  # [t, k, e]
        flat = mask.transpose(1, 0, 2).reshape(k * t, e)  # choice-major
        pos = ((jnp.cumsum(flat, axis=0) - 1) * flat).reshape(k, t, e).transpose(1, 0, 2).sum(-1)  # [t, k]
        slot = jax.nn.one_hot(pos, capacity, dtype=x.dtype) * (pos < capacity)[..., None]  # [t, k, c]
        dispatch = jnp.einsum("tke,tkc->tec", mask, slot)
        combine = jnp.einsum("tke,tkc,tk->tec", mask, slot, gates)
        xin = jnp.einsum("tec,td->ecd", dispatch, x)
        hid = jax.nn.gelu(jnp.einsum("ecd,edh->ech", xin, w1))
        return jnp.einsum("tec,ecd->td", combine, jnp.einsum("ech,ehd->ecd", hid, w2))

    x = r.standard_normal((t, d), np.float32)
    wg = r.standard_normal((d, e), np.float32) / np.float32(np.sqrt(d))
    w1 = r.standard_normal((e, d, h), np.float32) / np.float32(np.sqrt(d))
    w2 = r.standard_normal((e, h, d), np.float32) / np.float32(np.sqrt(h))
    return moe, [x, wg, w1, w2], f"{t} tokens x {d}, {e} experts of {h}, top-{k}, capacity {capacity}"


def _lstm_train_step(jax, jnp, r, quick):
    """An LSTM over a sequence (`lax.scan`), a linear read-out of every step, a squared
    error: its value and gradients for all the weights (`value_and_grad`)."""
    from jax import lax

    steps, b, i, h = (4, 2, 4, 8) if quick else (32, 16, 32, 128)

    def loss(params, xs, ys):
        wx, wh, bias, wo = params

        def cell(carry, x):
            hid, c = carry
            gi, gf, gg, go = jnp.split(x @ wx + hid @ wh + bias, 4, axis=-1)
            c = jax.nn.sigmoid(gf) * c + jax.nn.sigmoid(gi) * jnp.tanh(gg)
            hid = jax.nn.sigmoid(go) * jnp.tanh(c)
            return (hid, c), hid

        zeros = jnp.zeros((xs.shape[1], wh.shape[0]), xs.dtype)
        _, hs = lax.scan(cell, (zeros, zeros), xs)
        return ((hs @ wo - ys) ** 2).mean()

    def step(xs, ys, *params):
        value, grads = jax.value_and_grad(loss)(params, xs, ys)
        return (value, *grads)

    xs = r.standard_normal((steps, b, i), np.float32)
    ys = r.standard_normal((steps, b, 1), np.float32)
    params = _weights(r, [(i, 4 * h), (h, 4 * h), (4 * h,), (h, 1)])
    return step, [xs, ys, *params], f"{steps} steps, batch {b}, {i} -> {h}"


def _sort_topk(jax, jnp, r, quick):
    n = 4096 if quick else 1 << 20

    def sorts(x):
        return (jnp.sort(x), jnp.argsort(x), *jax.lax.top_k(x, 16))

    return sorts, [r.standard_normal(n, np.float32)], f"jnp.sort, jnp.argsort, lax.top_k(16) of {n} f32"


def _fft_filter(jax, jnp, r, quick):
    """rfft of each row, times a complex frequency response, irfft."""
    b, n = (2, 64) if quick else (64, 8192)

    def fft_filter(x, h_re, h_im):
        return jnp.fft.irfft(jnp.fft.rfft(x, axis=-1) * (h_re + 1j * h_im), n=n, axis=-1)

    x = r.standard_normal((b, n), np.float32)
    h_re, h_im = (r.standard_normal(n // 2 + 1, np.float32) for _ in range(2))
    return fft_filter, [x, h_re, h_im], f"{b} rows of {n} f32"


PROGRAMS = [
    Program("transformer_block", _transformer_block, 1e-4),
    Program("resnet_block", _resnet_block, 1e-4),
    Program("mlp_train_step", _mlp_train_step, 1e-4),
    Program("unet_train_step", _unet_train_step, 1e-3),
    Program("moe_layer", _moe_layer, 1e-4),
    Program("lstm_train_step", _lstm_train_step, 1e-4),
    Program("sort_topk", _sort_topk, 0.0),
    Program("fft_filter", _fft_filter, 1e-4),
]
NAMES = [p.name for p in PROGRAMS]


def compare(got, expected: list[np.ndarray], rtol: float) -> str | None:
    """None when our results are JAX's (floats within `rtol` of the result's largest
    magnitude, at least 1; integers exactly), else what differs."""
    got = [np.asarray(g) for g in got]
    if len(got) != len(expected):
        return f"{len(got)} results, JAX has {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if g.shape != e.shape or g.dtype != e.dtype:
            return f"result {i} is {g.dtype}{list(g.shape)}, JAX's {e.dtype}{list(e.shape)}"
        if not np.issubdtype(e.dtype, np.inexact):
            if not np.array_equal(g, e):
                return f"result {i}: {int(np.sum(g != e))} of {e.size} elements differ"
            continue
        scale = max(1.0, float(np.max(np.abs(e), initial=0.0)))
        if not np.allclose(g, e, rtol=rtol, atol=rtol * scale, equal_nan=True):
            err = float(np.nanmax(np.abs(g.astype(np.float64) - e)))
            return f"result {i}: max error {err:.3g} (scale {scale:.3g}, tolerance {rtol:g})"
    return None


def _error(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:200] if text else ''}"


# --------------------------------------------------------------------------------------
# Compiles in a fresh process: the scripts start with nothing imported but the standard
# library's json, sys and time, and print their times as JSON.
# --------------------------------------------------------------------------------------

OURS_FRESH = """
import json, sys, time
text = open(sys.argv[1]).read()
start = time.perf_counter()
import xla_opt
imported = time.perf_counter()
xla_opt.compile(text, backend="jit")
done = time.perf_counter()
print(json.dumps({"total": done - start, "compile": done - imported}))
"""

XLA_FRESH = """
import json, sys, time
text = open(sys.argv[1]).read()
start = time.perf_counter()
import jax
imported = time.perf_counter()
from jax._src import compiler, xla_bridge
from jax._src.interpreters import mlir
from jax._src.lib import xla_client
from jax._src.lib.mlir import ir
backend = xla_bridge.get_backend("cpu")
client = time.perf_counter()
options = compiler.get_compile_options(1, 1, backend=backend)
with mlir.make_ir_context():
    module = ir.Module.parse(text)
    compiler.backend_compile_and_load(backend, module, xla_client.DeviceList(tuple(backend.local_devices()[:1])), options, [])
done = time.perf_counter()
print(json.dumps({"total": done - start, "compile": done - imported, "client": client - imported}))
"""


def fresh_process(script: str, path: str, env: dict[str, str]) -> dict:
    """The times a fresh process running `script` on the program in `path` prints, or
    {"error": ...}."""
    done = subprocess.run(
        [sys.executable, "-c", script, path], env=env, capture_output=True, text=True, check=False, timeout=900
    )
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return {"error": f"exit {done.returncode}: {lines[-1][:200] if lines else ''}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cache_bytecode() -> None:
    """Write the byte code of our package's sources (the issue times fresh processes "byte
    code cached, as a user's Python has it"): where PYTHONDONTWRITEBYTECODE is set (our
    machines) or the sources changed since their .pyc files were written, every fresh
    process would compile the stale modules again (~30 ms after an edit of a few). pip
    wrote JAX's, xDSL's and NumPy's when it installed them."""
    import compileall

    import xla_opt
    import xla_opt.dialects
    import xla_opt.lowering
    import xla_opt.passes

    for package in (xla_opt, xla_opt.dialects, xla_opt.lowering, xla_opt.passes):
        for directory in package.__path__:
            compileall.compile_dir(directory, quiet=1)


def fresh_compiles(path: str, repeats: int, tmp: str) -> dict[str, list[dict]]:
    """Ours with an empty disk cache, then ours again with the cache that run left (a
    user's second run), then XLA's; `repeats` times; the byte code cached first."""
    cache_bytecode()
    env = {k: v for k, v in os.environ.items() if k != "XLA_OPT_CACHE"}
    env["JAX_PLATFORMS"] = "cpu"
    runs: dict[str, list[dict]] = {"ours_empty": [], "ours_warm": [], "xla": []}
    for _ in range(repeats):
        cache = tempfile.mkdtemp(prefix="disk-cache-", dir=tmp)
        env["XLA_OPT_CACHE_DIR"] = cache
        runs["ours_empty"].append(fresh_process(OURS_FRESH, path, env))
        runs["ours_warm"].append(fresh_process(OURS_FRESH, path, env))
        runs["xla"].append(fresh_process(XLA_FRESH, path, env))
    return runs


def _median(runs: list[dict], key: str) -> float | None:
    values = [r[key] for r in runs if key in r]
    return float(np.median(values)) if values and len(values) == len(runs) else None


# --------------------------------------------------------------------------------------
# One program in the worker process
# --------------------------------------------------------------------------------------


def measure(p: Program, jax, jnp, tmp: str, rounds: int, repeats: int, cold_repeats: int, quick: bool) -> dict:
    import xla_opt
    from xla_opt.runtime.program import clear_cache

    fn, args, label = p.build(jax, jnp, np.random.default_rng(0), quick)
    text = jax.jit(fn).lower(*args).as_text()
    path = os.path.join(tmp, f"{p.name}.mlir")
    with open(path, "w") as f:
        f.write(text)
    row: dict = {"name": p.name, "label": label, "ops": len(re.findall(r"= (?:stablehlo|chlo)\.", text))}
    row.update(ok=False, error=None, mismatch=None, ours=None, compile_ours=None)
    jf = jax.jit(fn)
    dev = [jax.device_put(a) for a in args]
    expected = [np.asarray(v) for v in jax.tree_util.tree_leaves(jf(*dev))]
    timed = {"jax": lambda: jax.block_until_ready(jf(*dev))}
    try:
        ours = xla_opt.compile(text, backend="jit")
        row["mismatch"] = compare(ours(*args), expected, p.rtol)
        row["ok"] = row["mismatch"] is None
        timed = {"ours": lambda: ours(*args), **timed}
    except Exception as e:  # noqa: BLE001 - reported in the table, the run goes on
        row["error"] = _error(e)
    row["rounds"] = {k: [] for k in timed}
    for _ in range(rounds):
        for k, f in timed.items():
            row["rounds"][k].append(bench.median_time(f, 3 if quick else 9))
    for k in timed:
        row[k] = float(np.median(row["rounds"][k]))

    # in process: both sides have compiled this program once already
    def xla_compile():
        jax.clear_caches()
        return jax.jit(fn).lower(*args).compile()

    def ours_compile():
        clear_cache()
        return xla_opt.compile(text, backend="jit")

    compiles: dict[str, Callable[[], object]] = {"xla": xla_compile}
    if row["error"] is None:
        compiles["ours"] = ours_compile
    os.environ["XLA_OPT_CACHE"] = "0"
    try:
        for k, f in compiles.items():
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                f()
                samples.append(time.perf_counter() - start)
            row[f"compile_{k}_samples"] = samples
            row[f"compile_{k}"] = float(np.median(samples))
    finally:
        del os.environ["XLA_OPT_CACHE"]
    row["fresh"] = fresh_compiles(path, cold_repeats, tmp)
    for kind, runs in row["fresh"].items():
        for key in ("total", "compile"):
            row[f"fresh_{kind}_{key}"] = _median(runs, key)
    state = "ok " if row["ok"] else ("FAILED" if row["error"] else "MISMATCH")
    print(
        f"  {p.name:18s} {state} ours {bench._ms(row['ours']):>10s}  jax {bench._ms(row['jax']):>10s}  "
        f"compile ours {_s(row['compile_ours'])} xla {_s(row['compile_xla'])}  ({bench._load()})",
        flush=True,
    )
    return row


def _worker(threads: int, out_path: str, names: list[str], rounds: int, quick: bool) -> int:
    cpus = sorted(os.sched_getaffinity(0))
    if threads < len(cpus):
        os.sched_setaffinity(0, cpus[:threads])
    if quick:
        bench.WARM_UP_SECONDS = 0.0  # median_time still calls once before timing
    repeats, cold_repeats = (1, 1) if quick else (REPEATS, COLD_REPEATS)
    jax, jnp = bench._import_jax()
    rows = []
    with tempfile.TemporaryDirectory(prefix="models-") as tmp:
        for p in PROGRAMS:
            if not names or p.name in names:
                rows.append(measure(p, jax, jnp, tmp, rounds, repeats, cold_repeats, quick))
    with open(out_path, "w") as f:
        json.dump(rows, f)
    return 0


def run_threads(threads: int, names: list[str], rounds: int, quick: bool) -> list[dict] | None:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", str(threads), out, "--rounds", str(rounds)]
        cmd += ["--quick"] * quick + names
        done = subprocess.run(cmd, env=bench._thread_env(threads), check=False)
        if done.returncode != 0 or not os.path.exists(out):
            print(f"  the {threads}-thread run failed (exit {done.returncode})")
            return None
        with open(out) as f:
            return json.load(f)


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


def _s(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.2f} s" if seconds >= 0.995 else f"{seconds * 1e3:.0f} ms"


def _versus(ours: float | None, xla: float | None) -> str:
    """Compile time: how many times XLA's ours takes."""
    return "" if ours is None or xla is None else f" (x{ours / xla:.1f})"


def result(row: dict) -> str:
    if row["error"]:
        return f"**FAILED**: {row['error']}"
    if row["mismatch"]:
        return f"**MISMATCH**: {row['mismatch']}"
    return "ok"


def print_table(threads: int, rows: list[dict]) -> None:
    print(f"\n### {threads} thread{'s' if threads > 1 else ''}\n")
    print(
        "| program | what | ops | ours | jax.jit | vs JAX | compile in process: ours / XLA | "
        "fresh process, import to callable: ours, disk cache warm / empty / XLA | "
        "fresh process, compile alone: ours, disk cache warm / empty / XLA | result |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "-" if r["ours"] is None else f"x{r['jax'] / r['ours']:.2f}"
        fresh = [
            " / ".join(_s(r[f"fresh_{kind}_{key}"]) for kind in ("ours_warm", "ours_empty", "xla"))
            + _versus(r[f"fresh_ours_warm_{key}"], r[f"fresh_xla_{key}"])
            for key in ("total", "compile")
        ]
        print(
            f"| {r['name']} | {r['label']} | {r['ops']} | {bench._ms(r['ours'])} | {bench._ms(r['jax'])} | {ratio} | "
            f"{_s(r['compile_ours'])} / {_s(r['compile_xla'])}{_versus(r['compile_ours'], r['compile_xla'])} | "
            f"{fresh[0]} | {fresh[1]} | {result(r)} |"
        )
    print(
        "\nvs JAX > 1: we are faster. Compile columns: (xN) is ours over XLA's (with the disk cache warm in the "
        "fresh-process columns); the disk cache is our on-disk object cache (XLA_OPT_CACHE_DIR), empty for a "
        "first run ever, warm for a second run."
    )
    for r in rows:
        for kind, runs in r["fresh"].items():
            if errors := [x["error"] for x in runs if "error" in x]:
                print(f"{r['name']}: fresh process ({kind}) failed: {errors[0]}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"programs (default: all of {', '.join(NAMES)})")
    parser.add_argument(
        "--rounds", type=int, default=None, help=f"alternating rounds of the run time (default {ROUNDS})"
    )
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated (default 1,2)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: tiny sizes, 1 round, 1 repeat")
    parser.add_argument("--json", metavar="PATH", help="save the raw numbers")
    parser.add_argument("--worker", nargs=2, metavar=("THREADS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if unknown := [n for n in args.names if n not in NAMES]:
        parser.error(f"unknown program {', '.join(unknown)}; the programs: {', '.join(NAMES)}")
    rounds = args.rounds or (1 if args.quick else ROUNDS)
    if args.worker:
        return _worker(int(args.worker[0]), args.worker[1], args.names, rounds, args.quick)
    head = subprocess.run(["git", "log", "--oneline", "-1"], capture_output=True, text=True, check=False)
    commit = head.stdout.strip() or "?"
    print(f"whole programs from JAX{' (--quick: tiny sizes)' if args.quick else ''}, commit {commit}; {bench._load()}")
    results: dict[int, list[dict]] = {}
    ok = True
    for n in (int(t) for t in args.threads.split(",") if t):
        print(f"\n{n} thread(s): {bench._load()}", flush=True)
        rows = run_threads(n, args.names, rounds, args.quick)
        ok = ok and rows is not None and all(r["ok"] for r in rows)
        results[n] = rows or []
    for n, rows in results.items():
        print_table(n, rows)
    if failing := sorted({r["name"] for rows in results.values() for r in rows if not r["ok"]}):
        print(f"\nNOT MATCHING JAX: {', '.join(failing)}")
    print(f"\nfinished: {bench._load()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"commit": commit, "quick": args.quick, "rounds": rounds, "threads": results}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
