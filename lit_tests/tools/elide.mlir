// --mlir-elide-elementsattrs-if-larger=N: big constants elided as MLIR prints them.
// RUN: %xla-opt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s
// RUN: %xla-opt %s -mlir-elide-elementsattrs-if-larger 2 | FileCheck %s
// RUN: %xla-opt %s | FileCheck %s --check-prefix=FULL

// CHECK: xla.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: xla.constant dense_resource<__elided__> : tensor<3xf32>{{$}}
// FULL:  xla.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
func.func @f() -> (tensor<2xf32>, tensor<3xf32>) {
  %0 = xla.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = xla.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  func.return %0, %1 : tensor<2xf32>, tensor<3xf32>
}
