"""The README tells the truth: its op table matches the code, CI runs its test command,
the main job is its first command, and it stays a newcomer's first page. (Its tour's
commands are run as shown by tests/test_docs_commands.py.)"""

import re
from pathlib import Path

from xla_opt.docs import UPDATE_COMMAND, readme_with_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_op_table_is_current():
    assert readme_with_table(README) == README, f"run: {UPDATE_COMMAND}"


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


def test_the_main_job_command_is_the_readmes_first():
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    assert commands[0].startswith("python3 -m venv .venv && .venv/bin/pip install -q -e . && ")
    assert commands[0].endswith(".venv/bin/python -m xla_opt.main_job examples/cnn.mlir")


def test_the_readme_is_a_first_page():
    """At most ~12 KB (the op table is 3.6 of them): what it is, the two commands, a
    tour, sharded programs, the layout, links; the rest lives in docs/ and the history
    in git."""
    assert len(README.encode()) <= 12_000
    for page in re.findall(r"\]\((docs/[\w.-]+\.md|benchmarks/[\w.-]+\.md)\)", README):
        assert (ROOT / page).exists(), page
