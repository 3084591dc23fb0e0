// RUN: xla-opt %s --split-input-file --verify-diagnostics

// ---- reduce -------------------------------------------------------------------------

func.func @reduce_no_input() {
  // expected-error @+1 {{inputs must not be empty}}
  xla.reduce (), (), dimensions = [] body {
  ^bb0:
    xla.return : () -> ()
  } : () -> ()
  func.return
}

// -----

func.func @reduce_init_count(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{expects one init value per input, got 2 inputs and 1 init_values}}
  %r:2 = xla.reduce (%x, %y), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    xla.return %a, %b : tensor<f32>, tensor<f32>
  } : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @reduce_init_element_type(%x: tensor<2x3xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{init_values #0 must be tensor<f32>, a scalar of input #0's element type, got tensor<i32>}}
  %r = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_init_not_scalar(%x: tensor<2x3xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{init_values #0 must be tensor<f32>, a scalar of input #0's element type, got tensor<1xf32>}}
  %r = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_input_shapes(%x: tensor<2x3xf32>, %y: tensor<3x2xi32>, %zf: tensor<f32>, %zi: tensor<i32>) {
  // expected-error @+1 {{inputs must have the same shape, but #0 is [2, 3] and #1 is [3, 2]}}
  %r:2 = xla.reduce (%x, %y), (%zf, %zi), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    xla.return %a, %b : tensor<f32>, tensor<i32>
  } : (tensor<2x3xf32>, tensor<3x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @reduce_dimension_out_of_range(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{dimensions [0, 2] out of range [0, 2): [2]}}
  %r = xla.reduce (%x), (%z), dimensions = [0, 2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @reduce_dimension_repeated(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{dimensions [1, 1] has repeated values [1]}}
  %r = xla.reduce (%x), (%z), dimensions = [1, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_body_arguments(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>, %zf: tensor<f32>, %zi: tensor<i32>) {
  // The body takes the accumulators first, then the input elements.
  // expected-error @+1 {{body must take (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>), but takes (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>)}}
  %r:2 = xla.reduce (%x, %y), (%zf, %zi), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>, %b: tensor<i32>, %d: tensor<i32>):
    xla.return %a, %b : tensor<f32>, tensor<i32>
  } : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @reduce_body_results(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>, %zf: tensor<f32>, %zi: tensor<i32>) {
  // expected-error @+1 {{body must return (tensor<f32>, tensor<i32>), but returns (tensor<f32>)}}
  %r:2 = xla.reduce (%x, %y), (%zf, %zi), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{inferred result type tensor<2xf32> does not match declared tensor<3xf32>}}
  %r = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @reduce_result_count(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{expected 1 results, but the op declares 2}}
  %r:2 = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @reduce_body_captures(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // A computation sees only its parameters.
  // expected-error @+1 {{Operation using value defined out of its IsolatedFromAbove parent}}
  %r = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %z : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// ---- reduce_window ------------------------------------------------------------------

// -----

func.func @reduce_window_rank(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_dimensions [2] must have one entry per operand dimension (2)}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @reduce_window_zero_window(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_dimensions [2, 0] must all be >= 1}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 0] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @reduce_window_zero_stride(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_strides [0, 1] must all be >= 1}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 3], window_strides = [0, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reduce_window_strides_rank(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_strides [1, 1, 1] must have one entry per operand dimension (2)}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 3], window_strides = [1, 1, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reduce_window_base_dilation(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{base_dilations [1, 0] must all be >= 1}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 3], base_dilations = [1, 0] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reduce_window_window_dilation(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{window_dilations [0, 1] must all be >= 1}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 3], window_dilations = [0, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reduce_window_padding_rows(%x: tensor<4x6xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding [[1, 1]] must have one [low, high] pair per operand dimension (2)}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2, 3], padding = [[1, 1]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @reduce_window_padding_pairs(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding [[0, 0, 0]] must have one [low, high] pair per operand dimension (1)}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2], padding = [[0, 0, 0]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @reduce_window_negative_size(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding [-3, -2] of dimension 0 leaves a negative size -1}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [1], padding = [[-3, -2]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @reduce_window_dilated_shape(%x: tensor<5xf32>, %z: tensor<f32>) {
  // base 5 dilated by 2 is 9, window 2 dilated by 3 is 4, padded [1, 0] gives 10:
  // (10 - 4) / 3 + 1 = 3 windows.
  // expected-error @+1 {{inferred result type tensor<3xf32> does not match declared tensor<4xf32>}}
  %r = xla.reduce_window (%x), (%z), window_dimensions = [2], window_strides = [3], base_dilations = [2], window_dilations = [3], padding = [[1, 0]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<5xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @reduce_window_init_count(%x: tensor<4xf32>, %y: tensor<4xi32>, %z: tensor<f32>) {
  // expected-error @+1 {{expects one init value per input, got 2 inputs and 1 init_values}}
  %r:2 = xla.reduce_window (%x, %y), (%z), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    xla.return %a, %b : tensor<f32>, tensor<i32>
  } : (tensor<4xf32>, tensor<4xi32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xi32>)
  func.return
}

// -----

func.func @reduce_window_body(%x: tensor<4xf32>, %y: tensor<4xi32>, %zf: tensor<f32>, %zi: tensor<i32>) {
  // expected-error @+1 {{body must take (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>), but takes (tensor<f32>, tensor<i32>)}}
  %r:2 = xla.reduce_window (%x, %y), (%zf, %zi), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    xla.return %a, %b : tensor<f32>, tensor<i32>
  } : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  func.return
}

// -----

func.func @reduce_window_input_shapes(%x: tensor<4xf32>, %y: tensor<5xi32>, %zf: tensor<f32>, %zi: tensor<i32>) {
  // expected-error @+1 {{inputs must have the same shape, but #0 is [4] and #1 is [5]}}
  %r:2 = xla.reduce_window (%x, %y), (%zf, %zi), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    xla.return %a, %b : tensor<f32>, tensor<i32>
  } : (tensor<4xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  func.return
}

// ---- select_and_scatter -------------------------------------------------------------

// -----

func.func @select_and_scatter_source_shape(%o: tensor<4x6xf32>, %s: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{source shape [2, 3] must be the windowed shape [2, 2] of operand [4, 6]}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_source_type(%o: tensor<4x6xf32>, %s: tensor<2x2xi32>, %z: tensor<f32>) {
  // expected-error @+1 {{source tensor<2x2xi32> must have the operand's element type f32}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xi32>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_init(%o: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{init_value must be tensor<f32>, got tensor<1xf32>}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<1xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_select_result(%o: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{select must return (tensor<i1>), but returns (tensor<f32>)}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_select_arguments(%o: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{select must take (tensor<f32>, tensor<f32>), but takes (tensor<f32>)}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>):
    %t = xla.constant dense<true> : tensor<i1>
    xla.return %t : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_scatter(%o: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{scatter must return (tensor<f32>), but returns (tensor<i1>)}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @select_and_scatter_result(%o: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{inferred result type tensor<4x6xf32> does not match declared tensor<2x2xf32>}}
  %r = xla.select_and_scatter %o, %s, %z, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return
}

// ---- sort ---------------------------------------------------------------------------

// -----

func.func @sort_dimension(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimension [2] out of range [0, 2): [2]}}
  %r = xla.sort %x, dimension = 2 comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<2x3xf32>
  func.return
}

// -----

func.func @sort_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{sort needs operands of rank >= 1, got a scalar}}
  %r = xla.sort %x comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<f32>
  func.return
}

// -----

func.func @sort_shapes(%x: tensor<2xi32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{inputs must have the same shape, but #0 is [2] and #1 is [3]}}
  %r:2 = xla.sort %x, %y comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2xi32>, tensor<3xf32>) -> (tensor<2xi32>, tensor<3xf32>)
  func.return
}

// -----

func.func @sort_comparator_arguments(%x: tensor<2xi32>, %y: tensor<2xf32>) {
  // The comparator takes (lhs_0, rhs_0, lhs_1, rhs_1), not all lhs first.
  // expected-error @+1 {{comparator must take (tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>), but takes (tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>)}}
  %r:2 = xla.sort %x, %y comparator {
  ^bb0(%a: tensor<i32>, %c: tensor<f32>, %b: tensor<i32>, %d: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2xi32>, tensor<2xf32>) -> (tensor<2xi32>, tensor<2xf32>)
  func.return
}

// -----

func.func @sort_comparator_result(%x: tensor<2xi32>) {
  // expected-error @+1 {{comparator must return (tensor<i1>), but returns (tensor<i32>)}}
  %r = xla.sort %x comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    xla.return %a : tensor<i32>
  } : tensor<2xi32>
  func.return
}

// -----

func.func @sort_results(%x: tensor<2xi32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{inferred result #1 type tensor<2xf32> does not match declared tensor<2xi32>}}
  %r:2 = xla.sort %x, %y comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2xi32>, tensor<2xf32>) -> (tensor<2xi32>, tensor<2xi32>)
  func.return
}

// ---- map ----------------------------------------------------------------------------

// -----

func.func @map_dimensions_subset(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [0] must be all operand dimensions in order, [0, 1]}}
  %r = xla.map %x, dimensions = [0] computation {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  } : tensor<2x3xf32>
  func.return
}

// -----

func.func @map_dimensions_order(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [1, 0] must be all operand dimensions in order, [0, 1]}}
  %r = xla.map %x, dimensions = [1, 0] computation {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  } : tensor<2x3xf32>
  func.return
}

// -----

func.func @map_shapes(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) {
  // expected-error @+1 {{inputs must have the same shape, but #0 is [2, 3] and #1 is [3, 2]}}
  %r = xla.map %x, %y, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @map_computation_arguments(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) {
  // expected-error @+1 {{computation must take (tensor<f32>, tensor<i32>), but takes (tensor<f32>)}}
  %r = xla.map %x, %y, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  } : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @map_computation_results(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{computation must return one scalar (a rank-0 tensor), but returns (tensor<f32>, tensor<f32>)}}
  %r = xla.map %x, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>):
    xla.return %a, %a : tensor<f32>, tensor<f32>
  } : tensor<2x3xf32>
  func.return
}

// -----

func.func @map_result_element_type(%x: tensor<2x3xf32>) {
  // The computation returns PRED, so the result is tensor<2x3xi1>.
  // expected-error @+1 {{inferred result type tensor<2x3xi1> does not match declared tensor<2x3xf32>}}
  %r = xla.map %x, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>):
    %f = xla.is_finite %a : (tensor<f32>) -> tensor<i1>
    xla.return %f : tensor<i1>
  } : tensor<2x3xf32>
  func.return
}
