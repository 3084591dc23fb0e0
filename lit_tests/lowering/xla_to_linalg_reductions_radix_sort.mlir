// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A comparator that is one LT / GT compare of the first pair sorts rows of 24 or more
// elements by an LSD radix
// sort: a loop over the slices carrying the scratch keys and positions, the result and
// the counters; per slice the counters are cleared, counted for every pass's digit in
// one sweep, turned into bucket starts, then one stable scatter per pass (8-bit digits
// of an i16 key: 2 passes). Two operands: the last pass writes an i32 permutation
// that every operand is gathered through.
// CHECK-LABEL: func.func @sort_key_val
// CHECK-SAME:    (%[[K:.*]]: tensor<3x32xi16>, %[[V:.*]]: tensor<3x32xf32>)
// CHECK:         %{{[0-9]+}}, %{{[0-9]+}}, %[[PERM:[0-9]+]], %{{[0-9]+}} = scf.for %[[ROW:[0-9]+]] = {{.*}} -> (tensor<3x32xi16>, tensor<3x32xi32>, tensor<3x32xi32>, tensor<2x256xi32>) {
// CHECK:           %[[CLEARED:[0-9]+]] = scf.for {{.*}} -> (tensor<2x256xi32>) {
// CHECK:             tensor.insert {{.*}} : tensor<2x256xi32>
// CHECK:           %[[COUNTED:[0-9]+]] = scf.for {{.*}} iter_args(%{{.*}} = %[[CLEARED]]) -> (tensor<2x256xi32>) {
// CHECK:             %[[X:.*]] = tensor.extract %[[K]][%[[ROW]], %{{.*}}] : tensor<3x32xi16>
// The key of a signed integer: its sign bit flipped; GT: every bit inverted.
// CHECK:             %[[SIGNED:.*]] = arith.xori %[[X]], %{{.*}} : i16
// CHECK:             %[[KEY:.*]] = arith.xori %[[SIGNED]], %{{.*}} : i16
// CHECK:             arith.andi %[[KEY]], %{{.*}} : i16
// CHECK:             arith.shrui %[[KEY]], %{{.*}} : i16
// CHECK:           %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.for {{.*}} iter_args(%{{.*}} = %[[COUNTED]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<2x256xi32>, i32, i32) {
// First pass: keys from the operand, positions from the loop; each element goes to its
// digit's next free slot.
// CHECK:           %[[P0KEYS:[0-9]+]], %[[P0LANE:[0-9]+]], %{{[0-9]+}} = scf.for %[[I:[0-9]+]] = {{.*}} -> (tensor<3x32xi16>, tensor<3x32xi32>, tensor<2x256xi32>) {
// CHECK:             %[[POSITION:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:             %[[START:.*]] = tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x256xi32>
// CHECK:             %[[TO:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK:             tensor.insert %{{.*}} into %{{.*}}[%[[ROW]], %[[TO]]] : tensor<3x32xi16>
// CHECK:             tensor.insert %[[POSITION]] into %{{.*}}[%[[ROW]], %[[TO]]] : tensor<3x32xi32>
// CHECK:             tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x256xi32>
// Last pass: the positions only, into the permutation.
// CHECK:           %[[P1LANE:[0-9]+]], %[[P1COUNTS:[0-9]+]] = scf.for {{.*}} -> (tensor<3x32xi32>, tensor<2x256xi32>) {
// CHECK:             tensor.extract %[[P0KEYS]][%[[ROW]], %{{.*}}] : tensor<3x32xi16>
// CHECK:             tensor.extract %[[P0LANE]][%[[ROW]], %{{.*}}] : tensor<3x32xi32>
// CHECK:           scf.yield %[[P0KEYS]], %[[P0LANE]], %[[P1LANE]], %[[P1COUNTS]]
// CHECK:         linalg.generic {{.*}} ins(%[[PERM]] : tensor<3x32xi32>) outs(%{{.*}} : tensor<3x32xi16>)
// CHECK:           tensor.extract %[[K]]
// CHECK:         linalg.generic {{.*}} ins(%[[PERM]] : tensor<3x32xi32>) outs(%{{.*}} : tensor<3x32xf32>)
// CHECK:           tensor.extract %[[V]]
func.func @sort_key_val(%k: tensor<3x32xi16>, %v: tensor<3x32xf32>) -> (tensor<3x32xi16>, tensor<3x32xf32>) {
  %0:2 = xla.sort %k, %v, dimension = 1 comparator {
  ^bb0(%a: tensor<i16>, %b: tensor<i16>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = xla.compare %a, %b, comparison_direction = GT, compare_type = SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<3x32xi16>, tensor<3x32xf32>) -> (tensor<3x32xi16>, tensor<3x32xf32>)
  func.return %0#0, %0#1 : tensor<3x32xi16>, tensor<3x32xf32>
}

// One f32 operand under TOTALORDER: no lane; the last pass decodes each key (sign
// bit set: a positive number, flip it back; else flip every bit) into the result.
// CHECK-LABEL: func.func @sort_total_order
// CHECK:         scf.for {{.*}} -> (tensor<32xi32>, tensor<32xi32>, tensor<32xf32>, tensor<4x256xi32>) {
// CHECK:           scf.for {{.*}} -> (tensor<32xf32>, tensor<4x256xi32>) {
// CHECK:             %[[POSITIVE:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK:             %[[FLIP:.*]] = arith.select %[[POSITIVE]], %{{.*}}, %{{.*}} : i32
// CHECK:             %[[BITS:.*]] = arith.xori %{{.*}}, %[[FLIP]] : i32
// CHECK:             %[[Y:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK:             tensor.insert %[[Y]] into %{{.*}}[%{{.*}}] : tensor<32xf32>
func.func @sort_total_order(%x: tensor<32xf32>) -> tensor<32xf32> {
  %0 = xla.sort %x comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<32xf32>
  func.return %0 : tensor<32xf32>
}
