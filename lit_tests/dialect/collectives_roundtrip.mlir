// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @replica_id
func.func @replica_id() -> tensor<ui32> {
  // CHECK: %{{.*}} = xla.replica_id : tensor<ui32>
  // GENERIC: "xla.replica_id"() : () -> tensor<ui32>
  %0 = xla.replica_id : tensor<ui32>
  func.return %0 : tensor<ui32>
}

// CHECK-LABEL: func.func @all_reduce
// GENERIC-LABEL: "func.func"() <{sym_name = "all_reduce"
func.func @all_reduce(%x: tensor<2xf32>, %y: tensor<3x2xf32>) {
  // The spec's example: a sum (CrossReplicaSum) among replicas 0 and 2, and 1 and 3.
  // CHECK: %{{.*}} = xla.all_reduce %{{.*}}, replica_groups = {{\[\[}}0, 2], [1, 3]], channel_id = 7 computation {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK-NEXT:   %{{.*}} = xla.add %{{.*}}, %{{.*}} : tensor<f32>
  // CHECK-NEXT:   xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: } : tensor<2xf32>
  // GENERIC: "xla.all_reduce"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, channel_id = 7 : i64}> ({
  %0 = xla.all_reduce %x, replica_groups = [[0, 2], [1, 3]], channel_id = 7 computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : tensor<2xf32>
  // Several inputs (the spec's tuple operand) and empty groups (all replicas).
  // CHECK: %{{.*}}, %{{.*}} = xla.all_reduce %{{.*}}, %{{.*}}, replica_groups = [] computation {
  // CHECK: } : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  // GENERIC: "xla.all_reduce"(%{{.*}}, %{{.*}}) <{replica_groups = dense<> : tensor<0x0xi64>}> ({
  %1:2 = xla.all_reduce %x, %y, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  func.return
}

// CHECK-LABEL: func.func @all_gather
// GENERIC-LABEL: "func.func"() <{sym_name = "all_gather"
func.func @all_gather(%x: tensor<2xf32>, %m: tensor<2x3xi32>) {
  // The spec's example: two replicas with [1.0, 2.5] and [3.0, 5.25] give 4 elements.
  // CHECK: %{{.*}} = xla.all_gather %{{.*}}, all_gather_dim = 0, replica_groups = {{\[\[}}0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
  // GENERIC: "xla.all_gather"(%{{.*}}) <{all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
  // CHECK: %{{.*}} = xla.all_gather %{{.*}}, all_gather_dim = 1, replica_groups = {{\[\[}}0, 2], [1, 3]], channel_id = 1, shard_count = 2 : (tensor<2x3xi32>) -> tensor<2x6xi32>
  %1 = xla.all_gather %m, all_gather_dim = 1, replica_groups = [[0, 2], [1, 3]], channel_id = 1, shard_count = 2 : (tensor<2x3xi32>) -> tensor<2x6xi32>
  // Empty groups: shard_count gives the group size.
  // CHECK: %{{.*}} = xla.all_gather %{{.*}}, all_gather_dim = 0, replica_groups = [], shard_count = 4 : (tensor<2x3xi32>) -> tensor<8x3xi32>
  %2 = xla.all_gather %m, all_gather_dim = 0, replica_groups = [], shard_count = 4 : (tensor<2x3xi32>) -> tensor<8x3xi32>
  // Neither says: any multiple of the operand's dimension.
  // CHECK: %{{.*}} = xla.all_gather %{{.*}}, all_gather_dim = 0, replica_groups = [] : (tensor<2x3xi32>) -> tensor<6x3xi32>
  %3 = xla.all_gather %m, all_gather_dim = 0, replica_groups = [] : (tensor<2x3xi32>) -> tensor<6x3xi32>
  func.return
}

