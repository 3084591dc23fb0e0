// Locations survive rewrites: an op a pattern creates takes the location of the op it
// replaces (the ops and block arguments inside it too), and function arguments are
// located at their names.
// RUN: %xla-opt %s -p xla-legalize-broadcast,convert-xla-to-linalg --mlir-print-debuginfo | FileCheck %s
// RUN: %xla-opt %s -p xla-legalize-broadcast,convert-xla-to-linalg --print-debuginfo | FileCheck %s
// Only the implicit module has no location.
// RUN: %xla-opt %s -p xla-legalize-broadcast,convert-xla-to-linalg --mlir-print-debuginfo | grep -c 'loc(unknown)' | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^1$}}

func.func @f(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.exponential %0 : tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// CHECK:       func.func @f(%a: tensor<2x3xf32> loc("{{.*}}locations.mlir":10:14), %v: tensor<3xf32> loc("{{.*}}locations.mlir":10:35))
// The broadcast xla-legalize-broadcast made explicit, then lowered: the xla.add's line
// CHECK:         tensor.empty() : tensor<2x3xf32> loc("{{.*}}locations.mlir":11:3)
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%{{.*}}: f32 loc("{{.*}}locations.mlir":11:3), %{{.*}}: f32 loc("{{.*}}locations.mlir":11:3)):
// CHECK-NEXT:      linalg.yield {{.*}} loc("{{.*}}locations.mlir":11:3)
// CHECK-NEXT:    } -> tensor<2x3xf32> loc("{{.*}}locations.mlir":11:3)
// CHECK:           arith.addf {{.*}} loc("{{.*}}locations.mlir":11:3)
// The exponential's line
// CHECK:           math.exp {{.*}} loc("{{.*}}locations.mlir":12:3)
// CHECK:         func.return {{.*}} loc("{{.*}}locations.mlir":13:3)
// CHECK-NEXT:  } loc("{{.*}}locations.mlir":10:1)
