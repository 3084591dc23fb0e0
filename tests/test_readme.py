"""The README tells the truth: its op table matches the code, CI runs its test command."""

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


def readme_section(title: str) -> str:
    """The README's text under the heading `title`, up to the next heading."""
    start = README.index(f"\n{title}\n")
    end = re.compile(r"^#{2,3} ", re.MULTILINE).search(README, start + len(title) + 2)
    return README[start : end.start() if end else len(README)]


def test_python_builder_section_runs():
    """The builder's worked example (the spec's broadcasting example) runs as written,
    on both backends, and prints the module the README shows."""
    import textwrap

    section = readme_section("### Python builder")
    fenced = re.findall(r"^( *)```python\n(.*?)^\1```", section, re.DOTALL | re.MULTILINE)
    blocks = [textwrap.dedent(code) for _indent, code in fenced]
    assert len(blocks) == 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    (printed,) = re.findall(r"```mlir\n(.*?)```", section, re.DOTALL)
    assert str(namespace["module"]) + "\n" == printed
    assert {op.dialect_name() for op in namespace["lowered"].walk()} <= {"builtin", "llvm"}
