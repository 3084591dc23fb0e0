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


# --------------------------------------------------------------------------------------
# A program's FFT library: the variants and fast radices its FFTs take
# --------------------------------------------------------------------------------------


def _plan_of(n: int, order: tuple[int, ...]) -> list[int]:
    """The radices of n in `order`, as many of each as divide it (the kernel's plan)."""
    plan = []
    for radix in order:
        while n > 1 and n % radix == 0:
            plan.append(radix)
            n //= radix
    return plan


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 8, 12, 30, 60, 64, 168, 336, 4096, 8192, 11 * 13 * 4])
def test_fast_radices_are_those_of_the_plan_a_row_takes(n):
    """A real row of even n >= 4 is packed (the plan of n / 2, 8s first); another row
    takes the plan of n (4s, a 2, the odd primes); 11 and 13 have no fast steps."""
    for kind in fft.KINDS:
        packed = kind != "c2c" and n >= 4 and n % 2 == 0
        plan = _plan_of(n // 2, (8, 4, 2, 3, 5, 7, 11, 13)) if packed else _plan_of(n, (4, 2, 3, 5, 7, 11, 13))
        assert set(fft.fast_radices(kind, n)) == set(plan) - {11, 13}


# programs of several FFTs: (kind, shape, lengths, dtype) each
PROGRAMS = [
    [("RFFT", (4, 336), [336], np.float32), ("IRFFT", (3, 80), [80], np.complex128)],
    [("FFT", (2, 8, 12), [8, 12], np.complex64), ("IFFT", (2, 60), [60], np.complex128)],
    [("RFFT", (2, 4, 5, 9), [4, 5, 9], np.float64), ("FFT", (3, 1024), [1024], np.complex64)],
]


def _several(cases) -> tuple[str, list[np.ndarray]]:
    """One function computing each case's FFT of its own argument."""
    lines, inputs, params, types = [], [], [], []
    for i, (kind, shape, lengths, dtype) in enumerate(cases):
        program, x, _ = case(kind, shape, lengths, dtype)
        line = next(line for line in program.splitlines() if "xla.fft" in line)
        lines.append(line.replace("%r = xla.fft %a,", f"%r{i} = xla.fft %x{i},"))
        params.append(f"%x{i}: {line.split(': (')[1].split(')')[0]}")
        types.append(line.rsplit("-> ", 1)[1].strip())
        inputs.append(x)
    results = ", ".join(f"%r{i}" for i in range(len(cases)))
    text = (
        f"func.func @main({', '.join(params)}) -> ({', '.join(types)}) {{\n"
        + "\n".join(lines)
        + f"\n  func.return {results} : {', '.join(types)}\n}}\n"
    )
    return text, inputs


@pytest.mark.parametrize("cases", PROGRAMS, ids=str)
def test_a_programs_library_computes_the_full_librarys_bits(cases, monkeypatch):
    """A program's FFTs call one library of the variants and fast radices they take,
    whose results are the library of every variant and radix's, bit for bit; its text's
    guess (prefetched where a CPU is spare) is that library."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg import linear_algebra
    from xla_opt.lowering.kernels import libraries

    from xla_opt.runtime.binding import fft_library_in_text

    text, inputs = _several(cases)
    own = xla_opt.compile(text, backend="jit")
    library = linear_algebra.fft_kernel_library(xla_opt.load_program(text))
    assert library is not None and fft_library_in_text(text) == library
    variants, radices = library.key
    assert set(radices) < set(fft.FAST_RADICES) and len(variants) <= len(cases) * 3
    whole = libraries.fft_library(frozenset(fft.VARIANTS), fft.FAST_RADICES)
    monkeypatch.setattr(linear_algebra, "fft_kernel_library", lambda root: whole)
    # another text: not the compile cached in the process or on disk
    everything = xla_opt.compile("// every variant and radix\n" + text, backend="jit")
    assert own.jit.llvm_ir != everything.jit.llvm_ir  # the calls name their library
    for got, want in zip(own(*inputs), everything(*inputs), strict=True):
        np.testing.assert_array_equal(got, want)


def test_a_library_without_a_rows_radix_takes_its_exact_steps(monkeypatch):
    """A step of a radix the library has no fast steps of takes the exact step: still
    the transform (numpy's to rounding)."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg import linear_algebra
    from xla_opt.lowering.kernels import libraries

    program, x, expected = case("RFFT", (3, 336), [336], np.float32)
    bare = libraries.fft_library(frozenset({fft.FftVariant("r2c", False, "f32", "c64")}), ())
    monkeypatch.setattr(linear_algebra, "fft_kernel_library", lambda root: bare)
    (got,) = xla_opt.compile("// no fast steps\n" + program, backend="jit")(x)
    assert_close(got, expected)


def test_a_filters_library_has_only_its_variants_and_radix():
    """An FFT filter of 8192 (a real FFT and its inverse) compiles the two variants'
    loads, stores and packing and the radix-8 steps, not the others (1.0 s of LLVM's
    time with an empty disk cache for every variant and radix)."""
    calls = fft.kernel_calls("RFFT", (64, 8192), (64, 4097), [8192], "f32", "c64")
    calls += fft.kernel_calls("IRFFT", (64, 4097), (64, 8192), [8192], "c64", "f32")
    variants, radices = fft.library_need(calls)
    assert radices == (8,)
    ir = fft.library_ir(False, tuple(variants), radices)
    defined = {line.split("@")[1].split("(")[0] for line in ir.splitlines() if line.startswith("define")}
    assert {"xla_opt_fft_step8", "xla_opt_fft_last8", "xla_opt_fft_pack_f32", "xla_opt_fft_mix_c64"} <= defined
    assert not {"xla_opt_fft_step4", "xla_opt_fft_step7", "xla_opt_fft_pack_f64", "xla_opt_fft_load_c2c_c64"} & defined
    assert {v.symbol for v in variants} == {d for d in defined if d.startswith(("xla_opt_fft_r2c", "xla_opt_fft_c2r"))}


def test_a_programs_fft_library_is_described_for_the_executable_cache():
    """The executable cache keeps a lowered program's declarations as data: an FFT
    declaration's description rebuilds the same library (its variants and radices)."""
    import json

    from xla_opt.lowering.kernels import libraries

    text, _ = _several(PROGRAMS[0])
    names = [n for n in xla_opt.compile(text, backend="jit").jit.program.declarations if "fft" in n]
    assert names
    for name in names:
        library, symbol = libraries.resolve(name)
        description = json.loads(json.dumps(libraries.describe(name)))
        libraries._NAMES.pop(name)
        libraries.redeclare(name, description)
        assert libraries.resolve(name) == (library, symbol)
