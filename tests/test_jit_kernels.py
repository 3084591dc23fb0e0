"""The GEMM micro-kernel (lowering/kernels, issue 11): f32, f64, f16 and bf16 matrix
products (and batches of them) with M, N, K >= 32 are `linalg-matmul-to-kernel` calls
of `xla_opt_sgemm` / `xla_opt_dgemm` / `xla_opt_hgemm` / `xla_opt_bgemm`, which must
give the interpreter's results.

Most inputs are small nonzero integers: every product and partial sum is then exact
in f32, so the kernel's summation order (blocked, fused multiply-adds) gives the
interpreter's result bit for bit; random normal inputs are compared within the
rounding bound of a sum of K products."""

from __future__ import annotations

import ctypes
import os
import re

import numpy as np
import pytest
from xla_opt.lowering.kernels.gemm import (
    AVX2_FMA,
    AVX2_FMA_F64,
    AVX2_I32,
    AVX512_FMA,
    AVX512_FMA_L1_48K,
    BGEMM,
    DGEMM,
    F64,
    GEMMS,
    HGEMM,
    I32,
    IGEMM,
    SSE,
    SSE_F64,
    SSE_I32,
    SYMBOL,
    gemm_ir,
    library_ir,
    shape_for,
)
from xla_opt.lowering.transforms.linalg_matmul_to_kernel import MIN_COLUMNS, MIN_DEPTH, MIN_ROWS

import xla_opt
from tests.util import BF16, exact, one_op_program, tensor_type

F32 = np.float32
F64_ = np.float64


def t(shape, dtype=F32) -> str:
    return tensor_type(shape, dtype)


def small_ints(rng: np.random.Generator, shape, dtype=F32) -> np.ndarray:
    """Nonzero integers in [-3, 3]: no -0.0 product, exact sums."""
    values = rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)
    return values.astype(dtype)


def dot_general(lhs: np.ndarray, rhs: np.ndarray, lhs_contracting: int, rhs_contracting: int) -> str:
    m = lhs.shape[1 - lhs_contracting]
    n = rhs.shape[1 - rhs_contracting]
    dtype = lhs.dtype
    return one_op_program(
        f"xla.dot_general %a0, %a1, lhs_contracting_dimensions = [{lhs_contracting}], "
        f"rhs_contracting_dimensions = [{rhs_contracting}] : ({t(lhs.shape, dtype)}, {t(rhs.shape, dtype)}) "
        f"-> {t((m, n), dtype)}",
        [lhs, rhs],
        [t((m, n), dtype)],
    )


def calls_a_gemm(program: str) -> bool:
    ir = llvm_ir_of(program)
    return any(symbol in ir for symbol in GEMMS)


def llvm_ir_of(program: str) -> str:
    return xla_opt.compile(program, backend="jit").jit.llvm_ir


# (M, K, N): non-multiples of the 6 x 16 tile and of KC = 512 (two depth slices of
# 513), edges everywhere; the smallest product the kernel takes, and an MLP's 10-class
# output layer (64 x 256 by 256 x 10) and its gradient
SHAPES = [
    (32, 32, 32),
    (33, 65, 47),
    (97, 513, 128),
    (256, 256, 256),
    (300, 40, 37),
    (121, 33, 300),
    (MIN_ROWS, MIN_DEPTH, MIN_COLUMNS),
    (64, 256, 10),
    (10, 64, 256),
]


@pytest.mark.parametrize("m,k,n", SHAPES, ids=lambda x: str(x))
def test_dot_exact(m, k, n):
    rng = np.random.default_rng(m * k + n)
    a, b = small_ints(rng, (m, k)), small_ints(rng, (k, n))
    program = dot_general(a, b, 1, 0)
    assert SYMBOL in llvm_ir_of(program)
    [got] = exact(f"xla.dot %a0, %a1 : ({t(a.shape)}, {t(b.shape)}) -> {t((m, n))}", [a, b], [t((m, n))])
    np.testing.assert_array_equal(got, a.astype(np.float64) @ b.astype(np.float64))


@pytest.mark.parametrize("lhs_contracting,rhs_contracting", [(0, 0), (1, 1), (0, 1)])
def test_transposed_operands(lhs_contracting, rhs_contracting):
    """A contracting dimension first in the lhs or last in the rhs: strides in the packing."""
    rng = np.random.default_rng(lhs_contracting * 2 + rhs_contracting)
    m, k, n = 45, 70, 51
    lhs = small_ints(rng, (k, m) if lhs_contracting == 0 else (m, k))
    rhs = small_ints(rng, (k, n) if rhs_contracting == 0 else (n, k))
    program = dot_general(lhs, rhs, lhs_contracting, rhs_contracting)
    assert SYMBOL in llvm_ir_of(program)
    expected = xla_opt.run(program, lhs, rhs, backend="interpreter")[0]
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    np.testing.assert_array_equal(got, expected)
    a = lhs.T if lhs_contracting == 0 else lhs
    b = rhs.T if rhs_contracting == 1 else rhs
    np.testing.assert_array_equal(got, a.astype(np.float64) @ b.astype(np.float64))


def test_random_normal_within_sum_rounding():
    """Another summation order than the interpreter's: each element within K roundings
    of the sum of the products' magnitudes."""
    rng = np.random.default_rng(7)
    m, k, n = 70, 400, 90
    a, b = rng.standard_normal((m, k), F32), rng.standard_normal((k, n), F32)
    program = dot_general(a, b, 1, 0)
    expected = xla_opt.run(program, a, b, backend="interpreter")[0].astype(np.float64)
    got = xla_opt.run(program, a, b, backend="jit")[0].astype(np.float64)
    bound = k * np.finfo(F32).eps * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    assert np.all(np.abs(got - expected) <= bound)


def test_constant_operand_and_fused_consumer():
    """A constant rhs (a global: its pointer is cast for the call), the product then
    used by an elementwise op."""
    rng = np.random.default_rng(3)
    w = small_ints(rng, (40, 33))
    x = small_ints(rng, (34, 40))
    values = ", ".join(f"{v:.1f}" for v in w.ravel())
    program = f"""
func.func @main(%x: {t(x.shape)}) -> {t((34, 33))} {{
  %w = xla.constant dense<[{values}]> : tensor<{40 * 33}xf32>
  %w2 = xla.reshape %w : (tensor<{40 * 33}xf32>) -> {t(w.shape)}
  %p = xla.dot %x, %w2 : ({t(x.shape)}, {t(w.shape)}) -> {t((34, 33))}
  %r = xla.add %p, %p : {t((34, 33))}
  func.return %r : {t((34, 33))}
}}"""
    assert SYMBOL in llvm_ir_of(program)
    got = xla_opt.run(program, x, backend="jit")[0]
    np.testing.assert_array_equal(got, xla_opt.run(program, x, backend="interpreter")[0])
    np.testing.assert_array_equal(got, 2 * (x.astype(np.float64) @ w.astype(np.float64)))


def test_dot_in_while_body():
    """The kernel called in a loop, its output buffer reused across iterations."""
    rng = np.random.default_rng(5)
    x = small_ints(rng, (36, 36))
    w = (np.eye(36) * 2 + np.eye(36, k=1)).astype(F32)
    ty = t(x.shape)
    program = f"""
func.func @main(%x: {ty}, %w: {ty}) -> {ty} {{
  %n = xla.constant dense<3> : tensor<i32>
  %r:3 = xla.while %n, %x, %w cond {{
  ^bb0(%i: tensor<i32>, %v: {ty}, %u: {ty}):
    %zero = xla.constant dense<0> : tensor<i32>
    %c = xla.compare %i, %zero, comparison_direction = GT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }} body {{
  ^bb0(%i: tensor<i32>, %v: {ty}, %u: {ty}):
    %one = xla.constant dense<1> : tensor<i32>
    %j = xla.subtract %i, %one : tensor<i32>
    %p = xla.dot %v, %u : ({ty}, {ty}) -> {ty}
    xla.return %j, %p, %u : tensor<i32>, {ty}, {ty}
  }} : (tensor<i32>, {ty}, {ty}) -> (tensor<i32>, {ty}, {ty})
  func.return %r#1 : {ty}
}}"""
    assert SYMBOL in llvm_ir_of(program)
    got = xla_opt.run(program, x, w, backend="jit")[0]
    np.testing.assert_array_equal(got, xla_opt.run(program, x, w, backend="interpreter")[0])
    w64 = w.astype(np.float64)
    np.testing.assert_array_equal(got, x.astype(np.float64) @ w64 @ w64 @ w64)


