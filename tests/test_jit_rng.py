"""The rng family on the JIT: rng_bit_generator bit-exact with the interpreter (THREE_FRY,
PHILOX and DEFAULT, every integer output type, several state sizes and shapes);
rng_uniform and rng_normal with the interpreter's distributions (range, mean, spread,
dtype, shape; two calls differ), not its bits: the JIT does not use numpy's generator."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xla_opt.lowering.conversions.convert_xla_to_linalg import LOWERED_OPS

import xla_opt

from .util import tensor_type

BF16 = np.dtype(ml_dtypes.bfloat16)

# Counters near the end of their range: the 64-bit counter wraps (and Philox carries
# into the high word of a 3-word state).
STATES = {
    2: np.array([0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE], np.uint64),
    3: np.array([0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE, 0xFFFFFFFFFFFFFFFF], np.uint64),
}
OUTPUT_DTYPES = [np.uint32, np.uint64, np.uint8, np.uint16, np.int32, np.int64, np.int8, np.int16]
SHAPES = [(), (1,), (7,), (3, 5), (5, 3), (2, 3), (3, 2, 5), (0, 3)]
ALGORITHMS = [("THREE_FRY", 2), ("PHILOX", 2), ("PHILOX", 3), ("DEFAULT", 2), ("DEFAULT", 3)]


def bit_generator_program(algorithm: str, state_size: int, outputs) -> str:
    """One rng_bit_generator per (shape, dtype) of `outputs`, all from the argument
    state (one compilation checks them all); returns each op's state and bits."""
    st = tensor_type((state_size,), np.uint64)
    types, lines, returned = [], [], []
    for i, (shape, dtype) in enumerate(outputs):
        ot = tensor_type(shape, dtype)
        lines.append(
            f'  %r{i}:2 = "xla.rng_bit_generator"(%s) <{{rng_algorithm = #xla<rng_algorithm {algorithm}>}}>'
            f" : ({st}) -> ({st}, {ot})\n"
        )
        types += [st, ot]
        returned += [f"%r{i}#0", f"%r{i}#1"]
    results = ", ".join(types)
    return (
        f"func.func @main(%s: {st}) -> ({results}) {{\n"
        + "".join(lines)
        + f"  func.return {', '.join(returned)} : {results}\n"
        "}\n"
    )


def assert_bit_exact(program: str, *inputs: np.ndarray) -> None:
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.dtype == e.dtype and g.shape == e.shape, i
        np.testing.assert_array_equal(g, e, err_msg=f"result {i}")


@pytest.mark.parametrize("algorithm,state_size", ALGORITHMS)
def test_rng_bit_generator_types(algorithm, state_size):
    """Every output type (u8 and u16 are the low bits of 32-bit words, signed types the
    same bits as their unsigned twins) on an odd element count; PHILOX with a 2-word
    state and DEFAULT (PHILOX) take the same paths, checked on one type per width."""
    dtypes = OUTPUT_DTYPES if (algorithm, state_size) in (("THREE_FRY", 2), ("PHILOX", 3)) else OUTPUT_DTYPES[:3]
    program = bit_generator_program(algorithm, state_size, [((3, 5), d) for d in dtypes])
    assert_bit_exact(program, STATES[state_size])


@pytest.mark.parametrize("algorithm,state_size", ALGORITHMS[:3])
def test_rng_bit_generator_shapes(algorithm, state_size):
    """ThreeFry's 32-bit outputs split the first even dimension, else the largest, in
    halves; Philox takes four words per block: both depend on the shape (rank 0, odd
    and even element counts, empty)."""
    outputs = [(shape, np.uint32) for shape in SHAPES] + [(shape, np.uint64) for shape in SHAPES[:4]]
    assert_bit_exact(bit_generator_program(algorithm, state_size, outputs), STATES[state_size])


def test_rng_bit_generator_known_values():
    """Threefry-2x32 on key 0 and counter 0 gives (0x6B200159, 0x99BA4EFE), the
    published known-answer test (Random123's kat_vectors, 20 rounds)."""
    program = bit_generator_program("THREE_FRY", 2, [((2,), np.uint32)])
    state, bits = xla_opt.run(program, np.zeros(2, np.uint64), backend="jit")
    assert [hex(b) for b in bits] == ["0x6b200159", "0x99ba4efe"]
    np.testing.assert_array_equal(state, [0, 1])


def test_rng_bit_generator_chained():
    """The new state feeds the next call: two calls in a row differ and the counters
    add up (ThreeFry 4x4 u32: 8 blocks per call)."""
    st, ot = tensor_type((2,), np.uint64), tensor_type((4, 4), np.uint32)
    call = '"xla.rng_bit_generator"({s}) <{{rng_algorithm = #xla<rng_algorithm THREE_FRY>}}> : ({st}) -> ({st}, {ot})'
    program = (
        f"func.func @main(%s: {st}) -> ({st}, {ot}, {ot}) {{\n"
        f"  %a:2 = {call.format(s='%s', st=st, ot=ot)}\n"
        f"  %b:2 = {call.format(s='%a#0', st=st, ot=ot)}\n"
        f"  func.return %b#0, %a#1, %b#1 : {st}, {ot}, {ot}\n"
        "}\n"
    )
    state = np.array([42, 7], np.uint64)
    assert_bit_exact(program, state)
    new_state, first, second = xla_opt.run(program, state, backend="jit")
    np.testing.assert_array_equal(new_state, [42, 7 + 16])
    assert not np.array_equal(first, second)


