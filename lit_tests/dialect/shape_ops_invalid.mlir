// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @broadcast_negative_size(%s: tensor<f32>) {
  // expected-error @+1 {{broadcast_sizes [2, -1] must be non-negative: [-1]}}
  %0 = xla.broadcast %s, broadcast_sizes = [2, -1] : (tensor<f32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_new_dims_on_the_left(%v: tensor<3xf32>) {
  // expected-error @+1 {{inferred result type tensor<2x3xf32> does not match declared tensor<3x2xf32>}}
  %0 = xla.broadcast %v, broadcast_sizes = [2] : (tensor<3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_count(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1] must have one entry per operand dimension (2)}}
  %0 = xla.broadcast_in_dim %m, broadcast_dimensions = [1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_out_of_range(%v: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2] out of range [0, 2): [2]}}
  %0 = xla.broadcast_in_dim %v, broadcast_dimensions = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_repeated(%m: tensor<3x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1, 1] has repeated values [1]}}
  %0 = xla.broadcast_in_dim %m, broadcast_dimensions = [1, 1] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_size(%v: tensor<3xf32>) {
  // expected-error @+1 {{operand dimension 0 of size 3 must be 1 or equal to result dimension 0 of size 2}}
  %0 = xla.broadcast_in_dim %v, broadcast_dimensions = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_element_type(%v: tensor<3xf32>) {
  // expected-error @+1 {{result element type i32 must equal the operand element type f32}}
  %0 = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xi32>
  func.return
}

// -----

func.func @reshape_element_count(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{reshape of [4, 2, 3] (24 elements) to [5, 5] (25 elements) must preserve the element count}}
  %0 = xla.reshape %v : (tensor<4x2x3xf32>) -> tensor<5x5xf32>
  func.return
}

// -----

func.func @reshape_dimensions_not_a_permutation(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 2, 2] is not a permutation of [0, 1, 2]}}
  %0 = xla.reshape %v, dimensions = [0, 2, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  func.return
}

// -----

func.func @reshape_dimensions_too_few(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dimensions [1, 0] is not a permutation of [0, 1, 2]}}
  %0 = xla.reshape %v, dimensions = [1, 0] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  func.return
}

// -----

func.func @reshape_element_type(%v: tensor<4xf32>) {
  // expected-error @+1 {{result element type f64 must equal the operand element type f32}}
  %0 = xla.reshape %v : (tensor<4xf32>) -> tensor<2x2xf64>
  func.return
}

// -----

func.func @collapse_not_consecutive(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 2] must be consecutive and in increasing order}}
  %0 = xla.collapse %v, dimensions = [0, 2] : (tensor<4x2x3xf32>) -> tensor<12x2xf32>
  func.return
}

// -----

func.func @collapse_not_in_order(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dimensions [1, 0] must be consecutive and in increasing order}}
  %0 = xla.collapse %v, dimensions = [1, 0] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  func.return
}

// -----

func.func @collapse_out_of_range(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dimensions [2, 3] out of range [0, 3): [3]}}
  %0 = xla.collapse %v, dimensions = [2, 3] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @collapse_result(%v: tensor<4x2x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<8x3xf32> does not match declared tensor<4x6xf32>}}
  %0 = xla.collapse %v, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @transpose_not_a_permutation(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [0, 0] is not a permutation of [0, 1]}}
  %0 = xla.transpose %m, permutation = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @transpose_result(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<3x2xf32> does not match declared tensor<2x3xf32>}}
  %0 = xla.transpose %m, permutation = [1, 0] : tensor<2x3xf32>
  func.return
}

// -----

func.func @reverse_out_of_range(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 2] out of range [0, 2): [2]}}
  %0 = xla.reverse %m, dimensions = [0, 2] : tensor<2x3xf32>
  func.return
}

// -----

func.func @reverse_repeated(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [1, 1] has repeated values [1]}}
  %0 = xla.reverse %m, dimensions = [1, 1] : tensor<2x3xf32>
  func.return
}

