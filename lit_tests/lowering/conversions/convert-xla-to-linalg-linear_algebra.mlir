// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// matrix . matrix of f32: a zero fill, then the named linalg.matmul (generalized and
// given a vectorizable loop order by later passes).
// CHECK-LABEL: func.func @dot_matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<2x4xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      linalg.yield %[[C0]] : f32
// CHECK-NEXT:    } -> tensor<2x4xf32>
// CHECK-NEXT:    %[[DOT:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[ZERO]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[DOT]] : tensor<2x4xf32>
func.func @dot_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %r = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// matrix . vector
// CHECK-LABEL: func.func @dot_matvec
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
func.func @dot_matvec(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2xf64> {
  %r = xla.dot %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2xf64>
  func.return %r : tensor<2xf64>
}

// vector . matrix
// CHECK-LABEL: func.func @dot_vecmat
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
func.func @dot_vecmat(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  %r = xla.dot %a, %b : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// vector . vector of PRED: a rank-0 result (zero-loop fill with false), OR of ANDs.
// CHECK-LABEL: func.func @dot_pred
// CHECK:         linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%{{.*}} : tensor<i1>)
// CHECK:           arith.constant false
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
// CHECK-NEXT:    ^{{.*}}(%[[L:.*]]: i1, %[[R:.*]]: i1, %[[ACC:.*]]: i1):
// CHECK-NEXT:      %[[AND:.*]] = arith.andi %[[L]], %[[R]] : i1
// CHECK-NEXT:      %[[OR:.*]] = arith.ori %[[ACC]], %[[AND]] : i1
// CHECK-NEXT:      linalg.yield %[[OR]] : i1
func.func @dot_pred(%a: tensor<3xi1>, %b: tensor<3xi1>) -> tensor<i1> {
  %r = xla.dot %a, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<i1>
  func.return %r : tensor<i1>
}

// f16 accumulates in f32 (extf, mulf, addf), then one truncating generic rounds back.
// CHECK-LABEL: func.func @dot_f16
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[ZERO:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:         %[[ACC:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3xf16>, tensor<3x4xf16>) outs(%[[ZERO]] : tensor<2x4xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[L:.*]]: f16, %[[R:.*]]: f16, %[[A:.*]]: f32):
// CHECK-NEXT:      %[[WL:.*]] = arith.extf %[[L]] : f16 to f32
// CHECK-NEXT:      %[[WR:.*]] = arith.extf %[[R]] : f16 to f32
// CHECK-NEXT:      %[[MUL:.*]] = arith.mulf %[[WL]], %[[WR]] : f32
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %[[A]], %[[MUL]] : f32
// CHECK-NEXT:      linalg.yield %[[ADD]] : f32
// CHECK-NEXT:    } -> tensor<2x4xf32>
// CHECK-NEXT:    %[[OUT:.*]] = tensor.empty() : tensor<2x4xf16>
// CHECK-NEXT:    %[[RES:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[ACC]] : tensor<2x4xf32>) outs(%[[OUT]] : tensor<2x4xf16>) {
// CHECK-NEXT:    ^{{.*}}(%[[V:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK-NEXT:    } -> tensor<2x4xf16>
// CHECK-NEXT:    func.return %[[RES]] : tensor<2x4xf16>
func.func @dot_f16(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  %r = xla.dot %a, %b : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  func.return %r : tensor<2x4xf16>
}

// bf16 too.
// CHECK-LABEL: func.func @dot_bf16
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
func.func @dot_bf16(%a: tensor<3xbf16>, %b: tensor<3xbf16>) -> tensor<bf16> {
  %r = xla.dot %a, %b : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<bf16>
  func.return %r : tensor<bf16>
}

// Batched matmul: batch d0, lhs free d1, rhs free d2 (parallel), contracting d3.
// Integers wrap: plain muli/addi; ui32 becomes i32.
// CHECK-LABEL: func.func @dot_general_batched
// CHECK:         arith.constant 0 : i32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x3x4xi32>, tensor<2x4x5xi32>) outs(%{{.*}} : tensor<2x3x5xi32>)
// CHECK-NEXT:    ^{{.*}}(%[[L:.*]]: i32, %[[R:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[MUL:.*]] = arith.muli %[[L]], %[[R]] : i32
// CHECK-NEXT:      %[[ADD:.*]] = arith.addi %[[ACC]], %[[MUL]] : i32
// CHECK-NEXT:      linalg.yield %[[ADD]] : i32
func.func @dot_general_batched(%a: tensor<2x3x4xui32>, %b: tensor<2x4x5xui32>) -> tensor<2x3x5xui32> {
  %r = xla.dot_general %a, %b, lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1] : (tensor<2x3x4xui32>, tensor<2x4x5xui32>) -> tensor<2x3x5xui32>
  func.return %r : tensor<2x3x5xui32>
}

// Batch and contracting dimensions anywhere, two contracting dimensions (loops d3, d4
// in lhs_contracting_dimensions order).
// lhs 5x2x3x7 (contracting 0 and 2, batch 1), rhs 3x2x5x6 (contracting 2 and 0, batch 1)
// -> result 2x7x6.
// CHECK-LABEL: func.func @dot_general_permuted
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
func.func @dot_general_permuted(%a: tensor<5x2x3x7xf32>, %b: tensor<3x2x5x6xf32>) -> tensor<2x7x6xf32> {
  %r = xla.dot_general %a, %b, lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [0, 2], rhs_contracting_dimensions = [2, 0] : (tensor<5x2x3x7xf32>, tensor<3x2x5x6xf32>) -> tensor<2x7x6xf32>
  func.return %r : tensor<2x7x6xf32>
}

// No contracting dimension: an outer product, every loop parallel.
// CHECK-LABEL: func.func @dot_general_outer
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
func.func @dot_general_outer(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %r = xla.dot_general %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// The conversion emits the plain contraction; register blocking is linalg-block-rows'
// job (lit_tests/lowering/block_rows.mlir).
// CHECK-LABEL: func.func @row_blocked
// CHECK-NOT:     arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:         linalg.matmul ins(%a, %b : tensor<8x6xf32>, tensor<6x5xf32>)
func.func @row_blocked(%a: tensor<8x6xf32>, %b: tensor<6x5xf32>) -> tensor<8x5xf32> {
  %0 = xla.dot %a, %b : (tensor<8x6xf32>, tensor<6x5xf32>) -> tensor<8x5xf32>
  func.return %0 : tensor<8x5xf32>
}
