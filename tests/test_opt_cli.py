"""xla-opt's mlir-opt conventions where lit cannot check them: the timing report's
arithmetic, statistics against the printed IR, nested pipelines against module-level
runs, and a user's own lit suite configured by `xla_opt.lit_config`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from xla_opt.context import make_context
from xla_opt.diagnostics import parse_source
from xla_opt.opt_main import main

BIN = Path(sys.executable).parent

PROGRAM = """\
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = xla.multiply %0, %1 : tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.custom_call %x, call_target_name = "myfunc" : (tensor<4xf32>) -> tensor<4xf32>
  %0 = xla.exponential %r : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def source(tmp_path: Path, text: str = PROGRAM) -> str:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return str(path)


ROW = re.compile(r"^\s+(\d+\.\d{4}) \(\s*(\d+\.\d)%\)  (\s*)(\S.*)$")


def test_timing_report_adds_up(tmp_path, capsys):
    """Each level of the tree sums to at most its parent; the top level plus Rest is the
    total; percentages are of the total."""
    code, _, err = run([source(tmp_path), "-p", "xla-to-llvm", "--mlir-timing"], capsys)
    assert code == 0
    total = float(re.search(r"Total Execution Time: (\d+\.\d+) seconds", err).group(1))
    rows = [(float(m[1]), float(m[2]), len(m[3]) // 2, m[4]) for m in map(ROW.match, err.splitlines()) if m]
    names = [name for _, _, depth, name in rows if depth == 0]
    assert names == ["Parser", "Verifier", "XlaToLLVM", "Output", "Rest", "Total"]
    assert rows[-1][0] == total and rows[-1][1] == 100.0
    top = [seconds for seconds, _, depth, name in rows if depth == 0 and name not in ("Rest", "Total")]
    rest = rows[-2][0]
    assert abs(sum(top) + rest - total) < 5e-4 * len(rows)
    for seconds, percent, _, _ in rows:
        # the report rounds seconds to 4 decimals and percentages to 1: the percentage
        # recomputed from the rounded figures may be off by that much (short runs: more)
        rounding = 0.05 + 100 * 5e-5 * (1 / total + seconds / total**2)
        assert abs(percent - 100 * seconds / total) <= rounding + 1e-9
    parent = next(seconds for seconds, _, depth, name in rows if name == "XlaToLLVM")
    stages = [(seconds, name) for seconds, _, depth, name in rows if depth == 1]
    assert {"ConvertXlaToLinalg", "XlaBufferize", "ConvertToLLVM"} <= {name for _, name in stages}
    assert sum(seconds for seconds, _ in stages) <= parent + 5e-4 * len(stages)


def test_statistics_match_the_printed_ir(tmp_path, capsys):
    """ops-after of the last pass is the number of ops of the output, and before minus
    erased plus created is after, for every pass."""
    code, out, err = run(
        [source(tmp_path), "-p", "xla-legalize-broadcast,cse,convert-xla-to-linalg", "--mlir-pass-statistics"],
        capsys,
    )
    assert code == 0
    stats = re.findall(
        r"^(\S+)\n\s+\(S\) (\d+) ops-before.*\n\s+\(S\) (\d+) ops-after.*\n"
        r"\s+\(S\) (\d+) ops-created.*\n\s+\(S\) (\d+) ops-erased",
        err,
        re.MULTILINE,
    )
    assert [s[0] for s in stats] == ["XlaLegalizeBroadcast", "CommonSubexpressionElimination", "ConvertXlaToLinalg"]
    for _, before, after, created, erased in stats:
        assert int(before) - int(erased) + int(created) == int(after)
    printed = parse_source(make_context(), out, "out.mlir")
    assert int(stats[-1][2]) == sum(1 for _ in printed.walk()) - 1
    # cse found the duplicated add and its broadcast
    assert int(stats[1][4]) == 2
    # one pattern application per add that broadcasts implicitly
    rewrites = dict(re.findall(r"^(\S+)\n(?:\s+\(S\).*\n)*?\s+\(S\) (\d+) rewrites", err, re.MULTILINE))
    assert rewrites["XlaLegalizeBroadcast"] == str(PROGRAM.count("broadcast_dimensions"))


def _ops(text: str) -> list[str]:
    module = parse_source(make_context(), text, "out.mlir")
    return sorted(op.name for op in module.walk())


def test_function_pipeline_matches_module_pipeline(tmp_path, capsys):
    """func.func(p) runs p on each function alone: the same ops as p on the module, the
    runtime declarations a function's lowering adds kept beside it, once."""
    path = source(tmp_path)
    passes = "xla-legalize-broadcast,convert-xla-to-linalg,canonicalize,cse"
    code, flat, _ = run([path, "-p", passes], capsys)
    assert code == 0
    code, nested, err = run([path, "--pass-pipeline", f"builtin.module(func.func({passes}))"], capsys)
    assert code == 0 and err == ""
    assert _ops(nested) == _ops(flat)
    assert len(re.findall(r"func.func private @__xla_native_\d+_myfunc", nested)) == 1


def test_pipeline_errors_are_one_line(tmp_path, capsys):
    path = source(tmp_path)
    for pipeline in ["canonicalize{", "canonicalize{max-iterations=", "a,,b", "builtin.module(", "cse}"]:
        code, out, err = run([path, "-p", pipeline], capsys)
        assert code == 1 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"xla-opt: error: invalid pass pipeline '{pipeline}'"), err


def test_mlir_form_of_a_flat_pipeline_gives_the_same_output(tmp_path, capsys):
    path = source(tmp_path)
    code, flat, _ = run([path, "-p", "xla-legalize-broadcast,cse"], capsys)
    code2, anchored, _ = run([path, "-pass-pipeline=builtin.module(xla-legalize-broadcast, cse)"], capsys)
    assert code == code2 == 0 and flat == anchored


LIT_CFG = """\
from xla_opt.lit_config import configure
configure(config, __file__)
"""

LIT_TEST = """\
// RUN: %xla-opt %s -p xla-legalize-broadcast | FileCheck %s
// RUN: %xla-opt %s -p xla-legalize-broadcast | filecheck %s
// CHECK: xla.broadcast_in_dim %v, broadcast_dimensions = [1]
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""


def _lit(directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / "lit"), "-v", str(directory)], check=False, capture_output=True, text=True, timeout=300
    )


def test_a_users_own_lit_suite(tmp_path):
    """The README's two files: lit.cfg.py calling xla_opt.lit_config.configure, and a
    test using %xla-opt and FileCheck. It passes; a wrong CHECK fails it."""
    suite = tmp_path / "my_tests"
    suite.mkdir()
    (suite / "lit.cfg.py").write_text(LIT_CFG)
    (suite / "broadcast.mlir").write_text(LIT_TEST)
    proc = _lit(suite)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS: my_tests :: broadcast.mlir" in proc.stdout
    (suite / "broadcast.mlir").write_text(LIT_TEST.replace("[1]", "[0]", 1))
    proc = _lit(suite)
    assert proc.returncode == 1 and "FAIL: my_tests :: broadcast.mlir" in proc.stdout


def test_location_file_names_are_unescaped_as_mlir_strings():
    """A debug location's file name is an MLIR string: `\\XX` byte escapes and UTF-8
    (a user's accented directory) come back intact, `\\"` as a quote (Python's
    unicode_escape garbled the UTF-8 bytes)."""
    import numpy as np
    import pytest

    import xla_opt

    program = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "nowhere"} : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)
  return %0 : tensor<2xf32>
}
#loc1 = loc("/home/jos\\C3\\A9/mod\\"el.py":7:5 to :12)
#loc2 = loc("/srv/café/run.py":3:1)
#loc3 = loc("jit(f)/sin"(callsite(#loc1 at #loc2)))
"""
    with pytest.raises(LookupError, match=r'\(/home/josé/mod"el\.py:7:5\)'):
        xla_opt.run(program, np.ones(2, np.float32))
