// RUN: xla-opt %s --split-input-file --verify-diagnostics

// A target name is any non-empty string (issue 13: `my-func`, `2func` and JAX's
// `__gpu$xla.gpu.triton` are valid, see custom_call_names.mlir).
func.func @custom_call_empty_target(%x: tensor<2xf32>) {
  // expected-error @+1 {{call_target_name must not be empty}}
  %0 = xla.custom_call %x, call_target_name = "" : (tensor<2xf32>) -> tensor<3xf32>
  return
}
