"""batch_norm_training, batch_norm_inference and batch_norm_grad on the JIT (expanded by
xla-expand-batch-norm into reduce, broadcast_in_dim and arithmetic) against the
interpreter.

Tolerances: both backends compute f16/bf16 in f32 and round once at the end, but the
JIT's reductions may reassociate their sums, so results agree to a few f32 ulps before
that rounding: f32 and f16 within rtol 1e-4 (cancellations in x - mean amplify the sum's
rounding), f64 within 1e-12, and the half types within one ulp of their own precision
(rtol 2^-10 for f16, 2^-7 for bf16) plus a small atol for values near zero.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xla_opt.lowering.conversions.convert_xla_to_linalg import LOWERED_OPS

import xla_opt

from .util import tensor_type

BF16 = np.dtype(ml_dtypes.bfloat16)
# dtype -> (rtol, atol)
TOLERANCES = {
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float64): (1e-12, 1e-12),
    np.dtype(np.float16): (2**-10, 1e-3),
    BF16: (2**-7, 1e-2),
}
SHAPE = (2, 3, 5)


def _program(op: str, operands: list[np.ndarray], results: list[str], feature_index: int, epsilon: float) -> str:
    types = [tensor_type(a.shape, a.dtype) for a in operands]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    names = ", ".join(f"%a{i}" for i in range(len(operands)))
    n = len(results)
    lhs = "%r" if n == 1 else f"%r:{n}"
    returned = "%r" if n == 1 else ", ".join(f"%r#{i}" for i in range(n))
    result_list = ", ".join(results)
    return (
        f"func.func @main({args}) -> ({result_list}) {{\n"
        f'  {lhs} = "xla.{op}"({names}) <{{epsilon = {epsilon:e} : f32, feature_index = {feature_index} : i64}}>'
        f" : ({', '.join(types)}) -> ({result_list})\n"
        f"  func.return {returned} : {result_list}\n"
        "}\n"
    )


def _compare(program: str, inputs: list[np.ndarray]) -> None:
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        rtol, atol = TOLERANCES[e.dtype]
        np.testing.assert_allclose(g.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol)


def _inputs(dtype, feature_index: int, seed: int):
    """x (SHAPE), per-feature vectors and a positive variance, of `dtype`."""
    rng = np.random.default_rng(seed)
    features = SHAPE[feature_index]
    x = (rng.normal(size=SHAPE) * 3 + 1).astype(dtype)
    vector = lambda: rng.normal(size=(features,)).astype(dtype)
    variance = rng.uniform(0.5, 2.0, size=(features,)).astype(dtype)
    return x, vector, variance


def _vector_type(dtype, feature_index: int) -> str:
    return tensor_type((SHAPE[feature_index],), dtype)


DTYPES = [np.float32, np.float64, np.float16, BF16]


@pytest.mark.parametrize("feature_index", [0, 1, 2])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_batch_norm_training(dtype, feature_index):
    x, vector, _ = _inputs(dtype, feature_index, 1 + feature_index)
    inputs = [x, vector(), vector()]
    vt = _vector_type(dtype, feature_index)
    program = _program("batch_norm_training", inputs, [tensor_type(SHAPE, dtype), vt, vt], feature_index, 1e-3)
    _compare(program, inputs)


@pytest.mark.parametrize("feature_index", [0, 1, 2])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_batch_norm_inference(dtype, feature_index):
    x, vector, variance = _inputs(dtype, feature_index, 10 + feature_index)
    inputs = [x, vector(), vector(), vector(), variance]
    program = _program("batch_norm_inference", inputs, [tensor_type(SHAPE, dtype)], feature_index, 1e-5)
    _compare(program, inputs)


@pytest.mark.parametrize("feature_index", [0, 1, 2])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_batch_norm_grad(dtype, feature_index):
    x, vector, variance = _inputs(dtype, feature_index, 20 + feature_index)
    grad_output = np.random.default_rng(30 + feature_index).normal(size=SHAPE).astype(dtype)
    inputs = [x, vector(), vector(), variance, grad_output]
    vt = _vector_type(dtype, feature_index)
    program = _program("batch_norm_grad", inputs, [tensor_type(SHAPE, dtype), vt, vt], feature_index, 1e-3)
    _compare(program, inputs)


def test_batch_norm_training_rank_1():
    """A 1-D operand: feature_index 0 and nothing to reduce (N = 1, variance 0)."""
    x = np.array([1.5, -2.0, 4.0], np.float32)
    inputs = [x, np.ones(3, np.float32), np.zeros(3, np.float32)]
    t = tensor_type((3,), np.float32)
    _compare(_program("batch_norm_training", inputs, [t, t, t], 0, 1e-3), inputs)


def test_batch_norm_training_matches_numpy():
    """The training formulas themselves, with numpy: y = (x - mean) / sqrt(var + eps)
    with the batch's mean and (biased) variance over every dimension but feature 1."""
    x = np.random.default_rng(5).normal(size=(4, 2, 3)).astype(np.float64)
    inputs = [x, np.ones(2), np.zeros(2)]
    vt = tensor_type((2,), np.float64)
    program = _program("batch_norm_training", inputs, [tensor_type(x.shape, np.float64), vt, vt], 1, 1e-3)
    out, mean, var = xla_opt.run(program, *inputs, backend="jit")
    np.testing.assert_allclose(mean, x.mean(axis=(0, 2)), rtol=1e-12)
    np.testing.assert_allclose(var, x.var(axis=(0, 2)), rtol=1e-12)
    expected = (x - mean[None, :, None]) / np.sqrt(var[None, :, None] + np.float32(1e-3))
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_batch_norm_ops_are_lowered():
    assert {"xla.batch_norm_training", "xla.batch_norm_inference", "xla.batch_norm_grad"} <= LOWERED_OPS
