"""convert-stablehlo-to-xla: JAX's LAPACK custom calls (`lapack_<t><routine>_ffi`, `t` in
s, d, c, z) as xla programs, built on import as XLA's client library builds its linear
algebra from HLO ops (while loops, dynamic slices, iota masks, select, dot_general), so
the interpreter and the JIT run them unchanged.

Each (target, element type, shapes, mode) becomes one private function of the module,
`@__lapack_<t><routine>[_<mode>]_<shape>`, built once with the xla builder
(`xla_opt/builder.py`) and called where the custom call was (`xla.call`); every op
of it takes the custom call's location. Leading dimensions are batch dimensions: the
function runs the routine on each matrix in a while loop.

| routine | results | algorithm |
|---|---|---|
| `getrf` | packed L\\U, 1-based `ipiv`, `info` | right-looking LU with partial pivoting (`getrf`) |
| `geqrf` | packed R and reflectors, `tau` | Householder QR, reflectors as `larfg` makes them |
| `orgqr`, `ungqr` | Q | the reflectors applied to the identity, last first (`org2r`) |
| `syevd`, `heevd` | eigenvectors, eigenvalues, `info` | cyclic Jacobi rotations, then a sort |
| `gesdd` | A, singular values, U, Vᴴ, `info` | one-sided (Hestenes) Jacobi, a sort, U completed by a QR |
| `geev` | eigenvalues, left and right eigenvectors, `info` | Hessenberg, complex shifted QR (Schur), triangular eigenvectors |

The docstring of each routine says which LAPACK contract each of its outputs meets.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ComplexType,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import tensor

from .common import Builder, fail, int_of, result_types

# --------------------------------------------------------------------------------------
# Element types and the small operations every routine uses
# --------------------------------------------------------------------------------------

ELEMENT_TYPES = {
    "s": Float32Type(),
    "d": Float64Type(),
    "c": ComplexType(Float32Type()),
    "z": ComplexType(Float64Type()),
}


@dataclass(frozen=True)
class Num:
    """The element type of a routine: E (the matrix's), R (its real type, of
    eigenvalues, singular values and norms), and whether E is complex."""

    E: Attribute

    @property
    def complex(self) -> bool:
        return isinstance(self.E, ComplexType)

    @property
    def R(self) -> Attribute:
        return self.E.element_type if isinstance(self.E, ComplexType) else self.E  # type: ignore[return-value]

    @property
    def eps(self) -> float:
        """LAPACK's dlamch('E'): the unit roundoff."""
        return float(np.finfo(np.float32 if isinstance(self.R, Float32Type) else np.float64).eps) / 2


def shape(v: SSAValue) -> list[int]:
    assert isinstance(v.type, TensorType)
    return list(v.type.get_shape())


# the constants made in each region (a builder's block), each made once there
_CONSTANTS: WeakKeyDictionary = WeakKeyDictionary()


def const(b, value, dtype) -> SSAValue:
    """A constant (a scalar, or an array) of `dtype`, made once per region."""
    array = np.asarray(value)
    key = (array.tobytes(), array.shape, array.dtype.str, str(dtype))
    made = _CONSTANTS.setdefault(b, {})
    if key not in made:
        made[key] = b.constant(value, dtype)
    return made[key]


def full(b, value, dtype, dims: Sequence[int]) -> SSAValue:
    """A splat constant of shape `dims` (one op: no broadcast to lower)."""
    return const(b, np.full(list(dims), value), dtype)


def s32(b, value: int) -> SSAValue:
    return const(b, value, i32)


def conj(b, t: Num, x: SSAValue) -> SSAValue:
    """The complex conjugate, exactly: the parts as a minor dimension of 2, the imaginary
    one negated (x of a real type is itself)."""
    if not t.complex:
        return x
    dims = shape(x)
    parts = b.bitcast_convert(x, t.R)
    signs = b.broadcast_in_dim(const(b, np.array([1.0, -1.0]), t.R), [*dims, 2], [len(dims)])
    return b.bitcast_convert(b.mul(parts, signs), t.E)


def make_complex(b, t: Num, re: SSAValue, im: SSAValue) -> SSAValue:
    """re + i·im of type E, exactly (a bitcast of the interleaved parts)."""
    dims = shape(re)
    pair = [b.reshape(v, [*dims, 1]) for v in (re, im)]
    return b.bitcast_convert(b.concat_in_dim(pair, len(dims)), t.E)


def to_e(b, t: Num, re: SSAValue) -> SSAValue:
    """A real value as type E (exact: the imaginary part 0)."""
    return b.convert(re, t.E) if t.complex else re


def abs2(b, t: Num, x: SSAValue) -> SSAValue:
    """|x|², of type R."""
    if not t.complex:
        return b.mul(x, x)
    re, im = b.real(x), b.imag(x)
    return b.add(b.mul(re, re), b.mul(im, im))


def real(b, t: Num, x: SSAValue) -> SSAValue:
    return b.real(x) if t.complex else x


def inner(b, t: Num, x: SSAValue, y: SSAValue) -> SSAValue:
    """xᴴ·y of two vectors, a scalar of type E (one dot_general: no reduce region)."""
    return b.dot_general(conj(b, t, x), y, [0], [0])


def norm2(b, t: Num, x: SSAValue) -> SSAValue:
    """‖x‖² of a vector, a scalar of type R."""
    return real(b, t, inner(b, t, x, x))


def total(b, x: SSAValue, dims: Sequence[int]) -> SSAValue:
    return b.reduce(x, const(b, 0, _elem(x)), lambda c, u, v: c.add(u, v), list(dims))


def _elem(x: SSAValue) -> Attribute:
    assert isinstance(x.type, TensorType)
    return x.type.get_element_type()


def entry(b, a: SSAValue, i, j) -> SSAValue:
    """a[i, j], a scalar (i, j: s32 scalars or Python ints)."""
    return b.reshape(b.dynamic_slice(a, [i, j], [1, 1]), [])


def element(b, v: SSAValue, i) -> SSAValue:
    """v[i] of a vector, a scalar."""
    return b.reshape(b.dynamic_slice(v, [i], [1]), [])


def column(b, a: SSAValue, j) -> SSAValue:
    m, _ = shape(a)
    return b.reshape(b.dynamic_slice(a, [s32(b, 0), j], [m, 1]), [m])


def set_column(b, a: SSAValue, j, col: SSAValue) -> SSAValue:
    m, _ = shape(a)
    return b.dynamic_update_slice(a, b.reshape(col, [m, 1]), [s32(b, 0), j])


def row(b, a: SSAValue, i) -> SSAValue:
    _, n = shape(a)
    return b.reshape(b.dynamic_slice(a, [i, s32(b, 0)], [1, n]), [n])


def set_row(b, a: SSAValue, i, r: SSAValue) -> SSAValue:
    _, n = shape(a)
    return b.dynamic_update_slice(a, b.reshape(r, [1, n]), [i, s32(b, 0)])


def set_entry(b, a: SSAValue, i, j, value: SSAValue) -> SSAValue:
    return b.dynamic_update_slice(a, b.reshape(value, [1, 1]), [i, j])


def outer(b, u: SSAValue, v: SSAValue) -> SSAValue:
    """u vᵀ (no conjugation)."""
    (m,), (n,) = shape(u), shape(v)
    return b.mul(b.broadcast_in_dim(u, [m, n], [0]), b.broadcast_in_dim(v, [m, n], [1]))


