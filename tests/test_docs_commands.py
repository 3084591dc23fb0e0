"""Every command a page of `docs/` shows runs, and shows what it prints (issue 29).

A page's fenced blocks run in order, each page in its own temporary directory: a copy
of `examples/` beside links to the repository's other top-level folders, so the pages'
relative paths work and whatever their commands write stays out of the checkout.

* ```sh blocks: each `$ command` line (a trailing `\\` continues it on the next line)
  runs in bash (`-o pipefail`), PATH starting with the venv's bin. The lines under it,
  up to the next `$` line, are what it prints (stdout and stderr together, as a
  terminal shows them); none shown means the output is not checked. A line `...`
  stands for any number of lines, and `...` inside a line for any text. The exit
  status must be 0, or not 0 when the output shown has an `error:` line. In the report
  of a timing option (`--mlir-timing`, `--time-passes`) numbers and runs of spaces
  are not compared.
* ```python blocks: run in order in one namespace per page (cwd the temporary
  directory); their asserts must hold. When the next fenced block follows a sentence
  ending in "prints:", it is what the python block prints (`...` as above).
* A block whose first line is a comment naming a file (`# examples/my_tests/lit.cfg.py`,
  `// examples/small/add.mlir`) shows that file: it must be the file's text.
* Blocks that need JAX (`import jax`, `xla_oracle`...) or MPI (`--launcher mpi`,
  `launcher="mpi"`, `mpirun`) are skipped when those are missing; the page's test then
  ends as skipped, saying which blocks did not run, after the others passed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
VENV_BIN = Path(sys.executable).parent
COMMAND_TIMEOUT = 300  # seconds; the pages' examples take a few seconds at most

NEEDS = {
    "JAX": re.compile(r"\bimport jax\b|\bjax\.|xla_oracle|test_conformance_jax|export_data_parallel_step|export_sharded_mlp"),
    "MPI": re.compile(r"--launcher[ =]mpi\b|launcher=\"mpi\"|\bmpirun\b|\bmpi4py\b"),
}
TIMING_OPTIONS = ("--mlir-timing", "--time-passes")
FILE_COMMENT = re.compile(r"^(?:#|//) ((?:examples|benchmarks|tests|lit_tests)/\S+)$")


def missing(need: str) -> str | None:
    """Why `need` (JAX or MPI) cannot be used here, or None."""
    if need == "JAX":
        return None if importlib.util.find_spec("jax") else "JAX is not installed (pip install -e '.[jax]')"
    if importlib.util.find_spec("mpi4py") is None or not (VENV_BIN / "mpirun").exists():
        return "MPI is not installed (pip install -e '.[mpi]')"
    return None


@dataclass
class Block:
    info: str  # the fence's language
    text: str  # the block's lines, dedented
    line: int  # the line of its opening fence in the page (1-based)
    before: str  # the page's text between the previous block and this one


FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)


def blocks(page: str) -> list[Block]:
    found, end = [], 0
    for m in FENCE.finditer(page):
        line = page.count("\n", 0, m.start()) + 1
        found.append(Block(m.group(2), textwrap.dedent(m.group(3)), line, page[end : m.start()]))
        end = m.end()
    return found


@dataclass
class Command:
    text: str
    expected: list[str]  # the output lines shown under it


def commands(block: str) -> list[Command]:
    """The `$ command` lines of a sh block, each with the output shown under it."""
    found: list[Command] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            assert found, f"a sh block starts with a line that is no `$ command`: {line!r}"
            found[-1].expected.append(line)
            i += 1
            continue
        text = line[2:]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text + "\n" + lines[i]
        found.append(Command(text, []))
        i += 1
    for c in found:
        while c.expected and not c.expected[-1].strip():
            c.expected.pop()
    return found


def normalize_timing(line: str) -> str:
    return re.sub(r" +", " ", re.sub(r"\d+(\.\d+)?", "#", line)).strip()


def output_pattern(expected: list[str]) -> re.Pattern:
    """`...` alone on a line: any lines; inside a line: any text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.rstrip().split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def output_matches(expected: list[str], output: str, timing: bool = False) -> bool:
    lines = [line.rstrip() for line in output.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if timing:
        expected = [line if line.strip() == "..." else normalize_timing(line) for line in expected]
        lines = [normalize_timing(line) for line in lines]
    text = "".join(line + "\n" for line in lines)
    return output_pattern(expected).fullmatch(text) is not None


def shows_an_error(expected: list[str]) -> bool:
    return any("error:" in line for line in expected)


def workspace(tmp_path: Path) -> Path:
    """A copy of examples/ beside links to the repository's other top-level entries."""
    work = tmp_path / "repo"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in (".git", ".venv") or entry.name.endswith(".egg-info"):
            continue
        if entry.name == "examples":
            shutil.copytree(entry, work / "examples", ignore=shutil.ignore_patterns("__pycache__", "Output"))
        else:
            (work / entry.name).symlink_to(entry)
    return work


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as on a terminal
    env["COLUMNS"] = "80"  # argparse's help text
    env.pop("XLA_OPT_TRACEBACK", None)
    return env


def run_sh(block: Block, cwd: Path, where: str) -> None:
    found = commands(block.text)
    assert found, f"{where}: a sh block with no `$ command` line"
    for command in found:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command.text],
            cwd=cwd,
            env=environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        report = f"{where}: $ {command.text}\n--- exit status {done.returncode}, output:\n{done.stdout}"
        if shows_an_error(command.expected) != (done.returncode != 0):
            pytest.fail(report + f"--- the page shows {'an error' if shows_an_error(command.expected) else 'success'}",
                        pytrace=False)  # fmt: skip
        timing = any(option in command.text for option in TIMING_OPTIONS)
        if command.expected and not output_matches(command.expected, done.stdout, timing):
            pytest.fail(report + "--- the page shows:\n" + "\n".join(command.expected), pytrace=False)


