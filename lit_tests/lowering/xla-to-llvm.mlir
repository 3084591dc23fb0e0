// RUN: xla-opt %s -p xla-to-llvm | filecheck %s
// RUN: xla-opt %s -p xla-to-llvm -t llvm | filecheck %s --check-prefix=IR

// The whole pipeline: one fused loop nest over noalias buffers, outlined as a kernel
// function, the result written into the caller's buffer; LLVM IR that llvmlite parses.
// CHECK-LABEL: llvm.func @main_kernel_0(%a: !llvm.ptr {llvm.noalias}, %v: !llvm.ptr {llvm.noalias}, %out0: !llvm.ptr {llvm.noalias}) attributes {passthrough = ["noinline"]}
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.fadd
// CHECK:         llvm.store
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @main(%a_1: !llvm.ptr {llvm.noalias}, %v_1: !llvm.ptr {llvm.noalias}, %out0_1: !llvm.ptr {llvm.noalias})
// CHECK-NEXT:    llvm.call @main_kernel_0(%a_1, %v_1, %out0_1)
// CHECK-NEXT:    llvm.return
// IR: define void @"main_kernel_0"(ptr noalias %".1", ptr noalias %".2", ptr noalias %".3") noinline
// IR: define void @"main"(ptr noalias %".1", ptr noalias %".2", ptr noalias %".3")
// IR-NEXT: {
// IR-NEXT: .5:
// IR-NEXT:   call ccc void @"main_kernel_0"(ptr %".1", ptr %".2", ptr %".3")
func.func @main(%a: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = xla.maximum %0, %a : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}
