// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @dot_rank3(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'xla.dot' op lhs [2, 3, 4] must be a vector or a matrix (rank 1 or 2)}}
  %0 = xla.dot %a, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @dot_rank0(%a: tensor<3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'xla.dot' op rhs [] must be a vector or a matrix (rank 1 or 2)}}
  %0 = xla.dot %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @dot_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'xla.dot' op contracting dimensions differ: lhs [2, 3] dimension 1 has size 3, rhs [4, 5] dimension 0 has size 4}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @dot_vector_sizes(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'xla.dot' op contracting dimensions differ: lhs [3] dimension 0 has size 3, rhs [4] dimension 0 has size 4}}
  %0 = xla.dot %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @dot_element_types(%a: tensor<2x3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'xla.dot' op lhs tensor<2x3xf32> and rhs tensor<3xi32> must have the same element type}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dot_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'xla.dot' op inferred result type tensor<2x4xf32> does not match declared tensor<4x2xf32>}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @dot_general_batching_range(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op lhs_batching_dimensions [3] out of range [0, 3): [3]}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [3], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_contracting_range(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op rhs_contracting_dimensions [-1] out of range [0, 3): [-1]}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [-1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_batching_unique(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op lhs_batching_dimensions [0, 0] has repeated values [0]}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0, 0], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_contracting_unique(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op rhs_contracting_dimensions [1, 1] has repeated values [1]}}
  %0 = xla.dot_general %a, %b, lhs_contracting_dimensions = [2, 1], rhs_contracting_dimensions = [1, 1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_overlap(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op lhs_batching_dimensions [0] and lhs_contracting_dimensions [0] share dimensions [0]}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_batching_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op lhs_batching_dimensions [0] and rhs_batching_dimensions [] must have the same number of dimensions}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_contracting_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op lhs_contracting_dimensions [2] and rhs_contracting_dimensions [1, 2] must have the same number of dimensions}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_batching_sizes(%a: tensor<2x3x4xf32>, %b: tensor<5x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op batching dimension sizes differ: lhs [2, 3, 4] dimension 0 has size 2, rhs [5, 4, 5] dimension 0 has size 5}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<5x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_contracting_sizes(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op contracting dimension sizes differ: lhs [2, 3, 4] dimension 1 has size 3, rhs [2, 4, 5] dimension 1 has size 4}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @dot_general_result_order(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.dot_general' op inferred result type tensor<2x3x5xf32> does not match declared tensor<3x2x5xf32>}}
  %0 = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x2x5xf32>
  func.return
}

// -----

func.func @dot_general_element_types(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf64>) {
  // expected-error @+1 {{'xla.dot_general' op lhs tensor<2x3x4xf32> and rhs tensor<2x4x5xf64> must have the same element type}}
  %0 = xla.dot_general %a, %b, lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf64>) -> tensor<2x3x2x5xf32>
  func.return
}

// -----

func.func @conv_lhs_rank(%x: tensor<1x2x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op lhs [1, 2, 5] must have rank 4 (n+2 for 2 spatial dimensions)}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_rhs_rank(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op rhs [3, 2, 3] must have rank 4 (n+2 for 2 spatial dimensions)}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_result_rank(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op result tensor<1x3x3xf32> must have rank 4 (n+2 for 2 spatial dimensions)}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3xf32>
  func.return
}

// -----

func.func @conv_kernel_spatial_count(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op kernel_spatial_dimensions [2] must have 2 entries, as input_spatial_dimensions [2, 3]}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_input_dims(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op input dimensions (batch, feature, spatial...) [1, 1, 2, 3] is not a permutation of [0, 1, 2, 3]}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 1, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_kernel_dims(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op kernel dimensions (input feature, output feature, spatial...) [1, 0, 2, 4] is not a permutation of [0, 1, 2, 3]}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 4], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_output_dims(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op output dimensions (batch, feature, spatial...) [0, 1, 3, 3] is not a permutation of [0, 1, 2, 3]}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [3, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_features(%x: tensor<1x2x5x5xf32>, %k: tensor<3x3x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op input feature size 2 must equal kernel input feature size 3 * feature_group_count 1}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_feature_groups_input(%x: tensor<1x3x5x5xf32>, %k: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op feature_group_count 2 does not divide the input feature size 3}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 2 : (tensor<1x3x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return
}

// -----

func.func @conv_feature_groups_output(%x: tensor<1x4x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op feature_group_count 2 does not divide the kernel output feature size 3}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 2 : (tensor<1x4x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_feature_groups_kernel_input(%x: tensor<1x4x5x5xf32>, %k: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op input feature size 4 must equal kernel input feature size 4 * feature_group_count 2}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 2 : (tensor<1x4x5x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return
}

// -----

func.func @conv_batch_groups_batch(%x: tensor<3x2x5x5xf32>, %k: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op batch_group_count 2 does not divide the input batch size 3}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], batch_group_count = 2 : (tensor<3x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return
}

// -----

func.func @conv_batch_groups_output(%x: tensor<4x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op batch_group_count 2 does not divide the kernel output feature size 3}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], batch_group_count = 2 : (tensor<4x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<2x3x3x3xf32>
  func.return
}

