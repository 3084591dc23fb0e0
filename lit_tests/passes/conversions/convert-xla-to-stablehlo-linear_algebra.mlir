// RUN: xla-opt %s -p convert-xla-to-stablehlo | filecheck %s

// convert-xla-to-stablehlo, linear algebra and batch norm: booleans, StableHLO enums
// (`#stablehlo<transpose TRANSPOSE>`, `#stablehlo<fft_type FFT>`), an f32 epsilon.
// CHECK-LABEL: func.func @linear_algebra(
// CHECK-NEXT: "stablehlo.cholesky"(%{{.*}}) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}>
// CHECK-NEXT: "stablehlo.fft"(%{{.*}}) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
// CHECK-NEXT: "stablehlo.batch_norm_inference"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = {{.*}} : f32, feature_index = 3 : i64}>
func.func @linear_algebra(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x8xcomplex<f32>>, %x: tensor<2x2x2x3xf32>, %s: tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3x5xf32>, tensor<4x8xcomplex<f32>>, tensor<2x2x2x3xf32>) {
  %0 = xla.cholesky %a, lower = true : tensor<3x3xf32>
  %1 = xla.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = TRANSPOSE : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %2 = xla.fft %c, fft_type = FFT, fft_length = [8] : tensor<4x8xcomplex<f32>>
  %3 = xla.batch_norm_inference %x, %s, %s, %s, %s, epsilon = 1.0e-05, feature_index = 3 : (tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x2x2x3xf32>
  func.return %0, %1, %2, %3 : tensor<3x3xf32>, tensor<3x5xf32>, tensor<4x8xcomplex<f32>>, tensor<2x2x2x3xf32>
}
