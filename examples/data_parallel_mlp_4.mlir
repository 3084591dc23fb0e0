module @jit_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<65536x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg3: tensor<65536x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<4x8xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<8x2xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<65536x4xf32>, tensor<4x8xf32>) -> tensor<65536x8xf32>
    %1 = stablehlo.tanh %0 : tensor<65536x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<65536x8xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<65536x8xf32>
    %4 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<65536x8xf32>, tensor<8x2xf32>) -> tensor<65536x2xf32>
    %5 = stablehlo.subtract %4, %arg3 : tensor<65536x2xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<65536x2xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<65536x2xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<65536x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<65536x2xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.310720e+05> : tensor<f32>
    %10 = stablehlo.divide %9, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.310720e+05> : tensor<f32>
    %11 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<65536x2xf32>
    %13 = stablehlo.multiply %12, %8 : tensor<65536x2xf32>
    %14 = stablehlo.dot_general %13, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<65536x2xf32>, tensor<65536x8xf32>) -> tensor<2x8xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<2x8xf32>) -> tensor<8x2xf32>
    %16 = stablehlo.dot_general %13, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<65536x2xf32>, tensor<8x2xf32>) -> tensor<65536x8xf32>
    %17 = stablehlo.multiply %16, %3 : tensor<65536x8xf32>
    %18 = stablehlo.multiply %17, %1 : tensor<65536x8xf32>
    %19 = stablehlo.add %17, %18 : tensor<65536x8xf32>
    %20 = stablehlo.dot_general %19, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<65536x8xf32>, tensor<65536x4xf32>) -> tensor<8x4xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<4x8xf32>
    %24 = stablehlo.subtract %arg0, %23 : tensor<4x8xf32>
    %cst_6 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
    %26 = stablehlo.multiply %25, %15 : tensor<8x2xf32>
    %27 = stablehlo.subtract %arg1, %26 : tensor<8x2xf32>
    return %24, %27, %10 : tensor<4x8xf32>, tensor<8x2xf32>, tensor<f32>
  }
}

