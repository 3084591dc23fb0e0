"""Export the corpus of sharded JAX programs (issue 30) into `tests/sharding/programs/`.

    .venv/bin/python -m tests.sharding.export                       # every program
    .venv/bin/python -m tests.sharding.export --only shard_map_psum --out /tmp/corpus

JAX runs on 4 host CPU devices (`--xla_force_host_platform_device_count=4`, set here,
before JAX is imported). Each program below is a function with its inputs and its
shardings for a device count `n` (2 and 4); `jax.jit(f, in_shardings=...,
out_shardings=...)` lowers it on a mesh of `n` of those devices and writes, per program
and device count:

* `<name>_<n>dev.mlir`: the Shardy export (`lowered.as_text()`, JAX's default);
* `<name>_<n>dev.gspmd.mlir`, for the programs marked GSPMD: the same program lowered
  with `jax_use_shardy_partitioner` off (`mhlo.sharding` strings, `Sharding` custom calls);
* `<name>_<n>dev.npz`: the global inputs `in0`, `in1`, ... (seeded from the name and
  `n`) and JAX's global results `out0`, ... of the compiled program on the host devices
  (the results' leaves in `jax.tree_util` order);

and `index.json`, what `tests/sharding/corpus.py` reads: each case's description,
mesh, shardings, files, and the JAX version that made it. With the default output
folder it also rewrites the program table of `tests/sharding/README.md`.

The table of programs (name: description) is `PROGRAMS`, in the order they are defined
below; README.md shows it with the meshes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if "jax" in sys.modules:
    raise SystemExit("tests/sharding/export.py must set XLA_FLAGS before JAX is imported: run it as a script")
os.environ["XLA_FLAGS"] = " ".join(
    [f for f in os.environ.get("XLA_FLAGS", "").split() if "host_platform_device_count" not in f]
    + ["--xla_force_host_platform_device_count=4"]
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import jaxlib
import numpy as np
from jax import lax
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "programs"
README = HERE / "README.md"
DEVICES = (2, 4)


# --------------------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------------------


@dataclass
class Spec:
    """One program at one device count: what `jax.jit` needs."""

    fn: Callable
    mesh: tuple[tuple[str, int], ...]  # ((axis, size), ...) over the first n devices
    in_specs: tuple[P, ...]
    out_specs: Any  # a pytree of PartitionSpecs, as the results
    args: list[np.ndarray]


@dataclass
class Program:
    name: str
    description: str
    build: Callable[[int, np.random.Generator], Spec]
    gspmd: bool = False
    integer: bool = False
    devices: tuple[int, ...] = DEVICES


PROGRAMS: dict[str, Program] = {}


def program(description: str, *, gspmd: bool = False, integer: bool = False):
    def register(build):
        PROGRAMS[build.__name__] = Program(build.__name__, " ".join(description.split()), build, gspmd, integer)
        return build

    return register


_MESHES: dict[tuple, jax.sharding.Mesh] = {}


def make_mesh(axes: tuple[tuple[str, int], ...]) -> jax.sharding.Mesh:
    if axes not in _MESHES:
        shape, names = tuple(s for _, s in axes), tuple(a for a, _ in axes)
        n = int(np.prod(shape))
        _MESHES[axes] = jax.make_mesh(shape, names, axis_types=(AxisType.Auto,) * len(axes), devices=jax.devices()[:n])
    return _MESHES[axes]


def f32(r: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (scale * r.standard_normal(shape)).astype(np.float32)


def i32(r: np.random.Generator, *shape: int, lo: int = -50, hi: int = 50) -> np.ndarray:
    return r.integers(lo, hi, shape).astype(np.int32)


def wsc(x, mesh_axes, spec: P):
    return lax.with_sharding_constraint(x, NamedSharding(make_mesh(mesh_axes), spec))


# --------------------------------------------------------------------------------------
# The programs
# --------------------------------------------------------------------------------------


def _mlp_loss(w1, b1, w2, b2, x, y):
    h = jnp.tanh(x @ w1 + b1)
    return jnp.mean((h @ w2 + b2 - y) ** 2)


@program(
    """Data-parallel SGD step of a 2-layer tanh MLP on a squared-error loss: the batch
    (8) sharded over all devices ("data"=n), weights replicated; the gradients' batch
    mean is the all-reduce. Returns the new weights and the loss.""",
    gspmd=True,
)
def dp_train_step(n, r):
    mesh = (("data", n),)

    def step(w1, b1, w2, b2, x, y):
        loss, grads = jax.value_and_grad(_mlp_loss, argnums=(0, 1, 2, 3))(w1, b1, w2, b2, x, y)
        new = [p - 0.1 * g for p, g in zip((w1, b1, w2, b2), grads)]
        return (*new, loss)

    args = [f32(r, 6, 8, scale=0.5), f32(r, 8, scale=0.1), f32(r, 8, 3, scale=0.5), f32(r, 3, scale=0.1),
            f32(r, 8, 6), f32(r, 8, 3)]  # fmt: skip
    return Spec(step, mesh, (P(), P(), P(), P(), P("data"), P("data")), (P(), P(), P(), P(), P()), args)


@program(
    """Megatron-style MLP, gelu(x @ w1 + b1) @ w2 + b2: w1 (8x16) and b1 column-sharded,
    w2 (16x8) row-sharded over "model", so the second matmul's partial sums are
    all-reduced. 2 devices: ("model"=2), x replicated; 4 devices: ("data"=2, "model"=2),
    x and the result batch-sharded over "data".""",
    gspmd=True,
)
def megatron_mlp(n, r):
    mesh = (("model", 2),) if n == 2 else (("data", 2), ("model", 2))
    batch = P() if n == 2 else P("data")

    def mlp(x, w1, b1, w2, b2):
        return jax.nn.gelu(x @ w1 + b1) @ w2 + b2

    args = [
        f32(r, 4, 8),
        f32(r, 8, 16, scale=0.4),
        f32(r, 16, scale=0.1),
        f32(r, 16, 8, scale=0.3),
        f32(r, 8, scale=0.1),
    ]
    return Spec(mlp, mesh, (batch, P(None, "model"), P("model"), P("model", None), P()), batch, args)


@program(
    """2-D mesh ("data", "model"): x (4x8) @ w (8x8, column-sharded over "model") then a
    layer norm over the hidden dimension, which is sharded over "model" (the mean and
    variance need a cross-device sum), scaled by gamma and beta sharded like it; the
    batch is sharded over "data". 4 devices: (2, 2); 2 devices: (1, 2), a mesh with a
    size-1 axis.""",
)
def layernorm_2d_mesh(n, r):
    mesh = (("data", 1), ("model", 2)) if n == 2 else (("data", 2), ("model", 2))

    def layer(x, w, gamma, beta):
        h = x @ w
        mean = h.mean(axis=-1, keepdims=True)
        var = ((h - mean) ** 2).mean(axis=-1, keepdims=True)
        return (h - mean) * lax.rsqrt(var + 1e-5) * gamma + beta

    args = [f32(r, 4, 8), f32(r, 8, 8, scale=0.5), 1.0 + f32(r, 8, scale=0.1), f32(r, 8, scale=0.1)]
    return Spec(layer, mesh, (P("data", None), P(None, "model"), P("model"), P("model")), P("data", "model"), args)


@program(
    """FSDP-style SGD step: the two weight matrices (8x16, 16x4) sharded along their
    first dimension over "data"=n, gathered for use (with_sharding_constraint to
    replicated), the batch (8) sharded over "data"; the new weights come back sharded
    like the old (their gradients reduce-scattered). Returns the new weights and the
    loss.""",
)
def fsdp_train_step(n, r):
    mesh = (("data", n),)

    def step(w1, w2, x, y):
        def loss(w1, w2):
            w1g, w2g = wsc(w1, mesh, P()), wsc(w2, mesh, P())
            return jnp.mean((jax.nn.relu(x @ w1g) @ w2g - y) ** 2)

        value, (g1, g2) = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2)
        return w1 - 0.1 * g1, w2 - 0.1 * g2, value

    args = [f32(r, 8, 16, scale=0.4), f32(r, 16, 4, scale=0.3), f32(r, 8, 8), f32(r, 8, 4)]
    return Spec(step, mesh, (P("data"), P("data"), P("data"), P("data")), (P("data"), P("data"), P()), args)


@program(
    """with_sharding_constraint moving the sharded dimension: x (8x8) row-sharded over
    "x"=n, sin(x) constrained to column-sharded (an all-to-all), then scaled and
    returned column-sharded.""",
)
def reshard_rows_to_cols(n, r):
    mesh = (("x", n),)

    def f(x):
        return wsc(jnp.sin(x), mesh, P(None, "x")) * 2.0 + 1.0

    return Spec(f, mesh, (P("x", None),), P(None, "x"), [f32(r, 8, 8)])


@program(
    """Reductions over sharded dimensions of x (8x6): sum, max and argmax over each
    axis, and the total sum, all returned replicated. 2 devices: rows sharded over
    "x"=2; 4 devices: rows over "x"=2 and columns over "y"=2.""",
)
def reductions(n, r):
    mesh = (("x", 2),) if n == 2 else (("x", 2), ("y", 2))
    spec = P("x", None) if n == 2 else P("x", "y")

    def f(x):
        return (x.sum(axis=0), x.max(axis=0), jnp.argmax(x, axis=0),
                x.sum(axis=1), x.max(axis=1), jnp.argmax(x, axis=1), x.sum())  # fmt: skip

    return Spec(f, mesh, (spec,), (P(),) * 7, [f32(r, 8, 6)])


@program(
    """Batch-sharded NHWC convolution with batch-norm statistics: x (8x6x6x3) sharded
    on the batch, a replicated 3x3 kernel (SAME), the mean and variance over (batch,
    height, width) (cross-device), normalized and relu'd. Returns the activations
    (batch-sharded), the mean and the variance (replicated). 2 devices: ("data"=2);
    4 devices: a 2-D mesh ("x"=2, "y"=2), the batch sharded over both axes at once
    ({"x", "y"}).""",
)
def conv_batchnorm(n, r):
    mesh = (("data", 2),) if n == 2 else (("x", 2), ("y", 2))
    batch = P("data") if n == 2 else P(("x", "y"))

    def f(x, k):
        h = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        mean = h.mean(axis=(0, 1, 2))
        var = ((h - mean) ** 2).mean(axis=(0, 1, 2))
        return jax.nn.relu((h - mean) * lax.rsqrt(var + 1e-5)), mean, var

    args = [f32(r, 8, 6, 6, 3), f32(r, 3, 3, 3, 4, scale=0.3)]
    return Spec(f, mesh, (batch, P()), (batch, P(), P()), args)


@program(
    """Embedding lookup, jnp.take(table, ids, axis=0), from a table (16x8) sharded over
    its vocabulary dimension ("x"=n); the int32 ids (4x6) and the result replicated.""",
)
def embedding_lookup(n, r):
    mesh = (("x", n),)

    def f(table, ids):
        return jnp.take(table, ids, axis=0)

    args = [f32(r, 16, 8), r.integers(0, 16, (4, 6)).astype(np.int32)]
    return Spec(f, mesh, (P("x", None), P()), P(), args)


@program(
    """An unevenly sharded intermediate: x (rows x 8) column-sharded over "x"=n, tanh(x)
    constrained to row-sharded with rows not divisible by n (4 devices: 10 rows, as
    3+3+3+1; 2 devices: 5 rows, as 3+2), then centred per row and summed over the
    uneven rows (padding must not count). Inputs and results are evenly sharded or
    replicated: JAX refuses uneven in_shardings and out_shardings.""",
)
def uneven_rows(n, r):
    mesh = (("x", n),)
    rows = 10 if n == 4 else 5

    def f(x):
        h = wsc(jnp.tanh(x), mesh, P("x", None))
        return h - h.mean(axis=1, keepdims=True), h.sum(axis=0)

    return Spec(f, mesh, (P(None, "x"),), (P(), P()), [f32(r, rows, 8)])


def _shard_map(mesh_axes, body, in_specs, out_specs, check_vma=True):
    return jax.shard_map(body, mesh=make_mesh(mesh_axes), in_specs=in_specs, out_specs=out_specs, check_vma=check_vma)


@program(
    """shard_map over "x"=n, x (8x4) row-sharded: the body returns psum(2 * block) and
    psum of the block's sum (all-reduces), both replicated.""",
    gspmd=True,
)
def shard_map_psum(n, r):
    mesh = (("x", n),)

    def body(b):
        return lax.psum(2.0 * b, "x"), lax.psum(jnp.sum(b), "x")

    def f(x):
        return _shard_map(mesh, body, P("x"), (P(), P()))(x)

    return Spec(f, mesh, (P("x"),), (P(), P()), [f32(r, 8, 4)])


