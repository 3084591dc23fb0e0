// RUN: xla-opt %s --split-input-file -t stablehlo | filecheck %s

// A sharded program goes out with its shardings, printed as Shardy prints them (JAX's
// MLIR and XLA read them back: tests/test_sharding_export.py), and its device counts;
// in a program of partitions the collectives are cross-partition (a channel handle,
// use_global_device_ids, empty groups spelled out) and replica_id is partition_id.

// CHECK:      builtin.module @xla_program attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT:   func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT:     %0 = "stablehlo.sine"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT:     %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT:       %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK:            %4 = "stablehlo.all_gather"(%3) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:       %5 = "stablehlo.collective_permute"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:       %6 = "stablehlo.all_to_all"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:       %7 = "stablehlo.partition_id"() : () -> tensor<ui32>
// CHECK-NEXT:       sdy.return %5 : tensor<4x4xf32>
// CHECK-NEXT:     } : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     func.return %2 : tensor<8x4xf32>
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = xla.sine %arg0 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x4xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
      %3 = xla.all_reduce %arg1, replica_groups = [[0, 2], [1, 3]], channel_id = 1 computation {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = xla.add %a, %b : tensor<f32>
        xla.return %s : tensor<f32>
      } : tensor<4x4xf32>
      %4 = xla.all_gather %3, all_gather_dim = 0, replica_groups = [] : (tensor<4x4xf32>) -> tensor<16x4xf32>
      %5 = xla.collective_permute %3, source_target_pairs = [[0, 1], [1, 0], [2, 3], [3, 2]] : tensor<4x4xf32>
      %6 = xla.all_to_all %5, split_dimension = 0, concat_dimension = 1, split_count = 2, replica_groups = [[0, 1], [2, 3]] : (tensor<4x4xf32>) -> tensor<2x8xf32>
      %7 = xla.replica_id : tensor<ui32>
      sdy.return %5 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    func.return %2 : tensor<8x4xf32>
  }
}

// -----

// A program written with shardings but without device counts has as many partitions
// as its meshes have devices.
// CHECK:      builtin.module @xla_program attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:   sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT:   func.func public @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
// CHECK-NEXT:     %0 = sdy.reshard %x <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT:     sdy.sharding_group %0 group_id=1 : tensor<8xf32>
sdy.mesh @mesh = <["x"=2]>
func.func @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.reshard %x <@mesh, [{}]> : tensor<8xf32>
  sdy.sharding_group %0 group_id=1 : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
