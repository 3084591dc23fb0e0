"""The Python API's input checks: Python values convert only without losing information."""

import numpy as np
import pytest

import xla_opt

PROGRAM = """
func.func @main(%x: tensor<2xf32>, %n: tensor<ui8>) -> tensor<2xf32> {
  %0 = xla.convert %n : (tensor<ui8>) -> tensor<f32>
  %1 = xla.multiply %x, %0 : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_python_values_convert_exactly(backend):
    (y,) = xla_opt.run(PROGRAM, [1, 2.5], 3, backend=backend)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, [3.0, 7.5])


@pytest.mark.parametrize(
    "x, n, message",
    [
        ([1, 2], 300, r"input #1 of @main: 300 is not representable as uint8"),
        ([1, 2], 2.5, r"input #1 of @main: 2.5 is not representable as uint8"),
        ([1, 2], -1, r"input #1 of @main: -1 is not representable as uint8"),
        (["a", "b"], 1, r"input #0 of @main: expected numbers of dtype float32"),
        ([1, 2, 3], 1, r"input #0 of @main: expected shape \[2\], got \[3\]"),
        (np.zeros(2, np.float64), 1, r"input #0 of @main: expected dtype float32, got float64"),
    ],
)
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_lossy_or_wrong_inputs_are_errors(backend, x, n, message):
    f = xla_opt.compile(PROGRAM, backend=backend)
    with pytest.raises(ValueError, match=message):
        f(x, n)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_inputs_are_checked_on_every_call(backend):
    """A matching array is passed as it is (the signature's dtypes and shapes are read
    once); a wrong one after good calls is still an error, and a subclass of ndarray
    or a big-endian array goes through the full check."""
    f = xla_opt.compile(PROGRAM, backend=backend)
    good = np.array([1.0, 2.5], np.float32)
    for _ in range(2):
        f(good, np.uint8(3))
    with pytest.raises(ValueError, match=r"input #0 of @main: expected shape \[2\], got \[3\]"):
        f(np.zeros(3, np.float32), np.uint8(3))
    with pytest.raises(ValueError, match=r"input #0 of @main: expected dtype float32, got >f4"):
        f(good.astype(">f4"), np.uint8(3))
    np.testing.assert_array_equal(f(np.ma.masked_array(good), np.uint8(3))[0], f(good, np.uint8(3))[0])


def test_program_errors_are_located():
    bad = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xi32> {
  %0 = xla.convert %x : (tensor<2xf32>) -> tensor<3xi32>
  %1 = xla.slice %0, start_indices = [0], limit_indices = [2], strides = [1] : (tensor<3xi32>) -> tensor<2xi32>
  func.return %1 : tensor<2xi32>
}"""
    with pytest.raises(
        xla_opt.ProgramError, match=r"<program>:3:3: error: 'xla.convert' op result type tensor<3xi32> must"
    ):
        xla_opt.compile(bad)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_an_integer_beyond_i64_is_a_located_error(backend):
    """Issue 31: the fuzzers' 2^64 literal gave a ValueError from xla_opt.run."""
    bad = """
func.func @main(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = xla.add %a, %b, broadcast_dimensions = [18446744073709551616] : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}"""
    a, b = np.ones(4, np.float32), np.ones((2, 4), np.float32)
    with pytest.raises(
        xla_opt.ProgramError, match=r"^<program>:3:\d+: error: integer 18446744073709551616 does not fit in i64$"
    ):
        xla_opt.run(bad, a, b, backend=backend)


# ---- optimize: a pass pipeline from Python, with xla-opt's diagnostics --------------


def test_optimize_runs_a_pipeline_and_leaves_its_input():
    module = xla_opt.load_program(PROGRAM)
    before = str(module)
    lowered = xla_opt.optimize(module, "xla-legalize-broadcast,convert-xla-to-linalg,canonicalize")
    assert str(module) == before
    assert "linalg.generic" in str(lowered) and "xla." not in str(lowered)
    # text in, and the result of one pipeline into another
    legal = xla_opt.optimize(PROGRAM, "builtin.module(func.func(xla-legalize-broadcast,cse))")  # MLIR's syntax
    assert "xla.broadcast_in_dim" in str(legal)
    llvm = xla_opt.optimize(legal, "xla-to-llvm")
    assert {op.dialect_name() for op in llvm.walk()} <= {"builtin", "llvm"}


