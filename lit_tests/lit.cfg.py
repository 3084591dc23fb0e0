"""lit configuration: run from any shell, activated venv or not.

The directory of the Python running lit (the venv's bin, where `xla-opt` and
`filecheck` are installed) is put first on PATH.
"""

import os
import sys

import lit.formats

config.name = "xla-opt"  # noqa: F821 - `config` is provided by lit
config.test_format = lit.formats.ShTest()  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.test_source_root = os.path.dirname(__file__)  # noqa: F821
config.excludes = ["Inputs", "lit.cfg.py"]  # noqa: F821

bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join(  # noqa: F821
    [bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))]  # noqa: F821
)
for var in ("HOME", "TMPDIR", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]  # noqa: F821
