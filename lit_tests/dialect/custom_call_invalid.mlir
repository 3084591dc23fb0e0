// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @custom_call_empty_target(%x: tensor<2xf32>) {
  // expected-error @+1 {{call_target_name "" must be a C identifier ([A-Za-z_][A-Za-z0-9_]*)}}
  %0 = xla.custom_call %x, call_target_name = "" : (tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @custom_call_target_with_dash(%x: tensor<2xf32>) {
  // expected-error @+1 {{call_target_name "my-func" must be a C identifier}}
  %0 = xla.custom_call %x, call_target_name = "my-func" : (tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @custom_call_target_leading_digit(%x: tensor<2xf32>) {
  // expected-error @+1 {{call_target_name "2func" must be a C identifier}}
  %0 = xla.custom_call %x, call_target_name = "2func" : (tensor<2xf32>) -> tensor<3xf32>
  return
}