@program(
    """shard_map over "x"=n, x (8x4) row-sharded: the body all_gathers sin(block) tiled
    (back to 8x4) and the block untiled (stacked, n x 8/n x 4), both replicated
    (check_vma=False: JAX 0.10 types an all_gather's result as varying over "x", and
    refuses out_specs P() with the check on).""",
)
def shard_map_all_gather(n, r):
    mesh = (("x", n),)

    def body(b):
        return lax.all_gather(jnp.sin(b), "x", tiled=True), lax.all_gather(b, "x")

    def f(x):
        return _shard_map(mesh, body, P("x"), (P(), P()), check_vma=False)(x)

    return Spec(f, mesh, (P("x"),), (P(), P()), [f32(r, 8, 4)])


@program(
    """shard_map over "x"=n, x (8x4) row-sharded: a ring shift, ppermute from device i
    to i+1 mod n, of the block plus its axis_index (partition id); returned
    row-sharded.""",
)
def shard_map_ppermute(n, r):
    mesh = (("x", n),)

    def body(b):
        shifted = b + lax.axis_index("x").astype(jnp.float32)
        return lax.ppermute(shifted, "x", [(i, (i + 1) % n) for i in range(n)])

    def f(x):
        return _shard_map(mesh, body, P("x"), P("x"))(x)

    return Spec(f, mesh, (P("x"),), P("x"), [f32(r, 8, 4)])


