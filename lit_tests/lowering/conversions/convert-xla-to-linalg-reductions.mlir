// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// A sum over the last dimension: a fill of the init value, then one generic with a
// parallel loop for the kept dimension and a reduction loop for the reduced one.
// CHECK-LABEL: func.func @reduce_sum_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<f32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %[[FILL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[Z]] : tensor<f32>) outs(%[[EMPTY]] : tensor<2xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x3xf32>) outs(%[[FILL]] : tensor<2xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[ELEM:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %[[ACC]], %[[ELEM]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[ADD]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[SUM]] : tensor<2xf32>
func.func @reduce_sum_rows(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  %s = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %t = xla.add %acc, %v : tensor<f32>
    xla.return %t : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}

// Reducing every dimension gives a rank-0 result: a zero-loop fill.
// CHECK-LABEL: func.func @reduce_all
// CHECK:         linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<f32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%{{.*}} : tensor<4x5xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK:           arith.addf
// CHECK:         } -> tensor<f32>
func.func @reduce_all(%x: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<f32> {
  %s = xla.reduce (%x), (%z), dimensions = [0, 1] body {
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %t = xla.add %acc, %v : tensor<f32>
    xla.return %t : tensor<f32>
  } : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
  func.return %s : tensor<f32>
}

// Variadic reduce (argmax over dimension 0): one fill per init value, one generic
// with two ins and two outs; the reducer takes (accumulators..., inputs...), while
// the generic body receives (inputs..., outputs...).
// CHECK-LABEL: func.func @argmax
// CHECK-SAME:    (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<4x5xi32>, %[[XI:.*]]: tensor<f32>, %[[II:.*]]: tensor<i32>)
// CHECK:         %[[FX:.*]] = linalg.generic {{.*}} ins(%[[XI]] : tensor<f32>) outs(%{{.*}} : tensor<5xf32>)
// CHECK:         %[[FI:.*]] = linalg.generic {{.*}} ins(%[[II]] : tensor<i32>) outs(%{{.*}} : tensor<5xi32>)
// CHECK:         %[[M:.*]], %[[IDX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[X]], %[[I]] : tensor<4x5xf32>, tensor<4x5xi32>) outs(%[[FX]], %[[FI]] : tensor<5xf32>, tensor<5xi32>) {
// CHECK-NEXT:    ^{{.*}}(%[[VX:.*]]: f32, %[[VI:.*]]: i32, %[[AX:.*]]: f32, %[[AI:.*]]: i32):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[VX]], %[[AX]] : f32
// CHECK-NEXT:      %[[NX:.*]] = arith.select %[[GT]], %[[VX]], %[[AX]] : f32
// CHECK-NEXT:      %[[NI:.*]] = arith.select %[[GT]], %[[VI]], %[[AI]] : i32
// CHECK-NEXT:      linalg.yield %[[NX]], %[[NI]] : f32, i32
// CHECK-NEXT:    } -> (tensor<5xf32>, tensor<5xi32>)
// CHECK-NEXT:    func.return %[[M]], %[[IDX]] : tensor<5xf32>, tensor<5xi32>
func.func @argmax(%x: tensor<4x5xf32>, %i: tensor<4x5xi32>, %xi: tensor<f32>, %ii: tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %m, %idx = xla.reduce (%x, %i), (%xi, %ii), dimensions = [0] body {
  ^bb0(%am: tensor<f32>, %ai: tensor<i32>, %vm: tensor<f32>, %vi: tensor<i32>):
    %gt = xla.compare %vm, %am, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nm = xla.select %gt, %vm, %am : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %ni = xla.select %gt, %vi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %nm, %ni : tensor<f32>, tensor<i32>
  } : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
  func.return %m, %idx : tensor<5xf32>, tensor<5xi32>
}

// Unsorted `dimensions` = [2, 0]: the reduced dimensions' loops follow the listed
// order (d0 iterates dimension 2, d2 dimension 0), the fold order of the interpreter.
// Unsigned types become signless; unsignedness lives in the arith op (maxui).
// CHECK-LABEL: func.func @reduce_unsorted_unsigned
// CHECK-SAME:    (%{{.*}}: tensor<2x3x4xi8>, %{{.*}}: tensor<i8>) -> tensor<3xi8>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x3x4xi8>) outs(%{{.*}} : tensor<3xi8>)
// CHECK:           arith.maxui %{{.*}}, %{{.*}} : i8
func.func @reduce_unsorted_unsigned(%x: tensor<2x3x4xui8>, %z: tensor<ui8>) -> tensor<3xui8> {
  %s = xla.reduce (%x), (%z), dimensions = [2, 0] body {
  ^bb0(%acc: tensor<ui8>, %v: tensor<ui8>):
    %t = xla.maximum %acc, %v : tensor<ui8>
    xla.return %t : tensor<ui8>
  } : (tensor<2x3x4xui8>, tensor<ui8>) -> tensor<3xui8>
  func.return %s : tensor<3xui8>
}

// A rank-0 constant in the reducer becomes a scalar arith.constant in the body.
// CHECK-LABEL: func.func @reduce_with_constant
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
// CHECK:           arith.constant 2 : i32
// CHECK:           arith.muli
// CHECK:           arith.addi
func.func @reduce_with_constant(%x: tensor<8xi32>, %z: tensor<i32>) -> tensor<i32> {
  %s = xla.reduce (%x), (%z), dimensions = [0] body {
  ^bb0(%acc: tensor<i32>, %v: tensor<i32>):
    %two = xla.constant dense<2> : tensor<i32>
    %d = xla.multiply %v, %two : tensor<i32>
    %t = xla.add %acc, %d : tensor<i32>
    xla.return %t : tensor<i32>
  } : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
