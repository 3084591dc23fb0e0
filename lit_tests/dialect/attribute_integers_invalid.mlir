// RUN: xla-opt %s --split-input-file --verify-diagnostics

// An integer of an attribute beyond i64 is a located error at the op, never an
// internal error nor a value wrapped around (issue 31: the fuzzers' 2^64 literals).

func.func @dimension_of_2_to_the_64(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{integer 18446744073709551616 does not fit in i64}}
  %r = xla.add %a, %b, broadcast_dimensions = [18446744073709551616] : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// 2^63 is not read as -2^63.
func.func @dimension_of_2_to_the_63(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{integer 9223372036854775808 does not fit in i64}}
  %r = xla.add %a, %b, broadcast_dimensions = [9223372036854775808] : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// A StableHLO op whose parser builds the attribute itself.
func.func @scan_dimension_of_2_to_the_64(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error-re @+1 {{Integer value 18446744073709551616 is out of range for type i64{{.*}}}}
  %r:2 = chlo.scan(%a) inits(%0) dimension=18446744073709551616 {
  ^bb0(%x: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %x, %c : tensor<f32>
    stablehlo.return %s, %s : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  func.return %r#0 : tensor<4xf32>
}

