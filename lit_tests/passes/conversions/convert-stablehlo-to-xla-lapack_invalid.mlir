// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// A LAPACK call whose operands or results are not what the routine takes and gives is
// one located error saying so.

func.func @wrong_results(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'lapack_sgetrf_ffi' of tensor<3x3xf32> gives (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>), not (tensor<3x3xf32>)}}
  %0 = stablehlo.custom_call @lapack_sgetrf_ffi(%x) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @wrong_element_type(%x: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>) {
  // expected-error @+1 {{'lapack_sgeqrf_ffi' takes tensors of f32 of rank 2 or more (batched), got tensor<3x3xf64>}}
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%x) : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>)
  return %0#0, %0#1 : tensor<3x3xf64>, tensor<3xf64>
}

// -----

func.func @not_square(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4xf32>, tensor<i32>) {
  // expected-error @+1 {{'lapack_ssyevd_ffi': the matrix (3 x 4) must be square}}
  %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%x) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4xf32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<3x4xf32>, tensor<4xf32>, tensor<i32>
}

// -----

func.func @bad_mode(%x: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{mode 'O' must be A, S or N (gesdd's jobz 'O' is not what JAX asks for)}}
  %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%x) {mhlo.backend_config = {mode = 79 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @batches_differ(%a: tensor<2x4x3xf32>, %t: tensor<3x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'lapack_sorgqr_ffi' takes operands of one static batch shape, got tensor<2x4x3xf32>, tensor<3x3xf32>}}
  %0 = stablehlo.custom_call @lapack_sorgqr_ffi(%a, %t) : (tensor<2x4x3xf32>, tensor<3x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @old_form(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{custom call 'lapack_sgetrf': only JAX's FFI form ('lapack_sgetrf_ffi') is supported}}
  %0 = stablehlo.custom_call @lapack_sgetrf(%x) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @geev_results(%x: tensor<3x3xf32>) -> tensor<3xcomplex<f32>> {
  // expected-error @+1 {{'lapack_sgeev_ffi' of tensor<3x3xf32> gives (tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>), not (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)}}
  %0:4 = stablehlo.custom_call @lapack_sgeev_ffi(%x) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<3x3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#0 : tensor<3xcomplex<f32>>
}
