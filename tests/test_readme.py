"""The README tells the truth: its op table matches the code, CI runs its test command."""

import re
from pathlib import Path

from xla_opt.op_status import readme_with_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_op_table_is_current():
    assert readme_with_table(README) == README, "run: python -m xla_opt.op_status --update-readme"


def test_ci_runs_the_readme_test_command():
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert len(commands) >= 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1].strip() in ci


def test_every_op_of_the_checklist_is_in_the_table():
    checklist = (ROOT.parent / "shared" / "spec" / "OPS.md")
    if not checklist.exists():
        import pytest

        pytest.skip("shared/spec/OPS.md is not beside the repository")
    names = set(re.findall(r"`(xla\.[a-z_]+)`", checklist.read_text()))
    table = set(re.findall(r"^\| `(xla\.[a-z_]+)` \|", README, re.M))
    assert names <= table, sorted(names - table)
