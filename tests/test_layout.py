"""The house rules of the source tree (issue 29), so a newcomer finds a pass where its
name says and its tests where its module is:

* every pass of ours is one module (or package) named after the pass
  (`convert-scf-while-to-cf` -> `convert_scf_while_to_cf.py`);
* it lives in `passes/conversions/` or `passes/transforms/` (xla in, xla or StableHLO
  out), or `lowering/conversions/` or `lowering/transforms/` (out of xla, and the
  levels below); `xla-to-llvm`, the pipeline, is `lowering/xla_to_llvm.py`;
* every module directly in those four folders is a pass (helpers go in a pass's own
  package or in `lowering/utils/`);
* its lit tests are `lit_tests/<that folder>/<pass-name>*.mlir`, and it has some.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from xla_opt.universe import PASSES

ROOT = Path(__file__).resolve().parents[1]
PASS_FOLDERS = ("passes/conversions", "passes/transforms", "lowering/conversions", "lowering/transforms")
PIPELINE_FOLDER = "lowering"  # xla-to-llvm alone


def source_folder(module: str) -> tuple[str, str]:
    """(the folder of a module of ours, relative to the repository, its file stem)."""
    path = Path(importlib.import_module(module).__file__).resolve()
    if path.name == "__init__.py":
        path = path.parent
    return str(path.parent.relative_to(ROOT)), path.stem


@pytest.mark.parametrize("name", sorted(PASSES))
def test_a_pass_module_carries_the_pass_name(name):
    module, _, cls = PASSES[name].partition(":")
    folder, stem = source_folder(module)
    assert stem == name.replace("-", "_"), f"{name} lives in {module}"
    assert folder in (*PASS_FOLDERS, PIPELINE_FOLDER), f"{name} lives in {folder}/, not in a pass folder"
    assert folder != PIPELINE_FOLDER or name == "xla-to-llvm"
    assert getattr(importlib.import_module(module), cls).name == name


def test_every_module_of_a_pass_folder_is_a_pass():
    passes = {name.replace("-", "_") for name in PASSES}
    for folder in PASS_FOLDERS:
        for path in (ROOT / folder).iterdir():
            if path.name == "__init__.py" or path.name.startswith(("_", ".")) or path.suffix not in (".py", ""):
                continue
            assert path.stem in passes, f"{folder}/{path.name} is not a pass: put helpers in lowering/utils/ or in a pass's package"


def pass_lit_tests() -> list[Path]:
    return sorted(
        p for top in ("passes", "lowering") for p in (ROOT / "lit_tests" / top).rglob("*.mlir") if "Output" not in p.parts
    )


def test_lit_tests_mirror_the_pass_modules():
    """A test is named after the pass it tests and sits in that pass's folder."""
    folder_of = {name: source_folder(path.partition(":")[0])[0] for name, path in PASSES.items()}
    for test in pass_lit_tests():
        folder = str(test.parent.relative_to(ROOT / "lit_tests"))
        # the longest pass name the test's name starts with (convert-xla-to-linalg-... is
        # convert-xla-to-linalg's, not convert-xla's)
        names = [n for n in PASSES if test.stem == n or test.stem.startswith(n + "-")]
        assert names, f"lit_tests/{folder}/{test.name} is named after no pass"
        name = max(names, key=len)
        assert folder_of[name] == folder, f"lit_tests/{folder}/{test.name} tests {name}, which lives in {folder_of[name]}/"


def test_every_pass_has_lit_tests():
    tested = {n for test in pass_lit_tests() for n in PASSES if test.stem == n or test.stem.startswith(n + "-")}
    assert set(PASSES) <= tested, sorted(set(PASSES) - tested)
