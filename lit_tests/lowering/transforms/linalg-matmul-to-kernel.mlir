// RUN: xla-opt %s -p linalg-matmul-to-kernel | filecheck %s

// A bufferized f32 matrix product with M, N, K >= 32 becomes a call of the GEMM
// micro-kernel (its 256-bit variant, `_narrow`: N < 128 columns): the batch count (1), M, N, K, then each operand's pointer and strides
// (A along b, i and k, B along b, k and j, C along b and i; the batch strides 0), the
// flags and a null bias. The +0.0 fill right before it goes: the flags are OVERWRITE
// (1), C = A @ B.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     linalg.generic
// CHECK:         %[[BATCH:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[A:.*]] = llvm.bitcast %a : memref<40x33xf32> to !llvm.ptr
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %b : memref<33x48xf32> to !llvm.ptr
// CHECK-NEXT:    %[[BB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[BK:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[BJ:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[C:.*]] = llvm.bitcast %c : memref<40x48xf32> to !llvm.ptr
// CHECK-NEXT:    %[[CB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[LDC:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_sgemm_narrow(%[[BATCH]], %[[M]], %[[N]], %[[K]], %[[A]], %[[AB]], %[[AI]], %[[AK]], %[[B]], %[[BB]], %[[BK]], %[[BJ]], %[[C]], %[[CB]], %[[LDC]], %[[FLAGS]], %[[BIAS]])
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @matmul(%a: memref<40x33xf32>, %b: memref<33x48xf32>, %c: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf32>, memref<33x48xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// Transposed operands (A stored k x i, B stored j x k) are strides of the packing;
// without a fill before it, the kernel adds to C (flags 0).
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[A:.*]] = llvm.bitcast %a : memref<33x40xf32> to !llvm.ptr
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(40) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %b : memref<48x33xf32> to !llvm.ptr
// CHECK-NEXT:    %[[BB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[BK:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BJ:.*]] = llvm.mlir.constant(33) : i64
// CHECK-NEXT:    llvm.bitcast %c
// CHECK-NEXT:    llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_sgemm_narrow({{.*}}, %[[FLAGS]], %[[BIAS]])
func.func @transposed(%a: memref<33x40xf32>, %b: memref<48x33xf32>, %c: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<33x40xf32>, memref<48x33xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// Left alone: a product of 8 columns (below MIN_COLUMNS: the kernel's tile would be
// half padding), a body that is not acc + lhs * rhs, and
// an lhs not indexed by the contracting loop (f64: matmul_to_kernel_f64.mlir).
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT:     llvm.call
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     llvm.call
// CHECK:         func.return
func.func @not_taken(%a: memref<40x32xf32>, %b: memref<32x8xf32>, %c: memref<40x8xf32>, %e: memref<40x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x32xf32>, memref<32x8xf32>) outs(%c : memref<40x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%e, %e : memref<40x40xf32>, memref<40x40xf32>) outs(%e : memref<40x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%e, %e : memref<40x40xf32>, memref<40x40xf32>) outs(%e : memref<40x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// The epilogue: with the fill gone, `out = max(C + bias[j], 0)` right after the product
// (the scalar's get_global aside) fuses into the call: it writes %out directly with
// the flags OVERWRITE | BIAS | RELU (7) and the bias pointer; the generic, C's buffer
// and its dealloc go.
// CHECK-LABEL: func.func @bias_relu
// CHECK-NOT:     memref.alloc
// CHECK:         %[[OUT:.*]] = llvm.bitcast %out : memref<40x48xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(7) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.bitcast %bias : memref<48xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_sgemm_narrow({{.*}}, %[[OUT]], {{.*}}, %[[FLAGS]], %[[BIAS]])
// CHECK-NEXT:    memref.get_global
// CHECK-NEXT:    func.return
"memref.global"() <{sym_name = "zero", type = memref<f32>, initial_value = dense<0.000000e+00> : tensor<f32>, sym_visibility = "private", constant}> : () -> ()
func.func @bias_relu(%a: memref<40x33xf32>, %b: memref<33x48xf32>, %bias: memref<48xf32>, %out: memref<40x48xf32>) {
  %c = memref.alloc() : memref<40x48xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf32>, memref<33x48xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  %z = memref.get_global @zero : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias, %z : memref<40x48xf32>, memref<48xf32>, memref<f32>) outs(%out : memref<40x48xf32>) {
  ^bb0(%v: f32, %w: f32, %f: f32, %o: f32):
    %sum = arith.addf %v, %w : f32
    %above = arith.cmpf ogt, %sum, %f : f32
    %nan = arith.cmpf uno, %sum, %sum : f32
    %either = arith.ori %above, %nan : i1
    %r = arith.select %either, %sum, %f : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<40x48xf32>
  func.return
}

// Not an epilogue: a maximum with 1.0 (the product only overwrites C, flags 1; the
// generic stays), and an add of a second matrix (not a bias vector).
// CHECK-LABEL: func.func @not_epilogues
// CHECK:         llvm.bitcast %c : memref<40x48xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.mlir.constant(48) : i64
// CHECK-NEXT:    llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.mlir.zero
// CHECK-NEXT:    llvm.call @xla_opt_sgemm_narrow
// CHECK-NEXT:    linalg.generic
// CHECK:         llvm.bitcast %c : memref<40x48xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.mlir.constant(48) : i64
// CHECK-NEXT:    llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.mlir.zero
// CHECK-NEXT:    llvm.call @xla_opt_sgemm_narrow
// CHECK-NEXT:    linalg.generic
func.func @not_epilogues(%a: memref<40x33xf32>, %b: memref<33x48xf32>, %bias: memref<48xf32>, %m: memref<40x48xf32>, %out: memref<40x48xf32>, %out2: memref<40x48xf32>) {
  %c = memref.alloc() : memref<40x48xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf32>, memref<33x48xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<40x48xf32>, memref<48xf32>) outs(%out : memref<40x48xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %one = arith.constant 1.000000e+00 : f32
    %sum = arith.addf %v, %w : f32
    %above = arith.cmpf ogt, %sum, %one : f32
    %nan = arith.cmpf uno, %sum, %sum : f32
    %either = arith.ori %above, %nan : i1
    %r = arith.select %either, %sum, %one : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf32>, memref<33x48xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %m : memref<40x48xf32>, memref<40x48xf32>) outs(%out2 : memref<40x48xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %sum = arith.addf %v, %w : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %c : memref<40x48xf32>
  func.return
}

// An i32 product (integer multiply and add, which wrap around) calls the i32 GEMM; its
// zero fill goes too (OVERWRITE).
// CHECK-LABEL: func.func @i32
// CHECK-NOT:     linalg.generic
// CHECK:         llvm.bitcast %c
// CHECK:         %[[FLAGS:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_igemm({{.*}}, %[[FLAGS]], %[[BIAS]])
// CHECK-NOT:     linalg.generic
func.func @i32(%a: memref<40x33xi32>, %b: memref<33x48xi32>, %c: memref<40x48xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xi32>) {
  ^bb0(%o: i32):
    %zero = arith.constant 0 : i32
    linalg.yield %zero : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xi32>, memref<33x48xi32>) outs(%c : memref<40x48xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}

// An i32 product followed by an integer bias and ReLU (issue 31: `relu(x @ w1 + b1)` in
// int32 did not compile, the epilogue match read the 0-d i32 zero global as a float):
// the i32 GEMM without an epilogue (the integer kernel has none), flags OVERWRITE (1)
// and a null bias; the bias/ReLU generic stays.
// CHECK-LABEL: func.func @i32_bias_relu
// CHECK:         llvm.bitcast %c
// CHECK-NEXT:    llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @xla_opt_igemm({{.*}}, %[[FLAGS]], %[[BIAS]])
// CHECK:         memref.get_global @izero : memref<i32>
// CHECK-NEXT:    linalg.generic
// CHECK:           arith.addi
// CHECK:           arith.maxsi
"memref.global"() <{sym_name = "izero", type = memref<i32>, initial_value = dense<0> : tensor<i32>, sym_visibility = "private", constant}> : () -> ()
func.func @i32_bias_relu(%a: memref<40x33xi32>, %b: memref<33x48xi32>, %bias: memref<48xi32>, %out: memref<40x48xi32>) {
  %c = memref.alloc() : memref<40x48xi32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<40x48xi32>) {
  ^bb0(%o: i32):
    %zero = arith.constant 0 : i32
    linalg.yield %zero : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xi32>, memref<33x48xi32>) outs(%c : memref<40x48xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  %z = memref.get_global @izero : memref<i32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias, %z : memref<40x48xi32>, memref<48xi32>, memref<i32>) outs(%out : memref<40x48xi32>) {
  ^bb0(%v: i32, %w: i32, %f: i32, %o: i32):
    %sum = arith.addi %v, %w : i32
    %r = arith.maxsi %sum, %f : i32
    linalg.yield %r : i32
  }
  memref.dealloc %c : memref<40x48xi32>
  func.return
}

// Batch dimensions that are not one run (flax's attention 'bqhd,bkhd->bhqk': b and h
// apart in the operands): the kernel's batch is h (its strides 4, 4 and 128), and the
// call runs in an scf.for over b, each trip's A, B and C offset by b's strides (96,
// 192 and 384 elements).
// CHECK-LABEL: func.func @outer_batch
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           arith.muli %[[B]]
// CHECK:           llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:           llvm.call @xla_opt_sgemm_narrow(
// CHECK-NEXT:    }
func.func @outer_batch(%q: memref<2x8x3x4xf32>, %k: memref<2x16x3x4xf32>, %s: memref<2x3x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x8x3x4xf32>, memref<2x16x3x4xf32>) outs(%s : memref<2x3x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  }
  func.return
}

