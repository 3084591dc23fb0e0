"""Reference semantics of the shape family: the worked examples of
operation_semantics.es.txt (values typed from the spec text), the clamping of dynamic
slice starts, dynamic sizes, and property tests against independent numpy
constructions (and JAX where available)."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import run_one, tensor_type, ttype

f32, i32 = np.float32, np.int32
BF16 = ml_dtypes.bfloat16

# the spec's `v = f32[4x2x3]` of the Collapse and Reshape examples
V = np.array(
    [
        [[10, 11, 12], [15, 16, 17]],
        [[20, 21, 22], [25, 26, 27]],
        [[30, 31, 32], [35, 36, 37]],
        [[40, 41, 42], [45, 46, 47]],
    ],
    f32,
)
# the spec's `b` of the Slice, DynamicSlice and DynamicUpdateSlice examples
B = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], f32)
A5 = np.array([0.0, 1.0, 2.0, 3.0, 4.0], f32)


def one(op: str, inputs: list[np.ndarray], result_shape, props: str = "", dtype=None):
    """Run `xla.<op> %a0, ..., <props> : (inputs) -> result`."""
    rt = tensor_type(result_shape, dtype or inputs[0].dtype)
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    props = f", {props}" if props else ""
    types = ", ".join(ttype(a) for a in inputs)
    out = run_one(f"xla.{op} {operands}{props} : ({types}) -> {rt}", inputs, [rt])
    assert out.dtype == np.dtype(dtype or inputs[0].dtype)
    assert out.shape == tuple(result_shape)
    return out


def lst(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def scalar(v, dtype=i32) -> np.ndarray:
    return np.array(v, dtype)


# --------------------------------------------------------------------------------------
# Broadcast, BroadcastInDim (spec: "Transmisión", "BroadcastInDim")
# --------------------------------------------------------------------------------------


def test_broadcast_spec_example():
    # "si operand es un f32 escalar con el valor 2.0f y broadcast_sizes es {2, 3}, el
    # resultado será un array con la forma f32[2, 3] y todos los valores ... 2.0f"
    out = one("broadcast", [np.array(2.0, f32)], (2, 3), "broadcast_sizes = [2, 3]")
    np.testing.assert_array_equal(out, np.full((2, 3), 2.0, f32))


def test_broadcast_new_dims_on_the_left():
    # output[i0, ..., iN, j0, ..., jM] = operand[j0, ..., jM]
    x = np.array([[1, 2, 3], [4, 5, 6]], np.int16)
    out = one("broadcast", [x], (4, 2, 3), "broadcast_sizes = [4]")
    for i in range(4):
        np.testing.assert_array_equal(out[i], x)


def test_broadcast_in_dim_spec_rule():
    # BroadcastInDim: operand dimension i goes to result dimension broadcast_dimensions[i]
    v = np.array([1, 2, 3], f32)
    np.testing.assert_array_equal(
        one("broadcast_in_dim", [v], (2, 3), "broadcast_dimensions = [1]"), [[1, 2, 3], [1, 2, 3]]
    )
    np.testing.assert_array_equal(
        one("broadcast_in_dim", [v], (3, 2), "broadcast_dimensions = [0]"), [[1, 1], [2, 2], [3, 3]]
    )


def test_broadcast_in_dim_size_one_expands_and_unsorted_dims():
    # the size-1 dimension expands ("degenerate"); dimensions may be in any order
    m = np.array([[7, 8, 9]], i32)  # 1x3: dim 0 -> result 2 (size 4), dim 1 -> result 0
    out = one("broadcast_in_dim", [m], (3, 5, 4), "broadcast_dimensions = [2, 0]")
    for a, b, c in itertools.product(range(3), range(5), range(4)):
        assert out[a, b, c] == m[0, a]


# --------------------------------------------------------------------------------------
# Collapse (spec: "Contraer")
# --------------------------------------------------------------------------------------


def test_collapse_v012():
    out = one("collapse", [V], (24,), "dimensions = [0, 1, 2]")
    np.testing.assert_array_equal(
        out,
        [10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27,
         30, 31, 32, 35, 36, 37, 40, 41, 42, 45, 46, 47],
    )  # fmt: skip


def test_collapse_v01():
    # Collapse(v, {0,1}) merges 4x2 into 8: f32[8x3]. The spec labels this result
    # f32[4x6] and prints the v12 values under it (its labels of v01/v12 are swapped
    # relative to its own rule); we follow the rule, i.e. XlaBuilder.
    out = one("collapse", [V], (8, 3), "dimensions = [0, 1]")
    np.testing.assert_array_equal(
        out,
        [[10, 11, 12], [15, 16, 17], [20, 21, 22], [25, 26, 27],
         [30, 31, 32], [35, 36, 37], [40, 41, 42], [45, 46, 47]],
    )  # fmt: skip


def test_collapse_v12():
    # Collapse(v, {1,2}) merges 2x3 into 6: f32[4x6] (the spec prints these values under v01)
    out = one("collapse", [V], (4, 6), "dimensions = [1, 2]")
    np.testing.assert_array_equal(
        out,
        [[10, 11, 12, 15, 16, 17], [20, 21, 22, 25, 26, 27],
         [30, 31, 32, 35, 36, 37], [40, 41, 42, 45, 46, 47]],
    )  # fmt: skip


# --------------------------------------------------------------------------------------
# Reshape (spec: "Reshape")
# --------------------------------------------------------------------------------------


def test_reshape_v012_24():
    out = one("reshape", [V], (24,), "dimensions = [0, 1, 2]")
    np.testing.assert_array_equal(
        out,
        [10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27,
         30, 31, 32, 35, 36, 37, 40, 41, 42, 45, 46, 47],
    )  # fmt: skip
    # without `dimensions` the collapse order is {0, ..., rank - 1}
    np.testing.assert_array_equal(one("reshape", [V], (24,)), out)


def test_reshape_v012_83():
    out = one("reshape", [V], (8, 3), "dimensions = [0, 1, 2]")
    np.testing.assert_array_equal(
        out,
        [[10, 11, 12], [15, 16, 17], [20, 21, 22], [25, 26, 27],
         [30, 31, 32], [35, 36, 37], [40, 41, 42], [45, 46, 47]],
    )  # fmt: skip


def test_reshape_v021_24():
    out = one("reshape", [V], (24,), "dimensions = [1, 2, 0]")
    np.testing.assert_array_equal(
        out,
        [10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42,
         15, 25, 35, 45, 16, 26, 36, 46, 17, 27, 37, 47],
    )  # fmt: skip


def test_reshape_v021_83():
    out = one("reshape", [V], (8, 3), "dimensions = [1, 2, 0]")
    np.testing.assert_array_equal(
        out,
        [[10, 20, 30], [40, 11, 21], [31, 41, 12], [22, 32, 42],
         [15, 25, 35], [45, 16, 26], [36, 46, 17], [27, 37, 47]],
    )  # fmt: skip


def test_reshape_v021_262():
    out = one("reshape", [V], (2, 6, 2), "dimensions = [1, 2, 0]")
    np.testing.assert_array_equal(
        out,
        [[[10, 20], [30, 40], [11, 21], [31, 41], [12, 22], [32, 42]],
         [[15, 25], [35, 45], [16, 26], [36, 46], [17, 27], [37, 47]]],
    )  # fmt: skip


def test_reshape_scalar_and_1x1():
    # Reshape(f32[1x1] { {5} }, {0,1}, {}) == 5;  Reshape(5, {}, {1,1}) == f32[1x1] { {5} }
    out = one("reshape", [np.array([[5]], f32)], (), "dimensions = [0, 1]")
    assert out.shape == () and out == 5
    out = one("reshape", [np.array(5, f32)], (1, 1), "dimensions = []")
    np.testing.assert_array_equal(out, [[5]])


# --------------------------------------------------------------------------------------
# Transpose, Rev (spec: "Transposición", "Rev (reversión)")
# --------------------------------------------------------------------------------------


def test_transpose_spec_rule():
    # input_dimensions[permutation[i]] = output_dimensions[i]
    out = one("transpose", [V], (2, 3, 4), "permutation = [1, 2, 0]")
    for i, j, k in itertools.product(range(4), range(2), range(3)):
        assert out[j, k, i] == V[i, j, k]
    m = np.array([[1, 2, 3], [4, 5, 6]], np.int8)
    np.testing.assert_array_equal(one("transpose", [m], (3, 2), "permutation = [1, 0]"), [[1, 4], [2, 5], [3, 6]])


def test_transpose_is_reshape_with_permutation():
    # "Es lo mismo que Reshape(operando, permutación, Permute(permutación, operando.shape))"
    out = one("transpose", [V], (2, 3, 4), "permutation = [1, 2, 0]")
    via_reshape = one("reshape", [V], (2, 3, 4), "dimensions = [1, 2, 0]")
    np.testing.assert_array_equal(out, via_reshape)


def test_rev_spec_rule():
    # index i of a reversed dimension of size N becomes N - 1 - i
    out = one("reverse", [V], V.shape, "dimensions = [0, 2]")
    for i, j, k in itertools.product(range(4), range(2), range(3)):
        assert out[3 - i, j, 2 - k] == V[i, j, k]
    np.testing.assert_array_equal(one("reverse", [A5], (5,), "dimensions = [0]"), [4, 3, 2, 1, 0])
    np.testing.assert_array_equal(one("reverse", [A5], (5,), "dimensions = []"), A5)


# --------------------------------------------------------------------------------------
# Slice (spec: "Porción")
# --------------------------------------------------------------------------------------


def test_slice_1d():
    # Slice(a, {2}, {4}) produces {2.0, 3.0}
    out = one("slice", [A5], (2,), "start_indices = [2], limit_indices = [4], strides = [1]")
    np.testing.assert_array_equal(out, [2.0, 3.0])


def test_slice_2d():
    # Slice(b, {2, 1}, {4, 3}) produces { {7.0, 8.0}, {10.0, 11.0} }
    out = one("slice", [B], (2, 2), "start_indices = [2, 1], limit_indices = [4, 3], strides = [1, 1]")
    np.testing.assert_array_equal(out, [[7.0, 8.0], [10.0, 11.0]])


def test_slice_strides():
    # "La porción elige cada elemento strides[d] en la dimensión d"
    out = one("slice", [A5], (3,), "start_indices = [0], limit_indices = [5], strides = [2]")
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    out = one("slice", [B], (2, 1), "start_indices = [1, 1], limit_indices = [4, 2], strides = [2, 3]")
    np.testing.assert_array_equal(out, [[4.0], [10.0]])


# --------------------------------------------------------------------------------------
# DynamicSlice, DynamicUpdateSlice
# --------------------------------------------------------------------------------------


def test_dynamic_slice_1d():
    # DynamicSlice(a, {2}, {2}) produces {2.0, 3.0}
    out = one("dynamic_slice", [A5, scalar(2)], (2,), "slice_sizes = [2]")
    np.testing.assert_array_equal(out, [2.0, 3.0])


def test_dynamic_slice_2d():
    # DynamicSlice(b, {2, 1}, {2, 2}) produces { {7.0, 8.0}, {10.0, 11.0} }
    out = one("dynamic_slice", [B, scalar(2), scalar(1)], (2, 2), "slice_sizes = [2, 2]")
    np.testing.assert_array_equal(out, [[7.0, 8.0], [10.0, 11.0]])


@pytest.mark.parametrize(
    "start, expected",
    [
        (4, [3.0, 4.0]),  # clamp(4, 0, 5 - 2) = 3
        (100, [3.0, 4.0]),
        (-1, [0.0, 1.0]),  # clamp(-1, 0, 3) = 0
        (-2**31, [0.0, 1.0]),
        (3, [3.0, 4.0]),  # in bounds: unchanged
    ],
)
def test_dynamic_slice_clamps_start(start, expected):
    # start_indices[i] = clamp(start_indices[i], 0, operand.dimension_size[i] - size_indices[i])
    out = one("dynamic_slice", [A5, scalar(start)], (2,), "slice_sizes = [2]")
    np.testing.assert_array_equal(out, expected)


def test_dynamic_slice_clamps_each_dimension_and_unsigned_starts():
    # every dimension is clamped, including the first (the spec's "i in [1, N)" is a slip)
    out = one("dynamic_slice", [B, scalar(9, np.uint8), scalar(200, np.uint8)], (2, 2), "slice_sizes = [2, 2]")
    np.testing.assert_array_equal(out, [[7.0, 8.0], [10.0, 11.0]])
    out = one("dynamic_slice", [B, scalar(-5, np.int64), scalar(7, np.int64)], (3, 1), "slice_sizes = [3, 1]")
    np.testing.assert_array_equal(out, [[2.0], [5.0], [8.0]])


def test_dynamic_update_slice_1d():
    # DynamicUpdateSlice(a, {5.0, 6.0}, {2}) produces {0.0, 1.0, 5.0, 6.0, 4.0}
    u = np.array([5.0, 6.0], f32)
    out = one("dynamic_update_slice", [A5, u, scalar(2)], (5,))
    np.testing.assert_array_equal(out, [0.0, 1.0, 5.0, 6.0, 4.0])


def test_dynamic_update_slice_2d():
    u = np.array([[12.0, 13.0], [14.0, 15.0], [16.0, 17.0]], f32)
    out = one("dynamic_update_slice", [B, u, scalar(1), scalar(1)], (4, 3))
    np.testing.assert_array_equal(
        out, [[0.0, 1.0, 2.0], [3.0, 12.0, 13.0], [6.0, 14.0, 15.0], [9.0, 16.0, 17.0]]
    )


def test_dynamic_update_slice_clamps_start():
    # start = clamp(start, 0, operand.dimension_size - update.dimension_size)
    u = np.array([5.0, 6.0], f32)
    np.testing.assert_array_equal(
        one("dynamic_update_slice", [A5, u, scalar(4)], (5,)), [0.0, 1.0, 2.0, 5.0, 6.0]
    )
    np.testing.assert_array_equal(
        one("dynamic_update_slice", [A5, u, scalar(-3)], (5,)), [5.0, 6.0, 2.0, 3.0, 4.0]
    )
    ub = np.array([[12.0, 13.0], [14.0, 15.0], [16.0, 17.0]], f32)
    # rows: clamp(3, 0, 4 - 3) = 1; columns: clamp(9, 0, 3 - 2) = 1
    out = one("dynamic_update_slice", [B, ub, scalar(3, np.uint32), scalar(9, np.uint32)], (4, 3))
    np.testing.assert_array_equal(
        out, [[0.0, 1.0, 2.0], [3.0, 12.0, 13.0], [6.0, 14.0, 15.0], [9.0, 16.0, 17.0]]
    )


def test_dynamic_update_slice_does_not_mutate_operand():
    a = A5.copy()
    one("dynamic_update_slice", [a, np.array([9.0], f32), scalar(0)], (5,))
    np.testing.assert_array_equal(a, A5)


# --------------------------------------------------------------------------------------
# Concatenate
# --------------------------------------------------------------------------------------


def test_concat_1d():
    # Concat({ {2, 3}, {4, 5}, {6, 7} }, 0) >>> {2, 3, 4, 5, 6, 7}
    xs = [np.array(p, i32) for p in ([2, 3], [4, 5], [6, 7])]
    np.testing.assert_array_equal(one("concatenate", xs, (6,), "dimension = 0"), [2, 3, 4, 5, 6, 7])


def test_concat_2d():
    a = np.array([[1, 2], [3, 4], [5, 6]], i32)
    b = np.array([[7, 8]], i32)
    out = one("concatenate", [a, b], (4, 2), "dimension = 0")
    np.testing.assert_array_equal(out, [[1, 2], [3, 4], [5, 6], [7, 8]])


# --------------------------------------------------------------------------------------
# Pad (spec: "Almohadilla"; the spec only has a figure, values follow its rule:
# interior padding first, then edge padding, a negative edge removes elements)
# --------------------------------------------------------------------------------------


def test_pad_edges_and_interior():
    x = np.array([1, 2, 3], i32)
    out = one("pad", [x, scalar(0)], (8,), "edge_padding_low = [1], edge_padding_high = [2], interior_padding = [1]")
    np.testing.assert_array_equal(out, [0, 1, 0, 2, 0, 3, 0, 0])


def test_pad_negative_edges_remove_from_the_interior_padded_operand():
    x = np.array([1, 2, 3], i32)
    # interior 1 -> {1, 0, 2, 0, 3}; low -2 removes {1, 0}; high -1 removes {3}
    out = one("pad", [x, scalar(9)], (2,), "edge_padding_low = [-2], edge_padding_high = [-1], interior_padding = [1]")
    np.testing.assert_array_equal(out, [2, 9])
    # a negative low with a positive high
    out = one("pad", [x, scalar(9)], (4,), "edge_padding_low = [-1], edge_padding_high = [2], interior_padding = [0]")
    np.testing.assert_array_equal(out, [2, 3, 9, 9])


def test_pad_2d_with_negative_edge_and_interior():
    a = np.array([[1, 2], [3, 4], [5, 6]], i32)
    # dim 0: low 1, high 2, interior 1 -> 8; dim 1: low 0, high -1, interior 0 -> 1
    out = one(
        "pad",
        [a, scalar(0)],
        (8, 1),
        "edge_padding_low = [1, 0], edge_padding_high = [2, -1], interior_padding = [1, 0]",
    )
    np.testing.assert_array_equal(out, [[0], [1], [0], [3], [0], [5], [0], [0]])


def test_pad_no_op_and_float_value():
    # "Esta operación es una no-op si todos los pares ... son (0, 0) y ... interior ... 0"
    out = one("pad", [B, np.array(-1.5, f32)], (4, 3), "edge_padding_low = [0, 0], edge_padding_high = [0, 0], interior_padding = [0, 0]")
    np.testing.assert_array_equal(out, B)
    out = one("pad", [np.array([[1.0, 2.0]], f32), np.array(-1.5, f32)], (3, 4),
              "edge_padding_low = [1, 0], edge_padding_high = [1, 0], interior_padding = [0, 2]")  # fmt: skip
    np.testing.assert_array_equal(out, [[-1.5] * 4, [1.0, -1.5, -1.5, 2.0], [-1.5] * 4])


# --------------------------------------------------------------------------------------
# Dimension sizes, tuples, optimization barrier
# --------------------------------------------------------------------------------------


def test_get_dimension_size_static():
    out = one("get_dimension_size", [V], (), "dimension = 2", dtype=i32)
    assert out == 3


def test_set_then_get_dimension_size():
    # the spec's example: padded_v_five = set_dimension_size(v, five, 0) keeps f32[10]
    program = """
    func.func @main(%v: tensor<10xf32>, %five: tensor<i32>) -> (tensor<10xf32>, tensor<i32>, tensor<i32>) {
      %p = xla.set_dimension_size %v, %five, dimension = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
      %n = xla.get_dimension_size %p, dimension = 0 : (tensor<10xf32>) -> tensor<i32>
      %t = xla.transpose %p, permutation = [0] : (tensor<10xf32>) -> tensor<10xf32>
      %m = xla.get_dimension_size %t, dimension = 0 : (tensor<10xf32>) -> tensor<i32>
      func.return %p, %n, %m : tensor<10xf32>, tensor<i32>, tensor<i32>
    }
    """
    v = np.arange(1, 11, dtype=f32)
    padded, n, m = xla_opt.run(program, v, scalar(5))
    assert padded.shape == (10,) and padded.dtype == f32
    np.testing.assert_array_equal(np.asarray(padded)[:5], v[:5])
    assert n.dtype == i32 and n.shape == () and n == 5
    assert m == 5


def test_dynamic_size_follows_transpose_and_broadcast():
    program = """
    func.func @main(%x: tensor<3x4xi32>, %two: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
      %p = xla.set_dimension_size %x, %two, dimension = 1 : (tensor<3x4xi32>, tensor<i32>) -> tensor<3x4xi32>
      %t = xla.transpose %p, permutation = [1, 0] : (tensor<3x4xi32>) -> tensor<4x3xi32>
      %a = xla.get_dimension_size %t, dimension = 0 : (tensor<4x3xi32>) -> tensor<i32>
      %b = xla.get_dimension_size %t, dimension = 1 : (tensor<4x3xi32>) -> tensor<i32>
      %c = xla.broadcast %p, broadcast_sizes = [5] : (tensor<3x4xi32>) -> tensor<5x3x4xi32>
      %d = xla.get_dimension_size %c, dimension = 2 : (tensor<5x3x4xi32>) -> tensor<i32>
      func.return %a, %b, %d : tensor<i32>, tensor<i32>, tensor<i32>
    }
    """
    a, b, d = xla_opt.run(program, np.zeros((3, 4), i32), scalar(2))
    assert (int(a), int(b), int(d)) == (2, 3, 2)


def test_get_tuple_element_spec_example():
    # t: (f32[10], s32) = tuple(v, s); element_1: s32 = gettupleelement(t, 1)
    program = """
    func.func @main(%v: tensor<10xf32>, %s: tensor<i32>) -> (tensor<i32>, tensor<10xf32>) {
      %t = xla.tuple %v, %s : (tensor<10xf32>, tensor<i32>) -> tuple<tensor<10xf32>, tensor<i32>>
      %e1 = xla.get_tuple_element %t, index = 1 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<i32>
      %e0 = xla.get_tuple_element %t, index = 0 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<10xf32>
      func.return %e1, %e0 : tensor<i32>, tensor<10xf32>
    }
    """
    v = np.arange(10, dtype=f32)
    e1, e0 = xla_opt.run(program, v, scalar(5))
    assert e1.dtype == i32 and e1 == 5
    np.testing.assert_array_equal(e0, v)


def test_nested_tuple_and_optimization_barrier():
    program = """
    func.func @main(%v: tensor<2xf32>, %s: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
      %t = xla.tuple %v, %s : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
      %n = xla.tuple %t : (tuple<tensor<2xf32>, tensor<i32>>) -> tuple<tuple<tensor<2xf32>, tensor<i32>>>
      %b = xla.optimization_barrier %n : tuple<tuple<tensor<2xf32>, tensor<i32>>>
      %i = xla.get_tuple_element %b, index = 0 : (tuple<tuple<tensor<2xf32>, tensor<i32>>>) -> tuple<tensor<2xf32>, tensor<i32>>
      %x = xla.get_tuple_element %i, index = 0 : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
      %y:2 = xla.optimization_barrier %x, %s : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
      func.return %y#0, %y#1 : tensor<2xf32>, tensor<i32>
    }
    """
    x, s = xla_opt.run(program, np.array([1.5, 2.5], f32), scalar(7))
    np.testing.assert_array_equal(x, [1.5, 2.5])
    assert s == 7


# --------------------------------------------------------------------------------------
# Property tests against numpy
# --------------------------------------------------------------------------------------

DTYPES = [
    np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.uint16), np.dtype(np.int32),
    np.dtype(np.int64), np.dtype(np.float16), np.dtype(BF16), np.dtype(np.float32),
    np.dtype(np.float64), np.dtype(np.complex64),
]  # fmt: skip
SEEDS = range(12)


def random_array(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0, 100, shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)
    return rng.normal(size=shape).astype(dtype)


def random_case(seed: int, max_rank: int = 4, min_rank: int = 0):
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(min_rank, max_rank + 1))
    shape = tuple(int(d) for d in rng.integers(0 if seed % 5 == 0 else 1, 5, rank))
    dtype = DTYPES[seed % len(DTYPES)]
    return rng, random_array(rng, shape, dtype)


@pytest.mark.parametrize("seed", SEEDS)
def test_transpose_matches_numpy(seed):
    rng, x = random_case(seed)
    perm = tuple(int(p) for p in rng.permutation(x.ndim))
    expected = np.transpose(x, perm)
    out = one("transpose", [x], expected.shape, f"permutation = {lst(perm)}")
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_reverse_matches_numpy(seed):
    rng, x = random_case(seed)
    dims = tuple(sorted(int(d) for d in rng.choice(x.ndim, int(rng.integers(0, x.ndim + 1)), replace=False)))
    expected = x[tuple(slice(None, None, -1) if d in dims else slice(None) for d in range(x.ndim))]
    out = one("reverse", [x], x.shape, f"dimensions = {lst(dims)}")
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_slice_with_strides_matches_numpy(seed):
    rng, x = random_case(seed, min_rank=1)
    starts, limits, strides = [], [], []
    for n in x.shape:
        s = int(rng.integers(0, n + 1))
        starts.append(s)
        limits.append(int(rng.integers(s, n + 1)))
        strides.append(int(rng.integers(1, 4)))
    expected = x[tuple(slice(s, l, st) for s, l, st in zip(starts, limits, strides))]
    out = one(
        "slice",
        [x],
        expected.shape,
        f"start_indices = {lst(starts)}, limit_indices = {lst(limits)}, strides = {lst(strides)}",
    )
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_concatenate_matches_numpy(seed):
    rng, x = random_case(seed, min_rank=1)
    dim = int(rng.integers(0, x.ndim))
    parts = [x]
    for _ in range(int(rng.integers(0, 3))):
        shape = list(x.shape)
        shape[dim] = int(rng.integers(0, 4))
        parts.append(random_array(rng, shape, x.dtype))
    expected = np.concatenate(parts, axis=dim)
    out = one("concatenate", parts, expected.shape, f"dimension = {dim}")
    np.testing.assert_array_equal(out, expected)


def pad_by_positions(x, value, low, high, interior):
    """Independent construction: operand element i of a dimension lands at position
    low + i * (interior + 1) of the result, if that position is in range."""
    out_shape = [lo + hi + n + max(n - 1, 0) * k for n, lo, hi, k in zip(x.shape, low, high, interior)]
    out = np.full(out_shape, value, x.dtype)
    src, dst = [], []
    for n, lo, k, m in zip(x.shape, low, interior, out_shape):
        pos = lo + np.arange(n) * (k + 1)
        keep = (pos >= 0) & (pos < m)
        src.append(np.arange(n)[keep])
        dst.append(pos[keep])
    if x.ndim:
        out[np.ix_(*dst)] = x[np.ix_(*src)]
    else:
        out[()] = x
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_pad_matches_numpy_construction(seed):
    rng, x = random_case(seed, max_rank=3)
    low, high, interior = [], [], []
    for n in x.shape:
        k = int(rng.integers(0, 3))
        inner = n + max(n - 1, 0) * k
        lo = int(rng.integers(-inner, 4))
        hi = int(rng.integers(-(inner + lo) if inner + lo > 0 else 0, 4))
        low.append(lo)
        high.append(hi)
        interior.append(k)
    value = random_array(rng, (), x.dtype)
    expected = pad_by_positions(x, value, low, high, interior)
    out = one(
        "pad",
        [x, value],
        expected.shape,
        f"edge_padding_low = {lst(low)}, edge_padding_high = {lst(high)}, interior_padding = {lst(interior)}",
    )
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_reshape_matches_loop_nest(seed):
    rng, x = random_case(seed)
    dims = tuple(int(d) for d in rng.permutation(x.ndim))
    # the spec's collapse: a loop nest over `dims`, dims[0] slowest-varying
    flat = [
        x[tuple(idx[dims.index(d)] for d in range(x.ndim))]
        for idx in itertools.product(*(range(x.shape[d]) for d in dims))
    ]
    # a random new shape of the same element count
    count = x.size
    new_shape = []
    remaining = count
    while remaining > 1 and len(new_shape) < 3:
        divisors = [d for d in range(1, remaining + 1) if remaining % d == 0]
        d = int(rng.choice(divisors))
        new_shape.append(d)
        remaining //= d
    if remaining != 1 or count == 0:
        new_shape.append(remaining)
    if rng.random() < 0.3:
        new_shape.insert(int(rng.integers(0, len(new_shape) + 1)), 1)
    expected = np.array(flat, dtype=x.dtype).reshape(new_shape)
    out = one("reshape", [x], expected.shape, f"dimensions = {lst(dims)}")
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_dynamic_slice_and_update_match_numpy_clamped(seed):
    rng, x = random_case(seed, min_rank=1)
    sizes = [int(rng.integers(0, n + 1)) for n in x.shape]
    starts = [int(rng.integers(-3, n + 3)) for n in x.shape]
    begin = [min(max(s, 0), n - k) for s, n, k in zip(starts, x.shape, sizes)]
    window = tuple(slice(b, b + k) for b, k in zip(begin, sizes))
    idx = [scalar(s) for s in starts]
    out = one("dynamic_slice", [x, *idx], sizes, f"slice_sizes = {lst(sizes)}")
    np.testing.assert_array_equal(out, x[window])
    update = random_array(rng, sizes, x.dtype)
    expected = x.copy()
    expected[window] = update
    out = one("dynamic_update_slice", [x, update, *idx], x.shape)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_broadcast_in_dim_matches_numpy(seed):
    rng, x = random_case(seed, max_rank=3)
    rank = x.ndim + int(rng.integers(0, 3))
    dims = tuple(sorted(int(d) for d in rng.choice(rank, x.ndim, replace=False)))
    dims = tuple(int(d) for d in rng.permutation(dims)) if x.ndim else ()
    result = [int(rng.integers(1, 4)) for _ in range(rank)]
    for i, d in enumerate(dims):
        if x.shape[i] != 1:
            result[d] = x.shape[i]
    # independent: index the operand with each result index mapped back
    expected = np.empty(result, x.dtype)
    for r in itertools.product(*(range(n) for n in result)):
        expected[r] = x[tuple(0 if x.shape[i] == 1 else r[d] for i, d in enumerate(dims))]
    out = one("broadcast_in_dim", [x], result, f"broadcast_dimensions = {lst(dims)}")
    np.testing.assert_array_equal(out, expected)


# --------------------------------------------------------------------------------------
# Cross-checks with JAX (optional)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_pad_and_reshape_match_jax(seed):
    jax = pytest.importorskip("jax", reason="JAX is the optional oracle for lax.pad / lax.reshape")
    from jax import lax

    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(100 + seed)
    x = rng.integers(-50, 50, (3, 4)).astype(np.int32)
    config = [(int(rng.integers(-3, 3)), int(rng.integers(-2, 3)), int(rng.integers(0, 3))) for _ in range(2)]
    expected = np.asarray(lax.pad(x, np.int32(-7), config))
    low, high, interior = zip(*config)
    out = one(
        "pad",
        [x, scalar(-7)],
        expected.shape,
        f"edge_padding_low = {lst(low)}, edge_padding_high = {lst(high)}, interior_padding = {lst(interior)}",
    )
    np.testing.assert_array_equal(out, expected)
    v = rng.normal(size=(2, 3, 4)).astype(np.float32)
    dims = tuple(int(d) for d in rng.permutation(3))
    expected = np.asarray(lax.reshape(v, (4, 6), dimensions=dims))
    np.testing.assert_array_equal(one("reshape", [v], (4, 6), f"dimensions = {lst(dims)}"), expected)


def test_reverse_of_a_dynamic_dimension_reverses_its_runtime_elements():
    # the padding beyond the dynamic size is not data: reversal keeps it behind
    program = """
    func.func @main(%v: tensor<5xi32>, %three: tensor<i32>) -> (tensor<5xi32>, tensor<i32>) {
      %p = xla.set_dimension_size %v, %three, dimension = 0 : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
      %r = xla.reverse %p, dimensions = [0] : tensor<5xi32>
      %n = xla.get_dimension_size %r, dimension = 0 : (tensor<5xi32>) -> tensor<i32>
      func.return %r, %n : tensor<5xi32>, tensor<i32>
    }
    """
    r, n = xla_opt.run(program, np.array([1, 2, 3, 4, 5], i32), scalar(3))
    np.testing.assert_array_equal(np.asarray(r)[:3], [3, 2, 1])
    assert n == 3