// -----

func.func @reverse_result(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<2x3xf32> does not match declared tensor<3x2xf32>}}
  %0 = xla.reverse %m, dimensions = [0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @slice_negative_start(%a: tensor<5xf32>) {
  // expected-error @+1 {{dimension 0: need 0 <= start <= limit <= size, got start -1, limit 2, size 5}}
  %0 = xla.slice %a, start_indices = [-1], limit_indices = [2], strides = [1] : (tensor<5xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @slice_start_after_limit(%a: tensor<5xf32>) {
  // expected-error @+1 {{dimension 0: need 0 <= start <= limit <= size, got start 3, limit 2, size 5}}
  %0 = xla.slice %a, start_indices = [3], limit_indices = [2], strides = [1] : (tensor<5xf32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @slice_limit_past_size(%b: tensor<4x3xf32>) {
  // expected-error @+1 {{dimension 1: need 0 <= start <= limit <= size, got start 1, limit 4, size 3}}
  %0 = xla.slice %b, start_indices = [2, 1], limit_indices = [4, 4], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @slice_zero_stride(%a: tensor<5xf32>) {
  // expected-error @+1 {{dimension 0: stride must be at least 1, got 0}}
  %0 = xla.slice %a, start_indices = [0], limit_indices = [5], strides = [0] : (tensor<5xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @slice_one_per_dimension(%b: tensor<4x3xf32>) {
  // expected-error @+1 {{limit_indices [4] must have one entry per operand dimension (2)}}
  %0 = xla.slice %b, start_indices = [0, 0], limit_indices = [4], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @slice_result(%a: tensor<5xf32>) {
  // expected-error @+1 {{inferred result type tensor<3xf32> does not match declared tensor<2xf32>}}
  %0 = xla.slice %a, start_indices = [0], limit_indices = [5], strides = [2] : (tensor<5xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_slice_index_count(%b: tensor<4x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{1 start indices given, but the operand [4, 3] has rank 2; need one per dimension}}
  %0 = xla.dynamic_slice %b, %i, slice_sizes = [2, 2] : (tensor<4x3xf32>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @dynamic_slice_index_not_scalar(%a: tensor<5xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{start index #0 must be a rank-0 integer tensor, got tensor<1xi32>}}
  %0 = xla.dynamic_slice %a, %i, slice_sizes = [2] : (tensor<5xf32>, tensor<1xi32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_slice_index_not_integer(%a: tensor<5xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{start index #0 must be a rank-0 integer tensor, got tensor<f32>}}
  %0 = xla.dynamic_slice %a, %i, slice_sizes = [2] : (tensor<5xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_slice_index_types_differ(%b: tensor<4x3xf32>, %i: tensor<i32>, %j: tensor<i64>) {
  // expected-error @+1 {{start indices must have one type, but #0 is tensor<i32> and #1 is tensor<i64>}}
  %0 = xla.dynamic_slice %b, %i, %j, slice_sizes = [2, 2] : (tensor<4x3xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @dynamic_slice_size_too_large(%b: tensor<4x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{slice_sizes [2, 4]: size 4 of dimension 1 is not in [0, 3] (operand [4, 3])}}
  %0 = xla.dynamic_slice %b, %i, %i, slice_sizes = [2, 4] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dynamic_slice_size_negative(%a: tensor<5xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{slice_sizes [-1]: size -1 of dimension 0 is not in [0, 5] (operand [5])}}
  %0 = xla.dynamic_slice %a, %i, slice_sizes = [-1] : (tensor<5xf32>, tensor<i32>) -> tensor<1xf32>
  func.return
}

// -----

func.func @dynamic_slice_result(%a: tensor<5xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{inferred result type tensor<2xf32> does not match declared tensor<3xf32>}}
  %0 = xla.dynamic_slice %a, %i, slice_sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_index_count(%b: tensor<4x3xf32>, %u: tensor<3x2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{3 start indices given, but the operand [4, 3] has rank 2; need one per dimension}}
  %0 = xla.dynamic_update_slice %b, %u, %i, %i, %i : (tensor<4x3xf32>, tensor<3x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_index_type(%a: tensor<5xf32>, %u: tensor<2xf32>, %i: tensor<i1>) {
  // expected-error @+1 {{start index #0 must be a rank-0 integer tensor, got tensor<i1>}}
  %0 = xla.dynamic_update_slice %a, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i1>) -> tensor<5xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_rank(%b: tensor<4x3xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{update [2] must have the rank of the operand [4, 3]}}
  %0 = xla.dynamic_update_slice %b, %u, %i, %i : (tensor<4x3xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_too_large(%b: tensor<4x3xf32>, %u: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{update [3, 4] must not be larger than the operand [4, 3] in any dimension}}
  %0 = xla.dynamic_update_slice %b, %u, %i, %i : (tensor<4x3xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_element_type(%a: tensor<5xf32>, %u: tensor<2xi32>, %i: tensor<i32>) {
  // expected-error @+1 {{update element type i32 must equal the operand element type f32}}
  %0 = xla.dynamic_update_slice %a, %u, %i : (tensor<5xf32>, tensor<2xi32>, tensor<i32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_result(%a: tensor<5xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{inferred result type tensor<5xf32> does not match declared tensor<2xf32>}}
  %0 = xla.dynamic_update_slice %a, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @concatenate_no_inputs() {
  // expected-error @+1 {{concatenate needs at least one input}}
  %0 = xla.concatenate dimension = 0 : tensor<2xf32>
  func.return
}

// -----

func.func @concatenate_rank_0(%s: tensor<f32>) {
  // expected-error @+1 {{rank-0 inputs cannot be concatenated}}
  %0 = xla.concatenate %s, %s, dimension = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @concatenate_dimension_out_of_range(%v: tensor<2xf32>) {
  // expected-error @+1 {{dimension 1 out of range [0, 1)}}
  %0 = xla.concatenate %v, %v, dimension = 1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @concatenate_rank(%v: tensor<2xf32>, %m: tensor<2x2xf32>) {
  // expected-error @+1 {{input 1 [2, 2] must have the rank of input 0 [2]}}
  %0 = xla.concatenate %v, %m, dimension = 0 : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @concatenate_other_dims(%a: tensor<3x2xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{input 1 [1, 3] differs from input 0 [3, 2] in dimension 1, which is not the concatenated dimension 0}}
  %0 = xla.concatenate %a, %b, dimension = 0 : (tensor<3x2xf32>, tensor<1x3xf32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @concatenate_element_type(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{input #1 element type i32 must equal the input #0 element type f32}}
  %0 = xla.concatenate %a, %b, dimension = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @concatenate_result(%a: tensor<3x2xf32>, %b: tensor<1x2xf32>) {
  // expected-error @+1 {{inferred result type tensor<4x2xf32> does not match declared tensor<3x2xf32>}}
  %0 = xla.concatenate %a, %b, dimension = 0 : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @pad_negative_interior(%a: tensor<3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{interior_padding [-1] must be non-negative: [-1]}}
  %0 = xla.pad %a, %z, edge_padding_low = [0], edge_padding_high = [0], interior_padding = [-1] : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>
  func.return
}

// -----

func.func @pad_negative_result(%a: tensor<3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding [3] gives negative dimensions [-1]}}
  %0 = xla.pad %a, %z, edge_padding_low = [-2], edge_padding_high = [-2], interior_padding = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @pad_one_per_dimension(%m: tensor<3x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{edge_padding_high [1] must have one entry per operand dimension (2)}}
  %0 = xla.pad %m, %z, edge_padding_low = [0, 0], edge_padding_high = [1], interior_padding = [0, 0] : (tensor<3x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @pad_value_not_scalar(%a: tensor<3xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{padding_value must be a rank-0 tensor, got tensor<1xf32>}}
  %0 = xla.pad %a, %z, edge_padding_low = [0], edge_padding_high = [0], interior_padding = [0] : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @pad_value_element_type(%a: tensor<3xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{padding_value element type i32 must equal the operand element type f32}}
  %0 = xla.pad %a, %z, edge_padding_low = [0], edge_padding_high = [0], interior_padding = [0] : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @pad_result(%a: tensor<3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{inferred result type tensor<8xf32> does not match declared tensor<3xf32>}}
  %0 = xla.pad %a, %z, edge_padding_low = [1], edge_padding_high = [2], interior_padding = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @get_dimension_size_out_of_range(%v: tensor<10xf32>) {
  // expected-error @+1 {{dimension 1 out of range [0, 1) for operand [10]}}
  %0 = xla.get_dimension_size %v, dimension = 1 : (tensor<10xf32>) -> tensor<i32>
  func.return
}

// -----

func.func @get_dimension_size_result(%v: tensor<10xf32>) {
  // expected-error @+1 {{inferred result type tensor<i32> does not match declared tensor<i64>}}
  %0 = xla.get_dimension_size %v, dimension = 0 : (tensor<10xf32>) -> tensor<i64>
  func.return
}

// -----

func.func @set_dimension_size_out_of_range(%v: tensor<10xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{dimension -1 out of range [0, 1) for operand [10]}}
  %0 = xla.set_dimension_size %v, %n, dimension = -1 : (tensor<10xf32>, tensor<i32>) -> tensor<10xf32>
  func.return
}

// -----

func.func @set_dimension_size_size_type(%v: tensor<10xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{size must be a tensor<i32>, got tensor<i64>}}
  %0 = xla.set_dimension_size %v, %n, dimension = 0 : (tensor<10xf32>, tensor<i64>) -> tensor<10xf32>
  func.return
}

// -----

func.func @set_dimension_size_result(%v: tensor<10xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{inferred result type tensor<10xf32> does not match declared tensor<5xf32>}}
  %0 = xla.set_dimension_size %v, %n, dimension = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @tuple_result(%v: tensor<10xf32>, %s: tensor<i32>) {
  // expected-error @+1 {{inferred result type tuple<tensor<10xf32>, tensor<i32>> does not match declared tuple<tensor<i32>, tensor<10xf32>>}}
  %0 = xla.tuple %v, %s : (tensor<10xf32>, tensor<i32>) -> tuple<tensor<i32>, tensor<10xf32>>
  func.return
}

// -----

func.func @get_tuple_element_out_of_range(%t: tuple<tensor<10xf32>, tensor<i32>>) {
  // expected-error @+1 {{index 2 out of range [0, 2) of the tuple}}
  %0 = xla.get_tuple_element %t, index = 2 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<i32>
  func.return
}

// -----

func.func @get_tuple_element_result(%t: tuple<tensor<10xf32>, tensor<i32>>) {
  // expected-error @+1 {{inferred result type tensor<i32> does not match declared tensor<10xf32>}}
  %0 = xla.get_tuple_element %t, index = 1 : (tuple<tensor<10xf32>, tensor<i32>>) -> tensor<10xf32>
  func.return
}

// -----

func.func @optimization_barrier_types(%v: tensor<10xf32>, %s: tensor<i32>) {
  // expected-error @+1 {{inferred result #1 type tensor<i32> does not match declared tensor<i64>}}
  %0:2 = xla.optimization_barrier %v, %s : (tensor<10xf32>, tensor<i32>) -> (tensor<10xf32>, tensor<i64>)
  func.return
}

// -----

func.func @optimization_barrier_count(%v: tensor<10xf32>) {
  // expected-error @+1 {{expected 1 results, but the op declares 2}}
  %0:2 = xla.optimization_barrier %v : (tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>)
  func.return
}
