// RUN: xla-opt %s -p canonicalize | filecheck %s

// Collapse of in-order consecutive dimensions is a reshape in the default order.

// CHECK-LABEL: func.func @collapse_to_reshape
func.func @collapse_to_reshape(%v: tensor<4x2x3xf32>) -> (tensor<24xf32>, tensor<8x3xf32>, tensor<4x6xf32>) {
  // CHECK-NOT: xla.collapse
  // CHECK: %[[A:.*]] = xla.reshape %{{.*}} : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // CHECK: %[[B:.*]] = xla.reshape %{{.*}} : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  // CHECK: %[[C:.*]] = xla.reshape %{{.*}} : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  // CHECK-NOT: xla.collapse
  // CHECK: func.return %[[A]], %[[B]], %[[C]]
  %0 = xla.collapse %v, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %1 = xla.collapse %v, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  %2 = xla.collapse %v, dimensions = [1, 2] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  func.return %0, %1, %2 : tensor<24xf32>, tensor<8x3xf32>, tensor<4x6xf32>
}

// CHECK-LABEL: func.func @collapse_nothing
func.func @collapse_nothing(%v: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // CHECK: xla.reshape %{{.*}} : tensor<4x2xf32>
  %0 = xla.collapse %v, dimensions = [] : tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
