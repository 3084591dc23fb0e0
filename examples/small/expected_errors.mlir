// xla-opt --verify-diagnostics: each invalid op comes with the error it must produce.
func.func @wrong_dimension(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{dimension 0 of size 3 of [3] does not match dimension 0 of size 2 of [2, 3]}}
  %0 = xla.add %a, %v, broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// -----
func.func @wrong_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{inferred result type tensor<3x2xf32> does not match declared tensor<2x3xf32>}}
  %0 = xla.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
