"""convert-xla-to-stablehlo: custom_call."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xla_opt.dialects import xla

from .common import Builder, Patterns, bool_attr

PATTERNS = Patterns()


@PATTERNS.rule(xla.CustomCallOp)
def _custom_call(op: xla.CustomCallOp, b: Builder) -> Sequence[SSAValue]:
    props = {
        "call_target_name": op.call_target_name,
        "backend_config": op.backend_config,
        "has_side_effect": bool_attr(op.get_has_side_effect()) if op.has_side_effect is not None else None,
    }
    return b.same("custom_call", props)
