// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @dot
func.func @dot(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %n: tensor<3x4xf32>) {
  // vector . vector -> scalar
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  // GENERIC: "xla.dot"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %0 = xla.dot %v, %v : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  // matrix . vector -> vector
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %1 = xla.dot %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  // vector . matrix -> vector
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %2 = xla.dot %v, %n : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  // matrix . matrix -> matrix
  // CHECK: xla.dot %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = xla.dot %m, %n : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: func.func @dot_general
func.func @dot_general(%a: tensor<2x3xf32>, %b: tensor<2x2x2xf32>, %c: tensor<4x2x3xi32>, %d: tensor<3x4x5xi32>) {
  // The spec's contracting example: {2x3} . {2x3} over dimension 1 of both -> {2x2}.
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  // GENERIC: "xla.dot_general"(%{{.*}}, %{{.*}}) <{lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %0 = xla.dot_general %a, %a, lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  // The spec's batch example: batched 2x2 matrices, batch 0, contracting lhs 2 with rhs 1.
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : tensor<2x2x2xf32>
  %1 = xla.dot_general %b, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : tensor<2x2x2xf32>
  // Result order: batch (4), lhs free (2), rhs free (5).
  // CHECK: xla.dot_general %{{.*}}, %{{.*}}, lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0] : (tensor<4x2x3xi32>, tensor<3x4x5xi32>) -> tensor<4x2x5xi32>
  %2 = xla.dot_general %c, %d, lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0] : (tensor<4x2x3xi32>, tensor<3x4x5xi32>) -> tensor<4x2x5xi32>
  // No contracting dimensions: an outer product.
  // CHECK: xla.dot_general %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  %3 = xla.dot_general %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @convolution
func.func @convolution(%nchw: tensor<1x2x5x5xf32>, %oihw: tensor<3x2x3x3xf32>,
                       %nhwc: tensor<2x8x8x4xf32>, %hwio: tensor<3x3x2x6xf32>,
                       %ncw: tensor<4x3x5xf32>, %oiw: tensor<6x3x2xf32>,
                       %x: tensor<1x1x3xf32>, %k: tensor<1x1x2xf32>) {
  // Strided, padded NCHW convolution: (5 + 1 + 1 - 3) / 2 + 1 = 3.
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, window_strides = [2, 2], padding = {{\[\[}}1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3] : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  // GENERIC: "xla.convolution"(%{{.*}}, %{{.*}}) <{window_strides = array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, input_batch_dimension = 0 : i64,
  %0 = xla.convolution %nchw, %oihw, window_strides = [2, 2], padding = [[1, 1], [1, 1]],
         input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3],
         kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3],
         output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3]
         : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  // NHWC/HWIO, 2 feature groups (4 input features = 2 kernel input features * 2), atrous
  // kernel: the 3-wide window dilated by 2 spans 5, so 8 - 5 + 1 = 4 positions.
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, rhs_dilation = [2, 2], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2], feature_group_count = 2 : (tensor<2x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<2x4x4x6xf32>
  %1 = xla.convolution %nhwc, %hwio, rhs_dilation = [2, 2],
         input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2],
         kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
         output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2],
         feature_group_count = 2
         : (tensor<2x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<2x4x4x6xf32>
  // 2 batch groups: the output batch is 4 / 2; 5 - 2 + 1 = 4 positions.
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, input_batch_dimension = 0, {{.*}}, batch_group_count = 2 : (tensor<4x3x5xf32>, tensor<6x3x2xf32>) -> tensor<2x6x4xf32>
  %2 = xla.convolution %ncw, %oiw,
         input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2],
         kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2],
         output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2],
         batch_group_count = 2
         : (tensor<4x3x5xf32>, tensor<6x3x2xf32>) -> tensor<2x6x4xf32>
  // A transposed convolution (lhs_dilation 2): 3 inputs dilate to 5, a 2-wide window
  // fits 4 times; the output puts its spatial dimension first.
  // CHECK: xla.convolution %{{.*}}, %{{.*}}, lhs_dilation = [2], {{.*}}, output_spatial_dimensions = [0] : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<4x1x1xf32>
  %3 = xla.convolution %x, %k, lhs_dilation = [2],
         input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2],
         kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2],
         output_batch_dimension = 1, output_feature_dimension = 2, output_spatial_dimensions = [0]
         : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<4x1x1xf32>
  func.return
}

