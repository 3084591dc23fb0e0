// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s

// The 4- and 2-bit integers (S4, U4, S2, U2) and the 8-, 6- and 4-bit floats are XLA
// element types: constants (decimal and hexadecimal bit patterns), arithmetic, converts.

// CHECK-LABEL: func.func @narrow_ints
func.func @narrow_ints(%a: tensor<4xi4>, %b: tensor<4xui4>, %c: tensor<2xi2>, %d: tensor<2xui2>) -> (tensor<4xi4>, tensor<4xui4>, tensor<2xi2>, tensor<2xui2>) {
  // CHECK: xla.constant dense<[1, -8, 7, 0]> : tensor<4xi4>
  %ci = xla.constant dense<[1, -8, 7, 0]> : tensor<4xi4>
  // CHECK: xla.constant dense<[0, 15, 3, 8]> : tensor<4xui4>
  %cu = xla.constant dense<[0, 15, 3, 8]> : tensor<4xui4>
  // CHECK: xla.add %{{.*}}, %{{.*}} : tensor<4xi4>
  %0 = xla.add %a, %ci : tensor<4xi4>
  // CHECK: xla.multiply %{{.*}}, %{{.*}} : tensor<4xui4>
  %1 = xla.multiply %b, %cu : tensor<4xui4>
  // CHECK: xla.constant dense<[-2, 1]> : tensor<2xi2>
  %c2 = xla.constant dense<[-2, 1]> : tensor<2xi2>
  %2 = xla.subtract %c, %c2 : tensor<2xi2>
  // CHECK: xla.convert %{{.*}} : (tensor<2xi2>) -> tensor<2xui2>
  %3 = xla.convert %2 : (tensor<2xi2>) -> tensor<2xui2>
  func.return %0, %1, %2, %3 : tensor<4xi4>, tensor<4xui4>, tensor<2xi2>, tensor<2xui2>
}

// CHECK-LABEL: func.func @narrow_floats
func.func @narrow_floats(%x: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
  // CHECK: xla.constant dense<[1.000000e+00, 2.500000e+00, -4.480000e+02, 0.000000e+00]> : tensor<4xf8E4M3FN>
  %c = xla.constant dense<[1.0, 2.5, -448.0, 0.0]> : tensor<4xf8E4M3FN>
  // the bits of NaN, -0, the smallest subnormal and the lowest finite value
  // CHECK: xla.constant dense<[0x7f, -0.000000e+00, 1.953120e-03, -4.480000e+02]> : tensor<4xf8E4M3FN>
  %h = xla.constant dense<[0x7F, 0x80, 0x01, 0xFE]> : tensor<4xf8E4M3FN>
  %0 = xla.add %x, %c : tensor<4xf8E4M3FN>
  %1 = xla.multiply %0, %h : tensor<4xf8E4M3FN>
  // CHECK: xla.convert %{{.*}} : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %2 = xla.convert %1 : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
