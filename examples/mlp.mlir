// A two-layer perceptron: relu(x @ w1 + b1) @ w2 + b2.
func.func @main(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x4xf32>, %b2: tensor<4xf32>) -> tensor<8x4xf32> {
  %zero = xla.constant dense<0.000000e+00> : tensor<f32>
  %h = xla.dot %x, %w1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %hb = xla.add %h, %b1, broadcast_dimensions = [1] : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %relu = xla.maximum %hb, %zero : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
  %o = xla.dot %relu, %w2 : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  %y = xla.add %o, %b2, broadcast_dimensions = [1] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  func.return %y : tensor<8x4xf32>
}
