"""JIT vs NumPy (and JAX when installed), measured in one run.

    .venv/bin/python benchmarks/bench.py            # all workloads
    .venv/bin/python benchmarks/bench.py matmul_512 # some of them

For each workload: the best-of-N wall time of our JIT, NumPy and jax.jit (compiled,
inputs on device, `block_until_ready`), the ratios (> 1 means we are faster), a
correctness check against NumPy, and the compile time of each pipeline stage.

NumPy's BLAS settings: this machine may set OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE, which
slow a current numpy; to compare against its best, run with both unset:
`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/bench.py`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import xla_opt
from xla_opt.jit import JitFunction, StageTimes

F32 = "f32"


def t(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


@dataclass
class Workload:
    name: str
    program: str
    make_inputs: Callable[[np.random.Generator], list[np.ndarray]]
    numpy_fn: Callable[..., np.ndarray]
    jax_fn: Callable | None
    rtol: float = 1e-5


def _ew_chain(n=4 * 1024 * 1024) -> Workload:
    ty = t([n])
    prog = f"""
func.func @main(%a: {ty}, %b: {ty}, %c: {ty}) -> {ty} {{
  %half = xla.constant dense<0.5> : tensor<f32>
  %0 = xla.multiply %a, %b : {ty}
  %1 = xla.add %0, %c : {ty}
  %2 = xla.tanh %1 : {ty}
  %3 = xla.multiply %2, %half : ({ty}, tensor<f32>) -> {ty}
  %4 = xla.add %3, %a : {ty}
  func.return %4 : {ty}
}}"""
    return Workload(
        "ew_chain",
        prog,
        lambda r: [r.standard_normal(n, np.float32) for _ in range(3)],
        lambda a, b, c: np.tanh(a * b + c) * np.float32(0.5) + a,
        lambda jnp: (lambda a, b, c: jnp.tanh(a * b + c) * 0.5 + a),
    )


def _bcast_add(n=2048) -> Workload:
    prog = f"""
func.func @main(%a: {t([n, n])}, %v: {t([n])}) -> {t([n, n])} {{
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : ({t([n, n])}, {t([n])}) -> {t([n, n])}
  func.return %0 : {t([n, n])}
}}"""
    return Workload(
        "bcast_add",
        prog,
        lambda r: [r.standard_normal((n, n), np.float32), r.standard_normal(n, np.float32)],
        lambda a, v: a + v,
        lambda jnp: (lambda a, v: a + v),
    )


def _reduce_sum(m=4096, n=1024) -> Workload:
    prog = f"""
func.func @main(%a: {t([m, n])}) -> {t([m])} {{
  %z = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.reduce (%a), (%z), dimensions = [1] body {{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }} : ({t([m, n])}, tensor<f32>) -> {t([m])}
  func.return %0 : {t([m])}
}}"""
    return Workload(
        "reduce_sum",
        prog,
        lambda r: [r.standard_normal((m, n), np.float32)],
        lambda a: a.sum(axis=1),
        lambda jnp: (lambda a: a.sum(axis=1)),
        rtol=1e-4,
    )


def _softmax(n=1024) -> Workload:
    m2, m1 = t([n, n]), t([n])
    prog = f"""
func.func @main(%x: {m2}) -> {m2} {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %max = xla.reduce (%x), (%ninf), dimensions = [1] body {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }} : ({m2}, tensor<f32>) -> {m1}
  %s = xla.subtract %x, %max, broadcast_dimensions = [0] : ({m2}, {m1}) -> {m2}
  %e = xla.exponential %s : {m2}
  %sum = xla.reduce (%e), (%zero), dimensions = [1] body {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = xla.add %a, %b : tensor<f32>
    xla.return %t : tensor<f32>
  }} : ({m2}, tensor<f32>) -> {m1}
  %y = xla.divide %e, %sum, broadcast_dimensions = [0] : ({m2}, {m1}) -> {m2}
  func.return %y : {m2}
}}"""

    def np_softmax(x):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def jax_softmax(jnp):
        def f(x):
            e = jnp.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

        return f

    return Workload("softmax", prog, lambda r: [r.standard_normal((n, n), np.float32)], np_softmax, jax_softmax, 1e-4)


def _matmul(n: int) -> Workload:
    prog = f"""
