// RUN: xla-opt %s --split-input-file --verify-diagnostics
// The invalid examples of broadcasting.md.

func.func @incompatible(%a: tensor<7x2x5xf32>, %b: tensor<7x2x6xf32>) {
  // expected-error @+1 {{'xla.add' op shapes [7, 2, 5] and [7, 2, 6] are incompatible: dimension 2 has sizes 5 and 6}}
  %0 = xla.add %a, %b : (tensor<7x2x5xf32>, tensor<7x2x6xf32>) -> tensor<7x2x6xf32>
  func.return
}

// -----

func.func @matrix_vector_dim0(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [0]: dimension 0 of size 3 of [3] does not match dimension 0 of size 2 of [2, 3]}}
  %0 = xla.add %m, %v, broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @missing_broadcast_dimensions(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{operands of shapes [2, 3] and [3] have different ranks and need broadcast_dimensions}}
  %0 = xla.add %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// "it is illegal to match V to N and T to P"
func.func @not_increasing(%x: tensor<2x3x4x5xf32>, %tv: tensor<4x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2, 1] must be strictly increasing}}
  %0 = xla.add %x, %tv, broadcast_dimensions = [2, 1] : (tensor<2x3x4x5xf32>, tensor<4x3xf32>) -> tensor<2x3x4x5xf32>
  func.return
}

// -----

// "it is also illegal to match V to both P and N"
func.func @repeated(%x: tensor<2x3x4x5xf32>, %tv: tensor<4x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2, 2] must be strictly increasing}}
  %0 = xla.add %x, %tv, broadcast_dimensions = [2, 2] : (tensor<2x3x4x5xf32>, tensor<4x4xf32>) -> tensor<2x3x4x5xf32>
  func.return
}

// -----

func.func @out_of_range(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2] out of range [0, 2): [2]}}
  %0 = xla.add %m, %v, broadcast_dimensions = [2] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @wrong_length(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [0, 1] must have one entry per dimension of the lower-rank operand [3] (rank 1)}}
  %0 = xla.add %m, %v, broadcast_dimensions = [0, 1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @same_rank_not_identity(%m: tensor<2x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1, 0] between operands of the same rank 2 must be [0, 1]}}
  %0 = xla.add %m, %m, broadcast_dimensions = [1, 0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @wrong_declared_result(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{inferred result type tensor<2x3xf32> does not match declared tensor<2x1xf32>}}
  %0 = xla.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x1xf32>
  func.return
}
