"""Reference semantics of the random number generators: rng_bit_generator bit-exact
against XLA (through JAX) and known answers; rng_uniform / rng_normal ranges and
moments."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import jax_with_x64, run_one, tensor_type, ttype
from xla_opt.interpreter.rng import DEFAULT_RNG_SEED

f32, i32, i64, u32, u64 = np.float32, np.int32, np.int64, np.uint32, np.uint64


# ---- rng_bit_generator: bit-exact against XLA through JAX --------------------------------


def rng_bits(state, shape, dtype, algorithm):
    st = ttype(state)
    rt = tensor_type(shape, dtype)
    text = f"xla.rng_bit_generator %a0, rng_algorithm = {algorithm} : ({st}) -> ({st}, {rt})"
    new_state, bits = run_one(text, [state], [st, rt])
    return new_state, bits


RBG_SHAPES = [(), (1,), (5,), (4,), (3, 5), (2, 3), (7, 1, 3), (0,), (3, 0), (6, 6), (1, 9, 2), (33,)]


@pytest.mark.parametrize("algorithm", ["THREE_FRY", "PHILOX", "DEFAULT"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_rng_bit_generator_matches_xla(algorithm, dtype):
    jax = jax_with_x64("JAX is the oracle for rng_bit_generator")
    from jax import lax

    jalg = {"THREE_FRY": lax.RandomAlgorithm.RNG_THREE_FRY, "PHILOX": lax.RandomAlgorithm.RNG_PHILOX,
            "DEFAULT": lax.RandomAlgorithm.RNG_DEFAULT}[algorithm]  # fmt: skip
    rng = np.random.default_rng(np.dtype(dtype).itemsize)
    # one compilation per shape: a third of the shapes per (algorithm, dtype), all of
    # them over the dtypes of each algorithm
    k = (np.dtype(dtype).itemsize.bit_length() + len(algorithm)) % 3
    for i, shape in enumerate(RBG_SHAPES[k::3]):
        state = rng.integers(0, 2**64, 2, dtype=u64, endpoint=False)
        if i % 3 == 0:
            state[1] = np.uint64(2**64 - 2)  # counter wrap-around (Philox: carry into the key word)
        exp_state, exp_bits = lax.rng_bit_generator(
            jax.numpy.asarray(state), shape, dtype=dtype, algorithm=jalg
        )
        new_state, bits = rng_bits(state, shape, dtype, algorithm)
        assert bits.dtype == dtype and bits.shape == shape and new_state.dtype == u64
        np.testing.assert_array_equal(bits, np.asarray(exp_bits), err_msg=f"{shape}")
        np.testing.assert_array_equal(new_state, np.asarray(exp_state), err_msg=f"{shape}")


def _compile_stablehlo(text):
    """Compile a StableHLO module with JAX's CPU client (private API; skip if it moved)."""
    try:
        from jax._src import xla_bridge
        from jax._src.lib import xla_client

        backend = xla_bridge.get_backend("cpu")
        return backend.compile_and_load(text, backend.devices()[:1], xla_client.CompileOptions())
    except Exception as e:  # pragma: no cover - depends on JAX internals
        pytest.skip(f"cannot compile StableHLO text with this JAX: {e}")


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64, np.uint16])
def test_rng_bit_generator_philox_three_word_state_matches_xla(dtype):
    # JAX's API takes only 2-word states; compile the StableHLO op directly.
    jax = jax_with_x64("JAX is the oracle for rng_bit_generator")
    for shape, state in [((5,), [1, 2**64 - 1, 5]), ((3, 4), [7, 2**64 - 3, 2**64 - 1]), ((), [3, 4, 5])]:
        state = np.array(state, u64)
        rt = tensor_type(shape, dtype)
        text = (
            f"func.func public @main(%s: tensor<3xui64>) -> (tensor<3xui64>, {rt}) {{\n"
            "  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = PHILOX\n"
            f"    : (tensor<3xui64>) -> (tensor<3xui64>, {rt})\n"
            f"  return %0, %1 : tensor<3xui64>, {rt}\n}}\n"
        )
        exe = _compile_stablehlo(text)
        exp_state, exp_bits = (np.asarray(a) for a in exe.execute([jax.device_put(state)]))
        new_state, bits = rng_bits(state, shape, dtype, "PHILOX")
        np.testing.assert_array_equal(bits, exp_bits.reshape(shape))
        np.testing.assert_array_equal(new_state, exp_state)


