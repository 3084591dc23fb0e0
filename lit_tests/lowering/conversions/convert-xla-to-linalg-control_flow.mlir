// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

func.func private @step(%i: tensor<i32>, %x: tensor<4xf32>) -> (tensor<i1>, tensor<i32>, tensor<4xf32>)

// xla.while -> scf.while on tensors: cond is the before region, its xla.return (a PRED
// scalar) becomes tensor.extract + scf.condition forwarding the state; body is the
// after region, its xla.return an scf.yield. The call in the body is a func.call.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME:    (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %{{[^ ,]+}}, %{{[^ ,]+}}, %[[RX:[^ ,]+]] = scf.while (%[[CP:[^ ,]+]] = %[[P]], %[[CI:[^ ,]+]] = %[[I]], %[[CX:[^ ,]+]] = %[[X]]) : (tensor<i1>, tensor<i32>, tensor<4xf32>) -> (tensor<i1>, tensor<i32>, tensor<4xf32>) {
// CHECK-NEXT:      %[[GO:.*]] = tensor.extract %[[CP]][] : tensor<i1>
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[CP]], %[[CI]], %[[CX]] : tensor<i1>, tensor<i32>, tensor<4xf32>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%{{[^ ,]+}}: tensor<i1>, %[[BI:[^ ,]+]]: tensor<i32>, %[[BX:[^ ,]+]]: tensor<4xf32>):
// CHECK-NEXT:      %[[S0:[^ ,]+]], %[[S1:[^ ,]+]], %[[S2:[^ ,]+]] = func.call @step(%[[BI]], %[[BX]]) : (tensor<i32>, tensor<4xf32>) -> (tensor<i1>, tensor<i32>, tensor<4xf32>)
// CHECK-NEXT:      scf.yield %[[S0]], %[[S1]], %[[S2]] : tensor<i1>, tensor<i32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[RX]] : tensor<4xf32>
func.func @while_loop(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %rp, %ri, %rx = xla.while %p, %i, %x cond {
  ^bb0(%cp: tensor<i1>, %ci: tensor<i32>, %cx: tensor<4xf32>):
    xla.return %cp : tensor<i1>
  } body {
  ^bb0(%bp: tensor<i1>, %bi: tensor<i32>, %bx: tensor<4xf32>):
    %np, %ni, %nx = xla.call %bi, %bx, callee = @step : (tensor<i32>, tensor<4xf32>) -> (tensor<i1>, tensor<i32>, tensor<4xf32>)
    xla.return %np, %ni, %nx : tensor<i1>, tensor<i32>, tensor<4xf32>
  } : (tensor<i1>, tensor<i32>, tensor<4xf32>) -> (tensor<i1>, tensor<i32>, tensor<4xf32>)
  func.return %rx : tensor<4xf32>
}

