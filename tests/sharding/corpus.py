"""Reading the corpus of sharded JAX programs (`tests/sharding/programs/`, made by
`export.py`). Needs numpy only, never JAX.

    from tests.sharding.corpus import programs

    for case in programs():                       # every program at every device count
        text = case.path.read_text()              # Shardy StableHLO, mhlo.num_partitions = case.devices
        args, want = case.inputs(), case.expected()   # global arrays, JAX's global results
        if case.gspmd_path is not None: ...       # the same program exported for GSPMD

Compare floats with a tolerance (`case.integer` programs exactly): JAX's results are
those of its partitioned program on CPU devices.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"
INDEX = PROGRAMS_DIR / "index.json"


@dataclass(frozen=True)
class Case:
    """One program at one device count."""

    name: str  # the program, e.g. "megatron_mlp"
    devices: int  # N: mhlo.num_partitions, the number of devices of the mesh
    path: Path  # the Shardy export (`sdy.mesh`, `#sdy.sharding` attributes)
    gspmd_path: Path | None  # the GSPMD export (`mhlo.sharding` strings), for some programs
    data: Path  # the .npz: in0, in1, ... and out0, out1, ...
    integer: bool  # integer inputs and results only: compare exactly
    description: str
    mesh: tuple[tuple[str, int], ...]  # ((axis name, size), ...), as in `sdy.mesh`
    in_shardings: tuple[str, ...]  # the jax PartitionSpecs, as text (for people)
    out_shardings: tuple[str, ...]
    input_types: tuple[tuple[tuple[int, ...], str], ...]  # ((shape, dtype name), ...)
    output_types: tuple[tuple[tuple[int, ...], str], ...]
    _arrays: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def id(self) -> str:
        """`<name>_<N>dev`, the files' stem."""
        return f"{self.name}_{self.devices}dev"

    def _load(self) -> dict[str, np.ndarray]:
        if not self._arrays:
            with np.load(self.data, allow_pickle=False) as z:
                self._arrays.update({k: z[k] for k in z.files})
        return self._arrays

    def _series(self, prefix: str) -> list[np.ndarray]:
        arrays = self._load()
        n = sum(1 for k in arrays if k.startswith(prefix) and k[len(prefix) :].isdigit())
        return [arrays[f"{prefix}{i}"].copy() for i in range(n)]

    def inputs(self) -> list[np.ndarray]:
        """The global inputs, in the order of @main's arguments."""
        return self._series("in")

    def expected(self) -> list[np.ndarray]:
        """JAX's global results, in the order of @main's results."""
        return self._series("out")


@cache
def _index() -> dict:
    return json.loads(INDEX.read_text())


def jax_version() -> str:
    """The JAX version that exported the corpus."""
    return _index()["jax_version"]


def programs() -> list[Case]:
    """Every case, in the order of export.py's table, 2 devices before 4."""
    out = []
    for c in _index()["cases"]:
        gspmd = c["gspmd_path"]
        out.append(Case(
            name=c["name"], devices=c["devices"], path=PROGRAMS_DIR / c["path"],
            gspmd_path=PROGRAMS_DIR / gspmd if gspmd else None, data=PROGRAMS_DIR / c["data"],
            integer=c["integer"], description=c["description"],
            mesh=tuple((a, s) for a, s in c["mesh"]),
            in_shardings=tuple(c["in_shardings"]), out_shardings=tuple(c["out_shardings"]),
            input_types=tuple((tuple(s), d) for s, d in c["inputs"]),
            output_types=tuple((tuple(s), d) for s, d in c["outputs"]),
        ))  # fmt: skip
    return out


def case(name: str, devices: int) -> Case:
    """One case by program name and device count."""
    for c in programs():
        if (c.name, c.devices) == (name, devices):
            return c
    raise KeyError(f"no program {name!r} for {devices} devices in {INDEX}")


# JAX's results are those of its partitioned program on CPU: another correct evaluation
# (our interpreter on the global program, a partitioned run) differs by rounding.
RTOL, ATOL = 1e-5, 1e-5


def assert_results(case: Case, got, what: str = "result") -> None:
    """`got` (a sequence of arrays) equals `case.expected()`: the same count, shapes and
    dtypes; integers and booleans exactly, floats to RTOL and ATOL."""
    want = case.expected()
    got = [np.asarray(g) for g in got]
    assert len(got) == len(want), f"{case.id}: {len(got)} {what}s, JAX has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        label = f"{case.id}: {what} #{i}"
        assert g.shape == w.shape, f"{label}: shape {g.shape}, JAX {w.shape}"
        assert g.dtype == w.dtype, f"{label}: dtype {g.dtype}, JAX {w.dtype}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=label)
        else:
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=label)
