"""convert-to-llvm's converters of the func and cf ops inside functions (MLIR's
FuncToLLVM and ControlFlowToLLVM; the `func.func` itself is rebuilt by the sweep,
`common.FunctionConverter.run`):

* `func.return` -> `llvm.return` (one result at most: bufferized functions return
  through their buffer arguments);
* `func.call` -> `llvm.call`, pointers passed as the plain `ptr` (`call_args`);
* `cf.br` / `cf.cond_br` -> `llvm.br` / `llvm.cond_br` to the rebuilt blocks, with
  their block arguments.
"""

from __future__ import annotations

from xdsl.dialects import cf, func, llvm
from xla_opt.lowering.conversions.convert_to_llvm.common import FunctionConverter, handles
from xla_opt.lowering.utils.llvm_types import llvm_type


@handles(func.ReturnOp)
def _return(c: FunctionConverter, op: func.ReturnOp):
    args = [c.v(a) for a in op.arguments]
    c.emit(llvm.ReturnOp(args[0] if args else None))


@handles(func.CallOp)
def _call(c: FunctionConverter, op: func.CallOp):
    results = [llvm_type(r.type) for r in op.results]
    args = c.call_args([c.v(a) for a in op.arguments])
    call = c.emit(llvm.CallOp(op.callee, *args, return_type=results[0] if results else None))
    return list(call.results)


@handles(cf.BranchOp)
def _br(c: FunctionConverter, op: cf.BranchOp):
    c.emit(llvm.BrOp(c.blocks[op.successor], *[c.v(a) for a in op.arguments]))


@handles(cf.ConditionalBranchOp)
def _cond_br(c: FunctionConverter, op: cf.ConditionalBranchOp):
    c.emit(
        llvm.CondBrOp(
            c.v(op.cond),
            c.blocks[op.then_block],
            [c.v(a) for a in op.then_arguments],
            c.blocks[op.else_block],
            [c.v(a) for a in op.else_arguments],
        )
    )
