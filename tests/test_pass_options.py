"""The lowering's heuristics are pass options (issue 29): each threshold, turned from the
pipeline text as `xla-opt -p` takes it, moves the decision the option's docstring
states, and its default is the one the pipeline runs with."""

from __future__ import annotations

import re

import pytest

import xla_opt
from xla_opt.context import multiverse
from xla_opt.lowering.xla_to_llvm import STAGES

MATMUL = """func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %0 = xla.dot %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  func.return %0 : tensor<8x32xf32>
}"""
TO_GEMM = "convert-xla-to-linalg,linalg-generalize-named-ops,xla-bufferize,linalg-matmul-to-kernel"


@pytest.mark.parametrize(
    "options,on_kernel",
    [("", True), ("{min-rows=8}", True), ("{min-rows=9}", False), ("{min-columns=33}", False), ("{min-depth=17}", False)],
)
def test_gemm_limits(options, on_kernel):
    """An 8 x 16 by 16 x 32 product: on the GEMM kernel while it has at least min-rows
    rows, min-columns columns and a depth of min-depth."""
    assert ("xla_opt_sgemm" in str(xla_opt.optimize(MATMUL, TO_GEMM + options))) is on_kernel


SORT = """func.func @main(%x: tensor<30xf32>) -> tensor<30xf32> {
  %0 = xla.sort %x, dimension = 0 comparator {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = xla.compare %p, %q, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } : tensor<30xf32>
  func.return %0 : tensor<30xf32>
}"""


@pytest.mark.parametrize("options,radix", [("", True), ("{radix-sort-min-length=30}", True), ("{radix-sort-min-length=31}", False)])
def test_radix_sort_min_length(options, radix):
    """A row of 30 is radix-sorted when it is at least radix-sort-min-length long, else
    merge-sorted in loops."""
    lowered = str(xla_opt.optimize(SORT, f"convert-xla-to-linalg{options}"))
    assert ("xla_opt_sort_" in lowered) is radix
    assert ("scf.for" in lowered) is not radix


DOT = """func.func @main(%a: tensor<16x3xf32>, %b: tensor<3x5xf32>) -> tensor<16x5xf32> {
  %0 = xla.dot %a, %b : (tensor<16x3xf32>, tensor<3x5xf32>) -> tensor<16x5xf32>
  func.return %0 : tensor<16x5xf32>
}"""


@pytest.mark.parametrize("options,extents", [("", ["4", "4"]), ("{rows=8}", ["2", "8"]), ("{rows=1}", [])])
def test_block_rows(options, extents):
    """16 rows in blocks of `rows`: the placeholders carry the new loops' extents (16 /
    rows blocks of rows); rows=1 blocks nothing."""
    pipeline = f"convert-xla-to-linalg,linalg-generalize-named-ops,linalg-interchange-contractions,linalg-block-rows{options}"
    lowered = str(xla_opt.optimize(DOT, pipeline))
    assert re.findall(r"dense<0\.0+e\+00> : tensor<(\d+)xf32>", lowered) == extents


SHARED = """func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %sq = xla.multiply %a, %a : tensor<8xf32>
  %e = xla.exponential %sq : tensor<8xf32>
  %n = xla.negate %sq : tensor<8xf32>
  func.return %e, %n : tensor<8xf32>, tensor<8xf32>
}"""


@pytest.mark.parametrize("options,generics", [("", 2), ("{cheap-body-ops=0}", 3)])
def test_cheap_producers_are_recomputed(options, generics):
    """x * x (one body op) read by two consumers is inlined into both while it has at
    most cheap-body-ops ops; with 0 it stays a generic of its own."""
    lowered = str(xla_opt.optimize(SHARED, f"convert-xla-to-linalg,linalg-fuse-elementwise{options}"))
    assert lowered.count("linalg.generic") == generics


TEMPORARIES = """func.func @main(%a: tensor<64xf32>) -> tensor<64xf32> {
  %0 = xla.exponential %a : tensor<64xf32>
  %1 = xla.negate %0 : tensor<64xf32>
  %2 = xla.add %0, %1 : tensor<64xf32>
  func.return %2 : tensor<64xf32>
}"""


@pytest.mark.parametrize("options,on_stack", [("", True), ("{stack-limit-bytes=256}", True), ("{stack-limit-bytes=255}", False)])
def test_stack_limit(options, on_stack):
    """The two 256-byte temporaries are on the stack while they fit stack-limit-bytes."""
    lowered = str(xla_opt.optimize(TEMPORARIES, f"convert-xla-to-linalg,xla-bufferize{options}"))
    assert lowered.count("memref.alloca") == (2 if on_stack else 0)
    assert lowered.count("memref.alloc()") == (0 if on_stack else 2)


BIG = """func.func @main(%a: tensor<4x512x512xf32>) -> tensor<4x512x512xf32> {
  %0 = xla.exponential %a : tensor<4x512x512xf32>
  func.return %0 : tensor<4x512x512xf32>
}"""


@pytest.mark.parametrize(
    "options,loops",
    [("", 2), ("{grain=2}", 1), ("{grain=4}", 1), ("{grain=5}", 2), ("{min-iterations=1048577}", 0)],
)
def test_parallel_loops(options, loops):
    """4 x 512 x 512 = 2^20 iterations: parallel when at least min-iterations, over the
    leading loops until they have `grain` iterations (4, then 2048), never the
    innermost."""
    lowered = str(xla_opt.optimize(BIG, f"convert-xla-to-linalg,xla-bufferize,convert-linalg-to-parallel-loops{options}"))
    found = re.findall(r'"scf.parallel"\(([^)]*)\)', lowered)
    assert [len(f.split(",")) // 3 for f in found] == ([loops] if loops else [])


CONV = """func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = xla.convolution %x, %w,
         input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2],
         kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
         output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]
         : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %0 : tensor<1x6x6x4xf32>
}"""


def test_conv_limits():
    """A 1x6x6x4 NHWC convolution of a 3x3x4 window: 5,184 multiply-adds, below both
    defaults (loops); on the kernel once min-macs-channels-last allows it."""
    pipeline = "convert-xla-to-linalg,linalg-generalize-named-ops,xla-bufferize,linalg-conv-to-kernel"
    assert "xla_opt_sconv" not in str(xla_opt.optimize(CONV, pipeline))
    assert "xla_opt_sconv" in str(xla_opt.optimize(CONV, pipeline + "{min-macs=1 min-macs-channels-last=5184}"))
    assert "xla_opt_sconv" not in str(xla_opt.optimize(CONV, pipeline + "{min-macs=1 min-macs-channels-last=5185}"))


def test_the_pipeline_runs_the_defaults():
    """xla-to-llvm builds every stage with its options' defaults, the values the tests
    above turn: each stage of ours equals its pass constructed without arguments."""
    passes = multiverse().all_passes
    from xla_opt.lowering.xla_to_llvm import stage_passes

    for name, built in stage_passes():
        assert built == passes[name]()(), name
    assert len(STAGES) == len(stage_passes())
