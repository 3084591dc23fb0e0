// Row-wise softmax of a 4x8 matrix: exp(x - max) / sum(exp(x - max)).
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %neg_inf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.000000e+00> : tensor<f32>
  %max = xla.reduce (%x), (%neg_inf), dimensions = [1] body {
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %m = xla.maximum %acc, %v : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %shifted = xla.subtract %x, %max, broadcast_dimensions = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  %e = xla.exponential %shifted : tensor<4x8xf32>
  %sum = xla.reduce (%e), (%zero), dimensions = [1] body {
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %s = xla.add %acc, %v : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %y = xla.divide %e, %sum, broadcast_dimensions = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
