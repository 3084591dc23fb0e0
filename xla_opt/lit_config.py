"""lit configuration for FileCheck test suites of xla-opt programs: ours
(`lit_tests/lit.cfg.py`) and a user's own, which needs two lines:

    # my_tests/lit.cfg.py
    from xla_opt.lit_config import configure
    configure(config, __file__)

Tests are `.mlir` files with `// RUN:` lines run by lit's shell. The tools are found
whichever shell runs lit (a venv activated or not): the directory of the Python
running lit, where pip installs `xla-opt`, `xla-run` and `filecheck`, comes first on
PATH, and the substitutions name them by their full paths:

| substitution | expands to |
|---|---|
| `%xla-opt`, `%xla-run` | the installed `xla-opt`, `xla-run` scripts |
| `FileCheck`, `filecheck` | the `filecheck` script (LLVM's FileCheck in Python) |

plus lit's own (`%s` the test file, `%t` a temporary path...).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

PASSED_ENVIRONMENT = ("HOME", "TMPDIR", "PYTHONPATH")


def tool_dir() -> Path:
    """Where the console scripts of the running Python are (a venv's bin)."""
    return Path(sys.executable).parent


def _tool(name: str) -> str:
    beside = tool_dir() / name
    if beside.exists():
        return str(beside)
    return shutil.which(name) or name


def configure(config: Any, test_dir: str | os.PathLike, name: str | None = None) -> None:
    """Set up lit's `config` for the `.mlir` tests of `test_dir` (a directory, or the
    lit.cfg.py file inside it): test format, suffixes, PATH, environment and
    substitutions."""
    import lit.formats

    root = Path(test_dir)
    if root.is_file() or root.suffix == ".py":
        root = root.parent
    config.name = name or root.name
    config.test_format = lit.formats.ShTest()
    config.suffixes = [".mlir"]
    config.test_source_root = str(root)
    config.excludes = ["Inputs", "lit.cfg.py", "Output"]

    config.environment["PATH"] = os.pathsep.join(
        [str(tool_dir()), config.environment.get("PATH", os.environ.get("PATH", ""))]
    )
    for var in PASSED_ENVIRONMENT:
        if var in os.environ:
            config.environment[var] = os.environ[var]
    for var, value in os.environ.items():
        if var.startswith("XLA_OPT_"):  # the cache, thread count, stage verification...
            config.environment[var] = value

    filecheck = _tool("filecheck")
    config.substitutions += [
        ("%xla-opt", _tool("xla-opt")),
        ("%xla-run", _tool("xla-run")),
        # LLVM's spelling; a whole word, so that `--check-prefix=FileCheckX` is left alone
        (r"(?<![\w/.-])FileCheck(?![\w.-])", filecheck),
        (r"(?<![\w/.-])filecheck(?![\w.-])", filecheck),
    ]
