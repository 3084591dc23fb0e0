// RUN: not xla-opt %s -p convert-xla-to-stablehlo 2>&1 | filecheck %s

// The pass reports an op with no single-device StableHLO meaning at its location,
// naming it, not as a traceback.
// CHECK: convert-xla-to-stablehlo-errors.mlir:10:3: error: 'xla.all_gather' op has no StableHLO equivalent in a single-device program (it is a replica collective)
// CHECK-NOT: Traceback
func.func @gather(%x: tensor<2xf32>) -> tensor<4xf32> {
  %y = xla.exponential %x : tensor<2xf32>
  // the all_gather is on line 10
  %0 = xla.all_gather %y, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
