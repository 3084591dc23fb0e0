// MLIR's textual pipelines, op-anchored: func.func passes run on each function.
// RUN: %xla-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s
// RUN: %xla-opt %s -pass-pipeline='builtin.module(func.func(canonicalize, cse))' | FileCheck %s
// RUN: %xla-opt %s -p 'builtin.module(func.func(cse))' | FileCheck %s
// xDSL's flat list, and mlir-opt's pass flags, single or double dash
// RUN: %xla-opt %s -p canonicalize,cse | FileCheck %s
// RUN: %xla-opt %s -canonicalize --cse | FileCheck %s
// A module pass under builtin.module, after a nested pipeline
// RUN: %xla-opt %s --pass-pipeline='builtin.module(func.func(cse),xla-legalize-broadcast)' | FileCheck %s --check-prefix=LEGAL

// CHECK-LABEL: func.func @f
// CHECK:         %[[S:.*]] = xla.add %a, %a : tensor<4xf32>
// CHECK-NEXT:    %[[P:.*]] = xla.multiply %[[S]], %[[S]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[P]]
// LEGAL-LABEL: func.func @f
// LEGAL-LABEL: func.func @g
// LEGAL:         xla.broadcast_in_dim
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %a, %a : tensor<4xf32>
  %1 = xla.add %a, %a : tensor<4xf32>
  %2 = xla.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// Each function is processed on its own: @g is CSE'd too.
// CHECK-LABEL: func.func @g
// CHECK:         xla.add %a, %v
// CHECK-NOT:     xla.add
// CHECK:         func.return
func.func @g(%a: tensor<2x4xf32>, %v: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = xla.multiply %0, %1 : tensor<2x4xf32>
  func.return %2 : tensor<2x4xf32>
}
