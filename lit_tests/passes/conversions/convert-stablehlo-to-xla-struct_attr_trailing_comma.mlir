// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// A trailing comma before `>` in #stablehlo.gather<...> / #stablehlo.scatter<...> parses,
// as in StableHLO (issue 13).

// CHECK-LABEL: func.func @trailing_commas
func.func @trailing_commas(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1,>, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  // CHECK: xla.scatter (%{{.*}}), %{{.*}}, (%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1
  %1 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1, >}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
