// RUN: xla-opt %s -t stablehlo | filecheck %s

// xla.conditional: a PRED index becomes stablehlo.if, an S32 index stablehlo.case.
// StableHLO's branches take no arguments, so each branch parameter is replaced by its
// branch operand.
// CHECK-LABEL: func.func public @conditional(
// CHECK-SAME: %[[P:[^:]*]]: tensor<i1>, %[[I:[^:]*]]: tensor<i32>, %[[X:[^:]*]]: tensor<f32>, %[[Y:[^:]*]]: tensor<f32>)
func.func @conditional(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: %[[R0:.*]] = "stablehlo.if"(%[[P]]) ({
  // CHECK-NEXT: %[[E:.*]] = "stablehlo.exponential"(%[[X]]) : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "stablehlo.return"(%[[E]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[L:.*]] = "stablehlo.log"(%[[Y]]) : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "stablehlo.return"(%[[L]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<f32>
  %0 = xla.conditional %p, %x, %y branches({
  ^bb0(%a: tensor<f32>):
    %e = xla.exponential %a : tensor<f32>
    xla.return %e : tensor<f32>
  }, {
  ^bb0(%b: tensor<f32>):
    %l = xla.log %b : tensor<f32>
    xla.return %l : tensor<f32>
  }) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK: "stablehlo.case"(%[[I]]) ({
  // CHECK-NEXT: "stablehlo.return"(%[[X]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: "stablehlo.negate"(%[[R0]])
  // CHECK: }) : (tensor<i32>) -> tensor<f32>
  %1 = xla.conditional %i, %x, %0 branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%b: tensor<f32>):
    %n = xla.negate %b : tensor<f32>
    xla.return %n : tensor<f32>
  }) : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0, %1 : tensor<f32>, tensor<f32>
}

// StableHLO's while carries no tuples: a tuple state travels as its leaves, unpacked
// with get_tuple_element and rebuilt with stablehlo.tuple inside and after the loop.
// CHECK-LABEL: func.func public @while_tuple(
// CHECK-SAME: %[[S:[^:]*]]: tuple<tensor<i32>, tensor<3xf32>>)
func.func @while_tuple(%s: tuple<tensor<i32>, tensor<3xf32>>) -> tuple<tensor<i32>, tensor<3xf32>> {
  // CHECK: %[[N:.*]] = "stablehlo.get_tuple_element"(%[[S]]) <{index = 0 : i32}> : (tuple<tensor<i32>, tensor<3xf32>>) -> tensor<i32>
  // CHECK-NEXT: %[[V:.*]] = "stablehlo.get_tuple_element"(%[[S]]) <{index = 1 : i32}> : (tuple<tensor<i32>, tensor<3xf32>>) -> tensor<3xf32>
  // CHECK-NEXT: %[[W0:.*]], %[[W1:.*]] = "stablehlo.while"(%[[N]], %[[V]]) ({
  // CHECK-NEXT: ^bb0(%[[CN:.*]]: tensor<i32>, %[[CV:.*]]: tensor<3xf32>):
  // CHECK-NEXT: "stablehlo.tuple"(%[[CN]], %[[CV]]) : (tensor<i32>, tensor<3xf32>) -> tuple<tensor<i32>, tensor<3xf32>>
  // CHECK: "stablehlo.compare"
  // CHECK: "stablehlo.return"(%{{.*}}) : (tensor<i1>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<i32>, %{{.*}}: tensor<3xf32>):
  // CHECK: "stablehlo.return"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<3xf32>) -> ()
  // CHECK-NEXT: }) : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
  // CHECK-NEXT: %[[T:.*]] = "stablehlo.tuple"(%[[W0]], %[[W1]]) : (tensor<i32>, tensor<3xf32>) -> tuple<tensor<i32>, tensor<3xf32>>
  // CHECK-NEXT: func.return %[[T]] :
  %r = xla.while %s cond {
  ^bb0(%c: tuple<tensor<i32>, tensor<3xf32>>):
    %n = xla.get_tuple_element %c, index = 0 : (tuple<tensor<i32>, tensor<3xf32>>) -> tensor<i32>
    %ten = xla.constant dense<10> : tensor<i32>
    %lt = xla.compare %n, %ten, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%c: tuple<tensor<i32>, tensor<3xf32>>):
    %n = xla.get_tuple_element %c, index = 0 : (tuple<tensor<i32>, tensor<3xf32>>) -> tensor<i32>
    %v = xla.get_tuple_element %c, index = 1 : (tuple<tensor<i32>, tensor<3xf32>>) -> tensor<3xf32>
    %one = xla.constant dense<1> : tensor<i32>
    %n1 = xla.add %n, %one : tensor<i32>
    %v1 = xla.add %v, %v : tensor<3xf32>
    %t = xla.tuple %n1, %v1 : (tensor<i32>, tensor<3xf32>) -> tuple<tensor<i32>, tensor<3xf32>>
    xla.return %t : tuple<tensor<i32>, tensor<3xf32>>
  } : tuple<tensor<i32>, tensor<3xf32>>
  func.return %r : tuple<tensor<i32>, tensor<3xf32>>
}

// Reduce keeps its body as a block with arguments; xla.call becomes func.call.
// CHECK-LABEL: func.func public @reduce_and_call(
func.func @reduce_and_call(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[M:.*]] = "stablehlo.maximum"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "stablehlo.return"(%[[M]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK-NEXT: func.call @double(%[[R]]) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = xla.call %0, callee = @double : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}

func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.add %x, %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
