// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A stable bottom-up merge sort of an i64 permutation (the iota along the sorted
// dimension), then one gather generic per operand. The outer loop runs the merge
// passes in pairs (src -> dst, dst -> src), carrying both buffers and the width;
// each pass loops over the slices, the pairs of runs, then the merged elements,
// carrying the tensor it writes with tensor.insert.
// CHECK-LABEL: func.func @sort_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<2x5xf32>)
// CHECK:         %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x5xi64>)
// CHECK:           linalg.index 1 : index
// CHECK:         %[[SCRATCH:.*]] = tensor.empty() : tensor<2x5xi64>
// CHECK:         %[[PERM:.*]], %{{.*}}, %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SRC:.*]] = %[[IOTA]], %[[DST:.*]] = %[[SCRATCH]], %[[WIDTH:.*]] = %{{.*}}) -> (tensor<2x5xi64>, tensor<2x5xi64>, index) {
// CHECK-NEXT:      %[[INTO_DST:.*]] = scf.for %[[SLICE:.*]] = {{.*}} iter_args(%{{.*}} = %[[DST]]) -> (tensor<2x5xi64>) {
// CHECK:             scf.for %[[LO:.*]] = {{.*}} iter_args(%{{.*}}) -> (tensor<2x5xi64>) {
// CHECK:               scf.for %[[K:.*]] = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}}, %[[I:.*]] = %[[LO]], %[[J:.*]] = %{{.*}}) -> (tensor<2x5xi64>, index, index) {
// CHECK:                 %[[LEFT:.*]] = tensor.extract %[[SRC]][%[[SLICE]], %{{.*}}] : tensor<2x5xi64>
// CHECK:                 %[[RIGHT:.*]] = tensor.extract %[[SRC]][%[[SLICE]], %{{.*}}] : tensor<2x5xi64>
// CHECK:                 %[[R:.*]] = tensor.extract %[[X]][%[[SLICE]], %{{.*}}] : tensor<2x5xf32>
// CHECK:                 %[[L:.*]] = tensor.extract %[[X]][%[[SLICE]], %{{.*}}] : tensor<2x5xf32>
// The comparator, inlined: does the right run's element go strictly first?
// CHECK:                 %[[FIRST:.*]] = arith.cmpf olt, %[[R]], %[[L]] : f32
// CHECK:                 %[[TAKE:.*]] = arith.andi
// CHECK:                 %[[CHOSEN:.*]] = arith.select %[[TAKE]], %[[RIGHT]], %[[LEFT]] : i64
// CHECK:                 tensor.insert %[[CHOSEN]] into %[[OUT]][%[[SLICE]], %[[K]]] : tensor<2x5xi64>
// CHECK:                 scf.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5xi64>, index, index
// CHECK:         %[[INTO_SRC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[SRC]]) -> (tensor<2x5xi64>) {
// CHECK:         scf.yield %[[INTO_SRC]], %[[INTO_DST]], %{{.*}} : tensor<2x5xi64>, tensor<2x5xi64>, index
// CHECK:         %[[SORTED:.*]] = linalg.generic {{.*}} ins(%[[PERM]] : tensor<2x5xi64>) outs(%{{.*}} : tensor<2x5xf32>) {
// CHECK:           %[[AT:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:           tensor.extract %[[X]][%{{.*}}, %[[AT]]] : tensor<2x5xf32>
// CHECK:         func.return %[[SORTED]] : tensor<2x5xf32>
func.func @sort_rows(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = xla.sort %x, dimension = 1, is_stable = true comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// Keys and a payload along dimension 0: the comparator sees (lhs_0, rhs_0, lhs_1,
// rhs_1), the right run's elements first; each operand is gathered through the
// permutation along dimension 0.
// CHECK-LABEL: func.func @sort_payload
// CHECK:         arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x2xi32>)
// CHECK:           tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x2xi32>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x2xf16>)
// CHECK:           tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<3x2xf16>
func.func @sort_payload(%k: tensor<3x2xi32>, %v: tensor<3x2xf16>) -> (tensor<3x2xi32>, tensor<3x2xf16>) {
  %0:2 = xla.sort %k, %v, dimension = 0 comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f16>, %d: tensor<f16>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<3x2xi32>, tensor<3x2xf16>) -> (tensor<3x2xi32>, tensor<3x2xf16>)
  func.return %0#0, %0#1 : tensor<3x2xi32>, tensor<3x2xf16>
}

// Nothing to reorder along a dimension of size 1: the operand itself.
// CHECK-LABEL: func.func @sort_size_one
// CHECK-SAME:    (%[[X:.*]]: tensor<4x1xf32>)
// CHECK-NEXT:    func.return %[[X]] : tensor<4x1xf32>
func.func @sort_size_one(%x: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %0 = xla.sort %x comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<4x1xf32>
  func.return %0 : tensor<4x1xf32>
}
