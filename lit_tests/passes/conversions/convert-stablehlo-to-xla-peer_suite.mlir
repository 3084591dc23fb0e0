// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics | filecheck %s

// Cases of StableHLO's verifier suite (stablehlo/tests/ops_stablehlo.mlir,
// verify_convolution.mlir, ops_chlo.mlir) the import rejected or crashed on (issue 31).

// collective_broadcast of several operands with a dynamic root (the root a last
// tensor<Nxi32> operand): one result per data operand.
// CHECK-LABEL: func.func @collective_broadcast_c4_variadic
// CHECK:         xla.collective_permute %operand0, source_target_pairs = {{\[\[}}0, 1], [1, 0]] : tensor<4xf32>
// CHECK:         xla.collective_permute %operand1, source_target_pairs = {{\[\[}}0, 1], [1, 0]] : tensor<4xf32>
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
func.func @collective_broadcast_c4_variadic(%operand0: tensor<4xf32>, %operand1: tensor<4xf32>, %root: tensor<2xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = "stablehlo.collective_broadcast"(%operand0, %operand1, %root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    has_dynamic_root
  } : (tensor<4xf32>, tensor<4xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Several operands with the static root: each sent by a permute of its own.
// CHECK-LABEL: func.func @collective_broadcast_variadic
// CHECK:         xla.collective_permute %a, source_target_pairs = {{\[\[}}1, 0]] : tensor<2xf32>
// CHECK:         xla.collective_permute %b, source_target_pairs = {{\[\[}}1, 0]] : tensor<2xi32>
func.func @collective_broadcast_variadic(%a: tensor<2xf32>, %b: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0:2 = "stablehlo.collective_broadcast"(%a, %b) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xf32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// It was an IndexError.
func.func @collective_broadcast_c3_no_operands() -> () {
  // expected-error @+1 {{collective_broadcast requires at least one data operand}}
  "stablehlo.collective_broadcast"() {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : () -> ()
  func.return
}

// -----

func.func @collective_broadcast_c4_only_root(%root: tensor<1xi32>) -> () {
  // expected-error @+1 {{collective_broadcast with has_dynamic_root=true requires at least two operands (data + root)}}
  "stablehlo.collective_broadcast"(%root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    has_dynamic_root
  } : (tensor<1xi32>) -> ()
  func.return
}

// -----

func.func @collective_broadcast_c4_wrong_type(%operand: tensor<4xf32>, %root: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{last operand of collective_broadcast with has_dynamic_root=true must be a rank-1 i32 tensor}}
  %0 = "stablehlo.collective_broadcast"(%operand, %root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    has_dynamic_root
  } : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @collective_broadcast_c4_size_mismatch(%operand0: tensor<4xf32>, %operand1: tensor<4xf32>, %root: tensor<1xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{last operand of collective_broadcast with has_dynamic_root=true must have the same number of elements as data operands (2), but got 1}}
  %0:2 = "stablehlo.collective_broadcast"(%operand0, %operand1, %root) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    has_dynamic_root
  } : (tensor<4xf32>, tensor<4xf32>, tensor<1xi32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A convolution with no spatial dimensions (`pad = []` was read as a malformed matrix).
// CHECK-LABEL: func.func @convolution_empty_spatial_dimensions
// CHECK:         xla.convolution %arg0, %arg1
// CHECK-SAME:      input_spatial_dimensions = []
func.func @convolution_empty_spatial_dimensions(%arg0: tensor<3x2xf16>, %arg1: tensor<2x2xf16>) -> tensor<3x2xf16> {
  %0 = stablehlo.convolution(%arg0, %arg1)
         dim_numbers = [b, f]x[i, o]->[b, f],
         window = {stride = [], pad = [], lhs_dilate = [], rhs_dilate = [], reverse = []}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
          precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
       : (tensor<3x2xf16>, tensor<2x2xf16>) -> tensor<3x2xf16>
  func.return %0 : tensor<3x2xf16>
}

// -----

// A bounded dynamic dimension without its bound has no static form: an error at the
// function (a MalformedAttribute escaped the import).
// expected-error @+1 {{'func.func' op malformed type: bounds #stablehlo.bounds<?, 16, 16> do not bound every dynamic dimension}}
func.func @top_k_bounded(%arg0 : tensor<?x?x?xf32, #stablehlo.bounds<?, 16, 16>>) {
  %0:2 = chlo.top_k(%arg0, k=8) : tensor<?x?x?xf32, #stablehlo.bounds<?, 16, 16>> -> (tensor<16x?x8xf32, #stablehlo.bounds<?, 16, ?>>, tensor<16x?x8xi32, #stablehlo.bounds<?, 16, ?>>)
  return
}

// -----

// A concatenate without its dimension (a TypeError in the message).
func.func @concatenate_without_dimension(%a: tensor<1xi32>, %b: tensor<2xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'stablehlo.concatenate' op the integer attribute 'dimension' is missing}}
  %0 = "stablehlo.concatenate"(%a, %b) : (tensor<1xi32>, tensor<2xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}
