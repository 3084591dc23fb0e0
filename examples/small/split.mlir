// Two test cases in one file (xla-opt --split-input-file); the second does not parse.
func.func @first(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.negate %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// -----
func.func @second(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.plus %a, %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
