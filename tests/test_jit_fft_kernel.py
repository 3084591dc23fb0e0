"""The JIT's FFT kernel (lowering/kernels/fft.py, issue 32): xla.fft of lengths whose
prime factors are at most 13 calls the kernel library (FftToKernel), other lengths
keep the generic lowering (FftToGeneric). Expected values: numpy.fft in f64 (the
kernel computes in complex<f64>, so an f32 or c64 result is numpy's to one rounding),
the interpreter, and XLA through JAX for an exported FFT filter. The NaN and infinity
behaviour (the kernel's exact steps) is tests/test_jit_fft_special_values.py's; here a
row with a NaN or a huge value among finite rows checks that each row takes its own
way."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from xla_opt.lowering.kernels import fft

import xla_opt
from tests.test_jit_fft_special_values import fft_program

RNG = np.random.default_rng(32)
REAL = {np.complex64: np.float32, np.complex128: np.float64}


def random(shape, dtype) -> np.ndarray:
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


def case(kind: str, shape: tuple[int, ...], lengths: list[int], dtype):
    """(program, operand, numpy's result in f64) of one xla.fft."""
    axes = tuple(range(len(shape) - len(lengths), len(shape)))
    if kind == "IRFFT":
        operand_shape = (*shape[: len(shape) - 1], lengths[-1] // 2 + 1)
        x = random(operand_shape, dtype)
        expected = np.fft.irfftn(x.astype(np.complex128), lengths, axes=axes)
        result_dtype = REAL[dtype]
    elif kind == "RFFT":
        x = random(shape, dtype)
        expected = np.fft.rfftn(x.astype(np.float64), axes=axes)
        result_dtype = np.complex64 if dtype == np.float32 else np.complex128
    else:
        x = random(shape, dtype)
        transform = np.fft.fftn if kind == "FFT" else np.fft.ifftn
        expected = transform(x.astype(np.complex128), axes=axes)
        result_dtype = dtype
    return fft_program(kind, x, lengths, expected.shape, result_dtype), x, expected


def assert_close(got: np.ndarray, expected: np.ndarray) -> None:
    """Within one rounding to the result's type (and f64 rounding), relative to the
    largest magnitude."""
    single = got.dtype in (np.float32, np.complex64)
    scale = max(np.max(np.abs(expected)), 1e-300)
    error = np.max(np.abs(got.astype(expected.dtype) - expected)) / scale
    assert error < (2e-7 if single else 1e-13), error


def calls_kernel(program: str) -> bool:
    return "xla_opt_fft_" in xla_opt.compile(program, backend="jit").jit.llvm_ir


# (kind, shape, fft_length, dtype): every length of the brief on some kind and type,
# batched rows, 1-D to 3-D
CASES = [
    ("FFT", (1,), [1], np.complex64),
    ("FFT", (3, 2), [2], np.complex128),
    ("FFT", (5, 8), [8], np.complex64),
    ("FFT", (4, 12), [12], np.complex128),
    ("FFT", (2, 60), [60], np.complex64),
    ("FFT", (3, 1024), [1024], np.complex128),
    ("FFT", (2, 4096), [4096], np.complex64),
    ("FFT", (2, 8, 12), [8, 12], np.complex64),
    ("FFT", (2, 4, 6, 10), [4, 6, 10], np.complex128),
    ("IFFT", (4, 60), [60], np.complex128),
    ("IFFT", (2, 1024), [1024], np.complex64),
    ("IFFT", (3, 5, 8), [5, 8], np.complex128),
    ("IFFT", (2, 3, 4, 7), [3, 4, 7], np.complex64),
    ("RFFT", (1,), [1], np.float32),
    ("RFFT", (3, 2), [2], np.float64),
    ("RFFT", (4, 8), [8], np.float32),
    ("RFFT", (2, 60), [60], np.float64),
    ("RFFT", (8, 4096), [4096], np.float32),
    ("RFFT", (3, 6, 12), [6, 12], np.float32),
    ("RFFT", (3, 336), [336], np.float32),  # packed: 168 = 8 x 3 x 7, radix 8 then odd steps
    ("RFFT", (2, 4, 5, 9), [4, 5, 9], np.float64),
    ("IRFFT", (1,), [1], np.complex64),
    ("IRFFT", (3, 2), [2], np.complex128),
    ("IRFFT", (2, 12), [12], np.complex64),
    ("IRFFT", (2, 120), [120], np.complex128),
    ("IRFFT", (4, 1024), [1024], np.complex64),
    ("IRFFT", (2, 80), [80], np.complex128),  # packed: 40 = 8 x 5
    ("IRFFT", (3, 4, 8), [4, 8], np.complex128),
    ("IRFFT", (2, 3, 5, 6), [3, 5, 6], np.complex64),
]


@pytest.mark.parametrize("kind, shape, lengths, dtype", CASES, ids=str)
def test_kernel_matches_numpy(kind, shape, lengths, dtype):
    program, x, expected = case(kind, shape, lengths, dtype)
    compiled = xla_opt.compile(program, backend="jit")
    assert "xla_opt_fft_" in compiled.jit.llvm_ir
    (got,) = compiled(x)
    assert got.shape == expected.shape
    assert_close(got, expected)


@pytest.mark.parametrize(
    "kind, shape, lengths, dtype",
    [
        ("FFT", (2, 12), [12], np.complex64),
        ("RFFT", (3, 4, 10), [4, 10], np.float64),
        ("IRFFT", (2, 8), [14], np.complex64),
    ],
    ids=str,
)
def test_kernel_matches_the_interpreter(kind, shape, lengths, dtype):
    program, x, _ = case(kind, shape, lengths, dtype)
    (got,) = xla_opt.run(program, x, backend="jit")
    (expected,) = xla_opt.run(program, x, backend="interpreter")
    assert_close(got, expected.astype(np.complex128 if expected.dtype.kind == "c" else np.float64))


@pytest.mark.parametrize(
    "kind, shape, lengths, dtype",
    [
        ("FFT", (2, 17), [17], np.complex64),  # a prime above 13 (the generic's direct step)
        ("FFT", (2, 51), [51], np.complex128),  # 3 x 17: Bluestein's
        ("RFFT", (2, 4, 34), [4, 34], np.float32),  # one axis the kernel does not take
        ("IRFFT", (2, 19), [19], np.complex64),
    ],
    ids=str,
)
def test_other_lengths_keep_the_generic_lowering(kind, shape, lengths, dtype):
    program, x, expected = case(kind, shape, lengths, dtype)
    assert not calls_kernel(program)
    (got,) = xla_opt.run(program, x, backend="jit")
    assert_close(got, expected)


def test_zero_length_and_empty_operand_keep_the_generic_lowering():
    x = np.zeros((0, 8), np.complex64)
    program = fft_program("FFT", x, [8], (0, 8), np.complex64)
    assert not calls_kernel(program)
    x = np.ones((2, 4), np.float32)
    program = fft_program("RFFT", x, [4], (2, 3), np.complex64)
    assert calls_kernel(program)


def test_supported_lengths():
    assert [n for n in range(1, 40) if not fft.supported(n)] == [17, 19, 23, 29, 31, 34, 37, 38]
    assert fft.supported(2**20 * 3 * 5 * 7 * 11 * 13) and not fft.supported(0)


def test_rows_with_nan_infinity_or_huge_values_take_the_exact_steps():
    """A row with a NaN, an infinity or a value past 2^960 (f64: its sums could
    overflow) is transformed term by term (the generic lowering's NaNs and infinities:
    the interpreter's on these inputs); the finite rows around it by the fast steps."""
    x = random((6, 16), np.complex128)
    x[1, 3] = np.nan
    x[3, 0] = complex(0, np.inf)
    x[4, 5] = 2.0**1000
    program = fft_program("FFT", x, [16], x.shape, np.complex128)
    (got,) = xla_opt.run(program, x, backend="jit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (expected,) = xla_opt.run(program, x, backend="interpreter")
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(e))
        np.testing.assert_array_equal(np.isinf(g), np.isinf(e))
        finite = np.isfinite(e)
        np.testing.assert_allclose(g[finite], e[finite], rtol=1e-12, atol=1e-12 * np.max(np.abs(e[finite])))
    assert_close(got[[0, 2, 5]], np.fft.fft(x[[0, 2, 5]]))


def test_rows_split_over_threads_give_the_same_bits():
    program, x, expected = case("FFT", (16, 2048), [2048], np.complex64)
    compiled = xla_opt.compile(program, backend="jit")
    before = xla_opt.get_num_threads()
    try:
        xla_opt.set_num_threads(1)
        (one,) = compiled(x)
        xla_opt.set_num_threads(2)
        (two,) = compiled(x)
    finally:
        xla_opt.set_num_threads(before)
    np.testing.assert_array_equal(one, two)
    assert_close(one, expected)


def test_jax_fft_filter_matches_jax():
    """rfft of each row, times a frequency response, irfft: what JAX exports for it."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    def fft_filter(x, h_re, h_im):
        return jnp.fft.irfft(jnp.fft.rfft(x, axis=-1) * (h_re + 1j * h_im), n=x.shape[-1], axis=-1)

    x = RNG.standard_normal((8, 1024)).astype(np.float32)
    h_re, h_im = (RNG.standard_normal(513).astype(np.float32) for _ in range(2))
    text = jax.jit(fft_filter).lower(x, h_re, h_im).as_text()
    compiled = xla_opt.compile(text, backend="jit")
    assert "xla_opt_fft_r2c" in compiled.jit.llvm_ir and "xla_opt_fft_c2r" in compiled.jit.llvm_ir
    (got,) = compiled(x, h_re, h_im)
    expected = np.asarray(jax.jit(fft_filter)(x, h_re, h_im))
    np.testing.assert_allclose(got, expected, rtol=0, atol=2e-5 * np.max(np.abs(expected)))