def test_rng_ops_are_lowered():
    assert {"xla.rng_bit_generator", "xla.rng_uniform", "xla.rng_normal"} <= LOWERED_OPS


# --------------------------------------------------------------------------------------
# rng_uniform, rng_normal: the interpreter's distributions (not numpy's bits)
# --------------------------------------------------------------------------------------

SAMPLES = (100, 100)


def two_draws_program(op: str, dtype, shape=SAMPLES) -> str:
    """Two calls of `op` on the same parameters %p, %q (they must differ)."""
    s, o = tensor_type((), dtype), tensor_type(shape, dtype)
    return (
        f"func.func @main(%p: {s}, %q: {s}) -> ({o}, {o}) {{\n"
        f"  %x = xla.{op} %p, %q : ({s}, {s}) -> {o}\n"
        f"  %y = xla.{op} %p, %q : ({s}, {s}) -> {o}\n"
        f"  func.return %x, %y : {o}, {o}\n"
        "}\n"
    )


def draws(op: str, dtype, p, q, shape=SAMPLES):
    """{backend: (x, y)}: two draws on the interpreter (the oracle) and on the JIT."""
    program = two_draws_program(op, dtype, shape)
    args = (np.array(p, dtype), np.array(q, dtype))
    return {backend: xla_opt.run(program, *args, backend=backend) for backend in ("interpreter", "jit")}


def check_each(results, dtype, shape, check) -> None:
    """`check(sample)` holds on every draw of both backends; the two JIT draws differ."""
    for backend, (x, y) in results.items():
        for sample in (x, y):
            assert sample.dtype == np.dtype(dtype) and sample.shape == shape, backend
            check(sample.astype(np.float64))
    x, y = results["jit"]
    assert not np.array_equal(x, y)


UNIFORM_FLOATS = [
    (np.float32, -2.0, 3.0),
    (np.float64, 0.0, 1.0),
    (np.float16, 1.0, 2.0),  # ulp 2^-10: a + (b - a) u rounds to b for u > 1 - 2^-11
    (BF16, -1.0, 1.0),
]


@pytest.mark.parametrize("dtype,a,b", UNIFORM_FLOATS, ids=lambda v: str(v))
def test_rng_uniform_float(dtype, a, b):
    """Floats in [a, b) (never b, even where rounding would reach it), mean (a + b) / 2
    and standard deviation (b - a) / sqrt(12) within 5 standard errors of 10^4 draws."""
    width = b - a

    def check(s):
        assert a <= s.min() and s.max() < b
        assert abs(s.mean() - (a + b) / 2) < 5 * width / np.sqrt(12 * s.size)
        assert abs(s.std() - width / np.sqrt(12)) < 0.05 * width / np.sqrt(12)

    check_each(draws("rng_uniform", dtype, a, b), dtype, SAMPLES, check)


UNIFORM_INTEGERS = [
    (np.int32, -5, 7),
    (np.uint8, 3, 250),
    (np.int8, -128, 127),
    (np.uint16, 0, 65535),
    (np.int64, -(2**40), 2**40),
    (np.uint32, 2**31, 2**32 - 1),
]


@pytest.mark.parametrize("dtype,a,b", UNIFORM_INTEGERS, ids=lambda v: str(v))
def test_rng_uniform_integer(dtype, a, b):
    """Integers in [a, b): never b, mean (a + b - 1) / 2 within 5 standard errors; a
    range of 12 values shows all of them."""
    sd = (b - a) / np.sqrt(12)

    def check(s):
        assert a <= s.min() and s.max() < b
        assert abs(s.mean() - (a + b - 1) / 2) < 5 * sd / np.sqrt(s.size)
        if b - a <= 12:
            assert set(np.unique(s)) == set(range(a, b))

    check_each(draws("rng_uniform", dtype, a, b), dtype, SAMPLES, check)


@pytest.mark.parametrize(
    "dtype,a,b",
    [(np.int16, 5, 5), (np.int32, 9, -3), (np.uint64, 7, 2), (np.bool_, False, True), (np.bool_, True, False)],
    ids=str,
)
def test_rng_uniform_degenerate(dtype, a, b):
    """b <= a gives a everywhere; PRED's [false, true) holds only false."""
    program = two_draws_program("rng_uniform", dtype, (3, 4))
    args = (np.array(a, dtype), np.array(b, dtype))
    for backend in ("interpreter", "jit"):
        for sample in xla_opt.run(program, *args, backend=backend):
            np.testing.assert_array_equal(sample, np.full((3, 4), a, dtype))


