// --mlir-pass-statistics: operations before and after each pass, created and erased,
// and the patterns applied (cse is not a pattern pass; xla-legalize-broadcast rewrites the add).
// RUN: %xla-opt %s --pass-pipeline='builtin.module(func.func(cse),xla-legalize-broadcast)' -mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s
// CHECK:      ... Pass statistics report ...
// CHECK:      'func.func' Pipeline
// CHECK-NEXT:   CommonSubexpressionElimination
// CHECK-NEXT:     (S) 4 ops-before - Operations before the pass
// CHECK-NEXT:     (S) 3 ops-after - Operations after the pass
// CHECK-NEXT:     (S) 0 ops-created - Operations the pass created
// CHECK-NEXT:     (S) 1 ops-erased - Operations the pass erased
// CHECK-NEXT:     (S) 0 rewrites - Patterns applied (by xDSL's pattern rewrite walkers)
// CHECK-NEXT: XlaLegalizeBroadcast
// CHECK-NEXT:   (S) 4 ops-before - Operations before the pass
// CHECK-NEXT:   (S) 5 ops-after - Operations after the pass
// CHECK-NEXT:   (S) 2 ops-created - Operations the pass created
// CHECK-NEXT:   (S) 1 ops-erased - Operations the pass erased
// CHECK-NEXT:   (S) 1 rewrites - Patterns applied (by xDSL's pattern rewrite walkers)
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = xla.multiply %0, %1 : tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}
