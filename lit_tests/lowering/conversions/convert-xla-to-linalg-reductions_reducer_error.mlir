// RUN: not xla-opt %s -p convert-xla-to-linalg 2>&1 | filecheck %s

// A reducer op without a scalar lowering is reported, not left half-lowered, at the op
// that has none.
// CHECK: reducer_error.mlir:[[# @LINE + 4]]:5: error: 'xla.reshape' op cannot lower a computation to scalar code: xla.reshape is not an element-wise op with a scalar lowering
func.func @reducer_with_reshape(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %s = xla.reduce (%x), (%z), dimensions = [0] body {
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %r = xla.reshape %v : tensor<f32>
    %t = xla.add %acc, %r : tensor<f32>
    xla.return %t : tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return %s : tensor<f32>
}
