"""The reductions family on the JIT against the reference interpreter (the oracle):
xla.map, xla.reduce_window, xla.sort, xla.select_and_scatter.

Every op here combines elements in the interpreter's order (a window folded in
row-major order from the init value, a stable sort, windows scattered in row-major
order), so results are compared exactly, floats included (NaN matching NaN)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.util import BF16, FLOATS, INTS, exact, rand, scalar, tensor_type, ttype

def region(arg_types: list[str], body: str) -> str:
    """A computation region `^bb0(%p0: T0, %p1: T1, ...)` with `body`'s lines."""
    params = ", ".join(f"%p{i}: {t}" for i, t in enumerate(arg_types))
    return f"{{\n  ^bb0({params}):\n    {body}\n  }}"


# --------------------------------------------------------------------------------------
# map
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS], ids=lambda d: np.dtype(d).name)
def test_map_two_operands(dtype):
    rng = np.random.default_rng(1)
    x, y = rand(rng, (2, 5), dtype), rand(rng, (2, 5), dtype)
    s = scalar(dtype)
    body = region(
        [s, s],
        f"%m = xla.multiply %p0, %p1 : {s}\n    %t = xla.add %m, %p0 : {s}\n    xla.return %t : {s}",
    )
    exact(f"xla.map %a0, %a1, dimensions = [0, 1] computation {body} : {ttype(x)}", [x, y], [ttype(x)])


def test_map_three_operands_to_pred_and_other_type():
    rng = np.random.default_rng(2)
    x, y = rand(rng, (3, 4), np.float32), rand(rng, (3, 4), np.float32)
    n = rand(rng, (3, 4), np.int32)
    out = tensor_type((3, 4), np.bool_)
    body = region(
        ["tensor<f32>", "tensor<f32>", "tensor<i32>"],
        "%lt = xla.compare %p0, %p1, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %c = xla.constant dense<0> : tensor<i32>\n"
        "    %pos = xla.compare %p2, %c, comparison_direction = GT : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    %both = xla.and %lt, %pos : tensor<i1>\n"
        "    xla.return %both : tensor<i1>",
    )
    exact(
        f"xla.map %a0, %a1, %a2, dimensions = [0, 1] computation {body} : "
        f"({ttype(x)}, {ttype(y)}, {ttype(n)}) -> {out}",
        [x, y, n],
        [out],
    )


@pytest.mark.parametrize("shape", [(), (0, 3), (1,), (2, 1, 3)])
def test_map_shapes(shape):
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) - 2
    dims = ", ".join(str(d) for d in range(len(shape)))
    body = region(["tensor<i64>"], "%n = xla.negate %p0 : tensor<i64>\n    xla.return %n : tensor<i64>")
    exact(f"xla.map %a0, dimensions = [{dims}] computation {body} : {ttype(x)}", [x], [ttype(x)])


def test_map_returning_an_argument_of_bools():
    p, q = np.array([True, False, True]), np.array([False, False, True])
    body = region(["tensor<i1>", "tensor<i1>"], "xla.return %p1 : tensor<i1>")
    exact(f"xla.map %a0, %a1, dimensions = [0] computation {body} : {ttype(p)}", [p, q], [ttype(p)])


# --------------------------------------------------------------------------------------
# reduce_window
# --------------------------------------------------------------------------------------


def reducer(op: str, dtype) -> str:
    """A one-op reducer region `op(acc, x)` on scalars of `dtype`."""
    s = scalar(dtype)
    return region([s, s], f"%t = xla.{op} %p0, %p1 : {s}\n    xla.return %t : {s}")


def window_attrs(window, strides=None, base=None, dilations=None, padding=None) -> str:
    def listed(v):
        return "[" + ", ".join(str(e) for e in v) + "]"

    text = f"window_dimensions = {listed(window)}"
    for name, value in (("window_strides", strides), ("base_dilations", base), ("window_dilations", dilations)):
        if value is not None:
            text += f", {name} = {listed(value)}"
    if padding is not None:
        text += ", padding = [" + ", ".join(listed(p) for p in padding) + "]"
    return text


def reduce_window(x: np.ndarray, init, op: str, result_shape, **window) -> list[np.ndarray]:
    init = np.array(init, x.dtype)
    out = tensor_type(result_shape, x.dtype)
    return exact(
        f"xla.reduce_window (%a0), (%a1), {window_attrs(**window)} body {reducer(op, x.dtype)} : "
        f"({ttype(x)}, {ttype(init)}) -> {out}",
        [x, init],
        [out],
    )


def windowed_shape(shape, window, strides=None, base=None, dilations=None, padding=None):
    from xla_opt.dialects.shapes.reductions import reduce_window_shape

    return reduce_window_shape(shape, window, strides, base, dilations, padding)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16, np.int32, np.uint8, np.int64],
                         ids=lambda d: np.dtype(d).name)  # fmt: skip
