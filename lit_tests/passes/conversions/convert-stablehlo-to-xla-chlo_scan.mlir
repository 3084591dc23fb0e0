// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// chlo.scan as an xla.while over (index, inputs, carries, outputs) (issue 13): the
// cumulative max with its argmax of StableHLO's interpret tests; tests/test_stablehlo_import.py
// runs it on both backends.

// CHECK-LABEL: func.func @main
// CHECK: xla.while
// CHECK: xla.dynamic_slice
// CHECK: xla.maximum
// CHECK: xla.dynamic_update_slice
// CHECK-NOT: chlo.
func.func @main(%input: tensor<5xi32>, %iota: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>) {
  %val_init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %idx_init = stablehlo.constant dense<0> : tensor<i32>
  %0:4 = chlo.scan(%input, %iota) inits(%val_init, %idx_init) dimension=0 {
  ^bb0(%cur_val: tensor<i32>, %cur_idx: tensor<i32>, %run_val: tensor<i32>, %run_idx: tensor<i32>):
    %new_val = stablehlo.maximum %run_val, %cur_val : tensor<i32>
    %gt = stablehlo.compare GT, %run_val, %cur_val : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %run_val, %cur_val : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %max_idx = stablehlo.maximum %run_idx, %cur_idx : tensor<i32>
    %tie_or_less = stablehlo.select %eq, %max_idx, %cur_idx : tensor<i1>, tensor<i32>
    %new_idx = stablehlo.select %gt, %run_idx, %tie_or_less : tensor<i1>, tensor<i32>
    stablehlo.return %new_val, %new_idx, %new_val, %new_idx
        : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
  } : (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>)
      -> (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>
}
