// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// Complex constants whose parts mix integer and float literals, as StableHLO and MLIR
// accept them (issue 13): each part is read as a real literal of the element type.

// CHECK-LABEL: func.func @mixed
func.func @mixed() -> (tensor<complex<f32>>, tensor<2xcomplex<f64>>) {
  // CHECK: xla.constant dense<(1.500000e+00,2.000000e+00)> : tensor<complex<f32>>
  %0 = stablehlo.constant dense<(1.5, 2)> : tensor<complex<f32>>
  // CHECK: xla.constant dense<[(0.000000e+00,1.000000e+00), (2.000000e+00,3.500000e+00)]> : tensor<2xcomplex<f64>>
  %1 = stablehlo.constant dense<[(0.0, 1), (2, 3.5)]> : tensor<2xcomplex<f64>>
  return %0, %1 : tensor<complex<f32>>, tensor<2xcomplex<f64>>
}