def test_reduce_window_cumsum(dtype):
    """jnp.cumsum along axis 1: a window of the whole axis padded (n - 1, 0)."""
    rng = np.random.default_rng(3)
    x = rand(rng, (3, 7), dtype)
    [got] = reduce_window(x, 0, "add", (3, 7), window=[1, 7], padding=[[0, 0], [6, 0]])
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, np.cumsum(x, axis=1, dtype=dtype))


@pytest.mark.parametrize("dtype", [np.float32, BF16, np.int16, np.uint32], ids=lambda d: np.dtype(d).name)
def test_reduce_window_max_pool_nhwc(dtype):
    rng = np.random.default_rng(4)
    x = rand(rng, (2, 4, 6, 3), dtype)
    if np.dtype(dtype).kind == "f" or dtype == BF16:
        x[0, 1, 1, 0] = np.nan
        init = -np.inf
    else:
        init = np.iinfo(dtype).min
    [got] = reduce_window(x, init, "maximum", (2, 2, 3, 3), window=[1, 2, 2, 1], strides=[1, 2, 2, 1])
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, x.reshape(2, 2, 2, 3, 2, 3).max(axis=(2, 4)))


WINDOWS = [
    # window, strides, base dilations, window dilations, padding
    dict(window=[2, 3], strides=[2, 1]),
    dict(window=[3, 2], strides=[1, 2], padding=[[1, 2], [0, 3]]),
    dict(window=[2, 2], base=[2, 3], padding=[[0, 0], [1, 1]]),
    dict(window=[2, 2], dilations=[2, 3], strides=[1, 2]),
    dict(window=[3, 2], strides=[2, 3], base=[3, 2], dilations=[2, 2], padding=[[2, 1], [1, 0]]),
    dict(window=[2, 1], padding=[[-1, 1], [0, -2]]),  # negative padding crops
    dict(window=[1, 1]),
]


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: "-".join(f"{k}{v}" for k, v in w.items()))
@pytest.mark.parametrize("dtype, op", [(np.float32, "add"), (np.float64, "multiply"), (np.float16, "add"),
                                       (np.int8, "add"), (np.uint16, "minimum"), (np.int64, "maximum")],
                         ids=lambda v: v if isinstance(v, str) else np.dtype(v).name)  # fmt: skip
def test_reduce_window_attributes(window, dtype, op):
    rng = np.random.default_rng(5)
    x = rand(rng, (5, 6), dtype)
    init = 1 if op == "multiply" else 3
    reduce_window(x, init, op, windowed_shape(x.shape, **window), **window)


def test_reduce_window_pred():
    x = np.array([[True, False, True], [True, True, False]])
    for op in ("and", "or"):
        reduce_window(x, op == "and", op, (2, 3), window=[2, 2], padding=[[1, 0], [1, 0]])


def test_reduce_window_variadic_argmax():
    """Two inputs and two init values: the reducer takes (acc value, acc index, value,
    index) and keeps the larger value (the earlier index on ties)."""
    x = np.array([[1.0, 5.0, 5.0, 2.0], [np.nan, 0.0, 3.0, 3.0], [7.0, 1.0, -1.0, 0.0]], np.float32)
    i = np.arange(x.size, dtype=np.int32).reshape(x.shape)
    inits = [np.array(-np.inf, np.float32), np.array(-1, np.int32)]
    body = region(
        ["tensor<f32>", "tensor<i32>", "tensor<f32>", "tensor<i32>"],
        "%gt = xla.compare %p2, %p0, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    %v = xla.select %gt, %p2, %p0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "    %k = xla.select %gt, %p3, %p1 : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>\n"
        "    xla.return %v, %k : tensor<f32>, tensor<i32>",
    )
    shape = (3, 3)
    outs = [tensor_type(shape, np.float32), tensor_type(shape, np.int32)]
    exact(
        f"xla.reduce_window (%a0, %a1), (%a2, %a3), window_dimensions = [2, 2], padding = [[1, 0], [0, 0]] "
        f"body {body} : ({ttype(x)}, {ttype(i)}, tensor<f32>, tensor<i32>) -> ({outs[0]}, {outs[1]})",
        [x, i, *inits],
        outs,
    )


@pytest.mark.parametrize(
    "shape, window",
    [
        ((0, 3), dict(window=[1, 2])),  # no windows
        ((2, 3), dict(window=[3, 1])),  # the window does not fit: no windows
        ((0, 2), dict(window=[2, 1], padding=[[1, 2], [0, 0]])),  # only padding: init folded with itself
        ((), dict(window=[])),  # a scalar: f(init, x)
        ((1,), dict(window=[1], strides=[4])),
    ],
)
def test_reduce_window_degenerate_shapes(shape, window):
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape) + 2
    reduce_window(x, 10, "add", windowed_shape(shape, **window), **window)


