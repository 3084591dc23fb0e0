"""The gather_scatter family on the JIT against the reference interpreter (the oracle):
xla.gather and xla.scatter.

Gather only moves elements and scatter applies its updates in the interpreter's order
(row-major over the scatter indices, then the window), so results are compared
exactly, floats included, even for repeated indices and non-commutative updates."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.test_interp_gather_scatter import _random_gather_config, _random_scatter_config
from tests.util import gather_text, scatter_text, BF16, FLOATS, INTS, exact, rand, run_one, scalar, tensor_type
from xla_opt.dialects.shapes.gather_scatter import gather_shape

INDEX_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def name(dtype) -> str:
    return np.dtype(dtype).name


# --------------------------------------------------------------------------------------
# gather
# --------------------------------------------------------------------------------------


def gather(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes) -> np.ndarray:
    """xla.gather of x at idx on both backends; the JIT's result."""
    shape = gather_shape(x.shape, idx.shape, offset_dims, collapsed, start_index_map, ivd, slice_sizes)
    rt = tensor_type(shape, x.dtype)
    text = gather_text(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes, rt)
    (got,) = exact(text, [x, idx], [rt])
    return got


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS, np.bool_], ids=name)
def test_gather_embedding_lookup_of_every_element_type(dtype):
    """jnp.take(x, idx, axis=0): whole rows, out-of-range row numbers clamped."""
    x = rand(np.random.default_rng(0), (6, 4), dtype)
    idx = np.array([[0], [5], [2], [2], [-3], [9]], np.int32)
    got = gather(x, idx, [1], [0], [0], 1, [1, 4])
    np.testing.assert_array_equal(got, x[np.clip(idx[:, 0], 0, 5)])


@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=name)
def test_gather_index_types_clamp_by_signedness(index_type):
    """Negative starts clamp to 0, too big ones to dim - slice size; an unsigned index
    is never negative (u64 above 2^63 included)."""
    x = np.arange(7 * 3, dtype=np.float32).reshape(7, 3)
    info = np.iinfo(index_type)
    idx = np.array([0, 1, 4, 5, 6, info.max, info.max // 2 + 1, info.min], index_type)
    got = gather(x, idx, [1, 2], [], [0], 1, [3, 2])  # index_vector_dim = rank: implicit 1
    assert got.shape == (8, 3, 2)
    np.testing.assert_array_equal(got[3], x[4:7, :2])  # start 5 clamped to 7 - 3


def test_gather_index_vector_in_the_middle_and_map_out_of_order():
    """Indices (batch 2, vector 2, batch 3), index_vector_dim = 1; component 0 starts
    operand dimension 2, component 1 dimension 0; dimension 1 is a full window."""
    rng = np.random.default_rng(1)
    x = rand(rng, (5, 3, 6), np.float32)
    idx = rng.integers(-2, 8, (2, 2, 3)).astype(np.int16)
    got = gather(x, idx, [1], [0, 2], [2, 0], 1, [1, 3, 1])
    assert got.shape == (2, 3, 3)


def test_gather_offset_dims_first_and_partial_slices():
    """take_along_axis-style: 2-element index vectors (rows, columns) reading 2x2
    slices placed before the batch dimension."""
    rng = np.random.default_rng(2)
    x = rand(rng, (4, 6), np.int64)
    idx = rng.integers(-1, 7, (5, 2)).astype(np.uint32)
    got = gather(x, idx, [0, 1], [], [0, 1], 1, [2, 2])
    assert got.shape == (2, 2, 5)


def test_gather_collapsed_dimension_read_at_zero():
    """A collapsed dimension not in start_index_map always reads index 0."""
    x = np.arange(3 * 4, dtype=np.int32).reshape(3, 4)
    idx = np.array([[3], [1]], np.int8)
    got = gather(x, idx, [1], [0], [1], 1, [1, 1])
    np.testing.assert_array_equal(got, [[3], [1]])


@pytest.mark.parametrize(
    "operand_shape, idx_shape, offset_dims, collapsed, start_index_map, ivd, slice_sizes",
    [
        ((4,), (1,), [], [0], [0], 0, [1]),  # rank-0 result
        ((), (3, 0), [], [], [], 1, []),  # rank-0 operand, empty index vectors
        ((4, 3), (0, 1), [1], [0], [0], 1, [1, 3]),  # no batch positions
        ((4, 3), (2, 1), [1, 2], [], [0], 1, [2, 0]),  # an empty slice
    ],
)
def test_gather_degenerate_shapes(operand_shape, idx_shape, offset_dims, collapsed, start_index_map, ivd, slice_sizes):
    rng = np.random.default_rng(3)
    x = rand(rng, operand_shape, np.float64)
    idx = rng.integers(-2, 5, idx_shape).astype(np.int32)
    gather(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes)


@pytest.mark.parametrize("seed", range(8))
def test_gather_random_dimension_numbers(seed):
    rng = np.random.default_rng(100 + seed)
    operand, collapsed, slice_sizes, start_index_map, _, idx_shape, ivd, offset_dims = _random_gather_config(rng)
    x = rand(rng, operand, [np.float32, np.int16, BF16, np.uint64][seed % 4])
    idx = rng.integers(-3, max(operand) + 3, idx_shape).astype(INDEX_TYPES[seed % 4 * 2])
    gather(x, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes)


# --------------------------------------------------------------------------------------
# scatter
# --------------------------------------------------------------------------------------


def update_computation(dtypes, lines: list[str], returned: list[str]) -> str:
    """A region ^bb0(%c0.., %u0..) (current values, then updates) with `lines`."""
    cur = ", ".join(f"%c{i}: {scalar(d)}" for i, d in enumerate(dtypes))
    new = ", ".join(f"%u{i}: {scalar(d)}" for i, d in enumerate(dtypes))
    types = ", ".join(scalar(d) for d in dtypes)
    body = "\n    ".join([*lines, f"xla.return {', '.join(returned)} : {types}"])
    return f"update_computation {{\n  ^bb0({cur}, {new}):\n    {body}\n  }}"


def binary_update(op: str, dtype) -> str:
    """update_computation `op(current, update)`."""
    return update_computation([dtype], [f"%o = xla.{op} %c0, %u0 : {scalar(dtype)}"], ["%o"])


def scatter(inputs, idx, updates, uwd, iwd, sdod, ivd, body: str) -> list[np.ndarray]:
    """xla.scatter on both backends; the JIT's results."""
    text, rts = scatter_text(inputs, idx, updates, uwd, iwd, sdod, ivd, body)
    return exact(text, [*inputs, idx, *updates], rts)


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS], ids=name)
def test_scatter_add_histogram_with_repeated_indices(dtype):
    """jnp.zeros(n).at[idx].add(1): every repeat counts (float sums in order)."""
    rng = np.random.default_rng(4)
    x = np.zeros(5, dtype)
    idx = np.array([1, 3, 1, 1, 4, 0, 3], np.uint8)
    upd = np.ones(7, dtype) if dtype in INTS else rand(rng, 7, dtype)
    (got,) = scatter([x], idx, [upd], [], [0], [0], 1, binary_update("add", dtype))
    if dtype in INTS:
        np.testing.assert_array_equal(got, [1, 3, 0, 2, 1])


