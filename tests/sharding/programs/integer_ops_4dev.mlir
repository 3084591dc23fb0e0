module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x6xi32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, tensor<6xi32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<8xi32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<i32> {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x6xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x6xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x6xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.reduce(%arg0 init: %c_0) applies stablehlo.add across dimensions = [0] : (tensor<8x6xi32>, tensor<i32>) -> tensor<6xi32>
    %c_1 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %4 = stablehlo.reduce(%arg1 init: %c_1) applies stablehlo.maximum across dimensions = [1] : (tensor<8x6xi32>, tensor<i32>) -> tensor<8xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.reduce(%0 init: %c_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x6xi32>, tensor<i32>) -> tensor<i32>
    return %2, %3, %4, %5 : tensor<8x6xi32>, tensor<6xi32>, tensor<8xi32>, tensor<i32>
  }
}
