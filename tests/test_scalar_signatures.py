"""Functions whose signature holds scalars (issue 31, a pipeline-fuzzer finding):
`func.func @f(%a: i32) -> i32` with arith ops, alone or mixed with tensors.
`xla-opt -p xla-to-llvm` printed an internal error (`'IntegerType' object has no
attribute 'get_shape'` in xla-bufferize, or `no buffer for ... arith.constant`) and the
interpreter raised a bare AssertionError. Now a scalar crosses a function's boundary
as a rank-0 buffer (the callee loads a parameter, stores a result), both backends take
numbers and give numpy scalars of the declared types, and they agree.

Expected values: numpy's arithmetic in the declared types (integers wrap)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from xla_opt.opt_main import main as xla_opt_main
from xla_opt.run_main import main as xla_run_main

BACKENDS = ["interpreter", "jit"]

I32_ADD = """
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 3 : i32
  %r = arith.addi %a, %c : i32
  func.return %r : i32
}
"""

RETURNS_A_CONSTANT = """
func.func @main() -> f32 {
  %c = arith.constant 0.1 : f32
  func.return %c : f32
}
"""


@pytest.mark.parametrize("program", [I32_ADD, RETURNS_A_CONSTANT], ids=["i32-add", "constant"])
def test_xla_to_llvm_lowers_scalar_signatures(tmp_path, capsys, program):
    """The fuzzer's reproducers: no internal error, an llvm-dialect module."""
    path = tmp_path / "p.mlir"
    path.write_text(program)
    assert xla_opt_main([str(path), "-p", "xla-to-llvm"]) == 0
    out, err = capsys.readouterr()
    assert not err and "llvm.func" in out


@pytest.mark.parametrize("backend", BACKENDS)
def test_i32_function_wraps_as_numpy(backend):
    (got,) = xla_opt.run(I32_ADD, np.int32(2**31 - 2), entry="f", backend=backend)
    assert type(got) is np.int32 and got == np.int32(-(2**31) + 1)
    (got,) = xla_opt.run(I32_ADD, 5, entry="f", backend=backend)  # a Python number
    assert got == 8
    (got,) = xla_opt.run(RETURNS_A_CONSTANT, backend=backend)
    assert type(got) is np.float32 and got == np.float32(0.1)


FLOATS = """
func.func @main(%a: f32, %b: f32, %h: bf16, %d: f64) -> (f32, bf16, f64, f32, i32, i1) {
  %p = arith.mulf %a, %b : f32
  %c = arith.constant 0.1 : f32
  %s = arith.addf %p, %c : f32
  %q = arith.divf %s, %b : f32
  %n = arith.negf %q : f32
  %hh = arith.addf %h, %h : bf16
  %e = arith.extf %a : f32 to f64
  %de = arith.mulf %d, %e : f64
  %t = arith.truncf %de : f64 to f32
  %i = arith.fptosi %t : f32 to i32
  %lt = arith.cmpf olt, %a, %b : f32
  func.return %n, %hh, %de, %t, %i, %lt : f32, bf16, f64, f32, i32, i1
}
"""


def test_float_arithmetic_rounds_in_the_declared_types():
    """f32 products and sums round to f32 on both backends (the interpreter's arith
    computes in numpy's types, not in Python's doubles)."""
    a, b, h, d = np.float32(1.1), np.float32(3.3), ml_dtypes.bfloat16(1.7), 2.25
    s = np.float32(a * b) + np.float32(0.1)
    expected = [
        -(s / b),
        ml_dtypes.bfloat16(h + h),
        d * np.float64(a),
        np.float32(d * np.float64(a)),
        np.int32(np.trunc(np.float32(d * np.float64(a)))),
        np.bool_(a < b),
    ]
    for backend in BACKENDS:
        got = xla_opt.run(FLOATS, a, b, h, d, backend=backend)
        assert [type(g) for g in got] == [type(e) for e in expected], backend
        assert [g.tobytes() for g in got] == [np.asarray(e).tobytes() for e in expected], backend


MIXED = """
func.func private @helper(%x: i32, %t: tensor<2xi32>) -> (i32, tensor<2xi32>) {
  %c = arith.constant 7 : i32
  %y = arith.muli %x, %c : i32
  %e = tensor.from_elements %y, %x : tensor<2xi32>
  %s = xla.add %t, %e : tensor<2xi32>
  func.return %y, %s : i32, tensor<2xi32>
}
func.func @main(%a: i32, %t: tensor<2xi32>, %z: complex<f32>, %k: index) -> (i32, tensor<2xi32>, complex<f32>, index) {
  %r:2 = func.call @helper(%a, %t) : (i32, tensor<2xi32>) -> (i32, tensor<2xi32>)
  %i = arith.constant 1 : index
  %x = tensor.extract %r#1[%i] : tensor<2xi32>
  %sum = arith.addi %r#0, %x : i32
  %k2 = arith.addi %k, %i : index
  func.return %sum, %r#1, %z, %k2 : i32, tensor<2xi32>, complex<f32>, index
}
"""


