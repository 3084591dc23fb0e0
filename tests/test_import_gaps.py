"""Issue 31: StableHLO that JAX emits or StableHLO's own suites hold, which the import
or the backends got wrong: complex literals with hexadecimal parts, the interpret
suite's complex compare and sign, its f8E8M0FNU constant and f64 reduce_precision,
the verifier suite's collective_broadcast and convolution cases and its internal
errors, lax.approx_max_k / approx_min_k, host callbacks. Expected values come from
JAX (XLA), numpy or the suites' own expectations; both backends run each program."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from xla_opt.api import import_stablehlo

BACKENDS = ["interpreter", "jit"]


def bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


# --------------------------------------------------------------------------------------
# Complex constants with hexadecimal parts
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_hexadecimal_complex_parts_are_ieee_bits(backend):
    """`(0x7FC00000, 0x3F800000)` is nan+1j: each hexadecimal part is the IEEE bits of
    the part's type (f32 or f64, by the element type); it was read as 2.143e9+1.065e9j."""
    program = """func.func @main() -> (tensor<complex<f32>>, tensor<2xcomplex<f64>>) {
  %0 = stablehlo.constant dense<(0x7FC00000,0x3F800000)> : tensor<complex<f32>>
  %1 = stablehlo.constant dense<[(0x7FF0000000000001, 0x8000000000000000), (0xFFF0000000000000, 2.5)]> : tensor<2xcomplex<f64>>
  return %0, %1 : tensor<complex<f32>>, tensor<2xcomplex<f64>>
}"""
    c32, c64 = xla_opt.run(program, backend=backend)
    assert bits(c32.real) == 0x7FC00000 and c32.imag == 1.0
    assert bits(c64.real).tolist() == [0x7FF0000000000001, 0xFFF0000000000000]
    assert bits(c64.imag).tolist() == [0x8000000000000000, bits(np.float64(2.5)).item()]


