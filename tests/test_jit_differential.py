"""The JIT against the reference interpreter, op by op over the core op set.

Integers and booleans must agree exactly; floats within a stated number of ulps
(transcendental functions come from LLVM/libm on one side and numpy on the other).
"""

from __future__ import annotations

import gc
import resource

import numpy as np
import pytest

import xla_opt
from tests.util import BF16, both, one_op_program, tensor_type, ttype

def rand(rng, shape, dtype, positive=False):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = (0, 100) if positive else (max(info.min, -1000), min(info.max, 1000))
        return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)
    x = rng.standard_normal(shape).astype(np.float32) * 3
    if positive:
        x = np.abs(x) + 0.25
    return x.astype(dtype)


FLOATS = [np.float32, np.float64, np.float16, BF16]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64]

UNARY_FLOAT = ["abs", "ceil", "cosine", "sine", "exponential", "exponential_minus_one", "floor", "log",
               "log_plus_one", "logistic", "negate", "rsqrt", "sign", "sqrt", "cbrt", "tanh", "tan",
               "round_nearest_afz", "round_nearest_even"]  # fmt: skip
POSITIVE_ONLY = {"log", "log_plus_one", "rsqrt", "sqrt"}


@pytest.mark.parametrize("op", UNARY_FLOAT)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_unary_float(op, dtype):
    rng = np.random.default_rng(abs(hash(op)) % 2**32)
    x = rand(rng, (3, 5), dtype, positive=op in POSITIVE_ONLY)
    both(one_op_program(f"xla.{op} %a0 : {ttype(x)}", [x], [ttype(x)]), x)


@pytest.mark.parametrize("op", ["negate", "abs", "not", "popcnt", "count_leading_zeros", "sign"])
@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_unary_int(op, dtype):
    if op in ("abs", "sign", "negate") and np.dtype(dtype).kind == "u":
        pytest.skip(f"{op} is not defined on unsigned integers by the verifier")
    rng = np.random.default_rng(3)
    x = rand(rng, (4, 6), dtype)
    both(one_op_program(f"xla.{op} %a0 : {ttype(x)}", [x], [ttype(x)]), x)


def test_is_finite_and_not_pred():
    x = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], np.float32)
    both(one_op_program(f"xla.is_finite %a0 : ({ttype(x)}) -> {tensor_type(x.shape, np.bool_)}", [x],
                        [tensor_type(x.shape, np.bool_)]), x)
    p = np.array([True, False])
    both(one_op_program(f"xla.not %a0 : {ttype(p)}", [p], [ttype(p)]), p)


BINARY_ARITH = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum"]


