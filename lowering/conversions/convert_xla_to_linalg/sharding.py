"""The sharding family (the `sdy` dialect) at the linalg level, in a program compiled
whole, as one global program (a partitioned program has none left: xla-spmd-partition
consumes them): as in the interpreter (xla_opt/interpreter/sharding.py), a sharding
constraint or a reshard is its operand, a sharding group and a mesh are nothing, and a
manual computation is a located error saying the program needs xla-spmd-partition. The
shardings functions and ops carry as attributes are dropped with the meshes they name
(`strip_sharding_attributes`)."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.dialects import sdy


class ConstraintIsItsOperand(RewritePattern):
    """sharding_constraint, reshard -> the operand (where the value lives, not what it is)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sdy.ShardingConstraintOp | sdy.ReshardOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, [], [op.input])


class GroupIsNothing(RewritePattern):
    """sharding_group, mesh -> nothing (they only say how shardings relate)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sdy.ShardingGroupOp | sdy.MeshOp, rewriter: PatternRewriter, /) -> None:
        rewriter.erase(op)


class ManualComputationNeedsPartitioning(RewritePattern):
    """manual_computation: one device's code, a located error in a program run whole."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: sdy.ManualComputationOp, rewriter: PatternRewriter, /) -> None:
        raise DiagnosticError([op_diagnostic(op, op.RUN_WHOLE_ERROR)])


def strip_sharding_attributes(module: ModuleOp) -> None:
    """The `sdy.*` attributes of ops and of functions' arguments and results dropped: they
    name meshes the lowering erases. Nothing to do in a module without meshes (a
    sharding on an inline mesh names none)."""
    if not any(isinstance(op, sdy.MeshOp) for op in module.ops):
        return
    for op in module.walk():
        if isinstance(op, FuncOp):
            for name in ("arg_attrs", "res_attrs"):
                table = op.properties.get(name)
                if isinstance(table, ArrayAttr) and any(sdy.SHARDING in d.data for d in table.data):  # type: ignore[attr-defined]
                    entries = [{k: v for k, v in d.data.items() if k != sdy.SHARDING} for d in table.data]  # type: ignore[attr-defined]
                    if any(entries):
                        op.properties[name] = ArrayAttr([DictionaryAttr(e) for e in entries])
                    else:
                        del op.properties[name]
        elif op.attributes:
            for name in [n for n in op.attributes if n.startswith("sdy.")]:
                del op.attributes[name]


PATTERNS = [ConstraintIsItsOperand(), GroupIsNothing(), ManualComputationNeedsPartitioning()]
LOWERED: frozenset[str] = frozenset()  # no xla op: the sdy ops are not xla's