// CHECK-LABEL: func.func @reduce_scatter
// GENERIC-LABEL: "func.func"() <{sym_name = "reduce_scatter"
func.func @reduce_scatter(%x: tensor<2xf32>, %m: tensor<4x6xf32>) {
  // The spec's example: two replicas, [1.0, 2.25] + [3.0, 5.25] scattered as [4.0] and [7.5].
  // CHECK: %{{.*}} = xla.reduce_scatter %{{.*}}, scatter_dimension = 0, replica_groups = {{\[\[}}0, 1]] computation {
  // CHECK: } : (tensor<2xf32>) -> tensor<1xf32>
  // GENERIC: "xla.reduce_scatter"(%{{.*}}) <{scatter_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
  %0 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [[0, 1]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2xf32>) -> tensor<1xf32>
  // CHECK: %{{.*}} = xla.reduce_scatter %{{.*}}, scatter_dimension = 1, replica_groups = {{\[\[}}0, 1, 2], [3, 4, 5]], channel_id = 3, shard_count = 3 computation {
  // CHECK: } : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %1 = xla.reduce_scatter %m, scatter_dimension = 1, replica_groups = [[0, 1, 2], [3, 4, 5]], channel_id = 3, shard_count = 3 computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>) -> tensor<4x2xf32>
  // Empty groups without shard_count: any divisor of the operand's dimension.
  // CHECK: %{{.*}} = xla.reduce_scatter %{{.*}}, scatter_dimension = 0, replica_groups = [] computation {
  // CHECK: } : (tensor<4x6xf32>) -> tensor<1x6xf32>
  %2 = xla.reduce_scatter %m, scatter_dimension = 0, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>) -> tensor<1x6xf32>
  func.return
}

// CHECK-LABEL: func.func @all_to_all
// GENERIC-LABEL: "func.func"() <{sym_name = "all_to_all"
func.func @all_to_all(%x: tensor<4x16xf32>, %y: tensor<6x3xi32>) {
  // The spec's example: f32[4,16] split 4 ways along dimension 1, concatenated along 0: f32[16,4].
  // CHECK: %{{.*}} = xla.all_to_all %{{.*}}, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = [] : (tensor<4x16xf32>) -> tensor<16x4xf32>
  // GENERIC: "xla.all_to_all"(%{{.*}}) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<> : tensor<0x0xi64>}> : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = [] : (tensor<4x16xf32>) -> tensor<16x4xf32>
  // The spec's groups {1, 2, 3} and {4, 5, 0}.
  // CHECK: %{{.*}} = xla.all_to_all %{{.*}}, split_dimension = 0, concat_dimension = 1, split_count = 3, replica_groups = {{\[\[}}1, 2, 3], [4, 5, 0]] : (tensor<6x3xi32>) -> tensor<2x9xi32>
  %1 = xla.all_to_all %y, split_dimension = 0, concat_dimension = 1, split_count = 3, replica_groups = [[1, 2, 3], [4, 5, 0]] : (tensor<6x3xi32>) -> tensor<2x9xi32>
  // Splitting and concatenating one dimension keeps the shape.
  // CHECK: %{{.*}} = xla.all_to_all %{{.*}}, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = {{\[\[}}0, 1]] : tensor<6x3xi32>
  %2 = xla.all_to_all %y, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = [[0, 1]] : tensor<6x3xi32>
  func.return
}

// CHECK-LABEL: func.func @collective_permute
// GENERIC-LABEL: "func.func"() <{sym_name = "collective_permute"
func.func @collective_permute(%x: tensor<2x2xf32>) {
  // CHECK: %{{.*}} = xla.collective_permute %{{.*}}, source_target_pairs = {{\[\[}}0, 1], [1, 2], [2, 0]] : tensor<2x2xf32>
  // GENERIC: "xla.collective_permute"(%{{.*}}) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = xla.collective_permute %x, source_target_pairs = [[0, 1], [1, 2], [2, 0]] : tensor<2x2xf32>
  // Replica 1 is no target: it receives zeros.
  // CHECK: %{{.*}} = xla.collective_permute %{{.*}}, source_target_pairs = {{\[\[}}0, 2]], channel_id = 4 : tensor<2x2xf32>
  %1 = xla.collective_permute %x, source_target_pairs = [[0, 2]], channel_id = 4 : tensor<2x2xf32>
  func.return
}