@program(
    """shard_map over "x"=n, x (8x8) row-sharded: the body all_to_all's 2 * block + 1,
    splitting its columns and concatenating rows (tiled), so the result is
    column-sharded.""",
)
def shard_map_all_to_all(n, r):
    mesh = (("x", n),)

    def body(b):
        return lax.all_to_all(2.0 * b + 1.0, "x", split_axis=1, concat_axis=0, tiled=True)

    def f(x):
        return _shard_map(mesh, body, P("x", None), P(None, "x"))(x)

    return Spec(f, mesh, (P("x", None),), P(None, "x"), [f32(r, 8, 8)])


@program(
    """Integer program for exact comparison: int32 x, y (8x6) in [-50, 50), sharded
    like reductions (2 devices: rows over "x"; 4: rows over "x", columns over "y");
    returns x * y + 3 (sharded like the inputs), the column sums of x, the row maxima
    of y and the total of x * y (replicated).""",
    integer=True,
)
def integer_ops(n, r):
    mesh = (("x", 2),) if n == 2 else (("x", 2), ("y", 2))
    spec = P("x", None) if n == 2 else P("x", "y")

    def f(x, y):
        p = x * y
        return p + 3, x.sum(axis=0), y.max(axis=1), p.sum()

    return Spec(f, mesh, (spec, spec), (spec, P(), P(), P()), [i32(r, 8, 6), i32(r, 8, 6)])