@pytest.mark.parametrize(
    "m,k,n,dtype",
    [
        (MIN_ROWS - 1, 64, 64, F32),
        (64, MIN_DEPTH - 1, 64, F32),
        (512, 2, 512, F32),  # one multiply-add per output: the loops are faster
        (64, 64, MIN_COLUMNS - 1, F32),
        (64, 64, MIN_COLUMNS - 1, F64_),
        (40, 40, 40, np.int64),
        (40, 40, 40, np.int16),
    ],
)
def test_not_taken(m, k, n, dtype):
    """A matrix-vector-like product (below MIN_ROWS, MIN_DEPTH or MIN_COLUMNS), or
    integers other than i32: today's loops, same results."""
    rng = np.random.default_rng(1)
    a, b = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype)
    op = f"xla.dot %a0, %a1 : ({t(a.shape, dtype)}, {t(b.shape, dtype)}) -> {t((m, n), dtype)}"
    assert not calls_a_gemm(one_op_program(op, [a, b], [t((m, n), dtype)]))
    exact(op, [a, b], [t((m, n), dtype)])


def test_kernel_shape_follows_cpu_features():
    assert shape_for("+sse2,+avx,+avx2,+fma") == AVX2_FMA
    avx512 = "+sse2,+avx,+avx2,+fma,+avx512f,+avx512vl"
    assert shape_for(avx512) == AVX512_FMA and AVX512_FMA.wide and not AVX2_FMA.wide
    # a 48 KB L1 keeps a B panel of depth 256 (32 KB), a 32 KB one does not
    assert shape_for(avx512, l1_data_bytes=48 << 10) == AVX512_FMA_L1_48K
    assert shape_for(avx512, l1_data_bytes=32 << 10) == AVX512_FMA
    assert AVX512_FMA_L1_48K.kc * AVX512_FMA_L1_48K.nr * 4 <= 32 << 10 < AVX512_FMA.kc * AVX512_FMA.nr * 4
    assert shape_for(avx512, wide=False) == AVX2_FMA  # the convolution's and SGEMM_NARROW's
    assert shape_for(avx512, F64) == AVX2_FMA_F64 and shape_for(avx512, I32) == AVX2_I32
    assert shape_for("+sse2,+avx,-avx2,+fma") == SSE
    assert shape_for("+avx2,-fma") == SSE
    assert shape_for("+sse2,+avx,+avx2,+fma", F64) == AVX2_FMA_F64
    assert shape_for("+avx2,-fma", F64) == SSE_F64
    assert shape_for("+sse2,+avx,+avx2,+fma", I32) == AVX2_I32
    assert shape_for("+avx2,-fma", I32) == SSE_I32


GEMM_ARGS = [ctypes.c_int64] * 4 + [ctypes.c_void_p, *[ctypes.c_int64] * 3] * 2 + [ctypes.c_void_p, *[ctypes.c_int64] * 3]
GEMM_ARGS.append(ctypes.c_void_p)  # ..., C, ldc_batch, ldc, flags, bias


@pytest.mark.parametrize(
    "shape,dtype", [(SSE, F32), (SSE_F64, F64_), (SSE_I32, np.int32)], ids=["f32", "f64", "i32"]
)
def test_sse_variant_computes_the_product(shape, dtype):
    """The 4 x 8 `<4 x float>`, 4 x 4 `<2 x double>` and 4 x 8 `<4 x i32>` variants,
    compiled and called directly (C += A @ B)."""
    from xla_opt.runtime.llvm import compile_llvm_ir

    symbol = {F32: SYMBOL, F64_: DGEMM.symbol, np.int32: IGEMM.symbol}[dtype]
    native = compile_llvm_ir(gemm_ir(shape).replace(f"@{symbol}(", "@xla_opt_gemm_sse_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_sse_test"))
    rng = np.random.default_rng(9)
    m, k, n = 37, 300, 29
    a, b = small_ints(rng, (k, m), dtype), small_ints(rng, (k, n), dtype)  # a transposed
    c = np.ones((m, n), dtype)
    gemm(1, m, n, k, a.ctypes.data, 0, 1, m, b.ctypes.data, 0, n, 1, c.ctypes.data, 0, n, 0, None)
    np.testing.assert_array_equal(c, 1 + a.T.astype(np.float64) @ b.astype(np.float64))


# (M, K, N): N not a multiple of 2 x NR = 32 (uneven column ranges, the last one
# partial), a square one, and one below PARALLEL_MIN_WORK (stays single-thread).
THREAD_SHAPES = [(97, 513, 129), (256, 256, 256), (64, 40, 33)]


@pytest.fixture
def gemm_threads():
    """Sets the GEMM's thread count (read at each call), restoring the default after."""
    from xla_opt.runtime import threads
    from xla_opt.runtime.cpu import num_threads

    yield threads.set_num_threads
    threads.set_num_threads(num_threads())


def same_on_one_and_two_threads(program: str, inputs, set_threads) -> np.ndarray:
    """The JIT's result on two threads, asserted equal bit for bit to one thread's."""
    results = []
    for threads in (1, 2):
        set_threads(threads)
        results.append(xla_opt.run(program, *inputs, backend="jit")[0])
    np.testing.assert_array_equal(results[1], results[0])
    return results[1]


@pytest.mark.parametrize("m,k,n", THREAD_SHAPES, ids=lambda x: str(x))
def test_two_threads_equal_one(m, k, n, gemm_threads):
    """Split by columns of C, each thread computes its columns exactly as one thread
    would (same blocking along K): the results are equal bit for bit, and the oracle's."""
    rng = np.random.default_rng(m + k * n)
    a, b = small_ints(rng, (m, k)), small_ints(rng, (k, n))
    program = dot_general(a, b, 1, 0)
    assert SYMBOL in llvm_ir_of(program)
    two = same_on_one_and_two_threads(program, [a, b], gemm_threads)
    np.testing.assert_array_equal(two, xla_opt.run(program, a, b, backend="interpreter")[0])


@pytest.mark.parametrize("shape,dtype", [(AVX2_FMA, F32), (AVX2_FMA_F64, F64_)], ids=["f32", "f64"])
def test_parallel_variant_splits_the_columns(shape, dtype):
    """The multi-thread module, called directly with strided operands: C += A @ B on 2
    threads (and on 3, more than there are NR-column ranges of a narrow N)."""
    from xla_opt.lowering.kernels.libraries import GEMM_F32
    from xla_opt.runtime.binding import load_library
    from xla_opt.runtime.cpu import num_threads

    from xla_opt.runtime import threads
    from xla_opt.runtime.llvm import compile_llvm_ir

    load_library(GEMM_F32)  # loads libgomp when it is there
    if not threads.load():
        pytest.skip("no libgomp: the kernel runs on one thread")
    symbol = SYMBOL if dtype == F32 else DGEMM.symbol
    native = compile_llvm_ir(gemm_ir(shape, parallel=True).replace(f"@{symbol}(", "@xla_opt_gemm_par_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_par_test"))
    set_threads = threads.set_num_threads
    rng = np.random.default_rng(11)
    try:
        for count, (m, k, n) in [(2, (130, 200, 97)), (3, (300, 400, 20))]:
            set_threads(count)
            a, b = small_ints(rng, (m, k), dtype), small_ints(rng, (n, k), dtype)  # b transposed
            c = np.ones((m, n), dtype)
            gemm(1, m, n, k, a.ctypes.data, 0, k, 1, b.ctypes.data, 0, 1, k, c.ctypes.data, 0, n, 0, None)
            np.testing.assert_array_equal(c, 1 + a.astype(np.float64) @ b.T.astype(np.float64))
    finally:
        set_threads(num_threads())


