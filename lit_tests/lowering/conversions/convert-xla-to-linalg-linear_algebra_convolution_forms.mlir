// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// The convolution forms the kernel takes (convolution_forms.py, issue 32).

// A transposed convolution (lhs dilation 2, as JAX writes the input gradient of a
// stride-2 convolution): four phases, each a convolution without holes of the kernel's
// taps that meet input elements (a strided slice of the kernel: taps 0 and 2, or 1, per
// dimension), then one generic interleaving the four outputs (position p of a spatial
// dimension reads phase p mod 2 at p / 2).
// CHECK-LABEL: func.func @transposed
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ((d0 * 2), (d1 * 2), d2, d3)>, {{.*}} ins(%k : tensor<3x3x16x16xf32>) outs(%{{.*}} : tensor<2x2x16x16xf32>)
// CHECK:         %[[P00:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x2x16x16xf32>) outs(%{{.*}} : tensor<2x8x8x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ((d0 * 2), ((d1 * 2) + 1), d2, d3)>, {{.*}} outs(%{{.*}} : tensor<2x1x16x16xf32>)
// CHECK:         %[[P01:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x1x16x16xf32>) outs(%{{.*}} : tensor<2x8x8x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + 1), (d1 * 2), d2, d3)>, {{.*}} outs(%{{.*}} : tensor<1x2x16x16xf32>)
// CHECK:         %[[P10:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x16x16xf32>) outs(%{{.*}} : tensor<2x8x8x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + 1), ((d1 * 2) + 1), d2, d3)>, {{.*}} outs(%{{.*}} : tensor<1x1x16x16xf32>)
// CHECK:         %[[P11:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<2x8x8x16xf32>)
// CHECK:         %[[OUT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x16x16x16xf32>)
// CHECK:           %[[H:.*]] = linalg.index 1 : index
// CHECK:           %[[W:.*]] = linalg.index 2 : index
// CHECK:           %[[AH:.*]] = arith.divsi %[[H]], %{{.*}} : index
// CHECK:           %[[RH:.*]] = arith.remsi %[[H]], %{{.*}} : index
// CHECK:           %[[AW:.*]] = arith.divsi %[[W]], %{{.*}} : index
// CHECK:           %[[RW:.*]] = arith.remsi %[[W]], %{{.*}} : index
// CHECK:           tensor.extract %[[P00]][%{{.*}}, %[[AH]], %[[AW]], %{{.*}}]
// CHECK:           tensor.extract %[[P01]][%{{.*}}, %[[AH]], %[[AW]], %{{.*}}]
// CHECK:           tensor.extract %[[P10]][%{{.*}}, %[[AH]], %[[AW]], %{{.*}}]
// CHECK:           tensor.extract %[[P11]][%{{.*}}, %[[AH]], %[[AW]], %{{.*}}]
// CHECK:         func.return %[[OUT]]
func.func @transposed(%x: tensor<2x8x8x16xf32>, %k: tensor<3x3x16x16xf32>) -> tensor<2x16x16x16xf32> {
  %0 = xla.convolution %x, %k, padding = [[2, 1], [2, 1]], lhs_dilation = [2, 2], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<2x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<2x16x16x16xf32>
  func.return %0 : tensor<2x16x16x16xf32>
}

// An input gradient's kernel, [0, 1, o, i] (HWOI): transposed to HWIO first (a copy
// generic), then the convolution reads the copy with its output features last.
// CHECK-LABEL: func.func @input_gradient_kernel
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, {{.*}} ins(%k : tensor<3x3x24x16xf32>) outs(%{{.*}} : tensor<3x3x16x24xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, {{.*}} ins(%[[T]] : tensor<3x3x16x24xf32>)
func.func @input_gradient_kernel(%x: tensor<2x12x12x16xf32>, %k: tensor<3x3x24x16xf32>) -> tensor<2x12x12x24xf32> {
  %0 = xla.convolution %x, %k, padding = [[1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 3, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<2x12x12x16xf32>, tensor<3x3x24x16xf32>) -> tensor<2x12x12x24xf32>
  func.return %0 : tensor<2x12x12x24xf32>
}

// Below MIN_MACS multiply-adds (7 x 7 x 3 outputs of 3 x 3 x 2): as before, the input
// padded and dilated with zeros, then the named convolution multiplying the holes.
// CHECK-LABEL: func.func @small
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x9x9x2xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %k : tensor<1x9x9x2xf32>, tensor<3x3x2x3xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         func.return
func.func @small(%x: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x3xf32>) -> tensor<1x7x7x3xf32> {
  %0 = xla.convolution %x, %k, padding = [[1, 1], [1, 1]], lhs_dilation = [2, 2], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x7x7x3xf32>
  func.return %0 : tensor<1x7x7x3xf32>
}

// Three output features in the output's innermost dimension (an RGB head): computed
// with the features outermost (3 x 4 x 12 x 12, the kernel tile's rows), then
// transposed back.
// CHECK-LABEL: func.func @few_features
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%k : tensor<3x3x32x3xf32>) outs(%{{.*}} : tensor<3x4x12x12xf32>)
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1, d2)>, {{.*}} ins(%[[C]] : tensor<3x4x12x12xf32>) outs(%{{.*}} : tensor<4x12x12x3xf32>)
// CHECK:         func.return %[[T]]
func.func @few_features(%x: tensor<4x12x12x32xf32>, %k: tensor<3x3x32x3xf32>) -> tensor<4x12x12x3xf32> {
  %0 = xla.convolution %x, %k, padding = [[1, 1], [1, 1]], input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2] : (tensor<4x12x12x32xf32>, tensor<3x3x32x3xf32>) -> tensor<4x12x12x3xf32>
  func.return %0 : tensor<4x12x12x3xf32>
}
