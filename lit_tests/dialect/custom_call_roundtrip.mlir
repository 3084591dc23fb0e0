// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The spec's example: CustomCall("myfunc", {x, y}, f32[3x3]).
// CHECK-LABEL: func.func @custom_call
func.func @custom_call(%x: tensor<2xf32>, %y: tensor<2x3xf32>, %t: !xla.token) {
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // GENERIC: "xla.custom_call"(%{{.*}}, %{{.*}}) <{call_target_name = "myfunc"}> : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %0 = xla.custom_call %x, %y, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "_Impl2", backend_config = "{\22k\22: 1}", has_side_effect = true : (tensor<2xf32>) -> (tensor<2xf32>, tuple<tensor<f32>, tensor<2x3xi32>>)
  // GENERIC: <{call_target_name = "_Impl2", backend_config = "{\22k\22: 1}", has_side_effect = true}>
  %1, %2 = xla.custom_call %x, call_target_name = "_Impl2", backend_config = "{\"k\": 1}", has_side_effect = true : (tensor<2xf32>) -> (tensor<2xf32>, tuple<tensor<f32>, tensor<2x3xi32>>)
  // Operands and result of one type, one result.
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, call_target_name = "add2" : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = xla.custom_call %x, %x, call_target_name = "add2" : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "id" : tensor<2xf32>
  %5 = xla.custom_call %x, call_target_name = "id" : tensor<2xf32>
  // CHECK: xla.custom_call call_target_name = "make" : tensor<4xi32>
  %3 = xla.custom_call call_target_name = "make" : () -> tensor<4xi32>
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, %{{.*}}, call_target_name = "log_values", has_side_effect = true : tensor<2xf32>, tensor<2x3xf32>, !xla.token
  xla.custom_call %x, %y, %t, call_target_name = "log_values", has_side_effect = true : (tensor<2xf32>, tensor<2x3xf32>, !xla.token) -> ()
  return
}

// A custom call without results whose operand type is all its signature holds must
// keep printing `(tensor<f32>) -> ()`: printed as `: tensor<f32>` it would re-parse
// as the short form of a call with one result.
// CHECK-LABEL: func.func @sink
func.func @sink(%f: tensor<f32>) {
  // CHECK-NOT: = xla.custom_call
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  xla.custom_call %f, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  return
}
