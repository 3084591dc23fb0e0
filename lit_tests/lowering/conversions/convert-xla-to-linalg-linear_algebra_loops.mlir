// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// Cholesky, lower, batched: a zero fill, then scf.for loops over the batch and the
// columns j carrying the result tensor. The pivot sqrt(a[j][j] - sum_k<j L[j][k]^2) is
// NaN unless that difference is > 0; the column below it is (a[i][j] - sum) / pivot.
// A final generic writes NaN over the lower triangle of a matrix whose last pivot is
// NaN (not positive definite).
// CHECK-LABEL: func.func @cholesky_lower
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3x3xf32>)
// CHECK:         %[[ZERO:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3xf32>)
// CHECK:         %[[L:.*]] = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<2x3x3xf32>) {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %{{.*}}) -> (tensor<2x3x3xf32>) {
// CHECK:             %[[SQUARES:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[J]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:               %[[LJK:.*]] = tensor.extract %[[W]][%[[B]], %[[J]], %[[K]]] : tensor<2x3x3xf32>
// CHECK:               arith.mulf %[[LJK]], %[[LJK]] : f32
// CHECK:             %[[AJJ:.*]] = tensor.extract %[[A]][%[[B]], %[[J]], %[[J]]] : tensor<2x3x3xf32>
// CHECK:             %[[D:.*]] = arith.subf %[[AJJ]], %[[SQUARES]] : f32
// CHECK:             %[[POSITIVE:.*]] = arith.cmpf ogt, %[[D]], %{{.*}} : f32
// CHECK:             %[[ROOT:.*]] = math.sqrt %[[D]] : f32
// CHECK:             %[[PIVOT:.*]] = arith.select %[[POSITIVE]], %[[ROOT]], %{{.*}} : f32
// CHECK:             %[[W2:.*]] = tensor.insert %[[PIVOT]] into %[[W]][%[[B]], %[[J]], %[[J]]] : tensor<2x3x3xf32>
// CHECK:             scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W3:.*]] = %[[W2]]) -> (tensor<2x3x3xf32>) {
// CHECK:               %[[AIJ:.*]] = tensor.extract %[[A]][%[[B]], %[[I]], %[[J]]] : tensor<2x3x3xf32>
// CHECK:               %[[REST:.*]] = arith.subf %[[AIJ]], %{{.*}} : f32
// CHECK:               %[[LIJ:.*]] = arith.divf %[[REST]], %[[PIVOT]] : f32
// CHECK:               tensor.insert %[[LIJ]] into %[[W3]][%[[B]], %[[I]], %[[J]]] : tensor<2x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[L]] : tensor<2x3x3xf32>)
// CHECK:           %[[LAST:.*]] = tensor.extract %[[L]][%{{.*}}, %[[C2:.*]], %[[C2]]] : tensor<2x3x3xf32>
// CHECK:           %[[FAILED:.*]] = arith.cmpf uno, %[[LAST]], %[[LAST]] : f32
// CHECK:           %[[IN:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : index
// CHECK:           %[[BOTH:.*]] = arith.andi %[[FAILED]], %[[IN]] : i1
// CHECK:           arith.select %[[BOTH]], %{{.*}}, %{{.*}} : f32
func.func @cholesky_lower(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %r = xla.cholesky %a, lower = true : tensor<2x3x3xf32>
  func.return %r : tensor<2x3x3xf32>
}

// Cholesky, upper: A[i][j] and L[i][j] (i >= j) live at [j, i]; the triangle is i <= j.
// CHECK-LABEL: func.func @cholesky_upper
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %{{.*}}) -> (tensor<3x3xf64>)
// CHECK:             tensor.extract %{{.*}}[%[[J]], %[[I]]] : tensor<3x3xf64>
// CHECK:             tensor.insert %{{.*}} into %[[W]][%[[J]], %[[I]]] : tensor<3x3xf64>
// CHECK:         linalg.generic
// CHECK:           arith.cmpi ule
func.func @cholesky_upper(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %r = xla.cholesky %a, lower = false : tensor<3x3xf64>
  func.return %r : tensor<3x3xf64>
}

