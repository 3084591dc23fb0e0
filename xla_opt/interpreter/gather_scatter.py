"""Reference semantics of gather, scatter, the random number generators and custom calls.

* gather follows the spec's formal definition (operand index In = Oin + Sin). The full
  start index is clamped per dimension to [0, operand_dim - slice_size] so that the
  whole slice stays in bounds (XLA's behaviour, as dynamic_slice).
* scatter follows the spec's formal definition; an update whose window would leave
  the operand in some dimension (start < 0 or start + window size > operand dim) is
  skipped as a whole (XLA's behaviour: no clamping). The spec leaves the order of the
  updates undefined; here they are applied in row-major order of the update
  scatter dimensions (then of the window), each element's updates in that order, so
  repeated indices are deterministic. The update_computation gets the current
  output values first and the update values second.
* rng_uniform / rng_normal draw from a numpy Generator kept per interpreter and
  seeded from DEFAULT_RNG_SEED, so one program run gives the same values every time.
  rng_uniform gives floats in [a, b) (f16/bf16 drawn in f32 and rounded, a value
  rounded up to b is moved to the largest value below b), integers and PRED in
  [a, b); when b <= a (implementation-defined) integers are all `a` and floats
  follow a + (b - a) * u. rng_normal gives mu + sigma * N(0, 1).
* rng_bit_generator reproduces XLA's RngBitGeneratorExpander bit for bit (the state
  is u64: state[0] is the key; THREE_FRY uses state[1] as a 64-bit counter; PHILOX
  uses a 128-bit counter, (state[1], state[2]) for a 3-element state, (state[1],
  state[0]) low/high for a 2-element one, and returns only the low word then).
  DEFAULT is PHILOX (XLA's CPU default). 8/16-bit outputs keep the low bits of the
  32-bit outputs; signed outputs are the same bits.
* custom_call runs a Python function registered with `register_custom_call(name, fn)`:
  `fn(*operands)` gets read-only numpy arrays (tuples, tokens) and returns the result
  (one result), a tuple/list of results (several), or anything (no result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects.xla import gather_scatter as gs
from xla_opt.dialects.xla.base import elem_of, ints, shape_of

from . import regions
from .dtypes import BFLOAT16, check_value, numpy_dtype

HALF_TYPES = (np.dtype(np.float16), BFLOAT16)


def _plain(x: Any) -> np.ndarray:
    return np.asarray(x).view(np.ndarray)


# --------------------------------------------------------------------------------------
# Index arrays (shared by gather and scatter)
# --------------------------------------------------------------------------------------


def _as_int64(x: np.ndarray) -> np.ndarray:
    """Integer indices as int64 (huge u64 values saturate: they are out of bounds anyway)."""
    x = _plain(x)
    if x.dtype == np.uint64:
        x = np.minimum(x, np.uint64(np.iinfo(np.int64).max))
    return x.astype(np.int64)


def index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """The index array as batch dims + (vector size,): index_vector_dim moved last (an
    implicit trailing 1 when index_vector_dim is the rank)."""
    idx = _as_int64(indices)
    if index_vector_dim == idx.ndim:
        return idx[..., None]
    return np.moveaxis(idx, index_vector_dim, -1)


def full_starts(vectors: np.ndarray, index_map: Sequence[int], rank: int) -> np.ndarray:
    """Sin for every batch position: shape batch + (operand rank,), S[k] scattered to
    dimension index_map[k], 0 elsewhere."""
    starts = np.zeros((*vectors.shape[:-1], rank), np.int64)
    for k, d in enumerate(index_map):
        starts[..., d] = vectors[..., k]
    return starts


# --------------------------------------------------------------------------------------
# Gather, scatter
# --------------------------------------------------------------------------------------


def gather(
    operand: np.ndarray,
    start_indices: np.ndarray,
    offset_dims: Sequence[int],
    collapsed_slice_dims: Sequence[int],
    start_index_map: Sequence[int],
    index_vector_dim: int,
    slice_sizes: Sequence[int],
) -> np.ndarray:
    x = _plain(operand)
    rank = x.ndim
    vectors = index_vectors(start_indices, index_vector_dim)
    batch = vectors.shape[:-1]
    nb = len(batch)
    starts = full_starts(vectors, start_index_map, rank)
    upper = np.array(x.shape, np.int64) - np.array(slice_sizes, np.int64)
    starts = np.clip(starts, 0, np.maximum(upper, 0))
    # index arrays of shape batch + slice_sizes: start + offset in each operand dimension
    index = []
    for d in range(rank):
        s = starts[..., d].reshape(batch + (1,) * rank)
        o = np.arange(slice_sizes[d], dtype=np.int64).reshape(
            (1,) * nb + tuple(slice_sizes[d] if e == d else 1 for e in range(rank))
        )
        index.append(s + o)
    slices = x[tuple(index)] if rank else np.broadcast_to(x, batch).copy()
    # drop the collapsed (size-1) dimensions, then move the offset dims into place
    slices = slices.reshape(
        batch + tuple(n for d, n in enumerate(slice_sizes) if d not in set(collapsed_slice_dims))
    )
    result_rank = nb + len(offset_dims)
    offset_pos = {o: k for k, o in enumerate(offset_dims)}
    batch_axes = iter(range(nb))
    perm = [nb + offset_pos[i] if i in offset_pos else next(batch_axes) for i in range(result_rank)]
    return np.transpose(slices, perm).astype(x.dtype, copy=True)


def _occurrence_rank(targets: np.ndarray) -> np.ndarray:
    """For each element, how many earlier elements have the same target."""
    order = np.argsort(targets, kind="stable")
    sorted_t = targets[order]
    n = len(targets)
    new_group = np.ones(n, bool)
    new_group[1:] = sorted_t[1:] != sorted_t[:-1]
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n) - group_start
    return rank


def scatter(
    interpreter: Interpreter,
    op: gs.ScatterOp,
    inputs: Sequence[np.ndarray],
    scatter_indices: np.ndarray,
    updates: Sequence[np.ndarray],
) -> tuple[np.ndarray, ...]:
    outs = [_plain(x).copy() for x in inputs]
    shape = outs[0].shape
    rank = len(shape)
    update_window_dims = ints(op.update_window_dims)
    inserted = set(ints(op.inserted_window_dims))
    vectors = index_vectors(scatter_indices, op.index_vector_dim.value.data)
    batch = vectors.shape[:-1]
    starts = full_starts(vectors, ints(op.scatter_dims_to_operand_dims), rank).reshape(-1, rank)

    # updates as (update_scatter_dims..., update_window_dims...)
    upd_rank = _plain(updates[0]).ndim
    scatter_dims = [d for d in range(upd_rank) if d not in set(update_window_dims)]
    perm = scatter_dims + list(update_window_dims)
    window_sizes = iter(_plain(updates[0]).shape[d] for d in update_window_dims)
    window = tuple(1 if d in inserted else next(window_sizes) for d in range(rank))
    n_window = int(np.prod(window, dtype=np.int64))
    n_batch = int(np.prod(batch, dtype=np.int64))
    upds = [np.transpose(_plain(u), perm).reshape(n_batch, n_window) for u in updates]

    # whole windows out of bounds are skipped
    valid = np.all((starts >= 0) & (starts <= np.array(shape, np.int64) - np.array(window)), axis=1)
    if not valid.any() or n_window == 0:
        return tuple(outs)
    offsets = np.indices(window).reshape(rank, n_window).T  # (n_window, rank)
    positions = starts[valid][:, None, :] + offsets[None, :, :]
    targets = np.ravel_multi_index(tuple(np.moveaxis(positions, -1, 0)), shape).reshape(-1)
    values = [u[valid].reshape(-1) for u in upds]

    # apply the updates in rounds: round r holds the r-th update of each element, so
    # every element sees its updates in order, and each round is one vectorized call
    ranks = _occurrence_rank(targets)
    flats = [o.reshape(-1) for o in outs]
    for r in range(int(ranks.max()) + 1):
        sel = ranks == r
        t = targets[sel]
        current = [f[t] for f in flats]
        new = regions.run_vectorized(
            interpreter,
            op.update_computation,
            current + [v[sel] for v in values],
            "update_computation",
        )
        for f, n in zip(flats, new, strict=True):
            f[t] = _plain(n).astype(f.dtype, copy=False)
    return tuple(f.reshape(shape) for f in flats)


# --------------------------------------------------------------------------------------
# rng_uniform, rng_normal
# --------------------------------------------------------------------------------------

DEFAULT_RNG_SEED = 0x5EED
"""Seed of each interpreter's numpy Generator for rng_uniform and rng_normal."""


