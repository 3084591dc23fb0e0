// RUN: xla-opt %s --split-input-file --verify-diagnostics

// Complex literals may mix integer and float parts for a float complex type (issue 13);
// what stays invalid is an error at the literal.

func.func @float_part_of_integer_complex() {
  // expected-error @+1 {{a complex<i32> element has integer parts, got (1.5, 2)}}
  %0 = xla.constant dense<(1.5, 2)> : tensor<complex<i32>>
  func.return
}

// -----

func.func @boolean_and_number() {
  // expected-error @+1 {{a complex literal's parts are both booleans or both numbers}}
  %0 = xla.constant dense<(true, 2.0)> : tensor<complex<f32>>
  func.return
}

// -----

// Found by test_driver's mutations once the lit tests moved (a new seed): the literal's
// closing parenthesis missing was an internal error (an assertion in the token stream).
func.func @unclosed_complex() {
  // expected-error @+1 {{expected ')' after the imaginary part of a complex literal}}
  %0 = xla.constant dense<(1.5, 2>)> : tensor<complex<f32>>
  func.return
}

// -----

// A hexadecimal part is the bits of the part's type (issue 31): as for a real literal,
// it has no sign and fits the part's width.
func.func @negative_hexadecimal_part() {
  // expected-error @+1 {{hexadecimal float literal -0x3F800000 must not have a sign}}
  %0 = xla.constant dense<(1.0, -0x3F800000)> : tensor<complex<f32>>
  func.return
}

// -----

func.func @hexadecimal_part_too_wide() {
  // expected-error @+1 {{hexadecimal float literal 0x7FF0000000000000 does not fit in f32}}
  %0 = xla.constant dense<(0x7FF0000000000000, 0.0)> : tensor<complex<f32>>
  func.return
}
