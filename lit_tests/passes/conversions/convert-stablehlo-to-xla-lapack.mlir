// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// JAX's LAPACK custom calls (issue 31) become calls of private functions the import
// builds from xla ops (passes/conversions/convert_stablehlo_to_xla/lapack.py), one per
// target, mode and shape: while loops over the columns, pairs or sweeps, dynamic
// slices and iota masks. Leading dimensions are a batch: a loop around the routine.

// CHECK-LABEL: func.func @getrf(
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = xla.call %{{.*}}, callee = @__lapack_sgetrf_2x4x3 : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
// The second call of the same shape calls the same function.
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_sgetrf_2x4x3
func.func @getrf(%a: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<2x4x3xf32>) {
  %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
  %1:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
  return %0#0, %0#1, %0#2, %1#0 : tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @qr(
// CHECK-NEXT:    %[[PACKED:.*]], %[[TAU:.*]] = xla.call %{{.*}}, callee = @__lapack_cgeqrf_5x3 : (tensor<5x3xcomplex<f32>>) -> (tensor<5x3xcomplex<f32>>, tensor<3xcomplex<f32>>)
// CHECK-NEXT:    xla.call %[[PACKED]], %[[TAU]], callee = @__lapack_cungqr_5x3_3 : (tensor<5x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<5x3xcomplex<f32>>
func.func @qr(%a: tensor<5x3xcomplex<f32>>) -> tensor<5x3xcomplex<f32>> {
  %0:2 = stablehlo.custom_call @lapack_cgeqrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<5x3xcomplex<f32>>) -> (tensor<5x3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  %1 = stablehlo.custom_call @lapack_cungqr_ffi(%0#0, %0#1) {mhlo.backend_config = {}} : (tensor<5x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<5x3xcomplex<f32>>
  return %1 : tensor<5x3xcomplex<f32>>
}

// mode 'V' (86), uplo 'L' (76); mode 'N' (78), uplo 'U' (85)
// CHECK-LABEL: func.func @eigh(
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_dsyevd_modeV_uploL_4x4 : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<i32>)
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_zheevd_modeN_uploU_3x3 : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>, tensor<i32>)
func.func @eigh(%a: tensor<4x4xf64>, %h: tensor<3x3xcomplex<f64>>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<3xf64>) {
  %0:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<i32>)
  %1:3 = stablehlo.custom_call @lapack_zheevd_ffi(%h) {mhlo.backend_config = {mode = 78 : ui8, uplo = 85 : ui8}} : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>, tensor<i32>)
  return %0#0, %0#1, %1#1 : tensor<4x4xf64>, tensor<4xf64>, tensor<3xf64>
}

// mode 'A' (65), 'S' (83), 'N' (78)
// CHECK-LABEL: func.func @svd(
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_sgesdd_modeA_5x3 : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<5x5xf32>, tensor<3x3xf32>, tensor<i32>)
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_cgesdd_modeS_3x5 : (tensor<3x5xcomplex<f32>>) -> (tensor<3x5xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x5xcomplex<f32>>, tensor<i32>)
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_sgesdd_modeN_5x3 : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<5x5xf32>, tensor<3x3xf32>, tensor<i32>)
func.func @svd(%a: tensor<5x3xf32>, %w: tensor<3x5xcomplex<f32>>) -> (tensor<5x5xf32>, tensor<3x5xcomplex<f32>>, tensor<3xf32>) {
  %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<5x5xf32>, tensor<3x3xf32>, tensor<i32>)
  %1:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%w) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<3x5xcomplex<f32>>) -> (tensor<3x5xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x5xcomplex<f32>>, tensor<i32>)
  %2:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8}} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<5x5xf32>, tensor<3x3xf32>, tensor<i32>)
  return %0#2, %1#3, %2#1 : tensor<5x5xf32>, tensor<3x5xcomplex<f32>>, tensor<3xf32>
}