def test_scatter_of_bools_with_or():
    x = np.array([False, True, False, False])
    idx = np.array([[2], [0], [2]], np.int32)
    upd = np.array([True, False, False])
    (got,) = scatter([x], idx, [upd], [], [0], [0], 1, binary_update("or", np.bool_))
    np.testing.assert_array_equal(got, [False, True, True, False])


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8], ids=name)
def test_scatter_non_commutative_update_with_repeats(dtype):
    """x * 2 + u applied three times to row 1: the order of the updates shows."""
    s = scalar(dtype)
    body = update_computation(
        [dtype],
        [
            f"%two = xla.constant dense<2> : {s}" if dtype in INTS else f"%two = xla.constant dense<2.0> : {s}",
            f"%m = xla.multiply %c0, %two : {s}",
            f"%o = xla.add %m, %u0 : {s}",
        ],
        ["%o"],
    )
    rng = np.random.default_rng(5)
    x = rand(rng, (4, 3), dtype)
    idx = np.array([[1], [3], [1], [1]], np.int64)
    upd = rand(rng, (4, 3), dtype)
    scatter([x], idx, [upd], [1], [0], [0], 1, body)


@pytest.mark.parametrize("dtype", [np.float64, BF16, np.int64, np.uint64], ids=name)
def test_scatter_replace_with_repeats_keeps_the_last(dtype):
    rng = np.random.default_rng(6)
    x = rand(rng, (5, 2), dtype)
    idx = np.array([0, 4, 0, 2, 4], np.int32)
    upd = rand(rng, (5, 2), dtype)
    (got,) = scatter([x], idx, [upd], [1], [0], [0], 1, update_computation([dtype], [], ["%u0"]))
    np.testing.assert_array_equal(got[0], upd[2])
    np.testing.assert_array_equal(got[4], upd[4])


