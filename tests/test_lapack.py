"""JAX's LAPACK custom calls (issue 31): `lapack_?getrf_ffi`, `?geqrf`, `?orgqr`/`?ungqr`,
`?syevd`/`?heevd` and `?gesdd`, imported as xla programs
(passes/conversions/convert_stablehlo_to_xla/lapack.py), run on both backends with JAX's
results, for f32, f64, c64 and c128, batched, singular and rank-deficient.

Each program is exported by JAX in the test (`jax.jit(f).lower(...).as_text()`). A result
is judged by what defines it: LU's pivots equal LAPACK's exactly (the matrices' pivots are
well separated), its factors reconstruct P·A = L·U; Q·R = A with Q unitary and R LAPACK's
own (R's diagonal signs are ?larfg's, so Q and R equal JAX's); A·V = V·Λ with V unitary
and the eigenvalues ascending; A = U·Σ·Vᴴ with U, V unitary and the singular values
descending. Eigen- and singular vectors are compared only through these identities:
their signs and phases are free. Tolerances are LAPACK's: a small multiple of
eps·‖A‖ (f32/c64 1e-5, f64/c128 1e-12 relative to the matrix's norm)."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.util import jax_with_x64

BACKENDS = ["interpreter", "jit"]
REAL = [np.float32, np.float64]
ALL = [np.float32, np.float64, np.complex64, np.complex128]


def cases(interpreter, jit):
    """(dtype, backend) pairs: the JIT's compile time is what the file spends, so it runs
    one real and one complex type of each routine (every type through the interpreter)."""
    name = lambda d: np.dtype(d).name  # noqa: E731
    return [pytest.param(d, "interpreter", id=f"{name(d)}-interpreter") for d in interpreter] + [
        pytest.param(d, "jit", id=f"{name(d)}-jit") for d in jit
    ]


def tol(dtype) -> float:
    return 1e-5 if np.dtype(dtype) in (np.dtype(np.float32), np.dtype(np.complex64)) else 1e-12


def matrix(shape, dtype, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def hermitian(shape, dtype, seed=0) -> np.ndarray:
    x = matrix(shape, dtype, seed)
    return ((x + adjoint(x)) / 2).astype(dtype)


def adjoint(x):
    return np.conj(np.swapaxes(x, -1, -2))


def run(backend: str, f, *args) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """f's program as JAX exports it, run here on `backend`; and JAX's own results."""
    jax = jax_with_x64("JAX is the oracle of the LAPACK custom calls")
    jitted = jax.jit(f, keep_unused=True)
    text = jitted.lower(*args).as_text()
    assert "lapack_" in text
    expected = [np.asarray(x) for x in jax.tree.leaves(jitted(*args))]
    got = xla_opt.run(text, *args, backend=backend)
    assert [g.shape for g in got] == [e.shape for e in expected]
    assert [g.dtype for g in got] == [e.dtype for e in expected]
    return got, expected


def run_named(backend: str, f, *args) -> tuple[dict, dict]:
    """`run` of an f returning a dict of results: (ours, JAX's) by name."""
    jax = jax_with_x64("JAX is the oracle of the LAPACK custom calls")
    got, want = run(backend, f, *args)
    treedef = jax.tree.structure(jax.eval_shape(f, *args))
    return treedef.unflatten(got), treedef.unflatten(want)


def leaves(x) -> list:
    return list(x) if isinstance(x, tuple | list) else [x]


def close(got, want, dtype, scale=1.0) -> None:
    """|got - want| within the dtype's tolerance times `scale` (a norm of the input)."""
    error = float(np.max(np.abs(np.asarray(got) - np.asarray(want)), initial=0.0))
    assert error <= tol(dtype) * max(scale, 1.0), f"error {error:.3g} > {tol(dtype) * max(scale, 1.0):.3g}"


def unitary(q, dtype) -> None:
    """The columns of q (..., m, k) orthonormal."""
    k = q.shape[-1]
    close(adjoint(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), dtype, k)


def jnp():
    return jax_with_x64("JAX is the oracle of the LAPACK custom calls").numpy


def lax_linalg():
    return jax_with_x64("JAX is the oracle of the LAPACK custom calls").lax.linalg


# --------------------------------------------------------------------------------------
# getrf: solve, inv, det, slogdet, lu
# --------------------------------------------------------------------------------------

SINGULAR = np.array([[1.0, 2, 3, 4], [2, 4, 6, 8], [1, 0, 1, 0], [0, 1, 1, 2]])


@pytest.mark.parametrize(("dtype", "backend"), cases(ALL, jit=[np.complex64]))
def test_lu_solve_inv_det_slogdet(dtype, backend):
    """lapack_?getrf_ffi through lax.linalg.lu and jnp.linalg.solve, inv, det, slogdet:
    pivots equal LAPACK's, P·A = L·U, and the rest JAX's. Of a singular matrix (an
    exactly zero pivot) LAPACK completes the factorization (info > 0, the column below
    that pivot unscaled) and JAX keeps it: the LU, det 0 and slogdet (0, -inf) are
    exactly JAX's, and (through the interpreter) solve and inv not finite where JAX's are
    not: dividing by that zero pivot gives NaN or an infinity as the BLAS orders its
    sums (the interpreter substitutes row by row, as reference LAPACK: a row of the zero
    pivot is b / 0, +-inf; SciPy 1.17.1's OpenBLAS, which JAX's trsm calls, gives NaN
    there), and equal where finite."""
    np_, lx = jnp(), lax_linalg()
    a, rhs, singular = matrix((4, 4), dtype), matrix((4, 2), dtype, seed=1), SINGULAR.astype(dtype)
    everything = backend == "interpreter"  # the JIT: JAX's ops of det, slogdet are another test's

    def f(a, rhs, singular):
        out = {"lu": lx.lu(a), "solve": np_.linalg.solve(a, rhs), "inv": np_.linalg.inv(a)}
        out |= {"singular lu": lx.lu(singular), "singular det": np_.linalg.det(singular)}
        if everything:
            out |= {"det": np_.linalg.det(a), "slogdet": np_.linalg.slogdet(a)}
            out |= {"singular slogdet": np_.linalg.slogdet(singular), "singular inv": np_.linalg.inv(singular)}
            out["singular solve"] = np_.linalg.solve(singular, singular[:, :1])
        return out

    got, want = run_named(backend, f, a, rhs, singular)
    (lu, pivots, perm), scale = got["lu"], np.linalg.norm(a)
    np.testing.assert_array_equal(pivots, want["lu"][1])
    np.testing.assert_array_equal(perm, want["lu"][2])
    close(lu, want["lu"][0], dtype, scale)
    close((np.tril(lu, -1) + np.eye(4)) @ np.triu(lu), a[perm], dtype, scale)
    for name in got:
        if name in ("singular inv", "singular solve"):
            for g, w in zip(leaves(got[name]), leaves(want[name])):
                np.testing.assert_array_equal(np.isfinite(g), np.isfinite(w))
                np.testing.assert_array_equal(g[np.isfinite(w)], w[np.isfinite(w)])
        elif name.startswith("singular"):
            for g, w in zip(leaves(got[name]), leaves(want[name])):
                np.testing.assert_array_equal(g, w)
        elif name != "lu":
            for g, w in zip(leaves(got[name]), leaves(want[name])):
                close(g, w, dtype, np.abs(w).max() * 10)
    assert got["singular det"] == 0
    if everything:
        assert got["singular slogdet"][0] == 0 and got["singular slogdet"][1] == -np.inf


@pytest.mark.parametrize("backend", BACKENDS)
def test_lu_batched_and_rectangular(backend):
    """Two batch dimensions (solve of 2x3 matrices), and (through the interpreter)
    their slogdet and the LU of tall and wide matrices (min(m, n) pivots), batched."""
    np_, lx = jnp(), lax_linalg()
    a, rhs = matrix((2, 3, 4, 4), np.float32), matrix((2, 3, 4, 2), np.float32, seed=1)
    tall, wide = matrix((2, 5, 3), np.float32, seed=2), matrix((3, 5), np.float32, seed=3)
    rectangular = backend == "interpreter"

    def f(a, rhs, tall, wide):
        if not rectangular:
            return np_.linalg.solve(a, rhs)
        return np_.linalg.solve(a, rhs), np_.linalg.slogdet(a), lx.lu(tall), lx.lu(wide)

    got, want = run(backend, f, a, rhs, tall, wide)
    for g, w in zip(got[:3], want[:3]):
        close(g, w, np.float32, np.abs(w).max() * 10)
    if not rectangular:
        return
    for (lu, pivots, perm), (wlu, wpivots, wperm), x in zip((got[3:6], got[6:9]), (want[3:6], want[6:9]), (tall, wide)):
        np.testing.assert_array_equal(pivots, wpivots)
        np.testing.assert_array_equal(perm, wperm)
        close(lu, wlu, np.float32, 10)
        m, n = x.shape[-2:]
        k = min(m, n)
        lower = np.tril(lu[..., :, :k], -1) + np.eye(m, k)
        upper = np.triu(lu[..., :k, :])
        close(lower @ upper, np.take_along_axis(x, perm[..., None], axis=-2), np.float32, 10)


# --------------------------------------------------------------------------------------
# geqrf + orgqr/ungqr: qr
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dtype", "backend"), cases([np.float32, np.complex128], jit=[np.complex128]))
def test_qr(dtype, backend):
    """jnp.linalg.qr (reduced, and through the interpreter complete and of a wide
    matrix): Q and R are LAPACK's (as JAX's), Q·R = A, Q unitary, R upper triangular."""
    np_ = jnp()
    tall, wide = matrix((5, 3), dtype), matrix((3, 5), dtype, seed=1)
    every_shape = backend == "interpreter"

    def f(tall, wide):
        if not every_shape:
            return np_.linalg.qr(tall)
        return np_.linalg.qr(tall), np_.linalg.qr(tall, mode="complete"), np_.linalg.qr(wide)

    got, want = run(backend, f, tall, wide)
    for (q, r), (wq, wr), a in zip(zip(got[::2], got[1::2]), zip(want[::2], want[1::2]), (tall, tall, wide)):
        scale = np.linalg.norm(a)
        close(q, wq, dtype, scale)
        close(r, wr, dtype, scale)
        close(q @ r, a, dtype, scale)
        unitary(q, dtype)
        assert np.all(np.tril(r, -1) == 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_batched_rank_deficient(backend):
    """A batch of two f64 matrices, one with a zero column (its reflector the identity,
    tau = 0, as ?larfg makes it: Q and R are JAX's) and one of rank 1 (only Q's first
    column and R's first row are defined; the rest reconstructs A)."""
    np_ = jnp()
    a = matrix((2, 4, 3), np.float64)
    a[0, :, 1] = 0
    a[1] = np.outer(np.arange(1.0, 5.0), [1.0, -2.0, 0.5])
    got, want = run(backend, lambda a: np_.linalg.qr(a), a)
    q, r = got
    close(q[0], want[0][0], np.float64, 10)
    close(r[0], want[1][0], np.float64, 10)
    close(q[1, :, 0], want[0][1, :, 0], np.float64, 10)
    close(r[1, 0], want[1][1, 0], np.float64, 10)
    close(q @ r, a, np.float64, 10)
    unitary(q, np.float64)


# --------------------------------------------------------------------------------------
# syevd/heevd: eigh, eigvalsh
# --------------------------------------------------------------------------------------


def check_eigh(a, w, v, want_w, dtype) -> None:
    scale = np.linalg.norm(a)
    close(a @ v, v * w[..., None, :], dtype, scale)
    unitary(v, dtype)
    assert np.all(np.diff(w, axis=-1) >= 0), "eigenvalues ascending"
    close(w, want_w, dtype, scale)


@pytest.mark.parametrize(("dtype", "backend"), cases([np.float32, np.complex128], jit=[np.complex128]))
def test_eigh(dtype, backend):
    """jnp.linalg.eigh, and eigvalsh (mode 'N', no vectors; through the interpreter):
    A·V = V·Λ, V unitary, the eigenvalues ascending and JAX's."""
    np_ = jnp()
    a = hermitian((6, 6), dtype)
    values_only = backend == "interpreter"
    got, want = run(backend, lambda a: (np_.linalg.eigh(a), np_.linalg.eigvalsh(a) if values_only else ()), a)
    check_eigh(a, got[0], got[1], want[0], dtype)
    if values_only:
        close(got[2], want[2], dtype, np.linalg.norm(a))


@pytest.mark.parametrize("backend", BACKENDS)
def test_eigh_batched_degenerate(backend):
    """A batch of f64 matrices, one with a thrice repeated eigenvalue: an orthonormal
    basis of its eigenspace all the same."""
    lx = lax_linalg()
    basis, _ = np.linalg.qr(matrix((5, 5), np.float64, seed=3))
    degenerate = (basis * [1.0, 1.0, 1.0, 2.0, -3.0]) @ basis.T
    batch = np.stack([hermitian((5, 5), np.float64), degenerate])
    got, want = run(backend, lx.eigh, batch)
    check_eigh(batch, got[1], got[0], want[1], np.float64)


def test_eigh_reads_the_upper_triangle_only():
    """uplo 'U' (lax.linalg.eigh(lower=False) without symmetrization): a garbage lower
    triangle (a NaN too) changes nothing (the interpreter; the JIT runs the same ops but for the
    masks of the triangle)."""
    lx = lax_linalg()
    upper = np.triu(hermitian((4, 4), np.complex64, seed=5)) + np.tril(matrix((4, 4), np.complex64, seed=6), -1)
    upper[3, 0] = np.nan  # never read
    got, want = run("interpreter", lambda a: lx.eigh(a, lower=False, symmetrize_input=False), upper)
    full = np.triu(upper, 1) + adjoint(np.triu(upper, 1)) + np.diag(np.diag(upper).real)
    check_eigh(full.astype(np.complex64), got[1], got[0], want[1], np.complex64)


# --------------------------------------------------------------------------------------
# gesdd: svd and what uses it
# --------------------------------------------------------------------------------------


def check_svd(a, u, s, vt, want_s, dtype) -> None:
    k = s.shape[-1]
    scale = np.linalg.norm(a)
    close((u[..., :k] * s[..., None, :]) @ vt[..., :k, :], a, dtype, scale)
    unitary(u, dtype)
    unitary(adjoint(vt), dtype)
    assert np.all(np.diff(s, axis=-1) <= 0), "singular values descending"
    close(s, want_s, dtype, scale)


@pytest.mark.parametrize(("dtype", "backend"), cases([np.float32, np.complex64, np.complex128], jit=[np.complex64]))
def test_svd(dtype, backend):
    """jnp.linalg.svd with full matrices (mode 'A'), without (mode 'S') and without
    vectors (mode 'N'), of a tall and a wide matrix (the JIT: the full SVD of the wide
    one, through Aᴴ): A = U·Σ·Vᴴ, U and V unitary, the singular values descending and
    JAX's."""
    np_ = jnp()
    tall, wide = matrix((5, 3), dtype), matrix((3, 5), dtype, seed=1)
    every_mode = backend == "interpreter"

    def f(tall, wide):
        if not every_mode:
            return np_.linalg.svd(wide)
        return (
            np_.linalg.svd(wide),
            np_.linalg.svd(tall),
            np_.linalg.svd(wide, full_matrices=False),
            np_.linalg.svd(tall, compute_uv=False),
        )

    got, want = run(backend, f, tall, wide)
    check_svd(wide, *got[0:3], want[1], dtype)
    if every_mode:
        check_svd(tall, *got[3:6], want[4], dtype)
        check_svd(wide, *got[6:9], want[7], dtype)
        close(got[9], want[9], dtype, np.linalg.norm(tall))


@pytest.mark.parametrize("backend", BACKENDS)
def test_svd_batched_rank_deficient(backend):
    """A batch of f64 matrices of rank 2 and 0: the zero singular values' vectors still
    complete U and V to unitary matrices."""
    np_ = jnp()
    a = np.stack([matrix((6, 2), np.float64) @ matrix((2, 4), np.float64, seed=1), np.zeros((6, 4))])
    got, want = run(backend, lambda a: np_.linalg.svd(a), a)
    check_svd(a, *got, want[1], np.float64)
    assert np.all(got[1][0, 2:] < 1e-13) and np.all(got[1][1] == 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_svd_users(backend):
    """What JAX computes with gesdd: norm(ord=2) (mode 'N'), and (through the
    interpreter) pinv and lstsq (mode 'S'), cond, matrix_rank and pinv of a
    rank-deficient matrix."""
    np_ = jnp()
    a, rhs = matrix((6, 4), np.float32), matrix((6, 2), np.float32, seed=1)
    low = (matrix((5, 2), np.float32, seed=2) @ matrix((2, 5), np.float32, seed=3)).astype(np.float32)
    every_use = backend == "interpreter"

    def f(a, rhs, low):
        values = [np_.linalg.norm(a, ord=2)]
        if every_use:
            values += [
                np_.linalg.pinv(a),
                np_.linalg.lstsq(a, rhs)[0],
                np_.linalg.cond(a),
                np_.linalg.matrix_rank(low),
                np_.linalg.pinv(low),
            ]
        return values

    got, want = run(backend, f, a, rhs, low)
    for g, w in zip(got, want):
        close(g, w, np.float32, np.abs(w).max() * 10)
    if every_use:
        assert got[4] == 2


# --------------------------------------------------------------------------------------
# geev: eig, eigvals
# --------------------------------------------------------------------------------------


def check_eig(a, w, vl, vr, want_w, dtype) -> None:
    """A·vr = vr·diag(w), vlᴴ·A = diag(w)·vlᴴ, unit columns with their largest component
    real, and the eigenvalues JAX's (as a set: the order is the Schur form's)."""
    scale = np.linalg.norm(a)
    close(a @ vr, vr * w, dtype, scale)
    close(adjoint(vl) @ a, w[:, None] * adjoint(vl), dtype, scale)
    for v in (vl, vr):
        close(np.linalg.norm(v, axis=0), np.ones(len(w)), dtype)
        largest = v[np.argmax(np.abs(v), axis=0), np.arange(len(w))]
        assert np.all(largest.imag == 0) and np.all(largest.real > 0)
    close([np.min(np.abs(want_w - x)) for x in w], np.zeros(len(w)), dtype, scale)
    close([np.min(np.abs(w - x)) for x in want_w], np.zeros(len(w)), dtype, scale)


@pytest.mark.parametrize(("dtype", "backend"), cases([np.float32, np.complex128], jit=[np.float64]))
def test_eig(dtype, backend):
    """lax.linalg.eig with left and right eigenvectors (the JIT: jnp.linalg.eig, the
    right ones), and eigvals (no vectors): real matrices have complex eigenvalues
    (pairs) and eigenvectors, complex ones too."""
    np_, lx = jnp(), lax_linalg()
    a = matrix((5, 5), dtype)
    everything = backend == "interpreter"

    def f(a):
        if not everything:
            return np_.linalg.eig(a)
        both = lx.eig(a, compute_left_eigenvectors=True)
        return both, lx.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)

    got, want = run(backend, f, a)
    if everything:
        check_eig(a, *got[:3], want[0], dtype)
        close(got[3], got[0], dtype, np.linalg.norm(a))
    else:
        w, vr = got
        close(a @ vr, vr * w, dtype, np.linalg.norm(a))
        close([np.min(np.abs(want[0] - x)) for x in w], np.zeros(len(w)), dtype, np.linalg.norm(a))


def test_eig_defective_and_not_finite():
    """A nilpotent shift matrix (one eigenvector for a five-fold 0: the divisors of the
    back substitution are tiny, the vectors scaled as ?latrs scales them, so none
    overflows: LAPACK's e_1 and e_5), batched with a matrix holding a NaN (info > 0:
    JAX gives NaNs, at once, with no 30·n iterations)."""
    lx = lax_linalg()
    batch = np.stack([np.eye(5, k=-1), np.full((5, 5), np.nan)])
    got, want = run("interpreter", lambda a: lx.eig(a, compute_left_eigenvectors=True), batch)
    w, vl, vr = (x[0] for x in got)
    np.testing.assert_array_equal(w, np.zeros(5))
    close(np.abs(vr), np.abs(want[2][0]), np.float64)
    close(np.abs(vl), np.abs(want[1][0]), np.float64)
    for g, x in zip(got, want):
        assert np.isnan(g[1]).all() and np.isnan(x[1]).all()


def test_not_finite_matrices_give_nans():
    """A NaN in the matrix: eigh, svd and eig give NaNs, as JAX does (LAPACK's NaNs,
    or its error turned into NaNs), at once rather than after every sweep."""
    np_ = jnp()
    a = matrix((4, 4), np.float64)
    a[1, 2] = a[2, 1] = np.nan
    got, want = run("interpreter", lambda a: (np_.linalg.eigh(a), np_.linalg.svd(a), np_.linalg.eigvals(a)), a)
    for g, w in zip(got, want):
        assert np.isnan(g).all() and np.isnan(w).all()
