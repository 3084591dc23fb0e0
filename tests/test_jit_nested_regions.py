"""While bodies and conditional branches hold any lowered op (sort, gather, scatter,
convolution, reduce_window, fft, cholesky, rng, custom calls): the JIT gives the
interpreter's results."""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt

SORT_COMPARATOR = """comparator {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %lt = xla.compare %p, %q, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      xla.return %lt : tensor<i1>
    }"""

WHILE_WITH_LIBRARY_OPS = f"""
func.func @main(%x: tensor<8xf32>, %k: tensor<3x1x1xf32>, %ids: tensor<4x1xi32>) -> (tensor<i32>, tensor<8xf32>) {{
  %zero = xla.constant dense<0> : tensor<i32>
  %r:4 = xla.while %zero, %x, %k, %ids cond {{
  ^bb0(%i: tensor<i32>, %v: tensor<8xf32>, %k0: tensor<3x1x1xf32>, %ids0: tensor<4x1xi32>):
    %limit = xla.constant dense<3> : tensor<i32>
    %lt = xla.compare %i, %limit, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  }} body {{
  ^bb0(%i: tensor<i32>, %v: tensor<8xf32>, %kb: tensor<3x1x1xf32>, %idsb: tensor<4x1xi32>):
    %one = xla.constant dense<1> : tensor<i32>
    %next = xla.add %i, %one : tensor<i32>
    %sorted = xla.sort %v, dimension = 0 {SORT_COMPARATOR} : tensor<8xf32>
    %v3 = xla.reshape %sorted : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %conv = xla.convolution %v3, %kb, padding = [[1, 1]],
        input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2],
        kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0],
        output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]
        : (tensor<1x1x8xf32>, tensor<3x1x1xf32>) -> tensor<1x1x8xf32>
    %c = xla.reshape %conv : (tensor<1x1x8xf32>) -> tensor<8xf32>
    %picked = xla.gather %c, %idsb, offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0],
        index_vector_dim = 1, slice_sizes = [1] : (tensor<8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
    %added = xla.scatter (%c), %idsb, (%picked), update_window_dims = [], inserted_window_dims = [0],
        scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    }} : (tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<8xf32>
    xla.return %next, %added, %kb, %idsb : tensor<i32>, tensor<8xf32>, tensor<3x1x1xf32>, tensor<4x1xi32>
  }} : (tensor<i32>, tensor<8xf32>, tensor<3x1x1xf32>, tensor<4x1xi32>)
     -> (tensor<i32>, tensor<8xf32>, tensor<3x1x1xf32>, tensor<4x1xi32>)
  func.return %r#0, %r#1 : tensor<i32>, tensor<8xf32>
}}
"""

BRANCHES_WITH_LIBRARY_OPS = f"""
func.func @main(%i: tensor<i32>, %x: tensor<8xf32>) -> tensor<8xf32> {{
  %r = xla.conditional %i, %x, %x, %x branches({{
  ^bb0(%a: tensor<8xf32>):
    %z = xla.constant dense<0.0> : tensor<f32>
    %cumsum = xla.reduce_window (%a), (%z), window_dimensions = [8], padding = [[7, 0]] body {{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = xla.add %p, %q : tensor<f32>
      xla.return %s : tensor<f32>
    }} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    xla.return %cumsum : tensor<8xf32>
  }}, {{
  ^bb0(%a: tensor<8xf32>):
    %sorted = xla.sort %a, dimension = 0 {SORT_COMPARATOR} : tensor<8xf32>
    xla.return %sorted : tensor<8xf32>
  }}, {{
  ^bb0(%a: tensor<8xf32>):
    %c = xla.convert %a : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %f = xla.fft %c, fft_type = FFT, fft_length = [8] : tensor<8xcomplex<f32>>
    %m = xla.abs %f : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    xla.return %m : tensor<8xf32>
  }}) : (tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}}
"""


def same(program: str, *inputs, rtol: float = 1e-5):
    want = xla_opt.run(program, *inputs, backend="interpreter")
    got = xla_opt.run(program, *inputs, backend="jit")
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(w)))))
    return got


def test_a_while_body_sorts_convolves_gathers_and_scatters():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8).astype(np.float32)
    k = rng.standard_normal((3, 1, 1)).astype(np.float32)
    ids = np.array([[1], [6], [1], [3]], np.int32)  # a repeated index
    count, _ = same(WHILE_WITH_LIBRARY_OPS, x, k, ids)
    assert count == 3


@pytest.mark.parametrize("branch", [0, 1, 2, 7])  # 7: out of range, the last branch
def test_conditional_branches_hold_reduce_window_sort_and_fft(branch):
    x = np.array([3, -1, 4, 1, -5, 9, 2, -6], np.float32)
    (got,) = same(BRANCHES_WITH_LIBRARY_OPS, np.int32(branch), x)
    expected = {0: np.cumsum(x), 1: np.sort(x)}.get(branch, np.abs(np.fft.fft(x)))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