// An operand read through a linear map (a slice of a reshape fused into the product:
// A[h, i, k] = x[i, h * 16 + k + 32] of a 40x96 buffer) is strides and an offset:
// along b (h) 16, i 96, k 1, from element 32 of x.
// CHECK-LABEL: func.func @linear_operand
// CHECK-NOT:     linalg.generic
// CHECK:         %[[X:.*]] = llvm.bitcast %x : memref<40x96xf32> to !llvm.ptr
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %[[X]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(96) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(1) : i64
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[A]], %[[AB]], %[[AI]], %[[AK]],
func.func @linear_operand(%x: memref<40x96xf32>, %w: memref<4x16x48xf32>, %c: memref<4x40x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (i, h * 16 + k + 32)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<40x96xf32>, memref<4x16x48xf32>) outs(%c : memref<4x40x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  }
  func.return
}

// A negative stride (a reversed operand) is not the kernel's: the product stays.
// CHECK-LABEL: func.func @reversed_operand
// CHECK:         linalg.generic
// CHECK-NOT:     llvm.call
func.func @reversed_operand(%a: memref<40x33xf32>, %b: memref<33x48xf32>, %c: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 32 - d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf32>, memref<33x48xf32>) outs(%c : memref<40x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// An operand that is a copy of another buffer through a data move the product could
// not fuse (k transposed out of a qkv product: no plain index would be left for the
// depth loop) is read from that buffer by strides: B[h, k, j] = x[j, h * 16 + k + 32]
// along b 16, k 1, j 96, from element 32. The copy and its buffer go; the source's
// dealloc moves after the call.
// CHECK-LABEL: func.func @copied_operand
// CHECK:         %src = memref.alloc() : memref<40x96xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%src : memref<40x96xf32>)
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.alloc
// CHECK:         %[[X:.*]] = llvm.bitcast %src : memref<40x96xf32> to !llvm.ptr
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.getelementptr inbounds %[[X]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[BB:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[BK:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[BJ:.*]] = llvm.mlir.constant(96) : i64
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]], %[[BB]], %[[BK]], %[[BJ]],
// CHECK-NEXT:    memref.dealloc %src : memref<40x96xf32>
// CHECK-NEXT:    func.return
func.func @copied_operand(%q: memref<4x40x16xf32>, %c: memref<4x40x40xf32>) {
  %src = memref.alloc() : memref<40x96xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%src : memref<40x96xf32>) {
  ^bb0(%o: f32):
    %one = arith.constant 1.000000e+00 : f32
    linalg.yield %one : f32
  }
  %kt = memref.alloc() : memref<4x16x40xf32>
  linalg.generic {indexing_maps = [affine_map<(h, k, j) -> (j, h * 16 + k + 32)>, affine_map<(h, k, j) -> (h, k, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%src : memref<40x96xf32>) outs(%kt : memref<4x16x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  memref.dealloc %src : memref<40x96xf32>
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : memref<4x40x16xf32>, memref<4x16x40xf32>) outs(%c : memref<4x40x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  }
  memref.dealloc %kt : memref<4x16x40xf32>
  func.return
}

// A copy by loads at sums of the loop indices (a slice from column 0, which an
// indexing map cannot express: its plain index would not span the buffer) is read
// through as well: A[i, k] = x[i, k] of the 40x96 buffer, strides 96 and 1.
// CHECK-LABEL: func.func @copied_by_loads
// CHECK-NOT:     linalg.generic
// CHECK:         %[[X:.*]] = llvm.bitcast %x : memref<40x96xf32> to !llvm.ptr
// CHECK-NEXT:    %[[AB:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[AI:.*]] = llvm.mlir.constant(96) : i64
// CHECK-NEXT:    %[[AK:.*]] = llvm.mlir.constant(1) : i64
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[X]], %[[AB]], %[[AI]], %[[AK]],
func.func @copied_by_loads(%x: memref<40x96xf32>, %w: memref<32x40xf32>, %c: memref<40x40xf32>) {
  %q = memref.alloc() : memref<40x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%q : memref<40x32xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = memref.load %x[%i, %j] : memref<40x96xf32>
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%q, %w : memref<40x32xf32>, memref<32x40xf32>) outs(%c : memref<40x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  }
  memref.dealloc %q : memref<40x32xf32>
  func.return
}

