"""Reference semantics of reduce, reduce_window, select_and_scatter, sort, map, while,
conditional and call: the spec's examples (operation_semantics.es.txt, values typed from
its text) and property tests whose expected values come from numpy loops or JAX."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import ELEMENT_TYPES, run_one, tensor_type, ttype
from xla_opt.interpreter import interpreted_op_names
from xla_opt.interpreter.dynamic import with_dynamic_size

f32, i32 = np.float32, np.int32
BF16 = ml_dtypes.bfloat16
RNG = np.random.default_rng(20240607)


def scalar(dtype) -> str:
    return f"tensor<{ELEMENT_TYPES[np.dtype(dtype)]}>"


def binary_body(op: str, dtype, name: str = "body") -> str:
    """A `name { ^bb0(a, b): xla.<op> }` scalar computation region."""
    t = scalar(dtype)
    return (
        f"{name} {{\n^bb0(%p: {t}, %q: {t}):\n  %s = xla.{op} %p, %q : {t}\n"
        f"  xla.return %s : {t}\n}}"
    )


def reduce(x: np.ndarray, init, dims, op: str = "add", body: str | None = None) -> np.ndarray:
    init = np.asarray(init, x.dtype)
    out = tensor_type([s for i, s in enumerate(x.shape) if i not in dims], x.dtype)
    body = body or binary_body(op, x.dtype)
    text = f"xla.reduce (%a0), (%a1), dimensions = {list(dims)} {body} : ({ttype(x)}, {ttype(init)}) -> {out}"
    return run_one(text, [x, init], [out])


def reduce_window(x, init, window, strides=None, base=None, wdil=None, padding=None, op="add"):
    init = np.asarray(init, x.dtype)
    rank = x.ndim
    props = [f"window_dimensions = {list(window)}"]
    if strides is not None:
        props.append(f"window_strides = {list(strides)}")
    if base is not None:
        props.append(f"base_dilations = {list(base)}")
    if wdil is not None:
        props.append(f"window_dilations = {list(wdil)}")
    if padding is not None:
        props.append(f"padding = {[list(p) for p in padding]}")
    out_shape = numpy_window_shape(
        x.shape, window, strides or [1] * rank, base or [1] * rank, wdil or [1] * rank, padding or [(0, 0)] * rank
    )
    out = tensor_type(out_shape, x.dtype)
    text = f"xla.reduce_window (%a0), (%a1), {', '.join(props)} {binary_body(op, x.dtype)} : ({ttype(x)}, {ttype(init)}) -> {out}"
    return run_one(text, [x, init], [out])


def compare_body(direction: str, dtype, n_operands: int = 1, compare_type: str | None = None) -> str:
    """A sort comparator on (lhs_0, rhs_0, ...) comparing the first pair."""
    t = scalar(dtype)
    args = ", ".join(f"%l{k}: {t if k == 0 else '@' + str(k)}, %r{k}: {t if k == 0 else '@' + str(k)}" for k in range(n_operands))
    ct = f", compare_type = {compare_type}" if compare_type else ""
    return (
        f"comparator {{\n^bb0({args}):\n"
        f"  %c = xla.compare %l0, %r0, comparison_direction = {direction}{ct} : ({t}, {t}) -> tensor<i1>\n"
        "  xla.return %c : tensor<i1>\n}"
    )


def sort(arrays, comparator: str, dimension: int | None = None):
    """`comparator` is a region text; '@k' placeholders become the k-th operand's scalar type."""
    for k, a in enumerate(arrays):
        comparator = comparator.replace(f"@{k}", scalar(a.dtype))
    names = ", ".join(f"%a{k}" for k in range(len(arrays)))
    dim = f", dimension = {dimension}" if dimension is not None else ""
    types = [ttype(a) for a in arrays]
    text = f"xla.sort {names}{dim}, is_stable = true {comparator} : ({', '.join(types)}) -> ({', '.join(types)})"
    return run_one(text, list(arrays), types)


# --------------------------------------------------------------------------------------
# Independent numpy oracles
# --------------------------------------------------------------------------------------


