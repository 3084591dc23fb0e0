"""convert-stablehlo-to-xla: Replica collectives: replica_id, all_reduce, all_gather, reduce_scatter,
all_to_all, collective_permute; collective_broadcast as collective_permutes."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, UnitAttr, i1, i32
from xdsl.ir import Block, Region, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.shapes.collectives import replica_group_rows
from xla_opt.dialects.xla.collectives import ui32
from xla_opt.dialects.xla.properties import i64_array, i64_matrix

from .common import (
    Patterns,
    bool_of,
    channel_id,
    convert_type,
    check_isolated,
    elem,
    fail,
    int_prop,
    matrix,
    one_to_one,
    prop,
    result_types,
    scalar,
    shape,
    take_regions,
)

PATTERNS = Patterns()

# Partitions run as replicas here (a partitioned program is one replica per device,
# xla-spmd-partition): a program's partition id is its replica id.
PATTERNS.append(one_to_one({"replica_id": xla.ReplicaIdOp, "partition_id": xla.ReplicaIdOp}))


def _replica_groups(op) -> DenseIntOrFPElementsAttr:
    groups = prop(op, "replica_groups")
    if groups is None:
        return i64_matrix([])
    rows = matrix(groups)
    return i64_matrix(rows) if rows and rows[0] else i64_matrix([])


@PATTERNS.rule("stablehlo.all_reduce")
def _all_reduce(op, b):
    props = {"replica_groups": _replica_groups(op), "channel_id": channel_id(op)}
    check_isolated(op)
    return b.build(xla.AllReduceOp, [list(op.operands)], result_types(op), props, take_regions(op)).results


@PATTERNS.rule("stablehlo.cross-replica-sum")
def _cross_replica_sum(op, b):
    """CrossReplicaSum: "an all_reduce whose computation adds" (one for each operand)."""
    element = scalar(elem(op.operands[0]))
    block = Block(arg_types=[element, element])
    total = xe.AddOp.build(operands=list(block.args), result_types=[element])
    block.add_ops([total, ReturnOp.build(operands=[[total.results[0]]])])
    props = {"replica_groups": _replica_groups(op), "channel_id": channel_id(op)}
    return b.build(xla.AllReduceOp, [list(op.operands)], result_types(op), props, [Region(block)]).results


def _flag(op, name: str) -> bool:
    """A boolean attribute that may be written as a unit attribute (`has_dynamic_root`)."""
    value = prop(op, name)
    return value is not None and (isinstance(value, UnitAttr) or bool_of(value))


@PATTERNS.rule("stablehlo.collective_broadcast")
def _collective_broadcast(op, b):
    """collective_broadcast (StableHLO): within each replica group, results[j] is
    operands[j] of the group's source, `group[0]`, or `group[root[j]]` with
    `has_dynamic_root` (the root a last operand, `tensor<Nxi32>`); a replica in no
    group gets zeros. Exact, as data movement: collective_permutes from the source to
    the other members (one per member position; with a dynamic root, one per shift
    within the group), each replica selecting what it received by its replica_id."""
    dynamic = _flag(op, "has_dynamic_root")
    operands = list(op.operands)
    if dynamic:
        if len(operands) < 2:
            fail(op, "collective_broadcast with has_dynamic_root=true requires at least two operands (data + root)")
        *data, root = operands
        if len(shape(root)) != 1 or elem(root) != i32:
            fail(op, "last operand of collective_broadcast with has_dynamic_root=true must be a rank-1 i32 tensor")
        if shape(root)[0] != len(data):
            fail(op, f"last operand of collective_broadcast with has_dynamic_root=true must have the same "
                     f"number of elements as data operands ({len(data)}), but got {shape(root)[0]}")  # fmt: skip
    else:
        data, root = operands, None
        if not data:
            fail(op, "collective_broadcast requires at least one data operand")
    if len(op.results) != len(data):
        fail(op, f"collective_broadcast has {len(data)} data operands but {len(op.results)} results")
    for j, (x, r) in enumerate(zip(data, op.results, strict=True)):
        if convert_type(r.type) != x.type:
            fail(op, f"result #{j} {r.type} must have the type of its operand {x.type}")
    groups = replica_group_rows(matrix(prop(op, "replica_groups")))
    if not groups:
        fail(op, "collective_broadcast needs explicit replica_groups (the group size)")
    members = [m for g in groups for m in g]
    if min(members) < 0 or len(set(members)) != len(members):
        fail(op, f"replica_groups {[list(g) for g in groups]} must hold distinct replica ids >= 0")
    size = len(groups[0])
    if dynamic and any(len(g) != size for g in groups):
        fail(op, "collective_broadcast with has_dynamic_root=true needs replica groups of one size")
    channel = channel_id(op)
    replica = b.one(xla.ReplicaIdOp, [], scalar(ui32))

    def is_one_of(ids) -> SSAValue:
        tests = [b.compare("EQ", replica, b.constant(m, scalar(ui32))) for m in ids]
        hit = tests[0] if tests else b.constant(0, scalar(i1))
        for t in tests[1:]:
            hit = b.binary(xe.OrOp, hit, t)
        return hit

    def permute(x, pairs) -> SSAValue:
        props = {"source_target_pairs": i64_matrix([list(p) for p in pairs]), "channel_id": channel}
        return b.one(xla.CollectivePermuteOp, [x], x.type, props)

    results = []
    if not dynamic:
        sources = is_one_of(g[0] for g in groups)
        steps = [([(g[0], g[t]) for g in groups if len(g) > t], is_one_of(g[t] for g in groups if len(g) > t))
                 for t in range(1, max(len(g) for g in groups))]  # fmt: skip
        for x in data:
            value = b.select(sources, x, b.full(x, 0))
            for pairs, receives in steps:
                value = b.select(receives, permute(x, pairs), value)
            results.append(value)
        return results
    # a dynamic root: the replica's position in its group, and each shift's data
    index = scalar(i32)
    position = b.constant(0, index)
    for g in groups:
        for t, m in enumerate(g):
            position = b.select(b.compare("EQ", replica, b.constant(m, scalar(ui32))), b.constant(t, index), position)
    member = is_one_of(members)
    for j, x in enumerate(data):
        at = b.one(xs.SliceOp, [root], TensorType(i32, [1]),
                   {"start_indices": i64_array([j]), "limit_indices": i64_array([j + 1]), "strides": i64_array([1])})  # fmt: skip
        root_j = b.one(xs.ReshapeOp, [at], index)
        # shift d brings the data of position (t - d) mod size to position t
        shift = b.binary(xe.RemainderOp, b.add_(b.sub(position, root_j), size), size)
        value = b.select(b.binary(xe.AndOp, member, b.compare("EQ", shift, 0)), x, b.full(x, 0))
        for d in range(1, size):
            pairs = [(g[t], g[(t + d) % size]) for g in groups for t in range(size)]
            chosen = b.binary(xe.AndOp, member, b.compare("EQ", shift, d))
            value = b.select(chosen, permute(x, pairs), value)
        results.append(value)
    return results


@PATTERNS.rule("stablehlo.all_gather")
def _all_gather(op, b):
    if len(op.operands) != 1:
        fail(op, "all_gather of several operands has no xla counterpart")
    props = {
        "all_gather_dim": int_prop(op, "all_gather_dim"),
        "replica_groups": _replica_groups(op),
        "channel_id": channel_id(op),
    }
    return b.build(xla.AllGatherOp, op.operands, result_types(op), props).results


@PATTERNS.rule("stablehlo.reduce_scatter")
def _reduce_scatter(op, b):
    props = {
        "scatter_dimension": int_prop(op, "scatter_dimension"),
        "replica_groups": _replica_groups(op),
        "channel_id": channel_id(op),
    }
    check_isolated(op)
    return b.build(xla.ReduceScatterOp, op.operands, result_types(op), props, take_regions(op)).results


@PATTERNS.rule("stablehlo.all_to_all")
def _all_to_all(op, b):
    if len(op.operands) != 1:
        fail(op, "all_to_all of several operands has no xla counterpart")
    props = {
        "split_dimension": int_prop(op, "split_dimension"),
        "concat_dimension": int_prop(op, "concat_dimension"),
        "split_count": int_prop(op, "split_count"),
        "replica_groups": _replica_groups(op),
    }
    return b.build(xla.AllToAllOp, op.operands, result_types(op), props).results


@PATTERNS.rule("stablehlo.collective_permute")
def _collective_permute(op, b):
    props = {
        "source_target_pairs": i64_matrix(matrix(prop(op, "source_target_pairs"), 2)),
        "channel_id": channel_id(op),
    }
    return b.build(xla.CollectivePermuteOp, op.operands, result_types(op), props).results
