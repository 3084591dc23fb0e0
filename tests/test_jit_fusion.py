"""Fusion decisions around the GEMM kernel (issue 11): what `linalg-fuse-elementwise`
may fold into a matrix product, checked end to end on the JIT against numpy.

Inputs are small integers, so every product and partial sum is exact in f32 and the
kernel's summation order cannot change a result."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type
from xla_opt.lowering.kernels.gemm import SYMBOL

F32 = np.float32


def t(shape) -> str:
    return tensor_type(shape, F32)


def small_ints(rng: np.random.Generator, shape) -> np.ndarray:
    return (rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)).astype(F32)


def mlp_program(b: int, d: int, h: int, o: int) -> str:
    return f"""
func.func @main(%x: {t((b, d))}, %w1: {t((d, h))}, %b1: {t((h,))}, %w2: {t((h, o))}, %b2: {t((o,))}) -> {t((b, o))} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.dot %x, %w1 : ({t((b, d))}, {t((d, h))}) -> {t((b, h))}
  %1 = xla.add %0, %b1, broadcast_dimensions = [1] : ({t((b, h))}, {t((h,))}) -> {t((b, h))}
  %2 = xla.maximum %1, %zero : ({t((b, h))}, tensor<f32>) -> {t((b, h))}
  %3 = xla.dot %2, %w2 : ({t((b, h))}, {t((h, o))}) -> {t((b, o))}
  %4 = xla.add %3, %b2, broadcast_dimensions = [1] : ({t((b, o))}, {t((o,))}) -> {t((b, o))}
  func.return %4 : {t((b, o))}
}}"""


def test_mlp_keeps_both_products_on_the_kernel():
    """Reproducer: the bias add and relu between two dots were fused into the second
    dot's loop nest (read through its (i, k) projection, so recomputed for every
    output column), which then ran as plain loops, not on the kernel: mlp at 51
    GFLOP/s instead of ~85."""
    b, d, h, o = 40, 48, 64, 36
    program = mlp_program(b, d, h, o)
    llvm_ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    assert len(re.findall(rf'call (?:ccc )?void @"?{SYMBOL}(?:_narrow)?"?\(', llvm_ir)) == 2  # N < 128: _narrow
    rng = np.random.default_rng(7)
    x, w1, b1, w2, b2 = (small_ints(rng, s) for s in [(b, d), (d, h), (h,), (h, o), (o,)])
    got = xla_opt.run(program, x, w1, b1, w2, b2, backend="jit")[0]
    f64 = [a.astype(np.float64) for a in (x, w1, b1, w2, b2)]
    expected = np.maximum(f64[0] @ f64[1] + f64[2], 0) @ f64[3] + f64[4]
    np.testing.assert_array_equal(got, expected)


def layer_norm_softmax_program(rows: int, cols: int) -> str:
    x, r = t((rows, cols)), t((rows,))

    def reduce(name: str, value: str, init: str, op: str) -> str:
        return f"""  {name} = xla.reduce ({value}), ({init}), dimensions = [1] body {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.{op} %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }} : ({x}, tensor<f32>) -> {r}
