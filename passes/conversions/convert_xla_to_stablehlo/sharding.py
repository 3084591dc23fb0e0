"""convert-xla-to-stablehlo: shardings. A sharded program's `sdy` ops and attributes stay
as they are: `sdy.mesh` at module level, `sdy.sharding` on arguments, results and ops
(moved to the StableHLO op that replaces an xla op), `sdy.sharding_constraint`,
`sdy.reshard`, `sdy.sharding_group`, `sdy.manual_computation` (its body exported), all
printed as Shardy prints them, which JAX's MLIR and XLA read back. Its module keeps
`mhlo.num_partitions` and `mhlo.num_replicas` (a program that does not say has as many
partitions as its meshes have devices, `declared_partitions`), and its collectives are
cross-partition ones (collectives.py)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation
from xla_opt.dialects import sdy

from .common import Patterns

PATTERNS = Patterns()  # the sdy ops need no rule: they stay

# module-level ops a StableHLO program may hold besides functions
MODULE_LEVEL_OPS = (sdy.MeshOp,)


def module_count(op: Operation, name: str) -> int:
    """`mhlo.num_partitions` or `mhlo.num_replicas` of the module holding `op` (1 when
    it does not say)."""
    module = op if isinstance(op, ModuleOp) else None
    parent = op.parent_op()
    while module is None and parent is not None:
        module = parent if isinstance(parent, ModuleOp) else None
        parent = parent.parent_op()
    value = module.attributes.get(name) if module is not None else None
    return value.value.data if isinstance(value, IntegerAttr) else 1


def declared_partitions(module: ModuleOp) -> None:
    """A module with meshes of N > 1 devices and no device counts of its own (an xla
    program written with shardings) gets `mhlo.num_partitions = N`, as the import
    would read it: the text is then a consistent program of N partitions."""
    if "mhlo.num_partitions" in module.attributes or "mhlo.num_replicas" in module.attributes:
        return
    sizes = [op.mesh.total_size() for op in module.ops if isinstance(op, sdy.MeshOp) and not op.mesh.is_maximal()]
    if max(sizes, default=1) > 1:
        module.attributes["mhlo.num_partitions"] = IntegerAttr(max(sizes), i32)


def partitions(op: Operation) -> int:
    """How many partitions the program of `op` runs on (1: one device, or replicas)."""
    return module_count(op, "mhlo.num_partitions")
