"""convert-stablehlo-to-xla: Replica collectives: replica_id, all_reduce, all_gather, reduce_scatter,
all_to_all, collective_permute."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Block, Region
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.properties import i64_array, i64_matrix

from .common import (
    Patterns,
    channel_id,
    check_isolated,
    elem,
    fail,
    i64_attr,
    int_of,
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


@PATTERNS.rule("stablehlo.collective_broadcast")
def _collective_broadcast(op, b):
    """collective_broadcast: every member of a group gets the operand of the group's
    first replica (StableHLO). Exact, as data movement: the operands gathered along a
    new leading dimension, then its first block."""
    x = op.operands[0]
    dims = list(shape(x))
    rows = _replica_groups(op)
    size = len(matrix(rows)[0]) if matrix(rows) else None
    if size is None:
        fail(op, "collective_broadcast needs explicit replica_groups (the group size)")
    one = TensorType(elem(x), [1, *dims])
    lifted = b.one(xs.ReshapeOp, [x], one)
    props = {"all_gather_dim": i64_attr(0), "replica_groups": rows, "channel_id": channel_id(op)}
    gathered = b.one(xla.AllGatherOp, [lifted], TensorType(elem(x), [size, *dims]), props)
    ends = {"start_indices": i64_array([0] * (len(dims) + 1)), "limit_indices": i64_array([1, *dims]),
            "strides": i64_array([1] * (len(dims) + 1))}  # fmt: skip
    first = b.one(xs.SliceOp, [gathered], one, ends)
    return [b.one(xs.ReshapeOp, [first], x.type)]


@PATTERNS.rule("stablehlo.all_gather")
def _all_gather(op, b):
    if len(op.operands) != 1:
        fail(op, "all_gather of several operands has no xla counterpart")
    props = {
        "all_gather_dim": i64_attr(int_of(prop(op, "all_gather_dim"))),
        "replica_groups": _replica_groups(op),
        "channel_id": channel_id(op),
    }
    return b.build(xla.AllGatherOp, op.operands, result_types(op), props).results


@PATTERNS.rule("stablehlo.reduce_scatter")
def _reduce_scatter(op, b):
    props = {
        "scatter_dimension": i64_attr(int_of(prop(op, "scatter_dimension"))),
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
        "split_dimension": i64_attr(int_of(prop(op, "split_dimension"))),
        "concat_dimension": i64_attr(int_of(prop(op, "concat_dimension"))),
        "split_count": i64_attr(int_of(prop(op, "split_count"))),
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
