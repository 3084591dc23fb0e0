// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file | filecheck %s

// A sharded program keeps its Shardy shardings: the mesh, the argument and result
// shardings, the constraints, the module's device counts (JAX 0.10's output for
// jax.jit(f, in_shardings=P("x", None), out_shardings=P(None, ("x", "y"))) with a
// with_sharding_constraint to P("y", "x"), on a 2x2 mesh).

// CHECK-LABEL: builtin.module @jit_f1 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT:    sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) {
// CHECK:           %1 = xla.multiply %arg0, %0 : tensor<8x4xf32>
// CHECK-NEXT:      %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
// CHECK:           %4 = xla.add %2, %3 : tensor<8x4xf32>
module @jit_f1 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<8x4xf32>
    return %4 : tensor<8x4xf32>
  }
}

// -----

// shard_map: an sdy.manual_computation, its body converted (JAX 0.10's output for
// shard_map(lambda a: psum(a * 2, "x"), in_specs=P("x"), out_specs=P()) on a 2x2 mesh).

// CHECK-LABEL: builtin.module @jit_g
// CHECK:         %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT:      %cst = xla.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:      %1 = xla.broadcast_in_dim %cst, broadcast_dimensions = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:      %2 = xla.multiply %arg1, %1 : tensor<4xf32>
// CHECK-NEXT:      %3 = xla.all_reduce %2, replica_groups = {{\[\[}}0, 2], [1, 3]], channel_id = 1 computation {
// CHECK:           sdy.return %3 : tensor<4xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<4xf32>
module @jit_g attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x", "y"} (%arg1: tensor<4xf32>) {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %2 = stablehlo.multiply %arg1, %1 : tensor<4xf32>
      %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      sdy.return %3 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// shard_map manual over "x" only (axis_names={"x"}): open dimensions, and the
// constraint JAX puts in psum's reducer (on scalars, it constrains nothing) dropped.

// CHECK-LABEL: builtin.module @jit_partial
// CHECK:         sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT:      xla.all_reduce %arg1, replica_groups = {{\[\[}}0, 2], [1, 3]], channel_id = 1 computation {
// CHECK-NEXT:      ^{{.*}}(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT:        %{{.*}} = xla.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT:        xla.return
// CHECK-NOT:     sdy.sharding_constraint
module @jit_partial attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
        %3 = sdy.sharding_constraint %2 <@mesh, []> : tensor<f32>
        stablehlo.return %3 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %1 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// A constraint in a conditional's branch stays (the branch receives the captured
// value as its operand); shard_alike's sharding groups stay; an op's result shardings
// (sdy.sharding) stay on the xla op that replaces it.

// CHECK-LABEL: builtin.module @jit_branch
// CHECK:         xla.conditional
// CHECK:         }, {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: tensor<8x4xf32>):
// CHECK-NEXT:      %{{.*}} = sdy.sharding_constraint %[[A]] <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
// CHECK:         sdy.sharding_group %arg0 group_id=0 : tensor<8x4xf32>
// CHECK-NEXT:    sdy.sharding_group %{{.*}} group_id=0 : tensor<8x4xf32>
// CHECK:         xla.add %{{.*}}, %{{.*}} attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x4xf32>
module @jit_branch attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = "stablehlo.case"(%arg1) ({
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
      %2 = stablehlo.multiply %arg0, %1 : tensor<8x4xf32>
      stablehlo.return %2 : tensor<8x4xf32>
    }, {
      %1 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
      stablehlo.return %1 : tensor<8x4xf32>
    }) : (tensor<i32>) -> tensor<8x4xf32>
    sdy.sharding_group %arg0 group_id=0 : tensor<8x4xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x4xf32>
    %3 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x4xf32>
    return %3 : tensor<8x4xf32>
  }
}

// -----

// Only for propagation: a named computation is inlined, a propagation barrier is its
// operand.

// CHECK-LABEL: builtin.module @jit_named
// CHECK:         %0 = xla.sine %arg0 : tensor<8xf32>
// CHECK-NEXT:    func.return %0 : tensor<8xf32>
module @jit_named attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
    %1 = sdy.named_computation<"inner">(%0) in_shardings=[<@mesh, [{"x"}]>] (%arg1: tensor<8xf32>) {
      %2 = stablehlo.sine %arg1 : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}

// -----

// On one device (mhlo.num_partitions = 1) the shardings mean nothing and are dropped,
// a manual computation inlined, as before.

// CHECK-LABEL: builtin.module @jit_one {
// CHECK-NEXT:    func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:      %0 = xla.multiply %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT:      func.return %0 : tensor<8xf32>
module @jit_one attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
      %1 = stablehlo.multiply %arg1, %arg1 : tensor<8xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{}]> : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
