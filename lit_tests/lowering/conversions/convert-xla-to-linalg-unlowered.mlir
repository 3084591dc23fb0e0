// RUN: xla-opt %s -p convert-xla-to-linalg --split-input-file --verify-diagnostics

// What the conversion cannot lower is a located error, not a half-lowered module.

// Implicit broadcasting needs xla-legalize-broadcast first.
func.func @implicit_broadcast(%a: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'xla.add' op is not lowered to linalg}}
  %r0 = xla.add %a, %s : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r0 : tensor<2xf32>
}

// -----

// Buffers cross a function's boundary: a token (no data) cannot, so it is a located
// error at the function, not an llvm-dialect verifier failure (issue 8).
// expected-error @+1 {{'func.func' op is not lowered to linalg: !xla.token values run on the interpreter only}}
func.func @token_argument(%t: !xla.token, %a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
