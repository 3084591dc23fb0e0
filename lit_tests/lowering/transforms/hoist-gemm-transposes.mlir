// RUN: xla-opt %s -p hoist-gemm-transposes --split-input-file | filecheck %s

// An LSTM's backward step, dgates @ Wᵀ: B is the weight W [128, 512] read with row
// stride 1 and column stride 512 (transposed). W is only read in the loop, so it is
// transposed once before the loop into [512, 128], which the call reads with row
// stride 128 and column stride 1; the copy is freed after the loop.
// CHECK-LABEL: func.func @backward_step
// CHECK:         %[[T:.*]] = memref.alloc() : memref<512x128xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : memref<128x512xf32>) outs(%[[T]] : memref<512x128xf32>)
// CHECK:         scf.for
// CHECK-NOT:       llvm.bitcast %w
// CHECK:           %[[V:.*]] = llvm.bitcast %[[T]] : memref<512x128xf32> to !llvm.ptr
// CHECK-NEXT:      %[[ROW:.*]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT:      %[[COL:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:      llvm.call @xla_opt_sgemm(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[V]], %{{.*}}, %[[ROW]], %[[COL]],
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<512x128xf32>
func.func @backward_step(%w: memref<128x512xf32>, %dgates: memref<16x512xf32>, %dh: memref<16x128xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 32 : index
  %step = arith.constant 1 : index
  scf.for %i = %lb to %ub step %step {
    %one = llvm.mlir.constant(1) : i64
    %m = llvm.mlir.constant(16) : i64
    %n = llvm.mlir.constant(128) : i64
    %k = llvm.mlir.constant(512) : i64
    %zero = llvm.mlir.constant(0) : i64
    %a = llvm.bitcast %dgates : memref<16x512xf32> to !llvm.ptr
    %b = llvm.bitcast %w : memref<128x512xf32> to !llvm.ptr
    %c = llvm.bitcast %dh : memref<16x128xf32> to !llvm.ptr
    %null = llvm.mlir.zero : !llvm.ptr
    llvm.call @xla_opt_sgemm(%one, %m, %n, %k, %a, %zero, %k, %one, %b, %zero, %one, %k, %c, %zero, %n, %zero, %null) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
    scf.yield
  }
  func.return
}
llvm.func @xla_opt_sgemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)

// -----

// Left alone: a weight the loop writes (it may change between trips), a B read with
// contiguous rows already, and a product outside any loop.
// CHECK-LABEL: func.func @not_hoisted
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.generic
func.func @not_hoisted(%w: memref<128x512xf32>, %v: memref<512x128xf32>, %dgates: memref<16x512xf32>, %dh: memref<16x128xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 32 : index
  %step = arith.constant 1 : index
  %one = llvm.mlir.constant(1) : i64
  %m = llvm.mlir.constant(16) : i64
  %n = llvm.mlir.constant(128) : i64
  %k = llvm.mlir.constant(512) : i64
  %zero = llvm.mlir.constant(0) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %a = llvm.bitcast %dgates : memref<16x512xf32> to !llvm.ptr
  %c = llvm.bitcast %dh : memref<16x128xf32> to !llvm.ptr
  %b0 = llvm.bitcast %w : memref<128x512xf32> to !llvm.ptr
  llvm.call @xla_opt_sgemm(%one, %m, %n, %k, %a, %zero, %k, %one, %b0, %zero, %one, %k, %c, %zero, %n, %zero, %null) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
  scf.for %i = %lb to %ub step %step {
    %b = llvm.bitcast %w : memref<128x512xf32> to !llvm.ptr
    llvm.call @xla_opt_sgemm(%one, %m, %n, %k, %a, %zero, %k, %one, %b, %zero, %one, %k, %c, %zero, %n, %zero, %null) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
    %x = arith.constant 1.0 : f32
    memref.store %x, %w[%lb, %lb] : memref<128x512xf32>
    %bv = llvm.bitcast %v : memref<512x128xf32> to !llvm.ptr
    llvm.call @xla_opt_sgemm(%one, %m, %n, %k, %a, %zero, %k, %one, %bv, %zero, %n, %one, %c, %zero, %n, %zero, %null) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
    scf.yield
  }
  func.return
}
llvm.func @xla_opt_sgemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)

// -----

// Left alone: a weight with another memref of it (a cast), which the loop could write.
// CHECK-LABEL: func.func @aliased
// CHECK-NOT:     linalg.generic
func.func @aliased(%w: memref<128x512xf32>, %dgates: memref<16x512xf32>, %dh: memref<16x128xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 32 : index
  %step = arith.constant 1 : index
  %alias = "memref.cast"(%w) : (memref<128x512xf32>) -> memref<?x512xf32>
  scf.for %i = %lb to %ub step %step {
    %one = llvm.mlir.constant(1) : i64
    %m = llvm.mlir.constant(16) : i64
    %n = llvm.mlir.constant(128) : i64
    %k = llvm.mlir.constant(512) : i64
    %zero = llvm.mlir.constant(0) : i64
    %a = llvm.bitcast %dgates : memref<16x512xf32> to !llvm.ptr
    %b = llvm.bitcast %w : memref<128x512xf32> to !llvm.ptr
    %c = llvm.bitcast %dh : memref<16x128xf32> to !llvm.ptr
    %null = llvm.mlir.zero : !llvm.ptr
    llvm.call @xla_opt_sgemm(%one, %m, %n, %k, %a, %zero, %k, %one, %b, %zero, %one, %k, %c, %zero, %n, %zero, %null) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
    %x = arith.constant 1.0 : f32
    memref.store %x, %alias[%lb, %lb] : memref<?x512xf32>
    scf.yield
  }
  func.return
}
llvm.func @xla_opt_sgemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)
