"""Conversions between the xla dialect and the dialects of the programs it exchanges:
`convert-stablehlo-to-xla` (StableHLO and CHLO as JAX, PyTorch/XLA and TensorFlow print
them, to xla) and `convert-xla-to-stablehlo` (xla to StableHLO; `xla-opt -t stablehlo`).
Both have one module per op family, with the family's name in every layer."""

from __future__ import annotations

import importlib
from types import ModuleType

# The op families, with the family's name in every layer (dialects/xla/<family>.py ...):
# to_xla and from_xla have one module per family, each exporting its PATTERNS.
OP_FAMILIES = (
    "elementwise",
    "shape_ops",
    "reductions",
    "control_flow",
    "gather_scatter",
    "linear_algebra",
    "batch_norm",
    "rng",
    "custom_call",
    "collectives",
    "tokens",
)


def family_modules(package: str, families: tuple[str, ...] = OP_FAMILIES) -> tuple[ModuleType, ...]:
    """The family modules of a conversion package (imported)."""
    return tuple(importlib.import_module(f"{package}.{family}") for family in families)
