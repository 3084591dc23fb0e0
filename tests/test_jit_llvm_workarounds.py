"""LLVM and llvmlite bugs the JIT works around, each with the programs that found it.

`LLVM_OPTIONS` (xla_opt/runtime/cpu.py): compiled code must write its results and not one
byte more: the entry function is called on buffers with guard bytes on both sides,
which must come back untouched, and the results must be the interpreter's.

The order modules and contexts are disposed in (`_own` in xla_opt/runtime/llvm.py):
compiled code in a reference cycle is freed without crashing."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import xla_opt

GUARD = 64  # bytes on each side of every buffer
GUARD_BYTE = 0xA5


def guarded(array: np.ndarray) -> np.ndarray:
    """A byte buffer holding `array`'s bytes between two guards."""
    data = np.ascontiguousarray(array).view(np.uint8).reshape(-1)
    buffer = np.full(data.size + 2 * GUARD, GUARD_BYTE, np.uint8)
    buffer[GUARD : GUARD + data.size] = data
    return buffer


def call_guarded(program: str, *inputs: np.ndarray) -> tuple[list[np.ndarray], list[str]]:
    """The results of @main compiled by the JIT and called on guarded buffers, and the
    guards it damaged."""
    compiled = xla_opt.compile(program, backend="jit")
    specs = compiled.jit.out_specs
    buffers = [guarded(a) for a in inputs] + [guarded(np.zeros(shape, dtype)) for shape, dtype in specs]
    entry = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * len(buffers))(compiled.jit.native.address("main"))
    entry(*[b.ctypes.data + GUARD for b in buffers])
    damaged = []
    for i, b in enumerate(buffers):
        for side, guard in (("before", b[:GUARD]), ("after", b[-GUARD:])):
            if (guard != GUARD_BYTE).any():
                damaged.append(f"buffer {i}, {int((guard != GUARD_BYTE).sum())} bytes {side} it")
    results = [b[GUARD:-GUARD].view(dtype).reshape(shape) for b, (shape, dtype) in zip(buffers[len(inputs) :], specs)]
    return results, damaged


def assert_writes_only_its_results(program: str, *inputs: np.ndarray) -> None:
    results, damaged = call_guarded(program, *inputs)
    assert damaged == []
    for got, want in zip(results, xla_opt.run(program, *inputs)):
        np.testing.assert_array_equal(got, want)


def test_bf16_batch_norm_training_writes_only_its_result():
    """Fuzz seed 804842: the normalized result's rows of 9 bf16 were stored as 8 lanes
    and a masked tail of one lane, which LLVM 22.1 stored as 4 bytes
    (llvm/llvm-project#179489): "corrupted size vs. prev_size" within a few calls."""
    program = """
func.func @main(%x: tensor<4x9xbf16>, %s: tensor<4xbf16>) -> tensor<4x9xbf16> {
  %r:3 = xla.batch_norm_training %x, %s, %s, epsilon = 1.0, feature_index = 0 : (tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> (tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>)
  func.return %r#0 : tensor<4x9xbf16>
}"""
    x = np.random.default_rng(0).standard_normal((4, 9)).astype(ml_dtypes.bfloat16)
    assert_writes_only_its_results(program, x, np.ones(4, ml_dtypes.bfloat16))


@pytest.mark.parametrize("shape", [(4, 9), (3, 17), (5, 3)])
@pytest.mark.parametrize("element", ["bf16", "f16", "i8", "i16"])
def test_narrowing_rows_write_only_their_result(shape, element):
    """A row loop whose trip count leaves one lane over, storing a type narrower than
    the one it computes in: the pattern LLVM 22.1 miscompiled."""
    dims = "x".join(map(str, shape))
    program = f"""
func.func @main(%x: tensor<{dims}xf32>, %b: tensor<{shape[0]}xf32>) -> tensor<{dims}x{element}> {{
  %bb = xla.broadcast_in_dim %b, broadcast_dimensions = [0] : (tensor<{shape[0]}xf32>) -> tensor<{dims}xf32>
  %s = xla.multiply %x, %bb : tensor<{dims}xf32>
  %r = xla.convert %s : (tensor<{dims}xf32>) -> tensor<{dims}x{element}>
  func.return %r : tensor<{dims}x{element}>
}}"""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(shape) * 20).astype(np.float32)
    assert_writes_only_its_results(program, x, rng.standard_normal(shape[0]).astype(np.float32))


CYCLE = """
import gc, sys
import numpy as np
import xla_opt

xla_opt.set_program_cache_size(0)  # nothing but the cycle holds the code


class Model:  # holds its compiled function, which refers back to it
    pass


for i in range(int(sys.argv[1])):
    model = Model()
    model.f = xla_opt.compile(
        f"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{\\n"
        f"  %c = xla.constant dense<{i}.0> : tensor<4xf32>\\n"
        f"  %y = xla.add %x, %c : tensor<4xf32>\\n"
        f"  func.return %y : tensor<4xf32>\\n}}",
        backend="jit",
    )
    model.f.jit.model = model
    assert model.f(np.zeros(4, np.float32))[0][0] == i
    del model
    gc.collect()
print("ok")
"""


def test_compiled_code_in_a_reference_cycle_is_freed_safely(tmp_path):
    """llvmlite leaves a module and its context to Python's collector: in a reference
    cycle, it could dispose the context first (which frees the module), then the
    module: a segfault (found as test_program_cache's rotation soak crashing once the
    executable cache's hit made a cycle). The runtime disposes them itself, in order."""
    env = {**os.environ, "XLA_OPT_CACHE_DIR": str(tmp_path)}
    for _ in range(2):  # compiled, then from the disk caches
        done = subprocess.run(
            [sys.executable, "-c", CYCLE, "20"], env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]
