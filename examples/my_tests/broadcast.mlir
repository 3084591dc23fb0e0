// RUN: %xla-opt %s -p xla-legalize-broadcast | FileCheck %s
// CHECK: %[[V:.*]] = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: xla.add %a, %[[V]] : tensor<2x3xf32>
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