// A source written between the copy and the product keeps the copy: the product
// reads the copied values.
// CHECK-LABEL: func.func @source_written_after_the_copy
// CHECK:         linalg.generic {{.*}} ins(%src : memref<40x96xf32>) outs(%[[KT:.*]] : memref<4x16x40xf32>)
// CHECK:         linalg.generic {{.*}} outs(%src : memref<40x96xf32>)
// CHECK:         %[[B:.*]] = llvm.bitcast %[[KT]] : memref<4x16x40xf32> to !llvm.ptr
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]],
func.func @source_written_after_the_copy(%src: memref<40x96xf32>, %q: memref<4x40x16xf32>, %c: memref<4x40x40xf32>) {
  %kt = memref.alloc() : memref<4x16x40xf32>
  linalg.generic {indexing_maps = [affine_map<(h, k, j) -> (j, h * 16 + k + 32)>, affine_map<(h, k, j) -> (h, k, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%src : memref<40x96xf32>) outs(%kt : memref<4x16x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%src : memref<40x96xf32>) {
  ^bb0(%o: f32):
    %one = arith.constant 1.000000e+00 : f32
    linalg.yield %one : f32
  }
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : memref<4x40x16xf32>, memref<4x16x40xf32>) outs(%c : memref<4x40x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  }
  memref.dealloc %kt : memref<4x16x40xf32>
  func.return
}

// The same through a pointer made before the copy: a GEMM call between writes the
// source as its C.
// CHECK-LABEL: func.func @source_written_through_a_pointer
// CHECK:         linalg.generic {{.*}} ins(%src : memref<40x96xf32>) outs(%[[KT:.*]] : memref<4x16x40xf32>)
// CHECK:         llvm.call @xla_opt_sgemm
// CHECK:         %[[B:.*]] = llvm.bitcast %[[KT]] : memref<4x16x40xf32> to !llvm.ptr
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]],
func.func @source_written_through_a_pointer(%src: memref<40x96xf32>, %q: memref<4x40x16xf32>, %c: memref<4x40x40xf32>, %p: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1) : i64
  %dst = llvm.bitcast %src : memref<40x96xf32> to !llvm.ptr
  %kt = memref.alloc() : memref<4x16x40xf32>
  linalg.generic {indexing_maps = [affine_map<(h, k, j) -> (j, h * 16 + k + 32)>, affine_map<(h, k, j) -> (h, k, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%src : memref<40x96xf32>) outs(%kt : memref<4x16x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  llvm.call @xla_opt_sgemm(%c1, %c1, %c1, %c1, %p, %c1, %c1, %c1, %p, %c1, %c1, %c1, %dst, %c1, %c1, %c1, %p) : (i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr) -> ()
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : memref<4x40x16xf32>, memref<4x16x40xf32>) outs(%c : memref<4x40x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  memref.dealloc %kt : memref<4x16x40xf32>
  func.return
}
llvm.func @xla_opt_sgemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)

// A product whose result is only copied into another buffer (the heads put back side
// by side: D[i, h * 16 + j] = C[h, i, j]) writes that buffer itself: C's strides in D
// are 16 (h) and 32 (i), its columns contiguous; C, its fill and the copy go, and D's
// allocation moves before the call.
// CHECK-LABEL: func.func @written_through_a_copy
// CHECK:         %[[D:.*]] = memref.alloc() : memref<40x32xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[DP:.*]] = llvm.bitcast %[[D]] : memref<40x32xf32> to !llvm.ptr
// CHECK-NEXT:    %[[CB:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[CI:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(1) : i64
// CHECK:         llvm.call @xla_opt_sgemm_narrow(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DP]], %[[CB]], %[[CI]], %[[FLAGS]],
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[D]]
func.func @written_through_a_copy(%p: memref<2x40x40xf32>, %v: memref<2x40x16xf32>) -> memref<40x32xf32> {
  %c = memref.alloc() : memref<2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%c : memref<2x40x16xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : memref<2x40x40xf32>, memref<2x40x16xf32>) outs(%c : memref<2x40x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  %d = memref.alloc() : memref<40x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 floordiv 16, d0, d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<2x40x16xf32>) outs(%d : memref<40x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  memref.dealloc %c : memref<2x40x16xf32>
  func.return %d : memref<40x32xf32>
}