@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
def test_parallel_variant_shares_packed_b(dtype):
    """Taller than MC, the threads share each packed B block and split the rows: three
    depth slices per column block (an odd count, so the alternating halves of the
    shared buffer change parity from one column block to the next), two column blocks
    (N > NC), on 2 and 3 threads; the result is one thread's bit for bit and the exact
    product."""
    from xla_opt.lowering.kernels.libraries import GEMM_F32
    from xla_opt.runtime.binding import load_library
    from xla_opt.runtime.cpu import num_threads

    from xla_opt.runtime import threads
    from xla_opt.runtime.llvm import compile_llvm_ir

    load_library(GEMM_F32)
    if not threads.load():
        pytest.skip("no libgomp: the kernel runs on one thread")
    shape = AVX2_FMA if dtype == F32 else AVX2_FMA_F64
    symbol = SYMBOL if dtype == F32 else DGEMM.symbol
    native = compile_llvm_ir(gemm_ir(shape, parallel=True).replace(f"@{symbol}(", "@xla_opt_gemm_shared_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_shared_test"))
    m, k, n = 2 * shape.mc + 7, 2 * shape.kc + 41, shape.nc + 3 * shape.nr + 5
    rng = np.random.default_rng(12)
    a, b = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype)
    expected = 1 + a.astype(np.float64) @ b.astype(np.float64)
    results = []
    try:
        for count in (1, 2, 3):
            threads.set_num_threads(count)
            c = np.ones((m, n), dtype)
            gemm(1, m, n, k, a.ctypes.data, 0, k, 1, b.ctypes.data, 0, n, 1, c.ctypes.data, 0, n, 0, None)
            results.append(c)
    finally:
        threads.set_num_threads(num_threads())
    np.testing.assert_array_equal(results[0], expected)
    for c in results[1:]:
        np.testing.assert_array_equal(c, results[0])


@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
@pytest.mark.parametrize("m,k,n", [(37, 300, 29), (130, 2 * AVX2_FMA.kc + 41, 97)], ids=lambda x: str(x))
def test_flags_overwrite_bias_relu(dtype, m, k, n):
    """The flags, called directly: OVERWRITE never reads C (NaN there does not leak in);
    BIAS and RELU give max(A @ B + bias[j], 0) on the final sums only (several depth
    slices: a ReLU after the first slice would lose the negative partial sums), on the
    full and the edge tiles, single-thread (short and tall) and on 2 threads."""
    from xla_opt.lowering.kernels.libraries import GEMM_F32
    from xla_opt.runtime.binding import load_library
    from xla_opt.runtime.cpu import num_threads
    from xla_opt.lowering.kernels.gemm import BIAS, OVERWRITE, RELU

    from xla_opt.runtime import threads
    from xla_opt.runtime.llvm import compile_llvm_ir

    load_library(GEMM_F32)
    parallel = threads.load()
    shape = AVX2_FMA if dtype == F32 else AVX2_FMA_F64
    symbol = SYMBOL if dtype == F32 else DGEMM.symbol
    native = compile_llvm_ir(gemm_ir(shape, parallel).replace(f"@{symbol}(", "@xla_opt_gemm_flags_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_flags_test"))
    rng = np.random.default_rng(14)
    a, b = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype)
    bias = small_ints(rng, (n,), dtype)
    product = a.astype(np.float64) @ b.astype(np.float64)
    expected = {
        OVERWRITE: product,
        OVERWRITE | BIAS: product + bias,
        OVERWRITE | BIAS | RELU: np.maximum(product + bias, 0),
        RELU: np.maximum(1 + product, 0),  # adds to C = 1 first
    }
    try:
        for count in (1, 2) if parallel else (1,):
            threads.set_num_threads(count)
            for flags, want in expected.items():
                c = np.full((m, n), np.nan if flags & OVERWRITE else 1, dtype)
                operands = (a.ctypes.data, 0, k, 1, b.ctypes.data, 0, n, 1, c.ctypes.data, 0, n)
                gemm(1, m, n, k, *operands, flags, bias.ctypes.data)
                np.testing.assert_array_equal(c, want, err_msg=f"flags {flags}, {count} threads")
    finally:
        threads.set_num_threads(num_threads())


def test_relu_flag_keeps_nan_and_positive_zero():
    """RELU is XLA's maximum(x, 0): a NaN sum stays NaN, and a -0.0 one becomes +0.0."""
    from xla_opt.lowering.kernels.gemm import BIAS, OVERWRITE, RELU

    from xla_opt.runtime.llvm import compile_llvm_ir

    native = compile_llvm_ir(gemm_ir(AVX2_FMA).replace(f"@{SYMBOL}(", "@xla_opt_gemm_relu_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_relu_test"))
    m, k, n = 7, 40, 17  # an edge tile in both directions, beside a full one
    a, b = np.zeros((m, k), F32), np.zeros((k, n), F32)
    a[0, 0], b[0, 0] = np.nan, 1.0  # C[0, 0] NaN
    bias = np.full(n, -0.0, F32)
    bias[1] = -2.0  # max(-2, 0) is +0.0
    c = np.full((m, n), np.nan, F32)
    flags = OVERWRITE | BIAS | RELU
    gemm(1, m, n, k, a.ctypes.data, 0, k, 1, b.ctypes.data, 0, n, 1, c.ctypes.data, 0, n, flags, bias.ctypes.data)
    assert np.isnan(c[0, 0]) and np.isnan(c[0, 1:]).sum() == n - 1  # row 0: NaN * 0 = NaN
    assert not np.isnan(c[1:]).any() and not np.signbit(c[1:]).any()


def dense_layer(m: int, k: int, n: int, activation: str, dtype=F32) -> str:
    """`dot(x, w) + b`, then `maximum(., c)` for activation "relu" (c = +0.0) or
    "max1" (c = 1.0, not a ReLU), as bench.py's mlp spells it."""
    x, w, b, y = t((m, k), dtype), t((k, n), dtype), t((n,), dtype), t((m, n), dtype)
    scalar = t((), dtype)
    floor = {"relu": "0.0", "max1": "1.0"}.get(activation)
    lines = [
        f"func.func @main(%x: {x}, %w: {w}, %b: {b}) -> {y} {{",
        f"  %0 = xla.dot %x, %w : ({x}, {w}) -> {y}",
        f"  %1 = xla.add %0, %b, broadcast_dimensions = [1] : ({y}, {b}) -> {y}",
    ]
    result = "%1"
    if floor is not None:
        lines += [
            f"  %c = xla.constant dense<{floor}> : {scalar}",
            f"  %2 = xla.maximum %1, %c : ({y}, {scalar}) -> {y}",
        ]
        result = "%2"
    return "\n".join([*lines, f"  func.return {result} : {y}", "}"])


@pytest.mark.parametrize("activation", ["none", "relu", "max1"])
@pytest.mark.parametrize("m,k,n", [(70, 40, 100), (130, 2 * AVX2_FMA.kc + 41, 97)], ids=lambda x: str(x))
@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
def test_bias_relu_epilogue(m, k, n, activation, dtype, gemm_threads):
    """`relu(x @ w + b)` and `x @ w + b`: the bias add and the ReLU fuse into the GEMM
    call (BIAS, RELU: no loop is left in the function), a maximum with 1.0 does not;
    exact on 1 and 2 threads (NaN and -0.0 included: the interpreter's bits)."""
    rng = np.random.default_rng(m + k + n)
    x, w, b = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype), small_ints(rng, (n,), dtype)
    x[0, :] = 0.0  # a row of zero products: 0 + b, relu(-b) = +0.0 ...
    x[1, 0] = np.nan  # ... and a row of NaNs
    program = dense_layer(m, k, n, activation, dtype)
    ir = llvm_ir_of(program)
    symbol = SYMBOL if dtype == F32 else DGEMM.symbol
    assert symbol in ir
    # the unfused epilogue's loops: a loop nest, outlined as a kernel function
    assert ('define void @"main_kernel_' in ir) == (activation == "max1")
    expected = xla_opt.run(program, x, w, b, backend="interpreter")[0]
    for threads in (1, 2):
        gemm_threads(threads)
        got = xla_opt.run(program, x, w, b, backend="jit")[0]
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


