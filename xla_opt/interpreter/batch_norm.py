"""Reference semantics of batch_norm_training, batch_norm_inference and
batch_norm_grad (the spec's two-pass variance, computed in f32 or wider)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects import xla

from .linear_algebra import float_compute_dtype


def _feature_view(v: np.ndarray, rank: int, feature_index: int, cdt: np.dtype) -> np.ndarray:
    """A 1-D per-feature vector shaped to broadcast along `feature_index`."""
    shape = [1] * rank
    shape[feature_index] = v.shape[0]
    return np.asarray(v).view(np.ndarray).astype(cdt).reshape(shape)


def _other_axes(rank: int, feature_index: int) -> tuple[int, ...]:
    return tuple(d for d in range(rank) if d != feature_index)


def batch_norm_training(
    x: np.ndarray, scale: np.ndarray, offset: np.ndarray, epsilon: float, feature_index: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dtype = x.dtype
    cdt = float_compute_dtype(dtype)
    r = x.ndim
    xc = np.asarray(x).view(np.ndarray).astype(cdt)
    axes = _other_axes(r, feature_index)
    eps = cdt.type(epsilon)
    count = cdt.type(int(np.prod([x.shape[d] for d in axes], dtype=np.int64)))
    with np.errstate(all="ignore"):
        mean = np.sum(xc, axis=axes, keepdims=True, dtype=cdt) / count
        centered = xc - mean
        var = np.sum(centered * centered, axis=axes, keepdims=True, dtype=cdt) / count
        out = (
            _feature_view(scale, r, feature_index, cdt) * centered / np.sqrt(var + eps)
            + _feature_view(offset, r, feature_index, cdt)
        )
    return out.astype(dtype), mean.reshape(-1).astype(dtype), var.reshape(-1).astype(dtype)


def batch_norm_inference(
    x: np.ndarray,
    scale: np.ndarray,
    offset: np.ndarray,
    mean: np.ndarray,
    variance: np.ndarray,
    epsilon: float,
    feature_index: int,
) -> np.ndarray:
    dtype = x.dtype
    cdt = float_compute_dtype(dtype)
    r = x.ndim
    xc = np.asarray(x).view(np.ndarray).astype(cdt)
    eps = cdt.type(epsilon)

    def f(v: np.ndarray) -> np.ndarray:
        return _feature_view(v, r, feature_index, cdt)

    with np.errstate(all="ignore"):
        out = f(scale) * (xc - f(mean)) / np.sqrt(f(variance) + eps) + f(offset)
    return out.astype(dtype)


def batch_norm_grad(
    x: np.ndarray,
    scale: np.ndarray,
    mean: np.ndarray,
    variance: np.ndarray,
    grad_output: np.ndarray,
    epsilon: float,
    feature_index: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The spec's formulas: with N elements per feature,
    c = sum(dy (x - mu) / (var + eps)) / N, d = sum(dy) / N,
    dx = scale / sqrt(var + eps) (dy - d - c (x - mu)),
    dscale = sum(dy (x - mu) / sqrt(var + eps)), doffset = sum(dy)."""
    dtype = x.dtype
    cdt = float_compute_dtype(dtype)
    r = x.ndim
    axes = _other_axes(r, feature_index)
    xc = np.asarray(x).view(np.ndarray).astype(cdt)
    dy = np.asarray(grad_output).view(np.ndarray).astype(cdt)
    eps = cdt.type(epsilon)

    def f(v: np.ndarray) -> np.ndarray:
        return _feature_view(v, r, feature_index, cdt)

    count = cdt.type(int(np.prod([x.shape[d] for d in axes], dtype=np.int64)))
    with np.errstate(all="ignore"):
        centered = xc - f(mean)
        var_eps = f(variance) + eps
        c = np.sum(dy * centered / var_eps, axis=axes, keepdims=True, dtype=cdt) / count
        d = np.sum(dy, axis=axes, keepdims=True, dtype=cdt) / count
        grad_x = f(scale) / np.sqrt(var_eps) * (dy - d - c * centered)
        grad_scale = np.sum(dy * centered / np.sqrt(var_eps), axis=axes, dtype=cdt)
        grad_offset = np.sum(dy, axis=axes, dtype=cdt)
    return grad_x.astype(dtype), grad_scale.astype(dtype), grad_offset.astype(dtype)


@register_impls
class BatchNormFunctions(InterpreterFunctions):
    @impl(xla.BatchNormTrainingOp)
    def run_batch_norm_training(
        self, interpreter: Interpreter, op: xla.BatchNormTrainingOp, args: tuple[Any, ...]
    ):
        return batch_norm_training(
            args[0], args[1], args[2], op.get_epsilon(), op.get_feature_index()
        )

    @impl(xla.BatchNormInferenceOp)
    def run_batch_norm_inference(
        self, interpreter: Interpreter, op: xla.BatchNormInferenceOp, args: tuple[Any, ...]
    ):
        out = batch_norm_inference(*args, op.get_epsilon(), op.get_feature_index())
        return (out,)

    @impl(xla.BatchNormGradOp)
    def run_batch_norm_grad(
        self, interpreter: Interpreter, op: xla.BatchNormGradOp, args: tuple[Any, ...]
    ):
        return batch_norm_grad(*args, op.get_epsilon(), op.get_feature_index())
