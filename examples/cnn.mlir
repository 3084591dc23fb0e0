// A small CNN classifier with an embedding of its top classes:
//   features = maxpool2x2(relu(conv3x3(image, kernel)))       NHWC image, HWIO kernel
//   logits   = reshape(features) @ w                          1x64 @ 64x10
//   top3     = the three classes of highest logit (a stable sort of (logit, class))
//   embedded = rows of the class table for those classes      (an embedding lookup)
// Conv, pooling (reduce_window), sort and gather all run natively.
func.func @main(%image: tensor<1x8x8x3xf32>, %kernel: tensor<3x3x3x4xf32>,
                %w: tensor<64x10xf32>, %table: tensor<10x5xf32>)
    -> (tensor<1x10xf32>, tensor<3xi32>, tensor<3x5xf32>) {
  %conv = xla.convolution %image, %kernel, padding = [[1, 1], [1, 1]],
         input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2],
         kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
         output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]
         : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %zero = xla.constant dense<0.000000e+00> : tensor<f32>
  %relu = xla.maximum %conv, %zero : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %pool = xla.reduce_window (%relu), (%ninf), window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  %flat = xla.reshape %pool : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32>
  %logits = xla.dot %flat, %w : (tensor<1x64xf32>, tensor<64x10xf32>) -> tensor<1x10xf32>
  %row = xla.reshape %logits : (tensor<1x10xf32>) -> tensor<10xf32>
  %classes = xla.iota iota_dimension = 0 : tensor<10xi32>
  %sorted:2 = xla.sort %row, %classes, dimension = 0, is_stable = true comparator {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):
    %gt = xla.compare %x, %y, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } : (tensor<10xf32>, tensor<10xi32>) -> (tensor<10xf32>, tensor<10xi32>)
  %top3 = xla.slice %sorted#1, start_indices = [0], limit_indices = [3], strides = [1] : (tensor<10xi32>) -> tensor<3xi32>
  %ids = xla.reshape %top3 : (tensor<3xi32>) -> tensor<3x1xi32>
  %embedded = xla.gather %table, %ids, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
         index_vector_dim = 1, slice_sizes = [1, 5] : (tensor<10x5xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  func.return %logits, %top3, %embedded : tensor<1x10xf32>, tensor<3xi32>, tensor<3x5xf32>
}