def test_scalars_mixed_with_tensors_and_calls():
    """Scalars into tensors and out (tensor.from_elements / tensor.extract), passed to
    and returned from a call, a complex and an index parameter."""
    a, t = np.int32(400_000_000), np.array([1, 2], np.int32)
    with np.errstate(over="ignore"):
        y = a * np.int32(7)
        s = t + np.array([y, a], np.int32)
        expected = [y + s[1], s, np.complex64(1 - 2j), np.int64(6)]
    for backend in BACKENDS:
        got = xla_opt.run(MIXED, a, t, np.complex64(1 - 2j), 5, backend=backend)
        assert type(got[0]) is np.int32 and got[0] == expected[0]
        np.testing.assert_array_equal(got[1], expected[1])
        assert got[2] == expected[2] and got[3] == expected[3]


WHILE_AND_IF = """
func.func @main(%n: i32, %t: tensor<3xf32>, %b: i1) -> (i32, tensor<3xf32>, f32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %f0 = arith.constant 0.5 : f32
  %r:3 = scf.while (%i = %zero, %acc = %t, %f = %f0) : (i32, tensor<3xf32>, f32) -> (i32, tensor<3xf32>, f32) {
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i, %acc, %f : i32, tensor<3xf32>, f32
  } do {
  ^bb0(%i2: i32, %acc2: tensor<3xf32>, %f2: f32):
    %i3 = arith.addi %i2, %one : i32
    %acc3 = xla.add %acc2, %acc2 : tensor<3xf32>
    %f3 = arith.mulf %f2, %f2 : f32
    scf.yield %i3, %acc3, %f3 : i32, tensor<3xf32>, f32
  }
  %g = scf.if %b -> (f32) {
    scf.yield %r#2 : f32
  } else {
    %neg = arith.negf %r#2 : f32
    scf.yield %neg : f32
  }
  func.return %r#0, %r#1, %g : i32, tensor<3xf32>, f32
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_loop_state_and_branch_results(backend):
    """scf.while and scf.if carrying scalars next to tensors (the scalars stay values,
    the tensors live in buffers)."""
    t = np.array([1, 2, 3], np.float32)
    got = xla_opt.run(WHILE_AND_IF, np.int32(3), t, np.bool_(False), backend=backend)
    assert got[0] == 3
    np.testing.assert_array_equal(got[1], 8 * t)
    assert type(got[2]) is np.float32 and got[2] == -(np.float32(0.5) ** 8)


@pytest.mark.parametrize("backend", BACKENDS)
def test_xla_run_draws_and_prints_scalars(tmp_path, capsys, backend):
    path = tmp_path / "p.mlir"
    path.write_text(MIXED)
    assert xla_run_main([str(path), "--random-inputs", "--backend", backend]) == 0
    out = capsys.readouterr().out
    assert "result #0: int32[]" in out and "result #3: int64[]" in out
    assert xla_run_main([str(path), "--random-inputs", "--backend", backend, "--replicas", "2"]) == 0


def test_bad_scalar_inputs_are_one_line_errors():
    for backend in BACKENDS:
        with pytest.raises(ValueError, match=r"input #0 of @f: expected dtype int32, got float32"):
            xla_opt.run(I32_ADD, np.array(1, np.float32), entry="f", backend=backend)  # no silent casts
        with pytest.raises(ValueError, match=r"input #0 of @f: 2.5 is not representable as int32"):
            xla_opt.run(I32_ADD, 2.5, entry="f", backend=backend)


def test_an_op_the_interpreter_lacks_is_a_located_error():
    """Not a bare InterpretationError: the op's place, on one line."""
    program = "func.func @main(%a: f32) -> f32 {\n  %r = math.sqrt %a : f32\n  func.return %r : f32\n}\n"
    with pytest.raises(xla_opt.ProgramError, match=r"^<program>:2:3: error: 'math.sqrt' op is not interpreted"):
        xla_opt.run(program, np.float32(4), backend="interpreter")
    (got,) = xla_opt.run(program, np.float32(4), backend="jit")
    assert got == 2
