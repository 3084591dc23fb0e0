// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s
// RUN: xla-opt %s -p convert-stablehlo-to-xla -t stablehlo | filecheck %s --check-prefix=EXPORT
// RUN: xla-opt %s -p convert-stablehlo-to-xla -t stablehlo | xla-opt -p convert-stablehlo-to-xla | filecheck %s

// Custom-call targets keep any name through import and export (issue 13): JAX's
// `__gpu$xla.gpu.triton`, a quoted symbol, a name given as a string attribute.

// CHECK-LABEL: @main(
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "__gpu$xla.gpu.triton", backend_config = "cfg" : tensor<2xf32>
  // EXPORT: "stablehlo.custom_call"(%{{.*}}) <{backend_config = "cfg", call_target_name = "__gpu$xla.gpu.triton"}>
  %0 = stablehlo.custom_call @__gpu$xla.gpu.triton(%x) {backend_config = "cfg"} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "my target-name \22q\22" : tensor<2xf32>
  // EXPORT: "stablehlo.custom_call"(%{{.*}}) <{call_target_name = "my target-name \22q\22"}>
  %1 = stablehlo.custom_call @"my target-name \"q\""(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "a.b-c" : tensor<2xf32>
  // EXPORT: "stablehlo.custom_call"(%{{.*}}) <{call_target_name = "a.b-c"}>
  %2 = "stablehlo.custom_call"(%x) {call_target_name = "a.b-c"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
