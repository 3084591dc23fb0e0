// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A target not registered in Python (none is, in xla-opt) is a native symbol: the call
// goes to a declared `__xla_native_<id>_<target>`, which the JIT runtime binds to a
// wrapper calling `void target(void* out, const void** in)` (XLA's CPU custom-call
// convention, version 1). Each call site has its own declaration (its own types).
// CHECK-LABEL: func.func @native
// CHECK-SAME:    (%[[X:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = func.call @[[FIRST:__xla_native_[0-9]+_myfunc]](%[[X]], %[[Y]]) : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %[[S0:.*]], %[[S1:.*]] = func.call @[[SECOND:__xla_native_[0-9]+_myfunc]](%[[R]]) : (tensor<3x3xf32>) -> (tensor<3xi32>, tensor<i1>)
// CHECK-NEXT:    func.call @{{__xla_native_[0-9]+_sink}}(%[[S1]]) : (tensor<i1>) -> ()
// CHECK-NEXT:    func.return %[[S0]] : tensor<3xi32>
// CHECK:       func.func private @[[FIRST]](tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:  func.func private @[[SECOND]](tensor<3x3xf32>) -> (tensor<3xi32>, tensor<i1>)
func.func @native(%x: tensor<2xf32>, %y: tensor<2x3xf32>) -> tensor<3xui32> {
  %r = xla.custom_call %x, %y, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %s:2 = xla.custom_call %r, call_target_name = "myfunc", backend_config = "ignored" : (tensor<3x3xf32>) -> (tensor<3xui32>, tensor<i1>)
  xla.custom_call %s#1, call_target_name = "sink", has_side_effect = true : (tensor<i1>) -> ()
  func.return %s#0 : tensor<3xui32>
}
