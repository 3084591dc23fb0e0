"""xla-opt as a user meets it: exit codes and one-line located diagnostics on bad input."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xla_opt.opt_main import main

ROOT = Path(__file__).resolve().parents[1]
LOCATED = re.compile(r"^\S+:\d+:\d+: error: .+$")

VALID = """\
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str | bytes, name: str = "in.mlir") -> str:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(p)


def test_valid_input_round_trips(tmp_path, capsys):
    code, out, err = run([write(tmp_path, VALID)], capsys)
    assert code == 0 and err == ""
    assert "xla.add %a, %v, broadcast_dimensions = [1]" in out


def test_output_file(tmp_path, capsys):
    target = tmp_path / "out.mlir"
    code, out, _ = run([write(tmp_path, VALID), "-o", str(target)], capsys)
    assert code == 0 and out == ""
    assert "xla.add" in target.read_text()


def test_empty_file_is_an_empty_module(tmp_path, capsys):
    code, out, err = run([write(tmp_path, "")], capsys)
    assert code == 0 and err == ""
    assert out.strip().startswith("builtin.module") and "func" not in out


def test_comment_only_file_is_an_empty_module(tmp_path, capsys):
    code, out, _ = run([write(tmp_path, "// nothing here\n")], capsys)
    assert code == 0 and "builtin.module" in out


def test_missing_file(tmp_path, capsys):
    missing = str(tmp_path / "nope.mlir")
    code, out, err = run([missing], capsys)
    assert code == 1 and out == ""
    assert err.strip() == f"{missing}: error: cannot open input file: No such file or directory"


def test_garbage_bytes(tmp_path, capsys):
    path = write(tmp_path, b"\x00\xff\xfe garbage \x80")
    code, _, err = run([path], capsys)
    assert code == 1
    assert err.strip() == f"{path}:1:2: error: input is not valid UTF-8 text"


def test_truncated_file(tmp_path, capsys):
    path = write(tmp_path, VALID[: VALID.index("broadcast_dimensions")])
    code, _, err = run([path], capsys)
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and LOCATED.match(lines[0]), err
    assert lines[0].startswith(f"{path}:")


def test_unknown_op(tmp_path, capsys):
    path = write(tmp_path, VALID.replace("xla.add", "xla.plus"))
    code, _, err = run([path], capsys)
    assert code == 1
    assert re.fullmatch(rf"{re.escape(path)}:2:\d+: error: Operation xla.plus is not registered", err.strip())


def test_unknown_pass(tmp_path, capsys):
    code, _, err = run([write(tmp_path, VALID), "-p", "no-such-pass"], capsys)
    assert code == 1
    assert "invalid pass pipeline 'no-such-pass'" in err and "no-such-pass" in err
    assert "Traceback" not in err


def test_verifier_failure_is_located(tmp_path, capsys):
    path = write(tmp_path, VALID.replace("broadcast_dimensions = [1]", "broadcast_dimensions = [0]"))
    code, out, err = run([path], capsys)
    assert code == 1 and out == ""
    assert err.strip() == (
        f"{path}:2:3: error: 'xla.add' op broadcast_dimensions [0]: dimension 0 of size 3 of [3] "
        "does not match dimension 0 of size 2 of [2, 3]"
    )


def test_every_failing_op_is_reported(tmp_path, capsys):
    text = VALID.replace(
        "  func.return",
        "  %1 = xla.floor %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>\n  func.return",
    ).replace("broadcast_dimensions = [1]", "broadcast_dimensions = [0]")
    code, _, err = run([write(tmp_path, text)], capsys)
    assert code == 1
    assert [line.split(": error: ")[0].rsplit(":", 2)[1:] for line in err.strip().splitlines()] == [
        ["2", "3"],
        ["3", "3"],
    ]


def test_split_input_file_reports_original_lines(tmp_path, capsys):
    bad = VALID.replace("xla.add", "xla.plus")
    path = write(tmp_path, VALID + "// -----\n" + bad)
    code, _, err = run([path, "--split-input-file"], capsys)
    assert code == 1
    assert err.startswith(f"{path}:7:")