@pytest.mark.parametrize("backend", BACKENDS)
def test_take_along_axis_of_complex_fills_with_nan(backend):
    """JAX prints the NaN fill of a complex take_along_axis (a gather in FILL_OR_DROP
    mode) as `dense<(0x7FC00000,0.000000e+00)>`: out-of-bounds indices give nan+0j."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    a = (np.arange(6).reshape(2, 3) + 1j * np.arange(6)[::-1].reshape(2, 3)).astype(np.complex64)
    i = np.array([[0, 5], [2, -7]], np.int32)
    f = jax.jit(lambda a, i: jnp.take_along_axis(a, i, axis=1, mode="fill"))
    text = f.lower(a, i).as_text()
    assert "0x7FC00000" in text
    expected = np.asarray(f(a, i))
    assert np.isnan(expected[:, 1].real).all()
    (got,) = xla_opt.run(import_stablehlo(text), a, i, backend=backend)
    np.testing.assert_array_equal(got, expected)


# --------------------------------------------------------------------------------------
# StableHLO's interpret suite (stablehlo/tests/interpret/*.mlir): the cases we missed
# --------------------------------------------------------------------------------------

SUITE_C128_LHS = (
    "[(0x7FF0000000000001, 0x0000000000000000), (0x0000000000000000, 0x7FF0000000000001), "
    "(0x8000000000000000, 0x0000000000000000), (2.0, 2.0)]"
)
SUITE_C128_RHS = (
    "[(0x7FF0000000000001, 0x8000000000000000), (0x8000000000000000, 0x7FF0000000000001), "
    "(0x0000000000000000, 0x0000000000000000), (2.0, 1.0)]"
)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("direction", "expected"),
    [("EQ", [False, False, True, False]), ("NE", [True, True, False, True])],
)
def test_interpret_suite_compare_c128(direction, expected, backend):
    """compare.mlir's compare_op_test_c128 cases (NaN parts, -0.0 == 0.0), and the
    default comparison type (compare_op_test_c128_default)."""
    program = f"""func.func @main() -> (tensor<4xi1>, tensor<i1>) {{
  %lhs = stablehlo.constant dense<{SUITE_C128_LHS}> : tensor<4xcomplex<f64>>
  %rhs = stablehlo.constant dense<{SUITE_C128_RHS}> : tensor<4xcomplex<f64>>
  %result = stablehlo.compare {direction}, %lhs, %rhs, FLOAT : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xi1>
  %l0 = stablehlo.constant dense<(0x7FF0000000000001, 0x0000000000000000)> : tensor<complex<f64>>
  %r0 = stablehlo.constant dense<(0x7FF0000000000001, 0x8000000000000000)> : tensor<complex<f64>>
  %default = stablehlo.compare EQ, %l0, %r0 : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<i1>
  return %result, %default : tensor<4xi1>, tensor<i1>
}}"""
    got, default = xla_opt.run(program, backend=backend)
    assert got.tolist() == expected
    assert not default


@pytest.mark.parametrize("backend", BACKENDS)
def test_interpret_suite_sign_c128(backend):
    """sign.mlir's sign_op_test_c128: a NaN part gives (NaN, NaN), zero stays zero; and
    XLA's formula (each part divided by the real modulus: sign(inf+1j) = nan+0j, which
    XLA's CPU runtime gives and a complex division does not)."""
    program = """func.func @main(%x: tensor<4xcomplex<f64>>) -> (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) {
  %operand = stablehlo.constant dense<[(0x7FF0000000000001, 0x0000000000000000),
                                       (0x0000000000000000, 0x7FF0000000000001),
                                       (0.0, 0.0),
                                       (0.0, 1.0)]> : tensor<4xcomplex<f64>>
  %result = stablehlo.sign %operand : tensor<4xcomplex<f64>>
  %more = stablehlo.sign %x : tensor<4xcomplex<f64>>
  return %result, %more : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
}"""
    x = np.array([complex(np.inf, 1.0), complex(3.0, -4.0), complex(-0.0, -0.0), complex(np.inf, np.inf)])
    for dtype in (np.complex128, np.complex64):
        text = (
            program
            if dtype == np.complex128
            else program.replace("f64", "f32")
            .replace("0x7FF0000000000001", "0x7F800001")
            .replace("0x0000000000000000", "0x00000000")
        )
        suite, more = xla_opt.run(text, x.astype(dtype), backend=backend)
        assert np.isnan(suite[:2].real).all() and np.isnan(suite[:2].imag).all()
        assert suite[2:].tolist() == [0j, 1j]
        assert np.isnan(more[0].real) and more[0].imag == 0.0
        assert more[1] == np.complex128(0.6 - 0.8j).astype(dtype)
        assert bits(more[2].real) == bits(np.array(-0.0, more.real.dtype)) and bits(more[2].imag) == bits(
            np.array(-0.0, more.real.dtype)
        )
        assert np.isnan(more[3].real) and np.isnan(more[3].imag)


@pytest.mark.parametrize("backend", BACKENDS)
def test_interpret_suite_f8e8m0fnu_constant(backend):
    """constant.mlir's constant_op_test_f8_e8m0fnu, bit for bit as MLIR reads it (the
    values jaxlib's MLIR prints and XLA returns): f8E8M0FNU has no zero, so 0.0 is its
    smallest value 2^-127 (0x00); 0.1 rounds to 0.125, 3.1415 to 4; 0xFF is NaN."""
    program = """func.func @main() -> tensor<8xf8E8M0FNU> {
  %0 = stablehlo.constant dense<[0.0, 1.0, 0.125, 0.1, 3.1415, 0x00, 0x80, 0xFF]> : tensor<8xf8E8M0FNU>
  return %0 : tensor<8xf8E8M0FNU>
}"""
    (got,) = xla_opt.run(program, backend=backend)
    assert bits(got).tolist() == [0x00, 127, 124, 124, 129, 0x00, 0x80, 0xFF]
