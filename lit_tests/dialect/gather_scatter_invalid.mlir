// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @gather_float_indices(%operand: tensor<16x11xf32>, %idx: tensor<5x2xf32>) {
  // expected-error @+1 {{start_indices must have an integer element type, got tensor<5x2xf32>}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xf32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_index_vector_dim_too_big(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{index_vector_dim 3 out of range [0, 2] of start_indices [5, 2]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 3, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_index_vector_dim_negative(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{index_vector_dim -1 out of range [0, 2] of start_indices [5, 2]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = -1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_slice_sizes_rank(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{slice_sizes [8] must have one entry per operand dimension (2)}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_offset_dims_repeated(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{offset_dims [1, 1] has repeated values [1]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 1], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_offset_dims_unsorted(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{offset_dims [2, 1] must be strictly increasing}}
  %0 = xla.gather %operand, %idx, offset_dims = [2, 1], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

// The result has rank 1 (batch) + 2 (offset): offset dim 3 does not exist.
func.func @gather_offset_dims_out_of_range(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{offset_dims [1, 3] out of range [0, 3): [3]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 3], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_collapsed_repeated(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{collapsed_slice_dims [0, 0] has repeated values [0]}}
  %0 = xla.gather %operand, %idx, offset_dims = [], collapsed_slice_dims = [0, 0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5xf32>
  return
}

// -----

func.func @gather_collapsed_unsorted(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{collapsed_slice_dims [1, 0] must be strictly increasing}}
  %0 = xla.gather %operand, %idx, offset_dims = [], collapsed_slice_dims = [1, 0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5xf32>
  return
}

// -----

func.func @gather_collapsed_out_of_range(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{collapsed_slice_dims [2] out of range [0, 2): [2]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 11] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_dims_do_not_cover_operand(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{offset_dims [1] and collapsed_slice_dims [] must together have operand rank 2 entries}}
  %0 = xla.gather %operand, %idx, offset_dims = [1], collapsed_slice_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 11] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_start_index_map_size(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{start_index_map [0] must have one entry per index-vector element (2)}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

// index_vector_dim = rank(start_indices): index vectors of one element.
func.func @gather_start_index_map_size_implicit(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{start_index_map [0, 1] must have one entry per index-vector element (1)}}
  %0 = xla.gather %operand, %idx, offset_dims = [2, 3], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 2, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x2x8x6xf32>
  return
}

// -----

func.func @gather_start_index_map_repeated(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{start_index_map [1, 1] has repeated values [1]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [1, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_start_index_map_out_of_range(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{start_index_map [0, 2] out of range [0, 2): [2]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 2], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_slice_too_big(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{slice_sizes [8, 12] out of bounds of operand [16, 11] in dimension 1}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 12] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x12xf32>
  return
}

// -----

func.func @gather_slice_negative(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{slice_sizes [-1, 6] out of bounds of operand [16, 11] in dimension 0}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [-1, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf32>
  return
}

// -----

func.func @gather_collapsed_slice_not_one(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{collapsed_slice_dims [0] must have slice size 1, but slice_sizes is [2, 11]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 11] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_collapsed_slice_zero(%operand: tensor<16x11xf32>, %idx: tensor<5x1xi32>) {
  // expected-error @+1 {{collapsed_slice_dims [0] must have slice size 1, but slice_sizes is [0, 11]}}
  %0 = xla.gather %operand, %idx, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [0, 11] : (tensor<16x11xf32>, tensor<5x1xi32>) -> tensor<5x11xf32>
  return
}

// -----

func.func @gather_wrong_result_shape(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{inferred result type tensor<5x8x6xf32> does not match declared tensor<5x6x8xf32>}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x6x8xf32>
  return
}

// -----

func.func @gather_wrong_result_element(%operand: tensor<16x11xf32>, %idx: tensor<5x2xi32>) {
  // expected-error @+1 {{inferred result type tensor<5x8x6xf32> does not match declared tensor<5x8x6xf64>}}
  %0 = xla.gather %operand, %idx, offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [8, 6] : (tensor<16x11xf32>, tensor<5x2xi32>) -> tensor<5x8x6xf64>
  return
}

// -----

func.func @scatter_float_indices(%input: tensor<3x3xf32>, %idx: tensor<2x1xf32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{scatter_indices must have an integer element type, got tensor<2x1xf32>}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_no_inputs(%idx: tensor<2x1xi32>) {
  // expected-error @+1 {{scatter needs at least one input}}
  xla.scatter (), %idx, (), update_window_dims = [], inserted_window_dims = [], scatter_dims_to_operand_dims = [], index_vector_dim = 1 update_computation {
  ^bb0:
    xla.return : () -> ()
  } : (tensor<2x1xi32>) -> ()
  return
}

// -----

func.func @scatter_update_count(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{scatter needs one update per input: 1 inputs, 2 updates}}
  %0 = xla.scatter (%input), %idx, (%upd, %upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_input_shapes(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{inputs must have one shape: input #0 is [3, 3], input #1 is [3, 4]}}
  %0, %1 = xla.scatter (%a, %b), %idx, (%upd, %upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>):
    xla.return %y0, %y1 : tensor<f32>, tensor<f32>
  } : (tensor<3x3xf32>, tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<3x3xf32>, tensor<3x4xf32>)
  return
}

// -----

func.func @scatter_update_shapes(%a: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %u0: tensor<2x3xf32>, %u1: tensor<2x2xf32>) {
  // expected-error @+1 {{updates must have one shape: update #0 is [2, 3], update #1 is [2, 2]}}
  %0, %1 = xla.scatter (%a, %a), %idx, (%u0, %u1), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %y0: tensor<f32>, %y1: tensor<f32>):
    xla.return %y0, %y1 : tensor<f32>, tensor<f32>
  } : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x2xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @scatter_index_vector_dim(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{index_vector_dim 3 out of range [0, 2] of scatter_indices [2, 1]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 3 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_update_window_dims_repeated(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{update_window_dims [1, 1] has repeated values [1]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1, 1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_update_window_dims_unsorted(%input: tensor<3x3xf32>, %idx: tensor<1xi32>, %upd: tensor<3x3xf32>) {
  // expected-error @+1 {{update_window_dims [1, 0] must be strictly increasing}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1, 0], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 0 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<1xi32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_update_window_dims_out_of_range(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{update_window_dims [2] out of range [0, 2): [2]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_inserted_window_dims_repeated(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2xf32>) {
  // expected-error @+1 {{inserted_window_dims [0, 0] has repeated values [0]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [], inserted_window_dims = [0, 0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_inserted_window_dims_unsorted(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2xf32>) {
  // expected-error @+1 {{inserted_window_dims [1, 0] must be strictly increasing}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [], inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_inserted_window_dims_out_of_range(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{inserted_window_dims [2] out of range [0, 2): [2]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_window_dims_do_not_cover_operand(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{update_window_dims [1] and inserted_window_dims [] must together have operand rank 2 entries}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_dims_to_operand_dims_size(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [0, 1] must have one entry per index-vector element (1)}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_dims_to_operand_dims_repeated(%input: tensor<3x3xf32>, %idx: tensor<2x2xi32>, %upd: tensor<2xf32>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [0, 0] has repeated values [0]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_dims_to_operand_dims_out_of_range(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [2] out of range [0, 2): [2]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [2], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_update_rank(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x1x3xf32>) {
  // expected-error @+1 {{updates [2, 1, 3] must have rank 2: 1 window dims plus the 1 batch dims [2] of scatter_indices}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x1x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_window_too_big(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) {
  // expected-error @+1 {{updates [2, 4] window dimension 1 exceeds the operand's window bounds [3]}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_batch_mismatch(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<5x3xf32>) {
  // expected-error @+1 {{updates [5, 3] scatter dimensions [0] must equal the batch dims [2] of scatter_indices}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<5x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_update_element_type(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf16>) {
  // expected-error @+1 {{update #0 element type f16 must be input #0's f32}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf16>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_result_type(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<3x3xf32> does not match declared tensor<3x3xf64>}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %b : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf64>
  return
}

// -----

func.func @scatter_computation_arguments(%input: tensor<3x3xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) {
  // expected-error @+1 {{update_computation must take (tensor<f32>, tensor<f32>), but takes (tensor<f32>)}}
  %0 = xla.scatter (%input), %idx, (%upd), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<3x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_computation_results(%a: tensor<3x3xf32>, %b: tensor<3x3xi32>, %idx: tensor<2x1xi32>, %ua: tensor<2x3xf32>, %ub: tensor<2x3xi32>) {
  // expected-error @+1 {{update_computation must return (tensor<f32>, tensor<i32>), but returns (tensor<f32>)}}
  %0, %1 = xla.scatter (%a, %b), %idx, (%ua, %ub), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 update_computation {
  ^bb0(%x0: tensor<f32>, %x1: tensor<i32>, %y0: tensor<f32>, %y1: tensor<i32>):
    xla.return %y0 : tensor<f32>
  } : (tensor<3x3xf32>, tensor<3x3xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<3x3xf32>, tensor<3x3xi32>)
  return
}
