// --mlir-timing: MLIR's execution time report, a tree with the stages of xla-to-llvm.
// RUN: %xla-opt %s -p xla-to-llvm -mlir-timing 2>&1 >/dev/null | FileCheck %s
// CHECK:      ... Execution time report ...
// CHECK:      Total Execution Time: {{[0-9.]+}} seconds
// CHECK:      ----Wall Time----  ----Name----
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Verifier
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  XlaToLLVM
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)    XlaLegalizeBroadcast
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)    ConvertXlaToLinalg
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)    XlaBufferize
// CHECK:      {{[0-9.]+}} ({{ *[0-9.]+}}%)    ConvertToLLVM
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// CHECK-NEXT: {{[0-9.]+}} (100.0%)  Total

// A nested pipeline is a level of the tree, with its verifier.
// RUN: %xla-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' -mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED
// NESTED:      'func.func' Pipeline
// NESTED-NEXT:   Canonicalize
// NESTED-NEXT:   Verifier
// NESTED-NEXT:   CommonSubexpressionElimination
// NESTED-NEXT: Output
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
