// RUN: xla-opt %s -p xla-widen-narrow-types | filecheck %s

// A narrow float is stored in a byte (ml_dtypes' layout) and computed in f32: each
// operand decoded from its bits, the sum rounded back once. f8E4M3FN has 3 mantissa
// bits and an exponent bias of 7: decoding moves the mantissa up by 23 - 3 = 20 bits
// and rebiases the exponent by 127 - 7 = 120; its only NaN, 0x7F, becomes f32's quiet
// NaN 0x7FC00000 = 2143289344. Each convert is the computation of an xla.map, on one
// element: its few dozen scalar ops stay one op of the tensor program.

// CHECK-LABEL: func.func @add(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8>
// CHECK:         %[[A:.*]] = xla.map %a, dimensions = [0] computation {
// CHECK-NEXT:    ^bb0(%[[BYTE:.*]]: tensor<ui8>):
// CHECK-NEXT:      xla.convert %[[BYTE]] : (tensor<ui8>) -> tensor<ui32>
// CHECK:           xla.constant dense<120> : tensor<ui32>
// CHECK:           xla.constant dense<20> : tensor<ui32>
// CHECK:           xla.constant dense<2143289344> : tensor<ui32>
// CHECK:           %[[F:.*]] = xla.bitcast_convert %{{.*}} : (tensor<ui32>) -> tensor<f32>
// CHECK-NEXT:      xla.return %[[F]] : tensor<f32>
// CHECK-NEXT:    } : (tensor<4xui8>) -> tensor<4xf32>
// CHECK:         %[[B:.*]] = xla.map %b, dimensions = [0] computation {
// CHECK:         } : (tensor<4xui8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = xla.add %[[A]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.map %[[SUM]], dimensions = [0] computation {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<f32>):
// CHECK-NEXT:      xla.bitcast_convert %[[X]] : (tensor<f32>) -> tensor<ui32>
// CHECK:         } : (tensor<4xf32>) -> tensor<4xui8>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xui8>
func.func @add(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = xla.add %a, %b : tensor<4xf8E4M3FN>
  func.return %0 : tensor<4xf8E4M3FN>
}

// A 4-bit integer computes in i8, its byte holding the two's complement in the low
// bits; popcnt counts the 4 bits of the value (-1 has 4), not the sign-extended byte's 8.
// CHECK-LABEL: func.func @popcnt(%a: tensor<3xui8>) -> tensor<3xui8>
// CHECK-NOT:     i4
// CHECK:         xla.constant dense<15> : tensor<i8>
// CHECK-NEXT:    %[[LOW:.*]] = xla.and
// CHECK-NEXT:    xla.popcnt %[[LOW]] : tensor<3xi8>
// CHECK:         func.return %{{.*}} : tensor<3xui8>
func.func @popcnt(%a: tensor<3xi4>) -> tensor<3xi4> {
  %0 = xla.popcnt %a : tensor<3xi4>
  func.return %0 : tensor<3xi4>
}

// Wide types are left alone.
// CHECK-LABEL: func.func @keeps_f32(%a: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %0 = xla.negate %a : tensor<2xf32>
// CHECK-NEXT:    func.return %0 : tensor<2xf32>
func.func @keeps_f32(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.negate %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