// Not when the product adds to C's old content (no zero fill), nor when D is read
// between the product and the copy: the copy stays.
// CHECK-LABEL: func.func @not_written_through
// CHECK:         llvm.call @xla_opt_sgemm_narrow
// CHECK:         linalg.generic {{.*}} ins(%c : memref<2x40x16xf32>) outs(%d : memref<40x32xf32>)
// CHECK:         llvm.call @xla_opt_sgemm_narrow
// CHECK:         memref.load %e
// CHECK:         linalg.generic {{.*}} ins(%c2 : memref<2x40x16xf32>) outs(%e : memref<40x32xf32>)
func.func @not_written_through(%p: memref<2x40x40xf32>, %v: memref<2x40x16xf32>, %c: memref<2x40x16xf32>, %d: memref<40x32xf32>, %e: memref<40x32xf32>) -> f32 {
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : memref<2x40x40xf32>, memref<2x40x16xf32>) outs(%c : memref<2x40x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 floordiv 16, d0, d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<2x40x16xf32>) outs(%d : memref<40x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %c2 = memref.alloc() : memref<2x40x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%c2 : memref<2x40x16xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, k, j)>, affine_map<(h, i, j, k) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : memref<2x40x40xf32>, memref<2x40x16xf32>) outs(%c2 : memref<2x40x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  %i0 = arith.constant 0 : index
  %read = memref.load %e[%i0, %i0] : memref<40x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 floordiv 16, d0, d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c2 : memref<2x40x16xf32>) outs(%e : memref<40x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  memref.dealloc %c2 : memref<2x40x16xf32>
  func.return %read : f32
}

// The declarations, once per module.
// CHECK-DAG:   llvm.func @xla_opt_sgemm_narrow(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-DAG:   llvm.func @xla_opt_igemm(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr)
// CHECK-NOT:   llvm.func
