// RUN: xla-opt %s -p xla-spmd-partition --mlir-pass-statistics -o /dev/null 2>&1 | filecheck %s

// --mlir-pass-statistics says what partitioning did: ops on shards, ops on replicated
// values, ops that fell back (by name: here a custom call, which has no rule, on a
// sharded operand, gathered for it) and the reshards emitted.
// CHECK:      XlaSpmdPartition
// CHECK-NEXT:   (S) 2 sharded-ops - Ops computed on their shards
// CHECK-NEXT:   (S) 1 replicated-ops - Ops computed whole: their operands and result are replicated
// CHECK-NEXT:   (S) 1 fallback-ops - Ops without a sharding rule: operands gathered, result re-sliced
// CHECK-NEXT:   (S) 1 fallback(xla.custom_call) - Ops of this kind that fell back
// CHECK-NEXT:   (S) 1 reshard(all_gather) - Reshards emitted of this kind
// CHECK-NEXT:   (S) 1 reshard(all_slice) - Reshards emitted of this kind
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["d"=2]>
  func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}, %s: tensor<f32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}, tensor<f32>) {
    %e = xla.exponential %x : tensor<8xf32>
    %c = xla.custom_call %e, call_target_name = "opaque" : (tensor<8xf32>) -> tensor<8xf32>
    %n = xla.negate %c : tensor<8xf32>
    %t = xla.tanh %s : tensor<f32>
    func.return %n, %t : tensor<8xf32>, tensor<f32>
  }
}
