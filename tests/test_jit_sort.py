"""The radix-sort fast path of xla.sort (SortToRadixKernel, lowering/kernels/sort.py): a
comparator that is one LT or GT compare of the first operand's pair sorts by an LSD
radix sort kernel, which must give
the interpreter's (stable) order exactly, for every key type, with payloads, along any
dimension; under FLOAT, NaNs (unordered, so no order is the interpreter's) go last
under LT and first under GT, in input order."""

from __future__ import annotations

import time

import numpy as np
import pytest
from xla_opt.lowering.conversions.convert_xla_to_linalg import ConvertXlaToLinalgPass

import xla_opt
from tests.util import BF16, FLOATS, INTS, exact, one_op_program, scalar, ttype
from xla_opt.api import load_program
from xla_opt.context import make_context


def comparator(types: list[str], direction: str = "LT", compare_type: str | None = None, swapped=False) -> str:
    """One compare of the first pair (its arguments swapped when `swapped`)."""
    args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(t for t in types for _ in range(2)))
    kind = f", compare_type = {compare_type}" if compare_type else ""
    lhs, rhs = ("%p1", "%p0") if swapped else ("%p0", "%p1")
    return (
        f"{{\n  ^bb0({args}):\n"
        f"    %c = xla.compare {lhs}, {rhs}, comparison_direction = {direction}{kind} : "
        f"({types[0]}, {types[0]}) -> tensor<i1>\n    xla.return %c : tensor<i1>\n  }}"
    )


def sort_text(arrays: list[np.ndarray], dimension=None, **compare) -> tuple[str, list[str]]:
    region = comparator([scalar(a.dtype) for a in arrays], **compare)
    outs = [ttype(a) for a in arrays]
    signature = outs[0] if len(arrays) == 1 else f"({', '.join(outs)}) -> ({', '.join(outs)})"
    operands = ", ".join(f"%a{i}" for i in range(len(arrays)))
    attrs = f", dimension = {dimension}" if dimension is not None else ""
    return f"xla.sort {operands}{attrs} comparator {region} : {signature}", outs


def sort(arrays: list[np.ndarray], dimension=None, **compare) -> list[np.ndarray]:
    """JIT == interpreter, exactly (values, signs of zeros, NaNs)."""
    text, outs = sort_text(arrays, dimension, **compare)
    return exact(text, arrays, outs)


def lowered(arrays: list[np.ndarray], dimension=None, **compare) -> str:
    """The IR after convert-xla-to-linalg."""
    text, outs = sort_text(arrays, dimension, **compare)
    module = load_program(one_op_program(text, arrays, outs))
    ConvertXlaToLinalgPass().apply(make_context(), module)
    return str(module)


def expected_order(keys: np.ndarray, descending: bool) -> np.ndarray:
    """numpy's stable order of the keys along the last axis (descending: ties still in
    input order)."""
    if not descending:
        return np.argsort(keys, axis=-1, kind="stable")
    n = keys.shape[-1]
    return (n - 1 - np.argsort(keys[..., ::-1], axis=-1, kind="stable"))[..., ::-1]


def keys_with_ties(dtype, shape, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        # the whole range (every digit in use) and a few repeated values
        x = rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)
        x.flat[::3] = rng.integers(max(info.min, -3), 4, x.size // 3 + (x.size % 3 > 0)).astype(dtype)
        return x
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dtype)
    x.flat[::4] = np.round(x.flat[::4])  # ties
    return x


# --------------------------------------------------------------------------------------
# the fast path is taken
# --------------------------------------------------------------------------------------


def test_radix_path_is_taken_for_one_compare_of_the_first_pair():
    x = np.zeros((3, 40, 2), np.float32)
    ir = lowered([x, x.astype(np.int32)], dimension=1, direction="GT", swapped=True)
    # GT of swapped arguments is LT: the kernel of f32 keys under FLOAT, ascending, 8-bit digits,
    # with the permutation;
    # (outer, n, inner) = (3, 40, 2); the payload gathered through the permutation
    assert "func.call @xla_opt_sort_f32_float_lt_d8_perm__tensor_3x40x2xf32_" in ir
    assert "-> (tensor<3x40x2xf32>, tensor<3x40x2xi32>)" in ir
    assert "arith.constant 3 : i64" in ir and "arith.constant 40 : i64" in ir and "arith.constant 2 : i64" in ir
    assert "arith.cmpf" not in ir  # no comparator inlined: no merge sort
    ir = lowered([np.zeros(1 << 14, np.int8)], direction="LT")
    assert "func.call @xla_opt_sort_i8_signed_lt_d8__" in ir  # 8-bit keys keep 8-bit digits
    ir = lowered([np.zeros(1 << 14, np.uint32)], direction="LT", compare_type="UNSIGNED")
    assert "func.call @xla_opt_sort_i32_unsigned_lt_d11__" in ir  # long rows: 11-bit digits
    ir = lowered([np.zeros(100, BF16)], compare_type="TOTALORDER")
    assert "func.call @xla_opt_sort_bf16_totalorder_lt_d8__" in ir


def test_other_comparators_and_short_rows_keep_the_merge_sort():
    x = np.zeros(30, np.float32)
    ir = lowered([x], direction="LE")
    assert "xla_opt_sort" not in ir and "arith.cmpf ole" in ir
    ir = lowered([x[:23]])  # shorter than RADIX_MIN_LENGTH (24), convert-xla-to-linalg's radix-sort-min-length
    assert "xla_opt_sort" not in ir and "arith.cmpf olt" in ir


