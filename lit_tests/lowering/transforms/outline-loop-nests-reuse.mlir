// RUN: xla-opt %s -p outline-loop-nests | filecheck %s

// Identical nests share one kernel: the first and third nests differ only in the
// buffers they are given (and their value names), so both call @main_kernel_0; the
// second differs in one constant (a multiply by 3.0, not 2.0) and gets a kernel of its
// own. Kernels are only reused with the same parameter types.

// CHECK-LABEL: func.func private @main_kernel_0(%a: memref<4xf32>, %b: memref<4xf32>) attributes {xla_opt.kernel, passthrough = ["noinline"]} {
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK-LABEL: func.func private @main_kernel_1(%b: memref<4xf32>, %c: memref<4xf32>) attributes {xla_opt.kernel, passthrough = ["noinline"]} {
// CHECK:         arith.constant 3.000000e+00 : f32
// CHECK-NOT:   func.func private @main_kernel_2
// CHECK-LABEL: func.func @main(
// CHECK:         func.call @main_kernel_0(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.call @main_kernel_1(%b, %c) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.call @main_kernel_0(%c, %d) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.return

func.func @main(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>, %d: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %b[%i] : memref<4xf32>
    %y = arith.mulf %x, %three : f32
    memref.store %y, %c[%i] : memref<4xf32>
  }
  scf.for %j = %c0 to %c4 step %c1 {
    %u = memref.load %c[%j] : memref<4xf32>
    %v = arith.mulf %u, %two : f32
    memref.store %v, %d[%j] : memref<4xf32>
  }
  func.return
}
