"""Imports among xla_opt's modules form no cycle (issues 9 and 29): a cycle makes import
order matter and hides layering mistakes. Every import counts, those inside functions
too (lazy imports, to keep start-up fast, are still a dependency: a lazy import that
closes a cycle is a hidden one); only those under `if TYPE_CHECKING:` do not, since
they never run. And the layers lean one way: the lowering, the passes and the dialects
never import the runtime (`xla_opt/runtime/`)."""

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


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that `name` imports, when it is imported or in any of its
    functions."""
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
            elif isinstance(node, ast.If) and _is_type_checking(node):
                visit(node.orelse)  # the TYPE_CHECKING branch never runs
            else:
                for field in ("body", "orelse", "handlers", "finalbody", "cases"):
                    children = getattr(node, field, None)
                    if isinstance(children, list):
                        visit([c for c in children if isinstance(c, ast.AST)])

    visit(ast.parse(path.read_text()).body)
    return found


def import_cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    modules = our_modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
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
    (tmp_path / "b.py").write_text("import xla_opt.a\n")
    (tmp_path / "c.py").write_text("from . import d\n")
    (tmp_path / "d.py").write_text("class D:\n    def f(self):\n        try:\n            from xla_opt import c\n        except ImportError:\n            pass\n")
    (tmp_path / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from xla_opt import a\n")
    (tmp_path / "__init__.py").write_text("")
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "PACKAGE_DIRS", {"xla_opt": tmp_path})
    # a lazy import in a method, in a try block, closes c <-> d; TYPE_CHECKING does not count
    assert import_cycles() == [["xla_opt.a", "xla_opt.b"], ["xla_opt.c", "xla_opt.d"]]


def test_no_import_cycle_of_any_kind():
    cycles = import_cycles()
    if cycles:
        pytest.fail("import cycles (in-function imports count):\n" + "\n".join(" <-> ".join(c) for c in cycles))


# Layers that never import the runtime: compile-time code cannot depend on what runs
# the program (a live MPI world, compiled libraries, the process's thread count).
COMPILE_TIME = ("xla_opt.lowering", "xla_opt.passes", "xla_opt.dialects")


def test_the_lowering_never_imports_the_runtime():
    modules = our_modules()
    wrong = sorted(
        f"{name} imports {target}"
        for name, path in modules.items()
        if name.startswith(COMPILE_TIME)
        for target in imports_of(name, path, modules)
        if target == "xla_opt.runtime" or target.startswith("xla_opt.runtime.")
    )
    assert not wrong, "\n".join(wrong)
