// RUN: xla-opt %s -p convert-xla-to-linalg,linalg-generalize-named-ops,linalg-interchange-contractions,linalg-block-rows | filecheck %s

// (A matmul is generalized and its loops interchanged first.) Float dots whose lhs has
// more than 4 rows, a multiple of 4, compute 4 result rows per
// innermost loop (r = d0 * 4 + d3): two unread placeholder inputs carry the extents of
// the split loop for xDSL's loop-bound inference.
// CHECK-LABEL: func.func @row_blocked
// CHECK:         %[[BLOCKS:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (((d0 * 4) + d3), d1)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (((d0 * 4) + d3), d2)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%[[BLOCKS]], %[[ROWS]], %a, %b : tensor<2xf32>, tensor<4xf32>, tensor<8x6xf32>, tensor<6x5xf32>)
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32, %[[L:.*]]: f32, %[[R:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f32
func.func @row_blocked(%a: tensor<8x6xf32>, %b: tensor<6x5xf32>) -> tensor<8x5xf32> {
  %0 = xla.dot %a, %b : (tensor<8x6xf32>, tensor<6x5xf32>) -> tensor<8x5xf32>
  func.return %0 : tensor<8x5xf32>
}

// Not blocked: 3 rows (not more than one block of 4), an integer dot, and a generic
// that is not a dot (an element-wise add).
// CHECK-LABEL: func.func @not_blocked
// CHECK-NOT:     tensor<4xf32>
// CHECK-NOT:     tensor<4xi32>
// CHECK:         func.return
func.func @not_blocked(%a: tensor<3x6xf32>, %b: tensor<6x5xf32>, %i: tensor<8x6xi32>, %j: tensor<6x5xi32>) -> (tensor<3x5xf32>, tensor<8x5xi32>, tensor<3x6xf32>) {
  %0 = xla.dot %a, %b : (tensor<3x6xf32>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %1 = xla.dot %i, %j : (tensor<8x6xi32>, tensor<6x5xi32>) -> tensor<8x5xi32>
  %2 = xla.add %a, %a : tensor<3x6xf32>
  func.return %0, %1, %2 : tensor<3x5xf32>, tensor<8x5xi32>, tensor<3x6xf32>
}
