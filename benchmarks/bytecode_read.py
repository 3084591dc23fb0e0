"""Reading a large JAX model: the bytecode reader against the text parser.

    .venv/bin/python benchmarks/bytecode_read.py [--layers 12] [--rounds 3]

JAX exports a transformer of `--layers` blocks (attention, layer norms, a GELU MLP;
unrolled, so the module grows with the layers). The same program is read three ways,
each to the StableHLO module our parser makes (`dialects/stablehlo/`):

* the portable artifact (`Exported.mlir_module_serialized`, MLIR bytecode of VHLO)
  by `xla_opt.formats.binary.read_bytecode`;
* the text JAX prints (`Exported.mlir_module()`, with its locations) by our parser;
* the same text without locations (`as_text()` of the lowering), by our parser;

then each whole, to a verified xla program (`xla_opt.load_program`: the StableHLO
import included). It prints the medians of `--rounds` rounds, in seconds, and the
sizes. Needs JAX (to make the model only).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def model(layers: int):
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    d, heads, seq = 64, 4, 16

    def norm(h, g):
        m = h.mean(-1, keepdims=True)
        v = ((h - m) ** 2).mean(-1, keepdims=True)
        return (h - m) * lax.rsqrt(v + 1e-5) * g

    def block(x, p):
        wq, wk, wv, wo, w1, w2, g1, g2 = p
        h = norm(x, g1)

        def split(t):
            return t.reshape(2, seq, heads, d // heads).transpose(0, 2, 1, 3)

        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d // heads)
        s = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, -1e9)
        o = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v).transpose(0, 2, 1, 3).reshape(2, seq, d)
        x = x + o @ wo
        return x + jax.nn.gelu(norm(x, g2) @ w1) @ w2

    def f(x, params):
        for p in params:
            x = block(x, p)
        return x

    rng = np.random.default_rng(0)

    def w(*shape):
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    params = [(w(d, d), w(d, d), w(d, d), w(d, d), w(d, 4 * d), w(4 * d, d), w(d), w(d)) for _ in range(layers)]
    x = w(2, seq, d)
    exported = jax.export.export(jax.jit(f))(x, params)
    text_without_locations = jax.jit(f).lower(x, params).as_text()
    return exported, text_without_locations


def median_time(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    import xla_opt
    from xla_opt.context import make_context
    from xla_opt.diagnostics import parse_source
    from xla_opt.formats.binary import read_bytecode

    exported, plain = model(args.layers)
    bytecode = bytes(exported.mlir_module_serialized)
    text = exported.mlir_module()
    ctx = make_context()
    module = read_bytecode(bytecode, "model.mlirbc", ctx)
    ops = sum(1 for _ in module.walk())
    print(f"transformer, {args.layers} layers: {ops} ops")
    print(
        f"  sizes: bytecode {len(bytecode) / 1024:.0f} KiB, text {len(text) / 1024:.0f} KiB, "
        f"text without locations {len(plain) / 1024:.0f} KiB"
    )

    read = {
        "bytecode": lambda: read_bytecode(bytecode, "model.mlirbc", ctx),
        "text": lambda: parse_source(ctx, text, "model.mlir"),
        "text, no locations": lambda: parse_source(ctx, plain, "model.mlir"),
    }
    load = {
        "bytecode": lambda: xla_opt.load_program(bytecode, "model.mlirbc"),
        "text": lambda: xla_opt.load_program(text, "model.mlir"),
        "text, no locations": lambda: xla_opt.load_program(plain, "model.mlir"),
    }
    for title, table in (("read (to StableHLO)", read), ("load_program (read, import, verify)", load)):
        print(f"  {title}:")
        base = None
        for name, fn in table.items():
            t = median_time(fn, args.rounds)
            base = base or t
            print(f"    {name:20s} {t:7.3f} s   x{t / base:.2f}")


if __name__ == "__main__":
    main()
