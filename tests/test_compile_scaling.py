"""Compile time grows linearly with a program's size (issue 32): chains of element-wise
ops (which fusion merges into one body), of reductions (each a loop nest, many blocks)
and of calls (many functions) go through `xla-to-llvm` at two sizes, n and 4n. Linear
growth makes the larger one ~4x slower; the quadratic steps this guards against (fusion
re-walking a fused body, a symbol lookup walking the module per call, dominance walking
up the tree per use) made it 8-16x at these sizes. Each size is timed twice,
interleaved, keeping the faster, so a busy machine slows both alike."""

from __future__ import annotations

import time

import pytest

import xla_opt


def chain(n: int) -> str:
    ops = ["add", "multiply", "subtract"]
    lines = [f"  %v{i} = xla.{ops[i % 3]} {f'%v{i - 1}' if i else '%a'}, %b : tensor<4xf32>" for i in range(n)]
    return "\n".join(
        [
            "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {",
            *lines,
            f"  func.return %v{n - 1} : tensor<4xf32>",
            "}",
        ]
    )


def reductions(n: int) -> str:
    lines = [
        "func.func @main(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {",
        "  %z = xla.constant dense<0.0> : tensor<f32>",
    ]
    prev = "%a"
    for i in range(n // 3):
        lines += [
            f"  %r{i} = xla.reduce ({prev}), (%z), dimensions = [1] body {{",
            "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):",
            "    %s = xla.add %x, %y : tensor<f32>",
            "    xla.return %s : tensor<f32>",
            "  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>",
            f"  %b{i} = xla.broadcast_in_dim %r{i}, broadcast_dimensions = [0] : (tensor<4xf32>) -> tensor<4x8xf32>",
            f"  %v{i} = xla.subtract {prev}, %b{i} : tensor<4x8xf32>",
        ]
        prev = f"%v{i}"
    return "\n".join([*lines, f"  func.return {prev} : tensor<4x8xf32>", "}"])


def calls(n: int) -> str:
    callees = [
        f"func.func private @f{i}(%x: tensor<4xf32>) -> tensor<4xf32> {{\n"
        f"  %y = xla.multiply %x, %x : tensor<4xf32>\n  func.return %y : tensor<4xf32>\n}}"
        for i in range(n // 2)
    ]
    lines = ["func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {"]
    prev = "%a"
    for i in range(n // 2):
        lines.append(f"  %c{i} = func.call @f{i}({prev}) : (tensor<4xf32>) -> tensor<4xf32>")
        prev = f"%c{i}"
    return "\n".join([*callees, *lines, f"  func.return {prev} : tensor<4xf32>", "}"])


def seconds_to_lower(text: str) -> float:
    start = time.perf_counter()
    xla_opt.optimize(text, "xla-to-llvm")
    return time.perf_counter() - start


@pytest.mark.parametrize(
    ("program", "n"), [(chain, 250), (reductions, 60), (calls, 80)], ids=["chain", "reductions", "calls"]
)
def test_compile_time_grows_linearly(program, n):
    small, large = program(n), program(4 * n)
    seconds_to_lower(small)  # what a first compile loads
    small_times, large_times = [], []
    for _ in range(2):
        small_times.append(seconds_to_lower(small))
        large_times.append(seconds_to_lower(large))
    ratio = min(large_times) / min(small_times)
    assert ratio < 7, f"4x the ops took {ratio:.1f}x the time ({min(small_times):.2f} s -> {min(large_times):.2f} s)"