def numpy_window_shape(shape, window, strides, base, wdil, padding):
    out = []
    for s, w, st, b, wd, (lo, hi) in zip(shape, window, strides, base, wdil, padding):
        padded = lo + (0 if s == 0 else (s - 1) * b + 1) + hi
        dw = (w - 1) * wd + 1
        out.append(0 if dw > padded else (padded - dw) // st + 1)
    return tuple(out)


def numpy_reduce_window(x, init, fn, window, strides, base, wdil, padding):
    """Fold every window from `init`, element by element; positions that fall in the
    padding or in a base-dilation hole read `init`."""
    out_shape = numpy_window_shape(x.shape, window, strides, base, wdil, padding)
    out = np.empty(out_shape, x.dtype)
    for o in np.ndindex(*out_shape):
        acc = np.asarray(init, x.dtype)
        for w in np.ndindex(*window):
            idx = []
            for d in range(x.ndim):
                p = o[d] * strides[d] + w[d] * wdil[d] - padding[d][0]
                if p < 0 or p % base[d] or p // base[d] >= x.shape[d]:
                    break
                idx.append(p // base[d])
            value = x[tuple(idx)] if len(idx) == x.ndim else np.asarray(init, x.dtype)
            acc = fn(acc, value)
        out[o] = acc
    return out


def numpy_select_and_scatter(operand, source, init, window, strides, padding):
    """Per window: the first maximum (select = GE keeps the current one), then add."""
    out = np.full(operand.shape, init, operand.dtype)
    for o in np.ndindex(*source.shape):
        best = None
        for w in np.ndindex(*window):
            idx = tuple(o[d] * strides[d] + w[d] - padding[d][0] for d in range(operand.ndim))
            if any(i < 0 or i >= s for i, s in zip(idx, operand.shape)):
                continue
            if best is None or not operand[best] >= operand[idx]:
                best = idx
        if best is not None:
            out[best] += source[o]
    return out


# --------------------------------------------------------------------------------------
# Reduce: the spec's examples (section "Reducir")
# --------------------------------------------------------------------------------------

# "un array 3D ... dimensión 0 de tamaño 4, dimensión 1 de tamaño 2 y dimensión 2 de
# tamaño 3. Para simplificar, los valores 1 a 6 se replican en la dimensión 0."
SPEC_3D = np.tile(np.arange(1, 7, dtype=f32).reshape(2, 3), (4, 1, 1))


def test_reduce_spec_2d_sums():
    # the 2-D array (rank 2, dimension 0 of size 2, dimension 1 of size 3) of the
    # spec's figure holds 1..6; an "add" reduction of dimension 0 or 1
    m = np.array([[1, 2, 3], [4, 5, 6]], f32)
    np.testing.assert_array_equal(reduce(m, 0, [0]), [5, 7, 9])
    np.testing.assert_array_equal(reduce(m, 0, [1]), [6, 15])


def test_reduce_spec_3d_dimension_0():
    # "Si reducimos la dimensión 0 ... | 4 8 12 | 16 20 24 |"
    np.testing.assert_array_equal(reduce(SPEC_3D, 0, [0]), [[4, 8, 12], [16, 20, 24]])


def test_reduce_spec_3d_dimension_2():
    # "Si reducimos la dimensión 2 ... | 6 15 | x 4"
    np.testing.assert_array_equal(reduce(SPEC_3D, 0, [2]), [[6, 15]] * 4)


@pytest.mark.parametrize("dims", [[0, 1], [1, 0]])
def test_reduce_spec_3d_dimensions_0_and_1(dims):
    # "De reducción de las dimensiones 0 y 1, se produce un array 1D [20, 28, 36]."
    np.testing.assert_array_equal(reduce(SPEC_3D, 0, dims), [20, 28, 36])


def test_reduce_spec_3d_all_dimensions():
    # "Si reduces el array 3D en todas sus dimensiones, se produce el 84 escalar."
    out = reduce(SPEC_3D, 0, [0, 1, 2])
    assert out.shape == () and out.dtype == f32 and out == 84


def test_reduce_spec_1d():
    # [10, 11, 12, 13] folded with f (add) from init_value 0
    assert reduce(np.array([10, 11, 12, 13], i32), 0, [0]) == 46


ARGMAX_BODY = """body {
^bb0(%max: tensor<f32>, %argmax: tensor<i32>, %value: tensor<f32>, %index: tensor<i32>):
  %ge = xla.compare %value, %max, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %m = xla.select %ge, %value, %max : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %i = xla.select %ge, %index, %argmax : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  xla.return %m, %i : tensor<f32>, tensor<i32>
}"""


def argmax(v: np.ndarray, dims, init=(-np.inf, -1)):
    k = np.broadcast_to(np.arange(v.shape[dims[0]], dtype=i32).reshape([-1 if d == dims[0] else 1 for d in range(v.ndim)]), v.shape).copy()
    out_shape = [s for d, s in enumerate(v.shape) if d not in dims]
    types = [tensor_type(out_shape, f32), tensor_type(out_shape, i32)]
    text = (
        f"xla.reduce (%a0, %a1), (%a2, %a3), dimensions = {list(dims)} {ARGMAX_BODY} : "
        f"({ttype(v)}, {ttype(k)}, tensor<f32>, tensor<i32>) -> ({types[0]}, {types[1]})"
    )
    return run_one(text, [v, k, np.array(init[0], f32), np.array(init[1], i32)], types)


def test_reduce_spec_variadic_max_argmax():
    # "Reducción variable": f(max, argmax, value, index) returns (value, index) if
    # value >= max, else (max, argmax), applied to V and K = iota; the ties go to the
    # later index because of >=
    v = np.array([1.0, 5.0, 3.0, 5.0, 2.0], f32)
    m, i = argmax(v, [0])
    assert m == 5.0 and m.dtype == f32
    assert i == 3 and i.dtype == i32


def test_reduce_init_value_applied_once():
    # f(...f(f(init, x0), x1)...): a non-identity init appears exactly once, also in a
    # long (reassociated) fold
    for n in (5, 1000):
        x = np.ones(n, i32)
        assert reduce(x, 7, [0]) == n + 7


def test_reduce_no_dimensions_and_empty():
    x = np.array([[1, 2], [3, 4]], i32)
    np.testing.assert_array_equal(reduce(x, 10, []), x + 10)
    empty = np.zeros((0, 3), i32)
    np.testing.assert_array_equal(reduce(empty, 5, [0]), [5, 5, 5])
    assert reduce(empty, 5, [1]).shape == (0,)


# --------------------------------------------------------------------------------------
# Dynamic sizes: "Las operaciones de reducción descendentes ignorarán los valores con
# relleno." (section SetDimensionSize)
# --------------------------------------------------------------------------------------

SPEC_V = np.arange(1, 11, dtype=f32)  # f32[10]{1, 2, ..., 10}


def test_reduce_ignores_elements_beyond_dynamic_size():
    # the reduce on a value that carries a dynamic size (as set_dimension_size leaves it)
    five = with_dynamic_size(SPEC_V, 0, 5)
    assert reduce(five, 0, [0]) == 1 + 2 + 3 + 4 + 5
    assert reduce(five, 1, [0], op="multiply") == 1 * 2 * 3 * 4 * 5
    assert reduce(with_dynamic_size(SPEC_V, 0, 6), 0, [0]) == 1 + 2 + 3 + 4 + 5 + 6


def test_reduce_dynamic_kept_dimension_is_carried():
    from xla_opt.interpreter.dynamic import dynamic_sizes

    m = with_dynamic_size(np.arange(12, dtype=i32).reshape(3, 4), 1, 2)
    out = reduce(m, 0, [1])
    np.testing.assert_array_equal(out, [0 + 1, 4 + 5, 8 + 9])
    m = with_dynamic_size(np.arange(12, dtype=i32).reshape(3, 4), 0, 2)
    out = reduce(m, 0, [1])
    np.testing.assert_array_equal(out[:2], [6, 22])
    assert dynamic_sizes(out) == (2,)


SET_DIMENSION_SIZE_PROGRAM = """
func.func @main(%v: tensor<10xf32>, %n: tensor<i32>) -> (tensor<f32>, tensor<f32>) {
  %padded = xla.set_dimension_size %v, %n, dimension = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %one = xla.constant dense<1.0> : tensor<f32>
  %sum = xla.reduce (%padded), (%zero), dimensions = [0] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<10xf32>, tensor<f32>) -> tensor<f32>
  %product = xla.reduce (%padded), (%one), dimensions = [0] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.multiply %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<10xf32>, tensor<f32>) -> tensor<f32>
  func.return %sum, %product : tensor<f32>, tensor<f32>
}
"""


def test_spec_set_dimension_size_sums():
    if "xla.set_dimension_size" not in interpreted_op_names():
        pytest.skip("xla.set_dimension_size has no interpreter yet (xla_opt/interpreter/shape_ops.py)")
    # sum == 1 + 2 + 3 + 4 + 5, product == 1 * 2 * 3 * 4 * 5
    total, product = xla_opt.run(SET_DIMENSION_SIZE_PROGRAM, SPEC_V, np.array(5, i32))
    assert total == 15 and product == 120
    # "Changing padding size will yield different result": sum == 1 + ... + 6
    total, _ = xla_opt.run(SET_DIMENSION_SIZE_PROGRAM, SPEC_V, np.array(6, i32))
    assert total == 21


# --------------------------------------------------------------------------------------
# Reduce: properties against numpy
# --------------------------------------------------------------------------------------


def random_dims(rank: int) -> list[int]:
    k = int(RNG.integers(1, rank + 1))
    return [int(d) for d in RNG.permutation(rank)[:k]]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64])
