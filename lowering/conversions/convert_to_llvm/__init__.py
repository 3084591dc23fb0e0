"""`convert-to-llvm`: the loop level (func, cf, arith, math, index, memref on statically
shaped buffers, complex) to the `llvm` dialect, in one sweep per function.

Every function is rebuilt op by op into an `llvm.func`, each op through the one
converter registered for its type, and types are converted once per value (no
recursive type conversion inside a greedy walker). As MLIR's `XToLLVM` conversions, the
converters are grouped by source dialect, one module each, all registering into the
one table of `common.py`:

* `common.py`: the sweep (`ModuleConverter`, `FunctionConverter`: `func.func` ->
  `llvm.func`, buffer arguments `noalias`), the table (`handles`) and the emission
  helpers the dialects share; types are mapped by `lowering/utils/llvm_types.py` (a
  buffer is a bare `!llvm.ptr`, index is i64, bf16 is i16, complex a struct of its parts);
* `func_cf.py`: func.return/call, cf.br/cond_br;
* `arith.py`: arith (index_cast, floordivsi, f16/bf16 through f32, our `llvm_casts`);
* `math.py`: LLVM intrinsics, libm calls, inline f32 exp and tanh (`math_f32.py`);
* `memref.py`: loads and stores by row-major offsets, malloc/free, globals;
* `complex.py`: structs of two parts, the C library's complex functions.

This module imports them all (registering their converters once) and holds the pass and
the `-t llvm` target.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.target import Target
from xla_opt.dialects.llvm_casts import EXTRA_LLVM_OPS
# the dialects' converters, registered on import
from xla_opt.lowering.conversions.convert_to_llvm import arith, complex, func_cf, math, memref  # noqa: F401
from xla_opt.lowering.conversions.convert_to_llvm.common import ModuleConverter


@dataclass(frozen=True)
class ConvertToLLVMPass(ModulePass):
    """func/cf/arith/math/memref/index on static buffers -> llvm (see module doc)."""

    name = "convert-to-llvm"
    input_dialects = ("arith", "builtin", "cf", "func", "math", "memref")
    output_dialects = ("llvm",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for extra in EXTRA_LLVM_OPS:
            if ctx.get_optional_op(extra.name) is None:
                ctx.load_op(extra)
        ModuleConverter(op).run()


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """`-t llvm`: LLVM IR of a module in the llvm dialect (xDSL's translation), with a
    located error naming the first op that is not lowered yet."""

    name = "llvm"

    def emit(self, ctx: Context, module: ModuleOp, output) -> None:
        from xdsl.backend.llvm.convert import convert_module

        from xla_opt.diagnostics import DiagnosticError, op_diagnostic

        for op in module.body.block.ops:
            if not isinstance(op, llvm.FuncOp | llvm.GlobalOp):
                raise DiagnosticError(
                    [op_diagnostic(op, "is not in the llvm dialect: -t llvm needs a lowered module (-p xla-to-llvm)")]
                )
        print(convert_module(module, fallback_target_triple=None), file=output)
