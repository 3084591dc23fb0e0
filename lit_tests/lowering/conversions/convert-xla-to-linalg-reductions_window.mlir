// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A 2x2 max pool with stride 2 (VALID): no padding, so the input is read directly.
// The init value fills the result; one generic has parallel loops (d0, d1) over the
// result and reduction loops (d2, d3) over the window, reading the input at
// o * stride + w; an unread tensor.empty of the window's shape gives the window
// loops their bounds.
// CHECK-LABEL: func.func @max_pool
// CHECK-SAME:    (%[[X:.*]]: tensor<4x6xf32>, %[[INIT:.*]]: tensor<f32>)
// CHECK:         %[[FILL:.*]] = linalg.generic {{.*}} ins(%[[INIT]] : tensor<f32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:         %[[BOUNDS:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK-NEXT:    %[[POOL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + d2), ((d1 * 2) + d3))>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[BOUNDS]] : tensor<4x6xf32>, tensor<2x2xi8>) outs(%[[FILL]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[ELEM:.*]]: f32, %{{.*}}: i8, %[[ACC:.*]]: f32):
// CHECK:           arith.cmpf ogt, %[[ACC]], %[[ELEM]] : f32
// CHECK:           linalg.yield
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[POOL]] : tensor<2x3xf32>
func.func @max_pool(%x: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<2x3xf32> {
  %0 = xla.reduce_window (%x), (%init), window_dimensions = [2, 2], window_strides = [2, 2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// Padding (like cumsum's (n - 1, 0)) and base dilation 2 first make a padded copy filled with
// the init value (the xla.pad lowering: a generic selecting the input or the init),
// which the window generic then reads with window dilation 3.
// CHECK-LABEL: func.func @padded_dilated
// CHECK-SAME:    (%[[V:.*]]: tensor<3xi32>, %[[Z:.*]]: tensor<i32>)
// CHECK:         %[[PADDED:.*]] = linalg.generic {{.*}} ins(%[[Z]] : tensor<i32>) outs(%{{.*}} : tensor<7xi32>)
// CHECK:           tensor.extract %[[V]]
// CHECK:           arith.select
// CHECK:         } -> tensor<7xi32>
// CHECK:         %[[FILL:.*]] = linalg.generic {{.*}} ins(%[[Z]] : tensor<i32>) outs(%{{.*}} : tensor<4xi32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 + (d1 * 3)))>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[PADDED]], %{{.*}} : tensor<7xi32>, tensor<2xi8>) outs(%[[FILL]] : tensor<4xi32>)
// CHECK:           arith.addi
func.func @padded_dilated(%v: tensor<3xi32>, %z: tensor<i32>) -> tensor<4xi32> {
  %0 = xla.reduce_window (%v), (%z), window_dimensions = [2], base_dilations = [2], window_dilations = [3], padding = [[2, 0]] body {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  } : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// Two inputs and two init values: two fills, and one generic with both inputs, the
// bounds, and two outputs; the reducer takes the accumulators then the elements.
// CHECK-LABEL: func.func @variadic
// CHECK:         %{{.*}}, %{{.*}} = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<5xf32>, tensor<5xi32>, tensor<2xi8>) outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %[[I:.*]]: i32, %{{.*}}: i8, %[[AX:.*]]: f32, %[[AI:.*]]: i32):
// CHECK:           arith.addi %[[AI]], %[[I]] : i32
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, i32
func.func @variadic(%v: tensor<5xf32>, %i: tensor<5xi32>, %min: tensor<f32>, %zero: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = xla.reduce_window (%v, %i), (%min, %zero), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %m = xla.minimum %a, %c : tensor<f32>
    %s = xla.add %b, %d : tensor<i32>
    xla.return %m, %s : tensor<f32>, tensor<i32>
  } : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// A cumulative window longer than 16 (jnp.cumsum of 40 elements) is XLA:CPU's two-level
// scan (scan_windows.py): padded to 48, rows of 16 scanned by a window of 16 (its bounds
// tensor<1x1x16xi8>), the 3 rows' totals scanned exclusively by a window of 3, each
// element its row scan plus its row's carry; never one window of 40.
// CHECK-LABEL: func.func @cumsum_tree
// CHECK-NOT:     tensor<1x40xi8>
// CHECK:         tensor.empty() : tensor<2x48xbf16>
// CHECK:         tensor.empty() : tensor<2x3x16xbf16>
// CHECK:         tensor.empty() : tensor<1x1x16xi8>
// CHECK:         tensor.empty() : tensor<1x3xi8>
// CHECK:         tensor.empty() : tensor<2x40xbf16>
// CHECK-NOT:     tensor<1x40xi8>
// CHECK:         func.return
func.func @cumsum_tree(%x: tensor<2x40xbf16>) -> tensor<2x40xbf16> {
  %zero = xla.constant dense<0.0> : tensor<bf16>
  %r = xla.reduce_window (%x), (%zero), window_dimensions = [1, 40], padding = [[0, 0], [39, 0]] body {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = xla.add %a, %b : tensor<bf16>
    xla.return %s : tensor<bf16>
  } : (tensor<2x40xbf16>, tensor<bf16>) -> tensor<2x40xbf16>
  func.return %r : tensor<2x40xbf16>
}

// 16 elements or fewer: one window, folded in order as before.
// CHECK-LABEL: func.func @cumsum_short
// CHECK:         tensor.empty() : tensor<1x16xi8>
func.func @cumsum_short(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %r = xla.reduce_window (%x), (%zero), window_dimensions = [1, 16], padding = [[0, 0], [15, 0]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}