def test_verify_diagnostics_fails_on_unexpected_error(tmp_path, capsys):
    path = write(tmp_path, VALID.replace("[1]", "[0]"))
    code, _, err = run([path, "--verify-diagnostics"], capsys)
    assert code == 1 and "unexpected error" in err


def test_verify_diagnostics_fails_on_missing_error(tmp_path, capsys):
    text = "// expected-error @+2 {{something}}\n" + VALID
    code, _, err = run([write(tmp_path, text), "--verify-diagnostics"], capsys)
    assert code == 1 and 'expected error "something" was not produced' in err


def test_console_script_has_no_traceback(tmp_path):
    path = write(tmp_path, "func.func @f( {")
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "xla-opt"), path],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and LOCATED.match(proc.stderr.strip())


def _mutations(text: str, rng: random.Random, count: int):
    tokens = re.findall(r"\s+|[%@^#!]?[\w.]+|\S", text)
    for _ in range(count):
        t = list(tokens)
        kind = rng.randrange(4)
        i = rng.randrange(len(t))
        if kind == 0:
            del t[i]
        elif kind == 1:
            t.insert(i, rng.choice(t))
        elif kind == 2:
            j = rng.randrange(len(t))
            t[i], t[j] = t[j], t[i]
        else:
            cut = rng.randrange(len(text))
            yield text[:cut]
            continue
        yield "".join(t)


LIT_INPUTS = sorted((ROOT / "lit_tests" / "dialect").glob("*roundtrip*.mlir")) + sorted(
    (ROOT / "lit_tests" / "passes" / "conversions").glob("convert-stablehlo-to-xla-*.mlir")
)


@pytest.mark.parametrize("source", LIT_INPUTS, ids=lambda p: p.name)
def test_mutated_inputs_give_diagnostics_not_crashes(source, tmp_path, capsys):
    """Random token deletions, duplications, swaps and truncations of real inputs: the
    driver answers 0, or 1 with located diagnostics; never an internal error."""
    rng = random.Random(source.name)
    text = source.read_text()
    for n, mutated in enumerate(_mutations(text, rng, 60)):
        path = write(tmp_path, mutated, f"m{n}.mlir")
        code, _, err = run([path], capsys)
        assert code in (0, 1)
        if code == 1:
            for line in err.strip().splitlines():
                assert LOCATED.match(line), f"mutation {n}: {line}\n---\n{mutated}"


def test_llvm_target_needs_a_lowered_module(tmp_path, capsys):
    path = write(tmp_path, VALID)
    code, out, err = run([path, "-t", "llvm"], capsys)
    assert code == 1 and out == ""
    assert err.strip() == (
        f"{path}:1:1: error: 'func.func' op is not in the llvm dialect: -t llvm needs a lowered "
        "module (-p xla-to-llvm)"
    )
    code, out, err = run([path, "-p", "xla-to-llvm", "-t", "llvm"], capsys)
    assert code == 0 and 'define void @"f"(ptr noalias' in out


def test_unterminated_string_literal_on_a_long_line_does_not_hang(tmp_path, capsys):
    """xDSL 0.74's string-literal pattern backtracks exponentially here (patched)."""
    import time

    text = 'func.func @f() {\n  "test.op"() {a = "' + "abc def " * 4000 + "\n}\n"
    start = time.perf_counter()
    code, _, err = run([write(tmp_path, text)], capsys)
    assert time.perf_counter() - start < 10
    assert code == 1 and LOCATED.match(err.strip().splitlines()[0])


def test_time_passes_reports_each_pass(tmp_path, capsys):
    code, out, err = run([write(tmp_path, VALID), "-p", "xla-legalize-broadcast,cse", "--time-passes"], capsys)
    assert code == 0 and "builtin.module" in out
    assert [line.split(":")[0] for line in err.strip().splitlines()] == [
        "pass xla-legalize-broadcast",
        "pass cse",
    ]
