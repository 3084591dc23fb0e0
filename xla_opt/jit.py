"""The JIT runtime: LLVM IR compiled by llvmlite for the host CPU (all its features,
LLVM's O3 pipeline) and called on numpy arrays.

Calling convention (see lowering/bufferize.py): the entry function takes one pointer
per input, then one pointer per result, and writes the results. Before any native
call, inputs are checked against the program's signature (count, dtype, shape) and
made C-contiguous; outputs are freshly allocated numpy arrays. Compiled code is cached
by its LLVM IR within the process.
"""

from __future__ import annotations

import ctypes
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import llvmlite.binding as llvm
import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType

from xla_opt.diagnostics import DiagnosticError
from xla_opt.interpreter.dtypes import numpy_dtype
from xla_opt.signatures import check_inputs_against, find_function

_lock = threading.Lock()
_initialized = False
_cache: dict[str, _NativeModule] = {}


def _target_machine() -> llvm.TargetMachine:
    """A new TargetMachine for the host CPU (all its features, O3).

    Each execution engine gets its own: `create_mcjit_compiler` takes ownership of the
    TargetMachine it is given and frees it with the engine, so a shared one would be
    used after free once any engine is gone (e.g. after `clear_cache()`)."""
    global _initialized
    if not _initialized:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _initialized = True
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=3,
        jit=True,
    )


@dataclass
class _NativeModule:
    engine: Any
    llvm_module: Any
    optimized_ir: str
    addresses: dict[str, int] = field(default_factory=dict)

    def address(self, name: str) -> int:
        if name not in self.addresses:
            self.addresses[name] = self.engine.get_function_address(name)
        return self.addresses[name]


def compile_llvm_ir(ir_text: str) -> _NativeModule:
    """Parse, verify, optimize (O3, host CPU) and JIT-compile LLVM IR; cached by text."""
    with _lock:
        cached = _cache.get(ir_text)
        if cached is not None:
            return cached
        tm = _target_machine()
        mod = llvm.parse_assembly(ir_text)
        mod.triple = tm.triple
        mod.data_layout = str(tm.target_data)
        mod.verify()
        pto = llvm.create_pipeline_tuning_options(speed_level=3)
        pto.loop_vectorization = True
        pto.slp_vectorization = True
        pto.loop_unrolling = True
        pto.loop_interleaving = True
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(mod, pb)
        engine = llvm.create_mcjit_compiler(mod, tm)
        engine.finalize_object()
        native = _NativeModule(engine, mod, str(mod))
        _cache[ir_text] = native
        return native


@dataclass
class StageTimes:
    """Compile time per pipeline stage, in seconds."""

    stages: dict[str, float] = field(default_factory=dict)

    def record(self, name: str, start: float) -> float:
        now = time.perf_counter()
        self.stages[name] = self.stages.get(name, 0.0) + now - start
        return now


class JitFunction:
    """A compiled entry function callable on numpy arrays."""

    def __init__(self, xla_module: ModuleOp, entry: str, times: StageTimes | None = None):
        from xla_opt.lowering.pipeline import lower_to_llvm_ir

        self.entry = entry
        fn = find_function(xla_module, entry)
        self.signature = fn.function_type
        for t in (*self.signature.inputs.data, *self.signature.outputs.data):
            if not isinstance(t, TensorType):
                raise ValueError(
                    f"the jit backend passes tensors across @{entry}'s boundary; got {t}"
                )
        self.out_specs = [
            (tuple(t.get_shape()), numpy_dtype(t.get_element_type()))  # type: ignore[attr-defined]
            for t in self.signature.outputs.data
        ]
        self.times = times or StageTimes()
        try:
            self.llvm_ir = lower_to_llvm_ir(xla_module, self.times)
        except DiagnosticError as e:
            raise NotImplementedError(f"the jit backend cannot compile @{entry}:\n{e}") from None
        start = time.perf_counter()
        self.native = compile_llvm_ir(self.llvm_ir)
        self.times.record("llvm-O3+codegen", start)
        n_args = len(self.signature.inputs.data) + len(self.out_specs)
        self._cfunc = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * n_args))(self.native.address(entry))

    def __call__(self, *arrays: Any) -> list[np.ndarray]:
        return self.call_checked(check_inputs_against(self.signature, arrays, self.entry))

    def call_checked(self, inputs: list[np.ndarray]) -> list[np.ndarray]:
        """Run on inputs already checked against the signature."""
        inputs = [np.ascontiguousarray(a) for a in inputs]
        outputs = [np.empty(shape, dtype) for shape, dtype in self.out_specs]
        self._cfunc(*(a.ctypes.data for a in inputs), *(o.ctypes.data for o in outputs))
        return outputs


def clear_cache() -> None:
    with _lock:
        _cache.clear()


