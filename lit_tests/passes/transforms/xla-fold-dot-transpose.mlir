// RUN: xla-opt %s -p xla-fold-dot-transpose | filecheck %s

// JAX's weight gradient of x @ W: transpose(dot_general(dy, x)) is the product of the
// swapped operands, their contracting dimensions swapped with them.
// CHECK-LABEL: func.func @weight_gradient
// CHECK-NEXT:    %[[D:.*]] = xla.dot_general %x, %dy, lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0] : (tensor<16x128xf32>, tensor<16x512xf32>) -> tensor<128x512xf32>
// CHECK-NEXT:    func.return %[[D]] : tensor<128x512xf32>
func.func @weight_gradient(%dy: tensor<16x512xf32>, %x: tensor<16x128xf32>) -> tensor<128x512xf32> {
  %d = xla.dot_general %dy, %x, lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0] : (tensor<16x512xf32>, tensor<16x128xf32>) -> tensor<512x128xf32>
  %t = xla.transpose %d, permutation = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
  func.return %t : tensor<128x512xf32>
}

// Batch dimensions stay first; each group of free dimensions keeps its order.
// CHECK-LABEL: func.func @batched
// CHECK-NEXT:    %[[D:.*]] = xla.dot_general %b, %a, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3] : (tensor<2x5x7xf32>, tensor<2x3x4x5xf32>) -> tensor<2x7x3x4xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @batched(%a: tensor<2x3x4x5xf32>, %b: tensor<2x5x7xf32>) -> tensor<2x7x3x4xf32> {
  %d = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [1] : (tensor<2x3x4x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x4x7xf32>
  %t = xla.transpose %d, permutation = [0, 3, 1, 2] : (tensor<2x3x4x7xf32>) -> tensor<2x7x3x4xf32>
  func.return %t : tensor<2x7x3x4xf32>
}

// Not folded: a permutation that also reorders a group (or moves a batch dimension),
// and a product used elsewhere too (it would be computed twice).
// CHECK-LABEL: func.func @not_a_swap
// CHECK:         xla.transpose
// CHECK-LABEL: func.func @moves_the_batch
// CHECK:         xla.transpose
// CHECK-LABEL: func.func @used_twice
// CHECK:         xla.dot_general %a, %b
// CHECK:         xla.transpose
func.func @not_a_swap(%a: tensor<3x4x5xf32>, %b: tensor<5x7xf32>) -> tensor<7x4x3xf32> {
  %d = xla.dot_general %a, %b, lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0] : (tensor<3x4x5xf32>, tensor<5x7xf32>) -> tensor<3x4x7xf32>
  %t = xla.transpose %d, permutation = [2, 1, 0] : (tensor<3x4x7xf32>) -> tensor<7x4x3xf32>
  func.return %t : tensor<7x4x3xf32>
}
func.func @moves_the_batch(%a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>) -> tensor<7x2x3xf32> {
  %d = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
  %t = xla.transpose %d, permutation = [2, 0, 1] : (tensor<2x3x7xf32>) -> tensor<7x2x3xf32>
  func.return %t : tensor<7x2x3xf32>
}
func.func @used_twice(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>) -> (tensor<7x3xf32>, tensor<3x7xf32>) {
  %d = xla.dot_general %a, %b, lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0] : (tensor<3x5xf32>, tensor<5x7xf32>) -> tensor<3x7xf32>
  %t = xla.transpose %d, permutation = [1, 0] : (tensor<3x7xf32>) -> tensor<7x3xf32>
  func.return %t, %d : tensor<7x3xf32>, tensor<3x7xf32>
}