# --------------------------------------------------------------------------------------
# Exporting
# --------------------------------------------------------------------------------------


def rng_for(name: str, n: int) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(name.encode()), n])


def _lower_and_run(spec: Spec, shardy: bool) -> tuple[str, list[np.ndarray]]:
    previous = jax.config.jax_use_shardy_partitioner
    jax.config.update("jax_use_shardy_partitioner", shardy)
    try:
        mesh = make_mesh(spec.mesh)
        in_sh = tuple(NamedSharding(mesh, s) for s in spec.in_specs)
        out_sh = jax.tree_util.tree_map(lambda s: NamedSharding(mesh, s), spec.out_specs)
        lowered = jax.jit(spec.fn, in_shardings=in_sh, out_shardings=out_sh).lower(*spec.args)
        text = lowered.as_text()
        out = lowered.compile()(*spec.args)
        return text, [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(out)]
    finally:
        jax.config.update("jax_use_shardy_partitioner", previous)


def _is_spec(s) -> bool:
    return isinstance(s, P)


def export(p: Program, n: int, out: Path) -> dict:
    spec = p.build(n, rng_for(p.name, n))
    case = f"{p.name}_{n}dev"
    text, results = _lower_and_run(spec, shardy=True)
    assert f"mhlo.num_partitions = {n} : i32" in text, case
    (out / f"{case}.mlir").write_text(text)
    entry = {
        "name": p.name,
        "devices": n,
        "description": p.description,
        "integer": p.integer,
        "mesh": [[a, s] for a, s in spec.mesh],
        "in_shardings": [str(s) for s in spec.in_specs],
        "out_shardings": [str(s) for s in jax.tree_util.tree_leaves(spec.out_specs, is_leaf=_is_spec)],
        "path": f"{case}.mlir",
        "gspmd_path": None,
        "data": f"{case}.npz",
        "inputs": [[list(a.shape), str(a.dtype)] for a in spec.args],
        "outputs": [[list(a.shape), str(a.dtype)] for a in results],
    }
    if p.gspmd:
        gtext, gresults = _lower_and_run(spec, shardy=False)
        assert f"mhlo.num_partitions = {n} : i32" in gtext, case
        for a, b in zip(results, gresults, strict=True):  # both partitioners agree
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=f"{case}: GSPMD and Shardy differ")
        (out / f"{case}.gspmd.mlir").write_text(gtext)
        entry["gspmd_path"] = f"{case}.gspmd.mlir"
    if p.integer:
        assert all(a.dtype.kind in "biu" for a in [*spec.args, *results]), case
    arrays = {f"in{i}": np.asarray(a) for i, a in enumerate(spec.args)}
    arrays |= {f"out{i}": a for i, a in enumerate(results)}
    write_npz(out / f"{case}.npz", arrays)
    return entry


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """`np.savez_compressed` with fixed timestamps: the same arrays give the same bytes."""
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for key, a in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(a), allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, buf.getvalue())


