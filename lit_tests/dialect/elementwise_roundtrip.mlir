// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<2x3xf32>, %i: tensor<4xi32>, %c: tensor<2xcomplex<f32>>, %p: tensor<3xi1>) {
  // CHECK: xla.abs %{{.*}} : tensor<2x3xf32>
  // GENERIC: "xla.abs"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = xla.abs %f : tensor<2x3xf32>
  // CHECK: xla.abs %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = xla.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: xla.ceil %{{.*}} : tensor<2x3xf32>
  %2 = xla.ceil %f : tensor<2x3xf32>
  // CHECK: xla.cosine
  %3 = xla.cosine %f : tensor<2x3xf32>
  // CHECK: xla.sine
  %4 = xla.sine %f : tensor<2x3xf32>
  // CHECK: xla.tan
  %5 = xla.tan %f : tensor<2x3xf32>
  // CHECK: xla.exponential %
  %6 = xla.exponential %f : tensor<2x3xf32>
  // CHECK: xla.exponential_minus_one
  %7 = xla.exponential_minus_one %f : tensor<2x3xf32>
  // CHECK: xla.floor
  %8 = xla.floor %f : tensor<2x3xf32>
  // CHECK: xla.imag %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %9 = xla.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: xla.real %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %10 = xla.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: xla.is_finite %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %11 = xla.is_finite %f : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: xla.log %
  %12 = xla.log %f : tensor<2x3xf32>
  // CHECK: xla.log_plus_one
  %13 = xla.log_plus_one %f : tensor<2x3xf32>
  // CHECK: xla.not %{{.*}} : tensor<3xi1>
  %14 = xla.not %p : tensor<3xi1>
  // CHECK: xla.not %{{.*}} : tensor<4xi32>
  %15 = xla.not %i : tensor<4xi32>
  // CHECK: xla.logistic
  %16 = xla.logistic %f : tensor<2x3xf32>
  // CHECK: xla.popcnt %{{.*}} : tensor<4xi32>
  %17 = xla.popcnt %i : tensor<4xi32>
  // CHECK: xla.count_leading_zeros %{{.*}} : tensor<4xi32>
  %18 = xla.count_leading_zeros %i : tensor<4xi32>
  // CHECK: xla.negate %{{.*}} : tensor<4xi32>
  %19 = xla.negate %i : tensor<4xi32>
  // CHECK: xla.rsqrt
  %20 = xla.rsqrt %f : tensor<2x3xf32>
  // CHECK: xla.sign
  %21 = xla.sign %f : tensor<2x3xf32>
  // CHECK: xla.sqrt
  %22 = xla.sqrt %f : tensor<2x3xf32>
  // CHECK: xla.cbrt
  %23 = xla.cbrt %f : tensor<2x3xf32>
  // CHECK: xla.tanh
  %24 = xla.tanh %f : tensor<2x3xf32>
  // CHECK: xla.round_nearest_afz
  %25 = xla.round_nearest_afz %f : tensor<2x3xf32>
  // CHECK: xla.round_nearest_even
  %26 = xla.round_nearest_even %f : tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>, %i: tensor<4xi32>, %u: tensor<4xui8>, %p: tensor<4xi1>) {
  // CHECK: xla.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  // GENERIC: "xla.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = xla.add %a, %a : tensor<2x3xf32>
  // CHECK: xla.add %{{.*}}, %{{.*}}, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // GENERIC: "xla.add"(%{{.*}}, %{{.*}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: xla.subtract %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = xla.subtract %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: xla.multiply
  %3 = xla.multiply %a, %a : tensor<2x3xf32>
  // CHECK: xla.divide
  %4 = xla.divide %i, %i : tensor<4xi32>
  // CHECK: xla.remainder
  %5 = xla.remainder %i, %i : tensor<4xi32>
  // CHECK: xla.maximum
  %6 = xla.maximum %u, %u : tensor<4xui8>
  // CHECK: xla.minimum
  %7 = xla.minimum %a, %a : tensor<2x3xf32>
  // CHECK: xla.power
  %8 = xla.power %a, %a : tensor<2x3xf32>
  // CHECK: xla.atan2
  %9 = xla.atan2 %a, %a : tensor<2x3xf32>
  // CHECK: xla.and %{{.*}}, %{{.*}} : tensor<4xi1>
  %10 = xla.and %p, %p : tensor<4xi1>
  // CHECK: xla.or %{{.*}}, %{{.*}} : tensor<4xi32>
  %11 = xla.or %i, %i : tensor<4xi32>
  // CHECK: xla.xor
  %12 = xla.xor %u, %u : tensor<4xui8>
  // CHECK: xla.shift_left
  %13 = xla.shift_left %i, %i : tensor<4xi32>
  // CHECK: xla.shift_right_logical
  %14 = xla.shift_right_logical %i, %i : tensor<4xi32>
  // CHECK: xla.shift_right_arithmetic
  %15 = xla.shift_right_arithmetic %i, %i : tensor<4xi32>
  func.return
}