@pytest.mark.parametrize("index_type", INDEX_TYPES, ids=name)
def test_scatter_out_of_bounds_windows_are_skipped(index_type):
    """2x2 windows into a 4x5 operand: a start below 0 (or a huge unsigned one) or with
    the window past the end is skipped as a whole, not clamped."""
    x = np.zeros((4, 5), np.int32)
    info = np.iinfo(index_type)
    starts = [[0, 0], [2, 3], [3, 0], [0, 4], [2, 2], [info.max, 1], [1, info.max // 2 + 1]]
    if info.min < 0:
        starts.append([-1, 2])
    idx = np.array(starts, index_type)
    upd = np.arange(1, len(starts) * 4 + 1, dtype=np.int32).reshape(len(starts), 2, 2)
    (got,) = scatter([x], idx, [upd], [1, 2], [], [0, 1], 1, binary_update("add", np.int32))
    expected = np.zeros((4, 5), np.int32)
    for (r, c), u in zip(starts[:5], upd[:5], strict=True):
        if r <= 2 and c <= 3:
            expected[r : r + 2, c : c + 2] += u
    np.testing.assert_array_equal(got, expected)


def test_scatter_variadic_with_two_element_types():
    """Two results updated together: (max of the values, the count of updates)."""
    rng = np.random.default_rng(7)
    values, counts = rand(rng, (6,), np.float32), np.zeros(6, np.int32)
    idx = np.array([[2], [5], [2], [0], [2], [7]], np.int16)
    body = update_computation(
        [np.float32, np.int32],
        ["%m = xla.maximum %c0, %u0 : tensor<f32>", "%n = xla.add %c1, %u1 : tensor<i32>"],
        ["%m", "%n"],
    )
    got_values, got_counts = scatter(
        [values, counts], idx, [rand(rng, (6,), np.float32), np.ones(6, np.int32)], [], [0], [0], 1, body
    )
    np.testing.assert_array_equal(got_counts, [1, 0, 3, 0, 0, 1])


def test_scatter_variadic_computation_mixing_its_inputs():
    """Each result depends on the other's current value and update."""
    rng = np.random.default_rng(8)
    a, b = rand(rng, (3, 4), np.float64), rand(rng, (3, 4), np.float64)
    ua, ub = rand(rng, (2, 2, 4), np.float64), rand(rng, (2, 2, 4), np.float64)
    idx = np.array([[1, 1], [2, 1]], np.uint16)
    body = update_computation(
        [np.float64, np.float64],
        ["%s = xla.subtract %c1, %u0 : tensor<f64>", "%p = xla.multiply %c0, %u1 : tensor<f64>"],
        ["%s", "%p"],
    )
    scatter([a, b], idx, [ua, ub], [2], [0], [0], 2, body)


@pytest.mark.parametrize(
    "operand_shape, idx_shape, update_shape, uwd, iwd, sdod, ivd",
    [
        ((5,), (1,), (2,), [0], [], [0], 0),  # one window, no batch dimension
        ((4, 3), (0, 1), (0, 3), [1], [0], [0], 1),  # no updates
        ((3, 4), (2, 2), (2, 2), [0], [1], [1, 0], 0),  # window dim first, vector first
        ((2, 3, 4), (3, 2), (2, 3, 2), [0, 2], [1], [2, 1], 1),  # a window of a middle dim
    ],
)
def test_scatter_dimension_numbers(operand_shape, idx_shape, update_shape, uwd, iwd, sdod, ivd):
    rng = np.random.default_rng(9)
    x = rand(rng, operand_shape, np.float32)
    idx = rng.integers(-1, 4, idx_shape).astype(np.int32)
    upd = rand(rng, update_shape, np.float32)
    scatter([x], idx, [upd], uwd, iwd, sdod, ivd, binary_update("subtract", np.float32))


def test_scatter_into_a_rank0_operand():
    """One update of the whole (rank-0) operand, against numpy and the interpreter
    (which failed on it: its start vectors' reshape(-1, 0) cannot infer a size)."""
    x, u = np.float32(1.5), np.float32(4.0)
    idx = np.zeros((0,), np.int32)
    text = (
        "xla.scatter (%a0), %a1, (%a2), update_window_dims = [], inserted_window_dims = [], "
        f"scatter_dims_to_operand_dims = [], index_vector_dim = 0 {binary_update('subtract', np.float32)} "
        ": (tensor<f32>, tensor<0xi32>, tensor<f32>) -> tensor<f32>"
    )
    assert run_one(text, [x, idx, u], ["tensor<f32>"], backend="jit") == x - u
    assert run_one(text, [x, idx, u], ["tensor<f32>"], backend="interpreter") == x - u


@pytest.mark.parametrize("seed", range(8))
def test_scatter_random_dimension_numbers(seed):
    """Windows of every shape, mostly in bounds, some not; the product of the updates
    shows their order."""
    rng = np.random.default_rng(200 + seed)
    operand, inserted, sdod, idx, ivd, uwd, update_shape = _random_scatter_config(rng)
    dtype = [np.float32, np.int8, np.float16, np.uint32][seed % 4]
    idx = idx.astype(INDEX_TYPES[seed % 8])
    x, upd = rand(rng, operand, dtype), rand(rng, update_shape, dtype)
    scatter([x], idx, [upd], uwd, inserted, sdod, ivd, binary_update("multiply", dtype))


def same_on_both_backends(program: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """A whole program (xla or StableHLO text) on both backends: equal results."""
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g, e)
    return got


# A while loop whose body gathers x[idx] and scatters x[idx] * x[idx] + 1 back, with a
# repeated index: the ops lowered inside scf.while.
GATHER_SCATTER_IN_A_LOOP = """
func.func @main(%i: tensor<i32>, %x: tensor<5xf32>, %idx: tensor<3x1xi32>) -> tensor<5xf32> {
  %ri, %rx, %rk = xla.while %i, %x, %idx cond {
  ^bb0(%ci: tensor<i32>, %cx: tensor<5xf32>, %ck: tensor<3x1xi32>):
    %n = xla.constant dense<3> : tensor<i32>
    %lt = xla.compare %ci, %n, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%bi: tensor<i32>, %bx: tensor<5xf32>, %bk: tensor<3x1xi32>):
    %g = xla.gather %bx, %bk, offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<5xf32>, tensor<3x1xi32>) -> tensor<3xf32>
    %s = xla.scatter (%bx), %bk, (%g), update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = xla.multiply %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %one = xla.constant dense<1.0> : tensor<f32>
      %u = xla.add %t, %one : (tensor<f32>, tensor<f32>) -> tensor<f32>
      xla.return %u : tensor<f32>
    } : (tensor<5xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<5xf32>
    %k = xla.constant dense<1> : tensor<i32>
    %ni = xla.add %bi, %k : tensor<i32>
    xla.return %ni, %s, %bk : tensor<i32>, tensor<5xf32>, tensor<3x1xi32>
  } : (tensor<i32>, tensor<5xf32>, tensor<3x1xi32>) -> (tensor<i32>, tensor<5xf32>, tensor<3x1xi32>)
  func.return %rx : tensor<5xf32>
}"""


def test_gather_and_scatter_in_a_while_body():
    x = np.array([1, 2, 3, 4, 5], np.float32) / 4
    idx = np.array([[1], [4], [1]], np.int32)
    same_on_both_backends(GATHER_SCATTER_IN_A_LOOP, [np.int32(0), x, idx])


# --------------------------------------------------------------------------------------
# StableHLO batching dimensions (imported as explicit iota indices)
# --------------------------------------------------------------------------------------

BATCHED_GATHER = """
func.func @main(%x: tensor<3x5x2xf32>, %i: tensor<3x4x1xi32>) -> tensor<3x4x2xf32> {
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2],
      collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>}>
      : (tensor<3x5x2xf32>, tensor<3x4x1xi32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}
"""

BATCHED_SCATTER_ADD = """
func.func @main(%x: tensor<3x5xf32>, %i: tensor<3x4x1xi32>, %u: tensor<3x4xf32>) -> tensor<3x5xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<3x4x1xi32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
"""


def test_gather_with_batching_dims():
    """vmap(lambda a, i: a[i]): row b of the result gathers from row b of x."""
    rng = np.random.default_rng(10)
    x = rand(rng, (3, 5, 2), np.float32)
    idx = rng.integers(-1, 6, (3, 4, 1)).astype(np.int32)
    (got,) = same_on_both_backends(BATCHED_GATHER, [x, idx])
    clamped = np.clip(idx[..., 0], 0, 4)
    np.testing.assert_array_equal(got, x[np.arange(3)[:, None], clamped])


def test_scatter_with_batching_dims():
    """vmap(lambda a, i, u: a.at[i].add(u)) with repeats and an out-of-bounds index."""
    rng = np.random.default_rng(11)
    x = rand(rng, (3, 5), np.float32)
    idx = np.array([[1, 1, 4, 0], [2, 5, 2, 2], [-1, 3, 3, 0]], np.int32)[..., None]
    same_on_both_backends(BATCHED_SCATTER_ADD, [x, idx, rand(rng, (3, 4), np.float32)])
