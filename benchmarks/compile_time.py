"""Compile time of a generated program of N ops, stage by stage.

    .venv/bin/python benchmarks/compile_time.py [--ops 2000] [--constant-kb 0] [--no-llvm]

The program is a chain of element-wise ops on 8x8 f32 tensors, broken every 25 ops
by a dot, a reduce (whose body is a region) and a broadcast, so that fusion leaves
many loop nests and the lowered module has many blocks; `--constant-kb` adds one
dense constant of that size (the cost of passes that touch attributes). It prints the
parse time, each pipeline stage's time (lowering/xla_to_llvm.py STAGES), the LLVM IR
translation and the LLVM optimization + code generation (xla_opt/jit.py), and checks
the result against the interpreter on small inputs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

UNARY = ("xla.negate", "xla.tanh", "xla.abs", "xla.exponential", "xla.sine")
BINARY = ("xla.add", "xla.multiply", "xla.subtract", "xla.maximum", "xla.minimum")
T = "tensor<8x8xf32>"


def generate(n_ops: int, constant_kb: int = 0) -> str:
    """A program of about `n_ops` xla ops (see the module docstring)."""
    lines = [f"func.func @main(%x: {T}, %y: {T}) -> {T} {{"]
    lines.append("  %zero = xla.constant dense<0.000000e+00> : tensor<f32>")
    prev, other, n = "%x", "%y", 1
    if constant_kb:
        count = constant_kb * 1024 // 4
        values = ", ".join(f"{(i % 97) / 97:.6e}" for i in range(count))
        lines += [
            f"  %big = xla.constant dense<[{values}]> : tensor<{count}xf32>",
            "  %bigsum = xla.reduce (%big), (%zero), dimensions = [0] body {",
            "  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):",
            "    %s = xla.add %acc, %v : tensor<f32>",
            "    xla.return %s : tensor<f32>",
            f"  }} : (tensor<{count}xf32>, tensor<f32>) -> tensor<f32>",
            f"  %x0 = xla.add %x, %bigsum : ({T}, tensor<f32>) -> {T}",
        ]
        prev, n = "%x0", n + 4
    i = 0
    while n < n_ops:
        i += 1
        name = f"%v{i}"
        if i % 25 == 0:
            lines.append(f"  {name} = xla.dot {prev}, {other} : ({T}, {T}) -> {T}")
        elif i % 25 == 12:
            lines += [
                f"  %s{i} = xla.reduce ({prev}), (%zero), dimensions = [1] body {{",
                "  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):",
                "    %s = xla.add %acc, %v : tensor<f32>",
                "    xla.return %s : tensor<f32>",
                "  } : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>",
                f"  {name} = xla.add {prev}, %s{i}, broadcast_dimensions = [0] : ({T}, tensor<8xf32>) -> {T}",
            ]
            n += 2  # the reduce's body op and the reduce itself
        elif i % 3 == 0:
            op = UNARY[i % len(UNARY)]
            # tanh keeps exponential chains finite
            lines.append(f"  %t{i} = xla.tanh {prev} : {T}")
            lines.append(f"  {name} = {op} %t{i} : {T}")
            n += 1
        else:
            op = BINARY[i % len(BINARY)]
            lines.append(f"  {name} = {op} {prev}, {other} : ({T}, {T}) -> {T}")
        other, prev = prev, name
        n += 1
    lines.append(f"  func.return {prev} : {T}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=2000)
    ap.add_argument("--constant-kb", type=int, default=0)
    ap.add_argument("--no-llvm", action="store_true", help="stop at the LLVM IR text")
    ap.add_argument("--print", action="store_true", help="print the program and exit")
    args = ap.parse_args(argv)
    text = generate(args.ops, args.constant_kb)
    if args.print:
        sys.stdout.write(text)
        return

    import xla_opt
    from xla_opt.runtime.executable import JitFunction
    from xla_opt.runtime.program import StageTimes
    from xla_opt.lowering.xla_to_llvm import lower_to_llvm_ir

    os.environ.setdefault("XLA_OPT_CACHE", "0")  # measure compiling, not the disk cache
    start = time.perf_counter()
    module = xla_opt.load_program(text)  # parsed and verified
    parse_time = time.perf_counter() - start
    times = StageTimes()
    total = time.perf_counter()
    if args.no_llvm:
        lower_to_llvm_ir(module, times)
    else:
        fn = JitFunction(module, "main", times)
    total = time.perf_counter() - total
    print(f"{'parse+verify':32s} {parse_time:8.3f} s")
    for name, seconds in times.stages.items():
        print(f"{name:32s} {seconds:8.3f} s")
    print(f"{'total (after parsing)':32s} {total:8.3f} s")
    if not args.no_llvm:
        rng = np.random.default_rng(0)
        x, y = (rng.standard_normal((8, 8)).astype(np.float32) * 0.1 for _ in range(2))
        got = fn(x, y)[0]
        want = xla_opt.run(text, x, y, backend="interpreter")[0]
        print("agrees with the interpreter:", bool(np.allclose(got, want, rtol=1e-3, atol=1e-3, equal_nan=True)))


if __name__ == "__main__":
    main()