// CHECK-LABEL: func.func @compare_select_clamp
func.func @compare_select_clamp(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>, %u: tensor<4xui32>, %p: tensor<i1>) {
  // CHECK: xla.compare %{{.*}}, %{{.*}}, comparison_direction = LT, compare_type = TOTALORDER, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // GENERIC: comparison_direction = #xla<comparison_direction LT>, compare_type = #xla<comparison_type TOTALORDER>
  %0 = xla.compare %a, %v, broadcast_dimensions = [1], comparison_direction = LT, compare_type = TOTALORDER : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: xla.compare %{{.*}}, %{{.*}}, comparison_direction = GE : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %1 = xla.compare %u, %u, comparison_direction = GE : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  // CHECK: xla.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = xla.select %0, %a, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: xla.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = xla.select %p, %a, %a : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: xla.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = xla.clamp %s, %a, %s : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: xla.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %5 = xla.clamp %a, %a, %a : tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @constants_and_conversions
func.func @constants_and_conversions(%a: tensor<2x3xf32>, %b: tensor<4xbf16>) {
  // CHECK: xla.constant dense<[1, 2, 3]> : tensor<3xi32>
  // GENERIC: "xla.constant"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %0 = xla.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: xla.constant dense<0x7fc00000> : tensor<f32>
  %1 = xla.constant dense<0x7FC00000> : tensor<f32>
  // CHECK: xla.iota iota_dimension = 1 : tensor<4x8xi32>
  // GENERIC: "xla.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
  %2 = xla.iota iota_dimension = 1 : tensor<4x8xi32>
  // CHECK: xla.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %3 = xla.convert %a : (tensor<2x3xf32>) -> tensor<2x3xi8>
  // CHECK: xla.convert %{{.*}} : (tensor<4xbf16>) -> tensor<4xcomplex<f64>>
  %4 = xla.convert %b : (tensor<4xbf16>) -> tensor<4xcomplex<f64>>
  // CHECK: xla.bitcast_convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
  %5 = xla.bitcast_convert %a : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
  // CHECK: xla.bitcast_convert %{{.*}} : (tensor<2x3x4xui8>) -> tensor<2x3xi32>
  %6 = xla.bitcast_convert %5 : (tensor<2x3x4xui8>) -> tensor<2x3xi32>
  // CHECK: xla.bitcast_convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %7 = xla.bitcast_convert %a : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK: xla.reduce_precision %{{.*}}, exponent_bits = 5, mantissa_bits = 10 : tensor<2x3xf32>
  // GENERIC: <{exponent_bits = 5 : i64, mantissa_bits = 10 : i64}>
  %8 = xla.reduce_precision %a, exponent_bits = 5, mantissa_bits = 10 : tensor<2x3xf32>
  func.return
}
