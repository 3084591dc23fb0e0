// RUN: xla-opt %s -p convert-xla-to-stablehlo | filecheck %s

// convert-xla-to-stablehlo, shape ops: their properties as StableHLO's (i64 arrays,
// i64 dimensions, an i32 tuple index).
// CHECK-LABEL: func.func @shape_ops(
// CHECK-NEXT: "stablehlo.pad"(%{{.*}}, %{{.*}}) <{edge_padding_high = array<i64: 2, -1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 1, 0>}> : (tensor<3x2xi32>, tensor<i32>) -> tensor<8x1xi32>
// CHECK-NEXT: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 4>, start_indices = array<i64: 2>, strides = array<i64: 1>}>
// CHECK-NEXT: "stablehlo.dynamic_slice"(%{{.*}}, %{{.*}}) <{slice_sizes = array<i64: 2>}>
// CHECK-NEXT: "stablehlo.dynamic_update_slice"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
// CHECK-NEXT: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 2, 0>}>
// CHECK-NEXT: "stablehlo.reverse"(%{{.*}}) <{dimensions = array<i64: 0, 2>}>
// CHECK-NEXT: "stablehlo.concatenate"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64}>
// CHECK-NEXT: "stablehlo.get_dimension_size"(%{{.*}}) <{dimension = 0 : i64}> : (tensor<5xf32>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.reshape"(%{{.*}}) : (tensor<4x2x3xf32>) -> tensor<24xf32>
// CHECK-NEXT: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<5xf32>) -> tensor<5x5xf32>
// CHECK-NEXT: %[[T:.*]] = "stablehlo.tuple"(%{{.*}}, %{{.*}}) : (tensor<5xf32>, tensor<i32>) -> tuple<tensor<5xf32>, tensor<i32>>
// CHECK-NEXT: "stablehlo.get_tuple_element"(%[[T]]) <{index = 1 : i32}>
func.func @shape_ops(%a: tensor<3x2xi32>, %z: tensor<i32>, %v: tensor<4x2x3xf32>, %w: tensor<5xf32>, %i: tensor<i32>, %u: tensor<2xf32>) -> (tensor<8x1xi32>, tensor<2xf32>, tensor<2xf32>, tensor<5xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<6x2xi32>, tensor<i32>, tensor<24xf32>, tensor<5x5xf32>, tensor<i32>) {
  %0 = xla.pad %a, %z, edge_padding_low = [1, 0], edge_padding_high = [2, -1], interior_padding = [1, 0] : (tensor<3x2xi32>, tensor<i32>) -> tensor<8x1xi32>
  %1 = xla.slice %w, start_indices = [2], limit_indices = [4], strides = [1] : (tensor<5xf32>) -> tensor<2xf32>
  %2 = xla.dynamic_slice %w, %i, slice_sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  %3 = xla.dynamic_update_slice %w, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  %4 = xla.transpose %v, permutation = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %5 = xla.reverse %v, dimensions = [0, 2] : tensor<4x2x3xf32>
  %6 = xla.concatenate %a, %a, dimension = 0 : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<6x2xi32>
  %7 = xla.get_dimension_size %w, dimension = 0 : (tensor<5xf32>) -> tensor<i32>
  %8 = xla.reshape %v : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %9 = xla.broadcast_in_dim %w, broadcast_dimensions = [1] : (tensor<5xf32>) -> tensor<5x5xf32>
  %t = xla.tuple %w, %i : (tensor<5xf32>, tensor<i32>) -> tuple<tensor<5xf32>, tensor<i32>>
  %10 = xla.get_tuple_element %t, index = 1 : (tuple<tensor<5xf32>, tensor<i32>>) -> tensor<i32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<8x1xi32>, tensor<2xf32>, tensor<2xf32>, tensor<5xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<6x2xi32>, tensor<i32>, tensor<24xf32>, tensor<5x5xf32>, tensor<i32>
}
