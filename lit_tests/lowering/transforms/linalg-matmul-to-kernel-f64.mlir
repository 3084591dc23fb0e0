// RUN: xla-opt %s -p linalg-matmul-to-kernel | filecheck %s

// A bufferized f64 matrix product with M, N, K >= 32 becomes a call of the f64 GEMM
// (same arguments as the f32 one's: M, N, K, each operand's pointer and strides in
// elements, C's row stride); an f32 one in the same module calls the f32 GEMM, and
// each kernel is declared once.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     linalg.generic
// CHECK:         %[[BATCH:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[A:.*]] = llvm.bitcast %a : memref<33x40xf64> to !llvm.ptr
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %b : memref<33x48xf64> to !llvm.ptr
// CHECK-NEXT:    %[[BB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[BK:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[BJ:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[C:.*]] = llvm.bitcast %c : memref<40x48xf64> to !llvm.ptr
// CHECK-NEXT:    %[[CB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[LDC:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant({{0|1}}) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_dgemm(%[[BATCH]], %[[M]], %[[N]], %[[K]], %[[A]], %[[AB]], %[[AI]], %[[AK]], %[[B]], %[[BB]], %[[BK]], %[[BJ]], %[[C]], %[[CB]], %[[LDC]], %[[FLAGS]], %[[BIAS]])
// CHECK-NOT:     linalg.generic
// CHECK:         llvm.call @xla_opt_sgemm_narrow
// CHECK-NOT:     linalg.generic
// CHECK:         llvm.call @xla_opt_dgemm
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @matmul(%a: memref<33x40xf64>, %b: memref<33x48xf64>, %c: memref<40x48xf64>, %e: memref<40x40xf32>, %d: memref<40x40xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xf64>) {
  ^bb0(%o: f64):
    %zero = arith.constant 0.000000e+00 : f64
    linalg.yield %zero : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<33x40xf64>, memref<33x48xf64>) outs(%c : memref<40x48xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%e, %e : memref<40x40xf32>, memref<40x40xf32>) outs(%e : memref<40x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%d, %d : memref<40x40xf64>, memref<40x40xf64>) outs(%d : memref<40x40xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  func.return
}

// A batch of products (a fourth loop b indexing every operand, in any position): the
// batch count and each operand's stride along b.
// CHECK-LABEL: func.func @batched
// CHECK:         %[[BATCH:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[A:.*]] = llvm.bitcast %a : memref<3x40x33xf64> to !llvm.ptr
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(1320) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %b : memref<48x3x33xf64> to !llvm.ptr
// CHECK-NEXT:    %[[BB:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[BK:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BJ:.*]] = llvm.mlir.constant(99) : i64
// CHECK-NEXT:    %[[C:.*]] = llvm.bitcast %c : memref<3x40x48xf64> to !llvm.ptr
// CHECK-NEXT:    %[[CB:.*]] = llvm.mlir.constant(1920) : i64
// CHECK-NEXT:    %[[LDC:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant({{0|1}}) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_dgemm(%[[BATCH]], %[[M]], %[[N]], %[[K]], %[[A]], %[[AB]], %[[AI]], %[[AK]], %[[B]], %[[BB]], %[[BK]], %[[BJ]], %[[C]], %[[CB]], %[[LDC]], %[[FLAGS]], %[[BIAS]])
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @batched(%a: memref<3x40x33xf64>, %b: memref<48x3x33xf64>, %c: memref<3x40x48xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%a, %b : memref<3x40x33xf64>, memref<48x3x33xf64>) outs(%c : memref<3x40x48xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  func.return
}

// Left alone: an f64 product of 8 columns (below MIN_COLUMNS), operands of two types, and a
// batch loop that does not index the output (a sum over it).
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT:     llvm.call
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     llvm.call
// CHECK:         func.return
func.func @not_taken(%a: memref<40x32xf64>, %b: memref<32x8xf64>, %c: memref<40x8xf64>, %e: memref<40x40xf32>, %d: memref<40x40xf64>, %s3: memref<40x40x40xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x32xf64>, memref<32x8xf64>) outs(%c : memref<40x8xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%e, %e : memref<40x40xf32>, memref<40x40xf32>) outs(%d : memref<40x40xf64>) {
  ^bb0(%x: f32, %y: f32, %acc: f64):
    %w = arith.extf %x : f32 to f64
    %v = arith.extf %y : f32 to f64
    %p = arith.mulf %w, %v : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%s3, %s3 : memref<40x40x40xf64>, memref<40x40x40xf64>) outs(%d : memref<40x40xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  func.return
}

// Each kernel declared once, in the order of first use.
// CHECK:       llvm.func @xla_opt_dgemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-NEXT:  llvm.func @xla_opt_sgemm_narrow(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-NOT:   llvm.func
