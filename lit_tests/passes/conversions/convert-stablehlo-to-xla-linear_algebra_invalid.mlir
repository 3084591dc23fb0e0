// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// StableHLO's TRANSPOSE_INVALID is a located one-line error, not a Python ValueError text
// (issue 13).
func.func @transpose_invalid(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'stablehlo.triangular_solve' op transpose_a = TRANSPOSE_INVALID is not one of NO_TRANSPOSE, TRANSPOSE, ADJOINT}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
