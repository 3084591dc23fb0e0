// RUN: xla-opt %s -p convert-xla-to-linalg --split-input-file --verify-diagnostics

// Ops outside the core op set are located errors, not a half-lowered module.

func.func @bitcast_convert_widths(%a: tensor<2xf32>) -> tensor<2x2xi16> {
  // expected-error @+1 {{'xla.bitcast_convert' op is not lowered to linalg (the interpreter runs it)}}
  %r1 = xla.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x2xi16>
  func.return %r1 : tensor<2x2xi16>
}

// -----

// Complex numbers have no scalar lowering.
func.func @complex_add(%c: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{'xla.add' op is not lowered to linalg}}
  %r1 = xla.add %c, %c : tensor<2xcomplex<f32>>
  func.return %r1 : tensor<2xcomplex<f32>>
}

// -----

// Implicit broadcasting needs xla-legalize-broadcast first.
func.func @implicit_broadcast(%a: tensor<2xf32>, %s: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'xla.add' op is not lowered to linalg}}
  %r0 = xla.add %a, %s : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r0 : tensor<2xf32>
}

// -----

func.func @fft(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'xla.fft' op is not lowered to linalg}}
  %r = xla.fft %a, fft_type = FFT, fft_length = [8] : tensor<8xcomplex<f32>>
  func.return %r : tensor<8xcomplex<f32>>
}

// -----

// Tokens and complex numbers have no lowering yet: located errors at the op or the
// function, not an llvm-dialect verifier failure or an unlowerable LLVM type (issue 8).
// expected-error @+1 {{'func.func' op is not lowered to linalg: !xla.token values run on the interpreter only}}
func.func @token_argument(%t: !xla.token, %a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

// -----

func.func @complex_reshape(%a: tensor<3xcomplex<f32>>) -> tensor<3x1xcomplex<f32>> {
  // expected-error @+1 {{'xla.reshape' op is not lowered to linalg: complex<f32> values run on the interpreter only}}
  %0 = xla.reshape %a : (tensor<3xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
  func.return %0 : tensor<3x1xcomplex<f32>>
}
