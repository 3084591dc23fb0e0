"""The README's op-status table, generated from the code so it cannot drift.

`python -m xla_opt.op_status` prints the table, `--update-readme` writes it into
README.md; a test checks that README.md holds exactly this table.
"""

from __future__ import annotations

from collections.abc import Callable

YES, NO = "yes", "—"


def _interpreted_ops() -> set[str]:
    try:
        from xla_opt.interpreter import interpreted_op_names
    except ImportError:
        return set()
    return interpreted_op_names()


def _lowered_ops() -> set[str]:
    try:
        from xla_opt.lowering import lowered_op_names
    except ImportError:
        return set()
    return lowered_op_names()


def rows() -> list[tuple[str, str, str, str]]:
    from xla_opt.dialects.xla import ALL_OPS

    interpreted, lowered = _interpreted_ops(), _lowered_ops()
    mark: Callable[[bool], str] = lambda b: YES if b else NO  # noqa: E731
    return [
        (op.name, YES, mark(op.name in interpreted), mark(op.name in lowered))
        for op in sorted(ALL_OPS, key=lambda o: o.name)
    ]


def markdown_table() -> str:
    lines = ["| op | parse/print/verify | interpreter | lowering to LLVM |", "|---|---|---|---|"]
    lines += [f"| `{name}` | {v} | {i} | {lo} |" for name, v, i, lo in rows()]
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- op-table:begin -->", "<!-- op-table:end -->"


def readme_with_table(readme: str) -> str:
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{markdown_table()}{END}{tail}"


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if sys.argv[1:] == ["--update-readme"]:
        readme = Path(__file__).resolve().parents[1] / "README.md"
        readme.write_text(readme_with_table(readme.read_text()))
    else:
        print(markdown_table(), end="")
