// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Reduce examples of the spec: a 2x3 array reduced over dimension 0 or 1, and a
// 4x2x3 array reduced over dimension 0, dimensions 0 and 1, and all dimensions.
// CHECK-LABEL: func.func @reduce
func.func @reduce(%m: tensor<2x3xf32>, %a: tensor<4x2x3xf32>, %zero: tensor<f32>) {
  // CHECK: xla.reduce (%{{.*}}), (%{{.*}}), dimensions = [0] body {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: } : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  // GENERIC: "xla.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1>}> ({
  // GENERIC: }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %0 = xla.reduce (%m), (%zero), dimensions = [0] body {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = xla.add %acc, %x : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: dimensions = [1] body {
  // CHECK: } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = xla.reduce (%m), (%zero), dimensions = [1] body {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = xla.add %acc, %x : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: dimensions = [0] body {
  // CHECK: } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = xla.reduce (%a), (%zero), dimensions = [0] body {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = xla.add %acc, %x : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // dimensions are an unsorted set
  // CHECK: dimensions = [1, 0] body {
  // CHECK: } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = xla.reduce (%a), (%zero), dimensions = [1, 0] body {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = xla.add %acc, %x : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: dimensions = [0, 1, 2] body {
  // CHECK: } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<f32>
  %4 = xla.reduce (%a), (%zero), dimensions = [0, 1, 2] body {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = xla.add %acc, %x : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<f32>
  func.return
}

// The spec's variadic reduce: max and argmax together; the body takes the N
// accumulators, then the N input elements, and returns N values.
// CHECK-LABEL: func.func @reduce_argmax
func.func @reduce_argmax(%v: tensor<5xf32>, %k: tensor<5xi32>, %iv: tensor<f32>, %ik: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // CHECK: %{{.*}}, %{{.*}} = xla.reduce (%{{.*}}, %{{.*}}), (%{{.*}}, %{{.*}}), dimensions = [0] body {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  // CHECK: xla.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK-NEXT: } : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  // GENERIC: operandSegmentSizes = array<i32: 2, 2>
  %r:2 = xla.reduce (%v, %k), (%iv, %ik), dimensions = [0] body {
  ^bb0(%max: tensor<f32>, %argmax: tensor<i32>, %value: tensor<f32>, %index: tensor<i32>):
    %ge = xla.compare %value, %max, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = xla.select %ge, %value, %max : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = xla.select %ge, %index, %argmax : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %m, %i : tensor<f32>, tensor<i32>
  } : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  func.return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// CHECK-LABEL: func.func @reduce_window
func.func @reduce_window(%x: tensor<4x6xf32>, %v: tensor<5xf32>, %i: tensor<5xi32>, %min: tensor<f32>, %zero: tensor<i32>) {
  // The spec's 4x6 max pool with window [2, 3] and stride [2, 3] (VALID padding).
  // CHECK: xla.reduce_window (%{{.*}}), (%{{.*}}), window_dimensions = [2, 3], window_strides = [2, 3] body {
  // CHECK: } : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  // GENERIC: "xla.reduce_window"(%{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>, operandSegmentSizes = array<i32: 1, 1>}> ({
  %0 = xla.reduce_window (%x), (%min), window_dimensions = [2, 3], window_strides = [2, 3] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  // The spec's min over [10000, 1000, 100, 10, 1], window 3, stride 2: VALID gives 2
  // windows, SAME pads [1, 1] and gives 3.
  // CHECK: window_dimensions = [3], window_strides = [2] body {
  // CHECK: } : (tensor<5xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = xla.reduce_window (%v), (%min), window_dimensions = [3], window_strides = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<5xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: window_dimensions = [3], window_strides = [2], padding = {{\[}}[1, 1]] body {
  // CHECK: } : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  // GENERIC: padding = dense<1> : tensor<1x2xi64>
  %2 = xla.reduce_window (%v), (%min), window_dimensions = [3], window_strides = [2], padding = [[1, 1]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  // Dilations: the base 5 dilated by 2 is 9, the window 2 dilated by 3 is 4, padded
  // [1, 0] gives 10; (10 - 4) / 3 + 1 = 3 windows.
  // CHECK: window_dimensions = [2], window_strides = [3], base_dilations = [2], window_dilations = [3], padding = {{\[}}[1, 0]] body {
  // CHECK: } : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = xla.reduce_window (%v), (%min), window_dimensions = [2], window_strides = [3], base_dilations = [2], window_dilations = [3], padding = [[1, 0]] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  // Two inputs, two inits: the body takes 4 scalars and returns 2.
  // CHECK: %{{.*}}, %{{.*}} = xla.reduce_window (%{{.*}}, %{{.*}}), (%{{.*}}, %{{.*}}), window_dimensions = [2] body {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  // CHECK: } : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  %4:2 = xla.reduce_window (%v, %i), (%min, %zero), window_dimensions = [2] body {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %m = xla.minimum %a, %c : tensor<f32>
    %s = xla.add %b, %d : tensor<i32>
    xla.return %m, %s : tensor<f32>, tensor<i32>
  } : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return
}

// CHECK-LABEL: func.func @select_and_scatter
func.func @select_and_scatter(%operand: tensor<4x6xf32>, %source: tensor<2x2xf32>, %zero: tensor<f32>) -> tensor<4x6xf32> {
  // CHECK: xla.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}}, window_dimensions = [2, 3], window_strides = [2, 3] select {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: xla.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } scatter {
  // CHECK: xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  // GENERIC: "xla.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
  %0 = xla.select_and_scatter %operand, %source, %zero, window_dimensions = [2, 3], window_strides = [2, 3] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare %a, %b, comparison_direction = GE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @sort
func.func @sort(%x: tensor<2x3xf32>, %k0: tensor<2xi32>, %k1: tensor<2xi32>, %k2: tensor<2xf32>) {
  // CHECK: xla.sort %{{.*}}, dimension = 1, is_stable = true comparator {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: xla.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } : tensor<2x3xf32>
  // GENERIC: "xla.sort"(%{{.*}}) <{dimension = 1 : i64, is_stable = true}> ({
  %0 = xla.sort %x, dimension = 1, is_stable = true comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<2x3xf32>
  // Without a dimension the last one is sorted.
  // CHECK: xla.sort %{{.*}} comparator {
  // CHECK: } : tensor<2x3xf32>
  %1 = xla.sort %x comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<2x3xf32>
  // The spec's three operands sorted by the first: the comparator takes
  // (lhs_0, rhs_0, lhs_1, rhs_1, lhs_2, rhs_2).
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = xla.sort %{{.*}}, %{{.*}}, %{{.*}}, dimension = 0 comparator {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: } : (tensor<2xi32>, tensor<2xi32>, tensor<2xf32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xf32>)
  %2:3 = xla.sort %k0, %k1, %k2, dimension = 0 comparator {
  ^bb0(%a0: tensor<i32>, %b0: tensor<i32>, %a1: tensor<i32>, %b1: tensor<i32>, %a2: tensor<f32>, %b2: tensor<f32>):
    %lt = xla.compare %a0, %b0, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2xi32>, tensor<2xi32>, tensor<2xf32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xf32>)
  func.return
}

// CHECK-LABEL: func.func @map
func.func @map(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %n: tensor<4xi32>) {
  // CHECK: xla.map %{{.*}}, %{{.*}}, dimensions = [0, 1] computation {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: } : tensor<2x3xf32>
  // GENERIC: "xla.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1>}> ({
  %0 = xla.map %x, %y, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : tensor<2x3xf32>
  // The computation's result type S becomes the element type: T -> PRED here.
  // CHECK: xla.map %{{.*}}, %{{.*}}, dimensions = [0, 1] computation {
  // CHECK: } : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = xla.map %x, %y, dimensions = [0, 1] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: xla.map %{{.*}}, dimensions = [0] computation {
  // CHECK: } : tensor<4xi32>
  %2 = xla.map %n, dimensions = [0] computation {
  ^bb0(%a: tensor<i32>):
    %neg = xla.negate %a : tensor<i32>
    xla.return %neg : tensor<i32>
  } : tensor<4xi32>
  func.return
}
