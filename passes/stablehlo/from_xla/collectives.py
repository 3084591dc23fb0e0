"""StableHLO export: replica_id; the replica collectives have no single-device equivalent."""

from __future__ import annotations

from xla_opt.dialects import xla

from .common import UNSUPPORTED, same_properties

same_properties(
    {
        xla.ReplicaIdOp: ("stablehlo.replica_id", ()),
    }
)

UNSUPPORTED.update(
    {
        xla.AllReduceOp.name: "is a replica collective",
        xla.AllGatherOp.name: "is a replica collective",
        xla.ReduceScatterOp.name: "is a replica collective",
        xla.AllToAllOp.name: "is a replica collective",
        xla.CollectivePermuteOp.name: "is a replica collective",
    }
)
