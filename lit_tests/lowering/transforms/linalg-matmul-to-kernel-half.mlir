// RUN: xla-opt %s -p linalg-matmul-to-kernel | filecheck %s

// An f16 or bf16 dot as the unfused lowering leaves it (operands widened in the body,
// an f32 accumulator buffer, then one rounding generic) becomes a call of the GEMM that
// widens while packing (xla_opt_hgemm, xla_opt_bgemm) into the f32 buffer, which it
// overwrites (the fill before it goes: flags 1); the rounding after it stays.
// CHECK-LABEL: func.func @f16
// CHECK-NOT:     linalg.generic
// CHECK:         %[[A:.*]] = llvm.bitcast %a : memref<40x33xf16> to !llvm.ptr
// CHECK:         %[[B:.*]] = llvm.bitcast %b : memref<33x48xf16> to !llvm.ptr
// CHECK:         %[[C:.*]] = llvm.bitcast %acc : memref<40x48xf32> to !llvm.ptr
// CHECK:         %[[FLAGS:.*]] = llvm.mlir.constant(1) : i64
// CHECK:         llvm.call @xla_opt_hgemm({{.*}}, %[[A]], {{.*}}, %[[B]], {{.*}}, %[[C]], {{.*}}, %[[FLAGS]], {{.*}})
// CHECK-NEXT:    linalg.generic {{.*}} ins(%acc : memref<40x48xf32>) outs(%out : memref<40x48xf16>)
// CHECK:           arith.truncf {{.*}} : f32 to f16
// CHECK:         func.return
func.func @f16(%a: memref<40x33xf16>, %b: memref<33x48xf16>, %acc: memref<40x48xf32>, %out: memref<40x48xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<40x48xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xf16>, memref<33x48xf16>) outs(%acc : memref<40x48xf32>) {
  ^bb0(%x: f16, %y: f16, %s0: f32):
    %wx = arith.extf %x : f16 to f32
    %wy = arith.extf %y : f16 to f32
    %p = arith.mulf %wx, %wy : f32
    %s = arith.addf %s0, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<40x48xf32>) outs(%out : memref<40x48xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  }
  func.return
}

// CHECK-LABEL: func.func @bf16
// CHECK:         llvm.call @xla_opt_bgemm
// CHECK-NOT:     linalg.generic {{.*}} ins(%a, %b
// CHECK:         func.return
func.func @bf16(%a: memref<40x33xbf16>, %b: memref<33x48xbf16>, %acc: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x33xbf16>, memref<33x48xbf16>) outs(%acc : memref<40x48xf32>) {
  ^bb0(%x: bf16, %y: bf16, %s0: f32):
    %wx = arith.extf %x : bf16 to f32
    %wy = arith.extf %y : bf16 to f32
    %p = arith.mulf %wx, %wy : f32
    %s = arith.addf %p, %s0 : f32
    linalg.yield %s : f32
  }
  func.return
}

// Left alone: f16 operands with an f16 accumulator (not what the kernel computes), a
// widened body that multiplies one operand by itself, and an f16 times a bf16.
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT:     llvm.call
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     llvm.call
// CHECK:         func.return
func.func @not_taken(%a: memref<40x40xf16>, %h: memref<40x40xf16>, %acc: memref<40x40xf32>, %c: memref<40x40xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %a : memref<40x40xf16>, memref<40x40xf16>) outs(%h : memref<40x40xf16>) {
  ^bb0(%x: f16, %y: f16, %s0: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %p, %s0 : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %a : memref<40x40xf16>, memref<40x40xf16>) outs(%acc : memref<40x40xf32>) {
  ^bb0(%x: f16, %y: f16, %s0: f32):
    %wx = arith.extf %x : f16 to f32
    %wy = arith.extf %y : f16 to f32
    %p = arith.mulf %wx, %wx : f32
    %s = arith.addf %p, %s0 : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %c : memref<40x40xf16>, memref<40x40xbf16>) outs(%acc : memref<40x40xf32>) {
  ^bb0(%x: f16, %y: bf16, %s0: f32):
    %wx = arith.extf %x : f16 to f32
    %wy = arith.extf %y : bf16 to f32
    %p = arith.mulf %wx, %wy : f32
    %s = arith.addf %p, %s0 : f32
    linalg.yield %s : f32
  }
  func.return
}

// CHECK:       llvm.func @xla_opt_hgemm(
// CHECK-NEXT:  llvm.func @xla_opt_bgemm(
// CHECK-NOT:   llvm.func
