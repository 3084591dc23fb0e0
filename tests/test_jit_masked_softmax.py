"""Attention's causal softmax on the JIT (issue 32): the transformer block's masked
softmax ran 3.5x slower than jax.jit's for two reasons of the LLVM lowering, each
fixed at its source and checked here.

* A loop reading a bool buffer (the causal mask) stayed scalar: convert-to-llvm loaded
  each element as an `i1`, and LLVM vectorizes no i1 load (`<N x i1>` in memory is
  packed bits); it loads the element's byte as an i8 now (nonzero is true, as numpy's
  bool) and stores an i1 as a 0 or 1 byte.
* The inline f32 exp (math_f32.py) computed e^x of the masked scores (-1e9, clamped to
  -104) through a product that underflows, a microcode assist per vector on x86: 10x
  slower than e^-1. Below -104 it now takes e^0 in that lane and gives +0, the value
  e^-104 rounded to.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

import xla_opt
from tests.util import one_op_program, ttype


def select_program(n: int) -> str:
    return (
        f"func.func @main(%m: tensor<{n}xi1>, %a: tensor<{n}xf32>, %b: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
        f"  %r = xla.select %m, %a, %b : (tensor<{n}xi1>, tensor<{n}xf32>, tensor<{n}xf32>) -> tensor<{n}xf32>\n"
        f"  func.return %r : tensor<{n}xf32>\n}}\n"
    )


def test_loop_reading_a_bool_buffer_is_vectorized():
    """A select by a bool mask loads the mask as vectors of bytes; every nonzero byte
    is true (numpy's bool view of 2 and 255), as on the interpreter."""
    n = 4096
    compiled = xla_opt.compile(select_program(n), backend="jit")
    assert re.search(r"load <\d+ x i8>", compiled.jit.native.optimized_ir)
    mask = np.array([0, 1, 2, 255] * (n // 4), np.uint8).view(np.bool_)
    a, b = np.arange(n, dtype=np.float32), -np.ones(n, np.float32)
    (got,) = compiled(mask, a, b)
    np.testing.assert_array_equal(got, np.where(mask, a, b))
    np.testing.assert_array_equal(got, xla_opt.run(select_program(n), mask, a, b, backend="interpreter")[0])


def test_bool_results_stored_as_bytes():
    """Bool results (a compare) come back as numpy bools of 0 or 1 bytes."""
    x = np.linspace(-2, 2, 1001, dtype=np.float32)
    program = one_op_program(
        f"xla.compare %a0, %a1, comparison_direction = LT : ({ttype(x)}, {ttype(x)}) -> tensor<1001xi1>",
        [x, x],
        ["tensor<1001xi1>"],
    )
    (got,) = xla_opt.run(program, x, np.zeros_like(x), backend="jit")
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got.view(np.uint8), (x < 0).astype(np.uint8))


def test_exp_below_the_underflow_is_plus_zero():
    """e^x for x below -104 is +0 (np.exp rounded to f32), NaN stays NaN, and the
    values from -104 up (denormal results included) are as before: within 1.02 ulp."""
    x = np.array([-np.inf, -1e9, -1e4, -200.0, -104.00001, -104.0, -103.97, -103.0, -90.0, -87.0, np.nan], np.float32)
    (got,) = xla_opt.run(one_op_program(f"xla.exponential %a0 : {ttype(x)}", [x], [ttype(x)]), x, backend="jit")
    np.testing.assert_array_equal(got[:5], 0.0)
    assert not np.signbit(got[:5]).any()
    assert np.isnan(got[-1])
    exact = np.exp(x[5:-1].astype(np.float64))
    spacing = np.spacing(exact.astype(np.float32)).astype(np.float64)  # 2^-149 at 0 and among denormals
    assert np.all(np.abs(got[5:-1] - exact) <= 1.02 * spacing)


def _cpu_time(fn, repeats: int = 15) -> float:
    """The median CPU time of the process over `repeats` calls (robust to a loaded
    machine, where wall time is not)."""
    fn()
    samples = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return float(np.median(samples))


def test_exp_of_masked_scores_costs_what_exp_costs():
    """e^-1e9 (a masked score) on one thread costs about e^-1: the reproducer ran 10x
    slower (a bound of 3x leaves room for a noisy machine)."""
    from xla_opt.runtime import threads
    from xla_opt.runtime.cpu import num_threads

    x = np.zeros((256, 1024), np.float32)
    compiled = xla_opt.compile(one_op_program(f"xla.exponential %a0 : {ttype(x)}", [x], [ttype(x)]), backend="jit")
    ones, masked = np.full_like(x, -1.0), np.full_like(x, -1e9)
    threads.set_num_threads(1)
    try:
        fast, slow = _cpu_time(lambda: compiled(ones)), _cpu_time(lambda: compiled(masked))
    finally:
        threads.set_num_threads(num_threads())
    assert slow < 3 * fast, (fast, slow)


def test_causal_softmax_as_jax_writes_it():
    """The transformer block's masked softmax, exported by JAX: JAX's values."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    seq = 64
    scores = np.random.default_rng(0).standard_normal((2, 3, seq, seq)).astype(np.float32)

    def softmax(s):
        return jax.nn.softmax(jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, -1e9), axis=-1)

    compiled = xla_opt.compile(jax.jit(softmax).lower(scores).as_text(), backend="jit")
    np.testing.assert_allclose(compiled(scores)[0], np.asarray(jax.jit(softmax)(scores)), rtol=1e-6, atol=1e-7)
