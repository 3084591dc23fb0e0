"""StableHLO's interpret suite (openxla/stablehlo `stablehlo/tests/interpret`, vendored in
`tests/peer/stablehlo_interpret/` with its LICENSE) as cases our backends run.

Each file's cases are split at `// -----` as `stablehlo-translate --interpret
-split-input-file` does. A case is a function with no arguments whose `check.*` ops
state what its values must be; we turn it into a function returning each checked value
beside its expectation (the `check` op's constant, or its second operand), so a run
on any backend yields (actual, expected) pairs, compared as the check op does
(stablehlo/tests/CheckOps.cpp):

- `expect_eq[_const]`: equal elements (floats by value, so -0 == 0; NaN matches NaN);
- `expect_almost_eq[_const]`: |actual - expected| <= tolerance (1e-4 unless given),
  per part for complex; NaNs match NaNs, infinities of one sign match;
- `expect_close ... max_ulp_difference = N`: within N units in the last place.

Cases this harness cannot express are skipped with that reason: probes that write
files, `interpreter.run_parallel` (the reference interpreter's processes; our
collectives have their own tests), RUN lines checked by FileCheck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SUITE = Path(__file__).parent / "stablehlo_interpret"

_CHECK = re.compile(
    r"check\.(expect_eq_const|expect_almost_eq_const|expect_eq|expect_almost_eq|expect_close|expect_serialized_eq)\b"
)
_VALUE = re.compile(r"\s*(%[\w.$#-]+)\s*")


@dataclass
class Check:
    kind: str  # "eq", "almost_eq" or "close"
    type: str
    tolerance: float = 1e-4
    max_ulp: int = 0


@dataclass
class Case:
    name: str  # file stem : index
    text: str  # the program, checks turned into results
    entry: str
    checks: list[Check] = field(default_factory=list)
    skip: str | None = None


def _balanced(text: str, i: int) -> int:
    """The index after the `<...>` group that starts at the first `<` from i."""
    start = text.index("<", i)
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "<":
            depth += 1
        elif text[j] == ">":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError("unbalanced <>")


def _type_at(text: str, i: int) -> tuple[str, int]:
    m = re.compile(r"\s*").match(text, i)
    i = m.end()
    end = _balanced(text, i)
    return text[i:end], end


def _rewrite_check(text: str, m: re.Match) -> tuple[str, list[str], Check, int]:
    """One check op at m: (the statements replacing it, [actual, expected] value names,
    its comparison)."""
    op = m.group(1)
    i = m.end()
    actual = _VALUE.match(text, i)
    i = actual.end()
    assert text[i] == ",", text[m.start() : m.start() + 80]
    i += 1
    kind = "almost_eq" if "almost" in op else "close" if op == "expect_close" else "eq"
    if op.endswith("_const"):
        lit_start = re.compile(r"\s*").match(text, i).end()
        lit_end = _balanced(text, lit_start)
        literal = text[lit_start:lit_end]
        colon = text.index(":", lit_end)
        type_, i = _type_at(text, colon + 1)
        check = Check(kind, type_)
        tail = re.compile(r"\s*(?:,\s*|\{\s*)tolerance\s*=\s*([-+.\deE]+)(?:\s*:\s*f64\s*\})?").match(text, i)
        if tail:
            check.tolerance = float(tail.group(1))
            i = tail.end()
        expected = f"%__expected_{m.start()}"
        new = f"{expected} = stablehlo.constant {literal} : {type_}\n"
        return new, [actual.group(1), expected], check, i
    other = _VALUE.match(text, i)
    i = other.end()
    check = Check(kind, "")
    ulp = re.compile(r",\s*(?:min_ulp_difference\s*=\s*\d+\s*,\s*)?max_ulp_difference\s*=\s*(\d+)\s*").match(text, i)
    if ulp:
        check.max_ulp = int(ulp.group(1))
        i = ulp.end()
    colon = text.index(":", i)
    check.type, i = _type_at(text, colon + 1)
    second = re.compile(r"\s*,\s*").match(text, i)
    if second and text[second.end() :].startswith("tensor<"):
        _, i = _type_at(text, second.end())
    return "", [actual.group(1), other.group(1)], check, i


def make_cases(name: str, chunk: str) -> list[Case]:
    """The cases of one chunk: each function without arguments that holds checks (the
    reference interpreter runs each), all in one module whose checks are rewritten."""
    if "expect_serialized_eq" in chunk or "interpreter.probe" in chunk:
        return [Case(name, chunk, "", skip="probes write files (check.expect_serialized_eq)")]
    if "--args" in chunk or not _CHECK.search(chunk):
        return [Case(name, chunk, "", skip="no check ops (a RUN line's FileCheck or --args test)")]
    if "interpreter.run_parallel" in chunk:
        return [Case(name, chunk, "", skip="interpreter.run_parallel (processes of the reference interpreter)")]
    header_rx = re.compile(r"func\.func\s+(?:public\s+|private\s+)?@([\w.$-]+)\s*\(\s*\)\s*\{")
    return_rx = re.compile(r"^(\s*)(?:func\.)?return\s*$", re.MULTILINE)
    out, pos, found = [], 0, []
    for header in header_rx.finditer(chunk):
        if header.start() < pos:
            continue
        ret = return_rx.search(chunk, header.end())
        if ret is None or not _CHECK.search(chunk, header.end(), ret.start()):
            continue
        values, checks, types = [], [], []
        out.append(chunk[pos : header.start()])
        body, at = [], header.end()
        for m in _CHECK.finditer(chunk, header.end(), ret.start()):
            new, names, check, end = _rewrite_check(chunk, m)
            body.append(chunk[at : m.start()] + new)
            at = end
            values += names
            checks.append(check)
            types += [check.type, check.type]
        body.append(chunk[at : ret.start()])
        out.append(f"func.func @{header.group(1)}() -> ({', '.join(types)}) {{")
        out += body
        out.append(f"\n{ret.group(1)}func.return {', '.join(values)} : {', '.join(types)}\n")
        pos = ret.end() + 1
        found.append((header.group(1), checks))
    out.append(chunk[pos:])
    if not found:
        return [Case(name, chunk, "", skip="checks outside a function without arguments")]
    text = "".join(out)
    if len(found) == 1:
        return [Case(name, text, found[0][0], found[0][1])]
    return [Case(f"{name}:{entry}", text, entry, checks) for entry, checks in found]


def cases() -> list[Case]:
    found = []
    for path in sorted(SUITE.rglob("*.mlir")):
        stem = str(path.relative_to(SUITE).with_suffix(""))
        chunks = re.split(r"(?m)^// -----\s*$", path.read_text())
        for k, chunk in enumerate(chunks):
            if not re.search(r"func\.func", chunk):
                continue
            name = f"{stem}:{k}"
            try:
                found += make_cases(name, chunk)
            except (ValueError, AssertionError, AttributeError) as e:
                found.append(Case(name, chunk, "", skip=f"harness cannot read its checks: {e}"))
    return found


# ---- comparison, as stablehlo/tests/CheckOps.cpp -------------------------------------


def _as_float_parts(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return np.stack([a.real, a.imag], -1).astype(np.float64)
    return a.astype(np.float64)


def mismatch(check: Check, actual, expected) -> str | None:
    """Why `actual` fails the check against `expected`, or None."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != {expected.shape}"
    if actual.dtype.kind in "biu" or actual.dtype == np.bool_:
        bad = actual != expected
    elif check.kind == "close":
        bits = {2: np.int16, 4: np.int32, 8: np.int64}[actual.dtype.itemsize]
        a, e = actual.view(bits).astype(np.int64), expected.view(bits).astype(np.int64)
        bad = np.abs(a - e) > check.max_ulp
    else:
        a, e = _as_float_parts(actual), _as_float_parts(expected)
        both_nan = np.isnan(a) & np.isnan(e)
        if check.kind == "eq":
            bad = ~((a == e) | both_nan)
        else:
            same_inf = np.isinf(a) & (a == e)
            bad = ~(both_nan | same_inf | (np.abs(a - e) <= check.tolerance))
        if np.iscomplexobj(actual):
            bad = bad.any(-1)
    if not np.any(bad):
        return None
    k = tuple(np.argwhere(bad)[0])
    return (
        f"at {list(k)}: {actual[k]!r} (actual) vs {expected[k]!r} (expected), {int(np.sum(bad))} of {bad.size} differ"
    )
