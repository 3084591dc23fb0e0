// RUN: xla-opt %s -p convert-xla-to-stablehlo | filecheck %s

// convert-xla-to-stablehlo, ops with computations: the converted computation (its
// xla.return a stablehlo.return) moves into the StableHLO op; sort's default dimension
// is spelled out.
// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %[[M:.*]] = "stablehlo.maximum"(%[[A]], %[[B]])
// CHECK-NEXT: "stablehlo.return"(%[[M]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT: "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
// CHECK: "stablehlo.compare"
// CHECK: }, {
// CHECK: "stablehlo.add"
// CHECK: }) : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK-NEXT: "stablehlo.sort"(%{{.*}}) <{dimension = 1 : i64, is_stable = false}> ({
// CHECK: }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: "stablehlo.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1>}> ({
// CHECK: "stablehlo.multiply"
// CHECK: }) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
func.func @reductions(%x: tensor<4x6xf32>, %min: tensor<f32>, %src: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = xla.reduce_window (%x), (%min), window_dimensions = [2, 3], window_strides = [2, 3] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  %1 = xla.select_and_scatter %x, %src, %min, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  %2 = xla.sort %x comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<4x6xf32>
  %3 = xla.map %x, %x, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = xla.multiply %a, %b : tensor<f32>
    xla.return %p : tensor<f32>
  } : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
