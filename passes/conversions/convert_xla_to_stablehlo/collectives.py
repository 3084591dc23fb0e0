"""convert-xla-to-stablehlo: replica_id; the replica collectives have no single-device
equivalent."""

from __future__ import annotations

from xla_opt.dialects import xla

from .common import Patterns, Unsupported, renamed

PATTERNS = Patterns()

PATTERNS.append(renamed({xla.ReplicaIdOp: "replica_id"}))
PATTERNS.append(
    Unsupported(
        {
            xla.AllReduceOp.name: "is a replica collective",
            xla.AllGatherOp.name: "is a replica collective",
            xla.ReduceScatterOp.name: "is a replica collective",
            xla.AllToAllOp.name: "is a replica collective",
            xla.CollectivePermuteOp.name: "is a replica collective",
        }
    )
)
