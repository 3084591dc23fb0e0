"""The README's main job runs its examples end to end: every stage verifies, the
native code agrees with the interpreter (exit status 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_opt import main_job

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("example", ["cnn.mlir", "mlp.mlir", "softmax.mlir"])
def test_main_job(example, capsys):
    assert main_job.main([str(EXAMPLES / example)]) == 0
    out = capsys.readouterr().out
    assert "DISAGREE" not in out and "agree" in out
