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
// 2^14 or more take 11-bit digits.
// CHECK-LABEL: func.func @sort_total_order
// CHECK:         func.call @xla_opt_sort_f32_totalorder_lt_d11__tensor_16384x2xf32_(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, tensor<16384x2xf32>) -> tensor<16384x2xf32>
func.func @sort_total_order(%x: tensor<16384x2xf32>) -> tensor<16384x2xf32> {
  %0 = xla.sort %x, dimension = 0 comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<16384x2xf32>
  func.return %0 : tensor<16384x2xf32>
}


// JAX's float comparator (jnp.argsort): -0.0 and NaN canonicalized by selects before a
// TOTALORDER compare, seen through (sort_idioms.py): the kernel's FLOAT keys (zeros tie,
// NaNs one NaN after +inf). The iota payload is not gathered: its sorted values are
// the positions the kernel returns, converted as the iota converts its index.
// CHECK-LABEL: func.func @jax_argsort
// CHECK:         %[[SORTED:.*]], %[[PERM:.*]] = func.call @xla_opt_sort_f32_float_lt_d8_perm__tensor_2x32xf32_(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, tensor<2x32xf32>) -> (tensor<2x32xf32>, tensor<2x32xi32>)
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<2x32xi64>
// CHECK-NEXT:    %[[POSITIONS:.*]] = linalg.generic {{.*}} ins(%[[PERM]] : tensor<2x32xi32>) outs(%[[EMPTY]] : tensor<2x32xi64>)
// CHECK-NEXT:    ^bb0(%[[P:.*]]: i32, %{{.*}}: i64):
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK-NEXT:      %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      linalg.yield %[[I64]] : i64
// CHECK:         func.return %[[POSITIONS]] : tensor<2x32xi64>
func.func @jax_argsort(%x: tensor<2x32xf32>) -> tensor<2x32xi64> {
  %iota = xla.iota iota_dimension = 1 : tensor<2x32xi64>
  %0:2 = xla.sort %x, %iota, dimension = 1, is_stable = true comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i64>, %j: tensor<i64>):
    %zero = xla.constant dense<0.000000e+00> : tensor<f32>
    %a_is_zero = xla.compare %a, %zero, comparison_direction = EQ, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %a0 = xla.select %a_is_zero, %zero, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %a_is_nan = xla.compare %a, %a, comparison_direction = NE, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.constant dense<0x7FC00000> : tensor<f32>
    %a1 = xla.select %a_is_nan, %nan, %a0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %b_is_zero = xla.compare %b, %zero, comparison_direction = EQ, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b0 = xla.select %b_is_zero, %zero, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %b_is_nan = xla.compare %b, %b, comparison_direction = NE, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b1 = xla.select %b_is_nan, %nan, %b0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %lt = xla.compare %a1, %b1, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2x32xf32>, tensor<2x32xi64>) -> (tensor<2x32xf32>, tensor<2x32xi64>)
  func.return %0#1 : tensor<2x32xi64>
}

// Two keys (lax.sort with num_keys = 2): x LT, then y as the tie-breaker (GT of the
// swapped pair: ascending), in any operand order of and/or/EQ. The least significant
// key is sorted first, the first key gathered through its positions and sorted
// stably, the positions composed, and y gathered through them.
// CHECK-LABEL: func.func @two_keys
// CHECK-SAME:    (%[[X:.*]]: tensor<40xi32>, %[[Y:.*]]: tensor<40xf32>)
// CHECK:         %{{.*}}, %[[P1:.*]] = func.call @xla_opt_sort_f32_totalorder_lt_d8_perm__tensor_40xf32_(%{{.*}}, %{{.*}}, %{{.*}}, %[[Y]])
// CHECK:         %[[X1:.*]] = linalg.generic {{.*}} ins(%[[P1]] : tensor<40xi32>)
// CHECK:           tensor.extract %[[X]]
// CHECK:         %[[SORTED:.*]], %[[P2:.*]] = func.call @xla_opt_sort_i32_signed_lt_d8_perm__tensor_40xi32_(%{{.*}}, %{{.*}}, %{{.*}}, %[[X1]])
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[P2]] : tensor<40xi32>)
// CHECK:           tensor.extract %[[P1]]
// CHECK:         %[[Y2:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<40xi32>)
// CHECK:           tensor.extract %[[Y]]
// CHECK:         func.return %[[SORTED]], %[[Y2]] : tensor<40xi32>, tensor<40xf32>
func.func @two_keys(%x: tensor<40xi32>, %y: tensor<40xf32>) -> (tensor<40xi32>, tensor<40xf32>) {
  %0:2 = xla.sort %x, %y, dimension = 0 comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %second = xla.compare %d, %c, comparison_direction = GT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %first = xla.compare %a, %b, comparison_direction = LT, compare_type = SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.compare %b, %a, comparison_direction = EQ, compare_type = SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %then = xla.and %second, %tie : tensor<i1>
    %lex = xla.or %then, %first : tensor<i1>
    xla.return %lex : tensor<i1>
  } : (tensor<40xi32>, tensor<40xf32>) -> (tensor<40xi32>, tensor<40xf32>)
  func.return %0#0, %0#1 : tensor<40xi32>, tensor<40xf32>
}

