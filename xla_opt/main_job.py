"""The README's main job: take an example program through the whole pipeline and
print what happens at each step: parse and verify, round trip, the reference
interpreter, every lowering stage, native code, and the agreement of the two (relative
to the result's magnitude). A step that fails (a program error, a custom call with no
target) is one line, never a traceback, and the exit status is 1.

    python -m xla_opt.main_job examples/softmax.mlir
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from typing import Any

import numpy as np
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xla_opt.api import ProgramError, find_function, load_program
from xla_opt.context import make_context
from xla_opt.diagnostics import DiagnosticError, one_line
from xla_opt.interpreter import interpret
from xla_opt.interpreter.dtypes import describe, numpy_dtype
from xla_opt.runtime.executable import JitFunction
from xla_opt.lowering.xla_to_llvm import stage_passes


def _print_module(module: ModuleOp, generic: bool) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def random_inputs(module: ModuleOp, entry: str, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = []
    for t in find_function(module, entry).function_type.inputs.data:
        dtype = numpy_dtype(t.get_element_type())  # type: ignore[attr-defined]
        shape = tuple(t.get_shape())  # type: ignore[attr-defined]
        if dtype.kind == "f":
            inputs.append(rng.standard_normal(shape).astype(np.float32).astype(dtype))
        elif dtype.kind == "b":
            inputs.append(rng.random(shape) < 0.5)
        else:
            inputs.append(rng.integers(0, 10, shape).astype(dtype))
    return inputs


# Tolerances of the JIT against the interpreter, relative to the largest magnitude of
# the result: the JIT sums in another order (dots, convolutions, reductions), so an
# element that cancels differs by rounding relative to its terms, not to itself (a
# transformer block's f32 outputs near 1000 differ by ~2e-5 of it); f16 and bf16 round
# every op's f32 result once, on both backends but not always at the same points.
RELATIVE_TOLERANCE = {"float64": 1e-9, "float32": 1e-4, "float16": 1e-2, "bfloat16": 5e-2}


def agreement(result: Any, expected: Any) -> tuple[bool, str]:
    """Whether a JIT result agrees with the interpreter's, and a one-line account:
    integers, PRED and the positions and values of NaNs and infinities exactly;
    finite floats within RELATIVE_TOLERANCE of the largest finite magnitude."""
    if isinstance(expected, tuple):
        parts = [agreement(r, e) for r, e in zip(result, expected, strict=True)]
        return all(ok for ok, _ in parts), "; ".join(text for _, text in parts)
    r, e = np.asarray(result), np.asarray(expected)
    if r.shape != e.shape or r.dtype != e.dtype:
        return False, f"{r.dtype}{list(r.shape)} where the interpreter gives {e.dtype}{list(e.shape)}"
    if e.dtype.kind not in "fc" and e.dtype.name != "bfloat16":
        same = bool(np.array_equal(r, e))
        return same, "identical" if same else f"{int(np.sum(r != e))} of {e.size} elements differ"
    real = np.float32 if e.dtype.name in ("bfloat16", "float16") else None
    r, e = (r.astype(real), e.astype(real)) if real else (r, e)
    finite = np.isfinite(e)
    if not np.array_equal(finite, np.isfinite(r)) or not np.array_equal(r[~finite], e[~finite], equal_nan=True):
        return False, "NaNs or infinities differ"
    diff = float(np.max(np.abs(r[finite] - e[finite]), initial=0.0))
    scale = float(np.max(np.abs(e[finite]), initial=0.0))
    relative = diff / scale if scale else diff
    component = e.real.dtype.name if e.dtype.kind == "c" else np.asarray(expected).dtype.name
    tolerance = RELATIVE_TOLERANCE[component]
    ok = relative <= tolerance
    return ok, (
        f"max |jit - interpreter| = {diff:.3g}, {relative:.2g} of the largest |value| {scale:.3g} "
        f"({'agree' if ok else 'DISAGREE'}: tolerance {tolerance:g} for {component})"
    )


def failure(e: BaseException) -> str:
    """A failed step in one line (located diagnostics as they are), never a traceback."""
    if isinstance(e, ProgramError | DiagnosticError):
        return str(e)
    return f"error: {type(e).__name__}: {one_line(str(e)) or type(e).__name__}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else "examples/softmax.mlir"
    entry = args[1] if len(args) > 1 else "main"
    np.set_printoptions(precision=4, suppress=True, linewidth=110)
    try:
        return run_job(path, entry)
    except Exception as e:
        if os.environ.get("XLA_OPT_TRACEBACK"):
            raise
        print(f"   {failure(e)}")
        return 1


def run_job(path: str, entry: str) -> int:
    """The steps; a step that fails ends the job with its one-line error (main prints
    it), except running on the interpreter, after which the lowering goes on."""
    print(f"== 1. parse and verify {path}")
    t0 = time.perf_counter()
    module = load_program(path)
    counts = Counter(op.name for op in module.walk() if op.name.startswith("xla."))
    print(f"   {sum(counts.values())} xla ops in {(time.perf_counter() - t0) * 1e3:.1f} ms: "
          + ", ".join(f"{n} x{c}" for n, c in sorted(counts.items())))

    print("== 2. round trip: pretty -> generic -> pretty")
    pretty = _print_module(module, generic=False)
    generic = _print_module(module, generic=True)
    again = _print_module(load_program(generic, name="<generic>"), generic=False)
    print(f"   {'identical' if again == pretty else 'DIFFERENT'} ({len(pretty.splitlines())} lines)")
    print("\n".join("   | " + line for line in pretty.splitlines()))

    print("== 3. run on the reference interpreter (seeded random inputs)")
    inputs = random_inputs(module, entry)
    for i, a in enumerate(inputs):
        print(f"   input #{i}: {a.dtype}{list(a.shape)}")
    t0 = time.perf_counter()
    try:
        expected = interpret(module, entry, inputs)
        print(f"   ran in {(time.perf_counter() - t0) * 1e3:.1f} ms")
    except Exception as e:  # noqa: BLE001 - reported; the lowering is shown all the same
        print(f"   {failure(e)}")
        expected = None

    print("== 4. progressive lowering (ops after each stage, compile time)")
    lowered = module.clone()
    ctx = make_context()
    for name, stage in stage_passes():
        t0 = time.perf_counter()
        stage.apply(ctx, lowered)
        ops = Counter(op.dialect_name() for op in lowered.walk() if op is not lowered)
        print(f"   {name:26s} {sum(ops.values()):5d} ops  {(time.perf_counter() - t0) * 1e3:6.1f} ms   "
              + " ".join(f"{d}:{n}" for d, n in sorted(ops.items())))
    ir = str(convert_module(lowered, fallback_target_triple=None))
    print(f"   LLVM IR                    {len(ir.splitlines()):5d} lines")

    print("== 5. compile with LLVM (O3, host CPU) and run natively")
    t0 = time.perf_counter()
    native = JitFunction(module, entry)
    print(f"   compiled in {(time.perf_counter() - t0) * 1e3:.1f} ms")
    t0 = time.perf_counter()
    results = native(*inputs)
    print(f"   ran in {(time.perf_counter() - t0) * 1e3:.3f} ms")
    agree = expected is not None
    for i, r in enumerate(results):
        print(f"   result #{i}: {describe(r)}")
        print("\n".join("     " + line for line in str(r).splitlines()))
        if expected is not None:
            ok, account = agreement(r, expected[i])
            agree &= ok
            print(f"   agreement with the interpreter: {account}")
    return 0 if again == pretty and agree else 1


if __name__ == "__main__":
    sys.exit(main())