# --------------------------------------------------------------------------------------
# every key type, LT and GT, against the interpreter
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_key_types(dtype, direction):
    x = keys_with_ties(dtype, (2, 300))
    [got] = sort([x], direction=direction)
    order = expected_order(x, direction == "GT")
    np.testing.assert_array_equal(got, np.take_along_axis(x, order, axis=-1))


@pytest.mark.parametrize("dtype", [*FLOATS, *INTS], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_key_types_with_payloads(dtype, direction):
    """The payloads follow their keys; ties keep the input order (a stable sort)."""
    x = keys_with_ties(dtype, (257,), seed=1)
    x[5:60] = x[4]  # a long run of equal keys
    positions = np.arange(x.size, dtype=np.int32)
    other = np.linspace(-1, 1, x.size).astype(np.float16)
    got_x, got_positions, _ = sort([x, positions, other], direction=direction)
    order = expected_order(x, direction == "GT")
    np.testing.assert_array_equal(got_positions, order)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_total_order_nans_infinities_and_zeros(dtype, direction):
    """TOTALORDER: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN."""
    x = np.tile(np.array([np.nan, 1.0, -np.nan, -0.0, np.inf, 0.0, -np.inf, 1.0, np.nan, -2.5, 0.0, -0.0], dtype), 3)
    positions = np.arange(x.size, dtype=np.int64)
    sort([x], direction=direction, compare_type="TOTALORDER")
    sort([x, positions], direction=direction, compare_type="TOTALORDER")


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_float_zeros_tie_and_infinities(dtype, direction):
    """FLOAT: -0 == +0, so zeros keep their input order, signs and all."""
    x = np.tile(np.array([0.0, -0.0, 3.0, -np.inf, 0.0, np.inf, -0.0, -3.0, 0.0], dtype), 3)
    positions = np.arange(x.size, dtype=np.uint32)
    got, got_positions = sort([x, positions], direction=direction)
    np.testing.assert_array_equal(got_positions, expected_order(x.astype(np.float64), direction == "GT"))
    sort([x], direction=direction)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_float_nans_go_last_under_lt_first_under_gt(dtype, direction):
    """FLOAT leaves NaNs unordered (the interpreter's order for them is its sorting
    algorithm's): this path puts them after everything under LT, before everything under
    GT, in input order, and orders the rest exactly."""
    x = np.tile(np.array([1.0, np.nan, -0.0, -np.nan, -np.inf, 0.0, np.inf, np.nan, -1.0], dtype), 3)
    positions = np.arange(x.size, dtype=np.int32)
    text, outs = sort_text([x, positions], direction=direction)
    got, got_positions = xla_opt.run(one_op_program(text, [x, positions], outs), x, positions, backend="jit")
    nan = np.isnan(x.astype(np.float64))
    numbers = expected_order(x.astype(np.float64)[~nan], direction == "GT")
    ordered = [np.flatnonzero(~nan)[numbers], np.flatnonzero(nan)]
    np.testing.assert_array_equal(got_positions, np.concatenate(ordered if direction == "LT" else ordered[::-1]))
    np.testing.assert_array_equal(got.view(np.uint8), x[got_positions].view(np.uint8))


# --------------------------------------------------------------------------------------
# lengths, dimensions
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 23, 24, 255, 256, 257, 100_000])
def test_lengths(n):
    x = keys_with_ties(np.float32, (n,), seed=n)
    positions = np.arange(n, dtype=np.int32)
    got, got_positions = sort([x, positions])
    np.testing.assert_array_equal(got_positions, np.argsort(x, kind="stable"))
    sort([x], compare_type="TOTALORDER")


@pytest.mark.parametrize("n", [2, 256, 20_000])
def test_64_bit_keys_with_wide_digits(n):
    """Rows of 2**14 or more take 11-bit digits (6 passes of a 64-bit key)."""
    sort([keys_with_ties(np.int64, (n,), seed=3)], direction="GT")
    sort([keys_with_ties(np.float64, (n,), seed=4), np.arange(n, dtype=np.uint8)])


@pytest.mark.parametrize("dimension", [0, 1, 2])
def test_each_dimension_of_a_3d_array(dimension):
    x = keys_with_ties(np.int16, (24, 25, 26), seed=dimension)
    x[x > 2] = 2
    payload = np.arange(x.size, dtype=np.float32).reshape(x.shape)
    got_x, got_payload = sort([x, payload], dimension=dimension)
    order = np.argsort(x, axis=dimension, kind="stable")
    np.testing.assert_array_equal(got_payload, np.take_along_axis(payload, order, axis=dimension))


def test_zero_rows():
    sort([np.zeros((0, 5), BF16)])
    sort([np.zeros((5, 0), np.uint16)], direction="GT")


def test_timing_1m_f32_against_numpy():
    """Not an assertion: the time of the issue's workload, printed (pytest -s)."""
    n = 1 << 20
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    for compare_type in (None, "TOTALORDER"):
        text, outs = sort_text([x], compare_type=compare_type)
        run = xla_opt.compile(one_op_program(text, [x], outs), backend="jit")
        np.testing.assert_array_equal(run(x)[0], np.sort(x))
        ours, numpy = [], []
        for _ in range(5):
            start = time.perf_counter()
            run(x)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            np.sort(x)
            numpy.append(time.perf_counter() - start)
        print(
            f"\nsort 1M f32 ({compare_type or 'FLOAT'}): jit {np.median(ours) * 1e3:.1f} ms, "
            f"np.sort {np.median(numpy) * 1e3:.1f} ms"
        )
