"""Sharded programs through xla-opt and back to XLA: a JAX program exported with its
shardings (Shardy's form and GSPMD's), imported (convert-stablehlo-to-xla), exported
again (`xla-opt -t stablehlo`, `to_stablehlo_text`), then compiled by XLA's SPMD
partitioner for 4 (or 2) CPU devices and run: JAX's MLIR accepts the text and XLA gives
JAX's results. The programs are tests/sharding's corpus and a few written here
(shard_map over all axes and over one, a constraint, psum_scatter, ppermute).

XLA needs as many devices as partitions, so this runs in a process of its own, with
`XLA_FLAGS=--xla_force_host_platform_device_count=4` set before JAX starts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sharding import corpus

pytest.importorskip("jax")

ROOT = Path(__file__).resolve().parents[1]
BOTH_FORMS = [c for c in corpus.programs() if c.gspmd_path is not None]

SCRIPT = r'''
import json, os, sys
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

sys.path.insert(0, sys.argv[1])
import xla_opt
from xla_opt import xla_oracle
from xla_opt.passes.conversions.convert_xla_to_stablehlo import to_stablehlo_text
from tests.sharding import corpus

def through_xla_opt(text, args, want, devices):
    """Import, export, check, compile and run on XLA; the largest difference to `want`."""
    module = xla_opt.load_program(text)
    exported = to_stablehlo_text(module, entry="main")
    xla_oracle.check_stablehlo(exported)
    assert f"mhlo.num_partitions = {devices} : i32" in exported
    got = xla_oracle.run_stablehlo_partitioned(exported, *args, partitions=devices, result_shapes=[w.shape for w in want])
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        if w.dtype.kind in "biu":
            assert np.array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    return exported

report = {}
for case in corpus.programs():
    for form, path in (("shardy", case.path), ("gspmd", case.gspmd_path)):
        if path is None:
            continue
        try:
            through_xla_opt(path.read_text(), case.inputs(), case.expected(), case.devices)
            report[f"{case.id}.{form}"] = "ok"
        except Exception as e:  # reported by the test, one line each
            report[f"{case.id}.{form}"] = f"{type(e).__name__}: {e}".splitlines()[0][:400]

mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = np.arange(32, dtype=np.float32).reshape(8, 4) / 7
def programs():
    yield "constraint", jax.jit(
        lambda a: jax.lax.with_sharding_constraint(jnp.sin(a), NamedSharding(mesh, P(None, ("x", "y")))) * 2,
        in_shardings=NamedSharding(mesh, P("x", "y"))), (x,)
    yield "shard_map_all_axes", jax.jit(jax.shard_map(
        lambda a: jax.lax.psum(a * 2, "x"), mesh=mesh, in_specs=P("x", "y"), out_specs=P(None, "y"))), (x,)
    yield "shard_map_one_axis", jax.jit(jax.shard_map(
        lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P(), axis_names={"x"})), (x,)
    yield "psum_scatter", jax.jit(jax.shard_map(
        lambda a: jax.lax.psum_scatter(a, "x", scatter_dimension=0, tiled=True), mesh=mesh,
        in_specs=P(None, "y"), out_specs=P("x", "y"))), (x,)
    yield "ppermute", jax.jit(jax.shard_map(
        lambda a: jax.lax.ppermute(a, "x", perm=[(0, 1), (1, 0)]) + jax.lax.axis_index("y").astype(jnp.float32),
        mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))), (x,)
for shardy in (True, False):
    jax.config.update("jax_use_shardy_partitioner", shardy)
    for name, jitted, args in programs():
        key = f"{name}.{'shardy' if shardy else 'gspmd'}"
        try:
            text = jitted.lower(*args).as_text()
            want = [np.asarray(w) for w in jax.tree_util.tree_leaves(jitted(*args))]
            through_xla_opt(text, args, want, 4)
            report[key] = "ok"
        except Exception as e:
            report[key] = f"{type(e).__name__}: {e}".splitlines()[0][:400]
print(json.dumps(report))
'''


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    script = tmp_path_factory.mktemp("export") / "run.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    done = subprocess.run(
        [sys.executable, str(script), str(ROOT)], capture_output=True, text=True, timeout=600, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_program_runs_on_xla_after_import_and_export(report):
    failures = {name: why for name, why in report.items() if why != "ok"}
    assert not failures, "\n".join(f"{name}: {why}" for name, why in failures.items())
    # the corpus in both forms and the programs written here, in both forms
    assert sum(name.endswith(".gspmd") for name in report) == len(BOTH_FORMS) + 5
    assert len(report) == len(corpus.programs()) + len(BOTH_FORMS) + 10
