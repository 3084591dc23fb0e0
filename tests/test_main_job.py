"""The README's main job runs its examples end to end: every stage verifies, the
native code agrees with the interpreter (exit status 0); a step that fails is one
line, never a traceback; agreement is judged relative to the result's magnitude."""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_opt import main_job

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"


@pytest.mark.parametrize("example", ["cnn.mlir", "mlp.mlir", "softmax.mlir"])
def test_main_job(example, capsys):
    assert main_job.main([str(EXAMPLES / example)]) == 0
    out = capsys.readouterr().out
    assert "DISAGREE" not in out and "agree" in out


CUSTOM_CALL = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.custom_call %x, call_target_name = "no_such_target" : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def test_a_step_that_cannot_run_is_one_line(tmp_path, capsys):
    """A custom call with no registered target: the interpreter and the JIT each say
    so in one located line; the lowering in between is still shown; exit status 1."""
    path = tmp_path / "custom_call.mlir"
    path.write_text(CUSTOM_CALL)
    assert main_job.main([str(path)]) == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.out.splitlines() if "error:" in line]
    assert len(errors) == 2, captured.out
    for line in errors:
        assert line.startswith(f"   error: LookupError: xla.custom_call ({path}:2:3)"), line
        assert "no_such_target" in line
    assert "Traceback" not in captured.out + captured.err
    assert "LLVM IR" in captured.out  # the lowering ran between the two failures


def test_a_program_error_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.mlir"
    path.write_text(CUSTOM_CALL.replace("-> tensor<4xf32>\n  func", "-> tensor<5xf32>\n  func"))
    assert main_job.main([str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (
        f"   {path}:3:15: error: operand is used with type tensor<4xf32>, but has been previously used or defined "
        "with type tensor<5xf32>"
    )


def test_agreement_is_relative_to_the_results_magnitude():
    """Outputs near 200 off by 2e-5 of their magnitude agree (an absolute tolerance
    called this a disagreement); an element that cancels is judged against the
    result's magnitude; real differences, NaNs in other places and integers do not."""
    rng = np.random.default_rng(0)
    e = (200 + rng.standard_normal(1000)).astype(np.float32)
    assert main_job.agreement(e * np.float32(1 + 2e-5), e)[0]
    assert not np.allclose(e * np.float32(1 + 2e-5), e, rtol=1e-5, atol=1e-6 * 200)  # the old rule
    assert not main_job.agreement(e * np.float32(1.01), e)[0]
    cancelled = e.copy()
    cancelled[0] = 0.13
    nearby = cancelled.copy()
    nearby[0] += 0.005  # 4% of the element, 2.5e-5 of the largest
    assert main_job.agreement(nearby, cancelled)[0]
    with_nan = e.copy()
    with_nan[3] = np.nan
    assert main_job.agreement(with_nan, with_nan.copy())[0]
    assert not main_job.agreement(with_nan, e)[0]
    ints = np.arange(5, dtype=np.int32)
    assert main_job.agreement(ints, ints.copy()) == (True, "identical")
    assert not main_job.agreement(ints + 1, ints)[0]
    bf16 = e.astype(ml_dtypes.bfloat16)
    assert main_job.agreement((e * 1.004).astype(ml_dtypes.bfloat16), bf16)[0]
    ok, text = main_job.agreement(e * np.float32(1.01), e)
    assert not ok and "DISAGREE" in text and "\n" not in text


def test_transformer_block_agrees(tmp_path, capsys):
    """A JAX transformer block (layer norms, attention, GELU MLP) with seeded normal
    inputs: outputs in the hundreds, where the old absolute rule saw a disagreement."""
    jax = pytest.importorskip("jax", reason="JAX exports the transformer block")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    block, args = bench._transformer_block(jax, jax.numpy, np.random.default_rng(0), seq=32, d=128, heads=4, ff=256)
    path = tmp_path / "transformer_block.mlir"
    path.write_text(jax.jit(block).lower(*args).as_text())
    assert main_job.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "(agree: tolerance 0.0001 for float32)" in out