# --------------------------------------------------------------------------------------
# sort
# --------------------------------------------------------------------------------------


def compare_region(types: list[str], direction: str = "LT", compare_type: str | None = None) -> str:
    """A comparator over len(types) operands comparing the first pair."""
    args = [t for t in types for _ in range(2)]
    kind = f", compare_type = {compare_type}" if compare_type else ""
    return region(
        args,
        f"%c = xla.compare %p0, %p1, comparison_direction = {direction}{kind} : "
        f"({types[0]}, {types[0]}) -> tensor<i1>\n    xla.return %c : tensor<i1>",
    )


def sort(arrays: list[np.ndarray], dimension=None, comparator=None, stable=False) -> list[np.ndarray]:
    types = [scalar(a.dtype) for a in arrays]
    comparator = comparator or compare_region(types)
    attrs = (f", dimension = {dimension}" if dimension is not None else "") + (", is_stable = true" if stable else "")
    operands = ", ".join(f"%a{i}" for i in range(len(arrays)))
    outs = [ttype(a) for a in arrays]
    signature = outs[0] if len(arrays) == 1 else f"({', '.join(outs)}) -> ({', '.join(outs)})"
    return exact(f"xla.sort {operands}{attrs} comparator {comparator} : {signature}", arrays, outs)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 9, 16, 17, 33])
def test_sort_lengths(n):
    x = np.random.default_rng(n).permutation(n).astype(np.int32) - 4
    [got] = sort([x])
    np.testing.assert_array_equal(got, np.sort(x))


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS, np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_sort_element_types(dtype, direction):
    rng = np.random.default_rng(7)
    x = rand(rng, (3, 11), dtype)
    x[:, 4] = x[:, 1]  # ties
    [got] = sort([x], comparator=compare_region([scalar(dtype)], direction))
    expected = np.sort(x, axis=-1, kind="stable")
    np.testing.assert_array_equal(got, expected if direction == "LT" else expected[:, ::-1])


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_sort_total_order_with_nans(dtype):
    """TOTALORDER: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN."""
    x = np.array([np.nan, 1.0, -np.nan, -0.0, np.inf, 0.0, -np.inf, 1.0, np.nan, -2.5, 0.0], dtype)
    sort([x], comparator=compare_region([scalar(dtype)], "LT", "TOTALORDER"))
    sort([x], comparator=compare_region([scalar(dtype)], "GT", "TOTALORDER"))


def test_sort_stable_payload_keeps_order_of_ties():
    keys = np.array([3, 1, 2, 1, 3, 3, 0, 1, 2, 0, 1, 2, 3], np.int8)
    payload = np.arange(keys.size, dtype=np.float32)
    got_keys, got_payload = sort([keys, payload], stable=True, comparator=compare_region(["tensor<i8>", "tensor<f32>"]))
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(got_keys, keys[order])
    np.testing.assert_array_equal(got_payload, payload[order])


@pytest.mark.parametrize("dimension", [0, 1, 2])
def test_sort_each_dimension_of_a_3d_array(dimension):
    rng = np.random.default_rng(dimension)
    x = rng.integers(0, 5, (4, 3, 6)).astype(np.float64)
    i = np.arange(x.size, dtype=np.uint32).reshape(x.shape)
    got_x, got_i = sort([x, i], dimension=dimension, comparator=compare_region(["tensor<f64>", "tensor<ui32>"]))
    order = np.argsort(x, axis=dimension, kind="stable")
    np.testing.assert_array_equal(got_i, np.take_along_axis(i, order, axis=dimension))


def test_sort_two_keys_lexicographic():
    """lax.sort with num_keys=2: (k0, k1) compared lexicographically, a payload along."""
    rng = np.random.default_rng(11)
    k0 = rng.integers(0, 3, 14).astype(np.int64)
    k1 = rng.integers(0, 3, 14).astype(np.uint8)
    v = rng.standard_normal(14).astype(np.float16)
    comparator = region(
        ["tensor<i64>", "tensor<i64>", "tensor<ui8>", "tensor<ui8>", "tensor<f16>", "tensor<f16>"],
        "%lt0 = xla.compare %p0, %p1, comparison_direction = LT : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    %eq0 = xla.compare %p0, %p1, comparison_direction = EQ : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    %lt1 = xla.compare %p2, %p3, comparison_direction = LT : (tensor<ui8>, tensor<ui8>) -> tensor<i1>\n"
        "    %tie = xla.and %eq0, %lt1 : tensor<i1>\n"
        "    %r = xla.or %lt0, %tie : tensor<i1>\n"
        "    xla.return %r : tensor<i1>",
    )
    sort([k0, k1, v], comparator=comparator)


