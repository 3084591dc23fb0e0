// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// CHECK-LABEL: func.func @tokens
// CHECK-SAME: (%t: !xla.token, %x: tensor<2xf32>) -> !xla.token
func.func @tokens(%t: !stablehlo.token, %x: tensor<2xf32>) -> !stablehlo.token {
  // CHECK: %[[T0:.*]] = xla.after_all : !xla.token
  %t0 = stablehlo.after_all : !stablehlo.token
  // CHECK-NEXT: %[[T1:.*]] = xla.after_all %{{.*}}, %[[T0]] : !xla.token
  %t1 = stablehlo.after_all %t, %t0 : !stablehlo.token
  // CHECK-NEXT: %{{.*}}, %[[T2:.*]] = xla.infeed %[[T1]] : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %d:2 = "stablehlo.infeed"(%t1) <{infeed_config = ""}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  // CHECK-NEXT: %[[T3:.*]] = xla.outfeed %{{.*}}, %[[T2]] : (tensor<2xf32>, !xla.token) -> !xla.token
  %t3 = "stablehlo.outfeed"(%d#0, %d#1) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK-NEXT: %[[T4:.*]] = xla.send %{{.*}}, %[[T3]], channel_id = 5, is_host_transfer = true : (tensor<2xf32>, !xla.token) -> !xla.token
  %t4 = "stablehlo.send"(%x, %t3) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK-NEXT: xla.recv %[[T4]], channel_id = 6, is_host_transfer = true : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %r:2 = "stablehlo.recv"(%t4) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  // CHECK: xla.after_all : !xla.token
  %t5 = stablehlo.create_token : !stablehlo.token
  return %r#1 : !stablehlo.token
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<4xf32>) -> (tensor<ui32>, tensor<4xf32>, tensor<8xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: xla.replica_id : tensor<ui32>
  %id = stablehlo.replica_id : tensor<ui32>
  // CHECK: xla.all_reduce %{{.*}}, replica_groups = {{\[}}[0, 1]], channel_id = 1 computation {
  // CHECK: xla.add
  // CHECK: } : tensor<4xf32>
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: xla.all_gather %{{.*}}, all_gather_dim = 0, replica_groups = {{\[}}[0, 1]] : (tensor<4xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  // CHECK: xla.reduce_scatter %{{.*}}, scatter_dimension = 0, replica_groups = {{\[}}[0, 1]] computation {
  %2 = "stablehlo.reduce_scatter"(%x) <{scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  // CHECK: xla.all_to_all %{{.*}}, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = {{\[}}[0, 1]] : tensor<4xf32>
  %3 = "stablehlo.all_to_all"(%x) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: xla.collective_permute %{{.*}}, source_target_pairs = {{\[}}[0, 1], [1, 0]] : tensor<4xf32>
  %4 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %id, %0, %1, %2, %3, %4 : tensor<ui32>, tensor<4xf32>, tensor<8xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Groups of different sizes, padded with -1 as StableHLO spells them, stay padded.
// CHECK-LABEL: func.func @groups_of_different_sizes
func.func @groups_of_different_sizes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: xla.all_reduce %{{.*}}, replica_groups = {{\[}}[0, 2, -1], [1, 3, 4]] computation {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 2, -1], [1, 3, 4]]> : tensor<2x3xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