// geev: real input gives (wr, wi) and complex eigenvectors; compute_left 'N' (78),
// compute_right 'V' (86). Hessenberg reduction, QR sweeps (a loop of Givens
// rotations inside the loop until every eigenvalue deflated), the triangular
// factor's eigenvectors by substitution.
// CHECK-LABEL: func.func @eig(
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_dgeev_leftN_rightV_4x4 : (tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<i32>)
// CHECK-NEXT:    xla.call %{{.*}}, callee = @__lapack_cgeev_leftV_rightV_3x3 : (tensor<3x3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
func.func @eig(%a: tensor<4x4xf64>, %c: tensor<3x3xcomplex<f32>>) -> (tensor<4xf64>, tensor<4x4xcomplex<f64>>, tensor<3x3xcomplex<f32>>) {
  %0:5 = stablehlo.custom_call @lapack_dgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<i32>)
  %1:4 = stablehlo.custom_call @lapack_cgeev_ffi(%c) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#1, %0#3, %1#1 : tensor<4xf64>, tensor<4x4xcomplex<f64>>, tensor<3x3xcomplex<f32>>
}

// getrf, batched: a loop over the two matrices around the loop over the columns,
// which finds the pivot (a max, then the first row reaching it), swaps two rows and
// updates the trailing block under an iota mask.
// CHECK-LABEL: func.func private @__lapack_sgetrf_2x4x3(%{{.*}}: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
// CHECK:         xla.while
// CHECK:           xla.dynamic_slice %{{.*}} slice_sizes = [1, 4, 3]
// CHECK:           xla.while
// CHECK:             xla.reduce
// CHECK:               xla.maximum
// CHECK:             xla.reduce
// CHECK:               xla.minimum
// CHECK:             xla.dynamic_update_slice
// CHECK:             xla.iota
// CHECK:             xla.select
// CHECK:           xla.dynamic_update_slice %{{.*}} : (tensor<2x4x3xf32>, tensor<1x4x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x4x3xf32>
// CHECK:         func.return

// geqrf: one Householder reflector per column, applied to the columns on its right
// with a dot_general (vᴴ·A).
// CHECK-LABEL: func.func private @__lapack_cgeqrf_5x3(
// CHECK:         xla.while
// CHECK:           xla.sqrt
// CHECK:           xla.dot_general
// CHECK:         func.return

// ungqr: the reflectors applied to the identity, the last first.
// CHECK-LABEL: func.func private @__lapack_cungqr_5x3_3(
// CHECK:         xla.while
// CHECK:           xla.dot_general
// CHECK:         func.return

// syevd: sweeps (until the off-diagonal norm is small) of rotations of every pair,
// then the eigenvalues sorted with the eigenvectors.
// CHECK-LABEL: func.func private @__lapack_dsyevd_modeV_uploL_4x4(
// CHECK:         xla.while
// CHECK:           xla.while
// CHECK:             xla.rsqrt
// CHECK:         xla.sort
// CHECK:         func.return

// CHECK-LABEL: func.func private @__lapack_zheevd_modeN_uploU_3x3(
// CHECK:         xla.while
// CHECK:         xla.sort

// gesdd: one-sided Jacobi sweeps, the singular values sorted descending, U completed
// by a QR of W·Σ⁻¹ (mode 'A' and 'S'); mode 'N' computes no vectors.
// CHECK-LABEL: func.func private @__lapack_sgesdd_modeA_5x3(
// CHECK:         xla.while
// CHECK:           xla.while
// CHECK:         xla.sort
// CHECK:           comparison_direction = GT
// CHECK:         xla.dot_general
// CHECK:         func.return

// CHECK-LABEL: func.func private @__lapack_cgesdd_modeS_3x5(
// CHECK:         xla.transpose
// CHECK:         xla.while

// CHECK-LABEL: func.func private @__lapack_sgesdd_modeN_5x3(
// CHECK:         xla.while
// CHECK:         xla.sort
// CHECK-NOT:     xla.dot_general
// CHECK:         func.return

// CHECK-LABEL: func.func private @__lapack_dgeev_leftN_rightV_4x4(
// CHECK:         xla.convert %{{.*}} : (tensor<4x4xf64>) -> tensor<4x4xcomplex<f64>>
// CHECK:         xla.while
// CHECK:         xla.while
// CHECK:           xla.while
// CHECK:             xla.sqrt
// CHECK:         xla.while
// CHECK:         xla.real
// CHECK:         xla.imag
// CHECK:         func.return