// CHECK-LABEL: func.func @fft
func.func @fft(%c: tensor<4x8xcomplex<f32>>, %z: tensor<4x8xcomplex<f64>>, %r: tensor<3x16xf32>,
               %h: tensor<3x9xcomplex<f32>>, %d: tensor<2x4x6xf64>) {
  // CHECK: xla.fft %{{.*}}, fft_type = FFT, fft_length = [8] : tensor<4x8xcomplex<f32>>
  // GENERIC: "xla.fft"(%{{.*}}) <{fft_type = #xla<fft_type FFT>, fft_length = array<i64: 8>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  %0 = xla.fft %c, fft_type = FFT, fft_length = [8] : tensor<4x8xcomplex<f32>>
  // CHECK: xla.fft %{{.*}}, fft_type = IFFT, fft_length = [4, 8] : tensor<4x8xcomplex<f64>>
  %1 = xla.fft %z, fft_type = IFFT, fft_length = [4, 8] : tensor<4x8xcomplex<f64>>
  // RFFT keeps 16 // 2 + 1 = 9 frequencies.
  // CHECK: xla.fft %{{.*}}, fft_type = RFFT, fft_length = [16] : (tensor<3x16xf32>) -> tensor<3x9xcomplex<f32>>
  %2 = xla.fft %r, fft_type = RFFT, fft_length = [16] : (tensor<3x16xf32>) -> tensor<3x9xcomplex<f32>>
  // CHECK: xla.fft %{{.*}}, fft_type = IRFFT, fft_length = [16] : (tensor<3x9xcomplex<f32>>) -> tensor<3x16xf32>
  %3 = xla.fft %h, fft_type = IRFFT, fft_length = [16] : (tensor<3x9xcomplex<f32>>) -> tensor<3x16xf32>
  // CHECK: xla.fft %{{.*}}, fft_type = RFFT, fft_length = [2, 4, 6] : (tensor<2x4x6xf64>) -> tensor<2x4x4xcomplex<f64>>
  %4 = xla.fft %d, fft_type = RFFT, fft_length = [2, 4, 6] : (tensor<2x4x6xf64>) -> tensor<2x4x4xcomplex<f64>>
  func.return
}

// CHECK-LABEL: func.func @cholesky_and_triangular_solve
func.func @cholesky_and_triangular_solve(%a: tensor<3x3xf32>, %c: tensor<2x4x4xcomplex<f32>>,
                                         %ba: tensor<2x3x3xf64>, %bl: tensor<2x3x5xf64>, %br: tensor<2x5x3xf64>) {
  // CHECK: xla.cholesky %{{.*}}, lower = true : tensor<3x3xf32>
  // GENERIC: "xla.cholesky"(%{{.*}}) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %0 = xla.cholesky %a, lower = true : tensor<3x3xf32>
  // CHECK: xla.cholesky %{{.*}} : tensor<2x4x4xcomplex<f32>>
  %1 = xla.cholesky %c : tensor<2x4x4xcomplex<f32>>
  // op(a) * x = b with b [..., M, K]
  // CHECK: xla.triangular_solve %{{.*}}, %{{.*}}, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  // GENERIC: "xla.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose_kind NO_TRANSPOSE>}>
  %2 = xla.triangular_solve %ba, %bl, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf64>, tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  // x * op(a) = b with b [..., K, M]
  // CHECK: xla.triangular_solve %{{.*}}, %{{.*}}, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<2x3x3xf64>, tensor<2x5x3xf64>) -> tensor<2x5x3xf64>
  %3 = xla.triangular_solve %ba, %br, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<2x3x3xf64>, tensor<2x5x3xf64>) -> tensor<2x5x3xf64>
  // CHECK: transpose_a = TRANSPOSE
  %4 = xla.triangular_solve %a, %a, left_side = true, lower = true, unit_diagonal = false, transpose_a = TRANSPOSE : tensor<3x3xf32>
  func.return
}
