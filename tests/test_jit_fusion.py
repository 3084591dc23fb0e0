"""Fusion decisions around the GEMM kernel (issue 11): what `linalg-fuse-elementwise`
may fold into a matrix product, checked end to end on the JIT against numpy.

Inputs are small integers, so every product and partial sum is exact in f32 and the
kernel's summation order cannot change a result."""

from __future__ import annotations

import re

import numpy as np

import xla_opt
from tests.util import tensor_type
from xla_opt.lowering.kernels.gemm import SYMBOL

F32 = np.float32


def t(shape) -> str:
    return tensor_type(shape, F32)


def small_ints(rng: np.random.Generator, shape) -> np.ndarray:
    return (rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)).astype(F32)


def mlp_program(b: int, d: int, h: int, o: int) -> str:
    return f"""
func.func @main(%x: {t((b, d))}, %w1: {t((d, h))}, %b1: {t((h,))}, %w2: {t((h, o))}, %b2: {t((o,))}) -> {t((b, o))} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.dot %x, %w1 : ({t((b, d))}, {t((d, h))}) -> {t((b, h))}
  %1 = xla.add %0, %b1, broadcast_dimensions = [1] : ({t((b, h))}, {t((h,))}) -> {t((b, h))}
  %2 = xla.maximum %1, %zero : ({t((b, h))}, tensor<f32>) -> {t((b, h))}
  %3 = xla.dot %2, %w2 : ({t((b, h))}, {t((h, o))}) -> {t((b, o))}
  %4 = xla.add %3, %b2, broadcast_dimensions = [1] : ({t((b, o))}, {t((o,))}) -> {t((b, o))}
  func.return %4 : {t((b, o))}
}}"""


def test_mlp_keeps_both_products_on_the_kernel():
    """Reproducer: the bias add and relu between two dots were fused into the second
    dot's loop nest (read through its (i, k) projection, so recomputed for every
    output column), which then ran as plain loops, not on the kernel: mlp at 51
    GFLOP/s instead of ~85."""
    b, d, h, o = 40, 48, 64, 36
    program = mlp_program(b, d, h, o)
    llvm_ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    assert len(re.findall(rf'call (?:ccc )?void @"?{SYMBOL}"?\(', llvm_ir)) == 2
    rng = np.random.default_rng(7)
    x, w1, b1, w2, b2 = (small_ints(rng, s) for s in [(b, d), (d, h), (h,), (h, o), (o,)])
    got = xla_opt.run(program, x, w1, b1, w2, b2, backend="jit")[0]
    f64 = [a.astype(np.float64) for a in (x, w1, b1, w2, b2)]
    expected = np.maximum(f64[0] @ f64[1] + f64[2], 0) @ f64[3] + f64[4]
    np.testing.assert_array_equal(got, expected)
