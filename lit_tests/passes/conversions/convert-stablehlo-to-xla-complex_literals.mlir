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

// A hexadecimal part is the IEEE bits of the part's type (issue 31: JAX prints a
// complex NaN or infinity this way; it was read as the integer 2143289344).

// CHECK-LABEL: func.func @hexadecimal_parts
func.func @hexadecimal_parts() -> (tensor<complex<f32>>, tensor<2xcomplex<f64>>) {
  // CHECK: xla.constant dense<(0x7fc00000,1.000000e+00)> : tensor<complex<f32>>
  %0 = stablehlo.constant dense<(0x7FC00000,0x3F800000)> : tensor<complex<f32>>
  // CHECK: xla.constant dense<[(0x7ff0000000000001,-0.000000e+00), (0xfff0000000000000,2.500000e+00)]> : tensor<2xcomplex<f64>>
  %1 = stablehlo.constant dense<[(0x7FF0000000000001, 0x8000000000000000), (0xFFF0000000000000, 2.5)]> : tensor<2xcomplex<f64>>
  return %0, %1 : tensor<complex<f32>>, tensor<2xcomplex<f64>>
}
