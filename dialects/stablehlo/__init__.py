"""StableHLO as JAX, PyTorch/XLA and TensorFlow print it: the `stablehlo` and `chlo`
dialects (parsing only; the `sdy` shardings JAX writes with them are the `sdy`
dialect, `xla_opt.dialects.sdy`). Their conversion to `xla` (`convert-stablehlo-to-xla`)
and `import_stablehlo`, which does all of it, are `xla_opt.passes.conversions.convert_stablehlo_to_xla` and `xla_opt.api.import_stablehlo`.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from .attrs import CHLO_ATTRS, STABLEHLO_ATTRS
from .ops import CHLO_OPS, STABLEHLO_OPS, ShloOp

STABLEHLO = Dialect("stablehlo", list(STABLEHLO_OPS.values()), STABLEHLO_ATTRS)
CHLO = Dialect("chlo", list(CHLO_OPS.values()), CHLO_ATTRS)
DIALECTS = (STABLEHLO, CHLO)


__all__ = [
    "STABLEHLO",
    "CHLO",
    "DIALECTS",
    "ShloOp",
]