def test_sort_rank_1_of_shape_0_in_batch():
    x = np.zeros((0, 4), np.float32)
    sort([x])


# --------------------------------------------------------------------------------------
# select_and_scatter
# --------------------------------------------------------------------------------------


def select_and_scatter(x: np.ndarray, source_values, init, select="GE", scatter="add", **window) -> np.ndarray:
    """`source_values` is called with the source's shape (the windowed shape of x)."""
    shape = windowed_shape(x.shape, **window)
    source = np.asarray(source_values(shape)).astype(x.dtype)
    init = np.array(init, x.dtype)
    s = scalar(x.dtype)
    select_region = region(
        [s, s], f"%c = xla.compare %p0, %p1, comparison_direction = {select} : ({s}, {s}) -> tensor<i1>\n"
        "    xla.return %c : tensor<i1>",
    )  # fmt: skip
    [got] = exact(
        f"xla.select_and_scatter %a0, %a1, %a2, {window_attrs(**window)} select {select_region} "
        f"scatter {reducer(scatter, x.dtype)} : ({ttype(x)}, {ttype(source)}, {ttype(init)}) -> {ttype(x)}",
        [x, source, init],
        [ttype(x)],
    )
    return got


def source_of(dtype):
    rng = np.random.default_rng(8)
    return lambda shape: rand(rng, shape, dtype)


@pytest.mark.parametrize("dtype", [*FLOATS, np.int32, np.uint8, np.int64], ids=lambda d: np.dtype(d).name)
def test_select_and_scatter_max_pool_gradient_nhwc(dtype):
    rng = np.random.default_rng(9)
    x = rand(rng, (2, 4, 6, 3), dtype)
    source = rand(rng, (2, 2, 3, 3), dtype)
    got = select_and_scatter(x, lambda shape: source, 0, window=[1, 2, 2, 1], strides=[1, 2, 2, 1])
    # numpy: each 2x2 window's source value goes to its first maximum
    windows = x.reshape(2, 2, 2, 3, 2, 3).transpose(0, 1, 3, 5, 2, 4).reshape(2, 2, 3, 3, 4)
    first = np.argmax(windows.astype(np.float64), axis=-1)
    expected = np.zeros((2, 2, 3, 3, 4), x.dtype)
    np.put_along_axis(expected, first[..., None], source[..., None], axis=-1)
    expected = expected.reshape(2, 2, 3, 3, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(x.shape)
    np.testing.assert_array_equal(got.astype(np.float64), expected.astype(np.float64))


@pytest.mark.parametrize("select", ["GE", "GT", "LE", "LT"])
def test_select_and_scatter_ties_and_overlapping_windows(select):
    """Stride 1 below the window: windows overlap and several scatter into one
    position; equal elements test which one select keeps (GE: the first, GT: the
    last)."""
    x = np.array([[1, 3, 3, 0, 3], [2, 3, 1, 1, 0], [0, 0, 2, 2, 2]], np.int16)
    select_and_scatter(x, lambda shape: np.arange(1, np.prod(shape) + 1).reshape(shape), 5, select=select,
                       window=[2, 2])  # fmt: skip


@pytest.mark.parametrize(
    "window",
    [
        dict(window=[3, 3], strides=[1, 1], padding=[[1, 1], [1, 1]]),  # SAME
        dict(window=[2, 3], strides=[2, 2], padding=[[0, 1], [2, 1]]),
        dict(window=[2, 2], strides=[1, 3], padding=[[3, 0], [0, 0]]),  # windows of padding only
        dict(window=[1, 1]),
    ],
    ids=str,
)
@pytest.mark.parametrize("dtype, scatter", [(np.float32, "add"), (np.float64, "multiply"), (BF16, "maximum"),
                                            (np.uint32, "add"), (np.int8, "minimum")],
                         ids=lambda v: v if isinstance(v, str) else np.dtype(v).name)  # fmt: skip
def test_select_and_scatter_padding_and_strides(window, dtype, scatter):
    rng = np.random.default_rng(10)
    x = rand(rng, (4, 5), dtype)
    select_and_scatter(x, source_of(dtype), 2, scatter=scatter, **window)


@pytest.mark.parametrize(
    "shape, window",
    [
        ((0, 2), dict(window=[1, 1], padding=[[1, 1], [0, 0]])),  # windows but no operand
        ((1, 2), dict(window=[2, 1])),  # operand but no window
        ((), dict(window=[])),  # a scalar: its own window
    ],
)
def test_select_and_scatter_degenerate_shapes(shape, window):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    select_and_scatter(x, lambda s: np.full(s, 4.0), 1.5, **window)
