"""Passes over the xla dialect, registered with xla-opt by name.

`PASSES` maps each kebab-case pass name to a factory returning the pass class, so that
importing the registry does not import every pass.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass

PASSES: dict[str, Callable[[], type[ModulePass]]] = {}

# Output targets of `xla-opt -t NAME` beyond xDSL's own.
TARGETS: dict[str, Callable] = {}
