// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// epsilon is an f32 property printed as a bare number, as the pretty form parses it.

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<8x4x4x3xf32>, %s: tensor<3xf32>, %g: tensor<8x4x4x3xf32>) {
  // CHECK: xla.batch_norm_training %{{.*}}, %{{.*}}, %{{.*}}, epsilon = 1.000000e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // GENERIC: "xla.batch_norm_training"(%{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e-03 : f32, feature_index = 3 : i64}>
  %0:3 = xla.batch_norm_training %x, %s, %s, epsilon = 1.0e-03, feature_index = 3
           : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: xla.batch_norm_inference %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, epsilon = 1.000000e-05, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x4x4x3xf32>
  %1 = xla.batch_norm_inference %x, %s, %s, %s, %s, epsilon = 1.0e-05, feature_index = 3
         : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x4x4x3xf32>
  // CHECK: xla.batch_norm_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, epsilon = 1.000000e-03, feature_index = 3 : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x4x4x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %2:3 = xla.batch_norm_grad %x, %s, %s, %s, %g, epsilon = 1.0e-03, feature_index = 3
           : (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x4x4x3xf32>) -> (tensor<8x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}
