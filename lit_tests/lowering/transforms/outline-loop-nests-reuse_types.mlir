// RUN: xla-opt %s -p outline-loop-nests | filecheck %s

// Nests that differ only in result types are not one kernel (xdsl_patches 19: xDSL's
// structural equivalence ignored result types, so both nests, whose buffers of unknown
// origin are passed as pointers, called the first nest's i64 kernel).

// CHECK-LABEL: func.func private @main_kernel_0(%p: !llvm.ptr)
// CHECK:         builtin.unrealized_conversion_cast %p : !llvm.ptr to memref<4xi64>
// CHECK:         arith.index_cast %i : index to i64
// CHECK-LABEL: func.func private @main_kernel_1(%q: !llvm.ptr)
// CHECK:         builtin.unrealized_conversion_cast %q : !llvm.ptr to memref<4xi32>
// CHECK:         arith.index_cast %i : index to i32
// CHECK-LABEL: func.func @main()
// CHECK:         func.call @main_kernel_0(
// CHECK:         func.call @main_kernel_1(

func.func private @i64_buffer() -> memref<4xi64>
func.func private @i32_buffer() -> memref<4xi32>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = func.call @i64_buffer() : () -> memref<4xi64>
  %q = func.call @i32_buffer() : () -> memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %p[%i] : memref<4xi64>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %q[%i] : memref<4xi32>
  }
  func.return
}
