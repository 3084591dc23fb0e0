"""Reference semantics of the linear-algebra family: dot, dot_general, convolution,
fft, cholesky, triangular_solve and the batch normalizations.

Exactness rules (as in the element-wise family):
* products are accumulated in the element type: f32 stays f32, f64 stays f64, complex
  stays complex; f16 and bf16 accumulate in f32 and round back once at the end;
  integers wrap around (the sum is computed in 64 bits, which is exact modulo 2^n);
  PRED dots are OR-of-ANDs.
* fft keeps the precision of its type (complex64 for f32).
* cholesky reads only the requested triangle, writes zeros in the other one and gives
  NaNs (in the requested triangle) for a matrix that is not positive definite.
* triangular_solve reads only the requested triangle of `a` (and not its diagonal when
  unit_diagonal); a singular `a` gives IEEE infinities/NaNs, not an error.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects import xla
from xla_opt.dialects.shapes.linear_algebra import ConvDimensionNumbers
from xla_opt.dialects.xla.element_types import elem_of

from .dtypes import numpy_dtype
from .elementwise import HALF_TYPES

# --------------------------------------------------------------------------------------
# Accumulation types
# --------------------------------------------------------------------------------------


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """The type sums of products are accumulated in for element type `dtype`."""
    dtype = np.dtype(dtype)
    if dtype in HALF_TYPES:
        return np.dtype(np.float32)
    if dtype == np.bool_:
        return np.dtype(np.int64)
    if dtype.kind == "i":
        return np.dtype(np.int64)
    if dtype.kind == "u":
        return np.dtype(np.uint64)
    return dtype


def to_compute(x: np.ndarray) -> np.ndarray:
    return np.asarray(x).view(np.ndarray).astype(compute_dtype(x.dtype))


def from_compute(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round (floats) or wrap (integers) an accumulated value back to `dtype`."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.asarray(x != 0)
    with np.errstate(all="ignore"):
        return np.asarray(x).astype(dtype)


# --------------------------------------------------------------------------------------
# Dot, DotGeneral
# --------------------------------------------------------------------------------------


def dot_general(
    lhs: np.ndarray,
    rhs: np.ndarray,
    lhs_batch: Sequence[int] = (),
    rhs_batch: Sequence[int] = (),
    lhs_contracting: Sequence[int] = (),
    rhs_contracting: Sequence[int] = (),
) -> np.ndarray:
    """Sums of products over the contracting dimensions; the result holds the batch
    dimensions, then lhs's free ones, then rhs's free ones; of lhs's element type."""
    dtype = lhs.dtype
    lhs_free = [d for d in range(lhs.ndim) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs.ndim) if d not in rhs_batch and d not in rhs_contracting]
    batch_shape = [lhs.shape[d] for d in lhs_batch]
    lhs_free_shape = [lhs.shape[d] for d in lhs_free]
    rhs_free_shape = [rhs.shape[d] for d in rhs_free]
    b = int(np.prod(batch_shape, dtype=np.int64))
    m = int(np.prod(lhs_free_shape, dtype=np.int64))
    n = int(np.prod(rhs_free_shape, dtype=np.int64))
    k = int(np.prod([lhs.shape[d] for d in lhs_contracting], dtype=np.int64))
    # [batch, free, contracting] . [batch, contracting, free] as one batched matmul
    a = np.transpose(to_compute(lhs), [*lhs_batch, *lhs_free, *lhs_contracting]).reshape(b, m, k)
    c = np.transpose(to_compute(rhs), [*rhs_batch, *rhs_contracting, *rhs_free]).reshape(b, k, n)
    with np.errstate(all="ignore"):
        out = np.matmul(a, c)
    return from_compute(out.reshape((*batch_shape, *lhs_free_shape, *rhs_free_shape)), dtype)


