// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// CHECK-LABEL: func.func @broadcast_reshape
func.func @broadcast_reshape(%x: tensor<1x2xf32>, %s: tensor<f32>) -> (tensor<1x2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1x2xf32>, tensor<2x1xf32>, tensor<1x2x3xf32>) {
  // CHECK: xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [0, 1] : (tensor<1x2xf32>) -> tensor<1x2x3xf32>
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<1x2x3xf32>
  // CHECK-NEXT: xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK-NEXT: xla.reshape %{{.*}} : (tensor<1x2xf32>) -> tensor<2x1xf32>
  %2 = stablehlo.reshape %x : (tensor<1x2xf32>) -> tensor<2x1xf32>
  // CHECK-NEXT: xla.broadcast %{{.*}}, broadcast_sizes = [2] : (tensor<1x2xf32>) -> tensor<2x1x2xf32>
  %3 = stablehlo.broadcast %x, sizes = [2] : (tensor<1x2xf32>) -> tensor<2x1x2xf32>
  // CHECK-NEXT: xla.transpose %{{.*}}, permutation = [1, 0] : (tensor<1x2xf32>) -> tensor<2x1xf32>
  %4 = stablehlo.transpose %x, dims = [1, 0] : (tensor<1x2xf32>) -> tensor<2x1xf32>
  // CHECK-NEXT: xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [0, 1]
  %5 = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<1x2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x2x3xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1x2xf32>, tensor<2x1xf32>, tensor<1x2x3xf32>
}

// CHECK-LABEL: func.func @slices
func.func @slices(%x: tensor<4x8xf32>, %i: tensor<i32>, %u: tensor<1x2xf32>) -> (tensor<2x2xf32>, tensor<4x8xf32>, tensor<1x2xf32>, tensor<4x8xf32>, tensor<2x8xf32>) {
  // CHECK: xla.slice %{{.*}}, start_indices = [1, 4], limit_indices = [3, 8], strides = [1, 2] : (tensor<4x8xf32>) -> tensor<2x2xf32>
  %0 = stablehlo.slice %x [1:3, 4:8:2] : (tensor<4x8xf32>) -> tensor<2x2xf32>
  // CHECK-NEXT: xla.reverse %{{.*}}, dimensions = [0] : tensor<4x8xf32>
  %1 = stablehlo.reverse %x, dims = [0] : tensor<4x8xf32>
  // CHECK-NEXT: xla.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, slice_sizes = [1, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %2 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  // CHECK-NEXT: xla.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %3 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x8xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  // CHECK-NEXT: xla.slice %{{.*}}, start_indices = [0, 0], limit_indices = [4, 8], strides = [2, 1]
  %4 = "stablehlo.slice"(%x) <{limit_indices = array<i64: 4, 8>, start_indices = array<i64: 0, 0>, strides = array<i64: 2, 1>}> : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<4x8xf32>, tensor<1x2xf32>, tensor<4x8xf32>, tensor<2x8xf32>
}

// CHECK-LABEL: func.func @concatenate_pad
func.func @concatenate_pad(%x: tensor<2x3xf32>, %v: tensor<f32>) -> (tensor<4x3xf32>, tensor<7x4xf32>, tensor<i32>) {
  // CHECK: xla.concatenate %{{.*}}, %{{.*}}, dimension = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: xla.pad %{{.*}}, %{{.*}}, edge_padding_low = [1, 0], edge_padding_high = [2, 1], interior_padding = [2, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<7x4xf32>
  %1 = stablehlo.pad %x, %v, low = [1, 0], high = [2, 1], interior = [2, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<7x4xf32>
  // CHECK-NEXT: xla.get_dimension_size %{{.*}}, dimension = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %2 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<7x4xf32>, tensor<i32>
}

// CHECK-LABEL: func.func @tuples
func.func @tuples(%x: tensor<2xf32>, %y: tensor<i32>) -> (tensor<i32>, tensor<2xf32>, tensor<i32>) {
  // CHECK: %[[T:.*]] = xla.tuple %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
  %t = stablehlo.tuple %x, %y : tuple<tensor<2xf32>, tensor<i32>>
  // CHECK-NEXT: xla.get_tuple_element %[[T]], index = 1 : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %e = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  // CHECK-NEXT: xla.optimization_barrier %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  %b:2 = stablehlo.optimization_barrier %x, %e : tensor<2xf32>, tensor<i32>
  return %e, %b#0, %b#1 : tensor<i32>, tensor<2xf32>, tensor<i32>
}