"""

    def row(name: str, value: str) -> str:
        return f"  {name} = xla.broadcast_in_dim {value}, broadcast_dimensions = [0] : ({r}) -> {x}\n"

    return (
        f"func.func @main(%x: {x}) -> {x} {{\n"
        "  %zero = xla.constant dense<0.0> : tensor<f32>\n"
        "  %low = xla.constant dense<0xFF800000> : tensor<f32>\n"
        f"  %n = xla.constant dense<{float(cols)}> : {r}\n"
        f"  %eps = xla.constant dense<1.0e-5> : {r}\n"
        + reduce("%sum", "%x", "%zero", "add")
        + f"  %mean = xla.divide %sum, %n : {r}\n"
        + row("%mean_b", "%mean")
        + f"  %c = xla.subtract %x, %mean_b : {x}\n"
        + f"  %sq = xla.multiply %c, %c : {x}\n"
        + reduce("%ss", "%sq", "%zero", "add")
        + f"  %var = xla.divide %ss, %n : {r}\n"
        + f"  %ve = xla.add %var, %eps : {r}\n"
        + f"  %sd = xla.sqrt %ve : {r}\n"
        + row("%sd_b", "%sd")
        + f"  %y = xla.divide %c, %sd_b : {x}\n"
        + reduce("%m", "%y", "%low", "maximum")
        + row("%m_b", "%m")
        + f"  %d = xla.subtract %y, %m_b : {x}\n"
        + f"  %e = xla.exponential %d : {x}\n"
        + reduce("%es", "%e", "%zero", "add")
        + row("%es_b", "%es")
        + f"  %out = xla.divide %e, %es_b : {x}\n"
        + f"  func.return %out : {x}\n}}"
    )


def test_row_nests_of_layer_norm_and_softmax_fuse_and_compute_what_numpy_does():
    """fuse-loop-nests: a layer norm then a softmax over rows (fills, reductions and
    element-wise nests, ~15 of them once lowered) run as few kernels, and compute
    numpy's result."""
    rows, cols = 24, 40
    program = layer_norm_softmax_program(rows, cols)
    llvm_ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    kernels = re.findall(r'^define void @"main_kernel_\d+"', llvm_ir, re.MULTILINE)
    assert 1 <= len(kernels) <= 3, kernels
    x = np.random.default_rng(3).standard_normal((rows, cols)).astype(F32)
    got = xla_opt.run(program, x, backend="jit")[0]
    c = x.astype(np.float64) - x.mean(axis=1, keepdims=True)
    y = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)
    e = np.exp(y - y.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=2e-5, atol=1e-7)
    np.testing.assert_allclose(got, xla_opt.run(program, x, backend="interpreter")[0], rtol=2e-5, atol=1e-7)


def reshape_program(shape_in, shape_out, order=None) -> str:
    """exp(reshape(x)) + y: a reshape fused into an element-wise consumer."""
    dims = f", dimensions = [{', '.join(map(str, order))}]" if order else ""
    return f"""
func.func @main(%x: {t(shape_in)}, %y: {t(shape_out)}) -> {t(shape_out)} {{
  %r = xla.reshape %x{dims} : ({t(shape_in)}) -> {t(shape_out)}
  %e = xla.exponential %r : {t(shape_out)}
  %s = xla.add %e, %y : {t(shape_out)}
  func.return %s : {t(shape_out)}
}}"""


RESHAPES = [
    ((12, 8), (12, 2, 4), None),  # a split
    ((4, 6, 5), (4, 30), None),  # a merge
    ((6, 7, 9), (378,), None),  # everything merged into one dimension
    ((6, 4), (4, 6), None),  # one group, neither a split nor a merge
    ((1, 6, 1, 10), (3, 2, 10, 1), None),  # size-1 dimensions on both sides
    ((3, 4, 5), (5, 12), (2, 0, 1)),  # xla.reshape's dimensions: transposed first
]


@pytest.mark.parametrize("shape_in,shape_out,order", RESHAPES, ids=str)
def test_reshapes_fuse_into_their_consumer(shape_in, shape_out, order):
    """A reshape is a data move (an affine map) fused into the exponential after it: one
    loop nest, and the values numpy's reshape gives. Merged dimensions read in memory
    order leave no division in the kernel (`fold-delinearized-accesses`)."""
    rng = np.random.default_rng(len(shape_in))
    x = rng.standard_normal(shape_in).astype(F32)
    y = rng.standard_normal(shape_out).astype(F32)
    compiled = xla_opt.compile(reshape_program(shape_in, shape_out, order), backend="jit")
    (got,) = compiled(x, y)
    moved = np.transpose(x, order) if order else x
    np.testing.assert_allclose(got, np.exp(moved.reshape(shape_out)) + y, rtol=2e-6, atol=1e-6)
    ir = compiled.jit.llvm_ir
    assert len(re.findall(r'define void @"main_kernel_\d+"\(', ir)) == 1
    if order is None and shape_in != (6, 4):
        assert not re.search(r"\b[su](div|rem) i64", ir)


