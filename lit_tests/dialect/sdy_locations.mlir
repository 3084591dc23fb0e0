// A manual_computation's body arguments may carry locations, as JAX prints a
// shard_map's with debug info: they parse, and print back with --mlir-print-debuginfo.
// RUN: xla-opt %s --mlir-print-debuginfo | filecheck %s
// CHECK: manual_axes={"x"} (%arg1: tensor<2xf32> loc("x.py":3:4)) {
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<2xf32> loc("x.py":3:4)) {
      %1 = xla.add %arg1, %arg1 : tensor<2xf32>
      sdy.return %1 : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %0 : tensor<4xf32>
  }
}
