// RUN: xla-opt %s --split-input-file --verify-diagnostics

// ---- replica groups (checked the same way by every collective) ----

func.func @replica_groups_negative_id(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups [[-1, 0]] has negative replica ids [-1]}}
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[-1, 0]] : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @replica_groups_repeated_id(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups [[0, 1], [1, 2]] has repeated replica ids [1]}}
  %0 = xla.all_to_all %x, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = [[0, 1], [1, 2]] : tensor<2xf32>
  func.return
}

// -----

func.func @replica_groups_empty_groups(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups [[]] has empty groups}}
  %0 = "xla.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<1x0xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @replica_groups_not_a_matrix(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups must be a rank-2 i64 tensor, got tensor<2xi64>}}
  %0 = "xla.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[0, 1]> : tensor<2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @replica_groups_not_i64(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups must be a rank-2 i64 tensor, got tensor<1x2xi32>}}
  %0 = "xla.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi32>}> : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

// ---- all_reduce ----

func.func @all_reduce_no_inputs() {
  // expected-error @+1 {{all_reduce needs at least one input}}
  "xla.all_reduce"() <{replica_groups = dense<> : tensor<0x0xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : () -> ()
  func.return
}

// -----

func.func @all_reduce_mixed_element_types(%x: tensor<2xf32>, %y: tensor<2xi32>) {
  // expected-error @+1 {{input #1 element type i32 differs from input #0's f32}}
  %0:2 = xla.all_reduce %x, %y, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2xf32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @all_reduce_bad_replica_groups(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups [[0, 1], [2, 0]] has repeated replica ids [0]}}
  %0 = xla.all_reduce %x, replica_groups = [[0, 1], [2, 0]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : tensor<2xf32>
  func.return
}

// -----

// The groups partition the replicas: every id 0..N-1 exactly once (issue 13).
func.func @all_reduce_replica_groups_with_a_gap(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups [[0, 1, 3]] must hold every replica id 0..2 exactly once; it misses [2]}}
  %0 = xla.all_reduce %x, replica_groups = [[0, 1, 3]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : tensor<2xf32>
  func.return
}

// -----

func.func @all_to_all_replica_groups_with_a_gap(%x: tensor<4xf32>) {
  // expected-error @+1 {{replica_groups [[0, 2], [4, 1]] must hold every replica id 0..3 exactly once; it misses [3]}}
  %0 = xla.all_to_all %x, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = [[0, 2], [4, 1]] : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @all_reduce_computation_arguments(%x: tensor<2xf32>) {
  // expected-error @+1 {{computation must take (tensor<f32>, tensor<f32>), but takes (tensor<2xf32>, tensor<2xf32>)}}
  %0 = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    xla.return %a : tensor<2xf32>
  } : tensor<2xf32>
  func.return
}

// -----

func.func @all_reduce_computation_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{computation must return (tensor<f32>), but returns (tensor<f32>, tensor<f32>)}}
  %0 = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a, %b : tensor<f32>, tensor<f32>
  } : tensor<2xf32>
  func.return
}

// -----

func.func @all_reduce_result_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{inferred result type tensor<2xf32> does not match declared tensor<4xf32>}}
  %0 = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

// ---- all_gather ----

