"""Complex cholesky and triangular_solve on the JIT (issue 31): they ran on the
interpreter only. Both backends must agree with each other and with numpy (the
factor reconstructs the Hermitian matrix, the solution solves the system), with
StableHLO's interpret suite (its complex triangular_solve cases) and with JAX.

The spec: cholesky "a = L L^H" (lower) or "a = U^H U" (upper) from the requested
triangle of a Hermitian a; triangular_solve's transpose_a = ADJOINT solves with the
conjugate transpose of a.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xla_opt
from tests.util import ttype

COMPLEX = [np.complex64, np.complex128]
TOLERANCE = {np.dtype(np.complex64): 1e-5, np.dtype(np.complex128): 1e-12}


def both_backends(program: str, *inputs: np.ndarray) -> np.ndarray:
    """The program's one result on the JIT, checked against the interpreter's: NaNs at
    the same places, other values to rounding (the order of their sums differs)."""
    (expected,) = xla_opt.run(program, *inputs, backend="interpreter")
    (got,) = xla_opt.run(program, *inputs, backend="jit")
    assert got.dtype == expected.dtype and got.shape == expected.shape
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan)
    rtol = TOLERANCE[expected.dtype]
    scale = float(np.max(np.abs(expected[~nan]), initial=0.0))
    np.testing.assert_allclose(got[~nan], expected[~nan], rtol=rtol, atol=rtol * scale)
    return got


def hermitian_positive_definite(rng: np.random.Generator, shape) -> np.ndarray:
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    m = shape[-1]
    return x @ np.conj(np.swapaxes(x, -1, -2)) + m * np.eye(m)


# --------------------------------------------------------------------------------------
# Cholesky
# --------------------------------------------------------------------------------------


def cholesky(a: np.ndarray, lower: bool) -> np.ndarray:
    t = ttype(a)
    program = (
        f"func.func @main(%a: {t}) -> {t} {{\n"
        f"  %r = xla.cholesky %a, lower = {str(lower).lower()} : {t}\n"
        f"  func.return %r : {t}\n}}\n"
    )
    return both_backends(program, a)


@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_complex_cholesky_factors_the_hermitian_matrix(dtype, lower):
    rng = np.random.default_rng(31)
    herm = hermitian_positive_definite(rng, (2, 3, 5, 5))
    # only the requested triangle and the diagonal's real part are read
    garbage = np.triu(rng.uniform(5, 9, herm.shape) * (1 + 2j), 1)
    a = herm + (garbage if lower else np.swapaxes(garbage, -1, -2)) + 7j * np.eye(5)
    out = cholesky(a.astype(dtype), lower)
    expected = np.linalg.cholesky(herm)  # numpy: herm = L L^H
    if not lower:
        expected = np.conj(np.swapaxes(expected, -1, -2))
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=rtol * 10)
    # the other triangle is zero and the diagonal real
    other = np.triu(out, 1) if lower else np.tril(out, -1)
    assert not other.any()
    assert not np.diagonal(out, axis1=-2, axis2=-1).imag.any()


@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
def test_complex_cholesky_not_positive_definite_gives_nans_per_matrix(lower):
    rng = np.random.default_rng(32)
    a = hermitian_positive_definite(rng, (3, 3, 3)).astype(np.complex64)
    a[1, 2, 2] = -50.0  # the last pivot is negative
    a[2, 0, 0] = np.nan
    out = cholesky(a, lower)
    assert np.isfinite(out[0]).all()
    triangle = np.tril_indices(3) if lower else np.triu_indices(3)
    for i in (1, 2):
        assert np.isnan(out[i][triangle]).all()


# --------------------------------------------------------------------------------------
# TriangularSolve
# --------------------------------------------------------------------------------------


def triangular_solve_program(a_type: str, b_type: str, left: bool, lower: bool, unit: bool, transpose: str) -> str:
    flags = f"left_side = {str(left).lower()}, lower = {str(lower).lower()}, unit_diagonal = {str(unit).lower()}"
    return (
        f"func.func @main(%a: {a_type}, %b: {b_type}) -> {b_type} {{\n"
        f"  %r = xla.triangular_solve %a, %b, {flags}, transpose_a = {transpose} : ({a_type}, {b_type}) -> {b_type}\n"
        f"  func.return %r : {b_type}\n}}\n"
    )


FLAGS = list(itertools.product([True, False], [True, False], [False, True], ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]))


@pytest.mark.parametrize("dtype", COMPLEX, ids=lambda d: np.dtype(d).name)
def test_complex_triangular_solve_every_flag(dtype):
    """All 24 combinations of left_side, lower, unit_diagonal and transpose_a, batched,
    with garbage in a's other triangle: each solution solves op(T) x = b (or x op(T) =
    b) as numpy's solver does."""
    rng = np.random.default_rng(33)
    m = 4
    for left, lower, unit, transpose in FLAGS:
        a = rng.uniform(-0.5, 0.5, (2, m, m)) + 1j * rng.uniform(-0.5, 0.5, (2, m, m))
        a[..., np.arange(m), np.arange(m)] += 2.5 * rng.choice([-1, 1j], (2, m))
        b_shape = (2, m, 3) if left else (2, 3, m)
        b = rng.standard_normal(b_shape) + 1j * rng.standard_normal(b_shape)
        a, b = a.astype(dtype), b.astype(dtype)
        x = both_backends(triangular_solve_program(ttype(a), ttype(b), left, lower, unit, transpose), a, b)
        t = np.tril(a) if lower else np.triu(a)
        if unit:
            t[..., np.arange(m), np.arange(m)] = 1
        if transpose != "NO_TRANSPOSE":
            t = np.swapaxes(t, -1, -2)
        if transpose == "ADJOINT":
            t = np.conj(t)
        if left:
            expected = np.linalg.solve(t.astype(np.complex128), b.astype(np.complex128))
        else:  # x t = b <=> t^T x^T = b^T
            expected = np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
        rtol = 1e-5 if dtype == np.complex64 else 1e-12
        np.testing.assert_allclose(x, expected, rtol=rtol, atol=rtol, err_msg=f"{left=} {lower=} {unit=} {transpose}")


