// RUN: xla-opt %s --split-input-file -p xla-inline-calls | filecheck %s
// RUN: xla-opt %s --split-input-file -p 'xla-inline-calls{max_callee_ops=1}' | filecheck %s --check-prefix=SMALL

// A call is its callee's body; calls inside it are inlined in turn; the private
// functions no call names any more are gone, public ones stay.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = xla.tanh %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = xla.add %[[T]], %[[X]] : tensor<4xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<4xf32>
// CHECK-NOT:   func.func private
// CHECK:       func.func @public_helper
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.call %x, callee = @outer : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
func.func private @outer(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.call %a, callee = @inner : tensor<4xf32>
  %s = xla.add %t, %a : tensor<4xf32>
  func.return %s : tensor<4xf32>
}
func.func private @inner(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.tanh %a : tensor<4xf32>
  func.return %t : tensor<4xf32>
}
func.func @public_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}

// -----

// The body of a while loop: its calls are inlined (a scan's stacked output is then
// updated in place by the later stages, not copied through a call's result).
// CHECK-LABEL: func.func @scan
// CHECK:         body {
// CHECK-NOT:       xla.call
// CHECK:           xla.dynamic_update_slice
// CHECK:         }
// CHECK-NOT:   @update
func.func @scan(%acc: tensor<8x2xf32>, %v: tensor<1x2xf32>) -> tensor<8x2xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %r:3 = xla.while %acc, %v, %zero cond {
  ^bb0(%a: tensor<8x2xf32>, %w: tensor<1x2xf32>, %i: tensor<i32>):
    %n = xla.constant dense<8> : tensor<i32>
    %c = xla.compare %i, %n, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } body {
  ^bb0(%a: tensor<8x2xf32>, %w: tensor<1x2xf32>, %i: tensor<i32>):
    %u = xla.call %a, %w, %i, callee = @update : (tensor<8x2xf32>, tensor<1x2xf32>, tensor<i32>) -> tensor<8x2xf32>
    %one = xla.constant dense<1> : tensor<i32>
    %j = xla.add %i, %one : tensor<i32>
    xla.return %u, %w, %j : tensor<8x2xf32>, tensor<1x2xf32>, tensor<i32>
  } : (tensor<8x2xf32>, tensor<1x2xf32>, tensor<i32>) -> (tensor<8x2xf32>, tensor<1x2xf32>, tensor<i32>)
  func.return %r#0 : tensor<8x2xf32>
}
func.func private @update(%a: tensor<8x2xf32>, %v: tensor<1x2xf32>, %i: tensor<i32>) -> tensor<8x2xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %u = xla.dynamic_update_slice %a, %v, %i, %zero : (tensor<8x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  func.return %u : tensor<8x2xf32>
}

// -----

// A callee above max_callee_ops called from two places stays a function; called from
// one place it is inlined whatever its size.
// CHECK-LABEL: func.func @twice
// CHECK-COUNT-2: xla.tanh
// SMALL-LABEL: func.func @twice
// SMALL-COUNT-2: xla.call %{{.*}}, callee = @two_ops
// SMALL:       func.func private @two_ops
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = xla.call %x, callee = @two_ops : tensor<4xf32>
  %b = xla.call %a, callee = @two_ops : tensor<4xf32>
  func.return %b : tensor<4xf32>
}
func.func private @two_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.tanh %a : tensor<4xf32>
  func.return %t : tensor<4xf32>
}

// -----

// SMALL-LABEL: func.func @once
// SMALL-NEXT:    xla.tanh
// SMALL-NEXT:    xla.exponential
// SMALL-NOT:   func.func private
func.func @once(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = xla.call %x, callee = @big : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
func.func private @big(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.tanh %a : tensor<4xf32>
  %e = xla.exponential %t : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

// A function that calls itself is left as it is (the verifier does not forbid it).
// CHECK-LABEL: func.func @loops
// SMALL-LABEL: func.func @loops
// CHECK:         xla.call %{{.*}}, callee = @self
// CHECK:       func.func private @self
// CHECK:         xla.call %{{.*}}, callee = @self
func.func @loops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = xla.call %x, callee = @self : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
func.func private @self(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.call %a, callee = @self : tensor<4xf32>
  func.return %t : tensor<4xf32>
}
