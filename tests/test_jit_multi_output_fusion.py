"""Multi-output fusion in `linalg-fuse-elementwise` (issue 11): a producer that
evaluates a math function and feeds a reduction is computed once, inside the
reduction, which stores it for its other users, and the last of them (softmax's
division) overwrites the stored values in place. Checked end to end on the JIT
against numpy (float64), and on the LLVM IR: one exp per element, no buffer
allocated for the stored values."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type

F32 = np.float32


def t(shape) -> str:
    return tensor_type(shape, F32)


def row_reduce(result: str, operand: str, init: str, op: str, m: int, n: int) -> str:
    return f"""
  %{result} = xla.reduce (%{operand}), (%{init}), dimensions = [1] body {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = xla.{op} %a, %b : tensor<f32>
    xla.return %r : tensor<f32>
  }} : ({t((m, n))}, tensor<f32>) -> {t((m,))}"""


def softmax_program(m: int, n: int, tail: str = "", results: str = "") -> str:
    m2, m1 = t((m, n)), t((m,))
    return f"""
func.func @main(%x: {m2}) -> ({m2}{results}) {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>{row_reduce("max", "x", "ninf", "maximum", m, n)}
  %s = xla.subtract %x, %max, broadcast_dimensions = [0] : ({m2}, {m1}) -> {m2}
  %e = xla.exponential %s : {m2}{row_reduce("sum", "e", "zero", "add", m, n)}
  %y = xla.divide %e, %sum, broadcast_dimensions = [0] : ({m2}, {m1}) -> {m2}
  {tail or f"func.return %y : {m2}"}
}}"""


def softmax64(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def exp_calls(llvm_ir: str) -> int:
    return len(re.findall(r"call (?:\w+ )*float @\"?xla_opt\.expf\"?\(", llvm_ir))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(3, 5), (512, 300)])  # the second runs on threads (>= 2^17 iterations)
def test_softmax_computes_exp_once_in_place(shape, threads):
    before = xla_opt.get_num_threads()
    xla_opt.set_num_threads(threads)
    try:
        f = xla_opt.compile(softmax_program(*shape), backend="jit")
        x = (np.random.default_rng(3).standard_normal(shape) * 4).astype(F32)
        (y,) = f(x)
        (again,) = f(x)  # the in-place division leaves nothing behind between calls
    finally:
        xla_opt.set_num_threads(before)
    np.testing.assert_allclose(y, softmax64(x), rtol=2e-6, atol=1e-9)
    np.testing.assert_array_equal(y, again)
    llvm_ir = f.jit.llvm_ir
    assert exp_calls(llvm_ir) == 1  # computed in the row-sum loop only
    assert "@malloc" not in llvm_ir  # stored in the result buffer itself


def test_stored_values_also_returned_are_not_overwritten():
    """The exp is also a result: the division must not write over it."""
    m, n = 4, 6
    program = softmax_program(m, n, tail=f"func.return %y, %e : {t((m, n))}, {t((m, n))}", results=f", {t((m, n))}")
    x = np.random.default_rng(4).standard_normal((m, n)).astype(F32)
    y, e = xla_opt.run(program, x, backend="jit")
    shifted = (x - x.max(axis=1, keepdims=True)).astype(np.float64)  # rounded to f32 as the program does
    np.testing.assert_allclose(e, np.exp(shifted), rtol=1.2e-7)  # exp is within 1 ulp
    np.testing.assert_allclose(y, softmax64(x), rtol=2e-6)


def test_user_before_the_reduction_keeps_the_exp_duplicated():
    """A user of the exp ahead of the reduction cannot read the reduction's second
    result: the exp is then computed in each user, as before (correct either way)."""
    m, n = 4, 6
    m2, m1 = t((m, n)), t((m,))
    program = f"""
func.func @main(%x: {m2}) -> ({m2}, {m1}) {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %e = xla.exponential %x : {m2}
  %d = xla.multiply %e, %x : {m2}{row_reduce("sum", "e", "zero", "add", m, n)}
  func.return %d, %sum : {m2}, {m1}
}}"""
    x = np.random.default_rng(5).standard_normal((m, n)).astype(F32)
    d, s = xla_opt.run(program, x, backend="jit")
    e = np.exp(x.astype(np.float64))
    np.testing.assert_allclose(d, e * x, rtol=2e-7)
    np.testing.assert_allclose(s, e.sum(axis=1), rtol=1e-6)
