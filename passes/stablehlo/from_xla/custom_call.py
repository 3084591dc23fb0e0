"""StableHLO export: custom_call."""

from __future__ import annotations

from xla_opt.dialects import xla

from .common import Emitter, bool_text, handles


def _string_literal(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@handles(xla.CustomCallOp)
def _custom_call(e: Emitter, op: xla.CustomCallOp) -> None:
    props = {"call_target_name": _string_literal(op.call_target_name.data)}
    if op.backend_config is not None:
        props["backend_config"] = _string_literal(op.backend_config.data)
    if op.has_side_effect is not None:
        props["has_side_effect"] = bool_text(bool(op.get_has_side_effect()))
    e.simple(op, "stablehlo.custom_call", props)