// -----

func.func @conv_both_groups(%x: tensor<4x4x5x5xf32>, %k: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op feature_group_count 2 and batch_group_count 2 cannot both exceed 1}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 2, batch_group_count = 2 : (tensor<4x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x3x3xf32>
  func.return
}

// -----

func.func @conv_zero_feature_groups(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op feature_group_count must be at least 1, got 0}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 0 : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_zero_batch_groups(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op batch_group_count must be at least 1, got 0}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], batch_group_count = 0 : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_zero_stride(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op window_strides [0, 1] must be at least 1, got [0]}}
  %0 = xla.convolution %x, %k, window_strides = [0, 1], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_stride_count(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op window_strides [1] must have one entry per spatial dimension (2)}}
  %0 = xla.convolution %x, %k, window_strides = [1], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_zero_lhs_dilation(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op lhs_dilation [1, 0] must be at least 1, got [0]}}
  %0 = xla.convolution %x, %k, lhs_dilation = [1, 0], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_rhs_dilation_count(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op rhs_dilation [1, 1, 1] must have one entry per spatial dimension (2)}}
  %0 = xla.convolution %x, %k, rhs_dilation = [1, 1, 1], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_negative_rhs_dilation(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op rhs_dilation [-1, 1] must be at least 1, got [-1]}}
  %0 = xla.convolution %x, %k, rhs_dilation = [-1, 1], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_padding_count(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op padding [[0, 0]] must have one [low, high] pair per spatial dimension (2)}}
  %0 = xla.convolution %x, %k, padding = [[0, 0]], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_padding_pairs(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op padding [[0, 0, 0], [0, 0, 0]] must have one [low, high] pair per spatial dimension (2)}}
  %0 = xla.convolution %x, %k, padding = [[0, 0, 0], [0, 0, 0]], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_padding_too_negative(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op padding [-3, -3] removes more than the 5 elements of the dilated base}}
  %0 = xla.convolution %x, %k, padding = [[-3, -3], [0, 0]], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_element_types(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf16>) {
  // expected-error @+1 {{'xla.convolution' op lhs tensor<1x2x5x5xf32> and rhs tensor<3x2x3x3xf16> must have the same element type}}
  %0 = xla.convolution %x, %k, input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf16>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @conv_result(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'xla.convolution' op inferred result type tensor<1x3x2x2xf32> does not match declared tensor<1x3x3x3xf32>}}
  %0 = xla.convolution %x, %k, window_strides = [2, 2], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return
}

// -----

func.func @fft_too_many_axes(%x: tensor<2x2x2x2xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op fft_length [2, 2, 2, 2] must have 1 to 3 entries}}
  %0 = xla.fft %x, fft_type = FFT, fft_length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return
}

// -----

func.func @fft_no_axes(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op fft_length [] must have 1 to 3 entries}}
  %0 = xla.fft %x, fft_type = FFT, fft_length = [] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

func.func @fft_negative_length(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op fft_length [-8] must be non-negative}}
  %0 = xla.fft %x, fft_type = IFFT, fft_length = [-8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

func.func @fft_rank(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op operand [8] has fewer dimensions than fft_length [2, 8]}}
  %0 = xla.fft %x, fft_type = FFT, fft_length = [2, 8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

func.func @fft_real_operand(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.fft' op FFT operand element type f32 must be complex}}
  %0 = xla.fft %x, fft_type = FFT, fft_length = [8] : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

func.func @ifft_result_type(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op inferred result type tensor<8xcomplex<f32>> does not match declared tensor<8xcomplex<f64>>}}
  %0 = xla.fft %x, fft_type = IFFT, fft_length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f64>>
  func.return
}

// -----

