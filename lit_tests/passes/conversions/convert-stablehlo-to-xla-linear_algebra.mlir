// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// CHECK-LABEL: func.func @dot
func.func @dot(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = "stablehlo.dot"(%a, %b) <{precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_general
func.func @dot_general(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x4xbf16>, %d: tensor<2x4x5xbf16>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]
  %1 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // a wider result element type (preferred_element_type): the operands are converted
  // CHECK: xla.convert %{{.*}} : (tensor<2x3x4xbf16>) -> tensor<2x3x4xf32>
  // CHECK: xla.convert %{{.*}} : (tensor<2x4x5xbf16>) -> tensor<2x4x5xf32>
  // CHECK: xla.dot_general
  %2 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) -> tensor<2x3x5xf32>
  return %0, %1, %2 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @convolution
func.func @convolution(%x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>, %y: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x3xf32>) -> (tensor<1x3x5x5xf32>, tensor<1x3x5x5xf32>, tensor<1x3x2x2xf32>, tensor<1x3x5x5xf32>) {
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, window_strides = [1, 1], padding = {{\[}}[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 1, batch_group_count = 1 : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  // NHWC x HWIO -> NCHW, generic form
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, window_strides = [1, 1], padding = {{\[}}[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3], feature_group_count = 1, batch_group_count = 1
  %1 = "stablehlo.convolution"(%y, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x3x5x5xf32>
  // the raw form; strides and no padding
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, window_strides = [2, 2], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0
  %2 = "stablehlo.convolution"(%x, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>}> : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  // window reversal reverses the kernel's spatial dimensions
  // CHECK: %[[REV:.*]] = xla.reverse %{{.*}}, dimensions = [3] : tensor<3x2x3x3xf32>
  // CHECK: xla.convolution %{{.*}}, %[[REV]]
  %3 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  return %0, %1, %2, %3 : tensor<1x3x5x5xf32>, tensor<1x3x5x5xf32>, tensor<1x3x2x2xf32>, tensor<1x3x5x5xf32>
}

// CHECK-LABEL: func.func @fft
func.func @fft(%x: tensor<2x4xf32>, %c: tensor<2x4xcomplex<f32>>) -> (tensor<2x3xcomplex<f32>>, tensor<2x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>) {
  // CHECK: xla.fft %{{.*}}, fft_type = RFFT, fft_length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  // CHECK: xla.fft %{{.*}}, fft_type = FFT, fft_length = [4] : tensor<2x4xcomplex<f32>>
  %1 = stablehlo.fft %c, type = FFT, length = [4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  // CHECK: xla.fft %{{.*}}, fft_type = IFFT, fft_length = [4] : tensor<2x4xcomplex<f32>>
  %2 = "stablehlo.fft"(%c) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0, %1, %2 : tensor<2x3xcomplex<f32>>, tensor<2x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>
}

// CHECK-LABEL: func.func @linalg
func.func @linalg(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x2xf32>) {
  // CHECK: xla.cholesky %{{.*}}, lower = true : tensor<3x3xf32>
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  // CHECK: xla.cholesky %{{.*}} : tensor<3x3xf32>
  %1 = "stablehlo.cholesky"(%a) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  // CHECK: xla.triangular_solve %{{.*}}, %{{.*}}, left_side = true, lower = true, unit_diagonal = false, transpose_a = TRANSPOSE
  %2 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1, %2 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x2xf32>
}

// JAX's CPU lowering: LAPACK custom calls
// CHECK-LABEL: func.func @lapack
func.func @lapack(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<i32>, tensor<3x2xf32>) {
  // CHECK: %[[L:.*]] = xla.cholesky %{{.*}}, lower = true : tensor<3x3xf32>
  // CHECK: %[[INFO:.*]] = xla.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=3, j=3, k=3, l=3}, custom>} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  // CHECK: %[[X:.*]] = xla.triangular_solve %[[L]], %{{.*}}, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.custom_call @lapack_strsm_ffi(%0#0, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  // CHECK: func.return %[[L]], %[[INFO]], %[[X]]
  return %0#0, %0#1, %1 : tensor<3x3xf32>, tensor<i32>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: xla.batch_norm_training %{{.*}}, %{{.*}}, %{{.*}}, epsilon = 1.000000e-03, feature_index = 1
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: xla.batch_norm_inference %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, epsilon = 1.000000e-03, feature_index = 1
  %1 = "stablehlo.batch_norm_inference"(%x, %s, %o, %0#1, %0#2) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0#0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