// Ops nested in the regions are lowered by the same pattern set (a dot in the body).
// CHECK-LABEL: func.func @while_with_dot
// CHECK:         scf.while
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           linalg.matmul ins(
// CHECK:           scf.yield
// CHECK-NOT:     xla.
func.func @while_with_dot(%p: tensor<i1>, %m: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %rp, %rm = xla.while %p, %m cond {
  ^bb0(%cp: tensor<i1>, %cm: tensor<2x2xf32>):
    xla.return %cp : tensor<i1>
  } body {
  ^bb0(%bp: tensor<i1>, %bm: tensor<2x2xf32>):
    %sq = xla.dot %bm, %bm : tensor<2x2xf32>
    xla.return %bp, %sq : tensor<i1>, tensor<2x2xf32>
  } : (tensor<i1>, tensor<2x2xf32>) -> (tensor<i1>, tensor<2x2xf32>)
  func.return %rm : tensor<2x2xf32>
}

// PRED conditional -> scf.if (true: branch 0); each branch's argument is replaced by
// its branch operand.
// CHECK-LABEL: func.func @conditional_pred
// CHECK-SAME:    (%[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[C:.*]] = tensor.extract %[[P]][] : tensor<i1>
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (tensor<3xf32>) {
// CHECK-NEXT:      scf.yield %[[A]] : tensor<3xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[F:.*]] = func.call @id(%[[B]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      scf.yield %[[F]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<3xf32>
func.func private @id(%x: tensor<3xf32>) -> tensor<3xf32>
func.func @conditional_pred(%p: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %r = xla.conditional %p, %a, %b branches({
  ^bb0(%x: tensor<3xf32>):
    xla.return %x : tensor<3xf32>
  }, {
  ^bb0(%y: tensor<3xf32>):
    %z = xla.call %y, callee = @id : tensor<3xf32>
    xla.return %z : tensor<3xf32>
  }) : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// S32 branch index -> nested scf.if on index == 0, index == 1; any other index (out of
// range included) runs the last branch.
// CHECK-LABEL: func.func @conditional_index
// CHECK-SAME:    (%[[K:.*]]: tensor<i32>, %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<i32>, %[[C:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[IDX:.*]] = tensor.extract %[[K]][] : tensor<i32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[IS0:.*]] = arith.cmpi eq, %[[IDX]], %[[C0]] : i32
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[IS0]] -> (tensor<f32>) {
// CHECK-NEXT:      scf.yield %[[A]] : tensor<f32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[IS1:.*]] = arith.cmpi eq, %[[IDX]], %[[C1]] : i32
// CHECK-NEXT:      %[[R1:.*]] = scf.if %[[IS1]] -> (tensor<f32>) {
// CHECK-NEXT:        %[[F:.*]] = func.call @to_f32(%[[B]]) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:        scf.yield %[[F]] : tensor<f32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[C]] : tensor<f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[R1]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<f32>
func.func private @to_f32(%x: tensor<i32>) -> tensor<f32>
func.func @conditional_index(%k: tensor<i32>, %a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>) -> tensor<f32> {
  %r = xla.conditional %k, %a, %b, %c branches({
  ^bb0(%x: tensor<f32>):
    xla.return %x : tensor<f32>
  }, {
  ^bb0(%y: tensor<i32>):
    %z = xla.call %y, callee = @to_f32 : (tensor<i32>) -> tensor<f32>
    xla.return %z : tensor<f32>
  }, {
  ^bb0(%w: tensor<f32>):
    xla.return %w : tensor<f32>
  }) : (tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// A single branch runs for every index: its ops replace the conditional.
// CHECK-LABEL: func.func @conditional_single_branch
// CHECK-SAME:    (%{{.*}}: tensor<i32>, %[[A:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[F:.*]] = func.call @id(%[[A]]) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[F]] : tensor<3xf32>
func.func @conditional_single_branch(%k: tensor<i32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %r = xla.conditional %k, %a branches({
  ^bb0(%x: tensor<3xf32>):
    %z = xla.call %x, callee = @id : tensor<3xf32>
    xla.return %z : tensor<3xf32>
  }) : (tensor<i32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// CHECK-LABEL: func.func @conditional_single_branch_identity
// CHECK-SAME:    (%{{.*}}: tensor<i32>, %[[A:.*]]: tensor<3xf32>)
// CHECK-NEXT:    func.return %[[A]] : tensor<3xf32>
func.func @conditional_single_branch_identity(%k: tensor<i32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %r = xla.conditional %k, %a branches({
  ^bb0(%x: tensor<3xf32>):
    xla.return %x : tensor<3xf32>
  }) : (tensor<i32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// xla.call -> func.call; unsigned types become signless in the callee and the call.
// CHECK-LABEL: func.func @callee
// CHECK-SAME:    (%{{.*}}: tensor<2xi32>) -> tensor<2xi32>
// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    %[[R:.*]] = func.call @callee(%{{.*}}) : (tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2xi32>
func.func @callee(%a: tensor<2xui32>) -> tensor<2xui32> {
  func.return %a : tensor<2xui32>
}
func.func @caller(%a: tensor<2xui32>) -> tensor<2xui32> {
  %r = xla.call %a, callee = @callee : tensor<2xui32>
  func.return %r : tensor<2xui32>
}