// x a = b with a lower, f16: T = a^T is upper, so rows are solved backward
// (i = 2 - step), each from the rows after it: x[k][i] = (b[k][i] - sum_j>i a[j][i]
// x[k][j]) / a[i][i], in f32, rounded to f16 once at the end.
// CHECK-LABEL: func.func @triangular_solve_right_lower_f16
// CHECK-SAME:    (%[[A:.*]]: tensor<3x3xf16>, %[[B:.*]]: tensor<2x3xf16>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[X:.*]] = scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[EMPTY]]) -> (tensor<2x3xf32>) {
// CHECK:           %[[I:.*]] = arith.subi %{{.*}}, %[[STEP]] : index
// CHECK:           %[[AFTER:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %{{.*}}) -> (tensor<2x3xf32>) {
// CHECK:             %[[SUM:.*]] = scf.for %[[J:.*]] = %[[AFTER]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:               tensor.extract %[[A]][%[[J]], %[[I]]] : tensor<3x3xf16>
// CHECK:               arith.extf
// CHECK:               tensor.extract %[[W]][%[[K]], %[[J]]] : tensor<2x3xf32>
// CHECK:             tensor.extract %[[B]][%[[K]], %[[I]]] : tensor<2x3xf16>
// CHECK:             %[[R:.*]] = arith.subf %{{.*}}, %[[SUM]] : f32
// CHECK:             tensor.extract %[[A]][%[[I]], %[[I]]] : tensor<3x3xf16>
// CHECK:             %[[XKI:.*]] = arith.divf %[[R]], %{{.*}} : f32
// CHECK:             tensor.insert %[[XKI]] into %[[W]][%[[K]], %[[I]]] : tensor<2x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf16>)
// CHECK:           arith.truncf
func.func @triangular_solve_right_lower_f16(%a: tensor<3x3xf16>, %b: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %r = xla.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  func.return %r : tensor<2x3xf16>
}

// Unit diagonal, left side, transposed upper a: T[i][j] = a[j][i] is lower (forward),
// and a's diagonal is never read (no division).
// CHECK-LABEL: func.func @triangular_solve_unit_transposed
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[I]] step
// CHECK:               tensor.extract %{{.*}}[%[[J]], %[[I]]] : tensor<3x3xf32>
// CHECK:             %[[R:.*]] = arith.subf
// CHECK-NOT:         arith.divf
// CHECK:             tensor.insert %[[R]] into %{{.*}}[%[[I]], %[[K]]] : tensor<3x2xf32>
func.func @triangular_solve_unit_transposed(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = xla.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// Complex Cholesky, upper: A is Hermitian, A[i][j] = conj(a[j][i]), and U = L^H holds
// the conjugates. The pivot is real: sqrt(Re a[j][j] - sum_k<j |L[j][k]|^2), written
// with a zero imaginary part; the column below it is divided by it part by part.
// CHECK-LABEL: func.func @cholesky_complex_upper
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %{{.*}}) -> (tensor<3x3xcomplex<f32>>) {
// CHECK:           %[[SQUARES:.*]] = scf.for %{{.*}} = %{{.*}} to %[[J]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:             complex.re
// CHECK:             complex.im
// CHECK:           %[[AJJ:.*]] = tensor.extract %{{.*}}[%[[J]], %[[J]]] : tensor<3x3xcomplex<f32>>
// CHECK:           %[[RE:.*]] = complex.re %[[AJJ]] : complex<f32>
// CHECK:           %[[D:.*]] = arith.subf %[[RE]], %[[SQUARES]] : f32
// CHECK:           %[[PIVOT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[DIAGONAL:.*]] = complex.create %[[PIVOT]], %{{.*}} : complex<f32>
// CHECK:           tensor.insert %[[DIAGONAL]] into %[[W]][%[[J]], %[[J]]] : tensor<3x3xcomplex<f32>>
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W2:.*]] = %{{.*}}) -> (tensor<3x3xcomplex<f32>>) {
// CHECK:             arith.divf %{{.*}}, %[[PIVOT]] : f32
// CHECK:             arith.divf %{{.*}}, %[[PIVOT]] : f32
// CHECK:             %[[LIJ:.*]] = complex.create
// CHECK:             %[[NEG:.*]] = arith.negf
// CHECK:             %[[UJI:.*]] = complex.create %{{.*}}, %[[NEG]] : complex<f32>
// CHECK:             tensor.insert %[[UJI]] into %[[W2]][%[[J]], %[[I]]] : tensor<3x3xcomplex<f32>>
func.func @cholesky_complex_upper(%a: tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>> {
  %r = xla.cholesky %a, lower = false : tensor<3x3xcomplex<f32>>
  func.return %r : tensor<3x3xcomplex<f32>>
}

// Complex triangular solve with transpose_a = ADJOINT: T[i][j] = conj(a[j][i]), each
// element read conjugated; the pivot division is numpy's complex division.
// CHECK-LABEL: func.func @triangular_solve_complex_adjoint
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[I]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (complex<f64>) {
// CHECK:               %[[AJI:.*]] = tensor.extract %{{.*}}[%[[J]], %[[I]]] : tensor<3x3xcomplex<f64>>
// CHECK:               complex.im %[[AJI]]
// CHECK:               arith.negf
// CHECK:             tensor.extract %{{.*}}[%[[I]], %[[I]]] : tensor<3x3xcomplex<f64>>
// CHECK:             arith.divf
// CHECK:             tensor.insert %{{.*}} into %{{.*}}[%[[I]], %[[K]]] : tensor<3x2xcomplex<f64>>
func.func @triangular_solve_complex_adjoint(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>> {
  %r = xla.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = ADJOINT : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  func.return %r : tensor<3x2xcomplex<f64>>
}
