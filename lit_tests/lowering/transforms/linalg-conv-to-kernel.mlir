// RUN: xla-opt %s -p linalg-conv-to-kernel | filecheck %s

// The generic form of an NCHW/OIHW convolution (padding 1): the image read in the
// body, clamped and replaced by 0 outside. It becomes a call of the convolution kernel,
// side 0 (output features are rows, windows contiguous columns), one GEMM per image
// (M = 8 features, N = 16 x 16 windows, K = 8 x 3 x 3), the padding taken in the
// kernel. The zero fill before it goes: the call has the OVERWRITE flag (1, last).
// CHECK-LABEL: func.func @nchw
// CHECK-NOT:     linalg.generic
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(256) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(72) : i64
// CHECK-NEXT:    %[[W:.*]] = llvm.bitcast %w : memref<8x8x3x3xf32> to !llvm.ptr
// CHECK:         %[[X:.*]] = llvm.bitcast %x : memref<2x8x16x16xf32> to !llvm.ptr
// CHECK:         %[[C:.*]] = llvm.bitcast %out : memref<2x8x16x16xf32> to !llvm.ptr
// CHECK:         llvm.call @xla_opt_sconv_columns(%[[TWO]], %[[ONE]], %[[ZERO]], %[[M]], %[[N]], %[[K]], %[[W]], %[[K]], %[[ONE]], {{.*}}, %[[X]], {{.*}}, %[[C]], %[[N]], %{{[^,]*}}, %{{[^,]*}}, %[[ONE]])
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @nchw(%x: memref<2x8x16x16xf32>, %w: memref<8x8x3x3xf32>, %out: memref<2x8x16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%out : memref<2x8x16x16xf32>) {
  ^bb0(%o: f32):
    %zero = arith.constant 0.000000e+00 : f32
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d6, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%w : memref<8x8x3x3xf32>) outs(%out : memref<2x8x16x16xf32>) {
  ^bb0(%k: f32, %acc: f32):
    %zero = arith.constant 0.000000e+00 : f32
    %b = linalg.index 0 : index
    %c = linalg.index 6 : index
    %oh = linalg.index 2 : index
    %kh = linalg.index 4 : index
    %h0 = arith.addi %oh, %kh : index
    %minus1 = arith.constant -1 : index
    %h = arith.addi %h0, %minus1 : index
    %last = arith.constant 15 : index
    %h_in = arith.cmpi ule, %h, %last : index
    %h_clamped = arith.minui %h, %last : index
    %ow = linalg.index 3 : index
    %kw = linalg.index 5 : index
    %w0 = arith.addi %ow, %kw : index
    %ww = arith.addi %w0, %minus1 : index
    %w_in = arith.cmpi ule, %ww, %last : index
    %w_clamped = arith.minui %ww, %last : index
    %read = memref.load %x[%b, %c, %h_clamped, %w_clamped] : memref<2x8x16x16xf32>
    %inside = arith.andi %h_in, %w_in : i1
    %value = arith.select %inside, %read, %zero : f32
    %p = arith.mulf %value, %k : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// The generalized linalg.conv_2d_nhwc_hwcf over an already padded input (stride 2):
// side 1 (windows are rows, output features contiguous columns), the batch folded
// into the windows (M = 2 x 8 x 8), the HWIO kernel one run of 3 x 3 x 8 (k stride 16).
// CHECK-LABEL: func.func @nhwc
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(72) : i64
// CHECK-NEXT:    %[[W:.*]] = llvm.bitcast %w : memref<3x3x8x16xf32> to !llvm.ptr
// CHECK:         llvm.call @xla_opt_sconv_rows(%[[ONE]], %[[ONE]], %[[ONE]], %[[M]], %[[N]], %[[K]], %[[W]], %[[ONE]], %[[N]], {{.*}})
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @nhwc(%x: memref<2x17x17x8xf32>, %w: memref<3x3x8x16xf32>, %out: memref<2x8x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<2x17x17x8xf32>, memref<3x3x8x16xf32>) outs(%out : memref<2x8x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// A weight gradient as JAX writes it (`[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]`): the
// "image" is the input x (its batch the input features, its features the batch), the
// "kernel" the output's gradient dy (its window the 8 x 8 image), the output HWIO. The
// windows (window row, window column, input feature) are one row-major run of the
// output, rows 32 apart: one GEMM, side 1, M = 3 x 3 x 16, N = 32 output features,
// K = 4 x 8 x 8 (images 1, the batch folded as the innermost digit: x_e2 = 16, x_s2 = 1).
// CHECK-LABEL: func.func @weight_gradient
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(144) : i64
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(256) : i64
// CHECK-NEXT:    %[[W:.*]] = llvm.bitcast %dy : memref<4x8x8x32xf32> to !llvm.ptr
// CHECK-NEXT:    %[[X:.*]] = llvm.bitcast %x : memref<4x8x8x16xf32> to !llvm.ptr
// CHECK:         %[[SIXTEEN:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[E1:.*]] = llvm.mlir.constant(3) : i64
// CHECK:         %[[C:.*]] = llvm.bitcast %out0 : memref<3x3x16x32xf32> to !llvm.ptr
// CHECK:         llvm.call @xla_opt_sconv_rows(%[[ONE]], %[[ONE]], %[[ONE]], %[[M]], %[[N]], %[[K]], %[[W]], %[[ONE]], %[[N]], %[[N]], %[[X]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[E1]], %[[SIXTEEN]], %{{[^,]*}}, %{{[^,]*}}, %[[ONE]], {{.*}}, %[[C]], %[[N]], {{.*}})
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @weight_gradient(%x: memref<4x8x8x16xf32>, %dy: memref<4x8x8x32xf32>, %out0: memref<3x3x16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%out0 : memref<3x3x16x32xf32>) {
  ^bb0(%0: f32):
    %1 = arith.constant 0.000000e+00 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6, d4, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%dy : memref<4x8x8x32xf32>) outs(%out0 : memref<3x3x16x32xf32>) {
  ^bb0(%2: f32, %3: f32):
    %4 = arith.constant 0.000000e+00 : f32
    %5 = linalg.index 2 : index
    %6 = linalg.index 6 : index
    %7 = linalg.index 0 : index
    %8 = linalg.index 4 : index
    %9 = arith.addi %7, %8 : index
    %10 = arith.constant -1 : index
    %11 = arith.addi %9, %10 : index
    %12 = arith.constant 7 : index
    %13 = arith.cmpi ule, %11, %12 : index
    %14 = arith.minui %11, %12 : index
    %15 = linalg.index 1 : index
    %16 = linalg.index 5 : index
    %17 = arith.addi %15, %16 : index
    %18 = arith.addi %17, %10 : index
    %19 = arith.cmpi ule, %18, %12 : index
    %20 = arith.minui %18, %12 : index
    %21 = memref.load %x[%6, %14, %20, %5] : memref<4x8x8x16xf32>
    %22 = arith.andi %13, %19 : i1
    %23 = arith.select %22, %21, %4 : f32
    %24 = arith.mulf %23, %2 : f32
    %25 = arith.addf %3, %24 : f32
    linalg.yield %25 : f32
  }
  func.return
}

// Left alone: below MIN_MACS (4 x 4 windows of 2 x 3 x 3), f64, a body that is not
// acc + image * kernel, and an image index the kernel cannot take (lhs dilation: a
// remainder and a division).
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT:     llvm.call
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     llvm.call
// CHECK:         func.return
func.func @not_taken(%x: memref<1x2x6x6xf32>, %w: memref<2x2x3x3xf32>, %out: memref<1x2x4x4xf32>, %xd: memref<2x17x17x8xf64>, %wd: memref<3x3x8x16xf64>, %outd: memref<2x8x8x16xf64>, %xf: memref<2x17x17x8xf32>, %wf: memref<3x3x8x16xf32>, %outf: memref<2x8x8x16xf32>, %x2: memref<2x8x16x16xf32>, %w2: memref<8x8x3x3xf32>, %out2: memref<2x8x31x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d6, (d2 + d4), (d3 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d6, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xd, %wd : memref<2x17x17x8xf64>, memref<3x3x8x16xf64>) outs(%outd : memref<2x8x8x16xf64>) {
  ^bb0(%a: f64, %b: f64, %acc: f64):
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xf, %wf : memref<2x17x17x8xf32>, memref<3x3x8x16xf32>) outs(%outf : memref<2x8x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d6, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%w2 : memref<8x8x3x3xf32>) outs(%out2 : memref<2x8x31x16xf32>) {
  ^bb0(%k: f32, %acc: f32):
    %zero = arith.constant 0.000000e+00 : f32
    %b = linalg.index 0 : index
    %c = linalg.index 6 : index
    %oh = linalg.index 2 : index
    %kh = linalg.index 4 : index
    %h0 = arith.addi %oh, %kh : index
    %minus1 = arith.constant -1 : index
    %h = arith.addi %h0, %minus1 : index
    %last = arith.constant 30 : index
    %h_in = arith.cmpi ule, %h, %last : index
    %two = arith.constant 2 : index
    %rem = arith.remsi %h, %two : index
    %zero_i = arith.constant 0 : index
    %on_grid = arith.cmpi eq, %rem, %zero_i : index
    %div = arith.divsi %h, %two : index
    %last_in = arith.constant 15 : index
    %h_clamped = arith.minui %div, %last_in : index
    %ow = linalg.index 3 : index
    %kw = linalg.index 5 : index
    %ww = arith.addi %ow, %kw : index
    %read = memref.load %x2[%b, %c, %h_clamped, %ww] : memref<2x8x16x16xf32>
    %in1 = arith.andi %h_in, %on_grid : i1
    %value = arith.select %in1, %read, %zero : f32
    %p = arith.mulf %value, %k : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// The declarations, once per module: the kernel of each side the calls take (a
// library each: a program of one side compiles half the code).
// CHECK:       llvm.func @xla_opt_sconv_columns(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, {{.*}}, !llvm.ptr, i64, i64, i64, i64)
// CHECK:       llvm.func @xla_opt_sconv_rows(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, {{.*}}, !llvm.ptr, i64, i64, i64, i64)
// CHECK-NOT:   llvm.func
