// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

func.func @no_counterpart(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.uniform_quantize' has no xla counterpart}}
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_lapack(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{custom call 'lapack_sgees_ffi' has no xla counterpart}}
  %0 = stablehlo.custom_call @lapack_sgees_ffi(%x) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @complex_chlo(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.erf' of element type complex<f32> has no xla decomposition}}
  %0 = chlo.erf %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @dynamic_shapes(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op the output dimensions must be an integer constant: a run-time shape has no static form here}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @bad_comparison(%x: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'XX' is not a valid stablehlo.comparison_direction}}
  %0 = stablehlo.compare XX, %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// An empty branch region: a located error, not an IndexError (issue 8).
func.func @empty_if_branch(%p: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.if' op region #0 must have exactly one block, got 0}}
  %0 = "stablehlo.if"(%p) ({ }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
