// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s
// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s --check-prefix=NOCHLO

// Every chlo op is decomposed into xla ops.
// NOCHLO-NOT: chlo.

// CHECK-LABEL: func.func @top_k
func.func @top_k(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  // CHECK: %[[IOTA:.*]] = xla.iota iota_dimension = 1 : tensor<2x3xi32>
  // CHECK-NEXT: %[[S:.*]], %[[I:.*]] = xla.sort %{{.*}}, %[[IOTA]], dimension = 1, is_stable = true comparator {
  // CHECK: comparison_direction = GT, compare_type = TOTALORDER
  // CHECK: xla.slice %[[S]], start_indices = [0, 0], limit_indices = [2, 2], strides = [1, 1] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // CHECK-NEXT: xla.slice %[[I]], start_indices = [0, 0], limit_indices = [2, 2], strides = [1, 1] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  return %values, %indices : tensor<2x2xf32>, tensor<2x2xi32>
}

// CHECK-LABEL: func.func @elementary
func.func @elementary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
  // CHECK: %[[SQ:.*]] = xla.multiply %x, %x : tensor<4xf32>
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: %[[SIN:.*]] = xla.sine %x
  // CHECK-NEXT: %[[COS:.*]] = xla.cosine %x
  // CHECK-NEXT: xla.divide %[[SIN]], %[[COS]]
  %1 = chlo.tan %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: %[[ABS:.*]] = xla.abs %x
  // CHECK-NEXT: %[[INF:.*]] = xla.constant dense<0x7f800000> : tensor<f32>
  // CHECK-NEXT: xla.compare %[[ABS]], %[[INF]], comparison_direction = EQ : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %2 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  // CHECK: xla.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: xla.bitcast_convert %{{.*}} : (tensor<4xi32>) -> tensor<4xf32>
  %3 = chlo.next_after %x, %1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
}

// CHECK-LABEL: func.func @hyperbolic_inverse
func.func @hyperbolic_inverse(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: xla.exponential_minus_one
  %0 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.exponential
  %1 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.atan2
  %2 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.atan2
  %3 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.atan2
  %4 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.log_plus_one
  %5 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.log_plus_one
  %6 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: xla.log_plus_one
  %7 = chlo.atanh %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @special
func.func @special(%x: tensor<4xf32>, %h: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>) {
  // erf: a rational polynomial on [-4, 4]
  // CHECK: xla.clamp %{{.*}}, %x, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  // erf_inv: w = -log1p(-x^2)
  // CHECK: xla.log_plus_one
  %1 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  // lgamma: Lanczos with reflection through log(sin(pi x))
  // CHECK: xla.sine
  // CHECK: xla.is_finite
  %2 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  // digamma
  // CHECK: xla.cosine
  %3 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
  // bf16 is computed in f32
  // CHECK: xla.convert %h : (tensor<4xbf16>) -> tensor<4xf32>
  // CHECK: xla.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
  %4 = chlo.erf %h : tensor<4xbf16> -> tensor<4xbf16>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @broadcasting
func.func @broadcasting(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: xla.add %a, %b, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// bessel_i1e, zeta and polygamma by XLA's math library (issue 31).
// CHECK-LABEL: func.func @bessel_zeta_polygamma
func.func @bessel_zeta_polygamma(%x: tensor<4xf32>, %q: tensor<4xf32>, %h: tensor<4xf16>, %s: tensor<3xf64>, %t: tensor<2x3xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<2x3xf64>) {
  // i1e: Chebyshev expansions on |x| <= 8 and beyond, with x's sign
  // CHECK:      %[[Z:.*]] = xla.abs %x : tensor<4xf32>
  // CHECK:      xla.sqrt %[[Z]] : tensor<4xf32>
  // CHECK:      xla.sign %x : tensor<4xf32>
  // CHECK:      xla.compare %[[Z]], %{{.*}}, comparison_direction = LE
  %0 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
  // zeta: the first terms' powers q^-x, (q + 1)^-x...
  // CHECK:      %[[NEG:.*]] = xla.negate %x : tensor<4xf32>
  // CHECK-NEXT: xla.power %q, %[[NEG]] : tensor<4xf32>
  %1 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // polygamma: (-1)^(n+1) n! zeta(n + 1, x), digamma where n = 0
  // CHECK:      xla.remainder %x, %{{.*}} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK:      xla.exponential
  // CHECK:      xla.cosine
  %2 = chlo.polygamma %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // f16 is computed in f32
  // CHECK:      xla.convert %h : (tensor<4xf16>) -> tensor<4xf32>
  %3 = chlo.bessel_i1e %h : tensor<4xf16> -> tensor<4xf16>
  // broadcast_zeta: the operands broadcast to the result's shape first
  // CHECK:      xla.broadcast_in_dim %s, broadcast_dimensions = [1] : (tensor<3xf64>) -> tensor<2x3xf64>
  %4 = chlo.broadcast_zeta %s, %t : (tensor<3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<2x3xf64>
}
