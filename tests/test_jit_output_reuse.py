"""The JIT reuses a large result buffer of the previous call only when nothing of the
caller's references it any more (issue 11: a fresh large numpy array page-faults on
every call): a result still held, or viewed, is never overwritten."""

from __future__ import annotations

import numpy as np

import xla_opt
from xla_opt.runtime.executable import REUSE_MIN_BYTES

N = REUSE_MIN_BYTES // 4 * 2  # f32 elements: large enough to be reused
PROGRAM = f"""func.func @main(%a: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %0 = xla.add %a, %a : tensor<{N}xf32>
  func.return %0 : tensor<{N}xf32>
}}"""


def test_held_results_are_never_overwritten():
    f = xla_opt.compile(PROGRAM, backend="jit")
    ones = np.ones(N, np.float32)
    first = f(ones)[0]
    second = f(2 * ones)[0]
    view = f(3 * ones)[0][::2]  # only a view of the third result is kept
    fourth = f(4 * ones)[0]
    np.testing.assert_array_equal(first, 2 * ones)
    np.testing.assert_array_equal(second, 4 * ones)
    np.testing.assert_array_equal(view, 6 * ones[::2])
    np.testing.assert_array_equal(fourth, 8 * ones)
    addresses = {a.ctypes.data for a in (first, second, view.base, fourth)}
    assert len(addresses) == 4


def test_a_dropped_result_is_reused():
    f = xla_opt.compile(PROGRAM, backend="jit")
    ones = np.ones(N, np.float32)
    address = f(ones)[0].ctypes.data  # the result is dropped at once
    again = f(5 * ones)[0]
    assert again.ctypes.data == address
    np.testing.assert_array_equal(again, 10 * ones)
    small = xla_opt.compile(PROGRAM.replace(str(N), "8"), backend="jit")
    kept = small(np.ones(8, np.float32))[0]  # small results are always fresh
    assert small(np.ones(8, np.float32))[0] is not kept