def index_json(index: dict) -> str:
    """JSON with one case a line (diffs stay per case)."""
    cases = ",\n".join("  " + json.dumps(c) for c in index["cases"])
    head = json.dumps({k: v for k, v in index.items() if k != "cases"})[:-1]
    return f'{head}, "cases": [\n{cases}\n]}}\n'


def _mesh_text(mesh: list) -> str:
    return "(" + ", ".join(f'"{a}"={s}' for a, s in mesh) + ")"


def readme_table(cases: list[dict]) -> str:
    rows = ["| program | devices: mesh | forms | description |", "|---|---|---|---|"]
    by_name: dict[str, list[dict]] = {}
    for c in cases:
        by_name.setdefault(c["name"], []).append(c)
    for name, cs in by_name.items():
        meshes = "; ".join(f"{c['devices']}: {_mesh_text(c['mesh'])}" for c in cs)
        forms = "Shardy, GSPMD" if cs[0]["gspmd_path"] else "Shardy"
        if cs[0]["integer"]:
            forms += "; integer"
        rows.append(f"| `{name}` | {meshes} | {forms} | {cs[0]['description']} |")
    return "\n".join(rows)


def _write_readme_table(cases: list[dict]) -> None:
    begin, end = "<!-- table: generated by export.py -->", "<!-- end of table -->"
    text = README.read_text()
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    README.write_text(f"{head}{begin}\n{readme_table(cases)}\n{end}{tail}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: %(default)s)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="export only these programs")
    ap.add_argument("--devices", type=int, action="append", default=[], help="only these device counts")
    args = ap.parse_args(argv)
    unknown = set(args.only) - set(PROGRAMS)
    if unknown:
        ap.error(f"unknown programs {sorted(unknown)}; known: {', '.join(PROGRAMS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    index_path = args.out / "index.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {"cases": []}
    cases = {(c["name"], c["devices"]): c for c in index["cases"]}
    for p in PROGRAMS.values():
        if args.only and p.name not in args.only:
            continue
        for n in p.devices:
            if args.devices and n not in args.devices:
                continue
            cases[(p.name, n)] = export(p, n, args.out)
            print(f"{p.name}_{n}dev", file=sys.stderr)
    order = {name: i for i, name in enumerate(PROGRAMS)}
    ordered = sorted(cases.values(), key=lambda c: (order.get(c["name"], len(order)), c["name"], c["devices"]))
    index = {"jax_version": jax.__version__, "jaxlib_version": jaxlib.__version__, "cases": ordered}
    index_path.write_text(index_json(index))
    if args.out.resolve() == DEFAULT_OUT and README.exists():
        _write_readme_table(ordered)


if __name__ == "__main__":
    main()