@pytest.mark.parametrize("dtype,mu,sigma", [(np.float32, 1.0, 2.0), (np.float64, -3.0, 0.5), (np.float16, 0.0, 1.0), (BF16, 2.0, 3.0)], ids=str)
def test_rng_normal(dtype, mu, sigma):
    """N(mu, sigma): mean within 5 standard errors, standard deviation within 5%, and
    68.3% of the draws within one sigma of mu (+- 2%)."""

    def check(s):
        assert np.isfinite(s).all()
        assert abs(s.mean() - mu) < 5 * sigma / np.sqrt(s.size)
        assert abs(s.std() - sigma) < 0.05 * sigma
        assert abs(np.mean(np.abs(s - mu) < sigma) - 0.6827) < 0.02

    check_each(draws("rng_normal", dtype, mu, sigma), dtype, SAMPLES, check)


def test_rng_rank_0():
    """A rank-0 result is one draw."""
    results = draws("rng_normal", np.float32, 0.0, 1.0, shape=())
    x, y = results["jit"]
    assert x.shape == () and np.isfinite(x) and x != y


def test_rng_uniform_in_a_loop():
    """Each execution of an rng op draws anew: the draws of two iterations of a while
    loop (the loop returns the last two) differ, and both lie in [0, 1)."""
    program = """
func.func @main(%z: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %i0 = xla.constant dense<0> : tensor<i32>
  %ri, %ra, %rb = xla.while %i0, %z, %z cond {
  ^bb0(%ci: tensor<i32>, %ca: tensor<64xf32>, %cb: tensor<64xf32>):
    %two = xla.constant dense<2> : tensor<i32>
    %go = xla.compare %ci, %two, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %go : tensor<i1>
  } body {
  ^bb0(%bi: tensor<i32>, %ba: tensor<64xf32>, %bb: tensor<64xf32>):
    %one = xla.constant dense<1> : tensor<i32>
    %next = xla.add %bi, %one : tensor<i32>
    %lo = xla.constant dense<0.0> : tensor<f32>
    %hi = xla.constant dense<1.0> : tensor<f32>
    %u = xla.rng_uniform %lo, %hi : (tensor<f32>, tensor<f32>) -> tensor<64xf32>
    xla.return %next, %bb, %u : tensor<i32>, tensor<64xf32>, tensor<64xf32>
  } : (tensor<i32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<i32>, tensor<64xf32>, tensor<64xf32>)
  func.return %ra, %rb : tensor<64xf32>, tensor<64xf32>
}
"""
    for backend in ("interpreter", "jit"):
        first, second = xla_opt.run(program, np.zeros(64, np.float32), backend=backend)
        assert not np.array_equal(first, second), backend
        for draw in (first, second):
            assert draw.min() >= 0 and draw.max() < 1 and draw.std() > 0.2, backend


# XLA's own bits: jax.lax.rng_bit_generator on JAX's CPU backend (jax 0.10.2, recorded
# once; JAX takes 2-word u64 states only) for the state STATES[2].
XLA_BITS = [
    ("THREE_FRY", (3, 5), np.uint32, [0x0123456789ABCDEF, 7], [
        0xB0F4215B, 0xE19A60B4, 0x0B3D7494, 0xACF8C4DC, 0xAAA4D889, 0x75A52907, 0xD3DD8613, 0x35D0E5F1,
        0x8ED17FE4, 0x7C2F19D8, 0xDE79BBBD, 0x1713FD18, 0xB09D029E, 0x7D84F441, 0x6CA3E732,
    ]),
    ("THREE_FRY", (3,), np.uint64, [0x0123456789ABCDEF, 1], [
        0xE19A60B4B0F4215B, 0xACF8C4DC0B3D7494, 0x6B35C4F4AAA4D889,
    ]),
    ("PHILOX", (5,), np.uint32, [0x0123456789ABCDEF, 0], [
        0x0A485194, 0x41C5F806, 0xD6822FEE, 0x3885A3D4, 0x41EB59F3,
    ]),
    ("PHILOX", (3,), np.uint64, [0x0123456789ABCDEF, 0], [
        0x41C5F8060A485194, 0x3885A3D4D6822FEE, 0x307385E041EB59F3,
    ]),
    ("PHILOX", (2, 3), np.uint8, [0x0123456789ABCDEF, 0], [0x94, 0x06, 0xEE, 0xD4, 0xF3, 0xE0]),
]  # fmt: skip


@pytest.mark.parametrize("algorithm,shape,dtype,state,bits", XLA_BITS, ids=lambda v: str(v)[:12])
def test_rng_bit_generator_matches_xla(algorithm, shape, dtype, state, bits):
    """The JIT's bits and new state are XLA's (the counter wraps around: 2^64 - 2 + 9
    is 7 for ThreeFry, and Philox's counter, 2^64 - 2 + 2 blocks, is 0)."""
    program = bit_generator_program(algorithm, 2, [(shape, dtype)])
    new_state, got = xla_opt.run(program, STATES[2], backend="jit")
    np.testing.assert_array_equal(new_state, np.array(state, np.uint64))
    np.testing.assert_array_equal(got, np.array(bits, dtype).reshape(shape))
