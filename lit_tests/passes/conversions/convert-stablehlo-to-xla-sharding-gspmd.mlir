// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file | filecheck %s

// GSPMD's form (JAX 0.10 with jax_use_shardy_partitioner off) becomes Shardy's: a mesh
// of the shardings' device factors, mhlo.sharding on arguments and results as
// sdy.sharding, Sharding custom calls as sdy.sharding_constraint. The program below is
// jax.jit(f, in_shardings=P("x", None), out_shardings=P(None, ("x", "y"))) with a
// constraint to P("y", "x") on a 2x2 mesh: "x" is _axis_0, "y" _axis_1 (the iota's
// transpose T(1,0) swaps them).

// CHECK-LABEL: builtin.module @jit_f1 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_0 = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{"_axis_0"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{}, {"_axis_0", "_axis_1"}]>}) {
// CHECK:           %2 = sdy.sharding_constraint %1 <@mesh_gspmd_0, [{"_axis_1"}, {"_axis_0"}]> : tensor<8x4xf32>
// CHECK:           %4 = xla.add %2, %3 : tensor<8x4xf32>
module @jit_f1 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8x4xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[1,4]<=[4]}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x4xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<8x4xf32>
    return %4 : tensor<8x4xf32>
  }
}

// -----

// shard_map: SPMDFullToShardShape ... SPMDShardToFullShape and the body JAX calls,
// inlined, as an sdy.manual_computation manual on every axis ({manual}); the Sharding
// before each entry gives its in_sharding, each exit its out_sharding.

// CHECK-LABEL: builtin.module @jit_g3
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_0 = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<16x2xf32> {
// CHECK-NEXT:      %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_gspmd_0, [{"_axis_0"}, {"_axis_1"}]>] out_shardings=[<@mesh_gspmd_0, [{"_axis_0"}, {}]>] manual_axes={"_axis_0", "_axis_1"} (%[[A:.*]]: tensor<4x2xf32>) {
// CHECK-NEXT:        %1 = xla.all_gather %[[A]], all_gather_dim = 0, replica_groups = {{\[\[}}0, 1], [2, 3]], channel_id = 1 : (tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:        %2 = xla.collective_permute %1, source_target_pairs = {{\[\[}}0, 2], [2, 0], [1, 3], [3, 1]], channel_id = 1 : tensor<8x2xf32>
// CHECK-NEXT:        sdy.return %2 : tensor<8x2xf32>
// CHECK-NEXT:      } : (tensor<8x4xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:      func.return %0 : tensor<16x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module @jit_g3 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<16x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x2xf32>
    %2 = call @shmap_body(%1) : (tensor<4x2xf32>) -> tensor<8x2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x2xf32>) -> tensor<8x2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x2xf32>) -> tensor<16x2xf32>
    return %4 : tensor<16x2xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x2xf32>) -> (tensor<8x2xf32> {jax.result_info = "[('x',), None]"}) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x2xf32>) -> tensor<8x2xf32>
    %1 = "stablehlo.collective_permute"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>
    return %1 : tensor<8x2xf32>
  }
}

// -----

// shard_map manual over the first axis only (axis_names={"x"}): the manual axes are
// those of last_tile_dims={manual, ...}; unspecified_dims are open dimensions; the
// Sharding on psum's scalars (in its reducer) is dropped.

// CHECK-LABEL: builtin.module @jit_partial
// CHECK:         sdy.manual_computation(%arg0) in_shardings=[<@mesh_gspmd_0, [{"_axis_0", ?}, {?}]>] out_shardings=[<@mesh_gspmd_0, [{?}, {?}]>] manual_axes={"_axis_0"} (%[[A:.*]]: tensor<4x4xf32>) {
// CHECK-NEXT:      %{{.*}} = xla.all_reduce %[[A]], replica_groups = {{\[\[}}0, 2], [1, 3]], channel_id = 1 computation {
// CHECK-NEXT:      ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
// CHECK-NEXT:        %{{.*}} = xla.add
// CHECK-NEXT:        xla.return
// CHECK-NEXT:      } : tensor<4x4xf32>
// CHECK-NEXT:      %[[C:.*]] = sdy.sharding_constraint %{{.*}} <@mesh_gspmd_0, [{?}, {?}]> : tensor<4x4xf32>
// CHECK-NEXT:      sdy.return %[[C]] : tensor<4x4xf32>
// CHECK-NEXT:    } : (tensor<8x4xf32>) -> tensor<4x4xf32>
module @jit_partial attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2 = call @shmap_body(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %4 : tensor<4x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "[None, None]"}) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
      %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<f32>) -> tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// pmap's data-parallel step (examples/data_parallel_step_2.mlir, trimmed): replicated
// entries keep their global type, the batch is split; several entries and exits make
// one manual computation.

