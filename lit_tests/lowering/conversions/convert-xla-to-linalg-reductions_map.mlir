// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// xla.map: one element-wise generic (identity maps, parallel loops) whose body is the
// computation inlined on one element of each input; here T, T -> PRED.
// CHECK-LABEL: func.func @map_compare
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xi1>
// CHECK-NEXT:    %[[MAP:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[EMPTY]] : tensor<2x3xi1>) {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[LT]] : i1
// CHECK-NEXT:    } -> tensor<2x3xi1>
// CHECK-NEXT:    func.return %[[MAP]] : tensor<2x3xi1>
func.func @map_compare(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %0 = xla.map %x, %y, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// One unsigned operand: the computation's ops pick the unsigned arith op (divui),
// and the types become signless.
// CHECK-LABEL: func.func @map_unsigned
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4xi16>) outs(%{{.*}} : tensor<4xi16>)
// CHECK:           arith.divui
// CHECK:         } -> tensor<4xi16>
func.func @map_unsigned(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = xla.map %x, dimensions = [0] computation {
  ^bb0(%a: tensor<ui16>):
    %d = xla.divide %a, %a : tensor<ui16>
    xla.return %d : tensor<ui16>
  } : tensor<4xui16>
  func.return %0 : tensor<4xui16>
}
