// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The spec's Gather examples: 5 slices [8, 6] of a [16, 11] array, then the same
// with [4, 5] batches of start indices, then tf.gather_nd (whole rows).
// CHECK-LABEL: func.func @gather_spec_examples
func.func @gather_spec_examples(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi64>, %idx2: tensor<4x5x2xi64>, %rows: tensor<4x5x1xi64>) {
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi64>) -> tensor<5x8x6xf32>
  // GENERIC: "xla.gather"(%{{.*}}, %{{.*}}) <{offset_dims = array<i64: 1, 2>, collapsed_slice_dims = array<i64>, start_index_map = array<i64: 0, 1>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 8, 6>}> : (tensor<16x11xf32>, tensor<5x2xi64>) -> tensor<5x8x6xf32>
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi64>) -> tensor<5x8x6xf32>
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [2, 3], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 2, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<4x5x2xi64>) -> tensor<4x5x8x6xf32>
  %1 = xla.gather %operand, %idx2, offset_dims = [2, 3], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 2, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<4x5x2xi64>) -> tensor<4x5x8x6xf32>
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 11], indices_are_sorted = true : (tensor<16x11xf32>, tensor<4x5x1xi64>) -> tensor<4x5x11xf32>
  // GENERIC: indices_are_sorted = true
  %2 = xla.gather %operand, %rows, offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 11], indices_are_sorted = true : (tensor<16x11xf32>, tensor<4x5x1xi64>) -> tensor<4x5x11xf32>
  return
}

// CHECK-LABEL: func.func @gather_layouts
func.func @gather_layouts(%operand: tensor<3x4x5xi32>, %leading: tensor<2x7xi32>, %vector: tensor<7xui32>, %one: tensor<1xi32>) {
  // index_vector_dim = 0: the index vectors run along the first dimension.
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [2, 0], index_vector_dim = 0, slice_sizes = [2, 1, 5] : (tensor<3x4x5xi32>, tensor<2x7xi32>) -> tensor<2x7x5xi32>
  %0 = xla.gather %operand, %leading, offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [2, 0], index_vector_dim = 0, slice_sizes = [2, 1, 5] : (tensor<3x4x5xi32>, tensor<2x7xi32>) -> tensor<2x7x5xi32>
  // index_vector_dim = rank: an implicit trailing dimension of size 1.
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [1, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1, slice_sizes = [3, 1, 5] : (tensor<3x4x5xi32>, tensor<7xui32>) -> tensor<7x3x5xi32>
  %1 = xla.gather %operand, %vector, offset_dims = [1, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1, slice_sizes = [3, 1, 5] : (tensor<3x4x5xi32>, tensor<7xui32>) -> tensor<7x3x5xi32>
  // No batch dimension; zero-sized slices are allowed.
  // CHECK: xla.gather %{{.*}}, %{{.*}}, offset_dims = [0, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0, slice_sizes = [1, 0, 5] : (tensor<3x4x5xi32>, tensor<1xi32>) -> tensor<0x5xi32>
  %2 = xla.gather %operand, %one, offset_dims = [0, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0, slice_sizes = [1, 0, 5] : (tensor<3x4x5xi32>, tensor<1xi32>) -> tensor<0x5xi32>
  return
}

// CHECK-LABEL: func.func @scatter
func.func @scatter(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // CHECK: xla.scatter (%{{.*}}), %{{.*}}, (%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1, indices_are_sorted = true, unique_indices = false update_computation {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK-NEXT: xla.add
  // CHECK-NEXT: xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // GENERIC: "xla.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, indices_are_sorted = true, unique_indices = false, operandSegmentSizes = array<i32: 1, 1, 1>}> ({
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1, indices_are_sorted = true, unique_indices = false update_computation {
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %s = xla.add %cur, %new : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// Two inputs updated together; windows smaller than the operand; the index vectors
// along dimension 0 and an implicit index vector dimension.
// CHECK-LABEL: func.func @scatter_variadic
func.func @scatter_variadic(%a: tensor<4x5xf32>, %b: tensor<4x5xi32>, %idx: tensor<2x3xi64>, %ua: tensor<3x2x4xf32>, %ub: tensor<3x2x4xi32>, %vec: tensor<6xi32>, %row: tensor<6x5xf32>) {
  // CHECK: %{{.*}}, %{{.*}} = xla.scatter (%{{.*}}, %{{.*}}), %{{.*}}, (%{{.*}}, %{{.*}}), update_window_dims = [1, 2], inserted_window_dims = [], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 0 update_computation {
  // CHECK: xla.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK: } : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<2x3xi64>, tensor<3x2x4xf32>, tensor<3x2x4xi32>) -> (tensor<4x5xf32>, tensor<4x5xi32>)
  // GENERIC: operandSegmentSizes = array<i32: 2, 1, 2>
  %0, %1 = xla.scatter (%a, %b), %idx, (%ua, %ub), update_window_dims = [1, 2], inserted_window_dims = [], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 0 update_computation {
  ^bb0(%x0: tensor<f32>, %x1: tensor<i32>, %y0: tensor<f32>, %y1: tensor<i32>):
    xla.return %y0, %y1 : tensor<f32>, tensor<i32>
  } : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<2x3xi64>, tensor<3x2x4xf32>, tensor<3x2x4xi32>) -> (tensor<4x5xf32>, tensor<4x5xi32>)
  // CHECK: xla.scatter (%{{.*}}), %{{.*}}, (%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  // CHECK: } : (tensor<4x5xf32>, tensor<6xi32>, tensor<6x5xf32>) -> tensor<4x5xf32>
  %2 = xla.scatter (%a), %vec, (%row), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %m = xla.maximum %cur, %new : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x5xf32>, tensor<6xi32>, tensor<6x5xf32>) -> tensor<4x5xf32>
  return
}

// Input, indices and updates of one type: still one result.
// CHECK-LABEL: func.func @scatter_same_types
func.func @scatter_same_types(%v: tensor<1xi32>) -> tensor<1xi32> {
  // CHECK: } : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %0 = xla.scatter (%v), %v, (%v), update_window_dims = [0], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 0 update_computation {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    xla.return %b : tensor<i32>
  } : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
