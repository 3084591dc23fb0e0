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

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects import xla

from . import regions
from .regions import plain

# --------------------------------------------------------------------------------------
# Index arrays (shared by gather and scatter)
# --------------------------------------------------------------------------------------


def _as_int64(x: np.ndarray) -> np.ndarray:
    """Integer indices as int64 (huge u64 values saturate: they are out of bounds anyway)."""
    x = plain(x)
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
    x = plain(operand)
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
    op: xla.ScatterOp,
    inputs: Sequence[np.ndarray],
    scatter_indices: np.ndarray,
    updates: Sequence[np.ndarray],
) -> tuple[np.ndarray, ...]:
    outs = [plain(x).copy() for x in inputs]
    shape = outs[0].shape
    rank = len(shape)
    update_window_dims = op.get_update_window_dims()
    inserted = set(op.get_inserted_window_dims())
    vectors = index_vectors(scatter_indices, op.get_index_vector_dim())
    batch = vectors.shape[:-1]
    n_batch = int(np.prod(batch, dtype=np.int64))
    # (a rank-0 operand has starts of length 0: reshape(-1, 0) cannot infer the count)
    starts = full_starts(vectors, op.get_scatter_dims_to_operand_dims(), rank).reshape(n_batch, rank)

    # updates as (update_scatter_dims..., update_window_dims...)
    upd_rank = plain(updates[0]).ndim
    scatter_dims = [d for d in range(upd_rank) if d not in set(update_window_dims)]
    perm = scatter_dims + list(update_window_dims)
    window_sizes = iter(plain(updates[0]).shape[d] for d in update_window_dims)
    window = tuple(1 if d in inserted else next(window_sizes) for d in range(rank))
    n_window = int(np.prod(window, dtype=np.int64))
    upds = [np.transpose(plain(u), perm).reshape(n_batch, n_window) for u in updates]

    # whole windows out of bounds are skipped
    valid = np.all((starts >= 0) & (starts <= np.array(shape, np.int64) - np.array(window)), axis=1)
    if not valid.any() or n_window == 0:
        return tuple(outs)
    offsets = np.indices(window).reshape(rank, n_window).T  # (n_window, rank)
    positions = starts[valid][:, None, :] + offsets[None, :, :]
    # row-major linear indices (ravel_multi_index gives one index for a rank-0 shape)
    strides = np.array([int(np.prod(shape[d + 1 :], dtype=np.int64)) for d in range(rank)], np.int64)
    targets = (positions @ strides).reshape(-1)
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
            f[t] = plain(n).astype(f.dtype, copy=False)
    return tuple(f.reshape(shape) for f in flats)


# --------------------------------------------------------------------------------------
# rng_uniform, rng_normal
# --------------------------------------------------------------------------------------

"""Seed of each interpreter's numpy Generator for rng_uniform and rng_normal."""


# --------------------------------------------------------------------------------------
# rng_bit_generator: XLA's ThreeFry and Philox (xla/client/lib/prng.cc)
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# custom_call
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# Implementations
# --------------------------------------------------------------------------------------


@register_impls
class GatherScatterFunctions(InterpreterFunctions):
    @impl(xla.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: xla.GatherOp, args: tuple[Any, ...]):
        out = gather(
            args[0],
            args[1],
            op.get_offset_dims(),
            op.get_collapsed_slice_dims(),
            op.get_start_index_map(),
            op.get_index_vector_dim(),
            op.get_slice_sizes(),
        )
        return (out,)

    @impl(xla.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: xla.ScatterOp, args: tuple[Any, ...]):
        n = len(op.inputs)
        return scatter(interpreter, op, args[:n], args[n], args[n + 1 :])


__all__ = ["GatherScatterFunctions", "gather", "scatter"]