// CHECK-LABEL: builtin.module @jit__fun
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_0 = <["_axis_0"=2]>
// CHECK-NEXT:    func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{}]>}, %arg1: tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{"_axis_0"}, {}, {}]>})
// CHECK-SAME:      -> (tensor<2x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{"_axis_0"}, {}, {}]>}, tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_0, [{"_axis_0"}]>}) {
// CHECK-NEXT:      %0, %1 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_gspmd_0, [{}]>, <@mesh_gspmd_0, [{"_axis_0"}, {}, {}]>] out_shardings=[<@mesh_gspmd_0, [{"_axis_0"}, {}, {}]>, <@mesh_gspmd_0, [{"_axis_0"}]>] manual_axes={"_axis_0"} (%[[B:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<1x16x4xf32>) {
// CHECK-NEXT:        %[[BB:.*]] = xla.broadcast_in_dim %[[B]], broadcast_dimensions = [2] : (tensor<4xf32>) -> tensor<1x16x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = xla.add %[[X]], %[[BB]] : tensor<1x16x4xf32>
// CHECK-NEXT:        %{{.*}} = xla.reshape %[[B]] : tensor<4xf32>
// CHECK:             sdy.return %[[Y]], %{{.*}} : tensor<1x16x4xf32>, tensor<1xf32>
// CHECK-NEXT:      } : (tensor<4xf32>, tensor<2x16x4xf32>) -> (tensor<2x16x4xf32>, tensor<2xf32>)
// CHECK-NEXT:      func.return %0, %1 : tensor<2x16x4xf32>, tensor<2xf32>
// The callee, inlined, is gone.
// CHECK-NOT:   @shmap_body
module @jit__fun attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<2x16x4xf32> {mhlo.sharding = "{devices=[2,1,1]<=[2]}"}) -> (tensor<2x16x4xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,1,1]<=[2]}"}, tensor<2xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2]<=[2]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[2,1,1]<=[2]}"} : (tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<2x16x4xf32>) -> tensor<1x16x4xf32>
    %4:2 = call @shmap_body(%1, %3) : (tensor<4xf32>, tensor<1x16x4xf32>) -> (tensor<1x16x4xf32>, tensor<1xf32>)
    %5 = stablehlo.custom_call @Sharding(%4#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x16x4xf32>) -> tensor<1x16x4xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[2,1,1]<=[2]}"} : (tensor<1x16x4xf32>) -> tensor<2x16x4xf32>
    %7 = stablehlo.custom_call @Sharding(%4#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1xf32>) -> tensor<1xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<1xf32>) -> tensor<2xf32>
    return %6, %8 : tensor<2x16x4xf32>, tensor<2xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4xf32>, %arg1: tensor<1x16x4xf32>) -> (tensor<1x16x4xf32> {jax.result_info = "[('devices',), None, None]"}, tensor<1xf32> {jax.result_info = "[('devices',)]"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<4xf32>) -> tensor<1x16x4xf32>
    %1 = stablehlo.add %arg1, %0 : tensor<1x16x4xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %4 = stablehlo.reshape %3 : (tensor<f32>) -> tensor<1xf32>
    return %1, %4 : tensor<1x16x4xf32>, tensor<1xf32>
  }
}

// -----

// An explicit device list that is no iota is a mesh of its own, with the list as its
// device order; a maximal sharding is a maximal mesh; a tuple sharding on an op with
// two results is one sharding per result; shard_as / shard_like are sharding groups.

// CHECK-LABEL: builtin.module @jit_devices
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_0 = <["_axis_0"=4]>
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_1 = <["_axis_0"=2, "_axis_1"=2], device_ids=[0, 3, 1, 2]>
// CHECK-NEXT:    sdy.mesh @mesh_gspmd_maximal_2 = <[], device_ids=[2]>
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_1, [{"_axis_0"}, {"_axis_1"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_gspmd_maximal_2, []>}) -> tensor<8xf32> {
// CHECK-NEXT:      %0 = sdy.sharding_constraint %arg1 <@mesh_gspmd_0, [{"_axis_0"}]> : tensor<8xf32>
// CHECK-NEXT:      sdy.sharding_group %0 group_id=3 : tensor<8xf32>
// CHECK-NEXT:      sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
// CHECK-NEXT:      %1, %2 = xla.optimization_barrier %0, %arg1 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh_gspmd_0, [{"_axis_0"}]>, <@mesh_gspmd_0, [{}]>]>} : tensor<8xf32>
module @jit_devices attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,2]0,3,1,2}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{maximal device=2}"}) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4] shard_as 3}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", has_side_effect = true, mhlo.sharding = "{unknown shard_like 3}"} : (tensor<8xf32>) -> tensor<8xf32>
    %2:2 = stablehlo.optimization_barrier %0, %1 {mhlo.sharding = "{{devices=[4]<=[4]}, {replicated}}"} : tensor<8xf32>, tensor<8xf32>
    %3 = stablehlo.add %2#0, %2#1 : tensor<8xf32>
    return %3 : tensor<8xf32>
  }
}

// -----

// On one device the GSPMD shardings are dropped, as before.

// CHECK-LABEL: builtin.module @jit_one {
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:      %cst = xla.constant
module @jit_one attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<8x4xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
