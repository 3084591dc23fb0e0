"""Cumulative reduce_windows (scans) in XLA:CPU's order (issue 31): jnp.cumsum of bf16
values differed from JAX on 75% of the elements: we folded strictly in order, rounding
to bf16 after each add, and XLA:CPU evaluates a two-level scan (its
ReduceWindowRewriter, base length 16: rows of 16 scanned, the rows' totals scanned,
each element its row scan plus its row's carry; recursively while the totals are more
than 16), 2-3x closer to an f64 reference. Both backends now compute that tree
(interpreter: `tree_scan`; JIT: lowering/conversions/convert_xla_to_linalg/
scan_windows.py) for every scan JAX writes as a reduce_window: cumsum, cumprod,
cummax, cummin, cumlogsumexp, forward or reverse, along any axis.

Expected values: JAX (bit for bit), and an f64 reference computed with numpy.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type

BF16 = np.dtype(ml_dtypes.bfloat16)
BACKENDS = ["interpreter", "jit"]


def bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.dtype(f"u{x.dtype.itemsize}"))


def window_program(shape, dtype, axis: int, low: int, high: int, body: str = "add", init: str = "0.0") -> str:
    """A reduce_window along `axis` spanning the whole of it, padded (low, high) there."""
    t = tensor_type(shape, dtype)
    scalar = tensor_type((), dtype)
    out_shape = list(shape)
    out_shape[axis] = shape[axis] + low + high - shape[axis] + 1
    rt = tensor_type(out_shape, dtype)
    window = [1] * len(shape)
    window[axis] = shape[axis]
    padding = [[0, 0]] * len(shape)
    padding[axis] = [low, high]
    return f"""
func.func @main(%x: {t}) -> {rt} {{
  %init = xla.constant dense<{init}> : {scalar}
  %r = xla.reduce_window (%x), (%init), window_dimensions = {window}, padding = {padding} body {{
  ^bb0(%a: {scalar}, %b: {scalar}):
    %s = xla.{body} %a, %b : {scalar}
    xla.return %s : {scalar}
  }} : ({t}, {scalar}) -> {rt}
  func.return %r : {rt}
}}
"""


def both(program: str, x: np.ndarray) -> np.ndarray:
    """The result on both backends, which must be bit for bit the same."""
    (interpreted,) = xla_opt.run(program, x, backend="interpreter")
    (compiled,) = xla_opt.run(program, x, backend="jit")
    np.testing.assert_array_equal(bits(compiled), bits(interpreted))
    return interpreted


def sequential_cumsum(x: np.ndarray) -> np.ndarray:
    """The strictly sequential fold, each partial sum rounded to x's type."""
    out = np.empty_like(x)
    acc = x.dtype.type(0)
    for i, v in enumerate(x):
        acc = (np.float32(acc) + np.float32(v)).astype(x.dtype)
        out[i] = acc
    return out


def test_bf16_cumsum_of_1000_is_closer_to_f64_than_a_sequential_fold():
    """The issue's case without JAX: the tree's error against an f64 reference is well
    below the sequential fold's (which every partial sum of ~500 rounds by up to 1)."""
    x = np.random.default_rng(31).uniform(0, 1, 1000).astype(BF16)
    got = both(window_program((1000,), BF16, 0, 999, 0), x)
    reference = np.cumsum(x.astype(np.float64))
    tree_error = np.abs(got.astype(np.float64) - reference).max()
    sequential_error = np.abs(sequential_cumsum(x).astype(np.float64) - reference).max()
    assert tree_error < sequential_error / 1.5, (tree_error, sequential_error)


