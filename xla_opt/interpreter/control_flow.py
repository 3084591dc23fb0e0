"""Reference semantics of control flow: while, conditional and call. Their regions run
through `regions`. An S32 conditional index out of [0, N) runs the last branch."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)

from xla_opt.dialects import xla
from xla_opt.dialects.xla.computation import ReturnOp

from . import regions

# --------------------------------------------------------------------------------------
# Windows
# --------------------------------------------------------------------------------------










# --------------------------------------------------------------------------------------
# Sort
# --------------------------------------------------------------------------------------













# --------------------------------------------------------------------------------------
# The implementations
# --------------------------------------------------------------------------------------


@register_impls
class ControlFlowFunctions(InterpreterFunctions):
    @impl_terminator(ReturnOp)
    def run_return(self, interpreter: Interpreter, op: ReturnOp, args: tuple[Any, ...]):
        return ReturnedValues(args), ()






    @impl(xla.WhileOp)
    def run_while(self, interpreter: Interpreter, op: xla.WhileOp, args: tuple[Any, ...]):
        state = tuple(args)
        while bool(regions.call(interpreter, op.cond, state, "cond")[0]):
            state = regions.call(interpreter, op.body, state, "body")
        return state

    @impl(xla.ConditionalOp)
    def run_conditional(self, interpreter: Interpreter, op: xla.ConditionalOp, args: tuple[Any, ...]):
        index, operands = args[0], args[1:]
        branches = list(op.branches)
        if np.asarray(index).dtype == np.bool_:
            b = 0 if bool(index) else 1
        else:
            b = int(index)
            if not 0 <= b < len(branches):
                b = len(branches) - 1
        return regions.call(interpreter, branches[b], [operands[b]], f"branch #{b}")

    @impl(xla.CallOp)
    def run_call(self, interpreter: Interpreter, op: xla.CallOp, args: tuple[Any, ...]):
        return tuple(interpreter.call_op(op.callee, tuple(args)))
