"""CHLO's special functions from JAX (issue 31): `jax.scipy.special.i1e` and `i1`
(chlo.bessel_i1e), `zeta` (chlo.zeta) and `polygamma` (chlo.polygamma), decomposed
by the import with XLA's math-library formulas, run on both backends against JAX's
own results: edge values (0, -0, negative, large, infinities, NaN, poles, domain
errors) and random values, in f32 and f64 (f16 and bf16 compute in f32)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import jax_with_x64
from xla_opt.api import import_stablehlo

BACKENDS = ["interpreter", "jit"]
DTYPES = [np.float32, np.float64]
# a few ulps: the terms' libm calls (pow, exp, log, sqrt) may round differently
RTOL = {np.float32: 1e-5, np.float64: 1e-13}

X = [0.0, -0.0, 1e-8, 0.5, -0.5, 1.0, 2.5, -3.0, 7.9, 8.0, 8.1, 20.0, -50.0, 100.0, 700.0, np.inf, -np.inf, np.nan]
# zeta(s, q) and polygamma(n, q): x < 1, x = 1, q at poles (0, -1, -2), q <= 0 with a
# non-integer x, infinities and NaN
S = [1.5, 2.0, 3.0, 1.0, 0.5, 2.0, 4.0, 3.0, 2.0, 1.1, 5.0, 2.0, 10.0, 30.0, 2.2, np.inf, 2.0, np.nan]
Q = [0.5, 1.0, 2.0, 3.5, -1.0, -2.0, -2.5, 0.0, 1e-3, 10.0, 100.0, 1e4, 0.7, 2.0, 5.0, 1.0, -0.0, 3.0]
N = [0.0, 1.0, 2.0, 3.0, 1.0, 2.0, 0.0, -1.0, 1.5, 4.0, 1.0, 2.0, 3.0, 0.0, 5.0, 1.0, 2.0, np.nan]


@pytest.fixture(scope="module")
def jax():
    return jax_with_x64("JAX is the oracle of the special functions")


def program(jax):
    """One JAX function computing all four (one compilation per type and backend)."""
    special = jax.scipy.special
    return lambda x, s, q, n: (special.i1e(x), special.i1(x), special.zeta(s, q), jax.lax.polygamma(n, q))


NAMES = ("i1e", "i1", "zeta", "polygamma")


def edge_values(dtype):
    return tuple(np.array(v, dtype) for v in (X, S, Q, N))


def random_values(dtype, rng: np.random.Generator, size: int = 300):
    """x in [-40, 40]; s in [0.5, 25] (below 1: nan); q in [-6, 12] (poles at the
    non-positive integers); n in 0..5."""
    return (
        rng.uniform(-40, 40, size).astype(dtype),
        rng.uniform(0.5, 25, size).astype(dtype),
        rng.uniform(-6, 12, size).astype(dtype),
        rng.integers(0, 6, size).astype(dtype),
    )


def check(jax, args, backend: str, rtol: float) -> None:
    f = jax.jit(program(jax))
    text = f.lower(*args).as_text()
    expected = [np.asarray(e) for e in f(*args)]
    got = xla_opt.run(import_stablehlo(text), *args, backend=backend)
    for name, g, e in zip(NAMES, got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape, name
        g64, e64 = g.astype(np.float64), e.astype(np.float64)
        np.testing.assert_array_equal(np.isnan(g64), np.isnan(e64), err_msg=f"{name}: NaNs differ")
        nan = np.isnan(e64)
        np.testing.assert_allclose(g64[~nan], e64[~nan], rtol=rtol, atol=0, err_msg=name)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
def test_special_functions_match_jax(jax, dtype, backend):
    """Edge values: x = 0 and -0 (i1e(0) = 0), negative (i1e is odd), large (i1e ~
    1/sqrt(2 pi x)), infinities, NaN; zeta's nan for s < 1, inf at s = 1 and at its
    poles, nan for q <= 0 with s not an integer; polygamma's nan for n not natural,
    digamma at n = 0. Then random values."""
    rng = np.random.default_rng(31)
    edges, randoms = edge_values(dtype), random_values(dtype, rng)
    check(jax, tuple(np.concatenate([a, b]) for a, b in zip(edges, randoms, strict=True)), backend, RTOL[dtype])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
def test_half_types_compute_in_f32(jax, dtype, backend):
    """f16 and bf16 are computed in f32 and rounded once, as XLA does: JAX's values
    exactly."""
    check(jax, random_values(dtype, np.random.default_rng(7), 200), backend, 0.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_broadcast_zeta_broadcasts_its_operands(jax, backend):
    """chlo.broadcast_zeta (numpy's trailing alignment): each row of q against s."""
    program = """func.func @main(%s: tensor<3xf64>, %q: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = chlo.broadcast_zeta %s, %q : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}"""
    s = np.array([2.0, 3.0, 4.5])
    q = np.array([[1.0, 2.0, 0.5], [3.0, 1.5, 10.0]])
    (got,) = xla_opt.run(program, s, q, backend=backend)
    expected = np.asarray(jax.scipy.special.zeta(np.broadcast_to(s, q.shape), q))
    np.testing.assert_allclose(got, expected, rtol=1e-13)
