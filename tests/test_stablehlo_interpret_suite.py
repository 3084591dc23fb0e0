"""StableHLO's own interpret suite (`tests/peer/stablehlo_interpret/`, openxla/stablehlo
`stablehlo/tests/interpret` at 3c9301c) runs on both backends with the suite's expected
values (tests/peer/stablehlo_suite.py says how `check.*` ops become comparisons).

Every case runs except those XLA itself rejects or computes differently (XLA's
operation semantics is our contract, so where StableHLO's reference goes beyond it, we
follow XLA), listed with XLA's own word, and those the harness cannot express (skipped
with the reason in stablehlo_suite.py)."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from tests.peer.stablehlo_suite import cases, mismatch

# case -> what XLA (jax 0.10's CPU client) says of it
XLA_DISAGREES = {
    "bitcast_convert:0": "XLA rejects a bitcast_convert from pred ('Last dimension of input shape=64 is not equal to ratio of bit-widths=8')",
    "bitcast_convert:2": "XLA's bitcast_convert to pred gives a different shape (8,) than StableHLO's (64,)",
    "cbrt:1": "XLA rejects cbrt of complex ('Expected element type in shape to be floating for cbrt operation; got C128')",
    "reduce_precision:1": "XLA's CPU runtime keeps a NaN that reduce_precision of f64 to zero mantissa bits "
    "gets (only its constant folder gives the suite's inf); tests/test_import_gaps.py pins NaN",
    **{
        f"quantized_ops:{k}": "quantized types (quant.uniform) are not XLA's ('uniform_quantize op can't be translated to XLA HLO')"
        for k in range(5)
    },
}

# case -> the open bug it shows, until it is fixed
OPEN: dict[str, str] = {}

CASES = cases()


def _params():
    for case in CASES:
        marks = []
        if case.skip:
            marks.append(pytest.mark.skip(reason=case.skip))
        elif case.name in XLA_DISAGREES:
            marks.append(pytest.mark.skip(reason=XLA_DISAGREES[case.name]))
        elif case.name in OPEN:
            marks.append(pytest.mark.xfail(reason=OPEN[case.name]))
        yield pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("case", list(_params()))
def test_case(case, backend):
    results = xla_opt.run(case.text, entry=case.entry, backend=backend)
    failures = []
    for k, check in enumerate(case.checks):
        with np.errstate(invalid="ignore"):
            why = mismatch(check, results[2 * k], results[2 * k + 1])
        if why:
            failures.append(f"check {k} ({check.kind}): {why}")
    assert not failures, "\n".join(failures)


def test_the_suite_is_read_whole():
    """Every case the harness skips says why, and the runnable ones are nearly all."""
    runnable = [c for c in CASES if not c.skip]
    assert len(runnable) >= 470
    assert all(c.checks for c in runnable)