def run_python(block: Block, namespace: dict, cwd: Path, where: str, prints: Block | None) -> None:
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            # padded so that a traceback names the page's own lines
            code = compile("\n" * block.line + block.text, where.rpartition(":")[0], "exec", dont_inherit=True)
            exec(code, namespace)  # noqa: S102 - the page's own code
    finally:
        os.chdir(here)
    if prints is not None and not output_matches(prints.text.splitlines(), out.getvalue()):
        pytest.fail(f"{where} printed:\n{out.getvalue()}--- the page shows:\n{prints.text}", pytrace=False)


def shown_file(block: Block) -> str | None:
    first = block.text.split("\n", 1)[0]
    m = FILE_COMMENT.match(first)
    return m.group(1) if m else None


def prints_output(previous: Block, block: Block) -> bool:
    """Whether `block` shows what the python block `previous` prints."""
    return (
        previous.info == "python"
        and block.info in ("", "text", "mlir")
        and shown_file(block) is None
        and block.before.strip().endswith("prints:")
    )


def pages() -> list[Path]:
    """The pages of `docs/`, and the README (whose two install commands are not `$`
    lines: CI runs the second, `tests/test_main_job.py` the first's main job)."""
    return [*(sorted(DOCS.glob("*.md")) if DOCS.is_dir() else []), ROOT / "README.md"]


def run_page(page: Path, tmp_path: Path) -> list[str]:
    """Run every block of `page`; return the blocks skipped, each with its reason."""
    work = workspace(tmp_path)
    module = types.ModuleType(f"docs_{page.stem.replace('-', '_')}")  # a real module: dataclasses look it up
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    skipped: list[str] = []
    found = blocks(page.read_text())
    for k, block in enumerate(found):
        where = f"{page.relative_to(ROOT)}:{block.line}"
        if page.name == "README.md" and block.info == "sh" and block.text.startswith("python3 -m venv "):
            continue  # the two install commands: CI runs the second, tests/test_main_job.py the first's job
        path = shown_file(block)
        if path is not None:
            text = (ROOT / path).read_text()
            if block.text.split("\n", 1)[1] != text:
                pytest.fail(f"{where} shows {path}, which is now:\n{text}", pytrace=False)
            continue
        if k > 0 and prints_output(found[k - 1], block):
            continue  # checked with the python block
        if block.info not in ("sh", "python"):
            continue
        # what a sh block runs needs JAX or MPI, not what it prints
        runs = "\n".join(c.text for c in commands(block.text)) if block.info == "sh" else block.text
        reasons = [why for need, pattern in NEEDS.items() if pattern.search(runs) and (why := missing(need))]
        if reasons:
            skipped.append(f"{where}: {reasons[0]}")
            continue
        if block.info == "sh":
            run_sh(block, work, where)
        else:
            following = found[k + 1] if k + 1 < len(found) else None
            prints = following if following is not None and prints_output(block, following) else None
            run_python(block, namespace, work, where, prints)
    return skipped


@pytest.fixture
def _custom_calls_restored():
    """The pages register custom-call targets: drop them afterwards."""
    from xla_opt.interpreter import custom_call

    before = dict(custom_call._CUSTOM_CALLS)
    yield
    custom_call._CUSTOM_CALLS.clear()
    custom_call._CUSTOM_CALLS.update(before)


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_page_commands_run_as_shown(page, tmp_path, _custom_calls_restored):
    skipped = run_page(page, tmp_path)
    if skipped:
        pytest.skip("the other blocks ran; skipped: " + "; ".join(skipped))


# --------------------------------------------------------------------------------------
# The checker itself
# --------------------------------------------------------------------------------------


def test_output_patterns():
    assert output_matches(["a", "...", "d"], "a\nb\nc\nd\n")
    assert output_matches(["a", "...", "b"], "a\nb\n")
    assert not output_matches(["a", "b"], "a\nb\nc\n")
    assert output_matches(["Testing Time: ...s"], "Testing Time: 0.05s\n")
    assert not output_matches(["x: 1"], "x: 2\n")
    assert output_matches(["    0.0022 (  4.7%)  Parser"], "    0.0131 ( 12.1%)  Parser\n", timing=True)
    assert shows_an_error(["f.mlir:1:1: error: bad"]) and not shows_an_error(["fine"])


def test_commands_and_their_outputs():
    block = "$ xla-opt f.mlir \\\n    -p cse\nline 1\n\n$ ls\n"
    assert [(c.text, c.expected) for c in commands(block)] == [("xla-opt f.mlir \\\n    -p cse", ["line 1"]), ("ls", [])]


def test_pages_have_blocks_to_run():
    """Each hand-written page (the generated ops.md and passes.md aside) runs something."""
    for name in ("cli.md", "python-api.md", "replicas-and-mpi.md", "stablehlo.md", "fuzzing.md",
                 "adding-a-pass.md", "performance.md"):  # fmt: skip
        page = DOCS / name
        if page.exists():
            assert any(b.info in ("sh", "python") for b in blocks(page.read_text())), name