def test_reduce_integer_sum_max_min_wrap(dtype):
    info = np.iinfo(dtype)
    for _ in range(4):
        shape = tuple(int(s) for s in RNG.integers(1, 6, size=int(RNG.integers(1, 4))))
        x = RNG.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
        dims = random_dims(x.ndim)
        axes = tuple(dims)
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(reduce(x, 0, dims), np.sum(x, axis=axes, dtype=dtype))
        np.testing.assert_array_equal(reduce(x, info.min, dims, "maximum"), np.max(x, axis=axes))
        np.testing.assert_array_equal(reduce(x, info.max, dims, "minimum"), np.min(x, axis=axes))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16])
def test_reduce_float_sum_max_min(dtype):
    for _ in range(4):
        shape = tuple(int(s) for s in RNG.integers(1, 7, size=int(RNG.integers(1, 4))))
        x = RNG.uniform(-4, 4, size=shape).astype(dtype)
        dims = random_dims(x.ndim)
        axes = tuple(dims)
        out = reduce(x, 0, dims)
        assert out.dtype == np.dtype(dtype)
        expected = np.sum(x.astype(np.float64), axis=axes)
        tol = {np.float16: 2e-2, BF16: 1e-1}.get(dtype, 1e-5)
        np.testing.assert_allclose(out.astype(np.float64), expected, rtol=tol, atol=tol)
        np.testing.assert_array_equal(reduce(x, -np.inf, dims, "maximum"), np.max(x, axis=axes))
        np.testing.assert_array_equal(reduce(x, np.inf, dims, "minimum"), np.min(x, axis=axes))


def test_reduce_max_propagates_nan():
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], f32)
    np.testing.assert_array_equal(reduce(x, -np.inf, [1], "maximum"), [np.nan, 6.0])


@pytest.mark.parametrize("n", [4, 33, 1000])
def test_reduce_argmax_last_maximum(n):
    # with value >= max the last of equal maxima wins; long folds keep the order
    v = RNG.integers(0, 5, size=(3, n)).astype(f32)
    m, i = argmax(v, [1])
    np.testing.assert_array_equal(m, v.max(axis=1))
    np.testing.assert_array_equal(i, n - 1 - np.argmax(v[:, ::-1], axis=1))
    m, i = argmax(v.T.copy(), [0])
    np.testing.assert_array_equal(i, n - 1 - np.argmax(v[:, ::-1], axis=1))


MATMUL_BODY = """body {
^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<i32>, %f: tensor<i32>, %g: tensor<i32>, %h: tensor<i32>):
  %ae = xla.multiply %a, %e : tensor<i32>
  %bg = xla.multiply %b, %g : tensor<i32>
  %af = xla.multiply %a, %f : tensor<i32>
  %bh = xla.multiply %b, %h : tensor<i32>
  %ce = xla.multiply %c, %e : tensor<i32>
  %dg = xla.multiply %d, %g : tensor<i32>
  %cf = xla.multiply %c, %f : tensor<i32>
  %dh = xla.multiply %d, %h : tensor<i32>
  %p = xla.add %ae, %bg : tensor<i32>
  %q = xla.add %af, %bh : tensor<i32>
  %r = xla.add %ce, %dg : tensor<i32>
  %s = xla.add %cf, %dh : tensor<i32>
  xla.return %p, %q, %r, %s : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
}"""


