// What HLO cannot say is one located error.
// RUN: not %xla-opt %s -t hlo -split-input-file 2>&1 | FileCheck %s

func.func @main(%n: i32) -> i32 {
  func.return %n : i32
}
// CHECK: export_errors.mlir:4:1: error: 'func.func' op type i32 has no HLO shape (HLO's values are arrays, tuples and tokens)

// -----

func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
// CHECK: error: no function @main in the program (functions: f, g)
