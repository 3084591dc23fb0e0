"""Reference semantics of gather and scatter: the spec's examples, numpy take/put
references, and JAX (jax.lax.gather / scatter) as the oracle for random
configurations."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.util import gather_text, scatter_text, jax_with_x64, ELEMENT_TYPES, run_one, tensor_type
from xla_opt.interpreter import interpreted_op_names

f32, i32, i64, u32, u64 = np.float32, np.int32, np.int64, np.uint32, np.uint64


def gather(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes, result_shape, extra=""):
    rt = tensor_type(result_shape, x.dtype)
    text = gather_text(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes, rt, extra)
    return run_one(text, [x, idx], [rt])


def _scalar(dtype) -> str:
    return f"tensor<{ELEMENT_TYPES[np.dtype(dtype)]}>"


def combiner_body(op: str | None, dtypes) -> str:
    """update_computation for N inputs: `op`(current, update) on each pair, or the
    update itself when op is None (replace)."""
    n = len(dtypes)
    cur = ", ".join(f"%c{i}: {_scalar(d)}" for i, d in enumerate(dtypes))
    new = ", ".join(f"%u{i}: {_scalar(d)}" for i, d in enumerate(dtypes))
    lines = [f"  ^bb0({cur}, {new}):"]
    outs = []
    for i, d in enumerate(dtypes):
        if op is None:
            outs.append(f"%u{i}")
        else:
            lines.append(f"    %o{i} = xla.{op} %c{i}, %u{i} : {_scalar(d)}")
            outs.append(f"%o{i}")
    types = ", ".join(_scalar(d) for d in dtypes)
    lines.append(f"    xla.return {', '.join(outs)} : {types}")
    assert n == len(outs)
    return "update_computation {\n" + "\n".join(lines) + "\n  }"


def scatter(inputs, idx, updates, uwd, iwd, sdod, ivd, op="add", body=None):
    inputs, updates = list(inputs), list(updates)
    n = len(inputs)
    body = body or combiner_body(op, [x.dtype for x in inputs])
    text, rts = scatter_text(inputs, idx, updates, uwd, iwd, sdod, ivd, body)
    out = run_one(text, [*inputs, idx, *updates], rts)
    return [out] if n == 1 else out


def test_ops_are_interpreted():
    names = interpreted_op_names()
    for op in ("gather", "scatter", "rng_uniform", "rng_normal", "rng_bit_generator", "custom_call"):
        assert f"xla.{op}" in names


# ---- Gather: the spec's examples (operation_semantics, "Gather", informal description) ----

OPERAND_16x11 = np.arange(16 * 11, dtype=f32).reshape(16, 11)


def test_spec_gather_five_slices_8x6():
    # 5 slices of shape [8, 6] of a [16, 11] array, start indices S64[5, 2]: out[G, O0, O1]
    # = operand[X + O0, Y + O1] with (X, Y) = indices[G].
    idx = np.array([[0, 0], [3, 2], [8, 5], [1, 4], [7, 0]], i64)
    out = gather(OPERAND_16x11, idx, [1, 2], [], [0, 1], 1, [8, 6], (5, 8, 6))
    for g, (x, y) in enumerate(idx):
        np.testing.assert_array_equal(out[g], OPERAND_16x11[x : x + 8, y : y + 6])


def test_spec_gather_batched_4x5x2():
    # The same with gather indices of shape [4, 5, 2]: G0, G1 are batch dimensions.
    rng = np.random.default_rng(1)
    idx = np.stack([rng.integers(0, 9, (4, 5)), rng.integers(0, 6, (4, 5))], axis=-1).astype(i64)
    out = gather(OPERAND_16x11, idx, [2, 3], [], [0, 1], 2, [8, 6], (4, 5, 8, 6))
    for g0 in range(4):
        for g1 in range(5):
            x, y = idx[g0, g1]
            np.testing.assert_array_equal(out[g0, g1], OPERAND_16x11[x : x + 8, y : y + 6])


def test_spec_gather_tf_gather_nd_rows():
    # tf.gather_nd: index [G0, G1, 0] picks row X; slice_sizes [1, 11], collapsed [0].
    idx = np.array([[[1], [0], [15], [7], [3]], [[2], [2], [9], [10], [0]],
                    [[4], [5], [6], [8], [11]], [[12], [13], [14], [1], [1]]], i64)  # fmt: skip
    out = gather(OPERAND_16x11, idx, [2], [0], [0], 2, [1, 11], (4, 5, 11), ", indices_are_sorted = false")
    np.testing.assert_array_equal(out, OPERAND_16x11[idx[..., 0]])


def test_gather_clamps_start_so_slice_stays_in_bounds():
    # start clamped to [0, operand_dim - slice_size] in every dimension
    idx = np.array([[-5, -1], [15, 10], [9, 3], [100, -100]], i64)
    out = gather(OPERAND_16x11, idx, [1, 2], [], [0, 1], 1, [8, 6], (4, 8, 6))
    for g, (x, y) in enumerate(idx):
        x, y = min(max(x, 0), 8), min(max(y, 0), 5)
        np.testing.assert_array_equal(out[g], OPERAND_16x11[x : x + 8, y : y + 6])


def test_gather_take_along_axis1_implicit_index_vector_dim():
    # numpy take: rows of columns, index_vector_dim == rank(indices) (implicit trailing 1)
    x = np.arange(12, dtype=i32).reshape(3, 4)
    idx = np.array([3, 0, 2, 2, 1], u32)
    out = gather(x, idx, [0], [1], [1], 1, [3, 1], (3, 5))
    np.testing.assert_array_equal(out, np.take(x, idx.astype(np.int64), axis=1))


def test_gather_index_vector_dim_zero_and_permuted_map():
    x = np.arange(3 * 4 * 5, dtype=f32).reshape(3, 4, 5)
    # index vectors along dimension 0: idx[:, j] = (start in dim 2, start in dim 0)
    idx = np.array([[0, 4, 1, 9, 2, 0, 3], [0, 1, 2, 0, 1, 2, -1]], i32)
    out = gather(x, idx, [0, 2], [1], [2, 0], 0, [2, 1, 5], (2, 7, 5))
    for j in range(7):
        d2 = min(max(int(idx[0, j]), 0), 0)  # slice size 5 == dim 5: start clamps to 0
        d0 = min(max(int(idx[1, j]), 0), 1)
        np.testing.assert_array_equal(out[:, j, :], x[d0 : d0 + 2, 0, d2 : d2 + 5])


def test_gather_zero_sized_slice_and_scalar_indices():
    x = np.arange(60, dtype=i32).reshape(3, 4, 5)
    out = gather(x, np.array([1], i32), [0, 1], [0], [0], 0, [1, 0, 5], (0, 5))
    assert out.shape == (0, 5) and out.dtype == i32
    out = gather(x, np.array(2, i32), [0, 1], [0], [0], 0, [1, 4, 5], (4, 5))
    np.testing.assert_array_equal(out, x[2])


# ---- Gather / scatter against JAX ------------------------------------------------------


def _jax():
    return jax_with_x64("JAX is the oracle for gather/scatter")


def _random_subset(rng, n, k=None):
    k = rng.integers(0, n + 1) if k is None else k
    return sorted(rng.choice(n, size=k, replace=False).tolist())


def _random_index_layout(rng, batch, vector_size):
    """(indices shape, index_vector_dim) with the index vector at a random position."""
    ivd = int(rng.integers(0, len(batch) + 1))
    if vector_size == 1 and rng.random() < 0.3:
        return tuple(batch), len(batch)  # implicit trailing 1
    return (*batch[:ivd], vector_size, *batch[ivd:]), ivd


def _to_jax_indices(idx, ivd):
    return idx[..., None] if ivd == idx.ndim else np.moveaxis(idx, ivd, -1)


def _random_gather_config(rng):
    rank = int(rng.integers(1, 4))
    operand = tuple(int(d) for d in rng.integers(1, 6, rank))
    collapsed = _random_subset(rng, rank)
    slice_sizes = [1 if d in collapsed else int(rng.integers(0, operand[d] + 1)) for d in range(rank)]
    vector_size = int(rng.integers(0 if rank > 1 else 1, rank + 1))
    start_index_map = rng.permutation(rank)[:vector_size].tolist()
    batch = tuple(int(d) for d in rng.integers(1, 4, rng.integers(0, 3)))
    idx_shape, ivd = _random_index_layout(rng, batch, vector_size)
    n_offset = rank - len(collapsed)
    offset_dims = _random_subset(rng, len(batch) + n_offset, n_offset)
    return operand, collapsed, slice_sizes, start_index_map, batch, idx_shape, ivd, offset_dims


@pytest.mark.parametrize("seed", range(40))
def test_gather_matches_jax_clip(seed):
    jax = _jax()
    from jax import lax

    rng = np.random.default_rng(seed)
    config = _random_gather_config(rng)
    operand, collapsed, slice_sizes, start_map, batch, idx_shape, ivd, offset_dims = config
    dtype = [f32, i32, np.float64, np.int8, np.uint16][seed % 5]
    x = (rng.standard_normal(operand) * 10).astype(dtype)
    idx = rng.integers(-3, max(operand) + 3, idx_shape).astype([i32, i64, np.int8][seed % 3])
    dn = lax.GatherDimensionNumbers(tuple(offset_dims), tuple(collapsed), tuple(start_map))
    expected = lax.gather(
        x, _to_jax_indices(idx, ivd), dn, tuple(slice_sizes), mode=lax.GatherScatterMode.CLIP
    )
    expected = np.asarray(expected)
    out = gather(x, idx, offset_dims, collapsed, start_map, ivd, slice_sizes, expected.shape)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, expected)
    del jax


def _random_scatter_config(rng, in_bounds_fraction=0.7):
    rank = int(rng.integers(1, 4))
    operand = tuple(int(d) for d in rng.integers(1, 6, rank))
    inserted = _random_subset(rng, rank)
    window_sizes = [
        int(rng.integers(0 if rng.random() < 0.1 else 1, operand[d] + 1))
        for d in range(rank)
        if d not in inserted
    ]
    vector_size = int(rng.integers(0 if rank > 1 else 1, rank + 1))
    sdod = rng.permutation(rank)[:vector_size].tolist()
    batch = tuple(int(d) for d in rng.integers(1, 5, rng.integers(0, 3)))
    idx_shape, ivd = _random_index_layout(rng, batch, vector_size)
    n_window = len(window_sizes)
    uwd = _random_subset(rng, len(batch) + n_window, n_window)
    upd_shape, wi, bi = [], iter(window_sizes), iter(batch)
    for d in range(len(batch) + n_window):
        upd_shape.append(next(wi) if d in uwd else next(bi))
    # mostly in-bounds starts, some out of bounds (negative or window past the end)
    hi = max(operand)
    idx = rng.integers(0, hi, idx_shape)
    oob = rng.random(idx_shape) > in_bounds_fraction
    idx = np.where(oob, rng.integers(-3, hi + 3, idx_shape), idx)
    return operand, inserted, sdod, idx, ivd, uwd, tuple(upd_shape)


def _jax_scatter(fn, x, idx, ivd, upd, uwd, inserted, sdod, **kw):
    from jax import lax

    dn = lax.ScatterDimensionNumbers(tuple(uwd), tuple(inserted), tuple(sdod))
    return np.asarray(
        fn(x, _to_jax_indices(idx, ivd), upd, dn, mode=lax.GatherScatterMode.FILL_OR_DROP, **kw)
    )


@pytest.mark.parametrize("seed", range(30))
def test_scatter_add_matches_jax_with_repeats_and_out_of_bounds(seed):
    _jax()
    from jax import lax

    rng = np.random.default_rng(100 + seed)
    operand, inserted, sdod, idx, ivd, uwd, upd_shape = _random_scatter_config(rng)
    dtype = [i32, i64, np.int16][seed % 3]  # integer sums: exact whatever the order
    x = rng.integers(-50, 50, operand).astype(dtype)
    upd = rng.integers(-50, 50, upd_shape).astype(dtype)
    idx = idx.astype([i32, i64][seed % 2])
    expected = _jax_scatter(lax.scatter_add, x, idx, ivd, upd, uwd, inserted, sdod)
    (out,) = scatter([x], idx, [upd], uwd, inserted, sdod, ivd, "add")
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kind", ["maximum", "minimum", "multiply"])
def test_scatter_max_min_mul_match_jax(seed, kind):
    _jax()
    from jax import lax

    rng = np.random.default_rng(200 + seed)
    operand, inserted, sdod, idx, ivd, uwd, upd_shape = _random_scatter_config(rng)
    x = rng.integers(-4, 5, operand).astype(f32)
    upd = rng.integers(-4, 5, upd_shape).astype(f32)  # small integers: exact products
    fn = {"maximum": lax.scatter_max, "minimum": lax.scatter_min, "multiply": lax.scatter_mul}[kind]
    expected = _jax_scatter(fn, x, idx, ivd, upd, uwd, inserted, sdod)
    (out,) = scatter([x], idx, [upd], uwd, inserted, sdod, ivd, kind)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", range(20))
def test_scatter_replace_matches_jax_unique_windows(seed):
    _jax()
    from jax import lax

    rng = np.random.default_rng(300 + seed)
    operand, inserted, sdod, idx, ivd, uwd, upd_shape = _random_scatter_config(rng)
    x = rng.standard_normal(operand).astype(f32)
    upd = rng.standard_normal(upd_shape).astype(f32)
    (out,) = scatter([x], idx, [upd], uwd, inserted, sdod, ivd, None)
    # the oracle for overlapping windows is ill-defined: compare only where a single
    # (in-bounds) update lands, found with scatter_add of ones
    ones = _jax_scatter(lax.scatter_add, np.zeros(operand, i32), idx, ivd, np.ones(upd_shape, i32),
                        uwd, inserted, sdod)  # fmt: skip
    expected = _jax_scatter(lax.scatter, x, idx, ivd, upd, uwd, inserted, sdod)
    np.testing.assert_array_equal(out[ones <= 1], expected[ones <= 1])


def test_scatter_at_set_add_max_like_jax_numpy():
    jax = _jax()
    import jax.numpy as jnp

    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 3)).astype(f32)
    rows = np.array([4, 0, 5, 2], i32)
    upd = rng.standard_normal((4, 3)).astype(f32)
    kw = dict(uwd=[1], iwd=[0], sdod=[0], ivd=1)
    for op, method in [(None, "set"), ("add", "add"), ("maximum", "max")]:
        (out,) = scatter([x], rows, [upd], op=op, **kw)
        expected = getattr(jnp.asarray(x).at[rows], method)(upd)
        np.testing.assert_array_equal(out, np.asarray(expected))
    del jax


# ---- Scatter: numpy references, semantics corners --------------------------------------


def test_scatter_add_repeated_rows_like_numpy_add_at():
    x = np.zeros((4, 3), i32)
    rows = np.array([[1], [3], [1], [1]], i64)
    upd = np.arange(12, dtype=i32).reshape(4, 3)
    (out,) = scatter([x], rows, [upd], [1], [0], [0], 1, "add")
    expected = x.copy()
    np.add.at(expected, rows[:, 0], upd)
    np.testing.assert_array_equal(out, expected)


def test_scatter_replace_repeated_index_applies_updates_in_order():
    # the spec leaves the order open; ours is row-major over the update scatter dims
    x = np.zeros(4, f32)
    idx = np.array([2, 0, 2], i32)
    (out,) = scatter([x], idx, [np.array([1, 2, 3], f32)], [], [0], [0], 1, None)
    np.testing.assert_array_equal(out, [2, 0, 3, 0])


def test_scatter_non_commutative_computation_gets_current_first():
    # update_computation(current, update) = current - update: the current value first
    x = np.full(3, 10, i32)
    idx = np.array([[0], [0], [2]], i32)
    (out,) = scatter([x], idx, [np.array([1, 2, 5], i32)], [], [0], [0], 1, "subtract")
    np.testing.assert_array_equal(out, [7, 10, 5])


def test_scatter_skips_windows_out_of_bounds_without_clamping():
    x = np.zeros((5, 5), i32)
    idx = np.array([[0, 0], [4, 4], [3, 3], [-1, 2], [2, 4]], i32)
    upd = np.ones((5, 2, 2), i32)
    (out,) = scatter([x], idx, [upd], [1, 2], [], [0, 1], 1, "add")
    expected = np.zeros((5, 5), i32)
    expected[0:2, 0:2] += 1
    expected[3:5, 3:5] += 1  # [4, 4] and [2, 4] (window past the end) and [-1, 2] skipped
    np.testing.assert_array_equal(out, expected)


def test_scatter_variadic_two_inputs_together():
    # argmax-like pairs: keep (value, index) of the larger value; ties keep the smaller index
    vals = np.full(3, -np.inf, f32)
    ids = np.full(3, -1, i32)
    idx = np.array([0, 2, 0, 2, 1], i32)
    uv = np.array([1.0, 5.0, 3.0, 5.0, -2.0], f32)
    ui = np.arange(5, dtype=i32)
    body = """update_computation {
  ^bb0(%cv: tensor<f32>, %ci: tensor<i32>, %uv: tensor<f32>, %ui: tensor<i32>):
    %gt = xla.compare %uv, %cv, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = xla.select %gt, %uv, %cv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = xla.select %gt, %ui, %ci : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %v, %i : tensor<f32>, tensor<i32>
  }"""
    out_v, out_i = scatter([vals, ids], idx, [uv, ui], [], [0], [0], 1, body=body)
    np.testing.assert_array_equal(out_v, [3.0, -2.0, 5.0])
    np.testing.assert_array_equal(out_i, [2, 4, 1])
    assert out_v.dtype == f32 and out_i.dtype == i32


def test_scatter_non_elementwise_computation_runs_per_element():
    # a computation with a nested op the vectorizer does not know: a reduce over a
    # 1-element tensor made by broadcast_in_dim; still current + update
    x = np.arange(6, dtype=f32).reshape(2, 3)
    idx = np.array([[1], [1]], i32)
    upd = np.ones((2, 3), f32)
    body = """update_computation {
  ^bb0(%c: tensor<f32>, %u: tensor<f32>):
    %s = xla.add %c, %u : tensor<f32>
    %b = xla.broadcast_in_dim %s, broadcast_dimensions = [] : (tensor<f32>) -> tensor<1xf32>
    %z = xla.constant dense<0.0> : tensor<f32>
    %r = xla.reduce (%b), (%z), dimensions = [0] body {
    ^bb1(%p: tensor<f32>, %q: tensor<f32>):
      %t = xla.add %p, %q : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<1xf32>, tensor<f32>) -> tensor<f32>
    xla.return %r : tensor<f32>
  }"""
    try:
        (out,) = scatter([x], idx, [upd], [1], [0], [0], 1, body=body)
    except xla_opt.ProgramError as e:  # pragma: no cover - syntax of another family
        pytest.skip(f"nested reduce not parsable here: {e}")
    np.testing.assert_array_equal(out, [[0, 1, 2], [5, 6, 7]])


def test_scatter_does_not_mutate_inputs():
    x = np.zeros(3, i32)
    upd = np.array([1, 1], i32)
    scatter([x], np.array([0, 1], i32), [upd], [], [0], [0], 1, "add")
    np.testing.assert_array_equal(x, [0, 0, 0])
