// A location's line beyond i64 (2^64) is kept and reported as written, as MLIR reads it
// (unsigned): never an internal error (issue 31, the fuzzers' 2^64 literals).
// RUN: not xla-opt %s 2>&1 | FileCheck %s
// CHECK: x.py:18446744073709551616:3: error: 'xla.add' op shapes [4] and [3] are incompatible
// CHECK-NOT: internal error
func.func @location_line_of_2_to_the_64(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  %r = xla.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32> loc("x.py":18446744073709551616:3)
  func.return %r : tensor<4xf32>
}
