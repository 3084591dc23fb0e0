"""`linalg-write-in-place` (a loop's new state written into the state's buffer) and
the JIT's cache-line-aligned result buffers: same results as the interpreter, whether
or not the in-place write is allowed."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.util import both
from xla_opt.runtime import executable


def while_program(n: int, body: str) -> str:
    """Five trips of `body` over (a, b), two tensor<nxf32> states and a counter."""
    ty = f"tensor<{n}xf32>"
    return f"""
func.func @main(%a: {ty}, %b: {ty}) -> ({ty}, {ty}) {{
  %zero = xla.constant dense<0> : tensor<i32>
  %ri, %ra, %rb = xla.while %zero, %a, %b cond {{
  ^bb0(%ci: tensor<i32>, %ca: {ty}, %cb: {ty}):
    %limit = xla.constant dense<5> : tensor<i32>
    %go = xla.compare %ci, %limit, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %go : tensor<i1>
  }} body {{
  ^bb0(%i: tensor<i32>, %x: {ty}, %y: {ty}):
    %one = xla.constant dense<1> : tensor<i32>
    %ni = xla.add %i, %one : tensor<i32>
{body}
    xla.return %ni, %na, %nb : tensor<i32>, {ty}, {ty}
  }} : (tensor<i32>, {ty}, {ty}) -> (tensor<i32>, {ty}, {ty})
  func.return %ra, %rb : {ty}, {ty}
}}"""


BODIES = {
    # element-wise in the old state: written in place
    "affine": "    %h = xla.constant dense<0.5> : tensor<f32>\n"
    "    %m = xla.multiply %x, %h : (tensor<{n}xf32>, tensor<f32>) -> tensor<{n}xf32>\n"
    "    %na = xla.add %m, %y : tensor<{n}xf32>\n    %nb = xla.add %y, %y : tensor<{n}xf32>",
    # a reverse reads another element's old value: not in place
    "reverse": "    %r = xla.reverse %x, dimensions = [0] : tensor<{n}xf32>\n"
    "    %na = xla.add %r, %y : tensor<{n}xf32>\n    %nb = xla.subtract %y, %x : tensor<{n}xf32>",
    # both new states read the old a: a is still needed after its new value is computed
    "both_read_a": "    %na = xla.add %x, %y : tensor<{n}xf32>\n    %nb = xla.multiply %x, %x : tensor<{n}xf32>",
}


@pytest.mark.parametrize("n", [7, 1024])
@pytest.mark.parametrize("body", BODIES)
def test_while_states_match_the_interpreter(body, n):
    rng = np.random.default_rng(n)
    a, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    both(while_program(n, BODIES[body].replace("{n}", str(n))), a, b)


def test_in_place_state_has_no_copy_per_trip():
    """The affine body's states are updated where they are: no memcpy inside the loop
    (the one before it initializes the result from the argument)."""
    n = 1024
    f = xla_opt.compile(while_program(n, BODIES["affine"].replace("{n}", str(n))), backend="jit")
    ir = f.jit.llvm_ir
    loop = ir[ir.index("br label") :]  # after the entry block's initializing copies
    assert "llvm.memcpy" not in loop.split("\ndeclare")[0]


@pytest.mark.parametrize("shape,dtype", [((1024,), "f32"), ((33, 65), "f64"), ((4096,), "i8")])
def test_large_results_start_on_a_cache_line(shape, dtype):
    ty = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    prog = f"func.func @main(%a: {ty}) -> {ty} {{\n  %b = xla.add %a, %a : {ty}\n  func.return %b : {ty}\n}}"
    np_dtype = {"f32": np.float32, "f64": np.float64, "i8": np.int8}[dtype]
    a = (np.arange(np.prod(shape)) % 100).astype(np_dtype).reshape(shape)
    f = xla_opt.compile(prog, backend="jit")
    for _ in range(3):  # fresh buffers and reused ones
        (got,) = f(a)
        assert got.ctypes.data % executable.ALIGNMENT == 0
        assert got.shape == shape and got.dtype == np_dtype and got.flags.c_contiguous and got.flags.writeable
        np.testing.assert_array_equal(got, a + a)


def test_small_results_stay_numpys():
    (got,) = xla_opt.compile(
        "func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %b = xla.negate %a : tensor<3xf32>\n  func.return %b : tensor<3xf32>\n}",
        backend="jit",
    )(np.array([1, 2, 3], np.float32))
    assert got.base is None  # not a view into a padded allocation
    np.testing.assert_array_equal(got, [-1, -2, -3])
