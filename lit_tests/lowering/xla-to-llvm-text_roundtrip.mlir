// RUN: xla-opt %s -p xla-to-llvm | xla-opt -t llvm | filecheck %s

// The llvm dialect output re-parses, including the casts xDSL's llvm dialect lacks
// (fptosi, fptoui, uitofp), and the function attributes (the kernels' noinline), so
// stages can be run in separate invocations.
// CHECK: define void @"main_kernel_0"(ptr noalias %".1", ptr noalias %".2") noinline
// CHECK: uitofp
// CHECK: define void @"main_kernel_1"(ptr noalias %".1", ptr noalias %".2") noinline
// CHECK: fptosi
// CHECK: define void @"main"(ptr noalias %".1", ptr noalias %".2", ptr noalias %".3", ptr noalias %".4")
func.func @main(%a: tensor<4xui8>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = xla.convert %a : (tensor<4xui8>) -> tensor<4xf32>
  %1 = xla.convert %b : (tensor<4xf32>) -> tensor<4xi32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xi32>
}
