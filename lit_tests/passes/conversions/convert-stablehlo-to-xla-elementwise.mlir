// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>) {
  // CHECK: %[[A:.*]] = xla.abs %{{.*}} : tensor<4xf32>
  %0 = stablehlo.abs %x : tensor<4xf32>
  // CHECK-NEXT: %[[B:.*]] = xla.cbrt %[[A]] : tensor<4xf32>
  %1 = stablehlo.cbrt %0 : tensor<4xf32>
  // CHECK-NEXT: xla.ceil
  %2 = stablehlo.ceil %1 : tensor<4xf32>
  // CHECK-NEXT: xla.cosine
  %3 = stablehlo.cosine %2 : tensor<4xf32>
  // CHECK-NEXT: xla.sine
  %4 = stablehlo.sine %3 : tensor<4xf32>
  // CHECK-NEXT: xla.tan
  %5 = stablehlo.tan %4 : tensor<4xf32>
  // CHECK-NEXT: xla.exponential {{.*}} : tensor<4xf32>
  %6 = stablehlo.exponential %5 : tensor<4xf32>
  // CHECK-NEXT: xla.exponential_minus_one
  %7 = stablehlo.exponential_minus_one %6 : tensor<4xf32>
  // CHECK-NEXT: xla.floor
  %8 = stablehlo.floor %7 : tensor<4xf32>
  // CHECK-NEXT: xla.log
  %9 = stablehlo.log %8 : tensor<4xf32>
  // CHECK-NEXT: xla.log_plus_one
  %10 = stablehlo.log_plus_one %9 : tensor<4xf32>
  // CHECK-NEXT: xla.logistic
  %11 = stablehlo.logistic %10 : tensor<4xf32>
  // CHECK-NEXT: xla.negate
  %12 = stablehlo.negate %11 : tensor<4xf32>
  // CHECK-NEXT: xla.rsqrt
  %13 = stablehlo.rsqrt %12 : tensor<4xf32>
  // CHECK-NEXT: xla.sign
  %14 = stablehlo.sign %13 : tensor<4xf32>
  // CHECK-NEXT: xla.sqrt
  %15 = stablehlo.sqrt %14 : tensor<4xf32>
  // CHECK-NEXT: xla.tanh
  %16 = stablehlo.tanh %15 : tensor<4xf32>
  // CHECK-NEXT: xla.round_nearest_afz
  %17 = stablehlo.round_nearest_afz %16 : tensor<4xf32>
  // CHECK-NEXT: xla.round_nearest_even
  %18 = "stablehlo.round_nearest_even"(%17) : (tensor<4xf32>) -> tensor<4xf32>
  // result_accuracy (newer JAX) is accepted and ignored
  // CHECK-NEXT: xla.exponential %{{.*}} : tensor<4xf32>
  %19 = stablehlo.exponential %18 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<4xf32>
  // CHECK-NEXT: xla.is_finite %{{.*}} : (tensor<4xf32>) -> tensor<4xi1>
  %20 = stablehlo.is_finite %19 : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: xla.not
  %21 = stablehlo.not %i : tensor<4xi32>
  // CHECK-NEXT: xla.popcnt
  %22 = stablehlo.popcnt %21 : tensor<4xi32>
  // CHECK-NEXT: xla.count_leading_zeros
  %23 = stablehlo.count_leading_zeros %22 : tensor<4xi32>
  // CHECK-NEXT: xla.reduce_precision %{{.*}}, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  %24 = stablehlo.reduce_precision %19, format = e5m10 : tensor<4xf32>
  // CHECK-NEXT: xla.reduce_precision %{{.*}}, exponent_bits = 8, mantissa_bits = 7 : tensor<4xf32>
  %25 = "stablehlo.reduce_precision"(%24) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %18, %25, %20, %23, %19 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @complex_parts
