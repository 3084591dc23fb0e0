"""Micro-kernels emitted as LLVM IR by our code, compiled once per process and called
from lowered modules (which only declare them): `gemm.py` (the f32 GEMM), `runtime.py`
(compilation and symbol binding)."""
