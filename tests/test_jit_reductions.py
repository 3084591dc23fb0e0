"""The reductions family on the JIT against the reference interpreter (the oracle):
xla.map, xla.reduce_window, xla.sort, xla.select_and_scatter.

Every op here combines elements in the interpreter's order (a window folded in
row-major order from the init value, a stable sort, windows scattered in row-major
order), so results are compared exactly, floats included (NaN matching NaN)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import ELEMENT_TYPES, one_op_program, tensor_type, ttype

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def exact(op_text: str, inputs: list[np.ndarray], results: list[str]) -> list[np.ndarray]:
    """Run the one-op program (`one_op_program`) on both backends; the JIT must give
    the interpreter's results exactly."""
    program = one_op_program(op_text, inputs, results)
    expected = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        if e.dtype.kind == "f" or e.dtype == BF16:
            # NaN matches NaN; -0.0 and 0.0 are told apart through the sign bit
            g64, e64 = g.astype(np.float64), e.astype(np.float64)
            np.testing.assert_array_equal(g64, e64)
            np.testing.assert_array_equal(np.signbit(g64), np.signbit(e64))
        else:
            np.testing.assert_array_equal(g, e)
    return got


def rand(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def scalar(dtype) -> str:
    return f"tensor<{ELEMENT_TYPES[np.dtype(dtype)]}>"


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