@pytest.mark.parametrize("n", [7, 200])
def test_reduce_variadic_keeps_the_order_of_a_non_commutative_reducer(n):
    # the product of n 2x2 integer matrices (wrapping): associative, not commutative
    mats = RNG.integers(-3, 4, size=(n, 2, 2)).astype(i32)
    inputs = [mats[:, 0, 0].copy(), mats[:, 0, 1].copy(), mats[:, 1, 0].copy(), mats[:, 1, 1].copy()]
    inits = [np.array(v, i32) for v in (1, 0, 0, 1)]
    t = ttype(inputs[0])
    text = (
        f"xla.reduce (%a0, %a1, %a2, %a3), (%a4, %a5, %a6, %a7), dimensions = [0] {MATMUL_BODY} : "
        f"({t}, {t}, {t}, {t}, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> "
        "(tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>)"
    )
    out = run_one(text, inputs + inits, ["tensor<i32>"] * 4)
    acc = [[1, 0], [0, 1]]
    for m in mats.tolist():
        acc = [[(acc[i][0] * m[0][j] + acc[i][1] * m[1][j]) % 2**32 for j in range(2)] for i in range(2)]
    expected = np.array(acc, np.uint32).astype(i32)
    np.testing.assert_array_equal(np.array([int(o) for o in out]), expected.ravel())


# --------------------------------------------------------------------------------------
# ReduceWindow (section ReduceWindow)
# --------------------------------------------------------------------------------------

SPEC_RW = np.array([10000, 1000, 100, 10, 1], f32)
MAX_F32 = np.finfo(f32).max


def test_reduce_window_spec_valid():
    # min, window 3, stride 2, kValid: windows [10000, 1000, 100] and [100, 10, 1]
    np.testing.assert_array_equal(reduce_window(SPEC_RW, MAX_F32, [3], [2], op="minimum"), [100, 1])


def test_reduce_window_spec_same():
    # kSame: [MAX_VALUE, 10000, 1000, 100, 10, 1, MAX_VALUE] -> [1000, 10, 1]
    out = reduce_window(SPEC_RW, MAX_F32, [3], [2], padding=[(1, 1)], op="minimum")
    np.testing.assert_array_equal(out, [1000, 10, 1])


def test_reduce_window_window_two_stride_two():
    # window 2, stride 2: VALID windows [10000, 1000], [100, 10]; SAME pads one init
    # element high (the padding is the init value): [10000, 1000], [100, 10], [1, +inf]
    np.testing.assert_array_equal(reduce_window(SPEC_RW, np.inf, [2], [2], op="minimum"), [1000, 10])
    out = reduce_window(SPEC_RW, np.inf, [2], [2], padding=[(0, 1)], op="minimum")
    np.testing.assert_array_equal(out, [1000, 10, 1])


def test_reduce_window_spec_max_pool_4x6():
    # the 4x6 input with window_dimensions and strides [2, 3], kValid, init MinValue
    x = RNG.uniform(-10, 10, size=(4, 6)).astype(f32)
    out = reduce_window(x, np.finfo(f32).min, [2, 3], [2, 3], op="maximum")
    np.testing.assert_array_equal(out, x.reshape(2, 2, 2, 3).max(axis=(1, 3)))


def test_reduce_window_variadic():
    # two inputs, two inits: a min and a sum in one body
    v = np.array([5, 3, 8, 1, 9], f32)
    k = np.arange(5, dtype=i32)
    body = """body {
^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
  %m = xla.minimum %a, %c : tensor<f32>
  %s = xla.add %b, %d : tensor<i32>
  xla.return %m, %s : tensor<f32>, tensor<i32>
}"""
    text = (
        f"xla.reduce_window (%a0, %a1), (%a2, %a3), window_dimensions = [2] {body} : "
        "(tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)"
    )
    m, s = run_one(text, [v, k, np.array(np.inf, f32), np.array(0, i32)], ["tensor<4xf32>", "tensor<4xi32>"])
    np.testing.assert_array_equal(m, [3, 3, 1, 1])
    np.testing.assert_array_equal(s, [1, 3, 5, 7])


def test_reduce_window_dilations_and_padding():
    # base 5 dilated by 2, padded [1, 0], window 2 dilated by 3, stride 3 -> 3 windows
    # padded base: [0, 1, 0, 2, 0, 3, 0, 4, 0, 5]; windows at 0, 3, 6 read p and p + 3
    x = np.array([1, 2, 3, 4, 5], i32)
    out = reduce_window(x, 0, [2], [3], [2], [3], [(1, 0)])
    np.testing.assert_array_equal(out, [0 + 2, 2 + 0, 0 + 5])


def test_reduce_window_negative_padding_and_empty():
    x = np.array([1, 2, 3, 4], i32)
    np.testing.assert_array_equal(reduce_window(x, 0, [1], padding=[(-1, 0)]), [2, 3, 4])
    assert reduce_window(x, 0, [5]).shape == (0,)


def random_window_case(rank: int):
    shape = [int(s) for s in RNG.integers(1, 6, size=rank)]
    window = [int(w) for w in RNG.integers(1, 4, size=rank)]
    strides = [int(s) for s in RNG.integers(1, 3, size=rank)]
    base = [int(b) for b in RNG.integers(1, 3, size=rank)]
    wdil = [int(d) for d in RNG.integers(1, 3, size=rank)]
    padding = [(int(lo), int(hi)) for lo, hi in RNG.integers(-1, 3, size=(rank, 2))]
    return shape, window, strides, base, wdil, padding


def test_reduce_window_vs_numpy_loop():
    for _ in range(25):
        rank = int(RNG.integers(1, 4))
        shape, window, strides, base, wdil, padding = random_window_case(rank)
        if any(lo + (s - 1) * b + 1 + hi < 0 for s, b, (lo, hi) in zip(shape, base, padding)):
            continue
        x = RNG.integers(-50, 50, size=shape).astype(i32)
        out = reduce_window(x, 0, window, strides, base, wdil, padding)
        expected = numpy_reduce_window(x, 0, np.add, window, strides, base, wdil, padding)
        np.testing.assert_array_equal(out, expected)
        xf = RNG.uniform(-5, 5, size=shape).astype(f32)
        out = reduce_window(xf, -np.inf, window, strides, base, wdil, padding, op="maximum")
        expected = numpy_reduce_window(xf, -np.inf, np.maximum, window, strides, base, wdil, padding)
        np.testing.assert_array_equal(out, expected)