def test_bf16_cumsum_of_1000_is_jaxs():
    """jnp.cumsum of 1000 bf16 values, exported and run: the fraction of elements equal
    to JAX's (it was 25%) and the error against an f64 reference (not worse than
    JAX's)."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    x = np.random.default_rng(32).uniform(0, 1, 1000).astype(BF16)
    text = jax.jit(jnp.cumsum).lower(x).as_text()
    expected = np.asarray(jax.jit(jnp.cumsum)(x))
    reference = np.cumsum(x.astype(np.float64))
    jax_error = np.abs(expected.astype(np.float64) - reference).max()
    for backend in BACKENDS:
        (got,) = xla_opt.run(text, x, backend=backend)
        assert (bits(got) == bits(expected)).mean() >= 0.99, backend
        assert np.abs(got.astype(np.float64) - reference).max() <= jax_error, backend


def _jax_cases():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(33)
    uniform = lambda low, high, shape, dtype: rng.uniform(low, high, shape).astype(dtype)  # noqa: E731
    return jax, [
        ("cumsum-f16-axis0", lambda v: jnp.cumsum(v, axis=0), uniform(0, 0.5, (300, 3), np.float16)),
        ("cumsum-f32-reverse-3-levels", lambda v: lax.cumsum(v, axis=1, reverse=True), uniform(0, 1, (2, 5000), np.float32)),
        ("cumsum-bf16-17", jnp.cumsum, uniform(0, 1, 17, BF16)),
        ("cumprod-bf16", lambda v: jnp.cumprod(v, axis=1), uniform(0.99, 1.01, (2, 300), BF16)),
        ("cummax-bf16", lambda v: lax.cummax(v, axis=1), rng.standard_normal((2, 300)).astype(BF16)),
        ("cummin-f32-reverse-axis0", lambda v: lax.cummin(v, axis=0, reverse=True), rng.standard_normal((40, 3)).astype(np.float32)),
        ("cumlogsumexp-bf16", lambda v: lax.cumlogsumexp(v, axis=1), rng.standard_normal((2, 100)).astype(BF16)),
    ]  # fmt: skip


def test_jax_scans_bit_for_bit():
    """What JAX writes for its cumulative ops, on both backends: JAX's bits exactly."""
    jax, cases = _jax_cases()
    for name, f, x in cases:
        text = jax.jit(f).lower(x).as_text()
        expected = np.asarray(jax.jit(f)(x))
        for backend in BACKENDS:
            (got,) = xla_opt.run(text, x, backend=backend)
            np.testing.assert_array_equal(bits(got), bits(expected), err_msg=f"{name} on {backend}")


@pytest.mark.parametrize("forward", [True, False], ids=["forward", "reverse"])
def test_exclusive_scans(forward):
    """A window padded by the whole length (an exclusive scan: L + 1 results, the init
    value first, or last in reverse): integers exactly numpy's, on both backends."""
    x = np.random.default_rng(34).integers(-100, 100, (3, 70)).astype(np.int32)
    length = x.shape[1]
    program = window_program(x.shape, np.int32, 1, length if forward else 0, 0 if forward else length, init="0")
    got = both(program, x)
    if forward:
        expected = np.concatenate([np.zeros((3, 1), np.int32), np.cumsum(x, axis=1, dtype=np.int32)], axis=1)
    else:
        expected = np.concatenate(
            [np.cumsum(x[:, ::-1], axis=1, dtype=np.int32)[:, ::-1], np.zeros((3, 1), np.int32)], axis=1
        )
    np.testing.assert_array_equal(got, expected)


def test_float_scans_of_every_shape_agree_between_backends():
    """Lengths around the base (16, 17, 32, 33), three levels (5000), an exclusive bf16
    scan and a middle axis: both backends the same bits, close to f64."""
    rng = np.random.default_rng(35)
    for shape, axis, dtype, exclusive in [
        ((16,), 0, BF16, False),
        ((17,), 0, BF16, False),
        ((32, 2), 0, np.float16, False),
        ((2, 33, 3), 1, BF16, False),
        ((5000,), 0, np.float32, False),
        ((2, 100), 1, BF16, True),
    ]:
        x = rng.uniform(0, 1, shape).astype(dtype)
        length = shape[axis]
        got = both(window_program(shape, dtype, axis, length if exclusive else length - 1, 0), x)
        reference = np.cumsum(x.astype(np.float64), axis=axis)
        if exclusive:
            reference = np.concatenate([np.zeros_like(reference.take([0], axis)), reference], axis=axis)
        tolerance = 2.0**-7 if dtype == BF16 else 2.0**-10 if dtype == np.float16 else 1e-6
        np.testing.assert_allclose(got.astype(np.float64), reference, rtol=4 * tolerance, atol=tolerance)


def test_sixteen_or_fewer_fold_in_order():
    """A scan of 16 is one window (XLA rewrites only longer ones): the sequential fold."""
    x = np.random.default_rng(36).uniform(0, 1, 16).astype(BF16)
    got = both(window_program((16,), BF16, 0, 15, 0), x)
    np.testing.assert_array_equal(bits(got), bits(sequential_cumsum(x)))
