// RUN: xla-opt %s --split-input-file --verify-diagnostics

// Literals that do not fit their type are parse errors at the literal, never internal
// errors (issue 8: xDSL raised ValueError/OverflowError/AssertionError here).

func.func @hex_float_too_wide_for_integer() {
  // expected-error @+1 {{integer literal 0xFF800000 is out of range for i16}}
  %0 = xla.constant dense<0xFF800000> : tensor<i16>
  func.return
}

// -----

func.func @hex_float_too_wide_for_f16() {
  // expected-error @+1 {{hexadecimal float literal 0x7FC00000 does not fit in f16}}
  %0 = xla.constant dense<0x7FC00000> : tensor<f16>
  func.return
}

// -----

func.func @hex_float_too_wide_for_bf16() {
  // expected-error @+1 {{hexadecimal float literal 0x7FC00000 does not fit in bf16}}
  %0 = xla.constant dense<[1.0, 0x7FC00000]> : tensor<2xbf16>
  func.return
}

// -----

func.func @signed_hex_float() {
  // expected-error @+1 {{hexadecimal float literal -0x1 must not have a sign}}
  %0 = xla.constant dense<-0x1> : tensor<f32>
  func.return
}

// -----

func.func @integer_out_of_range() {
  // expected-error @+1 {{integer literal 300 is out of range for ui8}}
  %0 = xla.constant dense<[1, 300]> : tensor<2xui8>
  func.return
}

// -----

func.func @real_literal_for_complex() {
  // expected-error @+1 {{a complex<f32> element is written (real, imaginary), got 0.000000e+00}}
  %0 = xla.constant dense<0.000000e+00> : tensor<complex<f32>>
  func.return
}

// -----

// expected-error @+1 {{Integer value 18446744073709551616 is out of range for type i32}}
module attributes {mhlo.num_replicas = 18446744073709551616 : i32} {
}

// -----

// expected-error @+1 {{literal 0x7FC00000 : f16 does not fit in its type}}
module attributes {x = 0x7FC00000 : f16} {
}
