// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// StableHLO's rules the importer used to hide (issue 13): each a located error.

// Convolution inputs share one element type (a convert to the result type hid this).
func.func @convolution_element_types(%x: tensor<1x4x4x1xi64>, %k: tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi64> {
  // expected-error @+1 {{'stablehlo.convolution' op the lhs element type i64 and the rhs element type i32 differ}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi64>
  return %0 : tensor<1x2x2x1xi64>
}

// -----

// window_reversal has one entry per spatial dimension (it was cut short by a zip).
func.func @window_reversal_length(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op window_reversal has 3 entries for 2 spatial dimensions}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], reverse = [false, true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

// A bitcast keeps complexness.
func.func @bitcast_real_to_complex(%x: tensor<2xf64>) -> tensor<complex<f32>> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op bitcast_convert between a real and a complex type (f64 -> complex<f32>) is invalid}}
  %0 = stablehlo.bitcast_convert %x : (tensor<2xf64>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}

// -----

// rng's shape operand agrees with the result type (it was dropped).
func.func @rng_shape(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %s = stablehlo.constant dense<[4, 3]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.rng' op the shape operand [4, 3] does not match the result shape [3, 4]}}
  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// The same programs, valid, import.
func.func @valid(%a: tensor<f32>, %b: tensor<f32>, %x: tensor<2xf32>) -> (tensor<3x4xf32>, tensor<2xi32>) {
  %s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %1 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xi32>
  return %0, %1 : tensor<3x4xf32>, tensor<2xi32>
}

// -----

// Gather's operand_batching_dims are sorted (StableHLO C6).
func.func @gather_batching_dims_unsorted(%x: tensor<3x2x5xf32>, %i: tensor<3x2x4x1xi32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{operand_batching_dims [1, 0] must be strictly increasing}}
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [],
      collapsed_slice_dims = [2], operand_batching_dims = [1, 0], start_indices_batching_dims = [1, 0],
      start_index_map = [2], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 1>}>
      : (tensor<3x2x5xf32>, tensor<3x2x4x1xi32>) -> tensor<3x2x4xf32>
  return %r : tensor<3x2x4xf32>
}

// -----

// Gather: as many operand as start-indices batching dims (C7).
func.func @gather_batching_dims_count(%x: tensor<3x5x2xf32>, %i: tensor<3x4x1xi32>) -> tensor<3x4x2xf32> {
  // expected-error @+1 {{operand_batching_dims [0] and start_indices_batching_dims [] must have the same size}}
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2],
      collapsed_slice_dims = [1], operand_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>}>
      : (tensor<3x5x2xf32>, tensor<3x4x1xi32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}

// -----

// Gather: paired batching dimensions have one size (C14).
func.func @gather_batching_dims_extent(%x: tensor<3x5x2xf32>, %i: tensor<2x4x1xi32>) -> tensor<2x4x2xf32> {
  // expected-error @+1 {{operand dimension 0 (3) and indices dimension 0 (2), paired by operand_batching_dims and start_indices_batching_dims, must have the same size}}
  %r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2],
      collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0],
      start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>}>
      : (tensor<3x5x2xf32>, tensor<2x4x1xi32>) -> tensor<2x4x2xf32>
  return %r : tensor<2x4x2xf32>
}

// -----

// Scatter: the same rules for input_batching_dims / scatter_indices_batching_dims.
func.func @scatter_batching_dims_count(%x: tensor<3x5xf32>, %i: tensor<3x4x1xi32>, %u: tensor<3x4xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{input_batching_dims [0] and scatter_indices_batching_dims [0, 1] must have the same size}}
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0, 1],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<3x4x1xi32>, tensor<3x4xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
