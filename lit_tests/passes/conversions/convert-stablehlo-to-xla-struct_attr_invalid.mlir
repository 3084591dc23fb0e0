// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// Only one trailing comma, and only before `>` (issue 13).
func.func @empty_field(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{identifier expected (a field name)}}
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1],, index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
