// RUN: xla-opt %s -p xla-to-llvm | filecheck %s
// RUN: xla-opt %s -p xla-to-llvm -t llvm | filecheck %s --check-prefix=IR

// The whole pipeline: one fused loop nest over noalias buffers, the result written
// into the caller's buffer; LLVM IR that llvmlite parses.
// CHECK-LABEL: llvm.func @main(%a: !llvm.ptr {llvm.noalias}, %v: !llvm.ptr {llvm.noalias}, %out0: !llvm.ptr {llvm.noalias})
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.fadd
// CHECK:         llvm.store
// CHECK:         llvm.return
// IR: define void @"main"(ptr noalias %".1", ptr noalias %".2", ptr noalias %".3")
func.func @main(%a: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = xla.maximum %0, %a : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}
