// RUN: xla-opt %s -p outline-loop-nests | filecheck %s
// RUN: xla-opt %s -p outline-loop-nests,outline-loop-nests | filecheck %s

// Each top-level loop nest without results becomes a kernel function called in its
// place; constants are recomputed inside, everything else is passed. Distinct buffers
// (an argument, an alloc) are passed as memrefs (noalias after convert-to-llvm); when
// one buffer's origin is unknown (the cast), every buffer is passed as !llvm.ptr and
// cast back. A loop with results stays. Running the pass again outlines nothing more.

// CHECK-LABEL: func.func private @main_kernel_0(%a: memref<4xf32>, %t: memref<4xf32>) attributes {xla_opt.kernel, passthrough = ["noinline"]} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c4 step %c1 {
// CHECK:           arith.addf
// CHECK:         func.return
// CHECK-LABEL: func.func private @main_kernel_1(%n: index, %view: !llvm.ptr, %t: !llvm.ptr, %out: !llvm.ptr) attributes {xla_opt.kernel, passthrough = ["noinline"]} {
// CHECK:         %view_1 = builtin.unrealized_conversion_cast %view : !llvm.ptr to memref<4xf32>
// CHECK:         "scf.parallel"(%c0, %n, %c1)
// CHECK:           arith.mulf
// CHECK-NOT:   func.func private @main_kernel_2
// CHECK-LABEL: func.func @main(
// CHECK:         %t = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    func.call @main_kernel_0(%a, %t) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         func.call @main_kernel_1(%n, %{{.*}}, %{{.*}}, %{{.*}}) : (index, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
// CHECK:         memref.dealloc %t

func.func @main(%a: memref<4xf32>, %out: memref<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %t[%i] : memref<4xf32>
  }
  %p = builtin.unrealized_conversion_cast %t : memref<4xf32> to !llvm.ptr
  %view = builtin.unrealized_conversion_cast %p : !llvm.ptr to memref<4xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %x = memref.load %view[%i] : memref<4xf32>
    %y = memref.load %t[%i] : memref<4xf32>
    %z = arith.mulf %x, %y : f32
    memref.store %z, %out[%i] : memref<4xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %out[%i] : memref<4xf32>
    %r = arith.addf %acc, %x : f32
    scf.yield %r : f32
  }
  memref.dealloc %t : memref<4xf32>
  func.return %s : f32
}
