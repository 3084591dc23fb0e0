// RUN: xla-opt %s -p xla-spmd-partition --split-input-file --verify-diagnostics | filecheck %s

// Without shardings every device computes the whole program: the per-device program is
// the global one, run as one replica per device, its boundary recording the global
// types and each device's offset (all zero: every device holds everything).
// CHECK:       builtin.module attributes {xla.num_replicas = 2 : i32} {
// CHECK-NEXT:    func.func @main(%x: tensor<4xf32> {xla.global_type = tensor<4xf32>, xla.shard_offsets = dense<0> : tensor<2x1xi64>}) -> (tensor<4xf32> {xla.global_type = tensor<4xf32>, xla.shard_offsets = dense<0> : tensor<2x1xi64>}) {
// CHECK-NEXT:      %0 = xla.exponential %x : tensor<4xf32>
// CHECK-NEXT:      func.return %0 : tensor<4xf32>
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = xla.exponential %x : tensor<4xf32>
    func.return %0 : tensor<4xf32>
  }
}

// -----

// One partition: nothing to do.
// CHECK:       builtin.module attributes {mhlo.num_partitions = 1 : i32} {
// CHECK-NEXT:    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
module attributes {mhlo.num_partitions = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    func.return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{2 replicas of 2 partitions each: partitions of replicas are not supported}}
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    func.return %x : tensor<4xf32>
  }
}
