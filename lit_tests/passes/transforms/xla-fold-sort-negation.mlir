// RUN: xla-opt %s -p xla-fold-sort-negation | filecheck %s

// JAX's k smallest, -lax.top_k(-x, k): the sort reads x, its key's comparator
// arguments swapped (GT of (b, a): ascending), and only the slice it keeps is negated.
// The whole operand's negation is gone.
// CHECK-LABEL: func.func @smallest_k
// CHECK-NEXT:    %[[IOTA:.*]] = xla.iota
// CHECK-NEXT:    %[[S:.*]], %[[P:.*]] = xla.sort %x, %[[IOTA]], dimension = 0, is_stable = true comparator {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[C:.*]] = xla.compare %[[B]], %[[A]], comparison_direction = GT, compare_type = TOTALORDER
// CHECK-NEXT:      xla.return %[[C]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[V:.*]] = xla.slice %[[S]], start_indices = [0], limit_indices = [3]
// CHECK-NEXT:    %[[N:.*]] = xla.negate %[[V]] : tensor<3xf32>
// CHECK-NEXT:    %[[I:.*]] = xla.slice %[[P]], start_indices = [0], limit_indices = [3]
// CHECK-NEXT:    func.return %[[N]], %[[I]]
func.func @smallest_k(%x: tensor<100xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %neg = xla.negate %x : tensor<100xf32>
  %iota = xla.iota iota_dimension = 0 : tensor<100xi32>
  %s, %p = xla.sort %neg, %iota, dimension = 0, is_stable = true comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = xla.compare %a, %b, comparison_direction = GT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<100xf32>, tensor<100xi32>) -> (tensor<100xf32>, tensor<100xi32>)
  %v = xla.slice %s, start_indices = [0], limit_indices = [3], strides = [1] : (tensor<100xf32>) -> tensor<3xf32>
  %i = xla.slice %p, start_indices = [0], limit_indices = [3], strides = [1] : (tensor<100xi32>) -> tensor<3xi32>
  func.return %v, %i : tensor<3xf32>, tensor<3xi32>
}

// JAX's -top_k(-x, k)[0]: the slice negated again is read as it is (-(-v) is v).
// CHECK-LABEL: func.func @negated_again
// CHECK:         %[[S:.*]], %{{.*}} = xla.sort %x
// CHECK:         %[[V:.*]] = xla.slice %[[S]]
// CHECK-NOT:     xla.negate
// CHECK:         func.return %[[V]] : tensor<3xf32>
func.func @negated_again(%x: tensor<100xf32>) -> tensor<3xf32> {
  %neg = xla.negate %x : tensor<100xf32>
  %iota = xla.iota iota_dimension = 0 : tensor<100xi32>
  %s, %p = xla.sort %neg, %iota, dimension = 0, is_stable = true comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = xla.compare %a, %b, comparison_direction = GT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<100xf32>, tensor<100xi32>) -> (tensor<100xf32>, tensor<100xi32>)
  %v = xla.slice %s, start_indices = [0], limit_indices = [3], strides = [1] : (tensor<100xf32>) -> tensor<3xf32>
  %n = xla.negate %v : tensor<3xf32>
  func.return %n : tensor<3xf32>
}

// A sorted key read whole is negated whole; a negation read elsewhere too stays.
// CHECK-LABEL: func.func @read_whole
// CHECK-NEXT:    %[[NEG:.*]] = xla.negate %x
// CHECK-NEXT:    %[[S:.*]] = xla.sort %x, dimension = 0
// CHECK:           xla.compare %{{.*}}, %{{.*}}, comparison_direction = LT, compare_type = TOTALORDER
// CHECK:         %[[N:.*]] = xla.negate %[[S]] : tensor<100xf32>
// CHECK-NEXT:    func.return %[[N]], %[[NEG]]
func.func @read_whole(%x: tensor<100xf32>) -> (tensor<100xf32>, tensor<100xf32>) {
  %neg = xla.negate %x : tensor<100xf32>
  %s = xla.sort %neg, dimension = 0, is_stable = false comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<100xf32>) -> tensor<100xf32>
  func.return %s, %neg : tensor<100xf32>, tensor<100xf32>
}

// Left alone: a FLOAT compare (its NaNs are unordered: negation is no reversal of
// it) and an integer key (-INT_MIN is INT_MIN).
// CHECK-LABEL: func.func @float_compare
// CHECK-NEXT:    %[[NEG:.*]] = xla.negate %x
// CHECK-NEXT:    xla.sort %[[NEG]]
// CHECK-LABEL: func.func @integers
// CHECK-NEXT:    %[[NEG:.*]] = xla.negate %x
// CHECK-NEXT:    xla.sort %[[NEG]]
func.func @float_compare(%x: tensor<100xf32>) -> tensor<100xf32> {
  %neg = xla.negate %x : tensor<100xf32>
  %s = xla.sort %neg, dimension = 0, is_stable = false comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<100xf32>) -> tensor<100xf32>
  func.return %s : tensor<100xf32>
}
func.func @integers(%x: tensor<100xi32>) -> tensor<100xi32> {
  %neg = xla.negate %x : tensor<100xi32>
  %s = xla.sort %neg, dimension = 0, is_stable = false comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<100xi32>) -> tensor<100xi32>
  func.return %s : tensor<100xi32>
}
