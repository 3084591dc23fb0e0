"""The interpreter implementations of the op families beyond the element-wise one.

Each module below defines one `InterpreterFunctions` subclass named in FAMILY_CLASSES.
"""

from __future__ import annotations

import importlib

from xdsl.interpreter import InterpreterFunctions

# module (in this package) -> the InterpreterFunctions class it defines
FAMILY_CLASSES = {
    "shape_ops": "ShapeFunctions",
    "control_flow": "ControlFlowFunctions",
    "linear_algebra": "LinearAlgebraFunctions",
    "gather_scatter": "GatherScatterFunctions",
    "collectives": "CollectiveFunctions",
}


def _load() -> list[type[InterpreterFunctions]]:
    classes = []
    for module, cls in FAMILY_CLASSES.items():
        try:
            mod = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{module}":
                raise
            continue  # family not written yet
        classes.append(getattr(mod, cls))
    return classes


FAMILIES: list[type[InterpreterFunctions]] = _load()
