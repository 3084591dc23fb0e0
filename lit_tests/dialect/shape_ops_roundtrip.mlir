// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @broadcasts
func.func @broadcasts(%s: tensor<f32>, %v: tensor<3xf32>, %m: tensor<1x3xi32>) {
  // The spec's example: a scalar broadcast with broadcast_sizes {2, 3} is f32[2, 3].
  // CHECK: xla.broadcast %{{.*}}, broadcast_sizes = [2, 3] : (tensor<f32>) -> tensor<2x3xf32>
  // GENERIC: "xla.broadcast"(%{{.*}}) <{broadcast_sizes = array<i64: 2, 3>}> : (tensor<f32>) -> tensor<2x3xf32>
  %0 = xla.broadcast %s, broadcast_sizes = [2, 3] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: xla.broadcast %{{.*}}, broadcast_sizes = [4] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = xla.broadcast %v, broadcast_sizes = [4] : (tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // GENERIC: "xla.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
  %2 = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // A size-1 operand dimension expands; dimensions need not be sorted.
  // CHECK: xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [2, 0] : (tensor<1x3xi32>) -> tensor<3x5x4xi32>
  %3 = xla.broadcast_in_dim %m, broadcast_dimensions = [2, 0] : (tensor<1x3xi32>) -> tensor<3x5x4xi32>
  func.return
}

// CHECK-LABEL: func.func @reshapes
func.func @reshapes(%v: tensor<4x2x3xf32>, %one: tensor<1x1xf32>, %five: tensor<f32>) {
  // The spec's Reshape examples.
  // CHECK: xla.reshape %{{.*}} : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // GENERIC: "xla.reshape"(%{{.*}}) : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %0 = xla.reshape %v : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // CHECK: xla.reshape %{{.*}}, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  %1 = xla.reshape %v, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  // CHECK: xla.reshape %{{.*}}, dimensions = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x6x2xf32>
  // GENERIC: "xla.reshape"(%{{.*}}) <{dimensions = array<i64: 1, 2, 0>}> : (tensor<4x2x3xf32>) -> tensor<2x6x2xf32>
  %2 = xla.reshape %v, dimensions = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x6x2xf32>
  // CHECK: xla.reshape %{{.*}}, dimensions = [0, 1] : (tensor<1x1xf32>) -> tensor<f32>
  %3 = xla.reshape %one, dimensions = [0, 1] : (tensor<1x1xf32>) -> tensor<f32>
  // CHECK: xla.reshape %{{.*}}, dimensions = [] : (tensor<f32>) -> tensor<1x1xf32>
  %4 = xla.reshape %five, dimensions = [] : (tensor<f32>) -> tensor<1x1xf32>
  // The spec's Collapse examples v012, v01 and v12.
  // CHECK: xla.collapse %{{.*}}, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // GENERIC: "xla.collapse"(%{{.*}}) <{dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %5 = xla.collapse %v, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // CHECK: xla.collapse %{{.*}}, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  %6 = xla.collapse %v, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  // CHECK: xla.collapse %{{.*}}, dimensions = [1, 2] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  %7 = xla.collapse %v, dimensions = [1, 2] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  // CHECK: xla.transpose %{{.*}}, permutation = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "xla.transpose"(%{{.*}}) <{permutation = array<i64: 1, 2, 0>}> : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %8 = xla.transpose %v, permutation = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK: xla.reverse %{{.*}}, dimensions = [0, 2] : tensor<4x2x3xf32>
  // GENERIC: "xla.reverse"(%{{.*}}) <{dimensions = array<i64: 0, 2>}> : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %9 = xla.reverse %v, dimensions = [0, 2] : tensor<4x2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @slices
func.func @slices(%a: tensor<5xf32>, %b: tensor<4x3xf32>, %u: tensor<2xf32>, %ub: tensor<3x2xf32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<ui8>) {
  // The spec's Slice examples: Slice(a, {2}, {4}) and Slice(b, {2, 1}, {4, 3}).
  // CHECK: xla.slice %{{.*}}, start_indices = [2], limit_indices = [4], strides = [1] : (tensor<5xf32>) -> tensor<2xf32>
  // GENERIC: "xla.slice"(%{{.*}}) <{start_indices = array<i64: 2>, limit_indices = array<i64: 4>, strides = array<i64: 1>}> : (tensor<5xf32>) -> tensor<2xf32>
  %0 = xla.slice %a, start_indices = [2], limit_indices = [4], strides = [1] : (tensor<5xf32>) -> tensor<2xf32>
  // CHECK: xla.slice %{{.*}}, start_indices = [2, 1], limit_indices = [4, 3], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  %1 = xla.slice %b, start_indices = [2, 1], limit_indices = [4, 3], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  // ceil((5 - 0) / 2) = 3
  // CHECK: xla.slice %{{.*}}, start_indices = [0], limit_indices = [5], strides = [2] : (tensor<5xf32>) -> tensor<3xf32>
  %2 = xla.slice %a, start_indices = [0], limit_indices = [5], strides = [2] : (tensor<5xf32>) -> tensor<3xf32>
  // The spec's DynamicSlice examples.
  // CHECK: xla.dynamic_slice %{{.*}}, %{{.*}}, slice_sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  // GENERIC: "xla.dynamic_slice"(%{{.*}}, %{{.*}}) <{slice_sizes = array<i64: 2>}> : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  %3 = xla.dynamic_slice %a, %i, slice_sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  // CHECK: xla.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, slice_sizes = [2, 2] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %4 = xla.dynamic_slice %b, %i, %j, slice_sizes = [2, 2] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  // CHECK: xla.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, slice_sizes = [0, 3] : (tensor<4x3xf32>, tensor<ui8>, tensor<ui8>) -> tensor<0x3xf32>
  %5 = xla.dynamic_slice %b, %k, %k, slice_sizes = [0, 3] : (tensor<4x3xf32>, tensor<ui8>, tensor<ui8>) -> tensor<0x3xf32>
  // The spec's DynamicUpdateSlice examples.
  // CHECK: xla.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}} : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  // GENERIC: "xla.dynamic_update_slice"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  %6 = xla.dynamic_update_slice %a, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  // CHECK: xla.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  %7 = xla.dynamic_update_slice %b, %ub, %i, %j : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: func.func @concatenate_and_pad
func.func @concatenate_and_pad(%x: tensor<2xi32>, %a: tensor<3x2xi32>, %b: tensor<1x2xi32>, %z: tensor<i32>) {
  // The spec's Concat examples: three f32[2] along 0, and 3x2 with 1x2 along 0.
  // CHECK: xla.concatenate %{{.*}}, %{{.*}}, %{{.*}}, dimension = 0 : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6xi32>
  // GENERIC: "xla.concatenate"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension = 0 : i64}> : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6xi32>
  %0 = xla.concatenate %x, %x, %x, dimension = 0 : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6xi32>
  // CHECK: xla.concatenate %{{.*}}, %{{.*}}, dimension = 0 : (tensor<3x2xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  %1 = xla.concatenate %a, %b, dimension = 0 : (tensor<3x2xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  // CHECK: xla.concatenate %{{.*}}, dimension = 1 : tensor<3x2xi32>
  %2 = xla.concatenate %a, dimension = 1 : tensor<3x2xi32>
  // low 1 + high 2 + 3 + 2 * interior 1 = 8; and 0 - 1 + 2 + 1 * 0 = 1
  // CHECK: xla.pad %{{.*}}, %{{.*}}, edge_padding_low = [1, 0], edge_padding_high = [2, -1], interior_padding = [1, 0] : (tensor<3x2xi32>, tensor<i32>) -> tensor<8x1xi32>
  // GENERIC: "xla.pad"(%{{.*}}, %{{.*}}) <{edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 2, -1>, interior_padding = array<i64: 1, 0>}> : (tensor<3x2xi32>, tensor<i32>) -> tensor<8x1xi32>
  %3 = xla.pad %a, %z, edge_padding_low = [1, 0], edge_padding_high = [2, -1], interior_padding = [1, 0] : (tensor<3x2xi32>, tensor<i32>) -> tensor<8x1xi32>
  func.return
}

// CHECK-LABEL: func.func @dimension_sizes
func.func @dimension_sizes(%v: tensor<10xf32>, %five: tensor<i32>) -> tensor<i32> {
  // CHECK: xla.get_dimension_size %{{.*}}, dimension = 0 : (tensor<10xf32>) -> tensor<i32>
  // GENERIC: "xla.get_dimension_size"(%{{.*}}) <{dimension = 0 : i64}> : (tensor<10xf32>) -> tensor<i32>
  %0 = xla.get_dimension_size %v, dimension = 0 : (tensor<10xf32>) -> tensor<i32>
  // The spec's example: the padded f32[10] keeps its static shape.
  // CHECK: xla.set_dimension_size %{{.*}}, %{{.*}}, dimension = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
  // GENERIC: "xla.set_dimension_size"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64}> : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
  %1 = xla.set_dimension_size %v, %five, dimension = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @tuples
func.func @tuples(%v: tensor<10xf32>, %s: tensor<i32>, %t: !xla.token) {
  // The spec's example: t: (f32[10], s32) = tuple(v, s); gettupleelement(t, 1) is s32.
  // CHECK: %[[T:.*]] = xla.tuple %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<i32>) -> tuple<tensor<10xf32>, tensor<i32>>
  // GENERIC: "xla.tuple"(%{{.*}}, %{{.*}}) : (tensor<10xf32>, tensor<i32>) -> tuple<tensor<10xf32>, tensor<i32>>
  %0 = xla.tuple %v, %s : (tensor<10xf32>, tensor<i32>) -> tuple<tensor<10xf32>, tensor<i32>>
  // CHECK: xla.get_tuple_element %[[T]], index = 1 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<i32>
  // GENERIC: "xla.get_tuple_element"(%{{.*}}) <{index = 1 : i64}> : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<i32>
  %1 = xla.get_tuple_element %0, index = 1 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<i32>
  // Tuples nest and hold tokens.
  // CHECK: xla.tuple %{{.*}}, %{{.*}} : (tuple<tensor<10xf32>, tensor<i32>>, !xla.token) -> tuple<tuple<tensor<10xf32>, tensor<i32>>, !xla.token>
  %2 = xla.tuple %0, %t : (tuple<tensor<10xf32>, tensor<i32>>, !xla.token) -> tuple<tuple<tensor<10xf32>, tensor<i32>>, !xla.token>
  // CHECK: xla.get_tuple_element %{{.*}}, index = 0 : (tuple<tuple<tensor<10xf32>, tensor<i32>>, !xla.token>) -> tuple<tensor<10xf32>, tensor<i32>>
  %3 = xla.get_tuple_element %2, index = 0 : (tuple<tuple<tensor<10xf32>, tensor<i32>>, !xla.token>) -> tuple<tensor<10xf32>, tensor<i32>>
  // CHECK: xla.tuple : tuple<>
  %4 = xla.tuple : tuple<>
  func.return
}

// CHECK-LABEL: func.func @optimization_barrier
func.func @optimization_barrier(%v: tensor<10xf32>, %s: tensor<i32>) {
  // CHECK: xla.optimization_barrier %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<i32>) -> (tensor<10xf32>, tensor<i32>)
  // GENERIC: "xla.optimization_barrier"(%{{.*}}, %{{.*}}) : (tensor<10xf32>, tensor<i32>) -> (tensor<10xf32>, tensor<i32>)
  %0:2 = xla.optimization_barrier %v, %s : (tensor<10xf32>, tensor<i32>) -> (tensor<10xf32>, tensor<i32>)
  // CHECK: xla.optimization_barrier %{{.*}} : tensor<10xf32>
  %1 = xla.optimization_barrier %v : tensor<10xf32>
  func.return
}
