"""One registry (xDSL's Universe plugin mechanism) and one set of xDSL patches,
installed explicitly: every entry point parses the same text the same way (issue 9)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

BIN = Path(sys.executable).parent

# A location alias used before its definition, as MLIR prints them: `xla-opt` rejected
# it ("undefined symbol alias '#loc1'") while the API, which happened to import the
# StableHLO dialect first, accepted it.
FORWARD_LOC_ALIAS = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.add %a, %a : tensor<2xf32> loc(#loc1)
  func.return %0 : tensor<2xf32>
}
#loc1 = loc("x.py":3:4)
"""


def run_tool(*args: str) -> subprocess.CompletedProcess:
    """A console script in a fresh process: nothing imported beforehand."""
    env = {k: v for k, v in os.environ.items() if k != "XLA_OPT_TRACEBACK"}
    return subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True, timeout=120, env=env)


def test_forward_location_alias_parses_in_xla_opt(tmp_path):
    path = tmp_path / "alias.mlir"
    path.write_text(FORWARD_LOC_ALIAS)
    done = run_tool("xla-opt", str(path))
    assert done.returncode == 0, done.stderr
    assert "xla.add %a, %a : tensor<2xf32>" in done.stdout


def test_forward_location_alias_parses_in_xla_run(tmp_path):
    path = tmp_path / "alias.mlir"
    path.write_text(FORWARD_LOC_ALIAS)
    np.save(tmp_path / "a.npy", np.array([1.5, -2.0], np.float32))
    done = run_tool("xla-run", str(path), "--input", str(tmp_path / "a.npy"))
    assert done.returncode == 0, done.stderr
    assert "3., -4." in done.stdout


def test_forward_location_alias_parses_in_a_fresh_api_process():
    script = (
        "import numpy as np, xla_opt\n"
        f"(r,) = xla_opt.run({FORWARD_LOC_ALIAS!r}, np.array([1.5, -2.0], np.float32))\n"
        "print(r.tolist())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3.0, -4.0]"


def test_plain_xdsl_opt_sees_our_dialects_and_passes(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(
        "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = xla.add %a, %a : tensor<2xf32>\n  func.return %0 : tensor<2xf32>\n}\n"
    )
    done = run_tool("xdsl-opt", str(path), "-p", "convert-xla-to-linalg")
    assert done.returncode == 0, done.stderr
    assert "linalg.generic" in done.stdout and "arith.addf" in done.stdout


def test_the_registry_lists_every_pass_of_the_pipeline():
    from xla_opt.context import multiverse
    from xla_opt.lowering.xla_to_llvm import STAGES
    from xla_opt.universe import PASSES

    passes = multiverse().all_passes
    assert set(PASSES) <= set(passes)
    assert set(STAGES) <= set(passes)


def test_registering_dialects_imports_no_lowering():
    """Dialect registration (a context, parsing) must not import the LLVM lowering."""
    script = (
        "import sys\n"
        "from xla_opt.context import make_context\n"
        "from xla_opt.diagnostics import parse_source\n"
        "parse_source(make_context(), 'func.func @f(%a: tensor<f32>) -> tensor<f32> {\\n"
        "  %0 = xla.negate %a : tensor<f32>\\n  func.return %0 : tensor<f32>\\n}\\n', 'f')\n"
        "print(sorted(m for m in sys.modules if m.startswith('xla_opt.lowering')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
