// What HLO cannot say is one located error.
// RUN: not %xla-opt %s -t hlo -split-input-file 2>&1 | FileCheck %s

func.func @main(%x: tensor<4x2xf32>) -> tensor<2x4xf32> {
  %0 = xla.all_to_all %x, split_dimension = 0, concat_dimension = 1, split_count = 2, replica_groups = [[0, 1]] : (tensor<4x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// CHECK: export_errors.mlir:5:3: error: 'xla.all_to_all' op HLO's array all-to-all splits and concatenates one dimension; this one splits 0 and concatenates 1

// -----

func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
// CHECK: error: no function @main in the program (functions: f, g)
