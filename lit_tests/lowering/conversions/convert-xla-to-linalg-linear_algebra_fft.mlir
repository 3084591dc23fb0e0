// The linalg generics of FftToGeneric (every length, with the FFT kernel off):
// RUN: xla-opt %s -p 'convert-xla-to-linalg{fft-kernel=false}' | filecheck %s
// The lengths whose prime factors are at most 13 call the FFT kernel
// (lowering/kernels/fft.py): one call per axis, (outer, n, inner, operand); 17 and 53
// keep the generics.
// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s --check-prefix=KERNEL
// KERNEL-LABEL: func.func @fft_mixed_radix
// KERNEL:         %[[OUTER:.*]] = arith.constant 2 : i64
// KERNEL:         %[[N:.*]] = arith.constant 6 : i64
// KERNEL:         %[[INNER:.*]] = arith.constant 1 : i64
// KERNEL:         func.call @xla_opt_fft_c2c_fwd_c64_c64__{{.*}}(%[[OUTER]], %[[N]], %[[INNER]], %{{.*}}) : (i64, i64, i64, tensor<2x6xcomplex<f32>>) -> tensor<2x6xcomplex<f32>>
// KERNEL-LABEL: func.func @fft_bluestein
// KERNEL-NOT:     func.call
// KERNEL:         linalg.generic
// KERNEL-LABEL: func.func @fft_prime_below_50
// KERNEL-NOT:     func.call
// KERNEL:         linalg.generic
// KERNEL-LABEL: func.func @rfft_real_products
// KERNEL:         func.call @xla_opt_fft_r2c_fwd_f32_c64__{{.*}} : (i64, i64, i64, tensor<8xf32>) -> tensor<5xcomplex<f32>>
// KERNEL-LABEL: func.func @irfft
// KERNEL:         func.call @xla_opt_fft_c2r_inv_c128_f64__{{.*}} : (i64, i64, i64, tensor<4xcomplex<f64>>) -> tensor<6xf64>

// FFT of length 6 = 2 * 3 on complex<f32>: widened to complex<f64>, a constant table
// of the 6th roots of unity, one unrolled Cooley-Tukey step per prime factor (2 terms,
// then 3), a generic reading each frequency at its digit-reversed position, and one
// rounding to complex<f32>.
// CHECK-LABEL: func.func @fft_mixed_radix
// CHECK-SAME:    (%[[A:.*]]: tensor<2x6xcomplex<f32>>)
// CHECK:         %[[WIDE:.*]] = linalg.generic
// CHECK:           tensor.extract %[[A]]
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:           complex.create %{{.*}}, %{{.*}} : complex<f64>
// CHECK:         %[[ROOTS:.*]] = arith.constant dense<[(1.000000e+00,-0.000000e+00), (0.50000000000000011,-0.8660254037844386), {{.*}}]> : tensor<6xcomplex<f64>>
// CHECK:         %[[STEP2:.*]] = linalg.generic
// CHECK-COUNT-2:   tensor.extract %[[ROOTS]]
// CHECK-NOT:       tensor.extract %[[ROOTS]]
// CHECK:         } -> tensor<2x6xcomplex<f64>>
// CHECK:         %[[STEP3:.*]] = linalg.generic
// CHECK-COUNT-3:   tensor.extract %[[ROOTS]]
// CHECK-NOT:       tensor.extract %[[ROOTS]]
// CHECK:         } -> tensor<2x6xcomplex<f64>>
// CHECK:         %[[ORDERED:.*]] = linalg.generic
// CHECK:           tensor.extract %[[STEP3]]
// CHECK:         } -> tensor<2x6xcomplex<f64>>
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[ORDERED]]
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:           complex.create %{{.*}}, %{{.*}} : complex<f32>
// CHECK:         } -> tensor<2x6xcomplex<f32>>
func.func @fft_mixed_radix(%a: tensor<2x6xcomplex<f32>>) -> tensor<2x6xcomplex<f32>> {
  %r = xla.fft %a, fft_type = FFT, fft_length = [6] : (tensor<2x6xcomplex<f32>>) -> tensor<2x6xcomplex<f32>>
  func.return %r : tensor<2x6xcomplex<f32>>
}

