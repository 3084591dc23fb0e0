// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s
// RUN: xla-opt %s -p convert-stablehlo-to-xla | xla-opt -t stablehlo | filecheck %s --check-prefix=EXPORT

// 4-bit integer weights and 8-bit float activations, as JAX's quantized models
// write them: converted to f32 for the matmul; narrow constants, hex ones included.

// CHECK-LABEL: func.func @main
func.func @main(%w: tensor<4x2xi4>, %x: tensor<3x4xf8E4M3FN>) -> (tensor<3x2xf32>, tensor<2xf8E5M2>, tensor<3xi4>, tensor<2xui2>) {
  // CHECK: xla.convert %{{.*}} : (tensor<4x2xi4>) -> tensor<4x2xf32>
  %wf = stablehlo.convert %w : (tensor<4x2xi4>) -> tensor<4x2xf32>
  // CHECK: xla.convert %{{.*}} : (tensor<3x4xf8E4M3FN>) -> tensor<3x4xf32>
  %xf = stablehlo.convert %x : (tensor<3x4xf8E4M3FN>) -> tensor<3x4xf32>
  %d = stablehlo.dot_general %xf, %wf, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  // CHECK: xla.constant dense<[1.500000e+00, 0x7c]> : tensor<2xf8E5M2>
  // EXPORT: stablehlo.constant"() <{value = dense<"0x3E7C"> : tensor<2xf8E5M2>}>
  %c = stablehlo.constant dense<"0x3E7C"> : tensor<2xf8E5M2>
  // CHECK: xla.add %{{.*}}, %{{.*}} : tensor<2xf8E5M2>
  %e = stablehlo.add %c, %c : tensor<2xf8E5M2>
  // CHECK: xla.constant dense<[1, -8, 7]> : tensor<3xi4>
  // EXPORT: stablehlo.constant"() <{value = dense<[1, -8, 7]> : tensor<3xi4>}>
  %i = stablehlo.constant dense<[1, -8, 7]> : tensor<3xi4>
  // CHECK: xla.constant dense<[3, 0]> : tensor<2xui2>
  %u = stablehlo.constant dense<[3, 0]> : tensor<2xui2>
  return %d, %e, %i, %u : tensor<3x2xf32>, tensor<2xf8E5M2>, tensor<3xi4>, tensor<2xui2>
}
