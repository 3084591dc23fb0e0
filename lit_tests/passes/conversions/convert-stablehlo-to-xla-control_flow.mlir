// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// CHECK-LABEL: func.func @reduce_applies
func.func @reduce_applies(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: xla.reduce (%{{.*}}), (%{{.*}}), dimensions = [1] body {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT:   %[[S:.*]] = xla.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT:   xla.return %[[S]] : tensor<f32>
  // CHECK-NEXT: } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// argmax, as JAX prints it: the reducer block form with two inputs
// CHECK-LABEL: func.func private @argmax
func.func private @argmax(%arg0: tensor<2x3xf32>) -> tensor<2xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: xla.reduce (%{{.*}}, %{{.*}}), (%{{.*}}, %{{.*}}), dimensions = [1] body {
  // CHECK-NEXT: ^bb0(%[[A1:.*]]: tensor<f32>, %[[A2:.*]]: tensor<i32>, %[[A3:.*]]: tensor<f32>, %[[A4:.*]]: tensor<i32>):
  // CHECK-NEXT: xla.compare %[[A1]], %[[A3]], comparison_direction = GT, compare_type = FLOAT
  // CHECK: xla.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  // CHECK-NEXT: } : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare  GT, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare  NE, %arg1, %arg1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare  EQ, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare  LT, %arg2, %arg4,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
  return %1#1 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_generic
func.func @reduce_generic(%x: tensor<2x3xi32>, %init: tensor<i32>) -> tensor<3xi32> {
  // CHECK: xla.reduce (%{{.*}}), (%{{.*}}), dimensions = [0] body {
  // CHECK: xla.maximum
  %0 = "stablehlo.reduce"(%x, %init) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// cumsum and max pooling with its gradient, as JAX prints them
// CHECK-LABEL: func.func @windows
func.func @windows(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: xla.reduce_window (%{{.*}}), (%{{.*}}), window_dimensions = [1, 3], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = {{\[}}[0, 0], [2, 0]] body {
  %1 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %src = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  // CHECK: xla.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}}, window_dimensions = [1, 2], window_strides = [1, 1], padding = {{\[}}[0, 0], [0, 0]] select {
  // CHECK: xla.compare %{{.*}}, %{{.*}}, comparison_direction = GE
  // CHECK: } scatter {
  // CHECK: xla.add
  %3 = "stablehlo.select_and_scatter"(%arg0, %src, %cst) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %4 = stablehlo.compare  GE, %arg1, %arg2,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  }, {
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %4 : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %1, %3 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sort_map
func.func @sort_map(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
  // CHECK: xla.sort %{{.*}}, %{{.*}}, dimension = 1, is_stable = true comparator {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
  // CHECK: comparison_direction = LT, compare_type = TOTALORDER
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  // CHECK: xla.map %{{.*}}, %{{.*}}, dimensions = [0, 1] computation {
  // CHECK: xla.multiply
  %1 = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0#0, %0#1, %1 : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>
}

// fori_loop as JAX prints it: the body uses %x from above, which becomes extra state
// CHECK-LABEL: func.func @while_captures
func.func @while_captures(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = xla.while %{{.*}}, %[[X:.*]], %[[THREE:.*]], %[[X]] cond {
  // CHECK-NEXT: ^bb0(%[[I:.*]]: tensor<i32>, %{{.*}}: tensor<2x3xf32>, %[[N:.*]]: tensor<i32>, %{{.*}}: tensor<2x3xf32>):
  // CHECK-NEXT: xla.compare %[[I]], %[[N]], comparison_direction = LT
  // CHECK: } body {
  // CHECK-NEXT: ^bb0(%[[BI:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<2x3xf32>, %[[BN:.*]]: tensor<i32>, %[[BX:.*]]: tensor<2x3xf32>):
  // CHECK: %[[P:.*]] = xla.multiply %[[ACC]], %[[BX]] : tensor<2x3xf32>
  // CHECK: xla.return %{{.*}}, %[[P]], %[[BN]], %[[BX]] : tensor<i32>, tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>
  // CHECK-NEXT: } : (tensor<i32>, tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<i32>, tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>)
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %x) : tensor<i32>, tensor<2x3xf32>
   cond {
    %1 = stablehlo.compare  LT, %iterArg, %three,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.multiply %iterArg_0, %x : tensor<2x3xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<2x3xf32>
  }
  return %0#1 : tensor<2x3xf32>
}

// lax.switch as JAX prints it (the generic form): one branch captures one value, one
// captures two (packed in a tuple), one captures none (it receives the index)
// CHECK-LABEL: func.func @case_captures
func.func @case_captures(%i: tensor<i32>, %x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[T:.*]] = xla.tuple %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  // CHECK: xla.conditional %[[IDX:.*]], %{{.*}}, %[[T]], %[[IDX]] branches({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2x3xf32>):
  // CHECK-NEXT: xla.add %[[A]], %[[A]]
  // CHECK: }, {
  // CHECK-NEXT: ^bb0(%[[TUP:.*]]: tuple<tensor<2x3xf32>, tensor<2x3xf32>>):
  // CHECK-NEXT: %[[E0:.*]] = xla.get_tuple_element %[[TUP]], index = 0
  // CHECK-NEXT: %[[E1:.*]] = xla.get_tuple_element %[[TUP]], index = 1
  // CHECK-NEXT: xla.multiply %[[E0]], %[[E1]]
  // CHECK: }, {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<i32>):
  // CHECK-NEXT: xla.constant
  // CHECK: }) : (tensor<i32>, tensor<2x3xf32>, tuple<tensor<2x3xf32>, tensor<2x3xf32>>, tensor<i32>) -> tensor<2x3xf32>
  %0 = "stablehlo.case"(%i) ({
    %1 = stablehlo.add %x, %x : tensor<2x3xf32>
    stablehlo.return %1 : tensor<2x3xf32>
  }, {
    %1 = stablehlo.multiply %x, %y : tensor<2x3xf32>
    stablehlo.return %1 : tensor<2x3xf32>
  }, {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<2x3xf32>
    stablehlo.return %cst : tensor<2x3xf32>
  }) : (tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// the pretty form of case, and if
// CHECK-LABEL: func.func @case_if
func.func @case_if(%i: tensor<i32>, %p: tensor<i1>, %x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: xla.conditional %{{.*}}, %{{.*}}, %{{.*}} branches({
  // CHECK: }) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = stablehlo.case(%i) ({
    stablehlo.return %x : tensor<f32>
  }, {
    %1 = stablehlo.negate %x : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  // CHECK: xla.conditional %{{.*}}, %{{.*}}, %{{.*}} branches({
  // CHECK: }) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f32>
  }, {
    %1 = stablehlo.abs %x : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0, %2 : tensor<f32>, tensor<f32>
}

// calls between functions become xla.call
// CHECK-LABEL: func.func @caller
func.func @caller(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // CHECK: xla.call %{{.*}}, callee = @argmax : (tensor<2x3xf32>) -> tensor<2xi32>
  %0 = call @argmax(%x) : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
