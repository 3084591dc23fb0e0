module @jit__fun attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<4xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<4x16x8xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg3: tensor<4x16x4xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}) -> (tensor<4x8x4xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, tensor<4x4xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[4,1]<=[4]}"}, tensor<4xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[4]<=[4]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = stablehlo.custom_call @Sharding(%arg2) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
    %5 = stablehlo.custom_call @SPMDFullToShardShape(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16x8xf32>) -> tensor<1x16x8xf32>
    %6 = stablehlo.custom_call @Sharding(%arg3) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<4x16x4xf32>) -> tensor<4x16x4xf32>
    %7 = stablehlo.custom_call @SPMDFullToShardShape(%6) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16x4xf32>) -> tensor<1x16x4xf32>
    %8:3 = call @shmap_body(%1, %3, %5, %7) : (tensor<8x4xf32>, tensor<4xf32>, tensor<1x16x8xf32>, tensor<1x16x4xf32>) -> (tensor<1x8x4xf32>, tensor<1x4xf32>, tensor<1xf32>)
    %9 = stablehlo.custom_call @Sharding(%8#0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
    %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<1x8x4xf32>) -> tensor<4x8x4xf32>
    %11 = stablehlo.custom_call @Sharding(%8#1) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %12 = stablehlo.custom_call @SPMDShardToFullShape(%11) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<1x4xf32>) -> tensor<4x4xf32>
    %13 = stablehlo.custom_call @Sharding(%8#2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1xf32>) -> tensor<1xf32>
    %14 = stablehlo.custom_call @SPMDShardToFullShape(%13) {backend_config = "", mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<1xf32>) -> tensor<4xf32>
    return %10, %12, %14 : tensor<4x8x4xf32>, tensor<4x4xf32>, tensor<4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<1x16x8xf32>, %arg3: tensor<1x16x4xf32>) -> (tensor<1x8x4xf32> {jax.result_info = "[('devices',), None, None]"}, tensor<1x4xf32> {jax.result_info = "[('devices',), None]"}, tensor<1xf32> {jax.result_info = "[('devices',)]"}) {
    %0 = stablehlo.reshape %arg2 : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.reshape %arg3 : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
    %2 = stablehlo.dot_general %0, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %3 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %5 = stablehlo.add %2, %4 : tensor<16x4xf32>
    %6 = stablehlo.tanh %5 : tensor<16x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %8 = stablehlo.subtract %7, %6 : tensor<16x4xf32>
    %9 = stablehlo.subtract %6, %1 : tensor<16x4xf32>
    %10 = stablehlo.multiply %9, %9 : tensor<16x4xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %12 = stablehlo.multiply %11, %9 : tensor<16x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %14 = stablehlo.divide %13, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %15 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %17 = stablehlo.multiply %16, %12 : tensor<16x4xf32>
    %18 = stablehlo.multiply %17, %8 : tensor<16x4xf32>
    %19 = stablehlo.multiply %18, %6 : tensor<16x4xf32>
    %20 = stablehlo.add %18, %19 : tensor<16x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %22 = stablehlo.reshape %21 : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %24 = stablehlo.dot_general %20, %0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x4xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %26 = "stablehlo.all_reduce"(%25) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %43 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %cst_7 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %28 = stablehlo.divide %26, %27 : tensor<8x4xf32>
    %29 = "stablehlo.all_reduce"(%23) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %43 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %cst_8 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %31 = stablehlo.divide %29, %30 : tensor<4xf32>
    %32 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %43 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %33 = stablehlo.divide %32, %cst_9 : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %35 = stablehlo.multiply %34, %28 : tensor<8x4xf32>
    %36 = stablehlo.subtract %arg0, %35 : tensor<8x4xf32>
    %cst_11 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %38 = stablehlo.multiply %37, %31 : tensor<4xf32>
    %39 = stablehlo.subtract %arg1, %38 : tensor<4xf32>
    %40 = stablehlo.broadcast_in_dim %36, dims = [1, 2] : (tensor<8x4xf32>) -> tensor<1x8x4xf32>
    %41 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %42 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<1xf32>
    return %40, %41, %42 : tensor<1x8x4xf32>, tensor<1x4xf32>, tensor<1xf32>
  }
}