// A prime length, 101, that XLA's FFT (DUCC) and numpy's (pocketfft) transform by
// Bluestein's algorithm (their cost model: 101 steps of 101 terms cost more than two
// transforms of 210): so do we. The chirp (101 values) and the spectrum of its filter
// (M = 256, computed at compile time) are constants; the row's largest exponent is
// read (a huge row is scaled); the chirped input is padded to 256, transformed (radix
// 4: 4 steps), multiplied by the filter's spectrum, inverse-transformed (scaled by
// 1/256) and chirped again.
// CHECK-LABEL: func.func @fft_bluestein
// CHECK:         %[[CHIRP:.*]] = arith.constant dense<{{.*}}> : tensor<101xcomplex<f64>>
// CHECK:         %[[FILTER:.*]] = arith.constant dense<{{.*}}> : tensor<256xcomplex<f64>>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1xi64>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:           tensor.extract %[[CHIRP]]
// CHECK:           arith.select
// CHECK-COUNT-4: linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:           tensor.extract %[[FILTER]]
// CHECK-COUNT-4: linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<256xcomplex<f64>>)
// CHECK:           arith.constant 3.906250e-03 : f64
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<101xcomplex<f64>>)
// CHECK:           tensor.extract %[[CHIRP]]
func.func @fft_bluestein(%a: tensor<101xcomplex<f64>>) -> tensor<101xcomplex<f64>> {
  %r = xla.fft %a, fft_type = FFT, fft_length = [101] : (tensor<101xcomplex<f64>>) -> tensor<101xcomplex<f64>>
  func.return %r : tensor<101xcomplex<f64>>
}

// 53, prime, takes one direct step in XLA's FFT and numpy's (53 steps of 53 terms cost
// less than Bluestein's two transforms of 105), and in ours: a step of 53 terms, summed
// in a loop (a radix of 50 or more).
// CHECK-LABEL: func.func @fft_prime_direct
// CHECK:         %[[ROOTS:.*]] = arith.constant dense<{{.*}}> : tensor<53xcomplex<f64>>
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[ROOTS]]
// CHECK:           scf.for
// CHECK:             tensor.extract %[[ROOTS]]
// CHECK:         } -> tensor<53xcomplex<f64>>
func.func @fft_prime_direct(%a: tensor<53xcomplex<f64>>) -> tensor<53xcomplex<f64>> {
  %r = xla.fft %a, fft_type = FFT, fft_length = [53] : (tensor<53xcomplex<f64>>) -> tensor<53xcomplex<f64>>
  func.return %r : tensor<53xcomplex<f64>>
}

// A prime length above 16 but below 50 (17): one direct step of 17 terms, as XLA
// (unrolled, as every radix below 50).
// CHECK-LABEL: func.func @fft_prime_below_50
// CHECK:         %[[ROOTS:.*]] = arith.constant dense<{{.*}}> : tensor<17xcomplex<f64>>
// CHECK:         linalg.generic
// CHECK-COUNT-17:  tensor.extract %[[ROOTS]]
// CHECK-NOT:       tensor.extract %[[ROOTS]]
// CHECK:         } -> tensor<17xcomplex<f64>>
func.func @fft_prime_below_50(%a: tensor<17xcomplex<f64>>) -> tensor<17xcomplex<f64>> {
  %r = xla.fft %a, fft_type = FFT, fft_length = [17] : (tensor<17xcomplex<f64>>) -> tensor<17xcomplex<f64>>
  func.return %r : tensor<17xcomplex<f64>>
}

// RFFT of length 8: the real input stays real (f64), its first step multiplies it as
// a real number (two real products per twiddle, no imaginary part of its own) and
// takes the trivial twiddles (1, -1, -i, i) exactly, by selects; the 5 bins kept have
// the imaginary parts of bins 0 and 4 exactly 0.
// CHECK-LABEL: func.func @rfft_real_products
// CHECK:         %[[REAL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf64>)
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[ROOTS:.*]] = arith.constant dense<{{.*}}> : tensor<8xcomplex<f64>>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<8xcomplex<f64>>)
// CHECK:           %[[X:.*]] = tensor.extract %[[REAL]][%{{.*}}] : tensor<8xf64>
// CHECK:           %[[W:.*]] = tensor.extract %[[ROOTS]]
// CHECK:           %[[C:.*]] = complex.re %[[W]]
// CHECK:           %[[S:.*]] = complex.im %[[W]]
// CHECK:           arith.mulf %[[X]], %[[C]] : f64
// CHECK:           arith.mulf %[[X]], %[[S]] : f64
// CHECK:           arith.negf %[[X]] : f64
// CHECK:           arith.cmpi eq
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<5xcomplex<f64>>)
// CHECK:           arith.cmpi eq
// CHECK:           arith.ori
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<5xcomplex<f32>>)
func.func @rfft_real_products(%a: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  %r = xla.fft %a, fft_type = RFFT, fft_length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  func.return %r : tensor<5xcomplex<f32>>
}

// IRFFT of length 6 from 4 bins: the innermost axis extended by Hermitian symmetry
// (bins above 3 read conj(X[6 - k])), inverse-transformed, its real part the result.
// CHECK-LABEL: func.func @irfft
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<6xcomplex<f64>>)
// CHECK:           arith.cmpi ugt
// CHECK:           arith.select
// CHECK:           arith.negf
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<6xf64>)
// CHECK:           complex.re
func.func @irfft(%a: tensor<4xcomplex<f64>>) -> tensor<6xf64> {
  %r = xla.fft %a, fft_type = IRFFT, fft_length = [6] : (tensor<4xcomplex<f64>>) -> tensor<6xf64>
  func.return %r : tensor<6xf64>
}