def rng_generator(interpreter: Interpreter) -> np.random.Generator:
    """The interpreter's Generator (created from DEFAULT_RNG_SEED on first use)."""
    return interpreter.get_data(
        GatherScatterFunctions, "rng", lambda: np.random.default_rng(DEFAULT_RNG_SEED)
    )


def _below(b: np.ndarray) -> np.ndarray:
    """The largest value of b's type below b."""
    return np.nextafter(b, np.array(-np.inf, b.dtype)).astype(b.dtype)


def rng_uniform(
    generator: np.random.Generator, a: np.ndarray, b: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> np.ndarray:
    a, b = _plain(a), _plain(b)
    if dtype.kind == "f" or dtype in HALF_TYPES:
        compute = np.float64 if dtype == np.float64 else np.float32
        u = generator.random(shape, dtype=compute)
        with np.errstate(all="ignore"):
            lo, hi = a.astype(compute), b.astype(compute)
            out = np.asarray(lo + (hi - lo) * u).astype(dtype)
            if b > a:  # rounding must not reach b
                out = np.where(out >= b, _below(b), out).astype(dtype)
        return out
    if b <= a:
        return np.full(shape, a, dtype)
    if dtype == np.bool_:
        return np.asarray(generator.integers(int(a), int(b), shape)).astype(np.bool_)
    return np.asarray(generator.integers(a[()], b[()], shape, dtype=dtype)).astype(dtype)


def rng_normal(
    generator: np.random.Generator, mu: np.ndarray, sigma: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> np.ndarray:
    compute = np.float64 if dtype == np.float64 else np.float32
    z = generator.standard_normal(shape, dtype=compute)
    with np.errstate(all="ignore"):
        out = _plain(mu).astype(compute) + _plain(sigma).astype(compute) * z
    return np.asarray(out).astype(dtype)


# --------------------------------------------------------------------------------------
# rng_bit_generator: XLA's ThreeFry and Philox (xla/client/lib/prng.cc)
# --------------------------------------------------------------------------------------

_M32 = np.uint64(0xFFFFFFFF)
_THREEFRY_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)


def _split_u64(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) 32-bit halves of u64 values."""
    v = np.asarray(v, np.uint64)
    return (v & _M32).astype(np.uint32), (v >> np.uint64(32)).astype(np.uint32)


def _join_u32(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def _rotl32(v: np.ndarray, distance: int) -> np.ndarray:
    return (v << np.uint32(distance)) | (v >> np.uint32(32 - distance))


def threefry2x32(
    x0: np.ndarray, x1: np.ndarray, k0: np.uint32, k1: np.uint32
) -> tuple[np.ndarray, np.ndarray]:
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
    bits, new_state = RNG_BIT_GENERATORS[algorithm](_plain(state), shape, dtype.itemsize * 8)
    return new_state, np.ascontiguousarray(bits).view(dtype).reshape(shape)


# --------------------------------------------------------------------------------------
# custom_call
# --------------------------------------------------------------------------------------

_CUSTOM_CALLS: dict[str, Callable[..., Any]] = {}


def register_custom_call(name: str, fn: Callable[..., Any] | None = None):
    """Register `fn` as the custom-call target `name` (replacing any previous one):
    `fn(*operands)` returns the result, a tuple of results, or nothing. Without `fn`,
    returns a decorator."""
    if not gs.C_IDENTIFIER.fullmatch(name):
        raise ValueError(f'custom-call target name "{name}" must be a C identifier')
    if fn is None:
        return lambda f: register_custom_call(name, f)
    if not callable(fn):
        raise TypeError(f'custom-call target "{name}": {fn!r} is not callable')
    _CUSTOM_CALLS[name] = fn
    return fn


def unregister_custom_call(name: str) -> None:
    _CUSTOM_CALLS.pop(name, None)


def registered_custom_calls() -> list[str]:
    return sorted(_CUSTOM_CALLS)


def _read_only(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_read_only(v) for v in value)
    if isinstance(value, np.ndarray):
        view = _plain(value).view()
        view.flags.writeable = False
        return view
    return value


def _owned(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_owned(v) for v in value)
    if isinstance(value, np.ndarray):
        return np.array(value, copy=True)
    return value


def custom_call(op: gs.CustomCallOp, args: Sequence[Any]) -> tuple[Any, ...]:
    name = op.call_target_name.data
    fn = _CUSTOM_CALLS.get(name)
    if fn is None:
        known = ", ".join(registered_custom_calls()) or "none"
        raise LookupError(
            f'custom_call: no Python target registered under "{name}" (registered: {known}); '
            "use xla_opt.interpreter.gather_scatter.register_custom_call(name, fn)"
        )
    returned = fn(*(_read_only(a) for a in args))
    types = [r.type for r in op.results]
    if not types:
        return ()
    if len(types) == 1:
        values = [returned]
    elif not isinstance(returned, tuple | list) or len(returned) != len(types):
        raise ValueError(
            f'custom_call "{name}": expected a tuple of {len(types)} results, got {type(returned).__name__}'
            + (f" of {len(returned)}" if isinstance(returned, tuple | list) else "")
        )
    else:
        values = list(returned)
    return tuple(
        _owned(check_value(v, t, f'custom_call "{name}" result #{i}'))
        for i, (v, t) in enumerate(zip(values, types, strict=True))
    )


# --------------------------------------------------------------------------------------
# Implementations
# --------------------------------------------------------------------------------------


def _result(op, i: int = 0) -> tuple[tuple[int, ...], np.dtype]:
    t = op.results[i].type
    return shape_of(t), numpy_dtype(elem_of(t))


@register_impls
class GatherScatterFunctions(InterpreterFunctions):
    @impl(gs.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: gs.GatherOp, args: tuple[Any, ...]):
        out = gather(
            args[0],
            args[1],
            ints(op.offset_dims),
            ints(op.collapsed_slice_dims),
            ints(op.start_index_map),
            op.index_vector_dim.value.data,
            ints(op.slice_sizes),
        )
        return (out,)

    @impl(gs.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: gs.ScatterOp, args: tuple[Any, ...]):
        n = len(op.inputs)
        return scatter(interpreter, op, args[:n], args[n], args[n + 1 :])

    @impl(gs.RngUniformOp)
    def run_rng_uniform(self, interpreter: Interpreter, op: gs.RngUniformOp, args: tuple[Any, ...]):
        shape, dtype = _result(op)
        return (rng_uniform(rng_generator(interpreter), args[0], args[1], shape, dtype),)

    @impl(gs.RngNormalOp)
    def run_rng_normal(self, interpreter: Interpreter, op: gs.RngNormalOp, args: tuple[Any, ...]):
        shape, dtype = _result(op)
        return (rng_normal(rng_generator(interpreter), args[0], args[1], shape, dtype),)

    @impl(gs.RngBitGeneratorOp)
    def run_rng_bit_generator(
        self, interpreter: Interpreter, op: gs.RngBitGeneratorOp, args: tuple[Any, ...]
    ):
        shape, dtype = _result(op, 1)
        return rng_bit_generator(op.rng_algorithm.data.value, args[0], shape, dtype)

    @impl(gs.CustomCallOp)
    def run_custom_call(self, interpreter: Interpreter, op: gs.CustomCallOp, args: tuple[Any, ...]):
        return custom_call(op, args)


__all__ = [
    "DEFAULT_RNG_SEED",
    "GatherScatterFunctions",
    "gather",
    "register_custom_call",
    "registered_custom_calls",
    "rng_bit_generator",
    "unregister_custom_call",
]
