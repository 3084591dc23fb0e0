// RUN: xla-opt %s -p convert-xla-to-stablehlo | filecheck %s

// convert-xla-to-stablehlo, element-wise ops: the same op in the stablehlo dialect
// (generic form, StableHLO's attributes); XLA's implicit broadcast becomes an explicit
// broadcast_in_dim; compare spells out its default compare type.
// CHECK: builtin.module attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf32>, %[[V:[^:]*]]: tensor<3xf32>, %[[S:[^:]*]]: tensor<f32>, %[[U:[^:]*]]: tensor<4xui8>)
// CHECK-NEXT: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%[[V]]) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[ADD:.*]] = "stablehlo.add"(%[[A]], %[[B]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[LT:.*]] = "stablehlo.compare"(%[[A]], %[[ADD]]) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}>
// CHECK-NEXT: "stablehlo.compare"(%[[U]], %[[U]]) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}>
// CHECK-NEXT: %[[E:.*]] = "stablehlo.exponential"(%[[A]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: "stablehlo.clamp"(%[[S]], %[[A]], %[[S]]) : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
// CHECK-NEXT: %[[SEL:.*]] = "stablehlo.select"(%[[LT]], %[[A]], %[[E]])
// CHECK-NEXT: "stablehlo.convert"(%[[SEL]]) : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT: "stablehlo.reduce_precision"(%[[A]]) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}>
// CHECK-NEXT: "stablehlo.constant"() <{value = dense<{{.*}}> : tensor<2x3xbf16>}> : () -> tensor<2x3xbf16>
// CHECK-NEXT: func.return
func.func @elementwise(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>, %u: tensor<4xui8>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x8xi32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xbf16>) {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.compare %a, %0, comparison_direction = LT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = xla.compare %u, %u, comparison_direction = GE : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %3 = xla.exponential %a : tensor<2x3xf32>
  %4 = xla.clamp %s, %a, %s : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = xla.iota iota_dimension = 1 : tensor<4x8xi32>
  %6 = xla.select %1, %a, %3 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = xla.convert %6 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %8 = xla.reduce_precision %a, exponent_bits = 5, mantissa_bits = 10 : tensor<2x3xf32>
  %c = xla.constant dense<[[1.0, 0.5, -2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xbf16>
  func.return %0, %1, %2, %3, %4, %5, %8, %7, %c : tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x8xi32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xbf16>
}