def test_reduce_window_masks_elements_beyond_dynamic_size():
    # elements beyond the dynamic size count as padding (the init value)
    x = with_dynamic_size(np.array([1, 2, 3, 4, 5, 6], i32), 0, 4)
    np.testing.assert_array_equal(reduce_window(x, 0, [2], [2]), [3, 7, 0])


def test_reduce_window_vs_jax():
    jax = pytest.importorskip("jax", reason="JAX is the oracle of lax.reduce_window")
    from jax import lax

    for _ in range(15):
        rank = int(RNG.integers(1, 4))
        shape, window, strides, base, wdil, padding = random_window_case(rank)
        padding = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
        x = RNG.uniform(-5, 5, size=shape).astype(f32)
        out = reduce_window(x, -np.inf, window, strides, base, wdil, padding, op="maximum")
        expected = lax.reduce_window(x, -np.inf, lax.max, window, strides, padding, base, wdil)
        np.testing.assert_array_equal(out, np.asarray(expected))
        xi = RNG.integers(-50, 50, size=shape).astype(i32)
        out = reduce_window(xi, 0, window, strides, base, wdil, padding)
        expected = lax.reduce_window(xi, np.int32(0), lax.add, window, strides, padding, base, wdil)
        np.testing.assert_array_equal(out, np.asarray(expected))
    del jax


# --------------------------------------------------------------------------------------
# SelectAndScatter (section SelectAndScatter)
# --------------------------------------------------------------------------------------


def select_and_scatter(operand, source, init, window, strides, padding=None, select="GE"):
    t = scalar(operand.dtype)
    pad = f", padding = {[list(p) for p in padding]}" if padding is not None else ""
    text = (
        f"xla.select_and_scatter %a0, %a1, %a2, window_dimensions = {list(window)}, "
        f"window_strides = {list(strides)}{pad} select {{\n"
        f"^bb0(%p: {t}, %q: {t}):\n"
        f"  %c = xla.compare %p, %q, comparison_direction = {select} : ({t}, {t}) -> tensor<i1>\n"
        "  xla.return %c : tensor<i1>\n"
        f"}} {binary_body('add', operand.dtype, 'scatter')} : "
        f"({ttype(operand)}, {ttype(source)}, {t}) -> {ttype(operand)}"
    )
    return run_one(text, [operand, source, np.asarray(init, operand.dtype)], [ttype(operand)])


def test_select_and_scatter_overlapping_windows_accumulate():
    # "las dos ventanas superiores (azul y rojo) seleccionan el elemento de valor 9 y la
    # función scatter de suma binaria produce el elemento de resultado del valor 8
    # (2 + 6)": 2x3 windows at stride 2 overlap in column 2; the 9 is the maximum of
    # both top windows, which scatter 2 and 6
    operand = np.array(
        [[7, 2, 5, 3, 8], [3, 8, 9, 3, 4], [1, 5, 7, 5, 6], [0, 6, 2, 10, 2]], f32
    )
    source = np.array([[2, 6], [3, 1]], f32)
    out = select_and_scatter(operand, source, 0, [2, 3], [2, 2])
    expected = np.zeros((4, 5), f32)
    expected[1, 2] = 8  # 2 + 6
    expected[2, 2] = 3  # the 7 of the bottom-left window
    expected[3, 3] = 1  # the 10 of the bottom-right window
    np.testing.assert_array_equal(out, expected)


def test_select_and_scatter_non_overlapping():
    # non-overlapping 2x3 windows at stride [2, 3] (the max-pool gradient)
    operand = np.array([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2], [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]], f32)
    source = np.array([[2, 6], [3, 1]], f32)
    out = select_and_scatter(operand, source, 0, [2, 3], [2, 3])
    expected = np.zeros((4, 6), f32)
    expected[1, 2], expected[0, 4], expected[2, 2], expected[3, 5] = 2, 6, 3, 1
    np.testing.assert_array_equal(out, expected)


def test_select_and_scatter_ties_keep_the_earlier_element():
    # select = GE keeps the current (earlier) element on ties; GT moves to the later:
    # windows [0, 1, 2] and [1, 2, 3] of equal values
    operand = np.array([4, 4, 4, 4], i32)
    source = np.array([1, 10], i32)
    np.testing.assert_array_equal(select_and_scatter(operand, source, 0, [3], [1]), [1, 10, 0, 0])
    # windows [0, 1, 2] and [2, 3, 4] overlap in element 2 only
    operand = np.array([4, 4, 4, 4, 4], i32)
    np.testing.assert_array_equal(select_and_scatter(operand, source, 0, [3], [2]), [1, 0, 10, 0, 0])
    np.testing.assert_array_equal(select_and_scatter(operand, source, 0, [3], [2], select="GT"), [0, 0, 1, 0, 10])


def test_select_and_scatter_padding_is_never_selected():
    # padded with [1, 1]: windows [pad, -5, -7], [-7, -2, pad]; init_value 100
    operand = np.array([-5, -7, -2], i32)
    source = np.array([1, 2], i32)
    out = select_and_scatter(operand, source, 100, [3], [2], padding=[(1, 1)])
    np.testing.assert_array_equal(out, [101, 100, 102])