def dot(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Dot: lhs's last dimension contracts with rhs's first."""
    return dot_general(lhs, rhs, (), (), (lhs.ndim - 1,), (0,))


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------


def dilate_and_pad(
    x: np.ndarray, axes: Sequence[int], dilation: Sequence[int], padding: Sequence[Sequence[int]]
) -> np.ndarray:
    """Insert dilation - 1 zeros between the elements of each axis in `axes`, then add
    `low` / `high` zeros at its ends (negative amounts remove elements)."""
    shape = list(x.shape)
    dst: list[slice] = [slice(None)] * x.ndim
    src: list[slice] = [slice(None)] * x.ndim
    for axis, d, (low, high) in zip(axes, dilation, padding):
        size = x.shape[axis]
        dilated = (size - 1) * d + 1 if size else 0
        padded = max(0, dilated + low + high)
        shape[axis] = padded
        # source element i lands at low + i * d; keep those inside [0, padded)
        first = 0 if low >= 0 else (-low + d - 1) // d
        last = min(size, (padded - 1 - low) // d + 1) if padded - 1 - low >= 0 else 0
        if last <= first:
            src[axis] = dst[axis] = slice(0, 0)
        else:
            src[axis] = slice(first, last)
            dst[axis] = slice(low + first * d, low + (last - 1) * d + 1, d)
    out = np.zeros(shape, x.dtype)
    out[tuple(dst)] = x[tuple(src)]
    return out


def _conv_canonical(lhs: np.ndarray, rhs: np.ndarray, strides, rhs_dilation, out_spatial) -> np.ndarray:
    """lhs [N, C, S...] (already dilated and padded), rhs [O, C, K...] -> [N, O, S'...]."""
    n, o = lhs.shape[0], rhs.shape[0]
    out = np.zeros((n, o, *out_spatial), lhs.dtype)
    if out.size == 0:
        return out
    for k in itertools.product(*(range(s) for s in rhs.shape[2:])):
        window = tuple(
            slice(ki * di, ki * di + (size - 1) * st + 1, st)
            for ki, di, size, st in zip(k, rhs_dilation, out_spatial, strides)
        )
        part = lhs[(slice(None), slice(None), *window)]  # [N, C, S'...]
        kernel = rhs[(slice(None), slice(None), *k)]  # [O, C]
        # [N, S'..., C] @ [C, O] -> [N, S'..., O] -> [N, O, S'...]. Not np.tensordot:
        # np.dot of an [M, 1] by a [1, 1] becomes OpenBLAS's scal, which writes 0 for
        # NaN * 0 (IEEE and XLA give NaN).
        out += np.moveaxis(np.matmul(np.moveaxis(part, 1, -1), kernel.T), -1, 1)
    return out


def convolution(
    lhs: np.ndarray,
    rhs: np.ndarray,
    dnums: ConvDimensionNumbers,
    window_strides: Sequence[int] | None = None,
    padding: Sequence[Sequence[int]] | None = None,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    window_reversal: Sequence[bool] | None = None,
) -> np.ndarray:
    """ConvWithGeneralPadding (StableHLO convolution semantics), of lhs's element type."""
    dtype = lhs.dtype
    n = len(dnums.input_spatial)
    strides = tuple(window_strides) if window_strides else (1,) * n
    pads = [tuple(p) for p in padding] if padding else [(0, 0)] * n
    lhs_dil = tuple(lhs_dilation) if lhs_dilation else (1,) * n
    rhs_dil = tuple(rhs_dilation) if rhs_dilation else (1,) * n
    # canonical layouts: lhs [N, C, S...], rhs [O, I, K...]
    x = np.transpose(to_compute(lhs), [dnums.input_batch, dnums.input_feature, *dnums.input_spatial])
    w = np.transpose(
        to_compute(rhs),
        [dnums.kernel_output_feature, dnums.kernel_input_feature, *dnums.kernel_spatial],
    )
    if window_reversal is not None and any(window_reversal):
        w = np.flip(w, [2 + i for i, r in enumerate(window_reversal) if r])
    x = dilate_and_pad(x, range(2, 2 + n), lhs_dil, pads)
    out_spatial = []
    for i in range(n):
        span = (w.shape[2 + i] - 1) * rhs_dil[i] + 1 if w.shape[2 + i] else 0
        padded = x.shape[2 + i]
        out_spatial.append(0 if span > padded else (padded - span) // strides[i] + 1)

    results = []
    with np.errstate(all="ignore"):
        if batch_group_count > 1:
            nb = x.shape[0] // batch_group_count
            og = w.shape[0] // batch_group_count
            for g in range(batch_group_count):
                results.append(
                    _conv_canonical(
                        x[g * nb : (g + 1) * nb], w[g * og : (g + 1) * og], strides, rhs_dil, out_spatial
                    )
                )
        else:
            cg = x.shape[1] // feature_group_count
            og = w.shape[0] // feature_group_count
            for g in range(feature_group_count):
                results.append(
                    _conv_canonical(
                        x[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og], strides, rhs_dil, out_spatial
                    )
                )
    canon = np.concatenate(results, axis=1)
    # canonical axis i goes to output axis perm[i]
    perm = [dnums.output_batch, dnums.output_feature, *dnums.output_spatial]
    out = np.transpose(canon, np.argsort(perm))
    return from_compute(np.ascontiguousarray(out), dtype)


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------


def fft(x: np.ndarray, fft_type: str, fft_length: Sequence[int], result_dtype: np.dtype) -> np.ndarray:
    """FFT/IFFT (complex -> complex over the innermost len(fft_length) axes, IFFT scaled
    by 1/N), RFFT (real -> the non-negative frequencies), IRFFT (its inverse)."""
    k = len(fft_length)
    axes = tuple(range(x.ndim - k, x.ndim))
    x = np.asarray(x).view(np.ndarray)
    if fft_type in ("FFT", "IFFT"):
        # transformed over the operand's own axis sizes (the shape rule does not tie
        # them to fft_length)
        shape = x.shape
    elif fft_type == "RFFT":
        shape = (*x.shape[:-1], fft_length[-1] // 2 + 1) if fft_length[-1] else x.shape
    else:
        shape = (*x.shape[:-1], fft_length[-1]) if fft_length[-1] else x.shape
    if any(x.shape[a] == 0 for a in axes) or any(v == 0 for v in fft_length) or x.size == 0:
        return np.zeros(shape, result_dtype)
    if fft_type == "FFT":
        out = np.fft.fftn(x, axes=axes)
    elif fft_type == "IFFT":
        out = np.fft.ifftn(x, axes=axes)
    elif fft_type == "RFFT":
        out = np.fft.rfftn(x, s=tuple(fft_length), axes=axes)
    else:
        out = np.fft.irfftn(x, s=tuple(fft_length), axes=axes)
    return np.asarray(out).astype(result_dtype)


# --------------------------------------------------------------------------------------
# Cholesky, TriangularSolve
# --------------------------------------------------------------------------------------


def float_compute_dtype(dtype: np.dtype) -> np.dtype:
    """f16/bf16 compute in f32, other types in themselves."""
    return np.dtype(np.float32) if np.dtype(dtype) in HALF_TYPES else np.dtype(dtype)


def cholesky(a: np.ndarray, lower: bool) -> np.ndarray:
    """lower: L with a = L L^H from a's lower triangle; else U with a = U^H U from its
    upper triangle. The other triangle is zero; a matrix that is not positive definite
    gives NaNs in the requested triangle."""
    dtype = a.dtype
    x = np.asarray(a).view(np.ndarray).astype(float_compute_dtype(dtype))
    m = x.shape[-1]
    batch = x.reshape((int(np.prod(x.shape[:-2], dtype=np.int64)), m, m))
    out = np.zeros_like(batch)
    tri = np.tril if lower else np.triu
    for i, mat in enumerate(batch):
        # the Hermitian matrix the referenced triangle stands for
        t = tri(mat, -1 if lower else 1)
        diag = np.diag(np.real(np.diagonal(mat))).astype(mat.dtype)
        herm = t + np.conj(t).T + diag
        try:
            with np.errstate(all="ignore"):
                factor = np.linalg.cholesky(herm)  # lower: herm = L L^H
        except np.linalg.LinAlgError:
            out[i] = tri(np.full((m, m), np.nan, mat.dtype))
            continue
        out[i] = factor if lower else np.conj(factor).T
    return out.reshape(x.shape).astype(dtype)


def triangular_solve(
    a: np.ndarray, b: np.ndarray, left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: str
) -> np.ndarray:
    """Solve op(a) x = b (left_side) or x op(a) = b, op one of identity, transpose,
    adjoint, reading only a's `lower` (or upper) triangle, and not its diagonal when
    unit_diagonal. Forward/back substitution in the element type (f32 for f16/bf16)."""
    dtype = b.dtype
    cdt = float_compute_dtype(dtype)
    t = np.asarray(a).view(np.ndarray).astype(cdt)
    t = np.tril(t) if lower else np.triu(t)
    if unit_diagonal:
        m = t.shape[-1]
        idx = np.arange(m)
        t = t.copy()
        t[..., idx, idx] = 1
    t_lower = lower
    if transpose_a in ("TRANSPOSE", "ADJOINT"):
        t = np.swapaxes(t, -1, -2)
        if transpose_a == "ADJOINT":
            t = np.conj(t)
        t_lower = not t_lower
    rhs = np.asarray(b).view(np.ndarray).astype(cdt)
    if not left_side:
        # x t = b  <=>  t^T x^T = b^T
        t = np.swapaxes(t, -1, -2)
        t_lower = not t_lower
        rhs = np.swapaxes(rhs, -1, -2)
    m = t.shape[-1]
    x = np.zeros_like(rhs)
    order = range(m) if t_lower else range(m - 1, -1, -1)
    with np.errstate(all="ignore"):
        for i in order:
            known = slice(0, i) if t_lower else slice(i + 1, m)
            acc = rhs[..., i, :] - np.einsum("...j,...jk->...k", t[..., i, known], x[..., known, :])
            x[..., i, :] = acc / t[..., i, i][..., None]
    if not left_side:
        x = np.swapaxes(x, -1, -2)
    return np.ascontiguousarray(x).astype(dtype)


# --------------------------------------------------------------------------------------
# Batch normalization
# --------------------------------------------------------------------------------------












# --------------------------------------------------------------------------------------
# The implementations
# --------------------------------------------------------------------------------------


@register_impls
class LinearAlgebraFunctions(InterpreterFunctions):
    @impl(xla.DotOp)
    def run_dot(self, interpreter: Interpreter, op: xla.DotOp, args: tuple[Any, ...]):
        return (dot(args[0], args[1]),)

    @impl(xla.DotGeneralOp)
    def run_dot_general(self, interpreter: Interpreter, op: xla.DotGeneralOp, args: tuple[Any, ...]):
        out = dot_general(
            args[0],
            args[1],
            op.get_lhs_batching_dimensions(),
            op.get_rhs_batching_dimensions(),
            op.get_lhs_contracting_dimensions(),
            op.get_rhs_contracting_dimensions(),
        )
        return (out,)

    @impl(xla.ConvolutionOp)
    def run_convolution(self, interpreter: Interpreter, op: xla.ConvolutionOp, args: tuple[Any, ...]):
        out = convolution(
            args[0],
            args[1],
            op.dimension_numbers(),
            window_strides=op.get_window_strides(),
            padding=op.get_padding(),
            lhs_dilation=op.get_lhs_dilation(),
            rhs_dilation=op.get_rhs_dilation(),
            feature_group_count=op.get_feature_group_count(),
            batch_group_count=op.get_batch_group_count(),
        )
        return (out,)

    @impl(xla.FftOp)
    def run_fft(self, interpreter: Interpreter, op: xla.FftOp, args: tuple[Any, ...]):
        result_dtype = numpy_dtype(elem_of(op.result.type))
        return (fft(args[0], op.get_fft_type(), op.get_fft_length(), result_dtype),)

    @impl(xla.CholeskyOp)
    def run_cholesky(self, interpreter: Interpreter, op: xla.CholeskyOp, args: tuple[Any, ...]):
        return (cholesky(args[0], op.get_lower()),)

    @impl(xla.TriangularSolveOp)
    def run_triangular_solve(
        self, interpreter: Interpreter, op: xla.TriangularSolveOp, args: tuple[Any, ...]
    ):
        out = triangular_solve(
            args[0],
            args[1],
            left_side=op.get_left_side(),
            lower=op.get_lower(),
            unit_diagonal=op.get_unit_diagonal(),
            transpose_a=op.get_transpose_a(),
        )
        return (out,)



