"""xla-inline-calls in the JIT's pipeline (passes/transforms/xla_inline_calls.py).

JAX exports a `lax.scan` that stacks its outputs as a while loop whose body calls
private helpers (`dynamic_update_index_in_dim`, the step as `closed_call`). Behind a
call boundary the stacked buffer was copied through the call's fresh result twice per
trip (256 trips of a 64x256 carry: 1.3 s against XLA's 20 ms). Inlined, the loop
updates one slice of it in place: after bufferization the loop neither allocates nor
copies a buffer of the stacked shape. Results as JAX's.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import xla_opt  # noqa: E402

STEPS, ROWS, COLS = 64, 8, 32


def _scan(xs, h0):
    def cell(h, x):
        h = jnp.tanh(h + x)
        return h, h * 2.0

    return jax.lax.scan(cell, h0, xs)


def _inputs():
    r = np.random.default_rng(0)
    return r.standard_normal((STEPS, ROWS, COLS)).astype(np.float32), r.standard_normal((ROWS, COLS)).astype(np.float32)


def test_a_scan_runs_as_jax_does():
    xs, h0 = _inputs()
    text = jax.jit(_scan).lower(xs, h0).as_text()
    assert "func.call" in text and "dynamic_update_slice" in text  # JAX's helpers, called from the loop
    got = xla_opt.compile(text, backend="jit")(xs, h0)
    want = jax.jit(_scan)(xs, h0)
    for g, w in zip(got, jax.tree_util.tree_leaves(want), strict=True):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-6)


def test_the_stacked_output_is_updated_in_place():
    from xdsl.dialects import memref, scf

    from xla_opt.lowering.xla_to_llvm import STAGES, run_stages

    xs, h0 = _inputs()
    module = xla_opt.load_program(jax.jit(_scan).lower(xs, h0).as_text())
    run_stages(module, stages=STAGES[: STAGES.index("buffer-loop-hoisting") + 1])
    (loop,) = [op for op in module.walk() if isinstance(op, scf.WhileOp)]
    stacked = [
        op
        for op in loop.walk()
        if isinstance(op, memref.CopyOp | memref.AllocOp)
        for v in (*op.operands, *op.results)
        if isinstance(v.type, memref.MemRefType) and v.type.get_shape() == (STEPS, ROWS, COLS)
    ]
    assert stacked == [], [str(op) for op in stacked]
    assert not any(op.name in ("func.call", "xla.call") for op in module.walk())


def test_a_function_called_from_several_places_stays_correct():
    """A helper JAX calls twice (here `_where` of jnp.where inside two functions)."""

    def f(x, y):
        a = jnp.where(x > 0, x, y)
        b = jnp.where(y > 0, a, x * 2)
        return jnp.clip(a, -1, 1) + jnp.clip(b, -0.5, 0.5)

    r = np.random.default_rng(1)
    x, y = r.standard_normal((2, 16)).astype(np.float32)
    text = jax.jit(f).lower(x, y).as_text()
    (got,) = xla_opt.compile(text, backend="jit")(x, y)
    np.testing.assert_allclose(got, np.asarray(jax.jit(f)(x, y)), rtol=1e-6)