func.func @rfft_complex_operand(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op RFFT operand element type complex<f32> must be f32 or f64}}
  %0 = xla.fft %x, fft_type = RFFT, fft_length = [8] : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_f16_operand(%x: tensor<8xf16>) {
  // expected-error @+1 {{'xla.fft' op RFFT operand element type f16 must be f32 or f64}}
  %0 = xla.fft %x, fft_type = RFFT, fft_length = [8] : (tensor<8xf16>) -> tensor<5xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_lengths(%x: tensor<3x16xf32>) {
  // expected-error @+1 {{'xla.fft' op RFFT needs the innermost dimensions [16] of operand [3, 16] to equal fft_length [8]}}
  %0 = xla.fft %x, fft_type = RFFT, fft_length = [8] : (tensor<3x16xf32>) -> tensor<3x5xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_2d_lengths(%x: tensor<3x16xf32>) {
  // expected-error @+1 {{'xla.fft' op RFFT needs the innermost dimensions [3, 16] of operand [3, 16] to equal fft_length [4, 16]}}
  %0 = xla.fft %x, fft_type = RFFT, fft_length = [4, 16] : (tensor<3x16xf32>) -> tensor<3x9xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_result(%x: tensor<3x16xf32>) {
  // expected-error @+1 {{'xla.fft' op inferred result type tensor<3x9xcomplex<f32>> does not match declared tensor<3x16xcomplex<f32>>}}
  %0 = xla.fft %x, fft_type = RFFT, fft_length = [16] : (tensor<3x16xf32>) -> tensor<3x16xcomplex<f32>>
  func.return
}

// -----

func.func @irfft_real_operand(%x: tensor<3x9xf32>) {
  // expected-error @+1 {{'xla.fft' op IRFFT operand element type f32 must be complex}}
  %0 = xla.fft %x, fft_type = IRFFT, fft_length = [16] : (tensor<3x9xf32>) -> tensor<3x16xf32>
  func.return
}

// -----

func.func @irfft_lengths(%x: tensor<3x16xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op IRFFT needs the innermost dimensions [16] of operand [3, 16] to be [9]}}
  %0 = xla.fft %x, fft_type = IRFFT, fft_length = [16] : (tensor<3x16xcomplex<f32>>) -> tensor<3x16xf32>
  func.return
}

// -----

func.func @irfft_2d_lengths(%x: tensor<4x9xcomplex<f32>>) {
  // expected-error @+1 {{'xla.fft' op IRFFT needs the innermost dimensions [4, 9] of operand [4, 9] to be [3, 9]}}
  %0 = xla.fft %x, fft_type = IRFFT, fft_length = [3, 16] : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
  func.return
}

// -----

func.func @irfft_result(%x: tensor<3x9xcomplex<f64>>) {
  // expected-error @+1 {{'xla.fft' op inferred result type tensor<3x16xf64> does not match declared tensor<3x16xf32>}}
  %0 = xla.fft %x, fft_type = IRFFT, fft_length = [16] : (tensor<3x9xcomplex<f64>>) -> tensor<3x16xf32>
  func.return
}

// -----

func.func @cholesky_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'xla.cholesky' op a [3] must have rank at least 2}}
  %0 = xla.cholesky %a : (tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @cholesky_square(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'xla.cholesky' op a [2, 3, 4] must be a batch of square matrices, but its minor dimensions are 3 and 4}}
  %0 = xla.cholesky %a, lower = true : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @cholesky_integer(%a: tensor<3x3xi32>) {
  // expected-error @+1 {{'xla.cholesky' op a element type i32 must be floating-point or complex}}
  %0 = xla.cholesky %a : (tensor<3x3xi32>) -> tensor<3x3xi32>
  func.return
}

// -----

func.func @cholesky_result(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'xla.cholesky' op inferred result type tensor<3x3xf32> does not match declared tensor<3x3xf64>}}
  %0 = xla.cholesky %a : (tensor<3x3xf32>) -> tensor<3x3xf64>
  func.return
}

// -----

func.func @triangular_solve_square(%a: tensor<2x3x4xf32>, %b: tensor<2x3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op a [2, 3, 4] must be a batch of square matrices, but its minor dimensions are 3 and 4}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x4xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @triangular_solve_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op a [3] must have rank at least 2}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return
}

// -----

func.func @triangular_solve_b_rank(%a: tensor<2x3x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op b [3, 5] must have the rank of a [2, 3, 3]}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return
}

// -----

func.func @triangular_solve_batch(%a: tensor<2x3x3xf32>, %b: tensor<4x3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op batch dimensions of a [2] and b [4] must be equal}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  func.return
}

// -----

func.func @triangular_solve_left_side(%a: tensor<2x3x3xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op b [2, 4, 5] dimension 1 has size 4, but solving on the left_side needs a's size 3}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  func.return
}

// -----

