"""`stream-result-stores` and its kernels: large results written through non-temporal
chunk copies give numpy's values, on one and two threads, whatever the alignment of
the runs; buffers the program reads back, short runs and gathers are left alone."""

from __future__ import annotations

import ctypes

import ml_dtypes
import numpy as np
import pytest
from xla_opt.lowering.transforms import stream_result_stores
from xla_opt.lowering.kernels.stream import FENCE, STORE

import xla_opt


@pytest.fixture
def stream_everything(monkeypatch):
    """Every write-only result is large enough to stream (runs still need 4 KiB)."""
    monkeypatch.setattr(stream_result_stores, "default_min_bytes", lambda: 0)


@pytest.fixture
def threads():
    from xla_opt.runtime import threads
    from xla_opt.runtime.cpu import num_threads

    yield threads.set_num_threads
    threads.set_num_threads(num_threads())


def test_store_kernel_copies_any_alignment():
    """Heads and tails of every length around the 64-byte lines, from and to any
    offset: the bytes land exactly, and nothing outside [dst, dst + n) changes."""
    from xla_opt.lowering.kernels.libraries import STREAM
    from xla_opt.runtime.binding import load_library

    library = load_library(STREAM)
    store = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(library.address(STORE))
    fence = ctypes.CFUNCTYPE(None)(library.address(FENCE))
    rng = np.random.default_rng(0)
    src = rng.integers(0, 256, 10_000, dtype=np.uint8)
    for n in (0, 1, 17, 63, 64, 65, 127, 128, 200, 4096, 4096 + 77, 9000):
        for dst_offset in (0, 1, 8, 63):
            for src_offset in (0, 5):
                dst = np.full(9_200, 0xAB, np.uint8)
                base = dst.ctypes.data
                store(base + dst_offset, src.ctypes.data + src_offset, n)
                fence()
                expected = np.full_like(dst, 0xAB)
                expected[dst_offset : dst_offset + n] = src[src_offset : src_offset + n]
                np.testing.assert_array_equal(dst, expected, err_msg=f"n={n} dst+{dst_offset} src+{src_offset}")


def broadcast_add(rows: int, cols: int, dtype: str) -> str:
    t, v = f"tensor<{rows}x{cols}x{dtype}>", f"tensor<{cols}x{dtype}>"
    return f"""func.func @main(%a: {t}, %v: {v}) -> {t} {{
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : ({t}, {v}) -> {t}
  func.return %0 : {t}
}}"""


# rows of 1500 f32 (6000 bytes: two chunks, the second partial, rows starting at every
# offset mod 64), 700 f64 (5600 bytes), 5000 i8 and 3000 bf16: the scratch, the
# strip-mining and the kernel's head and tail
CASES = [(3, 1500, "f32", np.float32), (2, 700, "f64", np.float64), (4, 5000, "i8", np.int8), (3, 3000, "bf16", ml_dtypes.bfloat16)]


@pytest.mark.parametrize("rows,cols,dtype,np_dtype", CASES, ids=[c[2] for c in CASES])
@pytest.mark.parametrize("count", [1, 2])
def test_streamed_rows_equal_numpy(rows, cols, dtype, np_dtype, count, stream_everything, threads):
    program = broadcast_add(rows, cols, dtype)
    threads(count)
    f = xla_opt.compile(program, backend="jit")
    assert STORE in f.jit.llvm_ir
    rng = np.random.default_rng(rows * cols)
    a = rng.integers(-50, 50, (rows, cols)).astype(np_dtype)
    v = rng.integers(-50, 50, cols).astype(np_dtype)
    for _ in range(2):  # the second call reuses the first's result buffer
        (out,) = f(a, v)
        np.testing.assert_array_equal(out, (a + v).astype(np_dtype))


def test_elementwise_loop_is_strip_mined_in_parallel(stream_everything, threads):
    """Two results of one parallel loop of 200,003 elements (the element-wise nest,
    above MIN_ITERATIONS): chunks of 1024 and a partial last one, split over two
    threads; each thread fences its stores in its own body. The same loop computing
    a tanh is not streamed (compute-bound: `_compute_bound`)."""
    t = "tensor<200003xf32>"
    program = f"""func.func @main(%a: {t}, %b: {t}) -> ({t}, {t}) {{
  %0 = xla.multiply %a, %b : {t}
  %1 = xla.add %a, %b : {t}
  func.return %0, %1 : {t}, {t}
}}"""
    threads(2)
    f = xla_opt.compile(program, backend="jit")
    ir = f.jit.llvm_ir
    assert ir.count(f'call ccc void @"{STORE}"') == 2 and "GOMP_parallel" in ir
    body = ir[ir.index('define internal void @"main_kernel_0_omp_body'):]
    assert f'call ccc void @"{FENCE}"' in body[: body.index("\n}")]
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(200003).astype(np.float32) for _ in range(2))
    product, total = f(a, b)
    np.testing.assert_array_equal(product, a * b)
    np.testing.assert_array_equal(total, a + b)
    with_tanh = xla_opt.compile(program.replace("xla.add %a, %b", "xla.tanh %a"), backend="jit")
    ir = with_tanh.jit.llvm_ir  # the product's loop streamed, the tanh's (a loop of its own) not
    assert ir.count(f'call ccc void @"{STORE}"') == 1
    tanh_kernel = next(k for k in ir.split("\ndefine ")[1:] if "tanhf" in k and "omp_body" in k)
    assert STORE not in tanh_kernel
    product, tanh = with_tanh(a, b)
    np.testing.assert_array_equal(product, a * b)
    np.testing.assert_allclose(tanh, np.tanh(a), rtol=2e-6, atol=1e-6)


def test_results_read_back_short_runs_and_small_results_are_not_streamed(stream_everything):
    # softmax reads its result back (the division pass over the exponentials)
    t = "tensor<4x2048xf32>"
    softmax = f"""func.func @main(%x: {t}) -> {t} {{
  %e = xla.exponential %x : {t}
  %z = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce (%e), (%z), dimensions = [1] body {{
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = xla.add %p, %q : tensor<f32>
    xla.return %r : tensor<f32>
  }} : ({t}, tensor<f32>) -> tensor<4xf32>
  %d = xla.divide %e, %s, broadcast_dimensions = [0] : ({t}, tensor<4xf32>) -> {t}
  func.return %d : {t}
}}"""
    short_rows = broadcast_add(64, 1000, "f32")  # 4000-byte rows
    for program in (short_rows, softmax):
        assert STORE not in xla_opt.compile(program, backend="jit").jit.llvm_ir
    x = np.random.default_rng(2).standard_normal((4, 2048)).astype(np.float32)
    (out,) = xla_opt.run(softmax, x, backend="jit")
    e = np.exp(x)
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_default_threshold_is_a_quarter_of_the_last_level_cache():
    cache = stream_result_stores.last_level_cache_bytes()
    expected = cache // 4 if cache else 8 << 20
    assert stream_result_stores.default_min_bytes() == expected
    small = broadcast_add(64, 2048, "f32")  # 512 KiB: smaller than any machine's quarter of L3 here
    assert STORE not in xla_opt.compile(small, backend="jit").jit.llvm_ir
