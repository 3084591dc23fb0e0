// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file | filecheck %s

// chlo.mulhi and chlo.ragged_dot decompose into xla ops (issue 13); their values are
// checked on both backends by tests/test_stablehlo_import.py.

// Up to 32 bits: the product in 64 bits, shifted right by the width.
// CHECK-LABEL: func.func @mulhi_i32
// CHECK: xla.convert %{{.*}} : (tensor<4xi32>) -> tensor<4xi64>
// CHECK: xla.multiply
// CHECK: xla.shift_right_arithmetic
// CHECK: xla.convert %{{.*}} : (tensor<4xi64>) -> tensor<4xi32>
func.func @mulhi_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = chlo.mulhi %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// 64 bits: 32-bit halves in ui64.
// CHECK-LABEL: func.func @mulhi_ui64
// CHECK-NOT: xla.convert
// CHECK: xla.shift_right_logical
// CHECK-NOT: chlo.
func.func @mulhi_ui64(%a: tensor<4xui64>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %0 = chlo.mulhi %a, %b : tensor<4xui64>, tensor<4xui64> -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// Mode 1: one masked dot per group, summed.
// CHECK-LABEL: func.func @ragged_dot_mode_1
// CHECK-COUNT-3: xla.dot_general
// CHECK-NOT: chlo.
func.func @ragged_dot_mode_1(%lhs : tensor<2x11x5xf32>, %rhs : tensor<3x2x5x7xf32>, %group_sizes : tensor<3xi64>) -> tensor<2x11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [0],
      rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1],
      rhs_group_dimensions = [0]
    >,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]
  } : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<3xi64>) -> tensor<2x11x7xf32>
  func.return %0 : tensor<2x11x7xf32>
}
