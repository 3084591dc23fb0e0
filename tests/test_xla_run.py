"""`xla-run`: running a program file on .npy inputs, printing or saving the results, and
its one-line errors (never a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_opt.run_main import main

XLA_RUN = Path(sys.executable).parent / "xla-run"
f32, i32 = np.float32, np.int32

ADD = """func.func @main(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %s = xla.add %x, %y : tensor<2x2xf32>
  func.return %s : tensor<2x2xf32>
}
"""

GATHER = """func.func @main(%x: tensor<2xf32>) -> (tensor<4xf32>, tensor<ui32>) {
  %g = xla.all_gather %x, all_gather_dim = 0, replica_groups = [] : (tensor<2xf32>) -> tensor<4xf32>
  %id = xla.replica_id : tensor<ui32>
  func.return %g, %id : tensor<4xf32>, tensor<ui32>
}
"""


@pytest.fixture
def files(tmp_path: Path):
    """Write text or arrays into tmp_path; returns the path as a string."""

    def write(name: str, content) -> str:
        path = tmp_path / name
        if isinstance(content, np.ndarray):
            np.save(path, content)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        return str(path)

    return write


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def error(capsys, *argv: str) -> str:
    """Run expecting failure: exit 1 and exactly one line on stderr."""
    code, out, err = run(capsys, *argv)
    assert code == 1, (out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---- the console script, end to end ------------------------------------------------


def test_console_script_prints_results(files):
    if not XLA_RUN.exists():
        pytest.skip("the xla-run console script is not installed (pip install -e .)")
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.array([[1, 2], [3, 4]], f32))
    b = files("b.npy", np.array([[0.5, 0.25], [10, 20]], f32))
    proc = subprocess.run([str(XLA_RUN), prog, "--input", a, b], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "result #0: float32[2, 2]\n[[ 1.5 ,  2.25],\n [13.  , 24.  ]]\n"
    assert proc.stderr == ""


def test_console_script_replicas_to_output_dir(files, tmp_path):
    if not XLA_RUN.exists():
        pytest.skip("the xla-run console script is not installed (pip install -e .)")
    prog = files("gather.mlir", GATHER)
    # AllGather's spec example: [1.0, 2.5] and [3.0, 5.25] on two replicas
    x = files("x.npy", np.array([[1.0, 2.5], [3.0, 5.25]], f32))
    out_dir = tmp_path / "out"
    proc = subprocess.run(
        [str(XLA_RUN), prog, "--input", x, "--replicas", "2", "--output-dir", str(out_dir)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    gathered = np.load(out_dir / "result_0.npy")
    assert gathered.dtype == f32
    np.testing.assert_array_equal(gathered, [[1.0, 2.5, 3.0, 5.25]] * 2)
    ids = np.load(out_dir / "result_1.npy")
    assert ids.dtype == np.uint32
    np.testing.assert_array_equal(ids, [0, 1])


def test_console_script_error_is_one_line(files):
    if not XLA_RUN.exists():
        pytest.skip("the xla-run console script is not installed (pip install -e .)")
    proc = subprocess.run([str(XLA_RUN), "/nonexistent/prog.mlir"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == "xla-run: error: cannot open input file '/nonexistent/prog.mlir': No such file or directory\n"


def test_console_script_reads_stdin():
    if not XLA_RUN.exists():
        pytest.skip("the xla-run console script is not installed (pip install -e .)")
    prog = "func.func @main() -> tensor<ui32> {\n  %r = xla.replica_id : tensor<ui32>\n  func.return %r : tensor<ui32>\n}\n"
    proc = subprocess.run(
        [str(XLA_RUN), "-", "--replicas", "3"], input=prog, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "replica 0 result #0: uint32[]",
        "0",
        "replica 1 result #0: uint32[]",
        "1",
        "replica 2 result #0: uint32[]",
        "2",
    ]


# ---- in-process: results -----------------------------------------------------------


def test_prints_each_result(capsys, files):
    prog = files("gather.mlir", GATHER)
    # AllGather's spec example: [1.0, 2.5] and [3.0, 5.25] on two replicas
    x = files("x.npy", np.array([[1.0, 2.5], [3.0, 5.25]], f32))
    code, out, err = run(capsys, prog, "--input", x, "--replicas", "2")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "replica 0 result #0: float32[4]",
        "[1.  , 2.5 , 3.  , 5.25]",
        "replica 0 result #1: uint32[]",
        "0",
        "replica 1 result #0: float32[4]",
        "[1.  , 2.5 , 3.  , 5.25]",
        "replica 1 result #1: uint32[]",
        "1",
    ]
    add = files("add.mlir", ADD)
    a = files("a.npy", np.array([[1, 2], [3, 4]], f32))
    code, out, err = run(capsys, add, "--input", a, a)
    assert (code, err) == (0, "")
    assert out == "result #0: float32[2, 2]\n[[2., 4.],\n [6., 8.]]\n"


def test_inputs_as_repeated_flags(capsys, files):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    code, out, _ = run(capsys, prog, "--input", a, "--input", a)
    assert code == 0
    assert out.startswith("result #0: float32[2, 2]\n[[2., 2.],")


def test_output_dir(capsys, files, tmp_path):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.arange(4, dtype=f32).reshape(2, 2))
    code, out, _ = run(capsys, prog, "--input", a, a, "--output-dir", str(tmp_path / "new" / "dir"))
    assert code == 0
    saved = np.load(tmp_path / "new" / "dir" / "result_0.npy")
    assert saved.dtype == f32
    np.testing.assert_array_equal(saved, [[0, 2], [4, 6]])
    assert "result_0.npy: float32[2, 2]" in out


def test_tuple_and_token_results(capsys, files, tmp_path):
    prog = files(
        "tuple.mlir",
        """func.func @main(%x: tensor<2xi32>) -> (tuple<tensor<2xi32>, tensor<i32>>, !xla.token) {
  %c = xla.constant dense<7> : tensor<i32>
  %t = xla.tuple %x, %c : (tensor<2xi32>, tensor<i32>) -> tuple<tensor<2xi32>, tensor<i32>>
  %k = xla.after_all : !xla.token
  func.return %t, %k : tuple<tensor<2xi32>, tensor<i32>>, !xla.token
}
""",
    )
    x = files("x.npy", np.array([3, 4], i32))
    code, out, _ = run(capsys, prog, "--input", x)
    assert code == 0
    assert out.splitlines() == [
        "result #0: tuple(int32[2], int32[])",
        "result #0[0]: int32[2]",
        "[3, 4]",
        "result #0[1]: int32[]",
        "7",
        "result #1: token",
    ]
    code, out, _ = run(capsys, prog, "--input", x, "--output-dir", str(tmp_path))
    assert code == 0
    np.testing.assert_array_equal(np.load(tmp_path / "result_0_0.npy"), [3, 4])
    assert np.load(tmp_path / "result_0_1.npy") == 7
    assert not (tmp_path / "result_1.npy").exists()
    assert "result_1: token (not written)" in out


def test_outfeed_is_printed(capsys, files):
    prog = files(
        "outfeed.mlir",
        """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.outfeed %x, %t0 : (tensor<2xf32>, !xla.token) -> !xla.token
  func.return %x : tensor<2xf32>
}
""",
    )
    x = files("x.npy", np.array([1.5, -2], f32))
    code, out, _ = run(capsys, prog, "--input", x)
    assert code == 0
    assert out.splitlines()[-3:] == ["outfeed #0: tuple(float32[2])", "outfeed #0[0]: float32[2]", "[ 1.5, -2. ]"]


def test_random_inputs_follow_the_signature_and_seed(capsys, files, tmp_path):
    prog = files(
        "mixed.mlir",
        """func.func @main(%x: tensor<3xf32>, %n: tensor<2x2xi8>, %b: tensor<bf16>) -> (tensor<3xf32>, tensor<2x2xi8>, tensor<bf16>) {
  func.return %x, %n, %b : tensor<3xf32>, tensor<2x2xi8>, tensor<bf16>
}
""",
    )
    outputs = []
    for seed in ("1", "1", "2"):
        code, out, err = run(capsys, prog, "--random-inputs", "--seed", seed)
        assert (code, err) == (0, "")
        outputs.append(out)
    assert outputs[0] == outputs[1] != outputs[2]
    assert "result #1: int8[2, 2]" in outputs[0] and "result #2: bfloat16[]" in outputs[0]
    # with replicas, each replica draws its own values
    code, _, _ = run(capsys, prog, "--random-inputs", "--replicas", "2", "--output-dir", str(tmp_path))
    assert code == 0
    xs = np.load(tmp_path / "result_0.npy")
    assert xs.shape == (2, 3) and xs.dtype == f32 and not np.array_equal(xs[0], xs[1])


def test_bfloat16_input(capsys, files):
    prog = files(
        "bf16.mlir",
        """func.func @main(%x: tensor<2xbf16>) -> tensor<2xbf16> {
  %s = xla.add %x, %x : tensor<2xbf16>
  func.return %s : tensor<2xbf16>
}
""",
    )
    x = files("x.npy", np.array([1.5, 3], ml_dtypes.bfloat16))
    code, out, err = run(capsys, prog, "--input", x)
    assert (code, err) == (0, "")
    assert out == "result #0: bfloat16[2]\n[3, 6]\n"


def test_replicas_with_shared_and_per_replica_inputs(capsys, files):
    prog = files("add.mlir", ADD)
    shared = files("s.npy", np.ones((2, 2), f32))
    each = files("e.npy", np.stack([np.zeros((2, 2), f32), np.full((2, 2), 5, f32)]))
    code, out, _ = run(capsys, prog, "--input", shared, each, "--replicas", "2")
    assert code == 0
    assert out.splitlines() == [
        "replica 0 result #0: float32[2, 2]",
        "[[1., 1.],",
        " [1., 1.]]",
        "replica 1 result #0: float32[2, 2]",
        "[[6., 6.],",
        " [6., 6.]]",
    ]


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--random-inputs" in out and "--replicas" in out


# ---- in-process: errors --------------------------------------------------------------


def test_error_missing_program(capsys, tmp_path):
    assert error(capsys, str(tmp_path / "no.mlir")) == (
        f"xla-run: error: cannot open input file '{tmp_path / 'no.mlir'}': No such file or directory"
    )


def test_error_program_not_utf8(capsys, files):
    prog = files("bin.mlir", b"\xff\xfe\x00")
    assert error(capsys, prog) == f"xla-run: error: '{prog}' is not valid UTF-8 text"


def test_error_program_does_not_parse(capsys, files):
    prog = files("bad.mlir", "func.func @main( {\n")
    assert error(capsys, prog) == f"{prog}:1:18: error: Expected argument or type"


def test_error_program_does_not_verify(capsys, files):
    prog = files(
        "bad.mlir",
        """func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
  %g = xla.all_gather %x, all_gather_dim = 1, replica_groups = [] : (tensor<2xf32>) -> tensor<4xf32>
  func.return %g : tensor<4xf32>
}
""",
    )
    line = error(capsys, prog, "--random-inputs")
    assert line.startswith(f"{prog}:2:3: error: 'xla.all_gather' op ")
    assert "all_gather_dim" in line


def test_error_missing_input_file(capsys, files, tmp_path):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    missing = str(tmp_path / "b.npy")
    assert error(capsys, prog, "--input", a, missing) == (
        f"xla-run: error: cannot read input '{missing}': No such file or directory"
    )


def test_error_not_an_npy_file(capsys, files):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    junk = files("junk.npy", "not numpy")
    assert error(capsys, prog, "--input", a, junk) == f"xla-run: error: '{junk}' is not a .npy file"
    truncated = files("t.npy", (Path(a).read_bytes())[:20])
    assert error(capsys, prog, "--input", a, truncated).startswith(
        f"xla-run: error: '{truncated}' is not a valid .npy file: "
    )


def test_error_wrong_input_count(capsys, files):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    assert error(capsys, prog, "--input", a) == "xla-run: error: @main takes 2 inputs, got 1 --input files"
    assert error(capsys, prog) == "xla-run: error: @main takes 2 inputs, got 0 --input files"


def test_error_wrong_input_dtype_and_shape(capsys, files):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    f64 = files("d.npy", np.ones((2, 2)))
    assert error(capsys, prog, "--input", a, f64) == (
        "xla-run: error: input #1 of @main: expected dtype float32, got float64"
    )
    wrong = files("w.npy", np.ones((2, 3), f32))
    assert error(capsys, prog, "--input", wrong, a) == (
        "xla-run: error: input #0 of @main: expected shape [2, 2], got [2, 3]"
    )
    assert error(capsys, prog, "--input", wrong, a, "--replicas", "2") == (
        "xla-run: error: input #0 of @main: expected shape [2, 2] (for every replica) "
        "or [2, 2, 2] (one per replica), got [2, 3]"
    )


def test_error_unknown_entry(capsys, files):
    prog = files("add.mlir", ADD)
    assert error(capsys, prog, "--entry", "nope", "--random-inputs") == (
        "xla-run: error: no function @nope in the program (functions: main)"
    )


def test_error_unknown_backend(capsys, files):
    prog = files("add.mlir", ADD)
    assert error(capsys, prog, "--backend", "tpu", "--random-inputs") == (
        "xla-run: error: unknown backend 'tpu'; expected one of interpreter, jit"
    )


def test_error_bad_arguments(capsys, files):
    prog = files("add.mlir", ADD)
    a = files("a.npy", np.ones((2, 2), f32))
    assert error(capsys) == "xla-run: error: the following arguments are required: FILE"
    assert error(capsys, prog, "--frobnicate") == "xla-run: error: unrecognized arguments: --frobnicate"
    assert error(capsys, prog, "--replicas", "0") == "xla-run: error: --replicas must be at least 1, got 0"
    assert error(capsys, prog, "--replicas", "two") == "xla-run: error: argument --replicas: invalid int value: 'two'"
    assert error(capsys, prog, "--input", a, a, "--random-inputs") == (
        "xla-run: error: --input and --random-inputs exclude each other"
    )


def test_error_at_run_time(capsys, files):
    # A result type that does not fit the number of replicas, and a deadlock.
    prog = files("gather.mlir", GATHER)
    line = error(capsys, prog, "--random-inputs", "--replicas", "3")
    assert line == (
        f"xla-run: error: replica 0: xla.all_gather ({prog}:2:3): the result type tensor<4xf32> does not fit "
        "a replica group of 3 (the result would have shape [6])"
    )
    recv = files(
        "recv.mlir",
        """func.func @main() -> tensor<2xf32> {
  %t0 = xla.after_all : !xla.token
  %y, %t1 = xla.recv %t0, channel_id = 9 : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return %y : tensor<2xf32>
}
""",
    )
    line = error(capsys, recv, "--replicas", "2")
    assert line.startswith("xla-run: error: replica ") and "deadlock: replica 0 waits in xla.recv" in line


def test_a_reader_that_goes_away_is_no_error(tmp_path):
    """`xla-run f.mlir | head -c 10`: the rest of the output has no reader. Like a C
    tool killed by SIGPIPE: status 141, nothing on stderr (it said 'xla-run: error:
    BrokenPipeError' and exited 1)."""
    prog = tmp_path / "iota.mlir"
    prog.write_text(
        "func.func @main() -> tensor<200000xf32> {\n"
        "  %r = xla.iota iota_dimension = 0 : tensor<200000xf32>\n"
        "  func.return %r : tensor<200000xf32>\n}\n"
    )
    proc = subprocess.run(
        f"'{XLA_RUN}' '{prog}' | head -c 10; exit ${{PIPESTATUS[0]}}",
        shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.stdout == "result #0:"
    assert proc.stderr == ""
    assert proc.returncode in (0, 141)  # 0 when the output was written before head exited
