"""Integer matrix products on the JIT (issue 31, a pipeline-fuzzer finding): an i32
perceptron, relu(x @ w1 + b1) @ w2 + b2, did not compile (`VerifyException: parameter
'type' does not verify: Unexpected attribute i32`): linalg-matmul-to-kernel looked
for a float bias/ReLU epilogue after the i32 GEMM and read the 0-d i32 zero of the
ReLU as a float. Integer products now take the i32 GEMM without an epilogue (the
integer kernel has none); the bias and ReLU stay element-wise loops.

The shapes are above the pass's min-rows/min-columns/min-depth (4, 9, 4), so the
kernel is called (checked in the LLVM IR). Expected values: numpy in int64, wrapped to
int32 (XLA's integer dot wraps), and JAX.
"""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type


def wrapped(x: np.ndarray) -> np.ndarray:
    """int64 values wrapped to int32, as XLA's integer arithmetic wraps."""
    return x.astype(np.int64).astype(np.uint64).astype(np.uint32).view(np.int32)


def perceptron_program(m: int, k: int, h: int, o: int, dtype: str = "i32") -> str:
    t = lambda *shape: tensor_type(shape, np.int32)
    x = tensor_type((m, k), np.int8 if dtype == "i8" else np.int32)
    w1 = tensor_type((k, h), np.int8 if dtype == "i8" else np.int32)
    widen = (
        f"  %xw = xla.convert %x : ({x}) -> {t(m, k)}\n  %w1w = xla.convert %w1 : ({w1}) -> {t(k, h)}\n"
        if dtype == "i8"
        else ""
    )
    xs, w1s = ("%xw", "%w1w") if dtype == "i8" else ("%x", "%w1")
    return f"""
func.func @main(%x: {x}, %w1: {w1}, %b1: {t(h)}, %w2: {t(h, o)}, %b2: {t(o)}) -> {t(m, o)} {{
{widen}  %p = xla.dot {xs}, {w1s} : ({t(m, k)}, {t(k, h)}) -> {t(m, h)}
  %q = xla.add %p, %b1, broadcast_dimensions = [1] : ({t(m, h)}, {t(h)}) -> {t(m, h)}
  %zero = xla.constant dense<0> : {t()}
  %r = xla.maximum %q, %zero : ({t(m, h)}, {t()}) -> {t(m, h)}
  %s = xla.dot %r, %w2 : ({t(m, h)}, {t(h, o)}) -> {t(m, o)}
  %y = xla.add %s, %b2, broadcast_dimensions = [1] : ({t(m, o)}, {t(o)}) -> {t(m, o)}
  func.return %y : {t(m, o)}
}}
"""


def perceptron(x, w1, b1, w2, b2) -> np.ndarray:
    hidden = np.maximum(wrapped(wrapped(x.astype(np.int64) @ w1.astype(np.int64)) + b1.astype(np.int64)), 0)
    return wrapped(wrapped(hidden.astype(np.int64) @ w2.astype(np.int64)) + b2.astype(np.int64))


@pytest.mark.parametrize(
    "m, k, h, o, dtype, high",
    [
        (4, 4, 9, 9, "i32", 10),  # the kernel's smallest product
        (64, 48, 40, 33, "i32", 1000),
        (37, 130, 70, 17, "i32", 2**20),  # products and sums wrap around
        (64, 70, 48, 12, "i8", 128),  # int8 inputs widened to int32
    ],
    ids=str,
)
def test_integer_perceptron_through_the_kernel(m, k, h, o, dtype, high):
    rng = np.random.default_rng(31)
    narrow = np.int8 if dtype == "i8" else np.int32
    x = rng.integers(-high, high, (m, k)).astype(narrow)
    w1 = rng.integers(-high, high, (k, h)).astype(narrow)
    b1 = rng.integers(-high, high, (h,)).astype(np.int32)
    w2 = rng.integers(-high, high, (h, o)).astype(np.int32)
    b2 = rng.integers(-high, high, (o,)).astype(np.int32)
    program = perceptron_program(m, k, h, o, dtype)
    compiled = xla_opt.compile(program, backend="jit")
    assert compiled.jit.llvm_ir.count('call ccc void @"xla_opt_igemm"') == 2
    assert "sgemm" not in compiled.jit.llvm_ir
    expected = perceptron(x, w1, b1, w2, b2)
    (got,) = compiled(x, w1, b1, w2, b2)
    np.testing.assert_array_equal(got, expected)
    (interpreted,) = xla_opt.run(program, x, w1, b1, w2, b2, backend="interpreter")
    np.testing.assert_array_equal(interpreted, expected)


def test_jax_int32_perceptron_and_int8_matmul():
    """What JAX exports: `jnp.maximum(x @ w1 + b1, 0) @ w2 + b2` on int32 arrays, and an
    int8 x int8 -> int32 product (preferred_element_type) with a bias and a ReLU."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    rng = np.random.default_rng(32)

    def mlp(x, w1, b1, w2, b2):
        return jnp.maximum(x @ w1 + b1, 0) @ w2 + b2

    def int8_layer(x, w, b):
        return jnp.maximum(jnp.matmul(x, w, preferred_element_type=jnp.int32) + b, 0)

    i32 = lambda *shape: rng.integers(-50, 50, shape).astype(np.int32)
    i8 = lambda *shape: rng.integers(-128, 128, shape).astype(np.int8)
    cases = [
        (mlp, (i32(32, 24), i32(24, 40), i32(40), i32(40, 10), i32(10))),
        (int8_layer, (i8(48, 64), i8(64, 20), i32(20))),
    ]
    for f, args in cases:
        text = jax.jit(f).lower(*args).as_text()
        expected = np.asarray(jax.jit(f)(*args))
        compiled = xla_opt.compile(text, backend="jit")
        assert 'call ccc void @"xla_opt_igemm"' in compiled.jit.llvm_ir
        (got,) = compiled(*args)
        np.testing.assert_array_equal(got, expected)
        (got,) = xla_opt.run(text, *args, backend="interpreter")
        np.testing.assert_array_equal(got, expected)
