"""convert-xla-to-stablehlo: replica_id and the collectives. In a single-device program
the replica collectives have no equivalent. In a program of N partitions of one replica
(a sharded program, `mhlo.num_partitions = N`) partitions run as replicas here (the
import turned partition_id into replica_id), so replica ids are partition ids: replica_id
is `stablehlo.partition_id`, and a collective is XLA's cross-partition form, with a
channel handle and `use_global_device_ids` (its groups are then device ids, which with
one replica are the partition ids), empty groups spelled out as every partition."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.stablehlo.attrs import ChannelHandleAttr
from xla_opt.dialects.xla.properties import i64_matrix

from .common import Builder, Patterns, StableHLOExportError, i64_attr
from .reductions import with_regions
from .sharding import module_count, partitions

PATTERNS = Patterns()

SINGLE_DEVICE = "has no StableHLO equivalent in a single-device program (it is a replica collective)"


@PATTERNS.rule(xla.ReplicaIdOp)
def _replica_id(op: xla.ReplicaIdOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("partition_id" if partitions(op) > 1 else "replica_id")


def _cross_partition(op: Operation, groups: bool = True) -> dict[str, Attribute]:
    """The channel handle, the groups (all partitions when empty) and
    use_global_device_ids of a collective of a partitioned program; a located error in
    a single-device program."""
    n = partitions(op)
    if n <= 1:
        raise StableHLOExportError(f"'{op.name}' {SINGLE_DEVICE}", op)
    if (replicas := module_count(op, "mhlo.num_replicas")) > 1:
        raise StableHLOExportError(f"'{op.name}' of {replicas} replicas of {n} partitions: replica ids are not partition ids", op)
    channel = op.properties.get("channel_id")
    handle = channel.value.data if channel is not None else 1  # type: ignore[attr-defined]
    props: dict[str, Attribute] = {"channel_handle": ChannelHandleAttr.from_fields(handle=i64_attr(handle), type=i64_attr(1))}
    if groups:
        rows = op.get_replica_groups() or [list(range(n))]  # type: ignore[attr-defined]
        # groups of different sizes are padded with -1, StableHLO's spelling of them
        # (the accessor drops the padding; fuzz finding F9)
        width = max(len(row) for row in rows)
        props["replica_groups"] = i64_matrix([[*row, *[-1] * (width - len(row))] for row in rows])
        props["use_global_device_ids"] = UnitAttr()
    return props


@PATTERNS.rule(xla.AllReduceOp)
def _all_reduce(op: xla.AllReduceOp, b: Builder) -> Sequence[SSAValue]:
    return with_regions(b, "all_reduce", _cross_partition(op), op.computation)


@PATTERNS.rule(xla.AllGatherOp)
def _all_gather(op: xla.AllGatherOp, b: Builder) -> Sequence[SSAValue]:
    return b.same("all_gather", {**_cross_partition(op), "all_gather_dim": i64_attr(op.get_all_gather_dim())})


@PATTERNS.rule(xla.ReduceScatterOp)
def _reduce_scatter(op: xla.ReduceScatterOp, b: Builder) -> Sequence[SSAValue]:
    props = {**_cross_partition(op), "scatter_dimension": i64_attr(op.get_scatter_dimension())}
    return with_regions(b, "reduce_scatter", props, op.computation)


@PATTERNS.rule(xla.AllToAllOp)
def _all_to_all(op: xla.AllToAllOp, b: Builder) -> Sequence[SSAValue]:
    props = _cross_partition(op)
    props.pop("use_global_device_ids")  # all_to_all with a channel handle is cross-partition already
    props.update(
        split_dimension=i64_attr(op.get_split_dimension()),
        concat_dimension=i64_attr(op.get_concat_dimension()),
        split_count=i64_attr(op.get_split_count()),
    )
    return b.same("all_to_all", props)


@PATTERNS.rule(xla.CollectivePermuteOp)
def _collective_permute(op: xla.CollectivePermuteOp, b: Builder) -> Sequence[SSAValue]:
    props = _cross_partition(op, groups=False)
    pairs = op.source_target_pairs
    assert isinstance(pairs, DenseIntOrFPElementsAttr)
    return b.same("collective_permute", {**props, "source_target_pairs": pairs})

