// mlir-opt's IR dumps, on stderr, with MLIR's headers.
// RUN: %xla-opt %s -p xla-legalize-broadcast,cse -mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER
// AFTER:      // -----// IR Dump After XlaLegalizeBroadcast (xla-legalize-broadcast) //----- //
// AFTER-NEXT: builtin.module {
// AFTER:        xla.broadcast_in_dim
// AFTER:      // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// AFTER-NEXT: builtin.module {

// RUN: %xla-opt %s -p xla-legalize-broadcast,cse --mlir-print-ir-before=cse 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// BEFORE:     // -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// BEFORE-NOT: IR Dump

// RUN: %xla-opt %s -p xla-legalize-broadcast,cse --mlir-print-ir-after=xla-legalize-broadcast 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// ONE-COUNT-1: IR Dump After
// ONE-NOT:     IR Dump

// Only the passes that changed the IR: cse finds nothing here.
// RUN: %xla-opt %s -p xla-legalize-broadcast,cse -mlir-print-ir-after-all -mlir-print-ir-after-change 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// CHANGE:     IR Dump After XlaLegalizeBroadcast (xla-legalize-broadcast)
// CHANGE-NOT: IR Dump

// Function passes dump the function they ran on.
// RUN: %xla-opt %s --pass-pipeline='builtin.module(func.func(cse))' -mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED
// NESTED:      // -----// IR Dump After CommonSubexpressionElimination (cse) ('func.func' operation: @f) //----- //
// NESTED-NEXT: func.func @f(

// The stages of xla-to-llvm are passes too; xDSL's --print-between-passes is an alias.
// RUN: %xla-opt %s -p xla-to-llvm --mlir-print-ir-after=convert-xla-to-linalg 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGE
// RUN: %xla-opt %s -p xla-to-llvm --print-between-passes 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGE
// STAGE: // -----// IR Dump After ConvertXlaToLinalg (convert-xla-to-linalg) //----- //
// STAGE: linalg.generic
func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
