"""Splat constants stay splats (issue 13): `dense<0.0> : tensor<512x1x6400x6400xf32>`
(78 GiB if expanded) parses, verifies, prints, runs on the interpreter as a broadcast
view, and lowers to a fill loop, never to a global holding every element."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from xla_opt.runtime.executable import check_buffers_fit

HUGE = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.constant dense<0.25> : tensor<512x1x6400x6400xf32>
  %1 = stablehlo.slice %0 [7:8, 0:1, 9:10, 0:2] : (tensor<512x1x6400x6400xf32>) -> tensor<1x1x1x2xf32>
  %2 = stablehlo.reshape %1 : (tensor<1x1x1x2xf32>) -> tensor<2xf32>
  %3 = stablehlo.add %x, %2 : tensor<2xf32>
  return %3 : tensor<2xf32>
}"""

LARGE = """func.func @main(%x: tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>) {
  %0 = stablehlo.constant dense<18446744073709551615> : tensor<1024x1024xui64>
  %z = stablehlo.constant dense<0> : tensor<ui64>
  %s = stablehlo.reduce(%0 init: %z) applies stablehlo.xor across dimensions = [0, 1] : (tensor<1024x1024xui64>, tensor<ui64>) -> tensor<ui64>
  %1 = stablehlo.slice %0 [3:4, 5:7] : (tensor<1024x1024xui64>) -> tensor<1x2xui64>
  %2 = stablehlo.reshape %1 : (tensor<1x2xui64>) -> tensor<2xui64>
  %3 = stablehlo.subtract %2, %x : tensor<2xui64>
  return %3, %s : tensor<2xui64>, tensor<ui64>
}"""


def test_a_78_gib_splat_runs_on_the_interpreter():
    x = np.array([1.5, -2.0], np.float32)
    (got,) = xla_opt.run(HUGE, x)
    np.testing.assert_array_equal(got, x + np.float32(0.25))


def test_the_jit_says_when_a_value_does_not_fit_in_memory():
    """Compiled code would have to materialize the constant: a located error before
    compiling (the limit is this process's memory), not a crash."""
    with pytest.raises(NotImplementedError, match=r"<program>:2:3: error: 'xla.constant' op its result "
                       r"tensor<512x1x6400x6400xf32> takes 78\.1 GiB, more than"):  # fmt: skip
        xla_opt.run(HUGE, np.zeros(2, np.float32), backend="jit")


def test_the_memory_check_reads_every_result():
    module = xla_opt.load_program(LARGE)
    check_buffers_fit(module, limit=8 << 20)  # 1M ui64 = 8 MiB: fits exactly
    with pytest.raises(Exception, match="takes 0.0 GiB"):
        check_buffers_fit(module, limit=(8 << 20) - 1)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_a_large_unsigned_splat_is_exact_on_both_backends(backend):
    """2^64 - 1 in every one of 1M ui64 elements: sliced, reduced (xor of an even
    count is 0) and subtracted from, exactly."""
    x = np.array([1, 2**63], np.uint64)
    diff, total = xla_opt.run(LARGE, x, backend=backend)
    np.testing.assert_array_equal(diff, np.array([2**64 - 2, 2**63 - 1], np.uint64))
    assert int(total) == 0


def test_a_large_splat_is_a_fill_not_a_global():
    """The LLVM IR of the program holds the value once (no 8 MiB global)."""
    from xla_opt.lowering.xla_to_llvm import lower_to_llvm_ir

    ir = lower_to_llvm_ir(xla_opt.load_program(LARGE))
    assert len(ir) < 100_000
    assert "[1048576 x i64]" not in ir
