// RUN: xla-opt %s -p convert-xla-to-linalg,linalg-generalize-named-ops,linalg-interchange-contractions | filecheck %s

// linalg.matmul generalizes as (i, j, k); the contraction moves before j, the loop
// that walks rhs's and the result's rows: (i, k, j).
// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[L:.*]]: f32, %[[R:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f32
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %r = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// Any body (an integer dot here): batch d0, lhs free d1, contraction d2, rhs free d3.
// CHECK-LABEL: func.func @batched_integers
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:      arith.muli
// CHECK-NEXT:      arith.addi
func.func @batched_integers(%a: tensor<2x3x4xi32>, %b: tensor<2x4x5xi32>) -> tensor<2x3x5xi32> {
  %r = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
       lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]
       : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
  func.return %r : tensor<2x3x5xi32>
}

// Two contracting dimensions keep their order, between the free loops.
// CHECK-LABEL: func.func @permuted
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel"]}
func.func @permuted(%a: tensor<5x2x3x7xf32>, %b: tensor<3x2x5x6xf32>) -> tensor<2x7x6xf32> {
  %r = xla.dot_general %a, %b, lhs_batching_dimensions = [1], rhs_batching_dimensions = [1],
       lhs_contracting_dimensions = [0, 2], rhs_contracting_dimensions = [2, 0]
       : (tensor<5x2x3x7xf32>, tensor<3x2x5x6xf32>) -> tensor<2x7x6xf32>
  func.return %r : tensor<2x7x6xf32>
}

// Not contractions: an element-wise generic (no reduction) and a reduce (one input).
// CHECK-LABEL: func.func @untouched
// CHECK:         iterator_types = ["parallel", "parallel"]
// CHECK:         iterator_types = ["parallel", "reduction"]
func.func @untouched(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  %s = xla.add %a, %a : tensor<2x3xf32>
  %r = xla.reduce (%s), (%z), dimensions = [1] body {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = xla.add %x, %y : tensor<f32>
    xla.return %t : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
