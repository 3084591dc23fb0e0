// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// Static shapes: get_dimension_size of an input is a constant; of a
// set_dimension_size result, the size set, clamped to [0, bound]; set_dimension_size
// forwards its operand to a user that reads the data as it is (a slice here).
// CHECK-LABEL: func.func @sizes
// CHECK-NEXT:    %[[D:.*]] = arith.constant dense<3> : tensor<i32>
// CHECK:         %[[X:.*]] = tensor.extract %a[%{{.*}}, %{{.*}}] : tensor<4x3xf32>
// CHECK:         %[[N:.*]] = tensor.extract %n[] : tensor<i32>
// CHECK-NEXT:    %[[W:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[MIN:.*]] = arith.minsi %[[W]], %[[HI]] : i64
// CHECK-NEXT:    %{{.*}} = arith.maxsi %[[MIN]], %[[LO]] : i64
// CHECK:         %[[G:.*]] = tensor.insert %{{.*}} into %{{.*}}[] : tensor<i32>
// CHECK-NEXT:    func.return %[[D]], %{{.*}}, %[[G]] : tensor<i32>, tensor<2x3xf32>, tensor<i32>
func.func @sizes(%a: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<2x3xf32>, tensor<i32>) {
  %d = xla.get_dimension_size %a, dimension = 1 : (tensor<4x3xf32>) -> tensor<i32>
  %s = xla.set_dimension_size %a, %n, dimension = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %t = xla.slice %s, start_indices = [0, 0], limit_indices = [2, 3], strides = [1, 1] : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %g = xla.get_dimension_size %s, dimension = 0 : (tensor<4x3xf32>) -> tensor<i32>
  func.return %d, %t, %g : tensor<i32>, tensor<2x3xf32>, tensor<i32>
}
