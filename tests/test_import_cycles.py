"""Module-level imports among xla_opt's modules form no cycle (issue 9): a cycle makes
import order matter and hides layering mistakes. Imports inside functions (lazy
imports, to keep start-up fast) and under `if TYPE_CHECKING:` do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# import name prefix -> source folder (pyproject.toml's package-dir)
PACKAGE_DIRS = {
    "xla_opt.dialects": ROOT / "dialects",
    "xla_opt.passes": ROOT / "passes",
    "xla_opt.lowering": ROOT / "lowering",
    "xla_opt": ROOT / "xla_opt",
}


def our_modules() -> dict[str, Path]:
    modules = {}
    for prefix, folder in PACKAGE_DIRS.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([prefix, *parts])
            modules.setdefault(name, path)
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that `name` imports when it is imported."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        if target in modules and target != name:
            found.add(target)

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            # Importing a.b.c runs a and a.b first, but a package's own submodules
            # importing each other through it is not an edge to the package: only the
            # module named, or the package when a name is taken from it.
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    add(submodule if submodule in modules else target)
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(ast.parse(path.read_text()).body)
    return found


def import_cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    modules = our_modules()
    graph = {name: module_level_imports(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return cycles


def test_the_checker_sees_a_cycle(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("from xla_opt import b\n")
    (tmp_path / "b.py").write_text("import xla_opt.a\ndef f():\n    import xla_opt.c\n")
    (tmp_path / "c.py").write_text("from . import a\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE_DIRS", {"xla_opt": tmp_path})
    assert import_cycles() == [["xla_opt.a", "xla_opt.b"]]


# Cycles tolerated for now (none: keep it that way).
KNOWN_CYCLES: list[list[str]] = []


def test_no_module_level_import_cycle():
    cycles = [c for c in import_cycles() if c not in KNOWN_CYCLES]
    if cycles:
        pytest.fail("module-level import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles))
