"""StableHLO as JAX, PyTorch/XLA and TensorFlow print it: the `stablehlo`, `chlo` and
`sdy` dialects (parsing only: they are converted to `xla` by `convert-stablehlo-to-xla`)
and `import_stablehlo`, which does all of it.

    from xla_opt.dialects.stablehlo import import_stablehlo
    module = import_stablehlo(jax.jit(f).lower(x).as_text())   # an xla module
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect

from .attrs import CHLO_ATTRS, SDY_ATTRS, STABLEHLO_ATTRS
from .ops import CHLO_OPS, SDY_OPS, STABLEHLO_OPS, ShloOp

STABLEHLO = Dialect("stablehlo", list(STABLEHLO_OPS.values()), STABLEHLO_ATTRS)
CHLO = Dialect("chlo", list(CHLO_OPS.values()), CHLO_ATTRS)
SDY = Dialect("sdy", list(SDY_OPS.values()), SDY_ATTRS)
DIALECTS = (STABLEHLO, CHLO, SDY)


_STABLEHLO_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?(?:stablehlo|chlo)\.[A-Za-z_]', re.M)


def is_stablehlo_text(text: str) -> bool:
    """Whether MLIR text uses StableHLO/CHLO ops (and so needs importing): an op named
    `stablehlo.*` or `chlo.*` starts a line (results aside; comments do not count)."""
    return _STABLEHLO_OP_LINE.search(re.sub(r"//[^\n]*", "", text)) is not None


def import_stablehlo(text: str, name: str = "<stablehlo>") -> ModuleOp:
    """Parse StableHLO text, convert it to the xla dialect and verify the result.

    Raises `xla_opt.api.ProgramError` with located diagnostics (`name:line:col: error:
    ...`) when the text does not parse, uses an op with no xla counterpart, or the
    converted program does not verify."""
    from xla_opt.api import ProgramError
    from xla_opt.context import make_context
    from xla_opt.diagnostics import DiagnosticError, parse_source, verify_module
    from xla_opt.passes.stablehlo_to_xla import convert_module

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


__all__ = [
    "STABLEHLO",
    "CHLO",
    "SDY",
    "DIALECTS",
    "ShloOp",
    "import_stablehlo",
    "is_stablehlo_text",
]
