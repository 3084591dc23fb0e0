// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @element_types_differ(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'xla.add' op operands must have the same element type, got f32 and i32}}
  %0 = xla.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @float_only_unary(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.floor' op operand element type i32 (S32) is not allowed; expected floating-point}}
  %0 = xla.floor %a : tensor<4xi32>
  func.return
}

// -----

func.func @integer_only_unary(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.popcnt' op operand element type f32 (F32) is not allowed; expected integer}}
  %0 = xla.popcnt %a : tensor<4xf32>
  func.return
}

// -----

func.func @unary_result_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.tanh' op inferred result type tensor<4xf32> does not match declared tensor<5xf32>}}
  %0 = xla.tanh %a : (tensor<4xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @is_finite_result_is_pred(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.is_finite' op inferred result type tensor<4xi1> does not match declared tensor<4xf32>}}
  %0 = xla.is_finite %a : tensor<4xf32>
  func.return
}

// -----

func.func @logical_on_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.and' op operand element type f32 (F32) is not allowed; expected PRED or integer}}
  %0 = xla.and %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @shift_on_pred(%a: tensor<4xi1>) {
  // expected-error @+1 {{'xla.shift_left' op operand element type i1 (PRED) is not allowed; expected integer}}
  %0 = xla.shift_left %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @not_an_xla_element_type(%a: tensor<4xi7>) {
  // expected-error @+1 {{'xla.negate' op operand #0 has element type i7, which is not an XLA element type}}
  %0 = xla.negate %a : tensor<4xi7>
  func.return
}

// -----

func.func @dynamic_shape(%a: tensor<?xf32>) {
  // expected-error @+1 {{'xla.negate' op operand #0 must have a static shape, got tensor<?xf32>}}
  %0 = xla.negate %a : tensor<?xf32>
  func.return
}

// -----

func.func @compare_result_not_pred(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.compare' op inferred result type tensor<4xi1> does not match declared tensor<4xf32>}}
  %0 = xla.compare %a, %a, comparison_direction = EQ : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @compare_type_mismatch(%a: tensor<4xi32>) {
  // expected-error @+1 {{'xla.compare' op compare_type FLOAT does not suit element type i32; expected SIGNED}}
  %0 = xla.compare %a, %a, comparison_direction = EQ, compare_type = FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @compare_unsigned_as_signed(%a: tensor<4xui32>) {
  // expected-error @+1 {{compare_type SIGNED does not suit element type ui32; expected UNSIGNED}}
  %0 = xla.compare %a, %a, comparison_direction = LT, compare_type = SIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @compare_complex_ordered(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'xla.compare' op complex operands (complex<f32>) only compare EQ or NE, not LT}}
  %0 = xla.compare %a, %a, comparison_direction = LT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  func.return
}

// -----

func.func @compare_bad_direction(%a: tensor<4xf32>) {
  // expected-error @+1 {{'XX' is not a valid comparison_direction; expected one of EQ, NE, GE, GT, LE, LT}}
  %0 = xla.compare %a, %a, comparison_direction = XX : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @select_pred_shape(%p: tensor<3xi1>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.select' op pred [3] must be a scalar or have the shape [2, 3] of the selected operands}}
  %0 = xla.select %p, %a, %a : (tensor<3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @select_pred_type(%p: tensor<2x3xi32>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.select' op pred must have element type i1 (PRED), got tensor<2x3xi32>}}
  %0 = xla.select %p, %a, %a : (tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @select_branches_differ(%p: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'xla.select' op on_true [2, 3] and on_false [3, 2] must have the same shape}}
  %0 = xla.select %p, %a, %b : (tensor<i1>, tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @clamp_bound_shape(%lo: tensor<3xf32>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.clamp' op min [3] must be a scalar or have the operand's shape [2, 3]}}
  %0 = xla.clamp %lo, %a, %a : (tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @clamp_bound_type(%lo: tensor<i32>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.clamp' op min element type i32 differs from the operand's f32}}
  %0 = xla.clamp %lo, %a, %a : (tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @convert_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.convert' op result type tensor<3x2xi32> must have the shape of operand type tensor<2x3xf32>}}
  %0 = xla.convert %a : (tensor<2x3xf32>) -> tensor<3x2xi32>
  func.return
}

// -----

func.func @bitcast_narrow_to_wide(%a: tensor<2x3xui8>) {
  // expected-error @+1 {{'xla.bitcast_convert' op bitcast from 8-bit to 32-bit elements needs a minor dimension of size 4, but the operand shape is [2, 3]}}
  %0 = xla.bitcast_convert %a : (tensor<2x3xui8>) -> tensor<2xi32>
  func.return
}

// -----

func.func @bitcast_wide_to_narrow(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'xla.bitcast_convert' op inferred result shape [2, 3, 2] does not match declared tensor<2x3xi16>}}
  %0 = xla.bitcast_convert %a : (tensor<2x3xf32>) -> tensor<2x3xi16>
  func.return
}

// -----

func.func @reduce_precision_exponent(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.reduce_precision' op exponent_bits must be at least 1, got 0}}
  %0 = xla.reduce_precision %a, exponent_bits = 0, mantissa_bits = 10 : tensor<4xf32>
  func.return
}

// -----

func.func @reduce_precision_mantissa(%a: tensor<4xf32>) {
  // expected-error @+1 {{'xla.reduce_precision' op mantissa_bits must be non-negative, got -1}}
  %0 = xla.reduce_precision %a, exponent_bits = 8, mantissa_bits = -1 : tensor<4xf32>
  func.return
}

// -----

func.func @iota_dimension() {
  // expected-error @+1 {{'xla.iota' op iota_dimension 2 out of range [0, 2) for result shape [4, 8]}}
  %0 = xla.iota iota_dimension = 2 : tensor<4x8xi32>
  func.return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'xla.constant' op value type tensor<2xi32> does not match result type tensor<3xi32>}}
  %0 = "xla.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<3xi32>
  func.return
}

// -----

func.func @missing_property(%a: tensor<4xf32>) {
  // expected-error @+1 {{property 'comparison_direction' expected}}
  %0 = "xla.compare"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @parse_error(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected a property name after ','}}
  %0 = xla.add %a, %a, : tensor<4xf32>
  func.return
}