func.func @triangular_solve_right_side(%a: tensor<2x3x3xf32>, %b: tensor<2x3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op b [2, 3, 5] dimension 2 has size 5, but solving on the right side needs a's size 3}}
  %0 = xla.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @triangular_solve_element_types(%a: tensor<3x3xf32>, %b: tensor<3x5xf64>) {
  // expected-error @+1 {{'xla.triangular_solve' op a tensor<3x3xf32> and b tensor<3x5xf64> must have the same element type}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x5xf64>) -> tensor<3x5xf64>
  func.return
}

// -----

func.func @triangular_solve_integer(%a: tensor<3x3xi32>, %b: tensor<3x5xi32>) {
  // expected-error @+1 {{'xla.triangular_solve' op a element type i32 must be floating-point or complex}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
  func.return
}

// -----

func.func @triangular_solve_result(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'xla.triangular_solve' op inferred result type tensor<3x5xf32> does not match declared tensor<5x3xf32>}}
  %0 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<5x3xf32>
  func.return
}

// -----

func.func @batch_norm_training_feature_index(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op feature_index [4] out of range [0, 4): [4]}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 4 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_negative_feature_index(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op feature_index [-1] out of range [0, 4): [-1]}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = -1 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_scale(%x: tensor<8x4x4x3xf32>, %s: tensor<4xf32>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op scale [4] must be 1-D of the feature size 3 (operand [8, 4, 4, 3] dimension 3)}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<4xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_offset_rank(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<1x3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op offset [1, 3] must be 1-D of the feature size 3 (operand [8, 4, 4, 3] dimension 3)}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<1x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_feature_dimension(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op scale [3] must be 1-D of the feature size 4 (operand [8, 4, 4, 3] dimension 1)}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 1 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_integer(%x: tensor<8x4x4x3xi32>, %s: tensor<3xi32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op operand element type i32 must be floating-point}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<8x4x4x3xi32>, tensor<3xi32>, tensor<3xi32>)
  func.return
}

// -----

func.func @batch_norm_training_element_types(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf64>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op operand tensor<8x4x4x3xf32> and scale tensor<3xf64> must have the same element type}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf64>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_training_results(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_training' op inferred result #1 type tensor<3xf32> does not match declared tensor<4xf32>}}
  %0:3 = xla.batch_norm_training %x, %s, %o, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<4xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_inference_feature_index(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_inference' op feature_index [7] out of range [0, 4): [7]}}
  %0 = xla.batch_norm_inference %x, %s, %s, %m, %v, epsilon = 1.0e-03, feature_index = 7 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x4x4x3xf32>
  func.return
}

// -----

func.func @batch_norm_inference_variance(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'xla.batch_norm_inference' op variance [2] must be 1-D of the feature size 3 (operand [8, 4, 4, 3] dimension 3)}}
  %0 = xla.batch_norm_inference %x, %s, %s, %m, %v, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<8x4x4x3xf32>
  func.return
}

// -----

func.func @batch_norm_inference_mean(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<f32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_inference' op mean [] must be 1-D of the feature size 3 (operand [8, 4, 4, 3] dimension 3)}}
  %0 = xla.batch_norm_inference %x, %s, %s, %m, %v, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> tensor<8x4x4x3xf32>
  func.return
}

// -----

func.func @batch_norm_inference_result(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_inference' op inferred result type tensor<8x4x4x3xf32> does not match declared tensor<8x4x4x4xf32>}}
  %0 = xla.batch_norm_inference %x, %s, %s, %m, %v, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x4x4x4xf32>
  func.return
}

// -----

func.func @batch_norm_grad_feature_index(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %g: tensor<8x4x4x3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_grad' op feature_index [4] out of range [0, 4): [4]}}
  %0:3 = xla.batch_norm_grad %x, %s, %m, %s, %g, epsilon = 1.0e-03, feature_index = 4 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x4x4x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_grad_mean(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<4xf32>, %g: tensor<8x4x4x3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_grad' op mean [4] must be 1-D of the feature size 3 (operand [8, 4, 4, 3] dimension 3)}}
  %0:3 = xla.batch_norm_grad %x, %s, %m, %s, %g, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<8x4x4x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_grad_grad_output(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %g: tensor<8x4x4x4xf32>) {
  // expected-error @+1 {{'xla.batch_norm_grad' op grad_output tensor<8x4x4x4xf32> must have the operand's type tensor<8x4x4x3xf32>}}
  %0:3 = xla.batch_norm_grad %x, %s, %m, %s, %g, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x4x4x4xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @batch_norm_grad_results(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %g: tensor<8x4x4x3xf32>) {
  // expected-error @+1 {{'xla.batch_norm_grad' op inferred result #2 type tensor<3xf32> does not match declared tensor<3xf64>}}
  %0:3 = xla.batch_norm_grad %x, %s, %m, %s, %g, epsilon = 1.0e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x4x4x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf64>)
  func.return
}
