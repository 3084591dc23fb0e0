"""StableHLO's verifier tests (`tests/peer/stablehlo_verify/`, openxla/stablehlo
`stablehlo/tests/ops_stablehlo.mlir`, `verify_*.mlir` and the CHLO, broadcasting,
quantized and bounded-dynamism files at 3c9301c): malformed StableHLO of every kind.

Every case, accepted or not, ends in a converted program or in located one-line
diagnostics (`file:line:col: error: ...`), never an internal error. What the import
accepts that StableHLO rejects is mostly what XLA's ops do not keep (result accuracy,
precision configs, custom call layouts, composites); what it rejects that StableHLO
accepts is mostly dynamic shapes and quantized types, which XLA's operation semantics
do not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xla_opt.diagnostics import ProgramError
from xla_opt.loading import import_stablehlo

SUITE = Path(__file__).parent / "peer" / "stablehlo_verify"
LOCATED = re.compile(r"^\S+:\d+:\d+: (error|note|warning): \S")


def chunks(path: Path) -> list[tuple[str, str]]:
    return [
        (f"{path.stem}:{k}", chunk)
        for k, chunk in enumerate(re.split(r"(?m)^// -----\s*$", path.read_text()))
        if "func.func" in chunk or "stablehlo." in chunk
    ]


# file -> the open bug it shows, until it is fixed
OPEN: dict[str, str] = {}


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(reason=OPEN[p.stem])] if p.stem in OPEN else [])
        for p in sorted(SUITE.glob("*.mlir"))
    ],
)
def test_every_case_ends_in_a_program_or_located_diagnostics(path):
    internal = []
    for name, chunk in chunks(path):
        try:
            import_stablehlo(chunk, name)
        except ProgramError as e:
            bad = [line for line in str(e).splitlines() if line.strip() and not LOCATED.match(line)]
            if bad:
                internal.append(f"{name}: unlocated: {bad[0][:200]}")
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            internal.append(f"{name}: {type(e).__name__}: {str(e)[:200]}")
    assert not internal, "\n".join(internal)