@pytest.mark.parametrize("op", [*BINARY_ARITH, "power", "atan2"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_binary_float(op, dtype):
    rng = np.random.default_rng(5)
    a = rand(rng, (3, 4), dtype, positive=op == "power")
    b = rand(rng, (3, 4), dtype)
    a[0, 0] = np.nan if np.dtype(dtype).kind == "f" else a[0, 0]
    both(one_op_program(f"xla.{op} %a0, %a1 : {ttype(a)}", [a, b], [ttype(a)]), a, b)


@pytest.mark.parametrize("op", [*BINARY_ARITH, "and", "or", "xor", "shift_left", "shift_right_logical",
                                "shift_right_arithmetic"])  # fmt: skip
@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_binary_int(op, dtype):
    rng = np.random.default_rng(7)
    a = rand(rng, (5, 7), dtype)
    b = rand(rng, (5, 7), dtype)
    info = np.iinfo(dtype)
    # the corners XLA defines: division by zero, INT_MIN / -1, shifts past the width
    b[0, :3] = 0
    a[1, 0] = info.min
    b[1, 0] = -1 if info.min < 0 else 1
    if op.startswith("shift"):
        b = (np.abs(b.astype(np.int64)) % (info.bits + 3)).astype(dtype)
    both(one_op_program(f"xla.{op} %a0, %a1 : {ttype(a)}", [a, b], [ttype(a)]), a, b)


@pytest.mark.parametrize("op", ["and", "or", "xor", "add", "multiply", "maximum", "minimum"])
def test_binary_pred(op):
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    both(one_op_program(f"xla.{op} %a0, %a1 : {ttype(a)}", [a, b], [ttype(a)]), a, b)


@pytest.mark.parametrize(
    "lhs_shape, rhs_shape, dims, out_shape",
    [
        ((2, 3), (3,), [1], (2, 3)),
        ((3, 3), (3,), [0], (3, 3)),
        ((4,), (1, 2), [0], (4, 2)),
        ((1, 2), (4, 3, 1), [1, 2], (4, 3, 2)),
        ((2, 1), (1, 3), None, (2, 3)),
        ((2, 3), (), None, (2, 3)),
    ],
)
def test_broadcasting(lhs_shape, rhs_shape, dims, out_shape):
    rng = np.random.default_rng(11)
    a = rand(rng, lhs_shape, np.float32)
    b = rand(rng, rhs_shape, np.float32)
    extra = f", broadcast_dimensions = {list(dims)}" if dims is not None else ""
    rt = tensor_type(out_shape, np.float32)
    both(one_op_program(f"xla.subtract %a0, %a1{extra} : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt]), a, b)


@pytest.mark.parametrize("direction", ["EQ", "NE", "GE", "GT", "LE", "LT"])
@pytest.mark.parametrize(
    "dtype, ctype",
    [(np.float32, "FLOAT"), (np.float32, "TOTALORDER"), (np.float64, "TOTALORDER"), (np.int32, "SIGNED"),
     (np.uint8, "UNSIGNED"), (BF16, "FLOAT"), (np.bool_, "UNSIGNED")],  # fmt: skip
    ids=lambda v: str(v),
)
def test_compare(direction, dtype, ctype):
    rng = np.random.default_rng(13)
    a = rand(rng, (16,), dtype)
    b = rand(rng, (16,), dtype)
    if np.dtype(dtype).kind == "f":
        a[:6] = [np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf]
        b[:6] = [np.nan, 1.0, -0.0, 0.0, np.inf, 1.0]
    b[10:] = a[10:]
    rt = tensor_type(a.shape, np.bool_)
    both(one_op_program(
        f"xla.compare %a0, %a1, comparison_direction = {direction}, compare_type = {ctype} : "
        f"({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt]), a, b)  # fmt: skip


CONVERT_TYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint16, np.uint64, np.float16, BF16,
                 np.float32, np.float64]  # fmt: skip


@pytest.mark.parametrize("src", CONVERT_TYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dst", CONVERT_TYPES, ids=lambda d: np.dtype(d).name)
def test_convert(src, dst):
    rng = np.random.default_rng(17)
    x = rand(rng, (24,), src)
    if np.dtype(src).kind == "f":
        x[:6] = np.array([np.nan, np.inf, -np.inf, 1e10, -1e10, 2.5], np.float32).astype(src)
    rt = tensor_type(x.shape, dst)
    both(one_op_program(f"xla.convert %a0 : ({ttype(x)}) -> {rt}", [x], [rt]), x)


def test_select_clamp_scalar_operands():
    rng = np.random.default_rng(19)
    a, b = rand(rng, (3, 4), np.float32), rand(rng, (3, 4), np.float32)
    p = np.array(True)
    t = ttype(a)
    both(one_op_program(f"xla.select %a0, %a1, %a2 : ({ttype(p)}, {t}, {t}) -> {t}", [p, a, b], [t]), p, a, b)
    pv = rng.random((3, 4)) < 0.5
    both(one_op_program(f"xla.select %a0, %a1, %a2 : ({ttype(pv)}, {t}, {t}) -> {t}", [pv, a, b], [t]), pv, a, b)
    lo, hi = np.array(-0.5, np.float32), np.array(0.5, np.float32)
    both(one_op_program(f"xla.clamp %a0, %a1, %a2 : ({ttype(lo)}, {t}, {ttype(hi)}) -> {t}", [lo, a, hi], [t]),
         lo, a, hi)  # fmt: skip


def test_bitcast_reduce_precision_real_imag_barrier():
    rng = np.random.default_rng(41)
    x = rand(rng, (3, 4), np.float32)
    x[0, :3] = [np.nan, 1e30, 1e-30]
    i32 = tensor_type(x.shape, np.int32)
    t = ttype(x)
    both(one_op_program(f"xla.bitcast_convert %a0 : ({t}) -> {i32}", [x], [i32]), x)
    both(one_op_program(f"xla.reduce_precision %a0, exponent_bits = 5, mantissa_bits = 10 : {t}", [x], [t]), x)
    both(one_op_program(f"xla.reduce_precision %a0, exponent_bits = 8, mantissa_bits = 7 : {t}", [x], [t]), x)
    both(one_op_program(f"xla.real %a0 : {t}", [x], [t]), x)
    both(one_op_program(f"xla.imag %a0 : {t}", [x], [t]), x)
    both(one_op_program(f"xla.optimization_barrier %a0 : {t}", [x], [t]), x)


def test_constant_iota_several_results():
    prog = """
    func.func @main() -> (tensor<2x3xi32>, tensor<4xf32>, tensor<3x2xbf16>) {
      %0 = xla.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
      %1 = xla.iota iota_dimension = 0 : tensor<4xf32>
      %2 = xla.iota iota_dimension = 1 : tensor<3x2xbf16>
      func.return %0, %1, %2 : tensor<2x3xi32>, tensor<4xf32>, tensor<3x2xbf16>
    }"""
    both(prog)


SHAPE_CASES = [
    ("xla.broadcast %a0, broadcast_sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>", [(3,)], "tensor<2x3xf32>"),
    ("xla.broadcast_in_dim %a0, broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xf32>", [(3,)],
     "tensor<2x3xf32>"),
    ("xla.broadcast_in_dim %a0, broadcast_dimensions = [0, 2] : (tensor<2x1xf32>) -> tensor<2x3x4xf32>", [(2, 1)],
     "tensor<2x3x4xf32>"),
    ("xla.reshape %a0 : (tensor<2x3x4xf32>) -> tensor<4x6xf32>", [(2, 3, 4)], "tensor<4x6xf32>"),
    ("xla.reshape %a0, dimensions = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<24xf32>", [(2, 3, 4)],
     "tensor<24xf32>"),
    ("xla.collapse %a0, dimensions = [1, 2] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>", [(2, 3, 4)],
     "tensor<2x12xf32>"),
    ("xla.transpose %a0, permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>", [(2, 3, 4)],
     "tensor<4x2x3xf32>"),
    ("xla.reverse %a0, dimensions = [0, 2] : tensor<2x3x4xf32>", [(2, 3, 4)], "tensor<2x3x4xf32>"),
    ("xla.slice %a0, start_indices = [1, 0], limit_indices = [5, 7], strides = [2, 3] : (tensor<6x8xf32>) -> "
     "tensor<2x3xf32>", [(6, 8)], "tensor<2x3xf32>"),
    # a prefix: the operand's map is the identity although its shape is larger
    ("xla.slice %a0, start_indices = [0, 0], limit_indices = [3, 8], strides = [1, 1] : (tensor<6x8xf32>) -> "
     "tensor<3x8xf32>", [(6, 8)], "tensor<3x8xf32>"),
    ("xla.concatenate %a0, %a1, dimension = 1 : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>",
     [(2, 3), (2, 2)], "tensor<2x5xf32>"),
    ("xla.pad %a0, %a1, edge_padding_low = [-1, 2], edge_padding_high = [1, -1], interior_padding = [1, 2] : "
     "(tensor<3x4xf32>, tensor<f32>) -> tensor<5x11xf32>", [(3, 4), ()], "tensor<5x11xf32>"),
    # a pad of nothing is its operand (JAX's irfft pads so): the result is still a copy
    ("xla.pad %a0, %a1, edge_padding_low = [0, 0], edge_padding_high = [0, 0], interior_padding = [0, 0] : "
     "(tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>", [(3, 4), ()], "tensor<3x4xf32>"),
]


@pytest.mark.parametrize("op_text, shapes, result", SHAPE_CASES, ids=lambda v: str(v)[:40])
def test_shape_ops(op_text, shapes, result):
    rng = np.random.default_rng(23)
    inputs = [rand(rng, s, np.float32) for s in shapes]
    both(one_op_program(op_text, inputs, [result]), *inputs)


@pytest.mark.parametrize("start", [(1, 2), (-5, 7), (100, -100)])
def test_dynamic_slices_clamp(start):
    rng = np.random.default_rng(29)
    x = rand(rng, (5, 6), np.float32)
    u = rand(rng, (2, 3), np.float32)
    i, j = (np.array(s, np.int32) for s in start)
    both(one_op_program(
        "xla.dynamic_slice %a0, %a1, %a2, slice_sizes = [2, 3] : (tensor<5x6xf32>, tensor<i32>, tensor<i32>) -> "
        "tensor<2x3xf32>", [x, i, j], ["tensor<2x3xf32>"]), x, i, j)  # fmt: skip
    both(one_op_program(
        "xla.dynamic_update_slice %a0, %a1, %a2, %a3 : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<i32>, "
        "tensor<i32>) -> tensor<5x6xf32>", [x, u, i, j], ["tensor<5x6xf32>"]), x, u, i, j)  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, BF16], ids=lambda d: np.dtype(d).name)
def test_dot_and_dot_general(dtype):
    rng = np.random.default_rng(31)
    a, b = rand(rng, (3, 5), dtype), rand(rng, (5, 4), dtype)
    t = lambda s: tensor_type(s, dtype)  # noqa: E731
    both(one_op_program(f"xla.dot %a0, %a1 : ({t((3, 5))}, {t((5, 4))}) -> {t((3, 4))}", [a, b], [t((3, 4))]), a, b,
         reduction=True)  # fmt: skip
    v = rand(rng, (5,), dtype)
    both(one_op_program(f"xla.dot %a0, %a1 : ({t((3, 5))}, {t((5,))}) -> {t((3,))}", [a, v], [t((3,))]), a, v,
         reduction=True)  # fmt: skip
    both(one_op_program(f"xla.dot %a0, %a1 : ({t((5,))}, {t((5,))}) -> {t(())}", [v, v], [t(())]), v, v,
         reduction=True)  # fmt: skip
    x, y = rand(rng, (2, 3, 4), dtype), rand(rng, (2, 4, 5), dtype)
    both(one_op_program(
        f"xla.dot_general %a0, %a1, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
        f"lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : ({t((2, 3, 4))}, {t((2, 4, 5))}) -> "
        f"{t((2, 3, 5))}", [x, y], [t((2, 3, 5))]), x, y, reduction=True)  # fmt: skip


def test_variadic_reduce_argmax():
    prog = """
    func.func @main(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
      %ninf = xla.constant dense<0xFF800000> : tensor<f32>
      %zero = xla.constant dense<0> : tensor<i32>
      %r:2 = xla.reduce (%x, %i), (%ninf, %zero), dimensions = [1] body {
      ^bb0(%am: tensor<f32>, %ai: tensor<i32>, %bm: tensor<f32>, %bi: tensor<i32>):
        %gt = xla.compare %am, %bm, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %eq = xla.compare %am, %bm, comparison_direction = EQ : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %lt = xla.compare %ai, %bi, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = xla.and %eq, %lt : tensor<i1>
        %keep = xla.or %gt, %tie : tensor<i1>
        %m = xla.select %keep, %am, %bm : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
        %j = xla.select %keep, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
        xla.return %m, %j : tensor<f32>, tensor<i32>
      } : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
      func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
    }"""
    rng = np.random.default_rng(37)
    x = rand(rng, (4, 6), np.float32)
    idx = np.broadcast_to(np.arange(6, dtype=np.int32), (4, 6)).copy()
    m, j = both(prog, x, idx)
    np.testing.assert_array_equal(j, x.argmax(axis=1))


def test_while_conditional_and_calls():
    prog = """
    func.func @step(%x: tensor<f32>) -> tensor<f32> {
      %two = xla.constant dense<2.0> : tensor<f32>
      %y = xla.multiply %x, %two : tensor<f32>
      func.return %y : tensor<f32>
    }
    func.func @main(%n: tensor<i32>, %x: tensor<f32>, %k: tensor<i32>, %p: tensor<i1>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
      %r:2 = xla.while %n, %x cond {
      ^bb0(%i: tensor<i32>, %v: tensor<f32>):
        %zero = xla.constant dense<0> : tensor<i32>
        %c = xla.compare %i, %zero, comparison_direction = GT : (tensor<i32>, tensor<i32>) -> tensor<i1>
        xla.return %c : tensor<i1>
      } body {
      ^bb0(%i: tensor<i32>, %v: tensor<f32>):
        %one = xla.constant dense<1> : tensor<i32>
        %j = xla.subtract %i, %one : tensor<i32>
        %w = xla.call %v, callee = @step : (tensor<f32>) -> tensor<f32>
        xla.return %j, %w : tensor<i32>, tensor<f32>
      } : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
      %b = xla.conditional %k, %x, %x, %x branches({
      ^bb0(%a: tensor<f32>):
        xla.return %a : tensor<f32>
      }, {
      ^bb0(%a: tensor<f32>):
        %s = xla.negate %a : tensor<f32>
        xla.return %s : tensor<f32>
      }, {
      ^bb0(%a: tensor<f32>):
        %s = xla.add %a, %a : tensor<f32>
        xla.return %s : tensor<f32>
      }) : (tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %q = xla.conditional %p, %x, %b branches({
      ^bb0(%a: tensor<f32>):
        xla.return %a : tensor<f32>
      }, {
      ^bb0(%a: tensor<f32>):
        %s = xla.sqrt %a : tensor<f32>
        xla.return %s : tensor<f32>
      }) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      func.return %r#1, %b, %q : tensor<f32>, tensor<f32>, tensor<f32>
    }"""
    for n, k, p in [(5, 0, True), (0, 1, False), (3, 7, False), (2, -4, True)]:
        both(prog, np.array(n, np.int32), np.array(1.5, np.float32), np.array(k, np.int32), np.array(p))


def test_tuples_are_eliminated():
    prog = """
    func.func @main(%a: tensor<3xf32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xf32>) {
      %t = xla.tuple %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tuple<tensor<3xf32>, tensor<3xi32>>
      %x = xla.get_tuple_element %t, index = 1 : (tuple<tensor<3xf32>, tensor<3xi32>>) -> tensor<3xi32>
      %y = xla.get_tuple_element %t, index = 0 : (tuple<tensor<3xf32>, tensor<3xi32>>) -> tensor<3xf32>
      func.return %x, %y : tensor<3xi32>, tensor<3xf32>
    }"""
    both(prog, np.arange(3, dtype=np.float32), np.arange(3, dtype=np.int32))


# ---- the runtime ------------------------------------------------------------------------

SOFTMAX = "examples/softmax.mlir"


def test_wrong_inputs_are_errors_not_crashes():
    from pathlib import Path

    f = xla_opt.compile(Path(__file__).resolve().parents[1] / SOFTMAX, backend="jit")
    with pytest.raises(ValueError, match="takes 1 inputs, got 2"):
        f(np.zeros((4, 8), np.float32), np.zeros(1))
    with pytest.raises(ValueError, match="expected dtype float32, got float64"):
        f(np.zeros((4, 8)))
    with pytest.raises(ValueError, match=r"expected shape \[4, 8\], got \[8, 4\]"):
        f(np.zeros((8, 4), np.float32))
    # a non-contiguous input is copied, not misread
    x = np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32).T
    (y,) = f(x)
    np.testing.assert_allclose(y, xla_opt.run(Path(__file__).resolve().parents[1] / SOFTMAX, np.ascontiguousarray(x))[0], rtol=1e-6)


def test_compiled_code_is_cached_by_ir():
    from pathlib import Path

    import xla_opt.runtime.llvm as rt_llvm

    path = Path(__file__).resolve().parents[1] / SOFTMAX
    f = xla_opt.compile(path, backend="jit")
    g = xla_opt.compile(path, backend="jit")
    assert f.jit.native is g.jit.native
    assert (f.jit.llvm_ir, rt_llvm.PROGRAM_UNROLL_THRESHOLD, True) in rt_llvm._cache  # noqa: SLF001 - split: a program


def test_a_thousand_calls_do_not_leak():
    prog = """
    func.func @main(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
      %0 = xla.transpose %a, permutation = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
      %1 = xla.exponential %0 : tensor<256x256xf32>
      %2 = xla.add %1, %0 : tensor<256x256xf32>
      func.return %2 : tensor<256x256xf32>
    }"""
    f = xla_opt.compile(prog, backend="jit")
    x = np.ones((256, 256), np.float32)
    for _ in range(50):
        f(x)
    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(1000):
        f(x)
    gc.collect()
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    # 1000 calls of a program with a 256 KiB intermediate: a leak would add ~256 MiB
    assert grown_kib < 16 * 1024, f"max RSS grew by {grown_kib} KiB"


# The bounds measured against float64 over all 2^32 f32 bit patterns (the docstrings of
# lowering/conversions/convert_to_llvm/math_f32.py): exp within 1.02 ulp; tanh is XLA:CPU's rational approximation,
# within 4.9 ulp (the lead's decision: XLA's accuracy class, at a third of the cost).
@pytest.mark.parametrize("op, lo, hi, max_ulps", [("exponential", -103.0, 88.7, 1.02), ("tanh", -10.0, 10.0, 4.9)])
def test_inline_exp_tanh_accuracy(op, lo, hi, max_ulps):
    """The JIT's vectorizable f32 exp/tanh against the exact (f64) function."""
    x = np.linspace(lo, hi, 1 << 20, dtype=np.float32)
    x[:4] = [np.nan, np.inf, -np.inf, -0.0]
    (y,) = xla_opt.run(one_op_program(f"xla.{op} %a0 : {ttype(x)}", [x], [ttype(x)]), x, backend="jit")
    exact = {"exponential": np.exp, "tanh": np.tanh}[op](x[4:].astype(np.float64))
    spacing = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    finite = np.isfinite(exact)
    assert np.max(np.abs(y[4:][finite] - exact[finite]) / spacing[finite]) <= max_ulps
    assert np.isnan(y[0])
    ref = {"exponential": [np.inf, 0.0], "tanh": [1.0, -1.0]}[op]
    np.testing.assert_array_equal(y[1:3], ref)
    assert np.signbit(y[3]) == (op == "tanh")  # tanh(-0) = -0, exp(-0) = 1


def test_every_lowered_op_is_exercised_here():
    """The README's lowering column is LOWERED_OPS; each op of it runs in this file or
    in another tests/test_jit_*.py (one per op family)."""
    import re
    from pathlib import Path

    from xla_opt.lowering import lowered_op_names

    source = "\n".join(p.read_text() for p in sorted(Path(__file__).parent.glob("test_jit_*.py")))
    named = set(re.findall(r"xla\.([a-z_]+)", source))
    named |= {op for op in UNARY_FLOAT} | {"not", "popcnt", "count_leading_zeros", "is_finite"}
    named |= set(BINARY_ARITH) | {"and", "or", "xor", "shift_left", "shift_right_logical",
                                   "shift_right_arithmetic", "power", "atan2"}  # fmt: skip
    missing = {n for n in lowered_op_names() if n.removeprefix("xla.") not in named}
    assert not missing, sorted(missing)


def test_ops_outside_the_core_set_are_a_clear_error():
    # a function passing tuples (buffers cross a function's boundary; complex
    # factorizations, the former example, lower since issue 31)
    prog = """
    func.func private @first(%t: tuple<tensor<3xf32>>) -> tensor<3xf32> {
      %r = xla.get_tuple_element %t, index = 0 : (tuple<tensor<3xf32>>) -> tensor<3xf32>
      func.return %r : tensor<3xf32>
    }
    func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
      %t = xla.tuple %a : (tensor<3xf32>) -> tuple<tensor<3xf32>>
      %r = func.call @first(%t) : (tuple<tensor<3xf32>>) -> tensor<3xf32>
      func.return %r : tensor<3xf32>
    }"""
    with pytest.raises(
        NotImplementedError,
        match=r"<program>:2:5: error: 'func.func' op is not lowered to linalg: tuple<tensor<3xf32>> arguments and "
        r"results run on the interpreter only",
    ):
        xla_opt.compile(prog, backend="jit")


EDGE_PROGRAMS = {
    "zero_size": ("""func.func @main(%a: tensor<0x3xf32>, %b: tensor<3xf32>) -> (tensor<0x3xf32>, tensor<3xf32>) {
      %0 = xla.add %a, %b, broadcast_dimensions = [1] : (tensor<0x3xf32>, tensor<3xf32>) -> tensor<0x3xf32>
      %z = xla.constant dense<0.0> : tensor<f32>
      %1 = xla.reduce (%a), (%z), dimensions = [0] body {
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = xla.add %x, %y : tensor<f32>
        xla.return %s : tensor<f32>
      } : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
      func.return %0, %1 : tensor<0x3xf32>, tensor<3xf32>
    }""", [np.zeros((0, 3), np.float32), np.ones(3, np.float32)]),
    "a_value_returned_twice_and_an_input_returned": ("""func.func @main(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
      %0 = xla.negate %a : tensor<3xf32>
      func.return %0, %0, %a : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }""", [np.arange(3, dtype=np.float32)]),
    "constants_passed_to_calls": ("""func.func @g(%x: tensor<3xi32>) -> tensor<3xi32> {
      %c = xla.constant dense<[1, 2, 3]> : tensor<3xi32>
      %r = xla.add %x, %c : tensor<3xi32>
      func.return %r : tensor<3xi32>
    }
    func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
      %c = xla.constant dense<[10, 20, 30]> : tensor<3xi32>
      %0 = xla.call %c, callee = @g : (tensor<3xi32>) -> tensor<3xi32>
      %1 = xla.call %0, callee = @g : (tensor<3xi32>) -> tensor<3xi32>
      %2 = xla.add %1, %a : tensor<3xi32>
      func.return %2 : tensor<3xi32>
    }""", [np.arange(3, dtype=np.int32)]),
    "scalars_only": ("""func.func @main(%a: tensor<f64>, %p: tensor<i1>) -> tensor<f64> {
      %0 = xla.sqrt %a : tensor<f64>
      %1 = xla.select %p, %0, %a : (tensor<i1>, tensor<f64>, tensor<f64>) -> tensor<f64>
      func.return %1 : tensor<f64>
    }""", [np.array(2.0), np.array(True)]),
}


@pytest.mark.parametrize("name", sorted(EDGE_PROGRAMS))
def test_edge_programs(name):
    program, inputs = EDGE_PROGRAMS[name]
    before = [a.copy() for a in inputs]
    both(program, *inputs)
    for a, b in zip(inputs, before):
        np.testing.assert_array_equal(a, b)  # inputs are read-only


# ---- issue 13: values at the edges of their types, through StableHLO -------------------

UI64_PROGRAM = """func.func @main(%a: tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>) {
  %c = stablehlo.constant dense<18446744073709551615> : tensor<2xui64>
  %0 = stablehlo.add %a, %c : tensor<2xui64>
  %1 = stablehlo.subtract %c, %a : tensor<2xui64>
  %2 = stablehlo.and %a, %c : tensor<2xui64>
  %3 = stablehlo.xor %a, %c : tensor<2xui64>
  %4 = stablehlo.not %a : tensor<2xui64>
  %5 = stablehlo.negate %a : tensor<2xui64>
  %6 = stablehlo.maximum %a, %c : tensor<2xui64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_ui64_values_above_2_to_the_63_are_exact(backend):
    """Every ui64 value is exact (no cast through float or int64): Python's integers
    modulo 2^64 are the oracle."""
    a = np.array([2**63 + 5, 2**64 - 2], np.uint64)
    got = xla_opt.run(UI64_PROGRAM, a, backend=backend)
    m, c = 2**64, 2**64 - 1
    values = [int(v) for v in a]
    expected = [
        [(v + c) % m for v in values],
        [(c - v) % m for v in values],
        [v & c for v in values],
        [v ^ c for v in values],
        [~v % m for v in values],
        [-v % m for v in values],
        [max(v, c) for v in values],
    ]
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == np.uint64 and [int(v) for v in g] == e


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_rank_0_bitcast_convert_and_reduce_precision_keep_rank_0(backend):
    program = """func.func @main(%i: tensor<i64>, %f: tensor<f64>) -> (tensor<f64>, tensor<i64>, tensor<f64>) {
  %0 = stablehlo.bitcast_convert %i : (tensor<i64>) -> tensor<f64>
  %1 = stablehlo.bitcast_convert %f : (tensor<f64>) -> tensor<i64>
  %2 = stablehlo.reduce_precision %f, format = e5m0 : tensor<f64>
  return %0, %1, %2 : tensor<f64>, tensor<i64>, tensor<f64>
}"""
    i, f = np.array(4607182418800017408, np.int64), np.array(3.3)
    as_float, as_int, reduced = xla_opt.run(program, i, f, backend=backend)
    assert as_float.shape == as_int.shape == reduced.shape == ()
    assert as_float == 1.0 and as_int == f.view(np.int64)
    assert reduced == 4.0  # 3.3 with no mantissa bits: the nearest power of two


def _jit_unary(op: str, x: np.ndarray) -> np.ndarray:
    (y,) = xla_opt.run(one_op_program(f"xla.{op} %a0 : {ttype(x)}", [x], [ttype(x)]), x, backend="jit")
    return y


def test_inline_exp_edges():
    """exp's denormal results rounded once (within one denormal step of e^x, 0 below
    half the smallest), the last finite result and the first overflow, NaN payloads
    and signs kept NaN."""
    x = np.linspace(-104.5, -87.0, 1 << 16, dtype=np.float32)
    y = _jit_unary("exponential", x)
    exact = np.exp(x.astype(np.float64))
    tiny = np.float64(2.0**-149)
    assert np.max(np.abs(y - exact)) <= tiny
    assert np.all(y[exact < tiny / 2] == 0) and np.all(y[exact > tiny] > 0)
    below, above = np.float32(88.72283), np.nextafter(np.float32(88.72284), np.float32(100))
    edges = np.array([below, above, 88.75, 1e30, -1e30, -0.0, 0.0], np.float32)
    np.testing.assert_array_equal(
        _jit_unary("exponential", edges), [np.exp(below), np.inf, np.inf, np.inf, 0.0, 1.0, 1.0]
    )
    nans = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF], np.uint32).view(np.float32)
    assert np.all(np.isnan(_jit_unary("exponential", nans)))


def test_inline_tanh_edges():
    """tanh is odd, within [-1, 1] everywhere (the quotient is clamped: unfused
    multiply-adds would overshoot 1 by an ulp near |x| = 8), exactly +-1 from the
    saturation point on, x itself for tiny and denormal x (signed zeros kept)."""
    x = np.concatenate([np.linspace(0, 12, 1 << 18, dtype=np.float32), [1e-30, 1e-40, 3e-4, 8.0781, 1e30]]).astype(
        np.float32
    )
    x = np.concatenate([x, -x])
    y = _jit_unary("tanh", x)
    np.testing.assert_array_equal(y[: len(y) // 2], -y[len(y) // 2 :])
    assert np.max(np.abs(y)) == 1.0
    np.testing.assert_array_equal(y[np.abs(x) >= 8.0781], np.sign(x[np.abs(x) >= 8.0781]))
    tiny = np.abs(x) < 4e-4
    np.testing.assert_array_equal(y[tiny], x[tiny])
    assert np.signbit(_jit_unary("tanh", np.array([-0.0, 0.0], np.float32))).tolist() == [True, False]
    nans = np.array([0x7FC00000, 0xFFC00000, 0x7F800001], np.uint32).view(np.float32)
    assert np.all(np.isnan(_jit_unary("tanh", nans)))


def test_dynamic_update_slice_reads_an_update_reshaped_by_unit_dimensions():
    """JAX's scans write each step's value into their stacked outputs as
    `dynamic_update_slice(stack, broadcast_in_dim(value to 1 x ...), i, 0, 0)` (or a
    reshape): the update is read in the value itself (no copy), at any clamped start,
    also when the reshape or broadcast has other uses (then it is converted for them)."""
    rng = np.random.default_rng(41)
    stack, value = rand(rng, (4, 2, 3), np.float32), rand(rng, (2, 3), np.float32)
    program = """
func.func @main(%x: tensor<4x2x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) -> (tensor<4x2x3xf32>, tensor<1x2x3xf32>) {
  %z = xla.constant dense<0> : tensor<i32>
  %r = xla.reshape %u : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %d = xla.dynamic_update_slice %x, %r, %i, %z, %z : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
  %e = xla.dynamic_update_slice %d, %r, %z, %z, %z : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
  %s = xla.broadcast_in_dim %u, broadcast_dimensions = [1, 2] : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %t = xla.dynamic_update_slice %e, %s, %i, %z, %z : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
  func.return %t, %s : tensor<4x2x3xf32>, tensor<1x2x3xf32>
}"""
    for start in (2, -1, 9):
        i = np.array(start, np.int32)
        got, reshaped = xla_opt.run(program, stack, value, i, backend="jit")
        expected = stack.copy()
        expected[min(max(start, 0), 3)] = value
        expected[0] = value
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(reshaped, value[None])