def test_rng_bit_generator_signed_output_is_the_unsigned_bits():
    state = np.array([42, 7], u64)
    _, ubits = rng_bits(state, (6,), u32, "THREE_FRY")
    _, sbits = rng_bits(state, (6,), i32, "THREE_FRY")
    np.testing.assert_array_equal(sbits, ubits.view(i32))
    _, ubits = rng_bits(state, (5,), np.uint8, "PHILOX")
    _, sbits = rng_bits(state, (5,), np.int8, "PHILOX")
    np.testing.assert_array_equal(sbits, ubits.view(np.int8))


def test_rng_bit_generator_known_threefry_vector():
    # Random123's known-answer test for Threefry-2x32-20: key = counter = 0 gives
    # (0x6b200159, 0x99ba4efe). XLA's state [key, counter] with counter 0 and one pair.
    _, bits = rng_bits(np.array([0, 0], u64), (2,), u32, "THREE_FRY")
    np.testing.assert_array_equal(bits, np.array([0x6B200159, 0x99BA4EFE], u32))


def test_rng_bit_generator_known_philox_vector():
    # Random123's known-answer test for Philox-4x32-10: counter = key = 0 gives
    # (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8).
    _, bits = rng_bits(np.array([0, 0, 0], u64), (4,), u32, "PHILOX")
    np.testing.assert_array_equal(bits, np.array([0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8], u32))


# ---- rng_uniform / rng_normal ----------------------------------------------------------


def rng(op, a, b, shape):
    rt = tensor_type(shape, a.dtype)
    return run_one(f"xla.{op} %a0, %a1 : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt])


@pytest.mark.parametrize("dtype", [f32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_rng_uniform_float_range_and_determinism(dtype):
    a, b = np.array(-2, dtype), np.array(3, dtype)
    out = rng("rng_uniform", a, b, (4000,))
    assert out.dtype == dtype and out.shape == (4000,)
    assert out.min() >= -2 and out.max() < 3
    assert abs(float(out.astype(np.float64).mean()) - 0.5) < 0.15
    np.testing.assert_array_equal(out, rng("rng_uniform", a, b, (4000,)))  # same seed, same values


def test_rng_uniform_bf16_narrow_interval_stays_below_b():
    bf = ml_dtypes.bfloat16
    a, b = np.array(1.0, bf), np.array(1.0078125, bf)  # b is the next bf16 after 1
    out = rng("rng_uniform", a, b, (500,))
    assert out.dtype == bf and np.all(out == a)


@pytest.mark.parametrize("dtype", [i32, i64, u32, u64, np.int8])
def test_rng_uniform_integers_in_half_open_range(dtype):
    a, b = np.array(3, dtype), np.array(9, dtype)
    out = rng("rng_uniform", a, b, (3, 700))
    assert out.dtype == dtype and out.shape == (3, 700)
    assert set(np.unique(out).tolist()) == set(range(3, 9))


def test_rng_uniform_full_i64_range_and_pred():
    lo, hi = np.array(np.iinfo(i64).min, i64), np.array(np.iinfo(i64).max, i64)
    out = rng("rng_uniform", lo, hi, (100,))
    assert out.dtype == i64 and (out < 0).any() and (out > 0).any()
    out = rng("rng_uniform", np.array(False), np.array(True), (50,))
    assert out.dtype == np.bool_ and not out.any()


def test_rng_normal_moments_and_determinism():
    mu, sigma = np.array(5, f32), np.array(2, f32)
    out = rng("rng_normal", mu, sigma, (200, 100))
    assert out.dtype == f32
    assert abs(float(out.mean()) - 5) < 0.05 and abs(float(out.std()) - 2) < 0.05
    np.testing.assert_array_equal(out, rng("rng_normal", mu, sigma, (200, 100)))
    out16 = rng("rng_normal", np.array(0, np.float16), np.array(1, np.float16), (10,))
    assert out16.dtype == np.float16


def test_rng_successive_calls_in_one_run_differ():
    program = """
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = xla.rng_uniform %a, %b : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
  %1 = xla.rng_uniform %a, %b : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
  func.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}"""
    a, b = np.array(0, f32), np.array(1, f32)
    first, second = xla_opt.run(program, a, b)
    assert not np.array_equal(first, second)
    again = xla_opt.run(program, a, b)
    np.testing.assert_array_equal(again[0], first)
    np.testing.assert_array_equal(again[1], second)
    # the documented seed: the first draw is numpy's Generator from DEFAULT_RNG_SEED
    expected = np.random.default_rng(DEFAULT_RNG_SEED).random(8, dtype=f32)
    np.testing.assert_array_equal(first, expected)
