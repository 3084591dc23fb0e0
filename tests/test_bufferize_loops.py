"""Loops over tensors (scf.for with tensor iteration arguments, tensor.insert) run
natively with value semantics: in-place writes only where no one needs the old value.
The programs are lit_tests/lowering/conversions/xla-bufferize-loops.mlir's, compiled and run."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import xla_opt

LIT = Path(__file__).parent.parent / "lit_tests" / "lowering" / "conversions" / "xla-bufferize-loops.mlir"


def program(name: str) -> str:
    """The function @name of the lit file, renamed @main."""
    for chunk in LIT.read_text().split("// -----"):
        if f"func.func @{name}(" in chunk:
            return re.sub(rf"@{name}\(", "@main(", chunk)
    raise KeyError(name)


def test_reverse():
    a = np.arange(5, dtype=np.float32)
    (r,) = xla_opt.run(program("reverse"), a, backend="jit")
    np.testing.assert_array_equal(r, a[::-1])


def test_swap_pairs_leaves_the_input_alone():
    a = np.array([1, 2, 3, 4], np.int32)
    r, k = xla_opt.run(program("swap_pairs"), a, backend="jit")
    np.testing.assert_array_equal(r, [2, 1, 4, 3])
    assert k == 2
    np.testing.assert_array_equal(a, [1, 2, 3, 4])


def test_insert_into_a_value_from_outside_the_loop():
    (r,) = xla_opt.run(program("insert_into_outer"), np.float32(7), backend="jit")
    # iteration i inserts 7 at i into the zero constant and reads element 0
    np.testing.assert_array_equal(r, [7, 0, 0])


@pytest.mark.parametrize("v", [np.float32(2.5)])
def test_read_after_insert(v):
    u, w = xla_opt.run(program("read_after_insert"), v, backend="jit")
    assert u[0] == v and w[0] == v


def test_one_value_as_two_loop_states():
    """Found by the radix sort: two states sharing one buffer overwrote each other."""
    s, t = xla_opt.run(program("one_value_two_states"), np.float32(1.5), backend="jit")
    np.testing.assert_array_equal(s, [1.5, 1.5])
    np.testing.assert_array_equal(t, [3.0, 3.0])


def test_a_state_passed_on_unchanged_is_read_in_the_argument():
    """A while state every iteration passes on as it got it (JAX carries a scan's closed
    over weights so) is read in the caller's array, not a copy; the caller's array is
    left as it was, and the results are the interpreter's."""
    text = (Path(__file__).parent.parent / "lit_tests" / "lowering" / "conversions" / "xla-bufferize.mlir").read_text()
    chunk = next(c for c in text.split("// -----") if "@unchanged_state_in_the_argument(" in c)
    source = re.sub(r"@unchanged_state_in_the_argument\(", "@main(", chunk)
    w = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
    kept = w.copy()
    (got,) = xla_opt.run(source, w, np.int32(3), backend="jit")
    np.testing.assert_array_equal(got, w * w)
    np.testing.assert_array_equal(w, kept)


def test_loop_states_zeroed_by_one_fill_fill_their_own_buffers():
    """A scan's stacked outputs start as zero fills, which cse merges into one value;
    each loop state it initializes fills a buffer of its own (`_one_fill_per_destination`)
    rather than taking a copy of one filled buffer (an LSTM step: 13 copies of 256 KB
    before its loop). Results as JAX's."""
    from xla_opt.lowering.xla_to_llvm import STAGES

    from xla_opt.api import load_program

    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def f(x):
        def step(c, xi):
            c = jnp.tanh(c + xi)
            return c, (c, c * 2.0)

        return jax.lax.scan(step, jnp.zeros(8, jnp.float32), x)

    x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    text = jax.jit(f).lower(x).as_text()
    bufferized = str(xla_opt.optimize(load_program(text), ",".join(STAGES[: STAGES.index("xla-bufferize") + 1])))
    top_level_copies = re.findall(r'^    "memref.copy"\(.*memref<5x8xf32>', bufferized, re.MULTILINE)
    assert not top_level_copies, top_level_copies
    for got, want in zip(xla_opt.run(text, x, backend="jit"), jax.tree_util.tree_leaves(f(x)), strict=True):
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-6, atol=1e-6)


def test_two_products_zeroed_by_one_fill_fill_their_own_accumulators():
    """Two products each accumulate into a zero fill, which cse merges into one value:
    each fills an accumulator of its own rather than one taking a copy of the other's
    (`_one_fill_per_destination`; an LSTM's forward step copied 32 KB so)."""
    from xla_opt.lowering.xla_to_llvm import STAGES

    text = """func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<32x64xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %x = xla.dot %a, %b : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %y = xla.dot %a, %c : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  func.return %x, %y : tensor<16x64xf32>, tensor<16x64xf32>
}"""
    assert "memref.copy" not in str(xla_opt.optimize(text, ",".join(STAGES[: STAGES.index("xla-bufferize") + 1])))
    rng = np.random.default_rng(0)
    a, b, c = (rng.integers(-3, 4, shape).astype(np.float32) for shape in ((16, 32), (32, 64), (32, 64)))
    x, y = xla_opt.run(text, a, b, c, backend="jit")
    np.testing.assert_array_equal(x, a @ b)
    np.testing.assert_array_equal(y, a @ c)