def test_select_and_scatter_vs_numpy_loop():
    for _ in range(20):
        rank = int(RNG.integers(1, 4))
        shape = [int(s) for s in RNG.integers(1, 6, size=rank)]
        window = [int(w) for w in RNG.integers(1, 4, size=rank)]
        strides = [int(s) for s in RNG.integers(1, 3, size=rank)]
        padding = [(int(lo), int(hi)) for lo, hi in RNG.integers(0, 2, size=(rank, 2))]
        out_shape = numpy_window_shape(shape, window, strides, [1] * rank, [1] * rank, padding)
        operand = RNG.integers(0, 4, size=shape).astype(i32)  # many ties
        source = RNG.integers(1, 100, size=out_shape).astype(i32)
        out = select_and_scatter(operand, source, 0, window, strides, padding)
        np.testing.assert_array_equal(out, numpy_select_and_scatter(operand, source, 0, window, strides, padding))


# --------------------------------------------------------------------------------------
# Sort (section "Ordenar")
# --------------------------------------------------------------------------------------


def test_sort_spec_three_operands():
    # operand0 = [3, 1], operand1 = [42, 50], operand2 = [-3.0, 1.1], compared on
    # operand0 with less-than -> ([1, 3], [50, 42], [1.1, -3.0])
    ops = [np.array([3, 1], i32), np.array([42, 50], i32), np.array([-3.0, 1.1], f32)]
    a, b, c = sort(ops, compare_body("LT", i32, 3), dimension=0)
    np.testing.assert_array_equal(a, [1, 3])
    np.testing.assert_array_equal(b, [50, 42])
    np.testing.assert_array_equal(c, np.array([1.1, -3.0], f32))
    assert c.dtype == f32


def test_sort_rank2_dimensions():
    # "un valor de dimensión de 0 ordenará cada columna de forma independiente, y un
    # valor de dimensión de 1 ordenará cada fila"; without a dimension the last one
    m = np.array([[3, 1, 2], [0, 5, 4]], i32)
    np.testing.assert_array_equal(sort([m], compare_body("LT", i32), 0), [[0, 1, 2], [3, 5, 4]])
    np.testing.assert_array_equal(sort([m], compare_body("LT", i32), 1), [[1, 2, 3], [0, 4, 5]])
    np.testing.assert_array_equal(sort([m], compare_body("LT", i32)), [[1, 2, 3], [0, 4, 5]])


def stable_order(keys: np.ndarray, descending: bool) -> np.ndarray:
    return np.array(sorted(range(len(keys)), key=lambda i: -keys[i] if descending else keys[i]))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint32, np.int64, np.float32, np.float16, BF16, np.float64])
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_sort_is_stable_vs_numpy(dtype, direction):
    shape = (3, 17, 4)
    keys = RNG.integers(0, 6, size=shape).astype(dtype)  # many ties
    payload = RNG.integers(0, 1000, size=shape).astype(i32)
    for dim in range(3):
        a, b = sort([keys, payload], compare_body(direction, dtype, 2), dim)
        k = np.moveaxis(keys, dim, -1).astype(np.float64)
        p = np.moveaxis(payload, dim, -1)
        for idx in np.ndindex(*k.shape[:-1]):
            order = stable_order(k[idx], direction == "GT")
            np.testing.assert_array_equal(np.moveaxis(a, dim, -1)[idx].astype(np.float64), k[idx][order])
            np.testing.assert_array_equal(np.moveaxis(b, dim, -1)[idx], p[idx][order])
        if direction == "LT":
            np.testing.assert_array_equal(a, np.sort(keys, axis=dim, kind="stable"))


def total_order_sorted(x: np.ndarray) -> np.ndarray:
    """-NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN, computed without bit tricks."""

    def key(v: float):
        negative = math.copysign(1.0, v) < 0
        if math.isnan(v):
            return (0 if negative else 2, 0.0, 0)
        return (1, v, 0 if negative else 1)

    return np.array(sorted(x.tolist(), key=key), x.dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_sort_totalorder_with_nans_and_zeros(dtype):
    x = np.array([3.0, np.nan, -0.0, 0.0, -np.inf, -np.nan, np.inf, -1.0, 0.0, -0.0, np.nan], dtype)
    x = x[RNG.permutation(len(x))]
    (out,) = [sort([x], compare_body("LT", dtype, compare_type="TOTALORDER"))]
    expected = total_order_sorted(x)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))
    np.testing.assert_array_equal(out, expected)  # NaNs compare equal in assert_array_equal
    out = sort([x], compare_body("GT", dtype, compare_type="TOTALORDER"))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected[::-1]))
    np.testing.assert_array_equal(out, expected[::-1])


def test_sort_float_without_nans_vs_np_sort():
    x = RNG.normal(size=(5, 40)).astype(f32)
    np.testing.assert_array_equal(sort([x], compare_body("LT", f32)), np.sort(x, axis=-1))
    np.testing.assert_array_equal(sort([x], compare_body("GT", f32)), -np.sort(-x, axis=-1))


def test_sort_float_lt_with_nan_is_a_permutation():
    # a NaN compares false with everything (not a strict weak order): any order is
    # allowed, but the values must be a permutation of the input
    x = np.array([3.0, np.nan, 1.0, 2.0, np.nan, 0.5], f32)
    out = sort([x], compare_body("LT", f32))
    np.testing.assert_array_equal(np.sort(out), np.sort(x))


# JAX's own comparator: -0 -> +0, NaN -> +NaN, then TOTALORDER LT (NaNs last)
JAX_LIKE_COMPARATOR = """comparator {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %zero = xla.constant dense<0.0> : tensor<f32>
  %nan = xla.constant dense<0x7FC00000> : tensor<f32>
  %az = xla.compare %a, %zero, comparison_direction = EQ : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %ca1 = xla.select %az, %zero, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %an = xla.compare %a, %a, comparison_direction = NE : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %ca2 = xla.select %an, %nan, %ca1 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %bz = xla.compare %b, %zero, comparison_direction = EQ : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %cb1 = xla.select %bz, %zero, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %bn = xla.compare %b, %b, comparison_direction = NE : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %cb2 = xla.select %bn, %nan, %cb1 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %lt = xla.compare %ca2, %cb2, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
  xla.return %lt : tensor<i1>
}"""


