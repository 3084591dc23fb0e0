// A chain of element-wise ops fuses in time of its length (issue 32: each fusion
// cloned the grown body, so n dependent adds took O(n^2): 37 s at n = 1,000): each
// consumer moves into its producer's body, so the pass creates no op but the last
// fused generic, and an input read again through the same map is read once.
// RUN: xla-opt %s -p convert-xla-to-linalg,linalg-fuse-elementwise | FileCheck %s
// RUN: xla-opt %s -p convert-xla-to-linalg,linalg-fuse-elementwise --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// CHECK:      linalg.generic {{.*}} ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[S0:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   %[[S1:.*]] = arith.mulf %[[A]], %[[S0]] : f32
// CHECK-NEXT:   %[[S2:.*]] = arith.subf %[[S1]], %[[B]] : f32
// CHECK-NEXT:   %[[S3:.*]] = arith.addf %[[S2]], %[[A]] : f32
// CHECK-NEXT:   linalg.yield %[[S3]] : f32
// CHECK-NOT:  linalg.generic
// STATS:      FuseElementwise
// STATS:        (S) 1 ops-created
func.func @chain(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %a, %b : tensor<4xf32>
  %1 = xla.multiply %a, %0 : tensor<4xf32>
  %2 = xla.subtract %1, %b : tensor<4xf32>
  %3 = xla.add %2, %a : tensor<4xf32>
  func.return %3 : tensor<4xf32>
}