def test_thread_count_from_environment(monkeypatch):
    from xla_opt.runtime.cpu import num_threads

    monkeypatch.setenv("XLA_OPT_NUM_THREADS", "3")
    assert num_threads() == 3
    monkeypatch.setenv("XLA_OPT_NUM_THREADS", "zero")  # not a positive integer: the CPUs
    assert num_threads() == len(os.sched_getaffinity(0))


# ---- f64: `xla_opt_dgemm`, the same generator on `<4 x double>` 6 x 8 tiles ----------

# (M, K, N): edges of the 6 x 8 tile and of KC = 256 / MC = 96 everywhere
F64_SHAPES = [(32, 32, 32), (33, 65, 47), (97, 257, 129), (200, 300, 100), (121, 33, 300), (64, 520, 40)]


@pytest.mark.parametrize("m,k,n", F64_SHAPES, ids=lambda x: str(x))
def test_f64_dot_exact(m, k, n):
    """Small integers: exact in any order, so the interpreter's and numpy's bit for bit."""
    rng = np.random.default_rng(m * k + n)
    a, b = small_ints(rng, (m, k), F64_), small_ints(rng, (k, n), F64_)
    program = dot_general(a, b, 1, 0)
    assert DGEMM.symbol in llvm_ir_of(program)
    [got] = exact(f"xla.dot %a0, %a1 : ({t(a.shape, F64_)}, {t(b.shape, F64_)}) -> {t((m, n), F64_)}", [a, b], [t((m, n), F64_)])
    np.testing.assert_array_equal(got, a @ b)


def f64_sum_bound(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rounding bound of any order of summing K products: K eps sum |a_ik b_kj|."""
    return a.shape[1] * np.finfo(F64_).eps * (np.abs(a) @ np.abs(b))


@pytest.mark.parametrize("m,k,n", [(70, 400, 90), (150, 64, 33)], ids=lambda x: str(x))
def test_f64_random_normal_within_sum_rounding(m, k, n):
    """Another summation order than numpy's and the interpreter's: only reassociation,
    so each element within K roundings of the products' magnitudes, and in fact far
    closer (1e-13 relative to that sum)."""
    rng = np.random.default_rng(m + n)
    a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    program = dot_general(a, b, 1, 0)
    got = xla_opt.run(program, a, b, backend="jit")[0]
    for expected in (a @ b, xla_opt.run(program, a, b, backend="interpreter")[0]):
        assert np.all(np.abs(got - expected) <= f64_sum_bound(a, b))
        assert np.all(np.abs(got - expected) <= 1e-13 * (np.abs(a) @ np.abs(b)))


@pytest.mark.parametrize("lhs_contracting,rhs_contracting", [(0, 0), (1, 1), (0, 1)])
def test_f64_transposed_operands(lhs_contracting, rhs_contracting):
    """Transposed f64 operands: strides in the packing, as for f32."""
    rng = np.random.default_rng(10 + lhs_contracting * 2 + rhs_contracting)
    m, k, n = 45, 70, 51
    lhs = rng.standard_normal((k, m) if lhs_contracting == 0 else (m, k))
    rhs = rng.standard_normal((k, n) if rhs_contracting == 0 else (n, k))
    program = dot_general(lhs, rhs, lhs_contracting, rhs_contracting)
    assert DGEMM.symbol in llvm_ir_of(program)
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    a = lhs.T if lhs_contracting == 0 else lhs
    b = rhs.T if rhs_contracting == 1 else rhs
    assert np.all(np.abs(got - a @ b) <= f64_sum_bound(a, b))


@pytest.mark.parametrize("m,k,n", THREAD_SHAPES, ids=lambda x: str(x))
def test_f64_two_threads_equal_one(m, k, n, gemm_threads):
    """The f64 kernel split over columns: bit for bit the single-thread result."""
    rng = np.random.default_rng(m + k * n)
    a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    program = dot_general(a, b, 1, 0)
    assert DGEMM.symbol in llvm_ir_of(program)
    two = same_on_one_and_two_threads(program, [a, b], gemm_threads)
    assert np.all(np.abs(two - a @ b) <= f64_sum_bound(a, b))


# ---- batched products: one kernel call, a batch stride per operand --------------------


def batched_dot(lhs, rhs, lhs_batch: int, rhs_batch: int, lhs_contracting: int, rhs_contracting: int):
    """dot_general with one batch dimension; the result is (batch, lhs free, rhs free)."""
    dtype = lhs.dtype
    lhs_free = next(d for d in range(3) if d not in (lhs_batch, lhs_contracting))
    rhs_free = next(d for d in range(3) if d not in (rhs_batch, rhs_contracting))
    shape = (lhs.shape[lhs_batch], lhs.shape[lhs_free], rhs.shape[rhs_free])
    program = one_op_program(
        f"xla.dot_general %a0, %a1, lhs_batching_dimensions = [{lhs_batch}], rhs_batching_dimensions = [{rhs_batch}], "
        f"lhs_contracting_dimensions = [{lhs_contracting}], rhs_contracting_dimensions = [{rhs_contracting}] "
        f": ({t(lhs.shape, dtype)}, {t(rhs.shape, dtype)}) -> {t(shape, dtype)}",
        [lhs, rhs],
        [t(shape, dtype)],
    )
    a = np.moveaxis(lhs, (lhs_batch, lhs_free, lhs_contracting), (0, 1, 2))
    b = np.moveaxis(rhs, (rhs_batch, rhs_contracting, rhs_free), (0, 1, 2))
    return program, a, b


# (lhs batch, lhs contracting, rhs batch, rhs contracting): batch leading, batch in the
# middle of the lhs with a transposed lhs, batch last in the rhs
BATCH_LAYOUTS = [(0, 2, 0, 1), (1, 0, 0, 2), (0, 2, 2, 0)]


@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
@pytest.mark.parametrize("layout", BATCH_LAYOUTS, ids=lambda x: str(x))
def test_batched_dot_exact(layout, dtype):
    """A batched dot_general calls the kernel once with batch strides; small integers,
    so the interpreter's result and numpy's bit for bit."""
    lhs_batch, lhs_contracting, rhs_batch, rhs_contracting = layout
    rng = np.random.default_rng(sum(layout))
    batch, m, k, n = 3, 37, 70, 45
    lhs_shape = [0, 0, 0]
    lhs_shape[lhs_batch], lhs_shape[lhs_contracting] = batch, k
    lhs_shape[3 - lhs_batch - lhs_contracting] = m
    rhs_shape = [0, 0, 0]
    rhs_shape[rhs_batch], rhs_shape[rhs_contracting] = batch, k
    rhs_shape[3 - rhs_batch - rhs_contracting] = n
    lhs, rhs = small_ints(rng, lhs_shape, dtype), small_ints(rng, rhs_shape, dtype)
    program, a, b = batched_dot(lhs, rhs, lhs_batch, rhs_batch, lhs_contracting, rhs_contracting)
    assert GEMMS_BY_DTYPE[dtype] in llvm_ir_of(program)
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    np.testing.assert_array_equal(got, xla_opt.run(program, lhs, rhs, backend="interpreter")[0])
    np.testing.assert_array_equal(got, a.astype(np.float64) @ b.astype(np.float64))


GEMMS_BY_DTYPE = {F32: SYMBOL, F64_: DGEMM.symbol}

# (lhs shape, rhs shape, lhs batch dims, rhs batch dims, einsum, whether the batch
# dimensions merge into the kernel's one batch): attention's (batch, heads) products,
# one run in every operand, merge into one batch of 6, and a batch of extent 1 drops
# out; batch dimensions apart in the lhs (flax's 'bqhd'), in another order in the rhs,
# or three of them, do not merge: the kernel's batch is the innermost, and the call runs
# in a loop over the others.
MULTI_BATCH = [
    ((2, 3, 40, 16), (2, 3, 40, 16), [0, 1], [0, 1], "bhqd,bhkd->bhqk", True),
    ((2, 3, 40, 16), (2, 3, 16, 24), [0, 1], [0, 1], "bhqd,bhdk->bhqk", True),
    ((1, 3, 40, 16), (1, 3, 40, 16), [0, 1], [0, 1], "bhqd,bhkd->bhqk", True),
    ((2, 40, 3, 16), (2, 40, 3, 16), [0, 2], [0, 2], "bqhd,bkhd->bhqk", False),
    ((2, 3, 40, 16), (3, 2, 40, 16), [0, 1], [1, 0], "bhqd,hbkd->bhqk", False),
    ((2, 40, 3, 2, 16), (2, 3, 2, 40, 16), [0, 2, 3], [0, 1, 2], "bqhgd,bhgkd->bhgqk", False),
]


@pytest.mark.parametrize("lhs_shape,rhs_shape,lhs_batch,rhs_batch,spec,merged", MULTI_BATCH, ids=lambda x: str(x))
@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
def test_several_batch_dimensions(lhs_shape, rhs_shape, lhs_batch, rhs_batch, spec, merged, dtype):
    """Every such product calls the kernel (once, or in a loop nest over the batch
    dimensions that do not merge); small integers: exact."""
    rng = np.random.default_rng(len(spec) + sum(lhs_shape))
    lhs, rhs = small_ints(rng, lhs_shape, dtype), small_ints(rng, rhs_shape, dtype)
    expected = np.einsum(spec, lhs.astype(np.float64), rhs.astype(np.float64))
    lhs_contracting = [len(lhs_shape) - 1]
    rhs_contracting = [spec.split(",")[1].index("d")]
    program = one_op_program(
        f"xla.dot_general %a0, %a1, lhs_batching_dimensions = {lhs_batch}, rhs_batching_dimensions = {rhs_batch}, "
        f"lhs_contracting_dimensions = {lhs_contracting}, rhs_contracting_dimensions = {rhs_contracting} "
        f": ({t(lhs.shape, dtype)}, {t(rhs.shape, dtype)}) -> {t(expected.shape, dtype)}",
        [lhs, rhs],
        [t(expected.shape, dtype)],
    )
    ir = llvm_ir_of(program)
    assert GEMMS_BY_DTYPE[dtype] in ir and ("br label" not in ir) == merged  # a loop only around the call
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, xla_opt.run(program, lhs, rhs, backend="interpreter")[0])


@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
def test_batched_dot_two_threads_equal_one(dtype, gemm_threads):
    """A batch big enough to go parallel (each thread takes its columns of every
    product): bit for bit the single-thread result, within the summation bound of
    numpy's."""
    rng = np.random.default_rng(4)
    lhs, rhs = rng.standard_normal((4, 96, 130)).astype(dtype), rng.standard_normal((4, 130, 100)).astype(dtype)
    program, a, b = batched_dot(lhs, rhs, 0, 0, 2, 1)
    assert GEMMS_BY_DTYPE[dtype] in llvm_ir_of(program)
    two = same_on_one_and_two_threads(program, [lhs, rhs], gemm_threads)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    bound = a.shape[2] * np.finfo(dtype).eps * (np.abs(a64) @ np.abs(b64))
    assert np.all(np.abs(two - a64 @ b64) <= bound)


# ---- f16/bf16: operands widened to f32 while packing, f32 accumulator, one rounding ---

HALF_TYPES = {"f16": (np.float16, HGEMM.symbol), "bf16": (BF16, BGEMM.symbol)}


def half_oracle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact product rounded once to the operands' type."""
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(a.dtype)


@pytest.mark.parametrize("name", HALF_TYPES)
@pytest.mark.parametrize("m,k,n", [(32, 32, 32), (33, 65, 47), (70, 40, 100)], ids=lambda x: str(x))
def test_half_dot_exact(name, m, k, n):
    """Small integers: f32 sums exact in any order, so the one rounding to f16/bf16 gives
    the interpreter's result bit for bit (and the exact product's, rounded once)."""
    dtype, symbol = HALF_TYPES[name]
    rng = np.random.default_rng(m + k + n)
    a, b = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype)
    program = dot_general(a, b, 1, 0)
    assert symbol in llvm_ir_of(program)
    got = xla_opt.run(program, a, b, backend="jit")[0]
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, xla_opt.run(program, a, b, backend="interpreter")[0])
    np.testing.assert_array_equal(got, half_oracle(a, b))


