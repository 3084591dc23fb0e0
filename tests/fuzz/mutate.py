"""A mutation fuzzer: valid programs, textually mutated.

The corpus: every function of lit_tests/dialect/*_roundtrip.mlir (files split on
`// -----`, RUN/CHECK comment lines dropped, each function with the functions it
calls), examples/*.mlir and generated programs. A mutant is one corpus program with one
to three mutations: a dimension size changed in a type, an integer attribute or
literal changed, an element type swapped, a comparison enum changed, a line deleted or
duplicated, two operands swapped, an op renamed to another op, the text truncated.

    mutant = make_mutant(seed)       # deterministic in `seed`
    mutant.text, mutant.origin, mutant.mutations
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.fuzz.program_gen import ELEMENTS, generate_program

ROOT = Path(__file__).resolve().parents[2]
SPLIT_MARKER = "// -----"
GENERATED_SHARE = 0.3  # of mutants made from generated programs


@dataclass(frozen=True)
class Mutant:
    seed: int
    origin: str
    mutations: tuple[str, ...]
    text: str


def _functions(text: str) -> list[tuple[str, str]]:
    """(name, text) of each top-level function of a chunk: from its `func.func` line to
    the closing `}` in column 0 (a declaration is one line)."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"func\.func\s+(?:private\s+|public\s+)?@([\w.$]+)", lines[i])
        if not m:
            i += 1
            continue
        j = i
        if lines[i].rstrip().endswith("{"):
            while j < len(lines) and lines[j].rstrip() != "}":
                j += 1
        out.append((m.group(1), "\n".join(lines[i : j + 1]) + "\n"))
        i = j + 1
    return out


def _without_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")) + "\n"


# The lit files whose functions seed the mutants: every op's round trip, the narrow float
# formats, and the inputs of the lowering tests of each op family (the newer ops' many
# variants: convolutions, windows, sorts, FFTs, collectives...).
CORPUS_GLOBS = (
    "lit_tests/dialect/*_roundtrip.mlir",
    "lit_tests/dialect/narrow_float_formats.mlir",
    "lit_tests/lowering/conversions/convert-xla-to-linalg-*.mlir",
)


def corpus_files() -> list[Path]:
    return sorted({path for pattern in CORPUS_GLOBS for path in ROOT.glob(pattern)})


@cache
def corpus() -> tuple[tuple[str, str], ...]:
    """(origin, text) of the fixed corpus: lit round-trip functions (with their
    callees) and the examples."""
    entries = []
    for path in corpus_files():
        for k, chunk in enumerate(path.read_text().split(SPLIT_MARKER)):
            functions = _functions(_without_comments(chunk))
            by_name = dict(functions)
            for name, body in functions:
                if "{" not in body.splitlines()[0]:
                    continue  # a declaration: it comes with its callers
                callees = [c for c in dict.fromkeys(re.findall(r"@([\w.$]+)", body)) if c != name and c in by_name]
                text = "".join(by_name[c] for c in callees) + body
                entries.append((f"{path.relative_to(ROOT)}#{k}:@{name}", text))
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        entries.append((str(path.relative_to(ROOT)), _without_comments(path.read_text())))
    return tuple(entries)


# --------------------------------------------------------------------------------------
# Mutations: each takes (rng, text) and returns (new text, description) or None
# --------------------------------------------------------------------------------------

TENSOR_DIMS = re.compile(r"tensor<((?:\d+x)*)")
ELEMENT_IN_TYPE = re.compile(
    r"(?<=[<x])(" + "|".join(re.escape(e) for e in sorted(ELEMENTS, key=len, reverse=True)) + r")(?=>)"
)
# an integer after `= `, `[`, `, ` or `<` that is not part of a name or a type's shape
INTEGER = re.compile(r"(?<=[=\[,<(] )-?\d+\b(?!x)|(?<=[\[<(])-?\d+\b(?!x)")
ENUMS = {
    "comparison_direction": ["EQ", "NE", "GE", "GT", "LE", "LT"],
    "compare_type": ["FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"],
}


