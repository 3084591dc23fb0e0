"""The `sdy` dialect: Shardy's shardings, as JAX (Shardy by default) writes them on a
sharded program, and as convert-stablehlo-to-xla writes JAX's GSPMD shardings too.

* attributes (`attrs.py`): `MeshAttr` and `MeshAxisAttr`, `AxisRefAttr` and
  `SubAxisInfoAttr`, `DimShardingAttr`, `TensorShardingAttr` (`#sdy.sharding<@mesh,
  [{"x"}, {}]>`), `TensorShardingPerValueAttr`, `ManualAxesAttr`; sharding rules
  (`#sdy.op_sharding_rule`) kept as text;
* ops (`ops.py`): `sdy.mesh`, `sdy.sharding_constraint`, `sdy.reshard`,
  `sdy.manual_computation` and `sdy.return`, `sdy.sharding_group`,
  `sdy.propagation_barrier`, `sdy.named_computation`;
* `verify_sharding_attributes`: the `sdy.sharding` attributes ops carry (a function's
  argument and result shardings, an op's `#sdy.sharding_per_value`), checked as Shardy
  checks them; `xla_opt.diagnostics.verify_module` calls it.

Every form parses and prints as Shardy's own (pretty and generic). The shape rules
(valid meshes and shardings, local shapes of shards) are pure functions of
`dialects/shapes/sharding.py`."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Dialect, Operation
from xdsl.utils.exceptions import VerifyException

from .attrs import (
    SDY_ATTRS,
    AxisRefAttr,
    DimShardingAttr,
    ManualAxesAttr,
    MeshAttr,
    MeshAxisAttr,
    OpShardingRuleAttr,
    SubAxisInfoAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    find_mesh,
)
from .ops import (
    SDY_OPS,
    ManualComputationOp,
    MeshOp,
    NamedComputationOp,
    PropagationBarrierOp,
    ReshardOp,
    ReturnOp,
    ShardingConstraintOp,
    ShardingGroupOp,
    check_shardings_per_value,
    check_value_sharding,
    resolve_mesh,
)

SDY = Dialect("sdy", SDY_OPS, SDY_ATTRS)

SHARDING = "sdy.sharding"
"""The attribute holding a sharding: on a function's argument or result (a
`TensorShardingAttr`) and on an op (a `TensorShardingPerValueAttr`, one per result)."""


def _entry_errors(f: func.FuncOp, table, types, what: str) -> str | None:
    if table is None:
        return None
    for i, (entry, t) in enumerate(zip(table.data, types, strict=False)):
        sharding = entry.data.get(SHARDING)  # type: ignore[attr-defined]
        if sharding is None:
            continue
        if not isinstance(sharding, TensorShardingAttr):
            return f"{what} #{i}: sdy.sharding must be a #sdy.sharding, got {sharding}"
        try:
            check_value_sharding(f, sharding, t, f"{what} #{i} sharding")
        except VerifyException as e:
            return str(e)
    return None


def sharding_attribute_problem(op: Operation) -> str | None:
    """What is wrong with the `sdy.sharding` attributes `op` carries, or None: a
    function's argument and result shardings are valid for their types; an op's
    `#sdy.sharding_per_value` has one valid sharding per result (see
    `check_sharding`). Quick for an op without any."""
    if isinstance(op, func.FuncOp):
        ft = op.function_type
        problem = _entry_errors(op, op.arg_attrs, ft.inputs.data, "argument")
        return problem or _entry_errors(op, op.res_attrs, ft.outputs.data, "result")
    if not op.attributes or (value := op.attributes.get(SHARDING)) is None:
        return None
    if not isinstance(value, TensorShardingPerValueAttr):
        return f"sdy.sharding on an op must be a #sdy.sharding_per_value, got {value}"
    try:
        check_shardings_per_value(op, value, [r.type for r in op.results], "sdy.sharding", "results")
    except VerifyException as e:
        return str(e)
    return None


__all__ = [
    "SDY",
    "SHARDING",
    "AxisRefAttr",
    "DimShardingAttr",
    "ManualAxesAttr",
    "ManualComputationOp",
    "MeshAttr",
    "MeshAxisAttr",
    "MeshOp",
    "NamedComputationOp",
    "OpShardingRuleAttr",
    "PropagationBarrierOp",
    "ReshardOp",
    "ReturnOp",
    "ShardingConstraintOp",
    "ShardingGroupOp",
    "SubAxisInfoAttr",
    "TensorShardingAttr",
    "TensorShardingPerValueAttr",
    "find_mesh",
    "resolve_mesh",
    "sharding_attribute_problem",
]
