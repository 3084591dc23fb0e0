"""The rng family on the JIT: rng_bit_generator bit-exact with the interpreter (THREE_FRY,
PHILOX and DEFAULT, every integer output type, several state sizes and shapes)."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from xla_opt.lowering.xla_to_linalg import LOWERED_OPS

from .util import tensor_type

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
    assert "xla.rng_bit_generator" in LOWERED_OPS