def assert_within_one_rounding(got: np.ndarray, expected: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Each element as the interpreter's (another f32 summation order, then one rounding
    to the narrow type): within the f16/bf16 tolerance of the differential tests (rtol
    2^-7, atol 1e-3), and at most one narrow rounding step away from the exact sum."""
    got64, expected64 = got.astype(np.float64), expected.astype(np.float64)
    np.testing.assert_allclose(got64, expected64, rtol=2**-7, atol=1e-3)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    ulp = np.abs(exact) * (2.0**-10 if got.dtype == np.float16 else 2.0**-7)  # one step at |exact|
    f32_error = a.shape[1] * np.finfo(np.float32).eps * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))
    assert np.all(np.abs(got64 - exact) <= ulp + f32_error)


@pytest.mark.parametrize("name", HALF_TYPES)
@pytest.mark.parametrize("lhs_contracting,rhs_contracting", [(1, 0), (0, 1)])
def test_half_random_normal(name, lhs_contracting, rhs_contracting):
    """Random normal operands (transposed ones too): within one rounding of the
    interpreter's results."""
    dtype, symbol = HALF_TYPES[name]
    rng = np.random.default_rng(20 + lhs_contracting)
    m, k, n = 60, 300, 70
    lhs = rng.standard_normal((k, m) if lhs_contracting == 0 else (m, k)).astype(dtype)
    rhs = rng.standard_normal((k, n) if rhs_contracting == 0 else (n, k)).astype(dtype)
    program = dot_general(lhs, rhs, lhs_contracting, rhs_contracting)
    assert symbol in llvm_ir_of(program)
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    expected = xla_opt.run(program, lhs, rhs, backend="interpreter")[0]
    a = lhs.T if lhs_contracting == 0 else lhs
    b = rhs.T if rhs_contracting == 1 else rhs
    assert_within_one_rounding(got, expected, a, b)


@pytest.mark.parametrize("name", HALF_TYPES)
def test_half_batched_two_threads_equal_one(name, gemm_threads):
    """A batched f16/bf16 dot on one and two threads: the same bits, the interpreter's
    within one rounding."""
    dtype, symbol = HALF_TYPES[name]
    rng = np.random.default_rng(6)
    lhs, rhs = rng.standard_normal((3, 96, 130)).astype(dtype), rng.standard_normal((3, 130, 100)).astype(dtype)
    program, a, b = batched_dot(lhs, rhs, 0, 0, 2, 1)
    assert symbol in llvm_ir_of(program)
    two = same_on_one_and_two_threads(program, [lhs, rhs], gemm_threads)
    expected = xla_opt.run(program, lhs, rhs, backend="interpreter")[0]
    for item in range(3):
        assert_within_one_rounding(two[item], expected[item], a[item], b[item])


@pytest.mark.parametrize("name", HALF_TYPES)
def test_half_sse_variant_widens_while_packing(name):
    """The f16/bf16 GEMM on the 4 x 8 `<4 x float>` shape, called directly: narrow A and
    B (B transposed), an f32 C it adds to."""
    from xla_opt.runtime.llvm import compile_llvm_ir

    dtype, symbol = HALF_TYPES[name]
    entry = HGEMM if name == "f16" else BGEMM
    native = compile_llvm_ir(library_ir([SSE], [entry]).replace(f"@{symbol}(", "@xla_opt_half_sse_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_half_sse_test"))
    rng = np.random.default_rng(13)
    m, k, n = 37, 300, 29
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((n, k)).astype(dtype)
    c = np.ones((m, n), F32)
    gemm(1, m, n, k, a.ctypes.data, 0, k, 1, b.ctypes.data, 0, 1, k, c.ctypes.data, 0, n, 0, None)
    exact = a.astype(np.float64) @ b.T.astype(np.float64)
    bound = k * np.finfo(F32).eps * (np.abs(a.astype(np.float64)) @ np.abs(b.T.astype(np.float64)))
    assert np.all(np.abs(c.astype(np.float64) - 1 - exact) <= bound + np.finfo(F32).eps * np.abs(1 + exact))