def test_a_concatenation_of_slices_reads_their_source():
    """`jnp.roll` (a concatenation of two slices of the array): the concatenation reads
    the source through each slice's indices (`ExtractThroughGather`), so the slices
    are not copied first: one loop nest, where each slice had its own copy loop."""
    x = np.arange(6 * 50, dtype=F32).reshape(6, 50)
    head, tail = t((6, 7)), t((6, 43))
    program = f"""
func.func @main(%x: {t((6, 50))}) -> {t((6, 50))} {{
  %a = xla.slice %x, start_indices = [0, 43], limit_indices = [6, 50], strides = [1, 1] : ({t((6, 50))}) -> {head}
  %b = xla.slice %x, start_indices = [0, 0], limit_indices = [6, 43], strides = [1, 1] : ({t((6, 50))}) -> {tail}
  %r = xla.concatenate %a, %b, dimension = 1 : ({head}, {tail}) -> {t((6, 50))}
  func.return %r : {t((6, 50))}
}}"""
    compiled = xla_opt.compile(program, backend="jit")
    (got,) = compiled(x)
    np.testing.assert_array_equal(got, np.roll(x, 7, axis=1))
    assert len(re.findall(r'define void @"main_kernel_\d+"\(', compiled.jit.llvm_ir)) == 1


def test_merge_feeding_a_product_is_read_by_strides():
    """A product reads the merge of contiguous dimensions in place (no copy loop) and
    the merge of transposed ones from one copy (a transpose fused into the reshape)."""
    rng = np.random.default_rng(3)
    w = small_ints(rng, (256, 48))
    for transposed in (False, True):
        shape = (4, 40, 64) if transposed else (40, 4, 64)
        x = small_ints(rng, shape)
        moved = f"%t = xla.transpose %x, permutation = [1, 0, 2] : ({t(shape)}) -> {t((40, 4, 64))}\n  "
        program = f"""
func.func @main(%x: {t(shape)}, %w: {t((256, 48))}) -> {t((40, 48))} {{
  {moved if transposed else ""}%r = xla.reshape {"%t" if transposed else "%x"} : ({t((40, 4, 64))}) -> {t((40, 256))}
  %d = xla.dot %r, %w : ({t((40, 256))}, {t((256, 48))}) -> {t((40, 48))}
  func.return %d : {t((40, 48))}
}}"""
        compiled = xla_opt.compile(program, backend="jit")
        (got,) = compiled(x, w)
        rows = (x.transpose(1, 0, 2) if transposed else x).reshape(40, 256)
        np.testing.assert_array_equal(got, rows @ w)
        ir = compiled.jit.llvm_ir
        assert SYMBOL in ir or "xla_opt_sgemm" in ir
        assert len(re.findall(r'define void @"main_kernel_\d+"\(', ir)) == (1 if transposed else 0)


def test_a_long_chain_fuses_into_one_loop_with_the_interpreters_values():
    """Issue 32: a chain of n dependent element-wise ops fused in O(n^2) (37 s for
    1,000 adds); each consumer now moves into its producer's body. 600 ops of three
    kinds, the shared inputs on either side, still compute what numpy does."""
    lines, prev = [], "%a"
    expected = a = np.linspace(-1, 1, 8, dtype=np.float32)
    b = np.float32(0.999) * np.ones(8, np.float32)
    for i in range(600):
        op, other, value = [("add", "%b", b), ("multiply", "%b", b), ("subtract", "%a", a)][i % 3]
        operands = f"{prev}, {other}" if i % 2 else f"{other}, {prev}"
        lines.append(f"  %v{i} = xla.{op} {operands} : tensor<8xf32>")
        fn = {"add": np.add, "multiply": np.multiply, "subtract": np.subtract}[op]
        expected = fn(expected, value) if i % 2 else fn(value, expected)
        prev = f"%v{i}"
    text = "func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {\n"
    text += "\n".join(lines) + f"\n  func.return {prev} : tensor<8xf32>\n}}\n"
    fused = xla_opt.optimize(text, "convert-xla-to-linalg,linalg-fuse-elementwise")
    assert str(fused).count("linalg.generic") == 1
    (y,) = xla_opt.run(text, a, b, backend="jit")
    np.testing.assert_allclose(y, expected.astype(np.float32), rtol=1e-5, atol=1e-5)