# StableHLO's interpret suite, tests/interpret/triangular_solve.mlir: its complex cases
# (check.expect_almost_eq_const, a tolerance of 1e-4), each program returning %result.
SUITE_A = (
    "[[(1.0, 1.0), (0.0, 0.0), (0.0, 0.0)], [(2.0, -2.0), (3.0, 4.0), (0.0, 0.0)], "
    "[(4.0, -3.0), (5.0, 5.0), (6.0, -8.0)]]"
)
SUITE_B = "[[(7.0, -2.0)], [(8.0, 4.0)], [(9.0, -5.0)]]"
SUITE_CASES = {
    "triangular_solve_op_test_complex_example": ("NO_TRANSPOSE", [2.5 - 4.5j, 4.32 + 0.24j, -0.29 - 0.77j]),
    "triangular_solve_op_test_complex_example_adjoint": ("ADJOINT", [7.18 + 2.679999j, -0.08 + 3.16j, 0.14 - 1.02j]),
}


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("case", sorted(SUITE_CASES))
def test_stablehlo_interpret_suite_complex_triangular_solve(case, backend):
    transpose, expected = SUITE_CASES[case]
    program = f"""
func.func @main() -> tensor<3x1xcomplex<f32>> {{
  %a = stablehlo.constant dense<{SUITE_A}> : tensor<3x3xcomplex<f32>>
  %b = stablehlo.constant dense<{SUITE_B}> : tensor<3x1xcomplex<f32>>
  %result = "stablehlo.triangular_solve"(%a, %b) {{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose {transpose}>}} : (tensor<3x3xcomplex<f32>>, tensor<3x1xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
  func.return %result : tensor<3x1xcomplex<f32>>
}}
"""
    (got,) = xla_opt.run(program, backend=backend)
    np.testing.assert_allclose(got[:, 0], np.array(expected, np.complex64), atol=1e-4)


# --------------------------------------------------------------------------------------
# What JAX exports (lapack_cpotrf_ffi / lapack_ctrsm_ffi on CPU, imported as the ops)
# --------------------------------------------------------------------------------------


def test_jax_complex_cholesky_and_solve_triangular():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    import jax.scipy.linalg as jsl

    rng = np.random.default_rng(34)
    a = hermitian_positive_definite(rng, (4, 4)).astype(np.complex64)
    b = (rng.standard_normal((4, 2)) + 1j * rng.standard_normal((4, 2))).astype(np.complex64)
    functions = {
        "cholesky": (jnp.linalg.cholesky, (a,)),
        "cholesky-upper": (lambda a: jnp.linalg.cholesky(a, upper=True), (a,)),
        **{
            f"solve-triangular-trans{trans}-{'lower' if lower else 'upper'}": (
                lambda a, b, trans=trans, lower=lower: jsl.solve_triangular(a, b, lower=lower, trans=trans),
                (a, b),
            )
            for trans in (0, 1, 2)
            for lower in (True, False)
        },
    }
    for name, (f, args) in functions.items():
        text = jax.jit(f).lower(*args).as_text()
        expected = np.asarray(jax.jit(f)(*args))
        for backend in ("interpreter", "jit"):
            (got,) = xla_opt.run(text, *args, backend=backend)
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, err_msg=f"{name} on {backend}")