func.func @complex_parts(%c: tensor<2xcomplex<f32>>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: xla.real %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %0 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: xla.imag %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = stablehlo.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK: xla.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK-NEXT: xla.subtract
  %1 = stablehlo.subtract %0, %b : tensor<4xf32>
  // CHECK-NEXT: xla.multiply
  %2 = stablehlo.multiply %1, %b : tensor<4xf32>
  // CHECK-NEXT: xla.divide
  %3 = stablehlo.divide %2, %b : tensor<4xf32>
  // CHECK-NEXT: xla.remainder
  %4 = stablehlo.remainder %3, %b : tensor<4xf32>
  // CHECK-NEXT: xla.maximum
  %5 = stablehlo.maximum %4, %b : tensor<4xf32>
  // CHECK-NEXT: xla.minimum
  %6 = stablehlo.minimum %5, %b : tensor<4xf32>
  // CHECK-NEXT: xla.power
  %7 = stablehlo.power %6, %b : tensor<4xf32>
  // CHECK-NEXT: xla.atan2
  %8 = "stablehlo.atan2"(%7, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: xla.and
  %9 = stablehlo.and %i, %j : tensor<4xi32>
  // CHECK-NEXT: xla.or
  %10 = stablehlo.or %9, %j : tensor<4xi32>
  // CHECK-NEXT: xla.xor
  %11 = stablehlo.xor %10, %j : tensor<4xi32>
  // CHECK-NEXT: xla.shift_left
  %12 = stablehlo.shift_left %11, %j : tensor<4xi32>
  // CHECK-NEXT: xla.shift_right_logical
  %13 = stablehlo.shift_right_logical %12, %j : tensor<4xi32>
  // CHECK-NEXT: xla.shift_right_arithmetic
  %14 = stablehlo.shift_right_arithmetic %13, %j : tensor<4xi32>
  return %8, %14 : tensor<4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xui32>, %p: tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[C:.*]] = xla.compare %{{.*}}, %{{.*}}, comparison_direction = LT, compare_type = FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: xla.compare %{{.*}}, %{{.*}}, comparison_direction = GE, compare_type = TOTALORDER
  %1 = stablehlo.compare GE, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // without a compare type
  // CHECK-NEXT: xla.compare %{{.*}}, %{{.*}}, comparison_direction = NE : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %2 = stablehlo.compare NE, %i, %i : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  // the generic form
  // CHECK-NEXT: xla.compare %{{.*}}, %{{.*}}, comparison_direction = EQ, compare_type = UNSIGNED
  %3 = "stablehlo.compare"(%i, %i) <{comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  // CHECK-NEXT: xla.select %[[C]], %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>
  // a scalar predicate, functional type
  // CHECK-NEXT: xla.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: xla.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
  %6 = stablehlo.clamp %a, %b, %a : tensor<4xf32>
  // scalar bounds
  // CHECK: xla.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %7 = stablehlo.clamp %lo, %6, %lo : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %4, %1, %3, %5, %7 : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2x3xi32>, tensor<2xbf16>, tensor<f64>) {
  // CHECK: xla.constant dense<0x7fc00000> : tensor<f32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  // CHECK-NEXT: xla.constant dense<0xff800000> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK-NEXT: xla.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf32>
  %v = stablehlo.constant dense<[1.0, -2.5]> : tensor<2xf32>
  // CHECK-NEXT: xla.iota iota_dimension = 1 : tensor<2x3xi32>
  %iota = stablehlo.iota dim = 1 : tensor<2x3xi32>
  // CHECK-NEXT: xla.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xbf16>
  %bf = "stablehlo.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  // CHECK-NEXT: xla.constant dense<0x7ff0000000000000> : tensor<f64>
  %inf64 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
  return %nan, %ninf, %v, %iota, %bf, %inf64 : tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2x3xi32>, tensor<2xbf16>, tensor<f64>
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%x: tensor<2x3xf32>, %i: tensor<i32>) -> (tensor<2x3xi32>, tensor<2x3xf16>, tensor<2x3xi32>, tensor<i32>, tensor<2x3x4xi8>) {
  // CHECK: xla.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %0 = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK-NEXT: xla.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %1 = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK-NEXT: xla.bitcast_convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %2 = stablehlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK-NEXT: xla.convert %{{.*}} : tensor<i32>
  %3 = stablehlo.convert %i : tensor<i32>
  // CHECK-NEXT: xla.bitcast_convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3x4xi8>
  %4 = stablehlo.bitcast_convert %x : (tensor<2x3xf32>) -> tensor<2x3x4xi8>
  return %0, %1, %2, %3, %4 : tensor<2x3xi32>, tensor<2x3xf16>, tensor<2x3xi32>, tensor<i32>, tensor<2x3x4xi8>
}
