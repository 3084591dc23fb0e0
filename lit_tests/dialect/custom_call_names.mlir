// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s

// Custom-call target names are any non-empty string, as in XLA (issue 13): JAX emits
// names such as `__gpu$xla.gpu.triton`; quotes and spaces print escaped and re-parse.

// CHECK-LABEL: func.func @names
func.func @names(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "__gpu$xla.gpu.triton" : tensor<2xf32>
  %0 = xla.custom_call %x, call_target_name = "__gpu$xla.gpu.triton" : tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "my-func" : tensor<2xf32>
  %1 = xla.custom_call %x, call_target_name = "my-func" : tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "2func" : tensor<2xf32>
  %2 = xla.custom_call %x, call_target_name = "2func" : tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "a \22quoted\22 name" : tensor<2xf32>
  %3 = xla.custom_call %x, call_target_name = "a \"quoted\" name" : tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