def xla_opt_cli(path, pipeline: str) -> str:
    import subprocess
    import sys

    cli = subprocess.run(
        [sys.executable, "-m", "xla_opt.opt_main", str(path), "-p", pipeline],
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 1 and "Traceback" not in cli.stderr
    return cli.stderr.strip()


@pytest.mark.parametrize(
    "pipeline",
    [
        "no-such-pass",
        "canonicalize{",
        "canonicalize{no-such-option=1}",
        "builtin.module(func.func(cse)",
        "convert-xla-to-linalg",
    ],
)
def test_optimize_errors_are_the_clis(tmp_path, pipeline):
    """The same one-line diagnostics as xla-opt: a bad pipeline, and a pass whose
    input it cannot lower (implicit broadcasting left: located at the op)."""
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    with pytest.raises(xla_opt.ProgramError) as error:
        xla_opt.optimize(path, pipeline)
    expected = xla_opt_cli(path, pipeline).replace("xla-opt:", f"{path}:", 1)
    assert str(error.value).replace("xla-opt:", f"{path}:", 1) == expected
    assert "\n" not in str(error.value)


def test_optimize_parse_errors_are_located():
    with pytest.raises(xla_opt.ProgramError, match=r"^<program>:3:\d+: error: "):
        xla_opt.optimize("func.func @main() {\n  func.return\n  %0 = xla.nope\n}", "cse")


# ---- bf16 inputs stored as numpy's raw V2 --------------------------------------------

BF16_PROGRAM = """
func.func @main(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = xla.add %x, %x : tensor<3xbf16>
  func.return %0 : tensor<3xbf16>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_raw_v2_arrays_are_bf16_as_in_xla_run(tmp_path, backend):
    """np.save of an ml_dtypes bfloat16 array loads back as V2 records: run reads them
    as bf16 (as xla-run --input does); a V2 array for another type is a dtype error."""
    import subprocess
    import sys

    import ml_dtypes

    x = np.array([1.5, -2, 0.25], ml_dtypes.bfloat16)
    np.save(tmp_path / "x.npy", x)
    raw = np.load(tmp_path / "x.npy")
    assert raw.dtype == np.dtype("V2")
    (y,) = xla_opt.run(BF16_PROGRAM, raw, backend=backend)
    assert y.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(y.astype(np.float32), [3, -4, 0.5])
    (tmp_path / "p.mlir").write_text(BF16_PROGRAM)
    cli = subprocess.run(
        [sys.executable, "-m", "xla_opt.run_main", str(tmp_path / "p.mlir"), "--input", str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 0 and "3" in cli.stdout and "-4" in cli.stdout
    with pytest.raises(ValueError, match=r"input #0 of @main: expected dtype float32, got \|V2"):
        xla_opt.run(PROGRAM, raw[:2], 1, backend=backend)


# ---- the entry function ----------------------------------------------------------------


def test_the_only_function_is_the_entry():
    program = PROGRAM.replace("@main", "@scale")
    (y,) = xla_opt.run(program, [1, 2], 2)
    np.testing.assert_array_equal(y, [2, 4])
    with pytest.raises(ValueError, match=r"no function @main in the program \(functions: scale, other\)"):
        xla_opt.run(program + PROGRAM.replace("@main", "@other"), [1, 2], 2)
    helper = PROGRAM.replace("func.func @main", "func.func private @helper")
    (y,) = xla_opt.run(program + helper, [1, 2], 3)  # private functions are no entries
    np.testing.assert_array_equal(y, [3, 6])


# ---- public imports ---------------------------------------------------------------------


def test_every_op_and_type_predicate_is_public():
    """Every op class of the dialect (whatever its family module) and the type
    predicates a pass needs import from xla_opt.dialects.xla."""
    import xla_opt.dialects.xla as dialect

    names = {op.__name__ for op in dialect.ALL_OPS}
    assert {"AddOp", "DotOp", "DotGeneralOp", "ReduceOp", "WhileOp", "GatherOp", "AllReduceOp"} <= names
    namespace: dict = {}
    exec(f"from xla_opt.dialects.xla import {', '.join(sorted(names))}", namespace)  # noqa: S102
    assert all(namespace[name] in dialect.ALL_OPS for name in names)
    assert names <= set(dialect.__all__)
    from xdsl.dialects.builtin import f32
    from xla_opt.dialects.xla import (  # noqa: F401 - the import is the test
        PRED_SCALAR,
        TokenType,
        bit_width,
        elem_of,
        element_type_name,
        i64_array,
        is_complex,
        is_float,
        is_integer,
        is_pred,
        is_unsigned,
        scalar_of,
        shape_of,
        tensor,
    )

    t = tensor((2, 3), f32)
    assert shape_of(t) == (2, 3) and is_float(elem_of(t)) and not is_integer(elem_of(t))
    assert shape_of(scalar_of(t)) == () and element_type_name(f32) == "F32" and bit_width(f32) == 32


def test_array_addresses_for_native_calls():
    """The JIT reads an array's address through the buffer protocol, or numpy's ctypes
    view where no writable buffer is exported (read-only, empty, ml_dtypes' types):
    the same address either way, and a read-only input computes as a writable one."""
    import ml_dtypes

    from xla_opt.runtime.executable import _address

    read_only = np.arange(4, dtype=np.float32)
    read_only.flags.writeable = False
    arrays = [np.zeros(4, np.float32), np.zeros(4, ml_dtypes.bfloat16), np.zeros(3, np.complex64),
              np.zeros(0, np.float32), np.zeros(5, bool), read_only]  # fmt: skip
    assert [_address(a) for a in arrays] == [a.ctypes.data for a in arrays]
    f = xla_opt.compile(PROGRAM, backend="jit")
    np.testing.assert_array_equal(f(read_only[:2], np.uint8(3))[0], f(read_only[:2].copy(), np.uint8(3))[0])