# ---- i32: products and sums wrap around (XLA's integer dot), exact in any order ----


def wrapped_i32_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b modulo 2^32 as int32 (int64 products and sums wrap modulo 2^64, which 2^32
    divides)."""
    return (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)


@pytest.mark.parametrize("m,k,n", [(MIN_ROWS, MIN_DEPTH, MIN_COLUMNS), (100, 600, 70), (33, 65, 47)], ids=str)
@pytest.mark.parametrize("transposed", [False, True], ids=["plain", "lhs-transposed"])
def test_i32_dot_wraps_like_xla(m, k, n, transposed, gemm_threads):
    """Full-range i32 operands (products overflow): the kernel's result is numpy's
    wrapped product and the interpreter's, bit for bit, on one and two threads."""
    rng = np.random.default_rng(m + k + n)
    lhs = rng.integers(-(2**31), 2**31, (k, m) if transposed else (m, k), dtype=np.int64).astype(np.int32)
    rhs = rng.integers(-(2**31), 2**31, (k, n), dtype=np.int64).astype(np.int32)
    program = dot_general(lhs, rhs, 0 if transposed else 1, 0)
    assert IGEMM.symbol in llvm_ir_of(program)
    got = same_on_one_and_two_threads(program, [lhs, rhs], gemm_threads)
    np.testing.assert_array_equal(got, wrapped_i32_product(lhs.T if transposed else lhs, rhs))
    np.testing.assert_array_equal(got, xla_opt.run(program, lhs, rhs, backend="interpreter")[0])


def test_i32_batched_dot():
    rng = np.random.default_rng(3)
    lhs = rng.integers(-50, 50, (3, 37, 70)).astype(np.int32)
    rhs = rng.integers(-50, 50, (3, 70, 45)).astype(np.int32)
    program, a, b = batched_dot(lhs, rhs, 0, 0, 2, 1)
    assert IGEMM.symbol in llvm_ir_of(program)
    np.testing.assert_array_equal(xla_opt.run(program, lhs, rhs, backend="jit")[0], a @ b)


@pytest.mark.parametrize("name", ["f16", "bf16"])
def test_half_dot_with_outer_batch_loop(name):
    """f16/bf16 operands (widened while packing) with a batch loop around the call: the
    offsets step over 2-byte elements."""
    dtype, symbol = HALF_TYPES[name]
    rng = np.random.default_rng(11)
    lhs, rhs = small_ints(rng, (2, 40, 3, 16), dtype), small_ints(rng, (2, 40, 3, 16), dtype)
    out = (2, 3, 40, 40)
    program = one_op_program(
        "xla.dot_general %a0, %a1, lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], "
        "lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3] "
        f": ({t(lhs.shape, dtype)}, {t(rhs.shape, dtype)}) -> {t(out, dtype)}",
        [lhs, rhs],
        [t(out, dtype)],
    )
    assert symbol in llvm_ir_of(program)
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    expected = np.einsum("bqhd,bkhd->bhqk", lhs.astype(np.float64), rhs.astype(np.float64))
    np.testing.assert_array_equal(got.astype(np.float64), expected)  # |sums| <= 144: exact in both


@pytest.mark.parametrize(
    "m,k,n,narrow", [(37, 300, 29, True), (100, 100, 100, True), (64, 80, 160, False), (40, 64, 200, True)]
)
def test_few_columns_call_the_narrow_gemm(m, k, n, narrow):
    """An f32 product of few columns (or of a count that 16-wide panels fill better than
    32-wide ones) calls xla_opt_sgemm_narrow, on the 256-bit tile even where AVX-512 is;
    the others the widest tile; both give the exact product of small integers."""
    from xla_opt.lowering.kernels.gemm import SGEMM_NARROW, narrow_product

    assert narrow_product(n) == narrow
    rng = np.random.default_rng(m * n + k)
    a, b = small_ints(rng, (m, k)), small_ints(rng, (k, n))
    program = dot_general(a, b, 1, 0)
    assert bool(re.search(rf"@\"?{SGEMM_NARROW.symbol}\"?\(", llvm_ir_of(program))) == narrow
    np.testing.assert_array_equal(xla_opt.run(program, a, b, backend="jit")[0], a @ b)


def attention_scores_program(seq: int, d: int, heads: int) -> str:
    """Attention's scores as JAX writes them: the qkv projection, q and k sliced out of
    it, split into heads (a reshape), heads first (a transpose), then one batched
    product over the heads."""
    hd = d // heads
    qkv = t((seq, 3 * d))
    split = t((seq, heads, hd))
    return f"""
func.func @main(%x: {t((seq, d))}, %w: {t((d, 3 * d))}) -> {t((heads, seq, seq))} {{
  %qkv = xla.dot %x, %w : ({t((seq, d))}, {t((d, 3 * d))}) -> {qkv}
  %q = xla.slice %qkv, start_indices = [0, 0], limit_indices = [{seq}, {d}], strides = [1, 1] : ({qkv}) -> {t((seq, d))}
  %k = xla.slice %qkv, start_indices = [0, {d}], limit_indices = [{seq}, {2 * d}], strides = [1, 1] : ({qkv}) -> {t((seq, d))}
  %qs = xla.reshape %q : ({t((seq, d))}) -> {split}
  %ks = xla.reshape %k : ({t((seq, d))}) -> {split}
  %qh = xla.transpose %qs, permutation = [1, 0, 2] : ({split}) -> {t((heads, seq, hd))}
  %kh = xla.transpose %ks, permutation = [1, 0, 2] : ({split}) -> {t((heads, seq, hd))}
  %s = xla.dot_general %qh, %kh, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2] : ({t((heads, seq, hd))}, {t((heads, seq, hd))}) -> {t((heads, seq, seq))}
  func.return %s : {t((heads, seq, seq))}
}}
"""


