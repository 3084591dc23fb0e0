"""`xla-spmd-partition`: a program of N partitions (`mhlo.num_partitions = N`, as
`jax.jit` with shardings exports it) as the program each device runs.

    xla-opt prog.mlir -p convert-stablehlo-to-xla,xla-spmd-partition

The input is the global program with its shardings (the `sdy` dialect: a mesh, the
entry's argument and result shardings, `sdy.sharding_constraint`s). The output is the
per-device program: the entry takes and returns each device's shards (local shapes),
computes on shards where the ops' sharding rules allow (`rules.py`) and exchanges data
with collectives over the devices (`partition.py`: propagation, reshards, partial
results all-reduced), and runs as N replicas, one per device (`xla.num_replicas = N`,
`xla.replica_id` the device id), which both backends run as threads or as MPI ranks.

Each entry argument and result records its global type (`xla.global_type`) and where
each device's shard starts in it (`xla.shard_offsets`, an N x rank table by device id),
which is how the runner (xla_opt/partitions.py) cuts global inputs into shards and puts
the results back together. Shardings the partitioner does not represent (sub-axes,
dimensions that do not divide evenly) are replicated: correct, only less spread.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.dialects.xla.element_types import shape_of

from .annotations import mesh_name, mesh_of, readable, sharding_of
from .model import Mesh, Sharding, fitting
from .partition import Partitioned, Statistics, partition_function

PARTITIONS_ATTRIBUTES = ("mhlo.num_partitions", "xla.num_partitions")
REPLICAS_ATTRIBUTES = ("mhlo.num_replicas", "xla.num_replicas")
GLOBAL_TYPE = "xla.global_type"
SHARD_OFFSETS = "xla.shard_offsets"
SHARDING = "sdy.sharding"


def module_count(module: ModuleOp, names: tuple[str, ...]) -> int:
    for name in names:
        value = module.attributes.get(name)
        if isinstance(value, IntegerAttr):
            return value.value.data
    return 1


def num_partitions(module: ModuleOp) -> int:
    """The partition count a module declares (1 when it says nothing)."""
    return module_count(module, PARTITIONS_ATTRIBUTES)


# --------------------------------------------------------------------------------------
# Reading the sdy annotations
# --------------------------------------------------------------------------------------


def _meshes(module: ModuleOp) -> dict[str, Operation]:
    return {op.sym_name.data: op for op in module.body.block.ops if op.name == "sdy.mesh"}  # type: ignore[attr-defined]


def _arg_sharding(fn: func.FuncOp, index: int, results: bool = False) -> Attribute | None:
    table = fn.res_attrs if results else fn.arg_attrs
    if table is None:
        return None
    attrs = table.data[index]
    assert isinstance(attrs, DictionaryAttr)
    return readable(attrs.data.get(SHARDING))


# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------


def _offsets_attr(sharding: Sharding, shape: tuple[int, ...], mesh: Mesh) -> DenseIntOrFPElementsAttr:
    rows = [sharding.offsets(device, shape, mesh) for device in range(mesh.size)]
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [mesh.size, len(shape)]), [v for r in rows for v in r])


def _boundary_attrs(old: ArrayAttr | None, values: list[SSAValue], shardings: list[Sharding], mesh: Mesh) -> ArrayAttr:
    out = []
    for i, (value, sharding) in enumerate(zip(values, shardings, strict=True)):
        entries = dict(old.data[i].data) if old is not None else {}  # type: ignore[attr-defined]
        entries.pop(SHARDING, None)
        entries[GLOBAL_TYPE] = value.type
        entries[SHARD_OFFSETS] = _offsets_attr(sharding, tuple(shape_of(value.type)), mesh)
        out.append(DictionaryAttr(entries))
    return ArrayAttr(out)


@dataclass
class Plan:
    """What partitioning a module starts from: the mesh and the fixed shardings (the
    entry's arguments and results, and the constraints' results), fitted to the mesh."""

    mesh: Mesh
    arguments: list[Sharding]
    results: list[Sharding]
    constraints: dict[SSAValue, Sharding]


def entry_function(module: ModuleOp, entry: str) -> func.FuncOp:
    fn = next((op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry), None)
    if fn is None:
        raise DiagnosticError([op_diagnostic(module, f"the partitioned module has no entry function @{entry}")])
    return fn


def read_plan(module: ModuleOp, fn: func.FuncOp, n: int) -> Plan:
    """The mesh and shardings the module's sdy annotations give (one mesh; none at all:
    one axis over the N devices, everything replicated)."""
    meshes = _meshes(module)
    annotations = [_arg_sharding(fn, i) for i in range(len(fn.args))]
    result_annotations = [_arg_sharding(fn, i, True) for i in range(len(fn.function_type.outputs.data))]
    constraint_ops = [op for op in fn.body.block.ops if op.name in ("sdy.sharding_constraint", "sdy.reshard")]
    used = {
        name
        for attr in [
            *annotations,
            *result_annotations,
            *(readable(op.properties.get("sharding")) for op in constraint_ops),
        ]
        if attr is not None and (name := mesh_name(attr)) is not None
    }
    if len(used) > 1:
        raise DiagnosticError(
            [op_diagnostic(fn, f"shardings over several meshes ({', '.join(sorted(used))}): one mesh is supported")]
        )
    if used:
        (name,) = used
        if name not in meshes:
            raise DiagnosticError([op_diagnostic(fn, f"no sdy.mesh @{name}")])
        where: Operation = meshes[name]
    elif len(meshes) == 1:
        where = next(iter(meshes.values()))
    else:
        where = module
    declared = where is not module and hasattr(where.properties.get("mesh"), "axis_names")
    mesh = mesh_of(where.properties["mesh"]) if declared else Mesh((("_devices", n),))
    if mesh.size != n:
        raise DiagnosticError([op_diagnostic(where, f"the mesh has {mesh.size} devices, the module {n} partitions")])

    def fitted(attr: Attribute | None, value: SSAValue, uneven: bool = False) -> Sharding:
        shape = tuple(shape_of(value.type))
        if attr is None:
            return Sharding.replicated(len(shape))
        return fitting(sharding_of(attr, len(shape)), shape, mesh, uneven)

    ret = fn.body.block.last_op
    assert ret is not None
    return Plan(
        mesh,
        [fitted(a, v) for a, v in zip(annotations, fn.args, strict=True)],
        [fitted(a, v) for a, v in zip(result_annotations, ret.operands, strict=True)],
        {op.results[0]: fitted(readable(op.properties.get("sharding")), op.results[0], True) for op in constraint_ops},
    )


def partition_module(
    module: ModuleOp, entry: str = "main", plan: Plan | None = None
) -> tuple[Partitioned, Mesh] | None:
    """Partition `module` in place (see the module doc), from its annotations or from
    `plan`; None when it has one partition."""
    n = num_partitions(module)
    if n <= 1:
        return None
    if (replicas := module_count(module, REPLICAS_ATTRIBUTES)) > 1:
        raise DiagnosticError(
            [
                op_diagnostic(
                    module, f"{replicas} replicas of {n} partitions each: partitions of replicas are not supported"
                )
            ]
        )
    from xla_opt.passes.transforms.xla_legalize_broadcast import XlaLegalizeBroadcastPass

    fn = entry_function(module, entry)
    XlaLegalizeBroadcastPass().apply(Context(), module)
    plan = plan or read_plan(module, fn, n)
    mesh = plan.mesh
    ret = fn.body.block.last_op
    assert ret is not None
    arg_attrs = _boundary_attrs(fn.arg_attrs, list(fn.args), plan.arguments, mesh)
    res_attrs = _boundary_attrs(fn.res_attrs, list(ret.operands), plan.results, mesh)
    partitioned = partition_function(fn, mesh, plan.arguments, plan.results, plan.constraints)
    fn.properties["arg_attrs"] = arg_attrs
    fn.properties["res_attrs"] = res_attrs
    for op in list(_meshes(module).values()):
        module.body.block.detach_op(op).erase()
    for name in PARTITIONS_ATTRIBUTES + REPLICAS_ATTRIBUTES:
        module.attributes.pop(name, None)
    module.attributes["xla.num_replicas"] = IntegerAttr(n, i32)
    return partitioned, mesh


@dataclass(frozen=True)
class XlaSpmdPartitionPass(ModulePass):
    """A program of N partitions as the program each device runs (see the module doc)."""

    name = "xla-spmd-partition"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    entry: str = "main"
    """The entry function, whose arguments and results are the program's boundary."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        done = partition_module(op, self.entry)
        if done is not None:
            report_statistics(done[0].statistics)


def report_statistics(stats: Statistics) -> None:
    """What partitioning did, for `--mlir-pass-statistics`: ops computed on shards, ops
    computed whole (replicated values, or the fallback, by op name) and the reshards."""
    from xla_opt.pass_statistics import record

    record("sharded-ops", stats.sharded, "Ops computed on their shards")
    record("replicated-ops", stats.replicated, "Ops computed whole: their operands and result are replicated")
    record(
        "fallback-ops", sum(stats.whole.values()), "Ops without a sharding rule: operands gathered, result re-sliced"
    )
    for name, count in sorted(stats.whole.items()):
        record(f"fallback({name})", count, "Ops of this kind that fell back")
    for name, count in sorted(stats.collectives.items()):
        record(f"reshard({name})", count, "Reshards emitted of this kind")


__all__ = ["Plan", "Statistics", "XlaSpmdPartitionPass", "num_partitions", "partition_module", "read_plan"]