def conj_dot(b, t: Num, v: SSAValue, a: SSAValue) -> SSAValue:
    """vᴴ a: v of shape [m], a of shape [m, n] -> [n]."""
    return b.dot_general(conj(b, t, v), a, [0], [0])


def identity(b, t: Num, m: int, n: int) -> SSAValue:
    """The m x n identity (ones on the main diagonal)."""
    eq = b.eq(b.iota([m, n], i32, 0), b.iota([m, n], i32, 1))
    return b.select(eq, full(b, 1.0, t.E, [m, n]), full(b, 0.0, t.E, [m, n]))


def adjoint(b, t: Num, a: SSAValue) -> SSAValue:
    """aᴴ (aᵀ for a real type)."""
    return conj(b, t, b.transpose(a, [1, 0]))


def all_finite(b, t: Num, a: SSAValue) -> SSAValue:
    """Whether every entry of a matrix is finite (a PRED scalar)."""
    finite = b.is_finite(b.add(b.real(a), b.imag(a)) if t.complex else a)
    return b.reduce(finite, const(b, True, "pred"), lambda c, x, y: c.and_(x, y), [0, 1])


def unless_finite(b, t: Num, finite: SSAValue, values: Sequence[SSAValue]) -> list[SSAValue]:
    """The values, or NaNs if not `finite` (LAPACK's results of a matrix holding a NaN
    or an infinity are NaNs, or an error JAX turns into NaNs)."""
    out = []
    for v in values:
        nan = full(b, np.nan, _elem(v), shape(v))
        out.append(b.select(b.broadcast(finite, shape(v)) if shape(v) else finite, v, nan))
    return out


def counted_loop(b, count: int, body: Callable, state: Sequence[SSAValue]) -> list[SSAValue]:
    """for i in range(count): state = body(builder, i, *state); i is an s32 scalar."""

    def cond(s, i, *_):
        return s.lt(i, s32(s, count))

    def step(s, i, *rest):
        return [s.add(i, s32(s, 1)), *body(s, i, *rest)]

    results = b.while_(cond, step, [s32(b, 0), *state])
    return list(results[1:])


# --------------------------------------------------------------------------------------
# getrf: LU with partial pivoting
# --------------------------------------------------------------------------------------


def cabs1(b, t: Num, x: SSAValue) -> SSAValue:
    """|Re x| + |Im x| (|x| for a real type), LAPACK's cheap magnitude."""
    return b.add(b.abs(b.real(x)), b.abs(b.imag(x))) if t.complex else b.abs(x)


def getrf(b, t: Num, a: SSAValue) -> list[SSAValue]:
    """LU with partial pivoting of an m x n matrix, LAPACK's ?getrf contract:

    - `lu` (m x n): L below the diagonal (unit diagonal implied) and U on and above it,
      with P·A = L·U;
    - `ipiv` (min(m, n), s32): row i was interchanged with row ipiv[i] (1-based), in
      order; the pivot is the first entry of largest magnitude in its column (|x| for a
      real type, |Re x| + |Im x| for a complex one, as i?amax measures; NaNs passed
      over, but for one on the diagonal, as i?amax's comparisons do);
    - `info` (s32): 0, or the 1-based index of the first exactly zero pivot (U is
      singular; the factorization is completed, the column below that pivot left
      unscaled, as LAPACK does).

    The multipliers are the column times the pivot's reciprocal, as ?getf2 scales."""
    m, n = shape(a)
    k = min(m, n)

    def step(s, j, a, ipiv, info):
        zero, one = s32(s, 0), s32(s, 1)
        rows = s.iota([m], i32)
        col = column(s, a, j)
        mag = cabs1(s, t, col)
        # i?amax: the first of the largest, NaNs passed over, but a NaN at j itself wins
        at_j = element(s, mag, j)
        first_nan = s.ne(at_j, at_j)
        mag = s.select(s.and_(s.ge(rows, j), s.eq(mag, mag)), mag, full(s, -1.0, t.R, [m]))
        largest = s.reduce(mag, const(s, -np.inf, t.R), lambda c, x, y: c.max(x, y), [0])
        candidates = s.select(s.eq(mag, largest), rows, full(s, m, i32, [m]))
        p = s.reduce(candidates, s32(s, m), lambda c, x, y: c.min(x, y), [0])
        p = s.select(s.or_(first_nan, s.lt(largest, const(s, 0.0, t.R))), j, p)
        ipiv = s.dynamic_update_slice(ipiv, s.reshape(s.add(p, one), [1]), [j])
        row_j, row_p = row(s, a, j), row(s, a, p)
        a = set_row(s, set_row(s, a, j, row_p), p, row_j)
        pivot = entry(s, a, j, j)
        nonzero = s.ne(pivot, const(s, 0.0, t.E))
        info = s.select(s.and_(s.eq(info, zero), s.not_(nonzero)), s.add(j, one), info)
        col = column(s, a, j)
        below = s.and_(s.gt(rows, j), s.broadcast(nonzero, [m]))
        lower = s.select(below, s.mul(col, s.div(const(s, 1.0, t.E), pivot)), col)
        r2, c2 = s.iota([m, n], i32, 0), s.iota([m, n], i32, 1)
        trailing = s.and_(s.gt(r2, j), s.gt(c2, j))
        a = s.select(trailing, s.sub(a, outer(s, lower, row_p)), a)
        return set_column(s, a, j, lower), ipiv, info

    lu, ipiv, info = counted_loop(b, k, step, [a, full(b, 0, i32, [k]), s32(b, 0)])
    return [lu, ipiv, info]


# --------------------------------------------------------------------------------------
# geqrf, orgqr/ungqr: Householder QR
# --------------------------------------------------------------------------------------


