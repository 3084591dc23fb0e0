"""The JIT's FFT on NaN and infinite inputs (issue 31, a pipeline-fuzzer finding): it
multiplied real inputs by complex twiddles, inf * (1 + 0i) = inf + NaN i, so an RFFT
of a vector with a NaN had bin 0 = NaN + NaN i where XLA (and numpy, the interpreter)
give NaN + 0i. Now a real input is multiplied as a real number (two real products
per twiddle), the trivial twiddles 1, -1, -i and i are applied exactly (sign changes
and swapped parts, as XLA's radix-2/4 butterflies), the bins 0 and n/2 of a real FFT
have the imaginary part 0, an inverse real FFT ignores theirs, and no length below 50
takes Bluestein's way (XLA's FFT, DUCC, does not).

Expected values: numpy (the interpreter) and XLA through JAX, which agree on these
inputs. What is compared is where each part of each result is NaN, +inf or -inf (and
the finite values to rounding). The inputs are ones with one NaN or infinity at each
position in turn, in the real or the imaginary part.

Not covered (a known difference): a length whose transform takes several non-trivial
steps (9, 12, 15, 18...) can put NaN where XLA puts an infinity or the other way: where
an infinity meets inf - inf depends on the butterflies, and ours are not DUCC's.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type, ttype


def fft_program(kind: str, operand: np.ndarray, lengths: list[int], result_shape, result_dtype) -> str:
    rt = tensor_type(result_shape, result_dtype)
    return (
        f"func.func @main(%a: {ttype(operand)}) -> {rt} {{\n"
        f"  %r = xla.fft %a, fft_type = {kind}, fft_length = {lengths} : ({ttype(operand)}) -> {rt}\n"
        f"  func.return %r : {rt}\n}}\n"
    )


def assert_same_specials(got: np.ndarray, expected: np.ndarray, what: str) -> None:
    """Each part NaN where expected's is, the same infinities, finite values close."""
    pairs = [(got.real, expected.real), (got.imag, expected.imag)] if np.iscomplexobj(expected) else [(got, expected)]
    for g, e in pairs:
        g, e = g.astype(np.float64), e.astype(np.float64)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(e), err_msg=f"NaNs of {what}")
        np.testing.assert_array_equal(np.isposinf(g), np.isposinf(e), err_msg=f"+inf of {what}")
        np.testing.assert_array_equal(np.isneginf(g), np.isneginf(e), err_msg=f"-inf of {what}")
        finite = np.isfinite(e)
        np.testing.assert_allclose(g[finite], e[finite], rtol=1e-5, atol=1e-4, err_msg=what)


def with_one_special(base: np.ndarray, value) -> list[np.ndarray]:
    """`base` with `value` at each position in turn."""
    out = []
    for index in np.ndindex(base.shape):
        x = base.copy()
        x[index] = value
        out.append(x)
    return out


def test_rfft_of_a_vector_with_a_nan_has_bin_zero_nan_plus_zero_i():
    """The fuzzer's reproducer: bin 0 is NaN + 0i (XLA, numpy), not NaN + NaN i."""
    x = np.array([1, np.nan, 2, 3, 4, 5, 6, 7], np.float32)
    program = fft_program("RFFT", x, [8], (5,), np.complex64)
    (got,) = xla_opt.run(program, x, backend="jit")
    assert np.isnan(got[0].real) and got[0].imag == 0
    assert np.isnan(got[4].real) and got[4].imag == 0
    # x[1] w^(2 * 1) = -i x[1]: bin 2's real part never meets the NaN
    assert got[2].real == pytest.approx(-3.0) and np.isnan(got[2].imag)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (expected,) = xla_opt.run(program, x, backend="interpreter")
        assert_same_specials(got, expected, "rfft")
        assert_same_specials(got, np.fft.rfft(x), "rfft")


# (kind, operand shape, fft_length, result shape, operand dtype, result dtype)
CASES = [
    *(("RFFT", (n,), [n], (n // 2 + 1,), np.float32, np.complex64) for n in (1, 2, 3, 4, 5, 7, 8, 16, 17)),
    ("RFFT", (4, 8), [4, 8], (4, 5), np.float32, np.complex64),
    ("RFFT", (3, 5), [3, 5], (3, 3), np.float64, np.complex128),
    *(("FFT", (n,), [n], (n,), np.complex64, np.complex64) for n in (2, 3, 4, 5, 6, 8, 10, 13, 20)),
    ("IFFT", (8,), [8], (8,), np.complex128, np.complex128),
    ("IFFT", (7,), [7], (7,), np.complex64, np.complex64),
    *(("IRFFT", (n // 2 + 1,), [n], (n,), np.complex64, np.float32) for n in (4, 5, 8, 16)),
]


@pytest.mark.parametrize("kind, shape, lengths, result_shape, dtype, result_dtype", CASES, ids=str)
def test_one_nan_or_infinity_anywhere_matches_the_interpreter(kind, shape, lengths, result_shape, dtype, result_dtype):
    base = np.ones(shape, dtype)
    program = fft_program(kind, base, lengths, result_shape, result_dtype)
    compiled = xla_opt.compile(program, backend="jit")
    specials = [np.nan, np.inf, -np.inf]
    if np.dtype(dtype).kind == "c":
        specials += [1j * np.nan, 1j * np.inf, complex(1, -np.inf)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for value in specials:
            for x in with_one_special(base, value):
                (expected,) = xla_opt.run(program, x, backend="interpreter")
                (got,) = compiled(x)
                assert_same_specials(got, expected, f"{kind} of {x}")


def test_one_nan_or_infinity_matches_jax():
    """XLA itself: jnp.fft.rfft / fft / irfft exported and run on both backends."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    functions = [
        (jnp.fft.rfft, np.ones(8, np.float32)),
        (jnp.fft.rfft, np.ones(7, np.float32)),
        (jnp.fft.fft, np.ones(6, np.complex64)),
        (lambda v: jnp.fft.irfft(v, 8), np.ones(5, np.complex64)),
        (jnp.fft.rfft2, np.ones((4, 4), np.float32)),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for f, base in functions:
            text = jax.jit(f).lower(base).as_text()
            compiled = xla_opt.compile(text, backend="jit")
            for value in (np.nan, np.inf):
                for x in with_one_special(base, value):
                    expected = np.asarray(jax.jit(f)(x))
                    (got,) = compiled(x)
                    assert_same_specials(got, expected, f"jit {text.splitlines()[0]} of {x}")
                    (got,) = xla_opt.run(text, x, backend="interpreter")
                    assert_same_specials(got, expected, f"interpreter {text.splitlines()[0]} of {x}")