def test_products_read_slices_of_reshapes_by_strides():
    """The heads' product reads q and k straight out of the qkv product's buffer (the
    slice, the split and the transpose are strides and an offset of the kernel's
    operands): no copy loop is left, the values are numpy's (small integers: exact)."""
    seq, d, heads = 48, 64, 2
    rng = np.random.default_rng(7)
    x, w = small_ints(rng, (seq, d)), small_ints(rng, (d, 3 * d))
    program = attention_scores_program(seq, d, heads)
    compiled = xla_opt.compile(program, backend="jit")
    (got,) = compiled(x, w)
    qkv = x @ w
    q = qkv[:, :d].reshape(seq, heads, d // heads).transpose(1, 0, 2)
    k = qkv[:, d : 2 * d].reshape(seq, heads, d // heads).transpose(1, 0, 2)
    np.testing.assert_array_equal(got, q @ k.transpose(0, 2, 1))
    ir = compiled.jit.llvm_ir
    assert len(re.findall(r'call ccc void @"xla_opt_sgemm', ir)) == 2
    # k's offset in the qkv buffer (d elements) passed to the heads' product, and no
    # copy loop for q or k (q's slice from column 0 is a copy by loads, read through)
    assert re.search(rf"getelementptr inbounds float, ptr %\"[\w.]+\", i64 {d}\n", ir)
    assert not re.search(r'call ccc void @"main_kernel_', ir)


def attention_output_program(seq: int, heads: int, hd: int, d_out: int) -> str:
    """Attention's output as JAX writes it: the heads' product (probabilities by
    values), heads put back side by side (a transpose and a merging reshape), then the
    output projection."""
    d = heads * hd
    return f"""
func.func @main(%p: {t((heads, seq, seq))}, %v: {t((heads, seq, hd))}, %wo: {t((d, d_out))}) -> {t((seq, d_out))} {{
  %o = xla.dot_general %p, %v, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : ({t((heads, seq, seq))}, {t((heads, seq, hd))}) -> {t((heads, seq, hd))}
  %t = xla.transpose %o, permutation = [1, 0, 2] : ({t((heads, seq, hd))}) -> {t((seq, heads, hd))}
  %m = xla.reshape %t : ({t((seq, heads, hd))}) -> {t((seq, d))}
  %r = xla.dot %m, %wo : ({t((seq, d))}, {t((d, d_out))}) -> {t((seq, d_out))}
  func.return %r : {t((seq, d_out))}
}}
"""


def test_product_writes_through_the_copy_of_its_result():
    """The heads' product writes its result straight into the side-by-side layout the
    output projection reads (C's strides in that buffer: heads hd, rows heads * hd,
    columns 1): no copy loop is left; the values are numpy's (exact)."""
    seq, heads, hd, d_out = 40, 3, 32, 48
    rng = np.random.default_rng(11)
    p, v = small_ints(rng, (heads, seq, seq)), small_ints(rng, (heads, seq, hd))
    wo = small_ints(rng, (heads * hd, d_out))
    compiled = xla_opt.compile(attention_output_program(seq, heads, hd, d_out), backend="jit")
    (got,) = compiled(p, v, wo)
    merged = (p @ v).transpose(1, 0, 2).reshape(seq, heads * hd)
    np.testing.assert_array_equal(got, merged @ wo)
    ir = compiled.jit.llvm_ir
    assert not re.search(r'call ccc void @"main_kernel_', ir)
    heads_product = next(line for line in ir.splitlines() if f"(i64 {heads}, i64 {seq}, i64 {hd}, i64 {seq}," in line)
    assert f"i64 {hd}, i64 {heads * hd}, i64 1, ptr null)" in heads_product  # C's batch and row strides


# --------------------------------------------------------------------------------------
# Products as JAX writes them (issue 32): dot_generals whose free or contracting
# dimensions merge into the kernel's rows, columns and depth, exported by JAX
# --------------------------------------------------------------------------------------


def jax_program(f, *args) -> str:
    """`f` as JAX exports it (StableHLO text), for `args`' shapes and types."""
    jax = pytest.importorskip("jax")
    return jax.jit(f).lower(*args).as_text()


def gemm_calls(ir: str) -> list[tuple[str, tuple[int, ...]]]:
    """Each GEMM call in LLVM IR: its symbol and (batch, M, N, K, flags)."""
    calls = []
    for symbol, args in re.findall(r'call ccc void @"?(xla_opt_[a-z]gemm\w*?)"?\((.*)\)', ir):
        values = [v.strip() for v in args.split(",")]
        numbers = [int(v.split()[1]) for v in values[:4]] + [int(values[15].split()[1])]
        calls.append((symbol, tuple(numbers)))
    return calls


def lax_dot(lhs_contracting, rhs_contracting, lhs_batch=(), rhs_batch=()):
    def f(a, b):
        from jax import lax

        return lax.dot_general(a, b, ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)))

    return f


def einsum(spec):
    def f(a, b):
        import jax.numpy as jnp

        return jnp.einsum(spec, a, b)

    return f


# (name, function, lhs shape, rhs shape, the one call's (batch, M, N, K)): the
# projections of a transformer block (a 3-D or 4-D x by a matrix: the (batch,
# sequence) rows merge into M), the weight on the left (the columns merge), contracting
# dimensions that are not last (a transposed x: its free dimensions do not merge, they
# are the kernel's batch, the weight's stride 0), a weight whose two free dimensions do
# not merge (the kernel's batch over the outer one), MoE's dispatch and combine einsums
# (rows merged; two contracting dimensions merged into one depth), attention's q k^T
# and p v (batch dimensions [0, 1] merged), dimensions of size 1 (they drop out)
JAX_FORMS = [
    ("x @ w", lambda x, w: x @ w, (2, 24, 40), (40, 48), (1, 48, 48, 40)),
    ("4-D x @ w", lambda x, w: x @ w, (2, 3, 8, 40), (40, 24), (1, 48, 24, 40)),
    ("w^T x", lax_dot((0,), (2,)), (40, 48), (2, 24, 40), (1, 48, 48, 40)),
    ("contracting not last", lax_dot((1,), (0,)), (2, 40, 24), (40, 48), (2, 24, 48, 40)),
    ("columns apart", lax_dot((2,), (1,)), (2, 24, 40), (16, 40, 12), (16, 48, 12, 40)),
    ("tec,td->ecd", einsum("tec,td->ecd"), (40, 4, 10), (40, 24), (1, 40, 24, 40)),
    ("tec,ecd->td", lax_dot((2, 1), (1, 0)), (24, 4, 10), (4, 10, 32), (1, 24, 32, 40)),
    ("q k^T", lax_dot((3,), (3,), (0, 1), (0, 1)), (2, 3, 24, 16), (2, 3, 20, 16), (6, 24, 20, 16)),
    ("p v", lax_dot((3,), (2,), (0, 1), (0, 1)), (2, 3, 24, 20), (2, 3, 20, 16), (6, 24, 16, 20)),
    ("size-1 batch", lambda x, w: x @ w, (1, 24, 40), (40, 48), (1, 24, 48, 40)),
    ("size-1 rows", lambda x, w: x @ w, (2, 1, 24, 40), (40, 48), (1, 48, 48, 40)),
    ("size-1 contracting", lax_dot((2, 3), (0, 1)), (2, 24, 40, 1), (40, 1, 48), (1, 48, 48, 40)),
]


@pytest.mark.parametrize("name,f,lhs_shape,rhs_shape,expected", JAX_FORMS, ids=[form[0] for form in JAX_FORMS])
@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
def test_jax_dot_forms_are_one_gemm(name, f, lhs_shape, rhs_shape, expected, dtype):
    """Each dot_general JAX writes for these products is one call of the GEMM, its
    (batch, M, N, K) the merged dimensions'; small integers: numpy's and the
    interpreter's values exactly (f64: JAX's f32 export with f64 types)."""
    rng = np.random.default_rng(sum(lhs_shape) + sum(rhs_shape))
    lhs, rhs = small_ints(rng, lhs_shape), small_ints(rng, rhs_shape)
    program = jax_program(f, lhs, rhs)
    if dtype is F64_:
        program = program.replace("f32", "f64")
        lhs, rhs = lhs.astype(F64_), rhs.astype(F64_)
    compiled = xla_opt.compile(program, backend="jit")
    calls = gemm_calls(compiled.jit.llvm_ir)
    assert [numbers[:4] for _, numbers in calls] == [expected]
    assert calls[0][0].startswith(GEMMS_BY_DTYPE[dtype])
    (got,) = compiled(lhs, rhs)
    np.testing.assert_array_equal(got, np.asarray(f(lhs.astype(F64_), rhs.astype(F64_))))
    np.testing.assert_array_equal(got, xla_opt.run(program, lhs, rhs, backend="interpreter")[0])


# Products that stay loops, still right: two contracting dimensions that do not merge
# (apart in the lhs), an empty batch, an empty contraction (zeros)
OFF_KERNEL = [
    ("depth apart", lax_dot((0, 2), (1, 0)), (4, 24, 16), (16, 4, 40)),
    ("empty rows", lambda x, w: x @ w, (0, 24, 40), (40, 48)),
    ("empty depth", lambda x, w: x @ w, (2, 24, 0), (0, 48)),
]


@pytest.mark.parametrize("name,f,lhs_shape,rhs_shape", OFF_KERNEL, ids=[form[0] for form in OFF_KERNEL])
def test_jax_dot_forms_off_the_kernel(name, f, lhs_shape, rhs_shape):
    rng = np.random.default_rng(3)
    lhs, rhs = small_ints(rng, lhs_shape), small_ints(rng, rhs_shape)
    program = jax_program(f, lhs, rhs)
    compiled = xla_opt.compile(program, backend="jit")
    assert gemm_calls(compiled.jit.llvm_ir) == []
    (got,) = compiled(lhs, rhs)
    expected = np.asarray(f(lhs.astype(F64_), rhs.astype(F64_)))
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_jax_projection_with_bias_and_relu_is_the_epilogue():
    """relu(x @ w + b) of a 3-D x, as JAX writes it: one GEMM call with the BIAS and
    RELU epilogue over the merged rows; the values are JAX's."""
    from xla_opt.lowering.kernels.gemm import BIAS, OVERWRITE, RELU

    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(5)
    x, w, b = (rng.standard_normal(s).astype(F32) for s in [(2, 24, 40), (40, 48), (48,)])

    def f(x, w, b):
        return jax.nn.relu(x @ w + b)

    compiled = xla_opt.compile(jax_program(f, x, w, b), backend="jit")
    calls = gemm_calls(compiled.jit.llvm_ir)
    assert calls == [(calls[0][0], (1, 48, 48, 40, OVERWRITE | BIAS | RELU))]
    assert not re.search(r'call ccc void @"main_kernel_', compiled.jit.llvm_ir)
    np.testing.assert_allclose(compiled(x, w, b)[0], np.asarray(jax.jit(f)(x, w, b)), rtol=1e-5, atol=1e-5)