def _reflector(s, t: Num, col: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """?larfg on col[j:]: (beta, v, tau) with H = I - tau·v·vᴴ, Hᴴ·col[j:] = (beta, 0...),
    beta real, v[j] = 1, v zero above j; tau = 0 (H = I, beta = col[j], v below j =
    col's) when col[j+1:] is zero and col[j] real."""
    (m,) = shape(col)
    rows = s.iota([m], i32)
    below = s.gt(rows, j)
    zeros = full(s, 0.0, t.E, [m])
    x = s.select(below, col, zeros)
    xnorm2 = norm2(s, t, x)
    alpha = element(s, col, j)
    alphr = real(s, t, alpha)
    alphi = s.imag(alpha) if t.complex else const(s, 0.0, t.R)
    zero_r = const(s, 0.0, t.R)
    identity_h = s.and_(s.eq(xnorm2, zero_r), s.eq(alphi, zero_r))
    norm = s.sqrt(s.add(s.add(s.mul(alphr, alphr), s.mul(alphi, alphi)), xnorm2))
    beta = s.select(s.ge(alphr, zero_r), s.neg(norm), norm)  # -sign(alphr)·norm
    tau_re = s.div(s.sub(beta, alphr), beta)
    tau = make_complex(s, t, tau_re, s.div(s.neg(alphi), beta)) if t.complex else tau_re
    scale = s.div(const(s, 1.0, t.E), s.sub(alpha, to_e(s, t, beta)))
    tau = s.select(identity_h, const(s, 0.0, t.E), tau)
    v = s.select(identity_h, x, s.mul(x, scale))
    v = s.select(s.eq(rows, j), full(s, 1.0, t.E, [m]), v)
    beta_e = s.select(identity_h, alpha, to_e(s, t, beta))
    return beta_e, v, tau


def geqrf(b, t: Num, a: SSAValue) -> list[SSAValue]:
    """Householder QR of an m x n matrix, LAPACK's ?geqrf contract:

    - `a` (m x n): R on and above the diagonal; below it, the vectors v_i of the
      reflectors H_i = I - tau_i·v_i·v_iᴴ (v_i[i] = 1 implied, zero above);
      A = Q·R with Q = H_0·H_1·...·H_(k-1), k = min(m, n);
    - `tau` (k): the reflectors' scalars; each H_i is made as ?larfg makes it, so R's
      diagonal is real with the sign opposite to the pivot's real part (Q and R are
      LAPACK's, not only up to signs)."""
    m, n = shape(a)
    k = min(m, n)

    def step(s, j, a, taus):
        rows = s.iota([m], i32)
        col = column(s, a, j)
        beta, v, tau = _reflector(s, t, col, j)
        # Hᴴ applied to the columns right of j: a - conj(tau)·v·(vᴴ a)
        w = conj_dot(s, t, v, a)
        update = s.mul(outer(s, v, w), conj(s, t, tau))
        r2, c2 = s.iota([m, n], i32, 0), s.iota([m, n], i32, 1)
        right = s.and_(s.ge(r2, j), s.gt(c2, j))
        a = s.select(right, s.sub(a, update), a)
        packed = s.select(s.eq(rows, j), s.broadcast(beta, [m]), s.select(s.gt(rows, j), v, col))
        taus = s.dynamic_update_slice(taus, s.reshape(tau, [1]), [j])
        return set_column(s, a, j, packed), taus

    a, taus = counted_loop(b, k, step, [a, full(b, 0.0, t.E, [k])])
    return [a, taus]


def orgqr(b, t: Num, a: SSAValue, taus: SSAValue) -> list[SSAValue]:
    """Q of a QR factorization, LAPACK's ?orgqr/?ungqr contract: `a` (m x n) holds k
    reflectors (k = len(tau)) below the diagonal of its first k columns, as ?geqrf
    leaves them; the result is the first n columns of Q = H_0·H_1·...·H_(k-1),
    formed as ?org2r does: the identity's columns with H_(k-1) applied first."""
    m, n = shape(a)
    (k,) = shape(taus)

    def step(s, i, q, a, taus):
        j = s.sub(s32(s, k - 1), i)
        rows = s.iota([m], i32)
        col = column(s, a, j)
        v = s.select(s.gt(rows, j), col, full(s, 0.0, t.E, [m]))
        v = s.select(s.eq(rows, j), full(s, 1.0, t.E, [m]), v)
        tau = element(s, taus, j)
        w = conj_dot(s, t, v, q)
        update = s.sub(q, s.mul(outer(s, v, w), tau))
        right = s.ge(s.iota([m, n], i32, 1), j)  # columns left of j hold e_c: untouched, as ?org2r leaves them
        return [s.select(right, update, q), a, taus]

    q, _, _ = counted_loop(b, k, step, [identity(b, t, m, n), a, taus])
    return [q]


# --------------------------------------------------------------------------------------
# Jacobi rotations: syevd/heevd and gesdd
# --------------------------------------------------------------------------------------


def _rotation(s, t: Num, app: SSAValue, aqq: SSAValue, apq: SSAValue, skip: SSAValue):
    """The Jacobi rotation J = [[c, sc], [-conj(sc), c]] of rows/columns p, q that makes
    Jᴴ·[[app, apq], [conj(apq), aqq]]·J diagonal (app, aqq real, apq of type E):
    returns (c of type E, sc, t·|apq|), the identity where `skip` or apq = 0.
    t = sign(τ)/(|τ| + sqrt(1 + τ²)), τ = (aqq - app)/(2|apq|) (Golub and Van Loan's
    sym.schur2, with apq's phase moved into sc); the new diagonal is
    (app - t·|apq|, aqq + t·|apq|)."""
    R = t.R
    mag = s.abs(apq)
    zero = const(s, 0.0, R)
    one = const(s, 1.0, R)
    identity_j = s.or_(skip, s.le(mag, zero))
    safe = s.select(identity_j, one, mag)
    tau = s.div(s.sub(aqq, app), s.mul(const(s, 2.0, R), safe))
    abs_tau = s.abs(tau)
    sign = s.select(s.ge(tau, zero), one, s.neg(one))
    tan = s.div(sign, s.add(abs_tau, s.sqrt(s.add(one, s.mul(tau, tau)))))
    huge = s.gt(abs_tau, const(s, 1.0 / t.eps, R))  # τ² would overflow: t ≈ 1/(2τ)
    tan = s.select(huge, s.div(const(s, 0.5, R), tau), tan)
    tan = s.select(identity_j, zero, tan)
    c = s.rsqrt(s.add(one, s.mul(tan, tan)))
    sn = s.mul(tan, c)
    phase = s.div(apq, to_e(s, t, safe)) if t.complex else s.select(s.ge(apq, zero), one, s.neg(one))
    sc = s.mul(phase, to_e(s, t, sn))
    return to_e(s, t, c), sc, s.mul(tan, mag)


def _rotate_columns(s, a: SSAValue, p, q, c, sc, sc_conj) -> SSAValue:
    """a·J on columns p, q: a_p' = c·a_p - conj(sc)·a_q, a_q' = sc·a_p + c·a_q."""
    ap, aq = column(s, a, p), column(s, a, q)
    new_p = s.sub(s.mul(ap, c), s.mul(aq, sc_conj))
    new_q = s.add(s.mul(ap, sc), s.mul(aq, c))
    return set_column(s, set_column(s, a, p, new_p), q, new_q)


def _rotate_rows(s, a: SSAValue, p, q, c, sc, sc_conj) -> SSAValue:
    """Jᴴ·a on rows p, q: a_p' = c·a_p - sc·a_q, a_q' = conj(sc)·a_p + c·a_q."""
    ap, aq = row(s, a, p), row(s, a, q)
    new_p = s.sub(s.mul(ap, c), s.mul(aq, sc))
    new_q = s.add(s.mul(ap, sc_conj), s.mul(aq, c))
    return set_row(s, set_row(s, a, p, new_p), q, new_q)


def _pairs_loop(b, n: int, body: Callable, state: Sequence[SSAValue]) -> list[SSAValue]:
    """One cyclic sweep: body(builder, p, q, *state) for p < q in row order."""
    count = n * (n - 1) // 2
    if count == 0:
        return list(state)

    def step(s, _, p, q, *rest):
        rest = body(s, p, q, *rest)
        last = s.ge(q, s32(s, n - 1))
        next_p = s.select(last, s.add(p, s32(s, 1)), p)
        next_q = s.select(last, s.add(next_p, s32(s, 1)), s.add(q, s32(s, 1)))
        return [next_p, next_q, *rest]

    results = counted_loop(b, count, step, [s32(b, 0), s32(b, 1), *state])
    return results[2:]


def _sweeps(b, limit: int, sweep: Callable, converged: Callable, state: Sequence[SSAValue]) -> list[SSAValue]:
    """state = sweep(builder, *state) until converged(builder, *state) or `limit` sweeps."""

    def cond(s, i, *rest):
        return s.and_(s.lt(i, s32(s, limit)), s.not_(converged(s, *rest)))

    def body(s, i, *rest):
        return [s.add(i, s32(s, 1)), *sweep(s, *rest)]

    return list(b.while_(cond, body, [s32(b, 0), *state])[1:])


MAX_SWEEPS = 40


def _hermitian(b, t: Num, a: SSAValue, lower: bool) -> SSAValue:
    """The Hermitian matrix whose `lower` (else upper) triangle a holds: the other
    triangle is ignored, and so is the diagonal's imaginary part, as ?heevd does."""
    n, _ = shape(a)
    r2, c2 = b.iota([n, n], i32, 0), b.iota([n, n], i32, 1)
    stored = b.gt(r2, c2) if lower else b.lt(r2, c2)
    mirrored = b.lt(r2, c2) if lower else b.gt(r2, c2)
    h = b.select(stored, a, full(b, 0.0, t.E, [n, n]))
    h = b.select(mirrored, adjoint(b, t, a), h)
    diagonal = to_e(b, t, real(b, t, a))
    return b.select(b.eq(r2, c2), diagonal, h)


def syevd(b, t: Num, a: SSAValue, vectors: bool, lower: bool) -> list[SSAValue]:
    """Eigenvalues (and eigenvectors) of a Hermitian n x n matrix, LAPACK's
    ?syevd/?heevd contract:

    - `a` (n x n): with vectors (mode 'V'), the orthonormal eigenvectors as columns,
      column i for eigenvalue i (their signs/phases are free); else the input;
    - `w` (n, real): the eigenvalues in ascending order;
    - `info`: 0; 1 for a matrix holding a NaN or an infinity (its results NaNs).

    Only the `lower` (uplo 'L') or upper triangle is read. Cyclic Jacobi: sweeps of
    rotations of every pair (p, q), p < q, each making a_pq zero, until the
    off-diagonal Frobenius norm is at most eps·‖A‖_F (or MAX_SWEEPS sweeps); the
    eigenvalues are the diagonal, sorted with the columns of the rotations' product."""
    n, _ = shape(a)
    h = _hermitian(b, t, a, lower)
    finite = all_finite(b, t, h)  # of the triangle read
    fro2 = total(b, abs2(b, t, h), [0, 1])
    tol2 = b.mul(fro2, const(b, t.eps * t.eps, t.R))
    v = identity(b, t, n, n)

    def rotate(s, p, q, h, v, tol2):
        app, aqq = real(s, t, entry(s, h, p, p)), real(s, t, entry(s, h, q, q))
        apq = entry(s, h, p, q)
        c, sc, shift = _rotation(s, t, app, aqq, apq, const(s, False, "pred"))
        rotation = (p, q, c, sc, conj(s, t, sc))
        h = _rotate_columns(s, _rotate_rows(s, h, *rotation), *rotation)
        zero = const(s, 0.0, t.E)
        h = set_entry(s, set_entry(s, h, p, q, zero), q, p, zero)
        h = set_entry(s, h, p, p, to_e(s, t, s.sub(app, shift)))
        h = set_entry(s, h, q, q, to_e(s, t, s.add(aqq, shift)))
        return [h, _rotate_columns(s, v, *rotation) if vectors else v, tol2]

    def converged(s, h, v, tol2):
        off = s.select(s.ne(s.iota([n, n], i32, 0), s.iota([n, n], i32, 1)), h, full(s, 0.0, t.E, [n, n]))
        off2 = total(s, abs2(s, t, off), [0, 1])
        return s.or_(s.le(off2, tol2), s.ne(off2, off2))  # or a NaN: no sweep makes it better

    h, v, _ = _sweeps(b, MAX_SWEEPS, lambda s, *st: _pairs_loop(s, n, rotate, st), converged, [h, v, tol2])
    diag = b.eq(b.iota([n, n], i32, 0), b.iota([n, n], i32, 1))
    w = total(b, real(b, t, b.select(diag, h, full(b, 0.0, t.E, [n, n]))), [0])
    keys = b.broadcast_in_dim(w, [n, n], [1])
    ascending = lambda c, x, y, *_: c.lt(x, y)  # noqa: E731
    keys, v = b.sort([keys, v], ascending, dimension=1, is_stable=True)
    w = b.reshape(b.slice(keys, [0, 0], [1, n]), [n])
    w, v = unless_finite(b, t, finite, [w, v])
    return [v if vectors else a, w, b.select(finite, s32(b, 0), s32(b, 1))]


def _one_sided_jacobi(b, t: Num, a: SSAValue, vectors: bool) -> tuple[SSAValue, SSAValue, SSAValue]:
    """Hestenes' one-sided Jacobi on an m x n matrix, m >= n: rotations J of column
    pairs until every pair is orthogonal to eps·sqrt(m) (|a_pᴴ a_q| <= tol·‖a_p‖‖a_q‖),
    as ?gesvj does. Returns (W = A·V with orthogonal columns, V, sigma = the columns'
    norms), the columns sorted by descending sigma."""
    m, n = shape(a)
    tol = t.eps * math.sqrt(m)

    def rotate(s, p, q, w, v, worst):
        wp, wq = column(s, w, p), column(s, w, q)
        alpha, beta, gamma = norm2(s, t, wp), norm2(s, t, wq), inner(s, t, wp, wq)
        scale = s.mul(s.sqrt(alpha), s.sqrt(beta))
        ratio = s.div(s.abs(gamma), s.select(s.gt(scale, const(s, 0.0, t.R)), scale, const(s, 1.0, t.R)))
        skip = s.le(ratio, const(s, tol, t.R))
        c, sc, _ = _rotation(s, t, alpha, beta, gamma, skip)
        rotation = (p, q, c, sc, conj(s, t, sc))
        w = _rotate_columns(s, w, *rotation)
        v = _rotate_columns(s, v, *rotation) if vectors else v
        return [w, v, s.max(worst, ratio)]

    def sweep(s, w, v, _):
        return _pairs_loop(s, n, rotate, [w, v, const(s, 0.0, t.R)])

    def converged(s, w, v, worst):  # or a NaN: no sweep makes it better
        return s.or_(s.le(worst, const(s, tol, t.R)), s.ne(worst, worst))

    w, v, _ = _sweeps(b, MAX_SWEEPS, sweep, converged, [a, identity(b, t, n, n), const(b, np.inf, t.R)])
    sigma = b.sqrt(total(b, abs2(b, t, w), [0]))
    descending = lambda c, x, y, *_: c.gt(x, y)  # noqa: E731
    keys, w = b.sort([b.broadcast_in_dim(sigma, [m, n], [1]), w], descending, dimension=1, is_stable=True)
    if vectors:  # by the same keys, so in the same order
        _, v = b.sort([b.broadcast_in_dim(sigma, [n, n], [1]), v], descending, dimension=1, is_stable=True)
    return w, v, b.reshape(b.slice(keys, [0, 0], [1, n]), [n])


def _left_vectors(b, t: Num, w: SSAValue, sigma: SSAValue, full_matrices: bool) -> SSAValue:
    """U from W = U·Σ: the columns w_i/sigma_i made exactly orthonormal and completed
    (columns of a zero sigma, and the m - n more of a full U) by a Householder QR of
    them: W/Σ = Q·R with R's diagonal of unit modulus where W/Σ is orthonormal, so
    U = Q·diag(phase of R's diagonal), 1 where that diagonal is 0."""
    m, n = shape(w)
    positive = b.gt(sigma, const(b, 0.0, t.R))
    inverse = b.select(positive, b.div(const(b, 1.0, t.R), sigma), full(b, 0.0, t.R, [n]))
    u1 = b.mul(w, b.broadcast_in_dim(to_e(b, t, inverse), [m, n], [1]))
    packed, taus = geqrf(b, t, u1)
    diag_mask = b.eq(b.iota([m, n], i32, 0), b.iota([m, n], i32, 1))
    d = total(b, b.select(diag_mask, packed, full(b, 0.0, t.E, [m, n])), [0])
    cols = m if full_matrices else n
    if cols > n:
        packed = b.pad(packed, const(b, 0.0, t.E), [(0, 0, 0), (0, cols - n, 0)])
    (q,) = orgqr(b, t, packed, taus)
    mag = b.abs(d)
    nonzero = b.gt(mag, const(b, 0.0, t.R))
    phase = b.select(
        nonzero, b.div(d, to_e(b, t, b.select(nonzero, mag, full(b, 1.0, t.R, [n])))), full(b, 1.0, t.E, [n])
    )
    if cols > n:
        phase = b.concat_in_dim([phase, full(b, 1.0, t.E, [cols - n])], 0)
    return b.mul(q, b.broadcast_in_dim(phase, [m, cols], [1]))


def gesdd(b, t: Num, a: SSAValue, mode: str) -> list[SSAValue]:
    """The singular value decomposition A = U·Σ·Vᴴ of an m x n matrix, LAPACK's
    ?gesdd contract (jobz = mode):

    - `a`: the input (LAPACK leaves it destroyed);
    - `s` (min(m, n), real): the singular values, descending;
    - `u`: 'A': m x m unitary; 'S': the first min(m, n) columns; 'N': zeros;
    - `vt`: Vᴴ, 'A': n x n unitary; 'S': its first min(m, n) rows; 'N': zeros;
    - `info`: 0; 1 for a matrix holding a NaN or an infinity (its results NaNs).

    One-sided Jacobi on A (m >= n) or Aᴴ (m < n, whose U and V are A's V and U)."""
    m, n = shape(a)
    vectors = mode in ("A", "S")
    full_matrices = mode == "A"
    tall = m >= n
    work = a if tall else adjoint(b, t, a)
    w, v, sigma = _one_sided_jacobi(b, t, work, vectors)
    finite = all_finite(b, t, a)
    info = b.select(finite, s32(b, 0), s32(b, 1))
    (sigma,) = unless_finite(b, t, finite, [sigma])
    if not vectors:
        return [a, sigma, full(b, 0.0, t.E, [m, m]), full(b, 0.0, t.E, [n, n]), info]
    left = _left_vectors(b, t, w, sigma, full_matrices)  # of `work`
    if tall:
        u, vt = left, adjoint(b, t, v)
    else:
        u, vt = v, adjoint(b, t, left)
    u, vt = unless_finite(b, t, finite, [u, vt])
    return [a, sigma, u, vt, info]


# --------------------------------------------------------------------------------------
# geev: eigenvalues and eigenvectors of a general matrix
# --------------------------------------------------------------------------------------


def _diagonal(b, t: Num, a: SSAValue) -> SSAValue:
    n, _ = shape(a)
    mask = b.eq(b.iota([n, n], i32, 0), b.iota([n, n], i32, 1))
    return total(b, b.select(mask, a, full(b, 0.0, t.E, [n, n])), [0])


def _hessenberg(b, t: Num, a: SSAValue) -> tuple[SSAValue, SSAValue]:
    """?gehrd and ?unghr: A = Q·H·Qᴴ with H upper Hessenberg, Q unitary; reflector j
    (?larfg of column j below its subdiagonal) applied as A := H_jᴴ·A·H_j."""
    n, _ = shape(a)

    def step(s, j, a, q):
        _, v, tau = _reflector(s, t, column(s, a, j), s.add(j, s32(s, 1)))
        a = s.sub(a, s.mul(outer(s, v, conj_dot(s, t, v, a)), conj(s, t, tau)))
        a = s.sub(a, s.mul(outer(s, s.dot(a, v), conj(s, t, v)), tau))
        q = s.sub(q, s.mul(outer(s, s.dot(q, v), conj(s, t, v)), tau))
        rows = s.iota([n], i32)  # the column below the subdiagonal: exactly zero
        col = s.select(s.gt(rows, s.add(j, s32(s, 1))), full(s, 0.0, t.E, [n]), column(s, a, j))
        return set_column(s, a, j, col), q

    return tuple(counted_loop(b, max(n - 2, 0), step, [a, identity(b, t, n, n)]))  # type: ignore[return-value]


def _givens(s, t: Num, f: SSAValue, g: SSAValue) -> tuple[SSAValue, SSAValue]:
    """?lartg: (c real as E, sn) with [[c, sn], [-conj(sn), c]]·(f, g) = (r, 0)."""
    R = t.R
    af, ag = s.abs(f), s.abs(g)
    norm = s.sqrt(s.add(s.mul(af, af), s.mul(ag, ag)))
    zero = const(s, 0.0, R)
    safe_norm = s.select(s.gt(norm, zero), norm, const(s, 1.0, R))
    safe_af = s.select(s.gt(af, zero), af, const(s, 1.0, R))
    c = s.div(af, safe_norm)
    # f/|f| (1 where f = 0) times conj(g)/norm
    phase = s.select(s.gt(af, zero), s.div(f, to_e(s, t, safe_af)), const(s, 1.0, t.E))
    sn = s.mul(phase, s.div(conj(s, t, g), to_e(s, t, safe_norm)))
    c = s.select(s.gt(norm, zero), c, const(s, 1.0, R))
    return to_e(s, t, c), sn


def _rotate_pair_rows(s, a: SSAValue, k, c, sn, sn_conj) -> SSAValue:
    """G·a on rows k, k+1, G = [[c, sn], [-conj(sn), c]]."""
    k1 = s.add(k, s32(s, 1))
    x, y = row(s, a, k), row(s, a, k1)
    new_x = s.add(s.mul(x, c), s.mul(y, sn))
    new_y = s.sub(s.mul(y, c), s.mul(x, sn_conj))
    return set_row(s, set_row(s, a, k, new_x), k1, new_y)


def _rotate_pair_columns(s, a: SSAValue, k, c, sn, sn_conj) -> SSAValue:
    """a·Gᴴ on columns k, k+1."""
    k1 = s.add(k, s32(s, 1))
    x, y = column(s, a, k), column(s, a, k1)
    new_x = s.add(s.mul(x, c), s.mul(y, sn_conj))
    new_y = s.sub(s.mul(y, c), s.mul(x, sn))
    return set_column(s, set_column(s, a, k, new_x), k1, new_y)


def _schur(b, t: Num, h: SSAValue, q: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """?lahqr (complex, wantt and wantz): the Schur form T = Qᴴ·A·Q of an upper
    Hessenberg matrix by single-shift QR sweeps (bulges chased by Givens rotations of
    whole rows and columns) on the active window [lo, hi]: a subdiagonal entry at most
    eps·(|h_kk| + |h_k-1,k-1|) is set to zero (deflation), hi moves up past the 1 x 1
    blocks; the shift is the eigenvalue of the window's trailing 2 x 2 block nearer its
    last entry (Wilkinson's), an exceptional one after 10 and 20 sweeps without
    deflation. Returns (T, Q, info: 0, or hi + 1 if 30·n sweeps did not converge or
    the matrix holds a NaN or an infinity)."""
    n, _ = shape(h)
    R = t.R
    tiny = float(np.finfo(np.float32 if isinstance(R, Float32Type) else np.float64).tiny)

    def cond(s, it, its, hi, h, q):
        finite = s.reduce(s.is_finite(cabs1(s, t, h)), const(s, True, "pred"), lambda c, x, y: c.and_(x, y), [0, 1])
        return s.and_(s.and_(s.gt(hi, s32(s, 0)), s.lt(it, s32(s, 30 * max(n, 10)))), finite)

    def body(s, it, its, hi, h, q):
        zero_r = const(s, 0.0, R)
        r2, c2 = s.iota([n, n], i32, 0), s.iota([n, n], i32, 1)
        sub_mask = s.eq(c2, s.sub(r2, s32(s, 1)))
        magnitude = cabs1(s, t, h)
        sub = total(s, s.select(sub_mask, magnitude, full(s, 0.0, R, [n, n])), [1])  # |h_k,k-1|, 0 at k = 0
        diag = total(s, s.select(s.eq(r2, c2), magnitude, full(s, 0.0, R, [n, n])), [1])
        above = s.concat_in_dim([const(s, np.zeros(1), R), s.slice(diag, [0], [n - 1])], 0)  # |h_k-1,k-1|
        scale = s.add(diag, above)
        negligible = s.or_(s.le(sub, s.mul(scale, const(s, t.eps, R))), s.le(sub, const(s, tiny, R)))
        h = s.select(s.and_(sub_mask, s.broadcast_in_dim(negligible, [n, n], [0])), full(s, 0.0, t.E, [n, n]), h)
        ks = s.iota([n], i32)
        live = s.and_(s.not_(negligible), s.le(ks, hi))  # k >= 1 with h_k,k-1 kept
        new_hi = s.reduce(s.select(live, ks, full(s, 0, i32, [n])), s32(s, 0), lambda c, x, y: c.max(x, y), [0])
        cut = s.and_(negligible, s.le(ks, new_hi))
        lo = s.reduce(s.select(cut, ks, full(s, 0, i32, [n])), s32(s, 0), lambda c, x, y: c.max(x, y), [0])
        its = s.select(s.lt(new_hi, hi), s32(s, 0), its)
        # Wilkinson's shift from [[a, b], [c, d]] at rows/columns new_hi-1, new_hi
        last, before = new_hi, s.sub(new_hi, s32(s, 1))
        a_, b_, c_, d_ = (
            entry(s, h, i, j) for i, j in ((before, before), (before, last), (last, before), (last, last))
        )
        x = s.mul(s.sub(a_, d_), const(s, 0.5, t.E))
        y = s.sqrt(s.add(s.mul(x, x), s.mul(b_, c_))) if t.complex else None
        assert y is not None
        flip = s.lt(s.add(s.mul(s.real(x), s.real(y)), s.mul(s.imag(x), s.imag(y))), zero_r)
        y = s.select(flip, s.neg(y), y)
        denominator = s.add(x, y)
        nonzero = s.gt(s.abs(denominator), zero_r)
        safe = s.select(nonzero, denominator, const(s, 1.0, t.E))
        shift = s.select(nonzero, s.sub(d_, s.div(s.mul(b_, c_), safe)), d_)
        exceptional = s.or_(s.eq(its, s32(s, 10)), s.eq(its, s32(s, 20)))
        shift = s.select(exceptional, s.add(d_, to_e(s, t, s.mul(s.abs(c_), const(s, 0.75, R)))), shift)

        def chase(s, i, steps, lo, shift, h, q):
            """Rotation i of the sweep, of rows/columns k = lo + i and k + 1: the first
            from the shifted column, the others zeroing the bulge h_k+1,k-1."""
            k = s.add(lo, i)
            first = s.eq(i, s32(s, 0))
            k1, km = s.add(k, s32(s, 1)), s.sub(k, s32(s, 1))
            f = s.select(first, s.sub(entry(s, h, k, k), shift), entry(s, h, k, km))
            g = s.select(first, entry(s, h, k1, k), entry(s, h, k1, km))
            c, sn = _givens(s, t, f, g)
            rotation = (k, c, sn, conj(s, t, sn))
            h = _rotate_pair_columns(s, _rotate_pair_rows(s, h, *rotation), *rotation)
            # the bulge is exactly zero (for the first rotation the index is clamped: unchanged)
            h = set_entry(s, h, k1, km, s.select(first, entry(s, h, k1, km), const(s, 0.0, t.E)))
            return [s.add(i, s32(s, 1)), steps, lo, shift, h, _rotate_pair_columns(s, q, *rotation)]

        state = [s32(s, 0), s.sub(new_hi, lo), lo, shift, h, q]
        *_, h, q = s.while_(lambda s, i, steps, *_: s.lt(i, steps), chase, state)
        return [s.add(it, s32(s, 1)), s.add(its, s32(s, 1)), new_hi, h, q]

    state = [s32(b, 0), s32(b, 0), s32(b, n - 1), h, q]
    _, _, hi, t_, q = b.while_(cond, body, state)
    info = b.select(b.gt(hi, s32(b, 0)), b.add(hi, s32(b, 1)), s32(b, 0))
    return t_, q, info


def _normalized(b, t: Num, v: SSAValue) -> SSAValue:
    """Columns of unit 2-norm with their largest component (the first of largest
    modulus) real and positive, as ?geev scales its eigenvectors."""
    n, _ = shape(v)
    mag2 = abs2(b, t, v)
    norm = b.sqrt(total(b, mag2, [0]))
    norm = b.select(b.gt(norm, const(b, 0.0, t.R)), norm, full(b, 1.0, t.R, [n]))
    v = b.div(v, b.broadcast_in_dim(to_e(b, t, norm), [n, n], [1]))
    mag2 = abs2(b, t, v)
    largest = b.reduce(mag2, const(b, -1.0, t.R), lambda c, x, y: c.max(x, y), [0])
    rows = b.iota([n, n], i32, 0)
    first = b.eq(mag2, b.broadcast_in_dim(largest, [n, n], [1]))
    k = b.reduce(b.select(first, rows, full(b, n, i32, [n, n])), s32(b, n), lambda c, x, y: c.min(x, y), [0])
    pick = b.eq(rows, b.broadcast_in_dim(k, [n, n], [1]))
    top = total(b, b.select(pick, v, full(b, 0.0, t.E, [n, n])), [0])
    size = b.abs(top)
    ok = b.gt(size, const(b, 0.0, t.R))
    phase = b.select(
        ok, b.div(conj(b, t, top), to_e(b, t, b.select(ok, size, full(b, 1.0, t.R, [n])))), full(b, 1.0, t.E, [n])
    )
    v = b.mul(v, b.broadcast_in_dim(phase, [n, n], [1]))
    return b.select(pick, to_e(b, t, b.real(v)), v)


def _triangular_eigenvectors(b, t: Num, tm: SSAValue, left: bool) -> SSAValue:
    """?trevc: the eigenvectors of the upper triangular T, one per column: the right
    ones (T·y = λ_k·y, y_k = 1, zero below k) by back substitution, the left ones
    (yᴴ·T = λ_k·yᴴ, y_k = 1, zero above k) forward, all k at once; a zero divisor
    T_ii - λ_k is replaced by max(eps·|λ_k|, tiny), as ?trevc perturbs it."""
    n, _ = shape(tm)
    lam = _diagonal(b, t, tm)
    info = np.finfo(np.float32 if isinstance(t.R, Float32Type) else np.float64)
    tiny, big = float(info.tiny), float(np.sqrt(info.max)) / max(n, 1)
    smin = b.max(b.mul(cabs1(b, t, lam), const(b, t.eps, t.R)), full(b, tiny, t.R, [n]))
    source = adjoint(b, t, tm) if left else tm  # left: the right eigenvectors of Tᴴ, for conj(λ)
    lam_s = conj(b, t, lam) if left else lam

    def step(s, i, y, source, lam_s, smin):
        r = s.sub(s32(s, n - 1), i) if not left else i
        cols = s.iota([n], i32)
        beyond = s.gt(cols, r) if not left else s.lt(cols, r)
        coeffs = s.select(beyond, row(s, source, r), full(s, 0.0, t.E, [n]))
        acc = s.dot(coeffs, y)
        d = s.sub(s.broadcast(entry(s, source, r, r), [n]), lam_s)
        small = s.lt(cabs1(s, t, d), smin)
        d = s.select(small, to_e(s, t, smin), d)
        # a value beyond `big` (a defective eigenvalue's tiny divisor): the eigenvector
        # scaled down first, as ?latrs scales, so that nothing overflows
        limit = s.mul(cabs1(s, t, d), const(s, big, t.R))
        magnitude = cabs1(s, t, acc)
        over = s.and_(beyond, s.gt(magnitude, limit))
        factor = s.select(over, s.div(limit, s.select(over, magnitude, full(s, 1.0, t.R, [n]))), full(s, 1.0, t.R, [n]))
        factor = to_e(s, t, factor)
        y = s.mul(y, s.broadcast_in_dim(factor, [n, n], [1]))
        value = s.neg(s.div(s.mul(acc, factor), d))
        new = s.select(beyond, value, s.select(s.eq(cols, r), full(s, 1.0, t.E, [n]), full(s, 0.0, t.E, [n])))
        # row r of y: its entries for the eigenvectors k on the solved side of r
        return [set_row(s, y, r, new), source, lam_s, smin]

    y, *_ = counted_loop(b, n, step, [full(b, 0.0, t.E, [n, n]), source, lam_s, smin])
    return y


def geev(b, t: Num, a: SSAValue, left: bool, right: bool) -> list[SSAValue]:
    """Eigenvalues and left/right eigenvectors of a general n x n matrix, LAPACK's
    ?geev contract (jobvl = left, jobvr = right):

    - the eigenvalues: (wr, wi) for a real type, w for a complex one, in the order of
      the Schur form's diagonal;
    - `vl`, `vr` (complex): the eigenvectors as columns (uᴴ·A = λ·uᴴ, A·v = λ·v), each
      of unit 2-norm with its largest component real; zeros when not asked for;
    - `info`: 0, or i > 0 when the QR iterations did not converge.

    Hessenberg reduction, then complex single-shift QR (?lahqr) to the Schur form
    T = Qᴴ·A·Q in complex arithmetic (for a real matrix too: its complex conjugate
    pairs, and real eigenvalues, agree with LAPACK's to its accuracy, not exactly),
    then the eigenvectors of T (?trevc) mapped back by Q."""
    n, _ = shape(a)
    c = Num(t.E if t.complex else ComplexType(t.R))
    h, q = _hessenberg(b, t, a)  # real for a real matrix
    tm, q, info = _schur(b, c, to_e(b, c, h), to_e(b, c, q))
    w = _diagonal(b, c, tm)
    zeros = full(b, 0.0, c.E, [n, n])
    vl = _normalized(b, c, b.dot(q, _triangular_eigenvectors(b, c, tm, left=True))) if left else zeros
    vr = _normalized(b, c, b.dot(q, _triangular_eigenvectors(b, c, tm, left=False))) if right else zeros
    values = [w] if t.complex else [b.real(w), b.imag(w)]
    return [*values, vl, vr, info]


# --------------------------------------------------------------------------------------
# From the custom call to a function of the module
# --------------------------------------------------------------------------------------


def _char(op: Operation, key: str, default: str) -> str:
    config = op.attributes.get("mhlo.backend_config")
    if isinstance(config, DictionaryAttr) and key in config.data:
        return chr(int_of(config.data[key]))
    return default


Shapes = list[list[int]]


@dataclass(frozen=True)
class Routine:
    """How one LAPACK routine reads its custom call: the modes (from
    mhlo.backend_config) that name its function, the rank of each operand's matrix or
    vector (the dimensions before it are the batch), the result types it gives (the
    shapes of a matrix and of its results, or a message saying what the operands lack),
    and its core (unbatched) builder."""

    core: Callable[..., list[SSAValue]]
    modes: Callable[[Operation], dict[str, str]]
    core_ranks: tuple[int, ...]
    results: Callable[[Num, Shapes, dict[str, str]], list[tuple[list[int], Attribute]] | str]


def _no_modes(op: Operation) -> dict[str, str]:
    return {}


def _eigh_modes(op: Operation) -> dict[str, str]:
    mode, uplo = _char(op, "mode", "V"), _char(op, "uplo", "L")
    if mode not in "VN" or uplo not in "LU":
        fail(op, f"mode '{mode}' and uplo '{uplo}' must be V or N and L or U")
    return {"mode": mode, "uplo": uplo}


def _svd_modes(op: Operation) -> dict[str, str]:
    mode = _char(op, "mode", "A")
    if mode not in ("A", "S", "N"):
        fail(op, f"mode '{mode}' must be A, S or N (gesdd's jobz 'O' is not what JAX asks for)")
    return {"mode": mode}


def _getrf_results(t: Num, shapes: Shapes, modes) -> list:
    m, n = shapes[0]
    return [([m, n], t.E), ([min(m, n)], i32), ([], i32)]


def _geqrf_results(t: Num, shapes: Shapes, modes) -> list:
    m, n = shapes[0]
    return [([m, n], t.E), ([min(m, n)], t.E)]


def _orgqr_results(t: Num, shapes: Shapes, modes) -> list | str:
    (m, n), (k,) = shapes
    if not m >= n >= k:
        return f"the matrix ({m} x {n}) and the {k} reflectors must have m >= n >= k"
    return [([m, n], t.E)]


def _syevd_results(t: Num, shapes: Shapes, modes) -> list | str:
    m, n = shapes[0]
    if m != n:
        return f"the matrix ({m} x {n}) must be square"
    return [([n, n], t.E), ([n], t.R), ([], i32)]


def _gesdd_results(t: Num, shapes: Shapes, modes) -> list:
    m, n = shapes[0]
    k = min(m, n)
    u, vt = ([m, k], [k, n]) if modes["mode"] == "S" else ([m, m], [n, n])
    return [([m, n], t.E), ([k], t.R), (u, t.E), (vt, t.E), ([], i32)]


def _geev_modes(op: Operation) -> dict[str, str]:
    left, right = _char(op, "compute_left", "N"), _char(op, "compute_right", "V")
    if left not in "VN" or right not in "VN":
        fail(op, f"compute_left '{left}' and compute_right '{right}' must be V or N")
    return {"left": left, "right": right}


def _geev_results(t: Num, shapes: Shapes, modes) -> list | str:
    m, n = shapes[0]
    if m != n:
        return f"the matrix ({m} x {n}) must be square"
    c = t.E if t.complex else ComplexType(t.R)
    values = [([n], c)] if t.complex else [([n], t.R), ([n], t.R)]
    return [*values, ([n, n], c), ([n, n], c), ([], i32)]


ROUTINES: dict[str, Routine] = {
    "getrf": Routine(lambda b, t, a: getrf(b, t, a), _no_modes, (2,), _getrf_results),
    "geqrf": Routine(lambda b, t, a: geqrf(b, t, a), _no_modes, (2,), _geqrf_results),
    "orgqr": Routine(lambda b, t, a, tau: orgqr(b, t, a, tau), _no_modes, (2, 1), _orgqr_results),
    "syevd": Routine(
        lambda b, t, a, mode, uplo: syevd(b, t, a, mode == "V", uplo == "L"), _eigh_modes, (2,), _syevd_results
    ),
    "gesdd": Routine(lambda b, t, a, mode: gesdd(b, t, a, mode), _svd_modes, (2,), _gesdd_results),
    "geev": Routine(
        lambda b, t, a, left, right: geev(b, t, a, left == "V", right == "V"), _geev_modes, (2,), _geev_results
    ),
}
ROUTINES["ungqr"], ROUTINES["heevd"] = ROUTINES["orgqr"], ROUTINES["syevd"]  # their complex names


def handles(target: str) -> bool:
    """A LAPACK target this module builds (`lapack_<s|d|c|z><routine>_ffi`)."""
    base = target.removesuffix("_ffi")
    return base.startswith("lapack_") and base[7:8] in ELEMENT_TYPES and base[8:] in ROUTINES


def _batched(b, operands: Sequence[SSAValue], ranks: Sequence[int], out_types: Sequence[TensorType], core: Callable):
    """core(builder, *matrices) on every matrix of the leading (batch) dimensions, in a
    while loop over the flattened batch."""
    batch = shape(operands[0])[: len(shape(operands[0])) - ranks[0]]
    if not batch:
        return core(b, *operands)
    count = math.prod(batch)
    nb = len(batch)
    flat_in = [b.reshape(v, [count, *shape(v)[nb:]]) if nb > 1 else v for v in operands]
    out_cores = [list(t.get_shape())[nb:] for t in out_types]
    out_elems = [t.get_element_type() for t in out_types]
    flat_out = [full(b, 0, e, [count, *dims]) for e, dims in zip(out_elems, out_cores)]
    if count == 0:
        return [b.reshape(v, list(t.get_shape())) for v, t in zip(flat_out, out_types)]

    def step(s, i, *state):
        ins, outs = state[: len(flat_in)], state[len(flat_in) :]
        zeros = [s32(s, 0)] * 3
        cores = [
            s.reshape(s.dynamic_slice(v, [i, *zeros[: len(shape(v)) - 1]], [1, *shape(v)[1:]]), shape(v)[1:])
            for v in ins
        ]
        results = core(s, *cores)
        outs = [
            s.dynamic_update_slice(o, s.reshape(r, [1, *shape(r)]), [i, *zeros[: len(shape(r))]])
            for o, r in zip(outs, results)
        ]
        return [*ins, *outs]

    state = counted_loop(b, count, step, [*flat_in, *flat_out])
    return [b.reshape(v, list(t.get_shape())) if nb > 1 else v for v, t in zip(state[len(flat_in) :], out_types)]


def _function_name(routine: str, letter: str, modes: dict[str, str], operands: Sequence[SSAValue]) -> str:
    dims = "_".join("x".join(str(d) for d in shape(v)) or "scalar" for v in operands)
    mode = "".join(f"_{k}{v}" for k, v in modes.items())
    return f"__lapack_{letter}{routine}{mode}_{dims}"


def _module_of(op: Operation) -> ModuleOp:
    top = op
    while top.parent_op() is not None:
        top = top.parent_op()  # type: ignore[assignment]
    if not isinstance(top, ModuleOp):
        fail(op, "a LAPACK custom call must be inside a module")
    return top  # type: ignore[return-value]


def _build_function(op, name: str, routine: Routine, t: Num, modes: dict[str, str], out_types) -> func.FuncOp:
    """`func.func private @name` taking the custom call's operands and giving its
    results; each op of it located at the call."""
    from xla_opt.builder import Builder as XlaBuilder  # the builder (and its interpreter dtypes) only when needed

    xb = XlaBuilder(name)
    params = [xb.parameter(i, v.type) for i, v in enumerate(op.operands)]

    def core(s, *matrices):
        return routine.core(s, t, *matrices, **modes)

    built = xb.build(*_batched(xb, params, routine.core_ranks, out_types, core))
    function = next(f for f in built.body.block.ops if isinstance(f, func.FuncOp))
    built.body.block.detach_op(function)
    function.sym_visibility = StringAttr("private")
    for inner in function.walk():
        inner.location = op.location
    return function


def _expected_types(op: Operation, target: str, routine: Routine, t: Num, modes: dict[str, str]) -> list[Attribute]:
    """The result types the routine gives for the call's operands (the operands
    checked: their number, element type, ranks, one batch shape)."""
    ranks = routine.core_ranks
    if len(op.operands) != len(ranks):
        fail(op, f"'{target}' takes {len(ranks)} operand(s), got {len(op.operands)}")
    batches, cores = [], []
    for v, rank in zip(op.operands, ranks):
        if not isinstance(v.type, TensorType) or len(v.type.get_shape()) < rank or v.type.get_element_type() != t.E:
            fail(op, f"'{target}' takes tensors of {t.E} of rank {rank} or more (batched), got {v.type}")
        dims = list(v.type.get_shape())
        batches.append(dims[: len(dims) - rank])
        cores.append(dims[len(dims) - rank :])
    if any(b != batches[0] for b in batches) or any(d < 0 for dims in (batches[0], *cores) for d in dims):
        fail(
            op,
            f"'{target}' takes operands of one static batch shape, got {', '.join(str(v.type) for v in op.operands)}",
        )
    results = routine.results(t, cores, modes)
    if isinstance(results, str):
        fail(op, f"'{target}': {results}")
    return [tensor([*batches[0], *dims], e) for dims, e in results]  # type: ignore[union-attr]


def convert(op: Operation, b: Builder, target: str) -> list[SSAValue]:
    """The custom call as a call of the routine's function (built on first use)."""
    base = target.removesuffix("_ffi")
    letter, name = base[7], base[8:]
    if not target.endswith("_ffi"):
        fail(op, f"custom call '{target}': only JAX's FFI form ('{target}_ffi') is supported")
    routine, t = ROUTINES[name], Num(ELEMENT_TYPES[letter])
    modes = routine.modes(op)
    expected = _expected_types(op, target, routine, t, modes)
    out_types = result_types(op)
    if out_types != expected:
        fail(
            op,
            f"'{target}' of {', '.join(str(v.type) for v in op.operands)} gives "
            f"({', '.join(map(str, expected))}), not ({', '.join(map(str, out_types))})",
        )
    fname = _function_name(name, letter, modes, op.operands)
    module = _module_of(op)
    existing = next((f for f in module.body.block.ops if isinstance(f, func.FuncOp) and f.sym_name.data == fname), None)
    if existing is None:
        function = _build_function(op, fname, routine, t, modes, out_types)
        where = InsertPoint.at_end(module.body.block)
        if b.rewriter is not None:
            b.rewriter.insert(function, where)
        else:
            Rewriter.insert_op(function, where)
    elif list(existing.function_type.inputs.data) != [v.type for v in op.operands] or list(
        existing.function_type.outputs.data
    ) != list(out_types):
        fail(op, f"the module's function @{fname} is not the one '{target}' needs")
    call = b.build(xla.CallOp, [list(op.operands)], out_types, {"callee": SymbolRefAttr(fname)})
    return list(call.results)
