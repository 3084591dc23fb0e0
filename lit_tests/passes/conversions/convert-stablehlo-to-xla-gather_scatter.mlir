// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// x[i] and x.at[i].add(1.0), as JAX prints them
// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3], indices_are_sorted = false : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  // CHECK: xla.scatter (%{{.*}}), %{{.*}}, (%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1, indices_are_sorted = false, unique_indices = false update_computation {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: xla.add %[[A]], %[[B]] : tensor<f32>
  // CHECK: } : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %8 = stablehlo.add %arg2, %arg3 : tensor<f32>
    stablehlo.return %8 : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// take_along_axis as JAX prints it: batching dimensions become iota indices
// CHECK-LABEL: func.func @batched_gather_scatter
func.func @batched_gather_scatter(%x: tensor<2x3xf32>, %i: tensor<2x3x1xi32>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[IOTA:.*]] = xla.iota iota_dimension = 0 : tensor<2x3x1xi32>
  // CHECK-NEXT: %[[IDX:.*]] = xla.concatenate %{{.*}}, %[[IOTA]], dimension = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
  // CHECK-NEXT: xla.gather %x, %[[IDX]], offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 2, slice_sizes = [1, 1], indices_are_sorted = false : (tensor<2x3xf32>, tensor<2x3x2xi32>) -> tensor<2x3xf32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
  // CHECK: %[[IOTA2:.*]] = xla.iota iota_dimension = 0 : tensor<2x3x1xi32>
  // CHECK-NEXT: %[[IDX2:.*]] = xla.concatenate %{{.*}}, %[[IOTA2]], dimension = 2
  // CHECK-NEXT: xla.scatter (%x), %[[IDX2]], (%u), update_window_dims = [], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2
  %1 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @rng
func.func @rng(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xui64>) -> (tensor<3xf32>, tensor<3xf32>, tensor<2xui64>, tensor<4xui32>) {
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  // CHECK: xla.rng_uniform %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %0 = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  // CHECK: xla.rng_normal %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %1 = "stablehlo.rng"(%a, %b, %shape) <{rng_distribution = #stablehlo<rng_distribution NORMAL>}> : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  // CHECK: xla.rng_bit_generator %{{.*}}, rng_algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %2:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %0, %1, %2#0, %2#1 : tensor<3xf32>, tensor<3xf32>, tensor<2xui64>, tensor<4xui32>
}

// CHECK-LABEL: func.func @custom_call
func.func @custom_call(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "my_kernel", backend_config = "cfg", has_side_effect = true : tensor<2xf32>
  %0 = stablehlo.custom_call @my_kernel(%x) {backend_config = "cfg", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  // sharding annotations pass their operand through
  // CHECK-NOT: Sharding
  // CHECK: func.return %{{.*}}, %x
  %1 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
