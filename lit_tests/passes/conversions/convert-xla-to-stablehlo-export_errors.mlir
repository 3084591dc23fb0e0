// RUN: not xla-opt %s -t stablehlo 2>&1 | filecheck %s

// Ops with no meaning in a single-device StableHLO program are a located error, not a
// traceback.
// CHECK: convert-xla-to-stablehlo-export_errors.mlir:9:3: error: 'xla.infeed' op has no StableHLO equivalent in a single-device program (it reads the host's infeed queue)
// CHECK-NOT: Traceback
func.func @feed(%t: !xla.token) -> !xla.token {
  // the infeed is on line 9
  %x, %t1 = xla.infeed %t : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return %t1 : !xla.token
}
