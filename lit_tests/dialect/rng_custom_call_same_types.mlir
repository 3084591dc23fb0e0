// stops printing it as `: tensor<f32>`, which re-parses as the short type form with a
// result.
// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s

// CHECK-LABEL: func.func @sink
func.func @sink(%f: tensor<f32>) {
  // CHECK-NOT: = xla.custom_call
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  xla.custom_call %f, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  return
}
