"""The README's main job: take an example program through the whole pipeline and
print what happens at each step: parse and verify, round trip, the reference
interpreter, every lowering stage, native code, and the agreement of the two.

    python -m xla_opt.main_job examples/softmax.mlir
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import numpy as np
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xla_opt.api import ProgramError, find_function, load_program
from xla_opt.context import make_context
from xla_opt.interpreter import interpret
from xla_opt.interpreter.dtypes import numpy_dtype
from xla_opt.jit import JitFunction
from xla_opt.lowering.pipeline import stage_passes


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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else "examples/softmax.mlir"
    entry = args[1] if len(args) > 1 else "main"
    np.set_printoptions(precision=4, suppress=True, linewidth=110)

    print(f"== 1. parse and verify {path}")
    t0 = time.perf_counter()
    try:
        module = load_program(path)
    except ProgramError as e:
        print(e, file=sys.stderr)
        return 1
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
    expected = interpret(module, entry, inputs)
    print(f"   ran in {(time.perf_counter() - t0) * 1e3:.1f} ms")

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
    agree = True
    for i, (r, e) in enumerate(zip(results, expected, strict=True)):
        print(f"   result #{i}: {r.dtype}{list(r.shape)}")
        print("\n".join("     " + line for line in str(r).splitlines()))
        r64, e64 = r.astype(np.float64), e.astype(np.float64)
        diff = float(np.max(np.abs(r64 - e64))) if r.size else 0.0
        # sums (dots, convolutions) are taken in another order natively: an element
        # with cancellation differs by rounding relative to the largest magnitude
        scale = max(1.0, float(np.max(np.abs(e64)))) if e.size else 1.0
        close = np.allclose(r64, e64, rtol=1e-5, atol=1e-6 * scale)
        agree &= bool(close)
        print(f"   agreement with the interpreter: max |jit - interpreter| = {diff:.3g} "
              f"({'agree' if close else 'DISAGREE'})")
    return 0 if again == pretty and agree else 1


if __name__ == "__main__":
    sys.exit(main())
