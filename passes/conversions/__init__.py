"""Conversions between the xla dialect and the dialects of the programs it exchanges:
`convert-stablehlo-to-xla` (StableHLO and CHLO as JAX, PyTorch/XLA and TensorFlow print
them, to xla) and `convert-xla-to-stablehlo` (xla to StableHLO; `xla-opt -t stablehlo`).
Both have one module per op family, with the family's name in every layer."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from xdsl.ir import Operation, SSAValue

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


def keep_sharding_attributes(op: Operation, new_values: Sequence[SSAValue]) -> None:
    """A sharded program's `sdy.*` attributes of `op` (its results' shardings, a custom
    call's sharding rule) move to the op that now produces all its results, when one
    does (a decomposition into several ops keeps none). Both conversions call it on
    every op they replace."""
    if not op.attributes or not new_values:
        return
    kept = {name: value for name, value in op.attributes.items() if name.startswith("sdy.")}
    owner = new_values[0].owner
    if kept and isinstance(owner, Operation) and owner is not op and list(owner.results) == list(new_values):
        owner.attributes.update(kept)