func.func @all_gather_dim_out_of_range(%x: tensor<2xf32>) {
  // expected-error @+1 {{all_gather_dim [1] out of range [0, 1): [1]}}
  %0 = xla.all_gather %x, all_gather_dim = 1, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @all_gather_wrong_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{inferred result type tensor<4xf32> does not match declared tensor<6xf32>}}
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @all_gather_shard_count_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<2x12xf32> does not match declared tensor<2x6xf32>}}
  %0 = xla.all_gather %x, all_gather_dim = 1, replica_groups = [], shard_count = 4 : (tensor<2x3xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

func.func @all_gather_shard_count_differs(%x: tensor<2xf32>) {
  // expected-error @+1 {{shard_count 3 differs from the replica group size 2 of replica_groups [[0, 1]]}}
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 1]], shard_count = 3 : (tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @all_gather_shard_count_zero(%x: tensor<2xf32>) {
  // expected-error @+1 {{shard_count must be positive, got 0}}
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [], shard_count = 0 : tensor<2xf32>
  func.return
}

// -----

func.func @all_gather_unknown_group_not_multiple(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result dimension 1 of size 7 is not a multiple of the operand's 3}}
  %0 = xla.all_gather %x, all_gather_dim = 1, replica_groups = [] : (tensor<2x3xf32>) -> tensor<2x7xf32>
  func.return
}

// -----

func.func @all_gather_unknown_group_other_dimension(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result shape [4, 6] and operand shape [2, 3] must differ only in dimension 1}}
  %0 = xla.all_gather %x, all_gather_dim = 1, replica_groups = [] : (tensor<2x3xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @all_gather_element_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{result element type i32 differs from the operand's f32}}
  %0 = xla.all_gather %x, all_gather_dim = 0, replica_groups = [] : (tensor<2xf32>) -> tensor<4xi32>
  func.return
}

// -----

// ---- reduce_scatter ----

func.func @reduce_scatter_not_divisible(%x: tensor<5xf32>) {
  // expected-error @+1 {{scatter_dimension 0 of size 5 is not divisible by the replica group size 2}}
  %0 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [[0, 1]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<5xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_scatter_dimension_out_of_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{scatter_dimension [-1] out of range [0, 1): [-1]}}
  %0 = xla.reduce_scatter %x, scatter_dimension = -1, replica_groups = [[0, 1]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_scatter_wrong_result(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{inferred result type tensor<4x2xf32> does not match declared tensor<4x3xf32>}}
  %0 = xla.reduce_scatter %x, scatter_dimension = 1, replica_groups = [[0, 1, 2]] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @reduce_scatter_shard_count_differs(%x: tensor<4xf32>) {
  // expected-error @+1 {{shard_count 4 differs from the replica group size 2 of replica_groups [[0, 1]]}}
  %0 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [[0, 1]], shard_count = 4 computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_scatter_unknown_group_not_divisor(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand dimension 0 of size 4 is not a multiple of the result's 3}}
  %0 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @reduce_scatter_computation(%x: tensor<4xf32>) {
  // expected-error @+1 {{computation must take (tensor<f32>, tensor<f32>), but takes (tensor<i32>, tensor<i32>)}}
  %0 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [[0, 1]] computation {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    xla.return %a : tensor<i32>
  } : (tensor<4xf32>) -> tensor<2xf32>
  func.return
}

// -----

// ---- all_to_all ----

func.func @all_to_all_split_not_divisible(%x: tensor<4x15xf32>) {
  // expected-error @+1 {{split_dimension 1 of size 15 is not divisible by split_count 4}}
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = [] : (tensor<4x15xf32>) -> tensor<16x4xf32>
  func.return
}

// -----

func.func @all_to_all_split_count_differs_from_groups(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{split_count 4 differs from the replica group size 2}}
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = [[0, 1], [2, 3]] : (tensor<4x16xf32>) -> tensor<16x4xf32>
  func.return
}

// -----

func.func @all_to_all_split_count_zero(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{split_count must be positive, got 0}}
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 0, replica_groups = [] : tensor<4x16xf32>
  func.return
}

// -----

func.func @all_to_all_split_dimension_out_of_range(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{split_dimension [2] out of range [0, 2): [2]}}
  %0 = xla.all_to_all %x, split_dimension = 2, concat_dimension = 0, split_count = 4, replica_groups = [] : tensor<4x16xf32>
  func.return
}

// -----

func.func @all_to_all_concat_dimension_out_of_range(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{concat_dimension [5] out of range [0, 2): [5]}}
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 5, split_count = 4, replica_groups = [] : tensor<4x16xf32>
  func.return
}

// -----

func.func @all_to_all_wrong_result(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{inferred result type tensor<16x4xf32> does not match declared tensor<4x16xf32>}}
  %0 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 4, replica_groups = [] : tensor<4x16xf32>
  func.return
}

// -----

// ---- collective_permute ----

func.func @collective_permute_repeated_source(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs [[0, 1], [0, 2]] has repeated sources [0]}}
  %0 = xla.collective_permute %x, source_target_pairs = [[0, 1], [0, 2]] : tensor<2xf32>
  func.return
}

// -----

func.func @collective_permute_repeated_target(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs [[0, 2], [1, 2]] has repeated targets [2]}}
  %0 = xla.collective_permute %x, source_target_pairs = [[0, 2], [1, 2]] : tensor<2xf32>
  func.return
}

// -----

func.func @collective_permute_negative_id(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs [[0, -1]] has negative replica ids [-1]}}
  %0 = xla.collective_permute %x, source_target_pairs = [[0, -1]] : tensor<2xf32>
  func.return
}

// -----

func.func @collective_permute_not_pairs(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs [[0, 1, 2]] must be pairs [source, target]}}
  %0 = xla.collective_permute %x, source_target_pairs = [[0, 1, 2]] : tensor<2xf32>
  func.return
}

// -----

func.func @collective_permute_result_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{inferred result type tensor<2xf32> does not match declared tensor<2xf64>}}
  %0 = xla.collective_permute %x, source_target_pairs = [[0, 1]] : (tensor<2xf32>) -> tensor<2xf64>
  func.return
}

// -----

// ---- replica_id ----

func.func @replica_id_signed() {
  // expected-error @+1 {{inferred result type tensor<ui32> does not match declared tensor<i32>}}
  %0 = xla.replica_id : tensor<i32>
  func.return
}
