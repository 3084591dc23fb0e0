"""The micro-kernel library at run time: its LLVM IR compiled once per process (llvmlite,
O3, host CPU, in an execution engine of its own) on first use, and its symbols made
resolvable for the lowered modules that only declare them (`llvm.add_symbol`)."""

from __future__ import annotations

import re
import threading
from typing import Any

_lock = threading.Lock()
_library: Any = None  # the compiled module, kept alive: the symbols point into it


def kernel_shape():
    """The micro-kernel shape for the host CPU's features."""
    import llvmlite.binding as llvm

    from xla_opt.lowering.kernels.gemm import shape_for

    llvm.initialize_native_target()
    return shape_for(llvm.get_host_cpu_features().flatten())


def load_kernels() -> Any:
    """Compile the library (once per process) and register its entry symbols."""
    global _library
    with _lock:
        if _library is None:
            import llvmlite.binding as llvm

            from xla_opt.jit import compile_llvm_ir
            from xla_opt.lowering.kernels.gemm import SYMBOL, sgemm_ir

            library = compile_llvm_ir(sgemm_ir(kernel_shape()))
            llvm.add_symbol(SYMBOL, library.address(SYMBOL))
            _library = library
        return _library


def bind_kernel_symbols(ir_text: str) -> bool:
    """Load the library if the LLVM IR `ir_text` declares one of its symbols (before the
    JIT compiles it); returns whether it does."""
    from xla_opt.lowering.kernels.gemm import SYMBOL

    if not re.search(rf'@"?{SYMBOL}"?\(', ir_text):  # xDSL quotes every symbol
        return False
    load_kernels()
    return True
