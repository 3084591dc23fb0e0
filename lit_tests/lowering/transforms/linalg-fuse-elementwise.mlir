// RUN: xla-opt %s -p linalg-fuse-elementwise --split-input-file | filecheck %s

// A broadcast and an add feed a tanh: one generic remains, reading the inputs
// directly (the broadcast through its projected map) and computing add then tanh.
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK-NOT:   linalg.generic
  func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%2: f32, %3: f32):
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    %4 = tensor.empty() : tensor<4x8xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%4 : tensor<4x8xf32>) {
    ^bb0(%6: f32, %7: f32, %8: f32):
      %9 = arith.addf %6, %7 : f32
      linalg.yield %9 : f32
    } -> tensor<4x8xf32>
    %10 = tensor.empty() : tensor<4x8xf32>
    %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<4x8xf32>) outs(%10 : tensor<4x8xf32>) {
    ^bb0(%12: f32, %13: f32):
      %14 = math.tanh %12 : f32
      linalg.yield %14 : f32
    } -> tensor<4x8xf32>
    func.return %11 : tensor<4x8xf32>
  }

// -----

// A producer with two users that computes something is not duplicated.
// CHECK-LABEL: func.func @shared
// CHECK:         %[[E:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[E]], %[[E]] : tensor<4xf32>, tensor<4xf32>)
func.func @shared(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<4xf32>
  %2 = tensor.empty() : tensor<4xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1, %1 : tensor<4xf32>, tensor<4xf32>) outs(%2 : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  func.return %3 : tensor<4xf32>
}

// -----

// A computing producer (bias add and relu) read by a matrix product through the
// projection (i, k) is not fused: its body would run once per (i, k) and output
// column j, and the product would no longer be a plain contraction.
// CHECK-LABEL: func.func @not_into_a_projection
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {{.*}} ins(%[[R]], %w : tensor<8x16xf32>, tensor<16x4xf32>)
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
func.func @not_into_a_projection(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.000000e+00 : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%init : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  func.return %2 : tensor<8x4xf32>
}

// -----

// Data moves fuse into a matrix product while the kernel can still read the operand
// by strides: a slice of a split (attention's q out of the qkv product) becomes the
// map (h, i, j, k) -> (i, h * 16 + k + 32); a reverse (a negative stride) stays a
// copy the product reads.
// CHECK-LABEL: func.func @data_moves_into_a_product
// CHECK:         %[[REV:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, ((d2 * -1) + 47))>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, (((d0 * 16) + d3) + 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %[[REV]] : tensor<40x96xf32>, tensor<2x16x48xf32>)
func.func @data_moves_into_a_product(%x: tensor<40x96xf32>, %w: tensor<2x16x48xf32>, %init: tensor<2x40x48xf32>) -> tensor<2x40x48xf32> {
  %e0 = tensor.empty() : tensor<40x32xf32>
  %slice = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<40x96xf32>) outs(%e0 : tensor<40x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<40x32xf32>
  %e1 = tensor.empty() : tensor<40x2x16xf32>
  %split = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 * 16 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slice : tensor<40x32xf32>) outs(%e1 : tensor<40x2x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<40x2x16xf32>
  %e2 = tensor.empty() : tensor<2x16x48xf32>
  %rev = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 47 - d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x16x48xf32>) outs(%e2 : tensor<2x16x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x16x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (i, h, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%split, %rev : tensor<40x2x16xf32>, tensor<2x16x48xf32>) outs(%init : tensor<2x40x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x40x48xf32>
  func.return %r : tensor<2x40x48xf32>
}

// -----

// A producer that evaluates a math function (softmax's exp) and feeds a reduction
// and another user is computed once, in the reduction, which also stores it (a
// second result, XLA's multi-output fusion); the division, its last reader, then
// writes over the stored values (they are its outs: bufferized in place).
// CHECK-LABEL: func.func @stored_by_the_reduction
// CHECK:         %[[S:.*]], %[[E:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%zeros, %{{.*}} : tensor<4xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: f32, %[[ACC:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[R:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[R]] : f32
// CHECK-NEXT:      linalg.yield %[[T]], %[[R]] : f32, f32
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[S]] : tensor<4xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^{{.*}}(%[[B:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.divf %[[O]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[D]] : f32
// CHECK:         func.return %[[Y]]
// CHECK-NOT:     math.exp
func.func @stored_by_the_reduction(%x: tensor<4x8xf32>, %zeros: tensor<4xf32>) -> tensor<4x8xf32> {
  %0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%zeros : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// -----

// A cheap producer with no math function (x * x) read by a reduction and by
// another generic is computed inside both and never stored.
// CHECK-LABEL: func.func @duplicated_into_every_user
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zeros : tensor<4xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%x, %x, %[[S]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.divf
// CHECK-NOT:   linalg.generic
func.func @duplicated_into_every_user(%x: tensor<4x8xf32>, %zeros: tensor<4xf32>) -> tensor<4x8xf32> {
  %0 = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%zeros : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