def nan_last_stable(x: np.ndarray) -> np.ndarray:
    """np.sort order (NaNs last, -0 == +0) keeping the input order of ties."""
    order = sorted(range(len(x)), key=lambda i: (bool(np.isnan(x[i])), 0.0 if np.isnan(x[i]) else float(x[i])))
    return x[np.array(order)]


def test_sort_general_comparator_nan_last():
    x = np.array([3.0, np.nan, -0.0, 0.0, -1.0, -np.nan, np.inf, 0.0, -0.0, 2.0], f32)
    out = sort([x], JAX_LIKE_COMPARATOR)
    expected = nan_last_stable(x)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))  # -0/+0 keep their order


def test_sort_vs_jax():
    jax = pytest.importorskip("jax", reason="JAX is the oracle of lax.sort")
    from jax import lax

    for _ in range(5):
        x = RNG.choice(np.array([np.nan, -np.nan, 0.0, -0.0, 1.5, -2.0, np.inf, -np.inf], f32), size=(3, 12))
        x = np.where(RNG.random(x.shape) < 0.3, RNG.normal(size=x.shape), x).astype(f32)
        k = RNG.integers(0, 100, size=x.shape).astype(i32)
        out = sort([x, k], JAX_LIKE_COMPARATOR.replace("^bb0(%a: tensor<f32>, %b: tensor<f32>)",
                                                      "^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>)"))
        ex, ek = lax.sort((x, k), dimension=-1, is_stable=True, num_keys=1)
        np.testing.assert_array_equal(out[0], np.asarray(ex))
        np.testing.assert_array_equal(out[1], np.asarray(ek))
        ki = RNG.integers(-5, 5, size=(4, 9)).astype(i32)
        np.testing.assert_array_equal(sort([ki], compare_body("LT", i32), 0), np.asarray(lax.sort(ki, dimension=0)))
    del jax


def test_sort_comparator_that_is_not_elementwise():
    # a comparator calling a function: compared one pair at a time; descending on the
    # first operand, ties broken by the second operand ascending
    program = """
func.func private @greater(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {
  %c = xla.compare %a, %b, comparison_direction = GT : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func @main(%x: tensor<8xi32>, %y: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %r:2 = xla.sort %x, %y comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = xla.call %a, %b, callee = @greater : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = xla.compare %a, %b, comparison_direction = EQ : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt2 = xla.compare %c, %d, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt2 : tensor<i1>
    %r = xla.or %gt, %tie : tensor<i1>
    xla.return %r : tensor<i1>
  } : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
  func.return %r#0, %r#1 : tensor<8xi32>, tensor<8xi32>
}
"""
    x = np.array([1, 3, 1, 2, 3, 2, 1, 3], i32)
    y = np.array([5, 2, 4, 9, 7, 1, 6, 0], i32)
    a, b = xla_opt.run(program, x, y)
    expected = sorted(zip(x.tolist(), y.tolist()), key=lambda p: (-p[0], p[1]))
    np.testing.assert_array_equal(a, [p[0] for p in expected])
    np.testing.assert_array_equal(b, [p[1] for p in expected])


# --------------------------------------------------------------------------------------
# Map (section "Asignar")
# --------------------------------------------------------------------------------------


def test_map_add_and_compare():
    x = RNG.normal(size=(2, 3)).astype(f32)
    y = RNG.normal(size=(2, 3)).astype(f32)
    out = run_one(f"xla.map %a0, %a1, dimensions = [0, 1] {binary_body('add', f32, 'computation')} : tensor<2x3xf32>", [x, y], ["tensor<2x3xf32>"])
    np.testing.assert_array_equal(out, x + y)
    text = """xla.map %a0, %a1, dimensions = [0, 1] computation {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  xla.return %lt : tensor<i1>
} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>"""
    out = run_one(text, [x, y], ["tensor<2x3xi1>"])
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, x < y)


def test_map_computation_that_is_not_elementwise():
    # elem_out <- computation(elem_in) at every index, here through a called function
    program = """
func.func private @cube(%a: tensor<i32>) -> tensor<i32> {
  %s = xla.multiply %a, %a : tensor<i32>
  %c = xla.multiply %s, %a : tensor<i32>
  func.return %c : tensor<i32>
}
func.func @main(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %r = xla.map %x, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<i32>):
    %c = xla.call %a, callee = @cube : (tensor<i32>) -> tensor<i32>
    xla.return %c : tensor<i32>
  } : tensor<2x3xi32>
  func.return %r : tensor<2x3xi32>
}
"""
    x = np.array([[1, -2, 3], [4, 0, -6]], i32)
    (out,) = xla_opt.run(program, x)
    np.testing.assert_array_equal(out, x**3)
    assert out.dtype == i32


# --------------------------------------------------------------------------------------
# While, conditional, call
# --------------------------------------------------------------------------------------

WHILE_PROGRAM = """
func.func @main(%count: tensor<i32>, %acc: tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>) {
  %r:2 = xla.while %count, %acc cond {
  ^bb0(%i: tensor<i32>, %v: tensor<10xf32>):
    %limit = xla.constant dense<1000> : tensor<i32>
    %lt = xla.compare %i, %limit, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %v: tensor<10xf32>):
    %one = xla.constant dense<1> : tensor<i32>
    %next = xla.add %i, %one : tensor<i32>
    %step = xla.constant dense<1.0> : tensor<10xf32>
    %sum = xla.add %v, %step : tensor<10xf32>
    xla.return %next, %sum : tensor<i32>, tensor<10xf32>
  } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  func.return %r#0, %r#1 : tensor<i32>, tensor<10xf32>
}
"""


