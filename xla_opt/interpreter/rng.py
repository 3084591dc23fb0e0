"""Reference semantics of the random number generators: rng_uniform and rng_normal
(numpy's generator, seeded per interpreter) and rng_bit_generator (THREE_FRY and
PHILOX, bit-exact with XLA's CPU backend)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of, shape_of

from .dtypes import numpy_dtype
from .elementwise import HALF_TYPES
from .regions import plain

DEFAULT_RNG_SEED = 0x5EED


def rng_generator(interpreter: Interpreter) -> np.random.Generator:
    """The interpreter's Generator (created from DEFAULT_RNG_SEED on first use)."""
    return interpreter.get_data(RngFunctions, "rng", lambda: np.random.default_rng(DEFAULT_RNG_SEED))


def _below(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The largest value of b's type below b (a < b). Stepping toward a, not -inf: the
    8-, 6- and 4-bit floats have no infinity, -inf converts to NaN in them and the step
    gave NaN (fuzz finding F4)."""
    return np.nextafter(b, a.astype(b.dtype)).astype(b.dtype)


def rng_uniform(
    generator: np.random.Generator, a: np.ndarray, b: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> np.ndarray:
    a, b = plain(a), plain(b)
    if dtype.kind == "f" or dtype in HALF_TYPES:
        compute = np.float64 if dtype == np.float64 else np.float32
        u = generator.random(shape, dtype=compute)
        with np.errstate(all="ignore"):
            lo, hi = a.astype(compute), b.astype(compute)
            out = np.asarray(lo + (hi - lo) * u).astype(dtype)
            if b > a:  # rounding must not reach b
                out = np.where(out >= b, _below(b, a), out).astype(dtype)
        return out
    if b <= a:
        return np.full(shape, a, dtype)
    if dtype == np.bool_ or dtype.kind not in "iu":
        # numpy's Generator draws no booleans nor ml_dtypes' 2- and 4-bit integers: an
        # int64 draw in [a, b), which the type holds
        return np.asarray(generator.integers(int(a), int(b), shape)).astype(dtype)
    return np.asarray(generator.integers(a[()], b[()], shape, dtype=dtype)).astype(dtype)


def rng_normal(
    generator: np.random.Generator, mu: np.ndarray, sigma: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> np.ndarray:
    compute = np.float64 if dtype == np.float64 else np.float32
    z = generator.standard_normal(shape, dtype=compute)
    with np.errstate(all="ignore"):
        out = plain(mu).astype(compute) + plain(sigma).astype(compute) * z
    return np.asarray(out).astype(dtype)


_THREEFRY_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)


_M32 = np.uint64(0xFFFFFFFF)


def _split_u64(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) 32-bit halves of u64 values."""
    v = np.asarray(v, np.uint64)
    return (v & _M32).astype(np.uint32), (v >> np.uint64(32)).astype(np.uint32)


def _join_u32(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def _rotl32(v: np.ndarray, distance: int) -> np.ndarray:
    return (v << np.uint32(distance)) | (v >> np.uint32(32 - distance))


def threefry2x32(x0: np.ndarray, x1: np.ndarray, k0: np.uint32, k1: np.uint32) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32 with 20 rounds (Salmon et al. 2011), as XLA computes it."""
    ks = (np.uint32(k0), np.uint32(k1), np.uint32(0x1BD11BDA) ^ np.uint32(k0) ^ np.uint32(k1))
    with np.errstate(over="ignore"):
        x0 = (x0 + ks[0]).astype(np.uint32)
        x1 = (x1 + ks[1]).astype(np.uint32)
        for i in range(5):
            rotations = _THREEFRY_ROTATIONS[:4] if i % 2 == 0 else _THREEFRY_ROTATIONS[4:]
            for rotation in rotations:
                x0 = (x0 + x1).astype(np.uint32)
                x1 = _rotl32(x1, rotation) ^ x0
            x0 = (x0 + ks[(i + 1) % 3]).astype(np.uint32)
            x1 = (x1 + ks[(i + 2) % 3] + np.uint32(i + 1)).astype(np.uint32)
    return x0, x1


def philox4x32(counter: Sequence[np.ndarray], k0: np.uint32, k1: np.uint32) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds, as XLA computes it."""
    c = list(counter)
    k0, k1 = np.uint32(k0), np.uint32(k1)
    with np.errstate(over="ignore"):
        for _ in range(10):
            p0 = c[0].astype(np.uint64) * np.uint64(0xD2511F53)
            p1 = c[2].astype(np.uint64) * np.uint64(0xCD9E8D57)
            lo0, hi0 = _split_u64(p0)
            lo1, hi1 = _split_u64(p1)
            c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
            k0 = np.uint32(k0 + np.uint32(0x9E3779B9))
            k1 = np.uint32(k1 + np.uint32(0xBB67AE85))
    return c


def threefry_bits(state: np.ndarray, shape: tuple[int, ...], bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Unsigned `bits`-wide random bits and the new state (XLA's ThreeFryBitGenerator):
    the counter state[1] + i (i the row-major position) is encrypted with key state[0];
    32-bit outputs split one dimension in halves, taking the two words of each block."""
    key, counter = np.uint64(state[0]), np.uint64(state[1])
    k0, k1 = _split_u64(key)
    if bits == 64:
        n = int(np.prod(shape, dtype=np.int64))
        with np.errstate(over="ignore"):
            x0, x1 = threefry2x32(*_split_u64(counter + np.arange(n, dtype=np.uint64)), k0, k1)
            new_counter = counter + np.uint64(n)
        return _join_u32(x0, x1).reshape(shape), np.array([key, new_counter], np.uint64)
    # SplitShapeIntoHalves: the first even dimension, else the largest (first) one
    if not shape:
        split, half = None, (1,)
    else:
        split = next((i for i, d in enumerate(shape) if d % 2 == 0), int(np.argmax(shape)))
        half = (*shape[:split], (shape[split] + 1) // 2, *shape[split + 1 :])
    m = int(np.prod(half, dtype=np.int64))
    with np.errstate(over="ignore"):
        x0, x1 = threefry2x32(*_split_u64(counter + np.arange(m, dtype=np.uint64)), k0, k1)
        new_state = np.array([key, counter + np.uint64(m)], np.uint64)
    if split is None:
        out = x0.reshape(())
    else:
        pairs = np.stack([x0.reshape(half), x1.reshape(half)], axis=split + 1)
        even = list(shape)
        even[split] = 2 * half[split]
        out = pairs.reshape(even)[tuple(slice(0, d) for d in shape)]
    return _narrow(out, bits), new_state


def philox_bits(state: np.ndarray, shape: tuple[int, ...], bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Unsigned `bits`-wide random bits and the new state (XLA's PhiloxBitGenerator):
    a 128-bit counter + i (i < ceil(words / 4)) encrypted with key state[0], the four
    words of each block taken in turn (two u64 per block for 64-bit outputs)."""
    state = np.asarray(state, np.uint64)
    key = state[0]
    lo, hi = (state[1], state[2]) if len(state) >= 3 else (state[1], state[0])
    k0, k1 = _split_u64(key)
    n = int(np.prod(shape, dtype=np.int64))
    blocks = ((2 * n if bits == 64 else n) + 3) // 4
    with np.errstate(over="ignore"):
        c_lo = lo + np.arange(blocks, dtype=np.uint64)
        c_hi = np.where(c_lo < lo, hi + np.uint64(1), hi).astype(np.uint64)
        words = philox4x32([*_split_u64(c_lo), *_split_u64(c_hi)], k0, k1)
        new_lo = lo + np.uint64(blocks)
        new_hi = hi + np.uint64(1) if new_lo < lo else hi
    if bits == 64:
        out = np.stack([_join_u32(words[0], words[1]), _join_u32(words[2], words[3])], axis=1)
    else:
        out = np.stack(words, axis=1)
    out = out.reshape(-1)[:n].reshape(shape)
    new_state = np.array([key, new_lo, new_hi] if len(state) >= 3 else [key, new_lo], np.uint64)
    return _narrow(out, bits), new_state


def _narrow(words: np.ndarray, bits: int) -> np.ndarray:
    """u32 words cut to their low `bits` bits (8 and 16-bit outputs)."""
    return words if bits >= 32 else words.astype(f"uint{bits}")


RNG_BIT_GENERATORS = {"THREE_FRY": threefry_bits, "PHILOX": philox_bits, "DEFAULT": philox_bits}


def rng_bit_generator(
    algorithm: str, state: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """(new state, random bits of `dtype`) exactly as XLA's CPU backend."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        raise ValueError(f"rng_bit_generator: output element type {dtype} is not an integer type")
    bits, new_state = RNG_BIT_GENERATORS[algorithm](plain(state), shape, dtype.itemsize * 8)
    return new_state, np.ascontiguousarray(bits).view(dtype).reshape(shape)


def _result(op, i: int = 0) -> tuple[tuple[int, ...], np.dtype]:
    t = op.results[i].type
    return shape_of(t), numpy_dtype(elem_of(t))


@register_impls
class RngFunctions(InterpreterFunctions):
    @impl(xla.RngUniformOp)
    def run_rng_uniform(self, interpreter: Interpreter, op: xla.RngUniformOp, args: tuple[Any, ...]):
        shape, dtype = _result(op)
        return (rng_uniform(rng_generator(interpreter), args[0], args[1], shape, dtype),)

    @impl(xla.RngNormalOp)
    def run_rng_normal(self, interpreter: Interpreter, op: xla.RngNormalOp, args: tuple[Any, ...]):
        shape, dtype = _result(op)
        return (rng_normal(rng_generator(interpreter), args[0], args[1], shape, dtype),)

    @impl(xla.RngBitGeneratorOp)
    def run_rng_bit_generator(self, interpreter: Interpreter, op: xla.RngBitGeneratorOp, args: tuple[Any, ...]):
        shape, dtype = _result(op, 1)
        return rng_bit_generator(op.get_rng_algorithm(), args[0], shape, dtype)
