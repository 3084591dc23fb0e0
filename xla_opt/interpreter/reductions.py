"""Reference semantics of the ops that fold or order elements with a computation:
reduce, reduce_window, select_and_scatter, sort, map.

Computations are run through `regions`: element-wise reducers, comparators and
selectors are applied to whole arrays at once (one region call per reduced element,
window position...), anything else element by element.

Semantic choices (XLA's spec, StableHLO's reference where XLA is silent):
* reduce folds each result element from its init value in operand order,
  f(...f(f(init, x0), x1)..., xn); long folds are reassociated into contiguous
  blocks (the spec allows any association; the order of the elements is kept and the
  init value is applied exactly once). Elements beyond a dynamic size
  (set_dimension_size) of a reduced dimension are ignored.
* reduce_window pads (and base-dilates) every input with its init value, then folds
  each window in row-major order from the init value. Elements beyond a dynamic size
  count as padding (the init value). A cumulative window (a scan: one input, one
  window dimension spanning the whole of a dimension longer than SCAN_BASE_LENGTH,
  padded by its length - 1, or its length, on one side, every other dimension
  untouched; what jnp.cumsum, cumprod, cummax and lax.cumlogsumexp write) is folded
  as XLA:CPU folds it, whose ReduceWindowRewriter makes it a two-level scan
  (`tree_scan`): in bf16 or f16, every partial sum rounded, the result depends on the
  association, and a strictly sequential fold differed from XLA on 75% of a cumsum.
* select_and_scatter walks each window in row-major order keeping the current
  selected element while select(current, candidate) holds (ties keep the earlier
  element); padding is never selected; scatter folds the source values into an
  output initialised with init_value, overlapping windows in row-major window order.
* sort is stable. A comparator that is a single LT / GT compare of the first pair
  is done with numpy's stable argsort (TOTALORDER on the IEEE total order keys;
  FLOAT only without NaNs, since a NaN compares false with everything); any other
  comparator drives Python's stable sort (one comparator call per comparison).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Region

from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.element_types import elem_of, shape_of
from xla_opt.dialects.xla.computation import ReturnOp

from . import regions
from .dynamic import DynamicArray, dynamic_sizes
from .elementwise import HALF_TYPES, _total_order_key
from .regions import exact, plain, result_dtypes

# Folds longer than this are reassociated into about 2 * sqrt(K) region calls.
_SEQUENTIAL_FOLD_LIMIT = 32


# XLA:CPU's base length for rewriting cumulative reduce_windows (its ReduceWindowRewriter,
# registered with base_length 16): a scan longer than this becomes scans of rows of
# this length and a scan of the rows' totals.
SCAN_BASE_LENGTH = 16

# Largest batch * n * n of comparator results precomputed at once for a generic sort.
_PAIRWISE_LIMIT = 1 << 22


def fold(
    interpreter: Interpreter,
    region: Region,
    inits: Sequence[np.ndarray],
    flat: Sequence[np.ndarray],
    name: str = "reducer",
) -> list[np.ndarray]:
    """Fold the last axis of each array of `flat` (shape out + (K,)) with `region`,
    starting from `inits` (scalars); returns the N arrays of shape `out`."""
    out_shape = flat[0].shape[:-1]
    k_total = flat[0].shape[-1]
    accs = [np.broadcast_to(init, out_shape).copy() for init in inits]
    if k_total == 0 or math.prod(out_shape) == 0:
        return accs
    if k_total <= _SEQUENTIAL_FOLD_LIMIT:
        for k in range(k_total):
            accs = list(regions.run_vectorized(interpreter, region, [*accs, *(f[..., k] for f in flat)], name))
        return accs
    # Contiguous blocks folded side by side: block 0 from the init value, every other
    # block from its own first element; then the block results folded in order.
    m = math.isqrt(k_total - 1) + 1
    c = -(-k_total // m)
    padded = [np.concatenate([f, np.repeat(f[..., -1:], c * m - k_total, axis=-1)], axis=-1) for f in flat]
    blocks = [p.reshape(*out_shape, c, m) for p in padded]
    first = regions.run_vectorized(interpreter, region, [*accs, *(b[..., 0, 0] for b in blocks)], name)
    block_accs = [b[..., 0].copy() for b in blocks]
    for acc, f in zip(block_accs, first):
        acc[..., 0] = f
    starts = np.arange(c) * m
    for i in range(1, m):
        new = regions.run_vectorized(interpreter, region, [*block_accs, *(b[..., i] for b in blocks)], name)
        valid = starts + i < k_total
        block_accs = [np.where(valid, n, a).astype(a.dtype, copy=False) for n, a in zip(new, block_accs)]
    accs = [a[..., 0] for a in block_accs]
    for j in range(1, c):
        accs = list(regions.run_vectorized(interpreter, region, [*accs, *(a[..., j] for a in block_accs)], name))
    return accs


def _dilated(size: int, dilation: int) -> int:
    return 0 if size == 0 else (size - 1) * dilation + 1


def pad_and_dilate(
    x: np.ndarray, fill: np.ndarray, base_dilations: Sequence[int], padding: Sequence[Sequence[int]]
) -> np.ndarray:
    """`x` with dilation - 1 `fill` elements between neighbours, then `low` / `high`
    `fill` elements at each end (negative padding crops)."""
    grown = [max(lo, 0) + _dilated(s, d) + max(hi, 0) for s, d, (lo, hi) in zip(x.shape, base_dilations, padding)]
    buffer = np.full(grown, fill, dtype=x.dtype)
    place = tuple(slice(max(lo, 0), max(lo, 0) + _dilated(s, d), d) for s, d, (lo, _) in zip(x.shape, base_dilations, padding))
    buffer[place] = x
    crop = tuple(slice(max(-lo, 0), g - max(-hi, 0)) for g, (lo, hi) in zip(grown, padding))
    return buffer[crop]


def window_slices(
    offset: Sequence[int], window_dilations: Sequence[int], strides: Sequence[int], out_shape: Sequence[int]
) -> tuple[slice, ...]:
    """The element at window position `offset` of every window, as one strided slice."""
    return tuple(
        slice(o * wd, o * wd + st * (n - 1) + 1, st)
        for o, wd, st, n in zip(offset, window_dilations, strides, out_shape)
    )


def _mask_beyond_dynamic(x: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """Elements beyond the dynamic sizes replaced by `fill` (a plain array)."""
    sizes = dynamic_sizes(x)
    values = plain(x)
    if tuple(sizes) == values.shape:
        return values
    keep = np.zeros(values.shape, bool)
    keep[tuple(slice(0, s) for s in sizes)] = True
    return np.where(keep, values, fill).astype(values.dtype)


def fold_windows(
    interpreter: Interpreter,
    body: Region,
    padded: Sequence[np.ndarray],
    inits: Sequence[np.ndarray],
    window: Sequence[int],
    strides: Sequence[int],
    window_dilations: Sequence[int],
    out_shape: Sequence[int],
) -> list[np.ndarray]:
    """Every window of the padded (and base-dilated) inputs folded with `body` in
    row-major order from the init values."""
    accs = [np.broadcast_to(init, out_shape).copy() for init in inits]
    for offset in np.ndindex(*window):
        where = window_slices(offset, window_dilations, strides, out_shape)
        accs = list(regions.run_vectorized(interpreter, body, [*accs, *(p[where] for p in padded)], "body"))
    return accs


def cumulative_scan(
    shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    base_dilations: Sequence[int],
    window_dilations: Sequence[int],
    padding: Sequence[Sequence[int]],
) -> tuple[int, bool, bool] | None:
    """(dimension, forward, exclusive) when the window is a scan XLA:CPU rewrites
    (TryOptimizeCumSumOrProd): one non-trivial window dimension, as long as that
    dimension (longer than SCAN_BASE_LENGTH), stride and dilations 1, padded by its
    length - 1 (inclusive) or its length (exclusive) below (a forward scan) or above
    (a reverse one); None otherwise."""
    trivial = [
        size == 1 and stride == 1 and base == 1 and dilation == 1 and tuple(pad) == (0, 0)
        for size, stride, base, dilation, pad in zip(window, strides, base_dilations, window_dilations, padding)
    ]
    if trivial.count(False) != 1:
        return None
    dim = trivial.index(False)
    length = shape[dim]
    low, high = padding[dim]
    if length <= SCAN_BASE_LENGTH or window[dim] != length or strides[dim] != 1:
        return None
    if base_dilations[dim] != 1 or window_dilations[dim] != 1:
        return None
    forward = low in (length - 1, length) and high == 0
    if not forward and not (high in (length - 1, length) and low == 0):
        return None
    return dim, forward, (low if forward else high) == length


def tree_scan(
    interpreter: Interpreter, body: Region, x: np.ndarray, init: np.ndarray, forward: bool, exclusive: bool
) -> np.ndarray:
    """The scan of `x` along its last axis (length L > SCAN_BASE_LENGTH; `forward` or
    reverse, inclusive or exclusive: L + 1 results, the init value first or last) as
    XLA:CPU's ReduceWindowRewriter computes it, base length B = SCAN_BASE_LENGTH:
    x padded with the init value to a multiple of B and cut into rows of B, each row
    scanned (a window of B: every element folded from the init value, in order); the
    rows' last (reverse: first) elements, their totals, scanned exclusively (a window
    of as many rows, itself rewritten so when longer than B), which gives each row the
    fold of the rows before (after) it, its carry; each element is body(row scan,
    carry), the padding cut off, and an exclusive scan padded with the init value."""
    length = x.shape[-1]
    batch = x.shape[:-1]
    base = SCAN_BASE_LENGTH
    padded_length = -(-length // base) * base
    rows = padded_length // base
    tiles = pad_and_dilate(x, init, [1] * x.ndim, [(0, 0)] * (x.ndim - 1) + [(0, padded_length - length)])
    tiles = tiles.reshape(*batch, rows, base)
    rank = tiles.ndim
    row_padding = [(0, 0)] * (rank - 1) + [(base - 1, 0) if forward else (0, base - 1)]
    (row_scans,) = fold_windows(
        interpreter,
        body,
        [pad_and_dilate(tiles, init, [1] * rank, row_padding)],
        [init],
        [1] * (rank - 1) + [base],
        [1] * rank,
        [1] * rank,
        tiles.shape,
    )
    totals = row_scans[..., -1] if forward else row_scans[..., 0]
    if rows > base:
        carries = tree_scan(interpreter, body, totals, init, forward, exclusive=True)
    else:
        carry_padding = [(0, 0)] * (totals.ndim - 1) + [(rows, 0) if forward else (0, rows)]
        (carries,) = fold_windows(
            interpreter,
            body,
            [pad_and_dilate(totals, init, [1] * totals.ndim, carry_padding)],
            [init],
            [1] * (totals.ndim - 1) + [rows],
            [1] * totals.ndim,
            [1] * totals.ndim,
            (*batch, rows + 1),
        )
    carries = carries[..., :rows] if forward else carries[..., 1:]
    carried = np.broadcast_to(carries[..., None], row_scans.shape)
    (combined,) = regions.run_vectorized(interpreter, body, [row_scans, carried], "body")
    out = np.asarray(combined).astype(row_scans.dtype, copy=False).reshape(*batch, padded_length)[..., :length]
    if exclusive:
        edge = [(0, 0)] * (out.ndim - 1) + [(1, 0) if forward else (0, 1)]
        out = pad_and_dilate(out, init, [1] * out.ndim, edge)
    return out


_SWAPPED = {"LT": "GT", "GT": "LT"}


def simple_comparator(region: Region) -> tuple[str, str] | None:
    """(direction, compare type) when the comparator is one LT / GT compare of the first
    pair (lhs_0, rhs_0) (or of (rhs_0, lhs_0)), else None."""
    block = region.block
    ops = list(block.ops)
    if len(ops) != 2 or len(block.args) < 2:
        return None
    compare, ret = ops
    if not isinstance(compare, ew.CompareOp) or not isinstance(ret, ReturnOp):
        return None
    if len(ret.operands) != 1 or ret.operands[0] is not compare.results[0]:
        return None
    direction = compare.get_comparison_direction()
    if direction not in _SWAPPED:
        return None
    lhs, rhs = block.args[0], block.args[1]
    if compare.lhs is rhs and compare.rhs is lhs:
        direction = _SWAPPED[direction]
    elif not (compare.lhs is lhs and compare.rhs is rhs):
        return None
    element = elem_of(compare.lhs.type)
    ctype = (
        compare.get_compare_type()
        if compare.compare_type is not None
        else ew.default_compare_type(element).value
    )
    return direction, ctype


def _stable_argsort(keys: np.ndarray, descending: bool) -> np.ndarray:
    """Stable permutation along the last axis; equal keys keep their order."""
    if not descending:
        return np.argsort(keys, axis=-1, kind="stable")
    n = keys.shape[-1]
    reversed_order = np.argsort(keys[..., ::-1], axis=-1, kind="stable")
    return (n - 1 - reversed_order)[..., ::-1]


def _fast_sort_keys(x: np.ndarray, ctype: str) -> np.ndarray | None:
    """Keys numpy orders exactly as the compare does, or None (use the comparator)."""
    if x.dtype.kind == "c":
        return None
    if x.dtype in HALF_TYPES:
        x = x.astype(np.float32)
    if ctype == "TOTALORDER":
        return _total_order_key(x) if x.dtype.kind == "f" else None
    if x.dtype.kind == "f":
        # FLOAT: a NaN is unordered with everything; only the comparator decides.
        return None if ctype != "FLOAT" or np.isnan(x).any() else x
    return x


class _Key:
    """A sort key whose `<` is the comparator (Python's sort only uses `<`)."""

    __slots__ = ("i", "less")

    def __init__(self, i: int, less) -> None:
        self.i = i
        self.less = less

    def __lt__(self, other: _Key) -> bool:
        return self.less(self.i, other.i)


def _generic_sort_perm(interpreter: Interpreter, region: Region, flat: Sequence[np.ndarray]) -> np.ndarray:
    """Stable permutations (batch, n) from the comparator region over `flat` (batch, n)."""
    batch, n = flat[0].shape
    perm = np.empty((batch, n), np.int64)
    if regions.is_elementwise(region) and batch * n * n <= _PAIRWISE_LIMIT:
        # less[b, i, j] = comparator(x_i, x_j), all pairs in one call
        args = [a for x in flat for a in (x[:, :, None], x[:, None, :])]
        less = np.asarray(regions.call(interpreter, region, args, "comparator")[0], bool)
        less = np.broadcast_to(less, (batch, n, n))
        for b in range(batch):
            table = less[b]
            perm[b] = sorted(range(n), key=lambda i, t=table: _Key(i, lambda p, q: bool(t[p, q])))
        return perm
    for b in range(batch):
        row = [x[b] for x in flat]

        def less(p: int, q: int, row=row) -> bool:
            args = [a for x in row for a in (x[p].copy(), x[q].copy())]
            return bool(regions.call(interpreter, region, args, "comparator")[0])

        perm[b] = sorted(range(n), key=lambda i, f=less: _Key(i, f))
    return perm


@register_impls
class ReductionFunctions(InterpreterFunctions):
    @impl(xla.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: xla.ReduceOp, args: tuple[Any, ...]):
        n = len(op.inputs)
        inputs, inits = args[:n], args[n:]
        dtypes = result_dtypes(op)
        rank = inputs[0].ndim
        reduced = op.get_dimensions()
        kept = [d for d in range(rank) if d not in reduced]
        sizes = [min(s) for s in zip(*(dynamic_sizes(x) for x in inputs))] if rank else []
        crop = tuple(slice(0, sizes[d]) if d in reduced else slice(None) for d in range(rank))
        moved = [np.transpose(plain(x)[crop], kept + list(reduced)) for x in inputs]
        out_shape = tuple(inputs[0].shape[d] for d in kept)
        flat = [m.reshape(*out_shape, -1) if math.prod(out_shape) else m.reshape(*out_shape, 0) for m in moved]
        results = exact(fold(interpreter, op.body, [plain(i) for i in inits], flat, "body"), dtypes)
        kept_sizes = tuple(sizes[d] for d in kept)
        if kept_sizes != out_shape:
            # dynamic sizes of the kept dimensions carry over to the result
            marked = []
            for r in results:
                r = r.view(DynamicArray)
                r.dynamic_sizes = kept_sizes
                marked.append(r)
            results = tuple(marked)
        return results

    @impl(xla.ReduceWindowOp)
    def run_reduce_window(self, interpreter: Interpreter, op: xla.ReduceWindowOp, args: tuple[Any, ...]):
        n = len(op.inputs)
        inputs, inits = args[:n], [plain(i) for i in args[n:]]
        dtypes = result_dtypes(op)
        rank = inputs[0].ndim
        window = op.get_window_dimensions()
        strides = op.get_window_strides() or (1,) * rank
        base_dil = op.get_base_dilations() or (1,) * rank
        window_dil = op.get_window_dilations() or (1,) * rank
        padding = op.get_padding() if op.padding is not None else [(0, 0)] * rank
        out_shape = shape_of(op.results[0].type)
        if math.prod(out_shape) == 0:
            return tuple(np.empty(out_shape, d) for d in dtypes)
        scan = cumulative_scan(inputs[0].shape, window, strides, base_dil, window_dil, padding)
        if scan is not None and n == 1 and not isinstance(inputs[0], DynamicArray):
            dim, forward, exclusive = scan
            moved = np.moveaxis(plain(inputs[0]), dim, -1)
            out = tree_scan(interpreter, op.body, moved, inits[0], forward, exclusive)
            return exact([np.ascontiguousarray(np.moveaxis(out, -1, dim))], dtypes)
        padded = [
            pad_and_dilate(_mask_beyond_dynamic(x, init), init, base_dil, padding)
            for x, init in zip(inputs, inits, strict=True)
        ]
        return exact(fold_windows(interpreter, op.body, padded, inits, window, strides, window_dil, out_shape), dtypes)

    @impl(xla.SelectAndScatterOp)
    def run_select_and_scatter(
        self, interpreter: Interpreter, op: xla.SelectAndScatterOp, args: tuple[Any, ...]
    ):
        operand, source, init = (plain(a) for a in args)
        dtype = operand.dtype
        rank = operand.ndim
        window = op.get_window_dimensions()
        strides = op.get_window_strides() or (1,) * rank
        padding = op.get_padding() if op.padding is not None else [(0, 0)] * rank
        out_shape = source.shape
        result = np.full(operand.size, init, dtype)
        if math.prod(out_shape) == 0 or operand.size == 0:
            return (result.reshape(operand.shape),)
        ones = (1,) * rank
        values = pad_and_dilate(operand, np.zeros((), dtype), ones, padding)
        positions = pad_and_dilate(np.arange(operand.size).reshape(operand.shape), np.array(-1), ones, padding)
        selected = np.zeros(out_shape, dtype)
        selected_at = np.full(out_shape, -1, np.int64)
        have = np.zeros(out_shape, bool)
        for offset in np.ndindex(*window):
            where = window_slices(offset, ones, strides, out_shape)
            candidate, at = values[where], positions[where]
            valid = at >= 0
            if have.any():
                keep = np.asarray(
                    regions.run_vectorized(interpreter, op.select, [selected, candidate], "select")[0], bool
                )
            else:
                keep = np.zeros(out_shape, bool)
            take = valid & ~(have & keep)
            selected = np.where(take, candidate, selected).astype(dtype)
            selected_at = np.where(take, at, selected_at)
            have |= valid
        targets = selected_at[have]  # windows in row-major order
        updates = source[have]
        # Round r applies every window's r-th update of its target: targets are distinct
        # within a round, and the rounds keep the row-major order of the windows.
        order = np.argsort(targets, kind="stable")
        sorted_targets = targets[order]
        starts = np.r_[0, np.flatnonzero(np.diff(sorted_targets)) + 1] if len(targets) else np.zeros(0, int)
        group_start = np.repeat(starts, np.diff(np.r_[starts, len(targets)]))
        rounds = np.empty(len(targets), np.int64)
        rounds[order] = np.arange(len(targets)) - group_start
        for r in range(int(rounds.max(initial=-1)) + 1):
            pick = rounds == r
            t = targets[pick]
            result[t] = regions.run_vectorized(interpreter, op.scatter, [result[t], updates[pick]], "scatter")[0]
        return (result.reshape(operand.shape).astype(dtype, copy=False),)

    @impl(xla.SortOp)
    def run_sort(self, interpreter: Interpreter, op: xla.SortOp, args: tuple[Any, ...]):
        inputs = [plain(x) for x in args]
        rank = inputs[0].ndim
        dim = op.get_dimension() if op.get_dimension() is not None else rank - 1
        moved = [np.moveaxis(x, dim, -1) for x in inputs]
        n = moved[0].shape[-1]
        if n <= 1 or moved[0].size == 0:
            return tuple(x.copy() for x in inputs)
        perm = None
        simple = simple_comparator(op.comparator)
        if simple is not None:
            keys = _fast_sort_keys(moved[0], simple[1])
            if keys is not None:
                perm = _stable_argsort(keys, descending=simple[0] == "GT")
        if perm is None:
            batch_shape = moved[0].shape[:-1]
            flat = [m.reshape(-1, n) for m in moved]
            perm = _generic_sort_perm(interpreter, op.comparator, flat).reshape(*batch_shape, n)
        return tuple(np.moveaxis(np.take_along_axis(m, perm, axis=-1), -1, dim).copy() for m in moved)

    @impl(xla.MapOp)
    def run_map(self, interpreter: Interpreter, op: xla.MapOp, args: tuple[Any, ...]):
        (dtype,) = result_dtypes(op)
        shape = shape_of(op.result.type)
        if math.prod(shape) == 0:
            return (np.empty(shape, dtype),)
        out = regions.run_vectorized(interpreter, op.computation, [plain(a) for a in args], "computation")
        return exact(out, [dtype])