def test_while_spec_counter_loop():
    # the spec's while: {0, zero_vector[10]}, 1000 iterations adding a constant vector
    count, acc = xla_opt.run(WHILE_PROGRAM, np.array(0, i32), np.zeros(10, f32))
    assert count == 1000 and count.dtype == i32
    np.testing.assert_array_equal(acc, np.full(10, 1000, f32))
    # a false condition at the start runs the body zero times
    count, acc = xla_opt.run(WHILE_PROGRAM, np.array(2000, i32), np.ones(10, f32))
    assert count == 2000
    np.testing.assert_array_equal(acc, np.ones(10, f32))


CONDITIONAL_PRED = """
func.func @main(%p: tensor<i1>, %x: tensor<3xf32>, %y: tensor<2xi32>) -> tensor<f32> {
  %r = xla.conditional %p, %x, %y branches({
  ^bb0(%a: tensor<3xf32>):
    %zero = xla.constant dense<0.0> : tensor<f32>
    %s = xla.reduce (%a), (%zero), dimensions = [0] body {
    ^bb1(%u: tensor<f32>, %v: tensor<f32>):
      %t = xla.add %u, %v : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    xla.return %s : tensor<f32>
  }, {
  ^bb0(%b: tensor<2xi32>):
    %c = xla.convert %b : (tensor<2xi32>) -> tensor<2xf32>
    %zero = xla.constant dense<0.0> : tensor<f32>
    %m = xla.reduce (%c), (%zero), dimensions = [0] body {
    ^bb1(%u: tensor<f32>, %v: tensor<f32>):
      %t = xla.multiply %u, %v : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    xla.return %m : tensor<f32>
  }) : (tensor<i1>, tensor<3xf32>, tensor<2xi32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
"""


def test_conditional_pred():
    # true_computation on true_operand if pred, false_computation on false_operand else
    x = np.array([1, 2, 3], f32)
    y = np.array([4, 5], i32)
    (out,) = xla_opt.run(CONDITIONAL_PRED, np.array(True), x, y)
    assert out == 6 and out.dtype == f32
    (out,) = xla_opt.run(CONDITIONAL_PRED, np.array(False), x, y)
    assert out == 0  # 0 * 4 * 5: the product from init 0


CONDITIONAL_INDEX = """
func.func @main(%i: tensor<i32>, %x: tensor<f32>, %none: tuple<>, %pair: tuple<tensor<f32>, tensor<f32>>) -> (tensor<f32>, tensor<i32>) {
  %r:2 = xla.conditional %i, %x, %none, %pair branches({
  ^bb0(%a: tensor<f32>):
    %k = xla.constant dense<0> : tensor<i32>
    xla.return %a, %k : tensor<f32>, tensor<i32>
  }, {
  ^bb0(%e: tuple<>):
    %c = xla.constant dense<2.0> : tensor<f32>
    %k = xla.constant dense<1> : tensor<i32>
    xla.return %c, %k : tensor<f32>, tensor<i32>
  }, {
  ^bb0(%t: tuple<tensor<f32>, tensor<f32>>):
    %c = xla.constant dense<3.0> : tensor<f32>
    %k = xla.constant dense<2> : tensor<i32>
    xla.return %c, %k : tensor<f32>, tensor<i32>
  }) : (tensor<i32>, tensor<f32>, tuple<>, tuple<tensor<f32>, tensor<f32>>) -> (tensor<f32>, tensor<i32>)
  func.return %r#0, %r#1 : tensor<f32>, tensor<i32>
}
"""


@pytest.mark.parametrize(
    "index, expected",
    [
        (0, (7.5, 0)),
        (1, (2.0, 1)),
        (2, (3.0, 2)),
        # "Si branch_index es una S32 que es < 0 o >= N, entonces branch_computations[N-1]
        # se ejecuta como la rama predeterminada."
        (3, (3.0, 2)),
        (-1, (3.0, 2)),
        (np.iinfo(i32).min, (3.0, 2)),
    ],
)
def test_conditional_branch_index(index, expected):
    pair = (np.array(1, f32), np.array(2, f32))
    value, branch = xla_opt.run(CONDITIONAL_INDEX, np.array(index, i32), np.array(7.5, f32), (), pair)
    assert value == expected[0] and value.dtype == f32
    assert branch == expected[1] and branch.dtype == i32


CALL_PROGRAM = """
func.func private @scale(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32> {
  %s = xla.multiply %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
func.func private @twice(%a: tensor<2xf32>, %b: tensor<f32>) -> (tensor<2xf32>, tensor<f32>) {
  %s = xla.call %a, %b, callee = @scale : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %t = xla.call %s, %b, callee = @scale : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %t, %b : tensor<2xf32>, tensor<f32>
}
func.func @main(%x: tensor<2xf32>, %k: tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>) {
  %0 = xla.call %x, %k, callee = @scale : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %1:2 = xla.call %x, %k, callee = @twice : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>)
  func.return %0, %1#0, %1#1 : tensor<2xf32>, tensor<2xf32>, tensor<f32>
}
"""


def test_call():
    # "Invoca un procesamiento con los argumentos dados", also nested
    x = np.array([1.5, -2.0], f32)
    once, twice, k = xla_opt.run(CALL_PROGRAM, x, np.array(3, f32))
    np.testing.assert_array_equal(once, [4.5, -6.0])
    np.testing.assert_array_equal(twice, [13.5, -18.0])
    assert k == 3


def test_interpreted_op_names_cover_the_family():
    names = interpreted_op_names()
    for op in ("reduce", "reduce_window", "select_and_scatter", "sort", "map", "while", "conditional", "call"):
        assert f"xla.{op}" in names

