// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// A module as JAX 0.10 prints it with `as_text(debug_info=True)`, trimmed: module
// attributes, Shardy meshes and shardings, argument/result attributes, a sharding
// constraint, location aliases used before their definitions at the end of the file
// (names, call sites, ranges). Everything with no meaning here is dropped.

// CHECK:      builtin.module @jit__lambda {
// CHECK-NOT:  sdy.
// CHECK-NEXT:   func.func public @main(%arg0: tensor<2xui32>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>) -> (tensor<2xf32>, tensor<f32>) {
// CHECK-NEXT:     %0 = xla.tanh %arg1 : tensor<2xf32>
// CHECK-NEXT:     %1 = xla.convert %arg0 : (tensor<2xui32>) -> tensor<2xf32>
// CHECK-NEXT:     %2 = xla.multiply %0, %1 : tensor<2xf32>
// CHECK-NEXT:     %cst = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %3 = xla.reduce (%arg1), (%cst), dimensions = [0] body {
// CHECK:          func.return %2, %3 : tensor<2xf32>, tensor<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
#loc = loc(unknown)
#loc1 = loc("k")
#loc2 = loc("a")
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}} loc(#loc)
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}} loc(#loc)
  func.func public @main(%arg0: tensor<2xui32> loc("k"), %arg1: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>} loc("a"), %arg2: tensor<2xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"} loc("b")) -> (tensor<2xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]", mhlo.layout_mode = "default"}) {
    %0 = sdy.sharding_constraint %arg0 <@empty_mesh, [{}]> : tensor<2xui32> loc(#loc36)
    %1 = stablehlo.tanh %arg1 : tensor<2xf32> loc(#loc41)
    %2 = stablehlo.convert %0 : (tensor<2xui32>) -> tensor<2xf32> loc(#loc42)
    %3 = stablehlo.multiply %1, %2 : tensor<2xf32> loc(#loc43)
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc44)
    %4 = stablehlo.reduce(%arg1 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32> loc(#loc44)
    return %3, %4 : tensor<2xf32>, tensor<f32> loc(#loc36)
  } loc(#loc)
} loc(#loc)
#loc3 = loc("/tmp/sh/gen3.py":7:6 to :61)
#loc4 = loc("/tmp/sh/gen3.py":6:26 to :37)
#loc5 = loc("/tmp/sh/gen3.py":6:40 to :67)
#loc29 = loc("<module>"(#loc3))
#loc30 = loc("<lambda>"(#loc4))
#loc31 = loc("<lambda>"(#loc5))
#loc37 = loc(callsite(#loc30 at #loc29))
#loc38 = loc(callsite(#loc31 at #loc29))
#loc36 = loc("jit(<lambda>)"(#loc29))
#loc39 = loc(fused["a", "b"])
#loc40 = loc("/tmp/sh/gen3.py":6:69)
#loc41 = loc("jit(<lambda>)/tanh"(#loc37))
#loc42 = loc("jit(<lambda>)/jit(_uniform)"(#loc38))
#loc43 = loc("jit(<lambda>)/mul"(#loc39))
#loc44 = loc("jit(<lambda>)/reduce_sum"(#loc40))
