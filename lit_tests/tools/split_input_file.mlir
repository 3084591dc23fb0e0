// --split-input-file without --verify-diagnostics reports every chunk, as mlir-opt:
// good chunks printed (separated by `// -----`), bad ones their diagnostics (at their
// line in the whole file), exit 1 when any failed.
// RUN: not %xla-opt %s -split-input-file -p cse 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK:      func.func @first
// CHECK:      // -----
// CHECK-NEXT: // -----
// CHECK:      func.func @third
// ERR:        split_input_file.mlir:18:17: error: Operation xla.plus is not registered
// ERR-NOT:    error
func.func @first(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
// -----
func.func @second(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.plus %a, %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// -----
func.func @third(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
