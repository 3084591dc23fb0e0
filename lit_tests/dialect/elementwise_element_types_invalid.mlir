// RUN: xla-opt %s --split-input-file --verify-diagnostics
// One rejected element type per element-wise op with a restricted element type.

func.func @abs(%a: tensor<4xui8>) {
  // expected-error @+1 {{'xla.abs' op operand element type ui8 (U8) is not allowed}}
  %0 = xla.abs %a : tensor<4xui8>
  func.return
}

// -----

func.func @ceil(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.ceil' op operand element type i32 (S32) is not allowed}}
  %0 = xla.ceil %a : tensor<4xi32>
  func.return
}

// -----

func.func @cosine(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.cosine' op operand element type i32 (S32) is not allowed}}
  %0 = xla.cosine %a : tensor<4xi32>
  func.return
}

// -----

func.func @sine(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.sine' op operand element type i32 (S32) is not allowed}}
  %0 = xla.sine %a : tensor<4xi32>
  func.return
}

// -----

func.func @tan(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.tan' op operand element type i32 (S32) is not allowed}}
  %0 = xla.tan %a : tensor<4xi32>
  func.return
}

// -----

func.func @exponential(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.exponential' op operand element type i32 (S32) is not allowed}}
  %0 = xla.exponential %a : tensor<4xi32>
  func.return
}

// -----

func.func @exponential_minus_one(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.exponential_minus_one' op operand element type i32 (S32) is not allowed}}
  %0 = xla.exponential_minus_one %a : tensor<4xi32>
  func.return
}

// -----

func.func @floor(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.floor' op operand element type i32 (S32) is not allowed}}
  %0 = xla.floor %a : tensor<4xi32>
  func.return
}

// -----

func.func @imag(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.imag' op operand element type i32 (S32) is not allowed}}
  %0 = xla.imag %a : tensor<4xi32>
  func.return
}

// -----

func.func @real(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.real' op operand element type i32 (S32) is not allowed}}
  %0 = xla.real %a : tensor<4xi32>
  func.return
}

// -----

func.func @is_finite(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.is_finite' op operand element type i32 (S32) is not allowed}}
  %0 = xla.is_finite %a : tensor<4xi32>
  func.return
}

// -----

func.func @log(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.log' op operand element type i32 (S32) is not allowed}}
  %0 = xla.log %a : tensor<4xi32>
  func.return
}

// -----

func.func @log_plus_one(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.log_plus_one' op operand element type i32 (S32) is not allowed}}
  %0 = xla.log_plus_one %a : tensor<4xi32>
  func.return
}

// -----

func.func @not(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.not' op operand element type f32 (F32) is not allowed}}
  %0 = xla.not %a : tensor<4xf32>
  func.return
}

// -----

func.func @logistic(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.logistic' op operand element type i32 (S32) is not allowed}}
  %0 = xla.logistic %a : tensor<4xi32>
  func.return
}

// -----

func.func @popcnt(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.popcnt' op operand element type f32 (F32) is not allowed}}
  %0 = xla.popcnt %a : tensor<4xf32>
  func.return
}

// -----

func.func @count_leading_zeros(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.count_leading_zeros' op operand element type f32 (F32) is not allowed}}
  %0 = xla.count_leading_zeros %a : tensor<4xf32>
  func.return
}

// -----

func.func @negate(%a: tensor<4xi1>) {
  // expected-error @+1 {{'xla.negate' op operand element type i1 (PRED) is not allowed}}
  %0 = xla.negate %a : tensor<4xi1>
  func.return
}

// -----

func.func @rsqrt(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.rsqrt' op operand element type i32 (S32) is not allowed}}
  %0 = xla.rsqrt %a : tensor<4xi32>
  func.return
}

// -----

func.func @sign(%a: tensor<4xui8>) {
  // expected-error @+1 {{'xla.sign' op operand element type ui8 (U8) is not allowed}}
  %0 = xla.sign %a : tensor<4xui8>
  func.return
}

// -----

func.func @sqrt(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.sqrt' op operand element type i32 (S32) is not allowed}}
  %0 = xla.sqrt %a : tensor<4xi32>
  func.return
}

// -----

func.func @cbrt(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.cbrt' op operand element type i32 (S32) is not allowed}}
  %0 = xla.cbrt %a : tensor<4xi32>
  func.return
}

// -----

func.func @tanh(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.tanh' op operand element type i32 (S32) is not allowed}}
  %0 = xla.tanh %a : tensor<4xi32>
  func.return
}

// -----

func.func @round_nearest_afz(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.round_nearest_afz' op operand element type i32 (S32) is not allowed}}
  %0 = xla.round_nearest_afz %a : tensor<4xi32>
  func.return
}

// -----

func.func @round_nearest_even(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.round_nearest_even' op operand element type i32 (S32) is not allowed}}
  %0 = xla.round_nearest_even %a : tensor<4xi32>
  func.return
}

// -----

func.func @subtract(%a: tensor<4xi1>) {
  // expected-error @+1 {{'xla.subtract' op operand element type i1 (PRED) is not allowed}}
  %0 = xla.subtract %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @divide(%a: tensor<4xi1>) {
  // expected-error @+1 {{'xla.divide' op operand element type i1 (PRED) is not allowed}}
  %0 = xla.divide %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @remainder(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'xla.remainder' op operand element type complex<f32> (C64) is not allowed}}
  %0 = xla.remainder %a, %a : tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @power(%a: tensor<4xi1>) {
  // expected-error @+1 {{'xla.power' op operand element type i1 (PRED) is not allowed}}
  %0 = xla.power %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @atan2(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.atan2' op operand element type i32 (S32) is not allowed}}
  %0 = xla.atan2 %a, %a : tensor<4xi32>
  func.return
}

// -----

func.func @and(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.and' op operand element type f32 (F32) is not allowed}}
  %0 = xla.and %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @or(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.or' op operand element type f32 (F32) is not allowed}}
  %0 = xla.or %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @xor(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.xor' op operand element type f32 (F32) is not allowed}}
  %0 = xla.xor %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @shift_left(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.shift_left' op operand element type f32 (F32) is not allowed}}
  %0 = xla.shift_left %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @shift_right_logical(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.shift_right_logical' op operand element type f32 (F32) is not allowed}}
  %0 = xla.shift_right_logical %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @shift_right_arithmetic(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.shift_right_arithmetic' op operand element type f32 (F32) is not allowed}}
  %0 = xla.shift_right_arithmetic %a, %a : tensor<4xf32>
  func.return
}
