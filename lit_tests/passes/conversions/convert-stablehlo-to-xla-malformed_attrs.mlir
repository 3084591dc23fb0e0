// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// Malformed attributes are errors; the importer never re-chunks them (issue 13).

func.func @padding_of_rank_3(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{malformed attribute: expected a rank-2 integer tensor, got tensor<1x2x2xi64>}}
  %0 = "stablehlo.reduce_window"(%a, %i) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1>, padding = dense<0> : tensor<1x2x2xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @padding_of_triples(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{malformed attribute: expected a tensor of shape [N, 2], got tensor<1x3xi64>}}
  %0 = "stablehlo.reduce_window"(%a, %i) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1>, padding = dense<0> : tensor<1x3xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @replica_groups_of_rank_1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{malformed attribute: expected a rank-2 integer tensor, got tensor<2xi64>}}
  %0 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[0, 1]> : tensor<2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dimensions_of_rank_2(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{malformed attribute: expected a one-dimensional integer list, got tensor<2x1xi64>}}
  %0 = "stablehlo.transpose"(%a) {permutation = dense<[[1], [0]]> : tensor<2x1xi64>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @mixed_list(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{expected a list of values or a list of lists of values}}
  %0 = stablehlo.transpose %a, dims = [1, [0]] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @ragged_rows(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<6xf32> {
  // expected-error @+1 {{expected rows of one length}}
  %0 = stablehlo.pad %a, %i, low = [[1], [1, 2]], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @stride_not_an_integer(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Expected integer literal}}
  %0 = stablehlo.slice %a [0:4:b] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @applies_a_unary_op(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.reshape' is not a binary element-wise op; a reduce 'applies' one}}
  %0 = stablehlo.reduce(%a init: %i) applies stablehlo.reshape across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @groups_of_different_sizes_gather(%a: tensor<4xf32>) -> tensor<12xf32> {
  // expected-error @+1 {{replica_groups [[0, 2, -1], [1, 3, 4]] must all have the same size}}
  %0 = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2, -1], [1, 3, 4]]> : tensor<2x3xi64>} : (tensor<4xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

func.func @padding_inside_a_group(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica_groups [[0, -1, 2], [1, 3, 4]] has negative replica ids [-1]}}
  %0 = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, -1, 2], [1, 3, 4]]> : tensor<2x3xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
