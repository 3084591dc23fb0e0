"""Kernel libraries compiled ahead (`prefetch` in xla_opt/runtime/binding.py): a library
starts compiling when the lowering declares it, and whoever binds it waits for that
compile (or gets its error) instead of compiling it again."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest
from xla_opt.lowering.kernels.libraries import Library

from xla_opt.runtime import binding


def test_lowering_a_dot_starts_compiling_the_gemm_library(tmp_path):
    """In a fresh process, lowering alone (no JIT compile, nothing bound) declares the
    f32 GEMM of few columns (64) and so starts its library's compile, and no other
    library's (not the convolutions'); a later load gets that compile's module."""
    script = textwrap.dedent(
        """
        import xla_opt
        from xla_opt.runtime import binding
        from xla_opt.lowering.kernels import libraries
        program = '''
        func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
          %c = xla.dot %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
          func.return %c : tensor<64x64xf32>
        }'''
        assert "gemm-f32" not in binding._compiled
        xla_opt.optimize(program, "xla-to-llvm")
        assert "xla_opt_sgemm_narrow" in libraries.GEMM_F32.symbols
        started = binding._compiled["gemm-f32"]
        assert binding.load_library(libraries.GEMM_F32) is started.result()
        print("ok", sorted(binding._compiled))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"XLA_OPT_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok", "['gemm-f32']"]  # only what the program calls


def test_a_library_that_fails_to_build_fails_where_it_is_bound_and_is_tried_again():
    builds = []
    release = threading.Event()

    def build(target) -> str:
        builds.append(threading.current_thread().name)
        release.wait(10)
        raise RuntimeError("no IR for this library")

    library = Library("test-broken-library", ("nothing",), build)
    binding.prefetch(library)
    while not builds:  # the prefetch's thread is building it
        threading.Event().wait(0.01)
    binding.prefetch(library)  # one compile at a time
    release.set()
    with pytest.raises(RuntimeError, match="no IR for this library"):
        binding.load_library(library)  # waits for the prefetch's compile, gets its error
    with pytest.raises(RuntimeError, match="no IR for this library"):
        binding.load_library(library)  # a failed compile is not kept: tried again
    assert builds == ["xla-opt-test-broken-library", "MainThread"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("%0 = stablehlo.dot_general %a, %b ... : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>",
         ["gemm-f32"]),
        (("%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
          "window = {lhs_dilate = [1, 1]} ... -> tensor<1x8x8x4xf32>"), ["conv-f32-rows"]),
        (("%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], "
          "window = {} ... -> tensor<1x4x8x8xf32>"), ["conv-f32-columns"]),
        (("%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], "
          "window = {lhs_dilate = [2, 2]} ... -> tensor<1x8x8x4xf32>"), ["gemm-f32", "conv-f32-columns"]),
        (("%0 = xla.convolution %x, %w, lhs_dilation = [1, 12], kernel_output_feature_dimension = 3, "
          "kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, "
          "output_spatial_dimensions = [1, 2] ... -> tensor<1x8x8x4xf32>"), ["gemm-f32", "conv-f32-rows"]),
        ("%0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>",
         ["fft-r2c_fwd_f32_c64-r8"]),  # packed: 8 of radix 8
        ("%0 = stablehlo.dot_general %a, %b ... -> tensor<4x2xf64>", []),  # the f32 kernels only
        ("%0 = stablehlo.add %a, %b : tensor<4xf32>", []),
    ],
    ids=["dot", "convolution", "nchw-convolution", "transposed-convolution", "xla-dilated-convolution", "fft",
         "f64-dot", "none"],
)  # fmt: skip
def test_a_programs_text_starts_the_libraries_it_shows_it_calls(monkeypatch, text, expected):
    """Before parsing, `prefetch_by_text` starts the kernel libraries the program's text
    shows (an empty disk cache's compile then runs beside the import and the lowering),
    on a process with CPUs to spare, and nothing on one CPU."""
    started = []
    monkeypatch.setattr(binding, "prefetch", lambda library: started.append(library.name))
    monkeypatch.setattr(binding.os, "sched_getaffinity", lambda pid: {0, 1})
    binding.prefetch_by_text(text)
    assert started == expected
    started.clear()
    monkeypatch.setattr(binding.os, "sched_getaffinity", lambda pid: {0})
    binding.prefetch_by_text(text)
    assert started == []