def test_transformer_block_products_all_on_the_gemm():
    """A pre-norm transformer block as JAX writes it (benchmarks/models.py's, small):
    its six dot_generals (the qkv, output and two MLP projections of a 3-D x, the
    heads' q k^T and p v) are six GEMM calls; the result is JAX's."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    b, seq, d, heads, ff = 2, 16, 32, 2, 64
    hd = d // heads

    def layer_norm(x, g, bias):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5) * g + bias

    def block(x, wqkv, wo, w1, w2, g, bias):
        q, k, v = jnp.split(layer_norm(x, g, bias) @ wqkv, 3, axis=-1)
        q, k, v = (t.reshape(b, seq, heads, hd).transpose(0, 2, 1, 3) for t in (q, k, v))
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(hd))
        att = jax.nn.softmax(jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), scores, -1e9), axis=-1)
        x = x + (att @ v).transpose(0, 2, 1, 3).reshape(b, seq, d) @ wo
        return x + jax.nn.gelu(layer_norm(x, g, bias) @ w1) @ w2

    rng = np.random.default_rng(9)
    shapes = [(b, seq, d), (d, 3 * d), (d, d), (d, ff), (ff, d), (d,), (d,)]
    args = [(rng.standard_normal(s) / np.sqrt(s[0] if len(s) == 2 else 1)).astype(F32) for s in shapes]
    compiled = xla_opt.compile(jax_program(block, *args), backend="jit")
    assert len(gemm_calls(compiled.jit.llvm_ir)) == 6
    np.testing.assert_allclose(compiled(*args)[0], np.asarray(jax.jit(block)(*args)), rtol=1e-4, atol=1e-4)


def test_a_transposed_weight_gradient_is_one_product_in_the_transposed_layout():
    """JAX's gradient of `x @ W` accumulated over a scan's steps, `acc +
    transpose(dot_general(dy, x))`, is the product of the swapped operands
    (xla-fold-dot-transpose): one GEMM writing the 128x512 result, which the add reads
    row by row (it gathered a transposed 512x128 product: a third of an LSTM training
    step's time)."""
    program = """
func.func @main(%acc: tensor<128x512xf32>, %dy: tensor<16x512xf32>, %x: tensor<16x128xf32>) -> tensor<128x512xf32> {
  %d = xla.dot_general %dy, %x, lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0] : (tensor<16x512xf32>, tensor<16x128xf32>) -> tensor<512x128xf32>
  %t = xla.transpose %d, permutation = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
  %s = xla.add %acc, %t : tensor<128x512xf32>
  func.return %s : tensor<128x512xf32>
}"""
    assert "xla.transpose" not in str(xla_opt.optimize(program, "xla-fold-dot-transpose"))
    r = np.random.default_rng(0)
    acc, dy, x = (r.standard_normal(s).astype(np.float32) for s in ((128, 512), (16, 512), (16, 128)))
    compiled = xla_opt.compile(program, backend="jit")
    assert [(symbol, shape[1:3]) for symbol, shape in gemm_calls(compiled.jit.llvm_ir)] == [("xla_opt_sgemm", (128, 512))]
    np.testing.assert_allclose(compiled(acc, dy, x)[0], acc + x.T @ dy, rtol=1e-5, atol=1e-5)


def test_a_loops_transposed_weight_is_transposed_once_before_the_loop():
    """`h @ W.T` on each step of a loop (an LSTM's backward pass): the GEMM's B is the
    weight read transposed, which it packed again on every step; `hoist-gemm-transposes`
    transposes W once before the loop, and the call reads the copy's contiguous rows
    (B's row stride N, column stride 1). Results as numpy's."""
    jax = pytest.importorskip("jax")

    def f(h, w):
        return jax.lax.fori_loop(0, 5, lambda i, h: jax.numpy.tanh(h @ w.T) @ w * 0.1, h)

    r = np.random.default_rng(3)
    h, w = r.standard_normal((16, 64)).astype(F32), r.standard_normal((128, 64)).astype(F32)
    compiled = xla_opt.compile(jax_program(f, h, w), backend="jit")
    ir = compiled.jit.llvm_ir
    strides = re.findall(r'call ccc void @"xla_opt_sgemm"\(i64 1, i64 16, i64 128, i64 64, (?:[^,]*, ){4}ptr [^,]*, i64 0, i64 (\d+), i64 (\d+)', ir)
    assert strides == [("128", "1")], strides
    expected = h.astype(np.float64)  # f32 rounding over 5 steps: ~1e-4 of values up to 6
    for _ in range(5):
        expected = np.tanh(expected @ w.T.astype(np.float64)) @ w * 0.1
    np.testing.assert_allclose(compiled(h, w)[0], expected, rtol=1e-4, atol=5e-4)


@pytest.mark.parametrize("dtype", [F32, F64_], ids=["f32", "f64"])
@pytest.mark.parametrize("rows", ["one", "a few", "the most"])
def test_a_short_product_reads_b_in_place(dtype, rows):
    """At most IN_PLACE_B_MAX_PANELS row panels against a B of contiguous rows: B's
    whole NR-column panels are read in place (an LSTM's 16-row steps packed their whole
    weight on every step), its last partial panel packed alone; several depth slices,
    OVERWRITE and BIAS, on 1 and 2 threads: the exact product every time, and the same
    against a B of strided rows (packed: no panel in place)."""
    from xla_opt.lowering.kernels.gemm import BIAS, IN_PLACE_B_MAX_PANELS, OVERWRITE
    from xla_opt.lowering.kernels.libraries import GEMM_F32

    from xla_opt.runtime import threads
    from xla_opt.runtime.binding import load_library
    from xla_opt.runtime.cpu import num_threads
    from xla_opt.runtime.llvm import compile_llvm_ir

    load_library(GEMM_F32)
    shape = AVX2_FMA if dtype == F32 else AVX2_FMA_F64
    m = {"one": 1, "a few": shape.mr + 1, "the most": IN_PLACE_B_MAX_PANELS * shape.mr}[rows]
    symbol = SYMBOL if dtype == F32 else DGEMM.symbol
    parallel = threads.load()
    native = compile_llvm_ir(gemm_ir(shape, parallel).replace(f"@{symbol}(", "@xla_opt_gemm_in_place_test("))
    gemm = ctypes.CFUNCTYPE(None, *GEMM_ARGS)(native.address("xla_opt_gemm_in_place_test"))
    k, n = 2 * shape.kc + 41, 3 * shape.nr + 5
    rng = np.random.default_rng(13)
    a, b, bias = small_ints(rng, (m, k), dtype), small_ints(rng, (k, n), dtype), small_ints(rng, (n,), dtype)
    wide = np.zeros((k, 2 * n), dtype)
    wide[:, ::2] = b  # the same B, its rows strided: packed
    expected = a.astype(np.float64) @ b.astype(np.float64) + bias
    try:
        for count in (1, 2) if parallel else (1,):
            threads.set_num_threads(count)
            for operand, ldb_row, ldb_col in ((b, n, 1), (wide, 2 * n, 2)):
                c = np.full((m, n), np.nan, dtype)  # OVERWRITE: never read
                gemm(1, m, n, k, a.ctypes.data, 0, k, 1, operand.ctypes.data, 0, ldb_row, ldb_col, c.ctypes.data, 0,
                     n, OVERWRITE | BIAS, bias.ctypes.data)  # fmt: skip
                np.testing.assert_array_equal(c, expected)
    finally:
        threads.set_num_threads(num_threads())
