// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @i3_is_not_xla(%a: tensor<4xi3>) {
  // expected-error @+1 {{'xla.negate' op operand #0 has element type i3, which is not an XLA element type}}
  %0 = xla.negate %a : tensor<4xi3>
  func.return
}

// -----

func.func @i4_out_of_range() {
  // expected-error @+1 {{integer literal 16 is out of range for i4}}
  %0 = xla.constant dense<[1, 16]> : tensor<2xi4>
  func.return
}

// -----

func.func @ui2_out_of_range() {
  // expected-error @+1 {{integer literal 4 is out of range for ui2}}
  %0 = xla.constant dense<4> : tensor<ui2>
  func.return
}

// -----

func.func @f8_out_of_range() {
  // expected-error @+1 {{float literal 500.0 is out of range for f8E4M3FN}}
  %0 = xla.constant dense<[1.0, 500.0]> : tensor<2xf8E4M3FN>
  func.return
}

// -----

func.func @f4_out_of_range() {
  // expected-error @+1 {{float literal -7.5 is out of range for f4E2M1FN}}
  %0 = xla.constant dense<-7.5> : tensor<f4E2M1FN>
  func.return
}

// -----

func.func @e8m0_has_no_sign() {
  // expected-error @+1 {{float literal -2.0 is negative, but f8E8M0FNU has no sign}}
  %0 = xla.constant dense<-2.0> : tensor<f8E8M0FNU>
  func.return
}

// -----

func.func @hex_too_wide() {
  // expected-error @+1 {{hexadecimal float literal 0x1FF does not fit in f8E5M2}}
  %0 = xla.constant dense<0x1FF> : tensor<f8E5M2>
  func.return
}
