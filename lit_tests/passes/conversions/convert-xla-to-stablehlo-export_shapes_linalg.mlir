// RUN: xla-opt %s -t stablehlo | filecheck %s

// Shape ops: xla.broadcast is a broadcast_in_dim on the trailing dimensions; a reshape
// with `dimensions` (a collapse order) is a transpose then a reshape; collapse is a
// reshape; xla.dot is a dot_general contracting lhs's last and rhs's first dimension.
// CHECK-LABEL: func.func public @shapes(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3xf32>, %[[V:[^:]*]]: tensor<3xf32>, %[[M:[^:]*]]: tensor<3x4xf32>)
func.func @shapes(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %m: tensor<3x4xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<5x3xf32>, tensor<2x4xf32>, tensor<4xf32>) {
  // CHECK: %[[T:.*]] = "stablehlo.transpose"(%[[X]]) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK-NEXT: "stablehlo.reshape"(%[[T]]) : (tensor<3x2xf32>) -> tensor<6xf32>
  %0 = xla.reshape %x, dimensions = [1, 0] : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK-NEXT: "stablehlo.reshape"(%[[X]]) : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = xla.collapse %x, dimensions = [0, 1] : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK-NEXT: "stablehlo.broadcast_in_dim"(%[[V]]) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<5x3xf32>
  %2 = xla.broadcast %v, broadcast_sizes = [5] : (tensor<3xf32>) -> tensor<5x3xf32>
  // CHECK-NEXT: "stablehlo.dot_general"(%[[X]], %[[M]]) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = xla.dot %x, %m : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: "stablehlo.dot_general"(%[[V]], %[[M]]) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %4 = xla.dot %v, %m : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<6xf32>, tensor<6xf32>, tensor<5x3xf32>, tensor<2x4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func public @batched(
func.func @batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}>
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// Convolution dimension numbers in StableHLO's compact form (NHWC x HWIO -> NHWC).
// CHECK-LABEL: func.func public @conv(
func.func @conv(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: "stablehlo.convolution"(%{{.*}}, %{{.*}}) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<{{\[}}[1, 1], [0, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  %0 = xla.convolution %x, %k, window_strides = [2, 2], padding = [[1, 1], [0, 1]], rhs_dilation = [1, 1], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %0 : tensor<1x4x4x4xf32>
}

// Gather and scatter carry StableHLO's dimension-number attributes.
// CHECK-LABEL: func.func public @gather_scatter(
func.func @gather_scatter(%x: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x3xf32>) {
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %0 = xla.gather %x, %idx, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<3x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: "stablehlo.add"(%[[A]], %[[B]])
  // CHECK: }) : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = xla.scatter (%x), %idx, (%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<3x3xf32>
}
