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
