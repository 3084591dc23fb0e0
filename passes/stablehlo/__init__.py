"""StableHLO conversions: `to_xla` (`convert-stablehlo-to-xla`, StableHLO/CHLO as JAX,
PyTorch/XLA and TensorFlow print them, to the xla dialect), `from_xla` (xla programs
printed as StableHLO: `xla-opt -t stablehlo`, `to_stablehlo_text`), and
`import_stablehlo`, which parses, converts and verifies StableHLO text.

    from xla_opt.passes.stablehlo import import_stablehlo
    module = import_stablehlo(jax.jit(f).lower(x).as_text())   # an xla module

The conversions are imported lazily: `is_stablehlo_text` needs none of them.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType

from xdsl.dialects.builtin import ModuleOp

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

_STABLEHLO_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?(?:stablehlo|chlo)\.[A-Za-z_]', re.MULTILINE)


def is_stablehlo_text(text: str) -> bool:
    """Whether MLIR text uses StableHLO/CHLO ops (and so needs importing): an op named
    `stablehlo.*` or `chlo.*` starts a line (results aside; comments do not count)."""
    return _STABLEHLO_OP_LINE.search(re.sub(r"//[^\n]*", "", text)) is not None


def import_stablehlo(text: str, name: str = "<stablehlo>") -> ModuleOp:
    """Parse StableHLO text, convert it to the xla dialect and verify the result.

    Raises `xla_opt.api.ProgramError` with located diagnostics (`name:line:col: error:
    ...`) when the text does not parse, uses an op with no xla counterpart, or the
    converted program does not verify."""
    from xla_opt.passes.stablehlo.to_xla import convert_module

    from xla_opt.api import ProgramError
    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, parse_source, verify_module

    ctx = make_context()
    try:
        module = parse_source(ctx, text, name)
        convert_module(ctx, module)
    except DiagnosticError as e:
        raise ProgramError(str(e)) from None
    diags = verify_module(module, name)
    if diags:
        raise ProgramError("\n".join(map(str, diags)))
    return module


__all__ = ["OP_FAMILIES", "family_modules", "import_stablehlo", "is_stablehlo_text"]
