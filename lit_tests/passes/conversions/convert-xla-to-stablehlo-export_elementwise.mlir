// RUN: xla-opt %s -t stablehlo | filecheck %s

// Element-wise ops print as StableHLO's generic form; XLA's implicit broadcasting
// (broadcast_dimensions, scalars, degenerate dimensions) becomes explicit
// stablehlo.broadcast_in_dim operands; compare spells out its default compare type;
// constants are exact (NaN as its bits).

// CHECK: builtin.module @xla_program attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[V:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>, %[[R:.*]]: tensor<1x3xf32>, %[[U:.*]]: tensor<4xui8>)
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi1>, tensor<2x3xf32>, tensor<4xui8>)
func.func @main(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>, %r: tensor<1x3xf32>, %u: tensor<4xui8>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi1>, tensor<2x3xf32>, tensor<4xui8>) {
  // CHECK: %[[B0:.*]] = "stablehlo.broadcast_in_dim"(%[[V]]) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[ADD:.*]] = "stablehlo.add"(%[[X]], %[[B0]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = xla.add %x, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[B1:.*]] = "stablehlo.broadcast_in_dim"(%[[S]]) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[MUL:.*]] = "stablehlo.multiply"(%[[B1]], %[[X]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = xla.multiply %s, %x : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // degenerate broadcasting: the size-1 dimension is stretched
  // CHECK-NEXT: %[[B2:.*]] = "stablehlo.broadcast_in_dim"(%[[R]]) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[SUB:.*]] = "stablehlo.subtract"(%[[X]], %[[B2]])
  %2 = xla.subtract %x, %r : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[LT:.*]] = "stablehlo.compare"(%[[X]], %[[ADD]]) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = xla.compare %x, %0, comparison_direction = LT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %[[GE:.*]] = "stablehlo.compare"(%[[U]], %[[U]]) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}>
  %4 = xla.compare %u, %u, comparison_direction = GE : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  // CHECK-NEXT: %[[C:.*]] = "stablehlo.constant"() <{value = dense<{{\[}}[1.0e+00, 0x7FC00000, -2.5e+00], [0.0e+00, 1.0e+00, 2.0e+00]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %c = xla.constant dense<[[1.0, 0x7FC00000, -2.5], [0.0, 1.0, 2.0]]> : tensor<2x3xf32>
  // CHECK-NEXT: %[[T:.*]] = "stablehlo.tanh"(%[[C]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = xla.tanh %c : tensor<2x3xf32>
  // CHECK-NEXT: %[[K:.*]] = "stablehlo.constant"() <{value = dense<3> : tensor<4xui8>}> : () -> tensor<4xui8>
  // CHECK-NEXT: %[[SHR:.*]] = "stablehlo.shift_right_logical"(%[[U]], %[[K]])
  %k = xla.constant dense<3> : tensor<4xui8>
  %6 = xla.shift_right_logical %u, %k : tensor<4xui8>
  // CHECK-NEXT: func.return %[[ADD]], %[[MUL]], %[[SUB]], %[[LT]], %[[GE]], %[[T]], %[[SHR]] :
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi1>, tensor<2x3xf32>, tensor<4xui8>
}

// CHECK-LABEL: func.func public @conversions(
func.func @conversions(%x: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<2xbf16>) {
  // CHECK: "stablehlo.convert"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xi32>
  %0 = xla.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: "stablehlo.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = xla.reduce_precision %x, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  // CHECK: "stablehlo.bitcast_convert"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xi32>
  %2 = xla.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // bf16 constants are exact hexadecimal buffers
  // CHECK: "stablehlo.constant"() <{value = dense<"0x803F0040"> : tensor<2xbf16>}>
  %3 = xla.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  func.return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<2xbf16>
}
