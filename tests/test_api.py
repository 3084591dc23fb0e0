"""The Python API's input checks: Python values convert only without losing information."""

import numpy as np
import pytest

import xla_opt

PROGRAM = """
func.func @main(%x: tensor<2xf32>, %n: tensor<ui8>) -> tensor<2xf32> {
  %0 = xla.convert %n : (tensor<ui8>) -> tensor<f32>
  %1 = xla.multiply %x, %0 : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_python_values_convert_exactly(backend):
    (y,) = xla_opt.run(PROGRAM, [1, 2.5], 3, backend=backend)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, [3.0, 7.5])


@pytest.mark.parametrize(
    "x, n, message",
    [
        ([1, 2], 300, r"input #1 of @main: 300 is not representable as uint8"),
        ([1, 2], 2.5, r"input #1 of @main: 2.5 is not representable as uint8"),
        ([1, 2], -1, r"input #1 of @main: -1 is not representable as uint8"),
        (["a", "b"], 1, r"input #0 of @main: expected numbers of dtype float32"),
        ([1, 2, 3], 1, r"input #0 of @main: expected shape \[2\], got \[3\]"),
        (np.zeros(2, np.float64), 1, r"input #0 of @main: expected dtype float32, got float64"),
    ],
)
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_lossy_or_wrong_inputs_are_errors(backend, x, n, message):
    f = xla_opt.compile(PROGRAM, backend=backend)
    with pytest.raises(ValueError, match=message):
        f(x, n)


def test_program_errors_are_located():
    bad = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xi32> {
  %0 = xla.convert %x : (tensor<2xf32>) -> tensor<3xi32>
  %1 = xla.slice %0, start_indices = [0], limit_indices = [2], strides = [1] : (tensor<3xi32>) -> tensor<2xi32>
  func.return %1 : tensor<2xi32>
}"""
    with pytest.raises(xla_opt.ProgramError, match=r"<program>:3:3: error: 'xla.convert' op result type tensor<3xi32> must"):
        xla_opt.compile(bad)