func.func @main(%a: {t([n, n])}, %b: {t([n, n])}) -> {t([n, n])} {{
  %0 = xla.dot %a, %b : ({t([n, n])}, {t([n, n])}) -> {t([n, n])}
  func.return %0 : {t([n, n])}
}}"""
    return Workload(
        f"matmul_{n}",
        prog,
        lambda r: [r.standard_normal((n, n), np.float32) for _ in range(2)],
        lambda a, b: a @ b,
        lambda jnp: (lambda a, b: a @ b),
        rtol=1e-3,
    )


def _mlp(b=256, d=1024, h=1024, o=256) -> Workload:
    prog = f"""
func.func @main(%x: {t([b, d])}, %w1: {t([d, h])}, %b1: {t([h])}, %w2: {t([h, o])}, %b2: {t([o])}) -> {t([b, o])} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.dot %x, %w1 : ({t([b, d])}, {t([d, h])}) -> {t([b, h])}
  %1 = xla.add %0, %b1, broadcast_dimensions = [1] : ({t([b, h])}, {t([h])}) -> {t([b, h])}
  %2 = xla.maximum %1, %zero : ({t([b, h])}, tensor<f32>) -> {t([b, h])}
  %3 = xla.dot %2, %w2 : ({t([b, h])}, {t([h, o])}) -> {t([b, o])}
  %4 = xla.add %3, %b2, broadcast_dimensions = [1] : ({t([b, o])}, {t([o])}) -> {t([b, o])}
  func.return %4 : {t([b, o])}
}}"""
    return Workload(
        "mlp",
        prog,
        lambda r: [
            r.standard_normal((b, d), np.float32),
            r.standard_normal((d, h), np.float32) / 32,
            r.standard_normal(h, np.float32),
            r.standard_normal((h, o), np.float32) / 32,
            r.standard_normal(o, np.float32),
        ],
        lambda x, w1, b1, w2, b2: np.maximum(x @ w1 + b1, 0) @ w2 + b2,
        lambda jnp: (lambda x, w1, b1, w2, b2: jnp.maximum(x @ w1 + b1, 0) @ w2 + b2),
        rtol=1e-3,
    )


WORKLOADS = [_ew_chain, _bcast_add, _reduce_sum, _softmax, lambda: _matmul(512), lambda: _matmul(1024), _mlp]


def best_time(fn: Callable[[], object], repeats: int = 7, min_time: float = 0.2) -> float:
    fn()  # warm up
    best = float("inf")
    start_all = time.perf_counter()
    for i in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
        if i >= 2 and time.perf_counter() - start_all > min_time * repeats:
            break
    return best


def main(argv: list[str]) -> int:
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_platforms", "cpu")
    except ImportError:
        jax = jnp = None
    rng = np.random.default_rng(0)
    rows = []
    for make in WORKLOADS:
        w = make()
        if argv and w.name not in argv:
            continue
        inputs = w.make_inputs(rng)
        times = StageTimes()
        module = xla_opt.load_program(w.program, name=w.name)
        start = time.perf_counter()
        f = JitFunction(module, "main", times)
        compile_s = time.perf_counter() - start
        (ours,) = f(*inputs)
        expected = w.numpy_fn(*inputs)
        ok = np.allclose(ours, expected, rtol=w.rtol, atol=w.rtol)
        t_ours = best_time(lambda: f(*inputs))
        t_np = best_time(lambda: w.numpy_fn(*inputs))
        t_jax = None
        if jax is not None and w.jax_fn is not None:
            jf = jax.jit(w.jax_fn(jnp))
            dev = [jax.device_put(a) for a in inputs]
            t_jax = best_time(lambda: jf(*dev).block_until_ready())
        rows.append((w.name, ok, t_ours, t_np, t_jax, compile_s, times))
        jax_text = f"jax {t_jax * 1e3:8.2f} ms  ours/jax x{t_jax / t_ours:5.2f}" if t_jax else "jax -"
        print(
            f"{w.name:11s} {'ok ' if ok else 'BAD'}  ours {t_ours * 1e3:8.2f} ms  numpy {t_np * 1e3:8.2f} ms  "
            f"vs numpy x{t_np / t_ours:5.2f}  {jax_text}  compile {compile_s:.2f} s",
            flush=True,
        )
    print("\ncompile time per stage (s):")
    stages = list(rows[0][6].stages) if rows else []
    print(f"{'':11s} " + " ".join(f"{s[:14]:>14s}" for s in stages))
    for name, *_rest, times in rows:
        print(f"{name:11s} " + " ".join(f"{times.stages.get(s, 0):14.3f}" for s in stages))
    return 0 if all(r[1] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
