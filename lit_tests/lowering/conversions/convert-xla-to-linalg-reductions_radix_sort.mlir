// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A comparator that is one LT / GT compare of the first pair sorts rows of 24 or more
// elements by a call of the radix-sort kernel (lowering/kernels/sort.py) named after its
// variant (i16 keys, SIGNED, descending, 8-bit digits, returning the permutation) and
// the call's signature, with the shape around the sorted dimension: (outer, n, inner).
// Two operands: the kernel sorts the keys and returns each element's position (i32),
// which the other operand is gathered through.
// CHECK-LABEL: func.func @sort_key_val
// CHECK-SAME:    (%[[K:.*]]: tensor<3x32xi16>, %[[V:.*]]: tensor<3x32xf32>)
// CHECK:         %[[OUTER:.*]] = arith.constant 3 : i64
// CHECK:         %[[N:.*]] = arith.constant 32 : i64
// CHECK:         %[[INNER:.*]] = arith.constant 1 : i64
// CHECK:         %[[SORTED:.*]], %[[PERM:.*]] = func.call @xla_opt_sort_i16_signed_gt_d8_perm__tensor_3x32xi16_(%[[OUTER]], %[[N]], %[[INNER]], %[[K]]) : (i64, i64, i64, tensor<3x32xi16>) -> (tensor<3x32xi16>, tensor<3x32xi32>)
// CHECK:         linalg.generic {{.*}} ins(%[[PERM]] : tensor<3x32xi32>) outs(%{{.*}} : tensor<3x32xf32>)
// CHECK:           tensor.extract %[[V]]
// CHECK:         func.return %[[SORTED]], %{{.*}} : tensor<3x32xi16>, tensor<3x32xf32>
func.func @sort_key_val(%k: tensor<3x32xi16>, %v: tensor<3x32xf32>) -> (tensor<3x32xi16>, tensor<3x32xf32>) {
  %0:2 = xla.sort %k, %v, dimension = 1 comparator {
  ^bb0(%a: tensor<i16>, %b: tensor<i16>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = xla.compare %a, %b, comparison_direction = GT, compare_type = SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<3x32xi16>, tensor<3x32xf32>) -> (tensor<3x32xi16>, tensor<3x32xf32>)
  func.return %0#0, %0#1 : tensor<3x32xi16>, tensor<3x32xf32>
}

// One f32 operand under TOTALORDER, sorted along dimension 0: no permutation; rows of
// 2^14 or more take 11-bit digits. The kernel is declared once, privately.
// CHECK-LABEL: func.func @sort_total_order
// CHECK:         func.call @xla_opt_sort_f32_totalorder_lt_d11__tensor_16384x2xf32_(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, tensor<16384x2xf32>) -> tensor<16384x2xf32>
// CHECK:       func.func private @xla_opt_sort_i16_signed_gt_d8_perm__tensor_3x32xi16_(i64, i64, i64, tensor<3x32xi16>) -> (tensor<3x32xi16>, tensor<3x32xi32>)
// CHECK:       func.func private @xla_opt_sort_f32_totalorder_lt_d11__tensor_16384x2xf32_(i64, i64, i64, tensor<16384x2xf32>) -> tensor<16384x2xf32>
func.func @sort_total_order(%x: tensor<16384x2xf32>) -> tensor<16384x2xf32> {
  %0 = xla.sort %x, dimension = 0 comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<16384x2xf32>
  func.return %0 : tensor<16384x2xf32>
}
