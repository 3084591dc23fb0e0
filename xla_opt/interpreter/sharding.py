"""Reference semantics of the sharding family (the `sdy` dialect) in a program run
whole, as one global program on one device: a sharding constraint or a reshard says how
its value is spread over devices, not what it is, so it is its operand; a sharding
group is nothing. A manual computation's body is one device's code (its operands are
shards, its collectives exchange them), which has no meaning run once globally: it is
a located error saying the program needs xla-spmd-partition (`xla_opt.run` partitions a
program of N partitions itself)."""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.diagnostics import ProgramError, op_diagnostic
from xla_opt.dialects import sdy


def manual_computation_error(op: sdy.ManualComputationOp) -> ProgramError:
    """The located error of a manual computation met in a program run whole."""
    return ProgramError(str(op_diagnostic(op, op.RUN_WHOLE_ERROR)))


@register_impls
class ShardingFunctions(InterpreterFunctions):
    @impl(sdy.ShardingConstraintOp)
    def run_sharding_constraint(self, interpreter: Interpreter, op: sdy.ShardingConstraintOp, args: tuple[Any, ...]):
        return args

    @impl(sdy.ReshardOp)
    def run_reshard(self, interpreter: Interpreter, op: sdy.ReshardOp, args: tuple[Any, ...]):
        return args

    @impl(sdy.ShardingGroupOp)
    def run_sharding_group(self, interpreter: Interpreter, op: sdy.ShardingGroupOp, args: tuple[Any, ...]):
        return ()

    @impl(sdy.ManualComputationOp)
    def run_manual_computation(self, interpreter: Interpreter, op: sdy.ManualComputationOp, args: tuple[Any, ...]):
        raise manual_computation_error(op)
