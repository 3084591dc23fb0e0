"""benchmarks/models.py runs (issue 32, item 5): the `--quick` commands its docstring shows,
as a subprocess, print the table with every program's results matching JAX's. Its
figures are not checked: --quick times tiny programs once."""

from __future__ import annotations

import ast
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "models.py"
# the programs' names, read from the script (the test runs it as a user does, never imports it)
NAMES = set(re.findall(r'^    Program\("(\w+)"', SCRIPT.read_text(), re.MULTILINE))


def quick_commands() -> list[list[str]]:
    """The docstring's command lines that use --quick, as argument lists after the script."""
    doc = ast.get_docstring(ast.parse(SCRIPT.read_text())) or ""
    commands = []
    for line in doc.splitlines():
        if "benchmarks/models.py " not in line or "--quick" not in line:
            continue
        words = shlex.split(line, comments=True)
        if "benchmarks/models.py" in words:
            commands.append(words[words.index("benchmarks/models.py") + 1 :])
    return commands


def test_the_docstring_shows_a_quick_command():
    commands = quick_commands()
    assert commands, "models.py's docstring shows no --quick command"
    assert len(NAMES) == 8
    for args in commands:
        assert 2 <= len([a for a in args if a in NAMES]) <= 3, args


@pytest.mark.parametrize("args", quick_commands(), ids=" ".join)
def test_quick_command_prints_every_program_matching_jax(args, tmp_path):
    pytest.importorskip("jax", reason="the programs are exported by JAX")
    out = tmp_path / "models.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    names = [a for a in args if a in NAMES]
    table = done.stdout[done.stdout.index("| program |") :]
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines() if line.startswith("| ")}
    for name in names:
        assert rows[name].endswith("| ok |"), rows[name]
    assert "MISMATCH" not in done.stdout and "FAILED" not in done.stdout
    saved = json.loads(out.read_text())
    assert saved["quick"] is True
    for rows in saved["threads"].values():
        assert sorted(r["name"] for r in rows) == sorted(names)
        for r in rows:
            assert r["ok"] and r["ours"] > 0 and r["jax"] > 0, r
            assert r["compile_ours"] > 0 and r["compile_xla"] > 0, r
            assert all(r[f"fresh_{kind}_total"] > 0 for kind in ("ours_warm", "ours_empty", "xla")), r
