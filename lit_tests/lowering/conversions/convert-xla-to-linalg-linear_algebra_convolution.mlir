// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// An integer convolution (the named form is for floats) with NHWC input, HWIO kernel,
// stride 2, padding 1: a zero fill, then one generic whose
// loops are the output's dimensions (parallel), then the kernel's spatial dimensions
// and the input features (reduction). The kernel is read through its map (H, W, I, O
// = d4, d5, d6, d3); the input through tensor.extract at p * stride + k - low,
// zero where that falls outside it (one unsigned compare per dimension).
// CHECK-LABEL: func.func @conv_nhwc_i32
// CHECK-SAME:    (%[[X:.*]]: tensor<1x5x5x2xi32>, %[[K:.*]]: tensor<3x3x2x4xi32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x3x3x4xi32>
// CHECK:         %[[ZERO:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<1x3x3x4xi32>)
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[K]] : tensor<3x3x2x4xi32>) outs(%[[ZERO]] : tensor<1x3x3x4xi32>) {
// CHECK-NEXT:    ^{{.*}}(%[[W:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK:           %[[P:.*]] = linalg.index 1 : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK:           %[[KH:.*]] = linalg.index 4 : index
// CHECK:           %[[POS:.*]] = arith.addi %[[ROW]], %[[KH]] : index
// CHECK:           %[[Q:.*]] = arith.addi %[[POS]], %{{.*}} : index
// CHECK:           arith.cmpi ule, %[[Q]], %{{.*}} : index
// CHECK:           %[[READ:.*]] = tensor.extract %[[X]][{{.*}}] : tensor<1x5x5x2xi32>
// CHECK:           %[[INSIDE:.*]] = arith.andi
// CHECK:           %[[V:.*]] = arith.select %[[INSIDE]], %[[READ]], %{{.*}} : i32
// CHECK:           %[[MUL:.*]] = arith.muli %[[V]], %[[W]] : i32
// CHECK:           %[[ADD:.*]] = arith.addi %[[ACC]], %[[MUL]] : i32
// CHECK-NEXT:      linalg.yield %[[ADD]] : i32
// CHECK:         func.return %[[CONV]] : tensor<1x3x3x4xi32>
func.func @conv_nhwc_i32(%x: tensor<1x5x5x2xi32>, %k: tensor<3x3x2x4xi32>) -> tensor<1x3x3x4xi32> {
  %r = xla.convolution %x, %k, window_strides = [2, 2], padding = [[1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x5x5x2xi32>, tensor<3x3x2x4xi32>) -> tensor<1x3x3x4xi32>
  func.return %r : tensor<1x3x3x4xi32>
}

// The same in f64 is linalg's own convolution: the input padded with zeros (an xla.pad,
// lowered to a generic), a zero fill, then linalg.conv_2d_nhwc_hwcf with the strides.
// CHECK-LABEL: func.func @conv_nhwc_named
// CHECK-SAME:    (%[[X:.*]]: tensor<1x5x5x2xf64>, %[[K:.*]]: tensor<3x3x2x4xf64>)
// CHECK:         %[[PADDED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x7x7x2xf64>)
// CHECK:         %[[ZERO:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3x4xf64>)
// CHECK:         %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%[[PADDED]], %[[K]] : tensor<1x7x7x2xf64>, tensor<3x3x2x4xf64>) outs(%[[ZERO]] : tensor<1x3x3x4xf64>) -> tensor<1x3x3x4xf64>
// CHECK-NEXT:    func.return %[[CONV]] : tensor<1x3x3x4xf64>
func.func @conv_nhwc_named(%x: tensor<1x5x5x2xf64>, %k: tensor<3x3x2x4xf64>) -> tensor<1x3x3x4xf64> {
  %r = xla.convolution %x, %k, window_strides = [2, 2], padding = [[1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x5x5x2xf64>, tensor<3x3x2x4xf64>) -> tensor<1x3x3x4xf64>
  func.return %r : tensor<1x3x3x4xf64>
}

// In f32 with padding it stays the generic with clamped reads (as @conv_nhwc_i32),
// whose padding `linalg-conv-to-kernel` hands to the convolution kernel (never
// materialized); unpadded, it is the named convolution.
// CHECK-LABEL: func.func @conv_nhwc_f32
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x3x3x4xf32>)
// CHECK:           arith.minui
// CHECK:           tensor.extract
// CHECK:           arith.select
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x3x3x4xf32>
func.func @conv_nhwc_f32(%x: tensor<1x5x5x2xf32>, %k: tensor<3x3x2x4xf32>, %y: tensor<1x7x7x2xf32>) -> (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) {
  %r = xla.convolution %x, %k, window_strides = [2, 2], padding = [[1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  %s = xla.convolution %y, %k, window_strides = [2, 2], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %r, %s : tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>
}

// f16, two feature groups, lhs dilation 2: the input feature is
// (o // 2) * 2 + c; a position is an input element only when divisible by the
// dilation; products accumulate in f32, rounded once to f16 at the end.
// CHECK-LABEL: func.func @conv_grouped_dilated_f16
// CHECK:         tensor.empty() : tensor<1x5x4xf32>
// CHECK:         %[[CONV:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x2x4xf16>) outs(%{{.*}} : tensor<1x5x4xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[W:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK:           %[[C:.*]] = linalg.index 4 : index
// CHECK:           %[[O:.*]] = linalg.index 2 : index
// CHECK:           %[[G:.*]] = arith.divsi %[[O]], %{{.*}} : index
// CHECK:           %[[BASE:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK:           %[[FEATURE:.*]] = arith.addi %[[BASE]], %[[C]] : index
// CHECK:           arith.remsi
// CHECK:           arith.cmpi eq
// CHECK:           tensor.extract %{{.*}}[%{{.*}}, %[[FEATURE]], %{{.*}}] : tensor<1x4x3xf16>
// CHECK:           arith.select
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf {{.*}} : f32
// CHECK:           arith.addf %[[ACC]], {{.*}} : f32
// CHECK:         } -> tensor<1x5x4xf32>
// CHECK:         tensor.empty() : tensor<1x5x4xf16>
// CHECK:         linalg.generic {{.*}} ins(%[[CONV]] : tensor<1x5x4xf32>) outs(%{{.*}} : tensor<1x5x4xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @conv_grouped_dilated_f16(%x: tensor<1x4x3xf16>, %k: tensor<2x2x4xf16>) -> tensor<1x5x4xf16> {
  %r = xla.convolution %x, %k, padding = [[-1, 2]], lhs_dilation = [2], input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0], output_batch_dimension = 0, output_feature_dimension = 2, output_spatial_dimensions = [1], feature_group_count = 2 : (tensor<1x4x3xf16>, tensor<2x2x4xf16>) -> tensor<1x5x4xf16>
  func.return %r : tensor<1x5x4xf16>
}