// Results read only through slices of their first k (chlo.top_k's import), k at most
// 1/32 of the row: the top-k kernel selects the first 4 of each row (k the fourth
// size), and the slices are its results; the i32 iota's are the positions themselves.
// CHECK-LABEL: func.func @top_k
// CHECK:         %[[K:.*]] = arith.constant 4 : i64
// CHECK:         %[[VALUES:.*]], %[[PERM:.*]] = func.call @xla_opt_topk_bf16_totalorder_gt__tensor_3x128xbf16___tensor_3x4xbf16_(%{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %{{.*}}) : (i64, i64, i64, i64, tensor<3x128xbf16>) -> (tensor<3x4xbf16>, tensor<3x4xi32>)
// CHECK-NOT:       linalg.generic
// CHECK:         func.return %[[VALUES]], %[[PERM]] : tensor<3x4xbf16>, tensor<3x4xi32>
func.func @top_k(%x: tensor<3x128xbf16>) -> (tensor<3x4xbf16>, tensor<3x4xi32>) {
  %iota = xla.iota iota_dimension = 1 : tensor<3x128xi32>
  %0:2 = xla.sort %x, %iota, dimension = 1, is_stable = true comparator {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = xla.compare %a, %b, comparison_direction = GT, compare_type = TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<3x128xbf16>, tensor<3x128xi32>) -> (tensor<3x128xbf16>, tensor<3x128xi32>)
  %values = xla.slice %0#0, start_indices = [0, 0], limit_indices = [3, 4], strides = [1, 1] : (tensor<3x128xbf16>) -> tensor<3x4xbf16>
  %indices = xla.slice %0#1, start_indices = [0, 0], limit_indices = [3, 4], strides = [1, 1] : (tensor<3x128xi32>) -> tensor<3x4xi32>
  func.return %values, %indices : tensor<3x4xbf16>, tensor<3x4xi32>
}

// A comparator not proved a radix order keeps the merge sort: here NaNs become a
// negative NaN (below -inf), which no kernel order has.
// CHECK-LABEL: func.func @negative_nan
// CHECK-NOT:     xla_opt_sort
// CHECK:         scf.for
func.func @negative_nan(%x: tensor<32xf32>) -> tensor<32xf32> {
  %0 = xla.sort %x, dimension = 0 comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %zero = xla.constant dense<0.000000e+00> : tensor<f32>
    %a_is_zero = xla.compare %a, %zero, comparison_direction = EQ, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %a0 = xla.select %a_is_zero, %zero, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %a_is_nan = xla.compare %a, %a, comparison_direction = NE, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.constant dense<0xFFC00000> : tensor<f32>
    %a1 = xla.select %a_is_nan, %nan, %a0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %b_is_zero = xla.compare %b, %zero, comparison_direction = EQ, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b0 = xla.select %b_is_zero, %zero, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %b_is_nan = xla.compare %b, %b, comparison_direction = NE, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b1 = xla.select %b_is_nan, %nan, %b0 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %lt = xla.compare %a1, %b1, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<32xf32>
  func.return %0 : tensor<32xf32>
}

// Each kernel signature is declared once, privately, after the functions.
// CHECK:       func.func private @xla_opt_sort_i16_signed_gt_d8_perm__tensor_3x32xi16_(i64, i64, i64, tensor<3x32xi16>) -> (tensor<3x32xi16>, tensor<3x32xi32>)
// CHECK:       func.func private @xla_opt_sort_f32_totalorder_lt_d11__tensor_16384x2xf32_(i64, i64, i64, tensor<16384x2xf32>) -> tensor<16384x2xf32>
// CHECK:       func.func private @xla_opt_topk_bf16_totalorder_gt__tensor_3x128xbf16___tensor_3x4xbf16_(i64, i64, i64, i64, tensor<3x128xbf16>) -> (tensor<3x4xbf16>, tensor<3x4xi32>)