def _replace_span(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def mutate_dimension(rng: random.Random, text: str):
    matches = [m for m in TENSOR_DIMS.finditer(text) if m.group(1)]
    if not matches:
        return None
    m = rng.choice(matches)
    dims = m.group(1).split("x")[:-1]
    i = rng.randrange(len(dims))
    how = rng.choice(["resize", "resize", "drop", "add"])
    if how == "drop":
        del dims[i]
    elif how == "add":
        dims.insert(i, str(rng.choice([1, 2, 3])))
    else:
        old = int(dims[i])
        dims[i] = str(rng.choice([0, 1, old + 1, max(old - 1, 0), 2 * old, 7]))
    new = "tensor<" + "".join(d + "x" for d in dims)
    return _replace_span(text, m.start(), m.end(), new), f"dimension: {m.group(0)} -> {new}"


def mutate_dimension_everywhere(rng: random.Random, text: str):
    """One size changed in every type (programs of element-wise ops stay valid)."""
    sizes = sorted({int(d) for m in TENSOR_DIMS.finditer(text) for d in m.group(1).split("x")[:-1]})
    if not sizes:
        return None
    old = rng.choice(sizes)
    new = rng.choice([v for v in (0, 1, old + 1, max(old - 1, 1), 2 * old, 9) if v != old] or [old + 1])

    def resize(m: re.Match) -> str:
        dims = [str(new) if d == str(old) else d for d in m.group(1).split("x")[:-1]]
        return "tensor<" + "".join(d + "x" for d in dims)

    return TENSOR_DIMS.sub(resize, text), f"dimension {old} -> {new} in every type"


def mutate_integer(rng: random.Random, text: str):
    matches = list(INTEGER.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    old = int(m.group(0))
    new = rng.choice([0, 1, -1, old + 1, old - 1, 2 * old, -old, 3, 64])
    if new == old:
        new = old + 1
    line = text.count("\n", 0, m.start()) + 1
    return _replace_span(text, m.start(), m.end(), str(new)), f"integer on line {line}: {old} -> {new}"


def mutate_element_type(rng: random.Random, text: str):
    matches = list(ELEMENT_IN_TYPE.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    new = rng.choice([e for e in ELEMENTS if e != m.group(0)])
    if rng.random() < 0.5:  # every occurrence on that line
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        line = ELEMENT_IN_TYPE.sub(lambda x: new if x.group(0) == m.group(0) else x.group(0), text[start:end])
        return text[:start] + line + text[end:], f"element type {m.group(0)} -> {new} on a whole line"
    return _replace_span(text, m.start(), m.end(), new), f"element type {m.group(0)} -> {new}"


def mutate_element_type_everywhere(rng: random.Random, text: str):
    """One element type replaced by another in every type."""
    found = sorted({m.group(0) for m in ELEMENT_IN_TYPE.finditer(text)})
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice([e for e in ELEMENTS if e != old])
    return ELEMENT_IN_TYPE.sub(
        lambda m: new if m.group(0) == old else m.group(0), text
    ), f"element type {old} -> {new} everywhere"


FLOAT_LITERAL = re.compile(r"(?<=[<\[ ])-?\d+\.\d*(?:e[-+]?\d+)?(?=[\],>])")


def mutate_float_literal(rng: random.Random, text: str):
    matches = list(FLOAT_LITERAL.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    new = rng.choice(["0.0", "-0.0", "1.0e+30", "-2.5", "0x7FC00000", "1.0e-40", "65504.0", "3.0"])
    return _replace_span(text, m.start(), m.end(), new), f"float literal {m.group(0)} -> {new}"


def mutate_enum(rng: random.Random, text: str):
    matches = [(m, values) for key, values in ENUMS.items() for m in re.finditer(rf"{key} = (\w+)", text)]
    if not matches:
        return None
    m, values = rng.choice(matches)
    new = rng.choice([v for v in values if v != m.group(1)])
    return _replace_span(text, m.start(1), m.end(1), new), f"{m.group(0)} -> {new}"


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def mutate_delete_line(rng: random.Random, text: str):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return "".join(lines[:i] + lines[i + 1 :]), f"deleted line {i + 1}: {lines[i].strip()[:60]}"


def mutate_duplicate_line(rng: random.Random, text: str):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return "".join(lines[: i + 1] + lines[i:]), f"duplicated line {i + 1}: {lines[i].strip()[:60]}"


def mutate_swap_operands(rng: random.Random, text: str):
    lines = _lines(text)
    candidates = [
        i
        for i, line in enumerate(lines)
        if "=" in line and len(set(re.findall(r"%[\w#]+", line.split("=", 1)[1]))) >= 2
    ]
    if not candidates:
        return None
    i = rng.choice(candidates)
    lhs, eq, rhs = lines[i].partition("=")
    names = list(dict.fromkeys(re.findall(r"%[\w#]+", rhs)))
    a, b = rng.sample(names, 2)
    rhs = re.sub(rf"{re.escape(a)}\b|{re.escape(b)}\b", lambda m: b if m.group(0) == a else a, rhs)
    lines[i] = lhs + eq + rhs
    return "".join(lines), f"swapped {a} and {b} on line {i + 1}"


@cache
def op_names() -> tuple[str, ...]:
    from xla_opt.dialects.xla import ALL_OPS

    return tuple(sorted(op.name for op in ALL_OPS))


@cache
def op_families() -> tuple[frozenset[str], ...]:
    """Ops that take the same operands (a rename within one often stays valid)."""
    from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS

    return frozenset(op.name for op in UNARY_OPS), frozenset(op.name for op in BINARY_OPS)


def mutate_rename_op(rng: random.Random, text: str):
    """An op renamed to another of its family (half the time) or to any op."""
    matches = list(re.finditer(r"(?<![\w.])xla\.(\w+)", text))
    if not matches:
        return None
    m = rng.choice(matches)
    family = next((f for f in op_families() if m.group(0) in f), None)
    pool = family if family and rng.random() < 0.5 else op_names()
    new = rng.choice(sorted(n for n in pool if n != m.group(0)) or [m.group(0)])
    return _replace_span(text, m.start(), m.end(), new), f"renamed {m.group(0)} -> {new}"


def mutate_truncate(rng: random.Random, text: str):
    cut = rng.randrange(len(text))
    return text[:cut], f"truncated at offset {cut} of {len(text)}"


MUTATIONS: tuple[tuple[Callable, int], ...] = (
    (mutate_dimension, 4), (mutate_dimension_everywhere, 3), (mutate_integer, 5), (mutate_element_type, 3),
    (mutate_element_type_everywhere, 3), (mutate_float_literal, 2), (mutate_enum, 1), (mutate_delete_line, 2),
    (mutate_duplicate_line, 1), (mutate_swap_operands, 2), (mutate_rename_op, 4), (mutate_truncate, 1),
)  # fmt: skip


def mutate(rng: random.Random, text: str) -> tuple[str, list[str]]:
    """One to three random mutations of `text`."""
    applied = []
    functions, weights = zip(*MUTATIONS)
    for _ in range(rng.choices([1, 2, 3], [5, 3, 1])[0]):
        for _attempt in range(10 if text else 0):  # (nothing left to mutate after truncating at 0)
            out = rng.choices(functions, weights)[0](rng, text)
            if out is not None and out[0] != text:
                text, description = out
                applied.append(description)
                break
    return text, applied


def make_mutant(seed: int) -> Mutant:
    """The mutant of `seed` (deterministic)."""
    rng = random.Random(seed)
    if rng.random() < GENERATED_SHARE:
        program_seed = rng.randrange(1 << 20)
        origin, text = (f"generated program seed {program_seed}", generate_program(program_seed, max_ops=6).text)
    else:
        origin, text = rng.choice(corpus())
    text, applied = mutate(rng, text)
    return Mutant(seed, origin, tuple(applied), text)
