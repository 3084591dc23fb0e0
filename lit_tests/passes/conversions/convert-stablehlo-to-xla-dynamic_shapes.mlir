// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics | filecheck %s

// Dynamic-shape ops whose shape operands are constants import as their static forms
// (issue 13).
// CHECK-LABEL: func.func @folded
// CHECK:         xla.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK:         xla.broadcast_in_dim %x, broadcast_dimensions = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
// CHECK:         xla.iota iota_dimension = 1 : tensor<2x3xi32>
// CHECK:         xla.slice %x, start_indices = [0, 1], limit_indices = [2, 3], strides = [1, 1] : (tensor<2x3xf32>) -> tensor<2x2xf32>
// CHECK:         xla.pad %x, %pv, edge_padding_low = [1, 0], edge_padding_high = [1, 2], interior_padding = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x5xf32>
func.func @folded(%x: tensor<2x3xf32>, %pv: tensor<f32>) -> (tensor<3x2xf32>, tensor<4x2x3xf32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<4x5xf32>) {
  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %d = stablehlo.constant dense<[4, 2, 3]> : tensor<3xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %x, %d, dims = [1, 2] : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<4x2x3xf32>
  %i = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %2 = stablehlo.dynamic_iota %i, dim = 1 : (tensor<2xi32>) -> tensor<2x3xi32>
  %st = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %li = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %sd = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %3 = stablehlo.real_dynamic_slice %x, %st, %li, %sd : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 0]> : tensor<2xi64>
  %4 = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x5xf32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<4x2x3xf32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<4x5xf32>
}

// -----

// A truly dynamic shape is an error naming the op.
func.func @dynamic(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op the output shape must be an integer constant: a run-time shape has no static form here}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A constant that disagrees with the result type too.
func.func @mismatch(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = stablehlo.constant dense<[6, 1]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op the output shape [6, 1] does not match the result type tensor<3x2xf32>}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// dynamic_gather and dynamic_conv with constant slice sizes / padding: gather and convolution.
// CHECK-LABEL: func.func @main
// CHECK: xla.gather %{{.*}} slice_sizes = [1, 4]
// CHECK: xla.convolution %{{.*}} padding = {{\[}}[1, 1], [1, 1]]
func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %img: tensor<1x1x5x5xf32>, %k: tensor<1x1x3x3xf32>) -> (tensor<2x4xf32>, tensor<1x1x5x5xf32>) {
  %sizes = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %0 = "stablehlo.dynamic_gather"(%x, %i, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x4xf32>
  %pad = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>
  %1 = "stablehlo.dynamic_conv"(%img, %k, %pad) {dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, window_strides = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>, tensor<2x2xi64>) -> tensor<1x1x5x5xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<1x1x5x5xf32>
}

// -----

func.func @dynamic_gather_sizes(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %sizes: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_gather' op the slice sizes must be an integer constant: a run-time shape has no static form here}}
  %0 = "stablehlo.dynamic_gather"(%x, %i, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dynamic_conv_padding_shape(%img: tensor<1x1x5x5xf32>, %k: tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32> {
  %pad = stablehlo.constant dense<1> : tensor<4xi64>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op the padding must be a [N, 2] tensor, got tensor<4xi64>}}
  %1 = "stablehlo.dynamic_conv"(%img, %k, %pad) {dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, window_strides = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>, tensor<4xi64>) -> tensor<1x1x5x5xf32>
  return %1 : tensor<1x1x5x5xf32>
}
