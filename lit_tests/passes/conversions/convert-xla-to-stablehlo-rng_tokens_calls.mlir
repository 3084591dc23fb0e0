// RUN: xla-opt %s -p convert-xla-to-stablehlo | filecheck %s

// convert-xla-to-stablehlo, random numbers, custom calls, replica_id and tokens:
// rng_uniform is stablehlo.rng with a constant shape (a PRED draw goes through S32),
// rng_bit_generator of a signed type draws unsigned bits and bitcasts them,
// !xla.token is !stablehlo.token (in the signature too).
// CHECK-LABEL: func.func @rng_and_calls(
// CHECK-SAME: -> (tensor<7xi32>, tensor<3xi1>, tensor<2xui64>, tensor<4xi32>, tensor<3xf32>, tensor<ui32>, !stablehlo.token)
// CHECK-NEXT: %[[SHAPE:.*]] = "stablehlo.constant"() <{value = dense<7> : tensor<1xi64>}> : () -> tensor<1xi64>
// CHECK-NEXT: "stablehlo.rng"(%{{.*}}, %{{.*}}, %[[SHAPE]]) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<7xi32>
// CHECK-NEXT: "stablehlo.constant"() <{value = dense<3> : tensor<1xi64>}>
// CHECK-NEXT: "stablehlo.convert"(%{{.*}}) : (tensor<i1>) -> tensor<i32>
// CHECK-NEXT: "stablehlo.convert"(%{{.*}}) : (tensor<i1>) -> tensor<i32>
// CHECK-NEXT: %[[DRAWN:.*]] = "stablehlo.rng"
// CHECK-SAME: -> tensor<3xi32>
// CHECK-NEXT: "stablehlo.convert"(%[[DRAWN]]) : (tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT: %{{.*}}, %[[BITS:.*]] = "stablehlo.rng_bit_generator"(%{{.*}}) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// CHECK-NEXT: "stablehlo.bitcast_convert"(%[[BITS]]) : (tensor<4xui32>) -> tensor<4xi32>
// CHECK-NEXT: "stablehlo.custom_call"(%{{.*}}) <{call_target_name = "my_target", has_side_effect = true}> : (tensor<2xf32>) -> tensor<3xf32>
// CHECK-NEXT: "stablehlo.replica_id"() : () -> tensor<ui32>
// CHECK-NEXT: "stablehlo.after_all"() : () -> !stablehlo.token
func.func @rng_and_calls(%lo: tensor<i32>, %hi: tensor<i32>, %p: tensor<i1>, %q: tensor<i1>, %state: tensor<2xui64>, %x: tensor<2xf32>) -> (tensor<7xi32>, tensor<3xi1>, tensor<2xui64>, tensor<4xi32>, tensor<3xf32>, tensor<ui32>, !xla.token) {
  %0 = xla.rng_uniform %lo, %hi : (tensor<i32>, tensor<i32>) -> tensor<7xi32>
  %1 = xla.rng_uniform %p, %q : (tensor<i1>, tensor<i1>) -> tensor<3xi1>
  %2, %3 = xla.rng_bit_generator %state, rng_algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi32>)
  %4 = xla.custom_call %x, call_target_name = "my_target", has_side_effect = true : (tensor<2xf32>) -> tensor<3xf32>
  %5 = xla.replica_id : tensor<ui32>
  %t = xla.after_all : !xla.token
  func.return %0, %1, %2, %3, %4, %5, %t : tensor<7xi32>, tensor<3xi1>, tensor<2xui64>, tensor<4xi32>, tensor<3xf32>, tensor<ui32>, !xla.token
}
