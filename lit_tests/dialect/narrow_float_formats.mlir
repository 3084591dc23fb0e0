// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s

// Every 8-, 6- and 4-bit float format parses, verifies and prints back (apart from
// the round-trip examples sent to XLA: XLA's CPU client aborts on some of these).

// CHECK-LABEL: func.func @every_narrow_float
func.func @every_narrow_float(%x: tensor<2xf32>) {
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E5M2>
  %0 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E5M2>
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E4M3>
  %1 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E4M3>
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E3M4>
  %2 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E3M4>
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E4M3FNUZ>
  %3 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E4M3FNUZ>
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E5M2FNUZ>
  %4 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E5M2FNUZ>
  // CHECK: xla.convert %{{.*}} : (tensor<2xf32>) -> tensor<2xf8E4M3B11FNUZ>
  %5 = xla.convert %x : (tensor<2xf32>) -> tensor<2xf8E4M3B11FNUZ>
  // CHECK: xla.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf8E8M0FNU>
  %6 = xla.constant dense<[1.0, 0x7E]> : tensor<2xf8E8M0FNU>
  // CHECK: xla.constant dense<[7.500000e+00, -1.250000e-01]> : tensor<2xf6E2M3FN>
  %7 = xla.constant dense<[7.5, -0.125]> : tensor<2xf6E2M3FN>
  // CHECK: xla.constant dense<[2.800000e+01, 6.250000e-02]> : tensor<2xf6E3M2FN>
  %8 = xla.constant dense<[28.0, 0.0625]> : tensor<2xf6E3M2FN>
  // CHECK: xla.constant dense<[6.000000e+00, -5.000000e-01]> : tensor<2xf4E2M1FN>
  %9 = xla.constant dense<[6.0, 0x9]> : tensor<2xf4E2M1FN>
  func.return
}
