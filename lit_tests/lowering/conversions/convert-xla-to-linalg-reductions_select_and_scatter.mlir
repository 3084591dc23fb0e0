// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// The max-pool gradient: the result filled with the init value, then a loop over the
// windows (the source's positions, row-major) carrying the result. An inner loop walks
// the window's offsets carrying the selected value, whether one was selected, and its
// coordinates; a candidate inside the operand replaces the selection unless
// select(selected, candidate) holds. The source value is then scattered into the
// selected position (tensor.insert into the carried result).
// CHECK-LABEL: func.func @max_pool_grad
// CHECK-SAME:    (%[[X:.*]]: tensor<4x6xf32>, %[[SRC:.*]]: tensor<2x2xf32>, %[[INIT:.*]]: tensor<f32>)
// CHECK:         %[[FILL:.*]] = linalg.generic {{.*}} ins(%[[INIT]] : tensor<f32>) outs(%{{.*}} : tensor<4x6xf32>)
// CHECK:         %[[FIRST:.*]] = tensor.extract %[[INIT]][] : tensor<f32>
// CHECK:         %[[NONE:.*]] = arith.constant false
// CHECK:         %[[RESULT:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %[[FILL]]) -> (tensor<4x6xf32>) {
// CHECK:           %{{.*}}, %[[HAVE:.*]], %[[AT0:.*]], %[[AT1:.*]] = scf.for %{{.*}} iter_args(%[[SEL:.*]] = %[[FIRST]], %[[HAD:.*]] = %[[NONE]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, i1, index, index) {
// CHECK:             %[[INSIDE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:             %[[CAND:.*]] = tensor.extract %[[X]][%{{.*}}, %{{.*}}] : tensor<4x6xf32>
// CHECK:             %[[KEEP:.*]] = arith.cmpf oge, %[[SEL]], %[[CAND]] : f32
// CHECK:             arith.andi %[[HAD]], %[[KEEP]] : i1
// CHECK:             %[[TAKE:.*]] = arith.andi %[[INSIDE]], %{{.*}} : i1
// CHECK:             arith.select %[[TAKE]], %[[CAND]], %[[SEL]] : f32
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, i1, index, index
// CHECK:           %[[CURRENT:.*]] = tensor.extract %[[OUT]][%[[AT0]], %[[AT1]]] : tensor<4x6xf32>
// CHECK:           %[[UPDATE:.*]] = tensor.extract %[[SRC]][%{{.*}}, %{{.*}}] : tensor<2x2xf32>
// CHECK:           %[[SUM:.*]] = arith.addf %[[CURRENT]], %[[UPDATE]] : f32
// CHECK:           %[[NEW:.*]] = arith.select %[[HAVE]], %[[SUM]], %[[CURRENT]] : f32
// CHECK:           %[[WRITTEN:.*]] = tensor.insert %[[NEW]] into %[[OUT]][%[[AT0]], %[[AT1]]] : tensor<4x6xf32>
// CHECK:           scf.yield %[[WRITTEN]] : tensor<4x6xf32>
// CHECK:         func.return %[[RESULT]] : tensor<4x6xf32>
func.func @max_pool_grad(%operand: tensor<4x6xf32>, %source: tensor<2x2xf32>, %zero: tensor<f32>) -> tensor<4x6xf32> {
  %0 = xla.select_and_scatter %operand, %source, %zero, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}

// No source values (the window does not fit): the result is the fill.
// CHECK-LABEL: func.func @no_windows
// CHECK:         %[[FILL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2xi32>)
// CHECK-NEXT:    ^{{.*}}
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    } -> tensor<1x2xi32>
// CHECK-NEXT:    func.return %[[FILL]] : tensor<1x2xi32>
func.func @no_windows(%operand: tensor<1x2xi32>, %source: tensor<0x2xi32>, %zero: tensor<i32>) -> tensor<1x2xi32> {
  %0 = xla.select_and_scatter %operand, %source, %zero, window_dimensions = [2, 1] select {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  } : (tensor<1x2xi32>, tensor<0x2xi32>, tensor<i32>) -> tensor<1x2xi32>
  func.return %0 : tensor<1x2xi32>
}

// With padding the corner is o * stride - low (here low = 1 in dimension 0).
// CHECK-LABEL: func.func @padded
// CHECK:         scf.for
// CHECK:           %[[CORNER:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:           scf.for
// CHECK:             arith.cmpi ult, %{{.*}}, %{{.*}} : index
func.func @padded(%operand: tensor<3xf32>, %source: tensor<2xf32>, %zero: tensor<f32>) -> tensor<3xf32> {
  %0 = xla.select_and_scatter %operand, %source, %zero, window_dimensions = [2], window_strides = [2], padding = [[1, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<3xf32>, tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
