// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The spec's while: an S32 counter and an F32[10] accumulator, 1000 iterations.
// CHECK-LABEL: func.func @while
func.func @while(%count: tensor<i32>, %acc: tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>) {
  // CHECK: %{{.*}}, %{{.*}} = xla.while %{{.*}}, %{{.*}} cond {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<i32>, %{{.*}}: tensor<10xf32>):
  // CHECK: xla.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } body {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<i32>, %{{.*}}: tensor<10xf32>):
  // CHECK: xla.return %{{.*}}, %{{.*}} : tensor<i32>, tensor<10xf32>
  // CHECK-NEXT: } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  // GENERIC: "xla.while"(%{{.*}}, %{{.*}}) ({
  // GENERIC: }, {
  // GENERIC: }) : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  %r:2 = xla.while %count, %acc cond {
  ^bb0(%i: tensor<i32>, %v: tensor<10xf32>):
    %limit = xla.constant dense<1000> : tensor<i32>
    %lt = xla.compare %i, %limit, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %v: tensor<10xf32>):
    %one = xla.constant dense<1> : tensor<i32>
    %next = xla.add %i, %one : tensor<i32>
    %step = xla.constant dense<1.0> : tensor<10xf32>
    %sum = xla.add %v, %step : tensor<10xf32>
    xla.return %next, %sum : tensor<i32>, tensor<10xf32>
  } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  func.return %r#0, %r#1 : tensor<i32>, tensor<10xf32>
}

// A tuple state is one operand.
// CHECK-LABEL: func.func @while_tuple
func.func @while_tuple(%state: tuple<tensor<i32>, tensor<10xf32>>) -> tuple<tensor<i32>, tensor<10xf32>> {
  // CHECK: xla.while %{{.*}} cond {
  // CHECK: } : tuple<tensor<i32>, tensor<10xf32>>
  %r = xla.while %state cond {
  ^bb0(%s: tuple<tensor<i32>, tensor<10xf32>>):
    %false = xla.constant dense<false> : tensor<i1>
    xla.return %false : tensor<i1>
  } body {
  ^bb0(%s: tuple<tensor<i32>, tensor<10xf32>>):
    xla.return %s : tuple<tensor<i32>, tensor<10xf32>>
  } : tuple<tensor<i32>, tensor<10xf32>>
  func.return %r : tuple<tensor<i32>, tensor<10xf32>>
}

// CHECK-LABEL: func.func @conditional_pred
func.func @conditional_pred(%p: tensor<i1>, %x: tensor<3xf32>, %y: tensor<2xi32>) -> tensor<f32> {
  // Exactly two branches, true first; each takes its one operand, both return S.
  // CHECK: xla.conditional %{{.*}}, %{{.*}}, %{{.*}} branches({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<3xf32>):
  // CHECK: } : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<2xi32>):
  // CHECK: xla.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: }) : (tensor<i1>, tensor<3xf32>, tensor<2xi32>) -> tensor<f32>
  // GENERIC: "xla.conditional"(%{{.*}}, %{{.*}}, %{{.*}}) ({
  // GENERIC: }, {
  // GENERIC: }) : (tensor<i1>, tensor<3xf32>, tensor<2xi32>) -> tensor<f32>
  %r = xla.conditional %p, %x, %y branches({
  ^bb0(%a: tensor<3xf32>):
    %zero = xla.constant dense<0.0> : tensor<f32>
    %s = xla.reduce (%a), (%zero), dimensions = [0] body {
    ^bb1(%u: tensor<f32>, %v: tensor<f32>):
      %t = xla.add %u, %v : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    xla.return %s : tensor<f32>
  }, {
  ^bb0(%b: tensor<2xi32>):
    %c = xla.constant dense<1.0> : tensor<f32>
    xla.return %c : tensor<f32>
  }) : (tensor<i1>, tensor<3xf32>, tensor<2xi32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// CHECK-LABEL: func.func @conditional_index
func.func @conditional_index(%i: tensor<i32>, %x: tensor<f32>, %none: tuple<>, %pair: tuple<tensor<f32>, tensor<f32>>) -> (tensor<f32>, tensor<i32>) {
  // An S32 branch index over three branches; a branch without inputs takes an
  // empty tuple, one with several takes a tuple.
  // CHECK: %{{.*}}, %{{.*}} = xla.conditional %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} branches({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>):
  // CHECK: }, {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tuple<>):
  // CHECK: }, {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tuple<tensor<f32>, tensor<f32>>):
  // CHECK: }) : (tensor<i32>, tensor<f32>, tuple<>, tuple<tensor<f32>, tensor<f32>>) -> (tensor<f32>, tensor<i32>)
  %r:2 = xla.conditional %i, %x, %none, %pair branches({
  ^bb0(%a: tensor<f32>):
    %k = xla.constant dense<0> : tensor<i32>
    xla.return %a, %k : tensor<f32>, tensor<i32>
  }, {
  ^bb0(%e: tuple<>):
    %c = xla.constant dense<2.0> : tensor<f32>
    %k = xla.constant dense<1> : tensor<i32>
    xla.return %c, %k : tensor<f32>, tensor<i32>
  }, {
  ^bb0(%t: tuple<tensor<f32>, tensor<f32>>):
    %c = xla.constant dense<3.0> : tensor<f32>
    %k = xla.constant dense<2> : tensor<i32>
    xla.return %c, %k : tensor<f32>, tensor<i32>
  }) : (tensor<i32>, tensor<f32>, tuple<>, tuple<tensor<f32>, tensor<f32>>) -> (tensor<f32>, tensor<i32>)
  // A single branch is allowed with a branch index: it is always the default.
  // CHECK: xla.conditional %{{.*}}, %{{.*}} branches({
  // CHECK: }) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  %s = xla.conditional %i, %x branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

func.func private @add_scale(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32> {
  %s = xla.multiply %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}

func.func private @no_args() -> (tensor<i32>, tensor<f32>)

// CHECK-LABEL: func.func @call
func.func @call(%x: tensor<2xf32>, %k: tensor<f32>) -> tensor<2xf32> {
  // CHECK: xla.call %{{.*}}, %{{.*}}, callee = @add_scale : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // GENERIC: "xla.call"(%{{.*}}, %{{.*}}) <{callee = @add_scale}> : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = xla.call %x, %k, callee = @add_scale : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: xla.call callee = @no_args : () -> (tensor<i32>, tensor<f32>)
  %1:2 = xla.call callee = @no_args : () -> (tensor<i32>, tensor<f32>)
  // func.call on the same computation stays usable.
  // CHECK: func.call @add_scale(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %2 = func.call @add_scale(%0, %k) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
