module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x6x6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}, {}]>}, %arg1: tensor<3x3x3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}) -> (tensor<8x6x6x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}, {}]>}, tensor<4xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<4xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<8x6x6x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x6x6x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<2.880000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [3] : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3] : (tensor<1x1x1x4xf32>) -> tensor<8x6x6x4xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<8x6x6x4xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<8x6x6x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x6x6x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_2 = stablehlo.constant dense<2.880000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.divide %8, %9 : tensor<4xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [3] : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x1x1x4xf32>) -> tensor<8x6x6x4xf32>
    %13 = stablehlo.subtract %0, %12 : tensor<8x6x6x4xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %15 = stablehlo.add %10, %14 : tensor<4xf32>
    %16 = stablehlo.rsqrt %15 : tensor<4xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [3] : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x4xf32>) -> tensor<8x6x6x4xf32>
    %19 = stablehlo.multiply %13, %18 : tensor<8x6x6x4xf32>
    %20 = call @relu(%19) : (tensor<8x6x6x4xf32>) -> tensor<8x6x6x4xf32>
    return %20, %3, %10 : tensor<8x6x6x4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @relu(%arg0: tensor<8x6x6x4xf32>) -> tensor<8x6x6x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x6x6x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x6x6x4xf32>
    return %1 : tensor<8x6x6x4xf32>
  }
}
