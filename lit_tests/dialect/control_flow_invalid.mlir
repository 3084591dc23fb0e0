// RUN: xla-opt %s --split-input-file --verify-diagnostics

// ---- while --------------------------------------------------------------------------

func.func @while_cond_not_scalar_pred(%i: tensor<2xi32>) {
  // expected-error @+1 {{cond must return (tensor<i1>), but returns (tensor<2xi1>)}}
  %r = xla.while %i cond {
  ^bb0(%a: tensor<2xi32>):
    %lt = xla.compare %a, %a, comparison_direction = LT : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    xla.return %lt : tensor<2xi1>
  } body {
  ^bb0(%a: tensor<2xi32>):
    xla.return %a : tensor<2xi32>
  } : tensor<2xi32>
  func.return
}

// -----

func.func @while_cond_arguments(%i: tensor<i32>, %v: tensor<10xf32>) {
  // expected-error @+1 {{cond must take (tensor<i32>, tensor<10xf32>), but takes (tensor<i32>)}}
  %r:2 = xla.while %i, %v cond {
  ^bb0(%a: tensor<i32>):
    %t = xla.constant dense<true> : tensor<i1>
    xla.return %t : tensor<i1>
  } body {
  ^bb0(%a: tensor<i32>, %b: tensor<10xf32>):
    xla.return %a, %b : tensor<i32>, tensor<10xf32>
  } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  func.return
}

// -----

func.func @while_body_arguments(%i: tensor<i32>, %v: tensor<10xf32>) {
  // expected-error @+1 {{body must take (tensor<i32>, tensor<10xf32>), but takes (tensor<10xf32>, tensor<i32>)}}
  %r:2 = xla.while %i, %v cond {
  ^bb0(%a: tensor<i32>, %b: tensor<10xf32>):
    %t = xla.constant dense<true> : tensor<i1>
    xla.return %t : tensor<i1>
  } body {
  ^bb0(%b: tensor<10xf32>, %a: tensor<i32>):
    xla.return %a, %b : tensor<i32>, tensor<10xf32>
  } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  func.return
}

// -----

func.func @while_body_results(%i: tensor<i32>, %v: tensor<10xf32>) {
  // expected-error @+1 {{body must return (tensor<i32>, tensor<10xf32>), but returns (tensor<i32>)}}
  %r:2 = xla.while %i, %v cond {
  ^bb0(%a: tensor<i32>, %b: tensor<10xf32>):
    %t = xla.constant dense<true> : tensor<i1>
    xla.return %t : tensor<i1>
  } body {
  ^bb0(%a: tensor<i32>, %b: tensor<10xf32>):
    xla.return %a : tensor<i32>
  } : (tensor<i32>, tensor<10xf32>) -> (tensor<i32>, tensor<10xf32>)
  func.return
}

// -----

func.func @while_results(%i: tensor<i32>) {
  // expected-error @+1 {{inferred result type tensor<i32> does not match declared tensor<i64>}}
  %r = xla.while %i cond {
  ^bb0(%a: tensor<i32>):
    %t = xla.constant dense<true> : tensor<i1>
    xla.return %t : tensor<i1>
  } body {
  ^bb0(%a: tensor<i32>):
    xla.return %a : tensor<i32>
  } : (tensor<i32>) -> tensor<i64>
  func.return
}

// ---- conditional --------------------------------------------------------------------

// -----

func.func @conditional_pred_branch_count(%p: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{a PRED index selects between exactly 2 branches (true, false), got 3}}
  %r = xla.conditional %p, %x, %x, %x branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i1>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_no_branch(%i: tensor<i32>) {
  // expected-error @+1 {{an S32 branch index needs at least 1 branch, got 0}}
  xla.conditional %i branches() : (tensor<i32>) -> ()
  func.return
}

// -----

func.func @conditional_index_type(%i: tensor<i64>, %x: tensor<f32>) {
  // expected-error @+1 {{index must be tensor<i1> (PRED) or tensor<i32> (S32 branch index), got tensor<i64>}}
  %r = xla.conditional %i, %x branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i64>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_index_not_scalar(%p: tensor<2xi1>, %x: tensor<f32>) {
  // expected-error @+1 {{index must be tensor<i1> (PRED) or tensor<i32> (S32 branch index), got tensor<2xi1>}}
  %r = xla.conditional %p, %x, %x branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<2xi1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_operand_count(%p: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{expects one branch operand per branch, got 1 branch_operands for 2 branches}}
  %r = xla.conditional %p, %x branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_branch_argument(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<2xi32>) {
  // expected-error @+1 {{branch #1 must take (tensor<2xi32>), but takes (tensor<f32>)}}
  %r = xla.conditional %p, %x, %y branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i1>, tensor<f32>, tensor<2xi32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_branch_arity(%i: tensor<i32>, %x: tensor<f32>) {
  // A branch takes exactly one parameter; pass a tuple for several.
  // expected-error @+1 {{branch #0 must take (tensor<f32>), but takes (tensor<f32>, tensor<f32>)}}
  %r = xla.conditional %i, %x branches({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.return %a : tensor<f32>
  }) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @conditional_branch_results(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) {
  // expected-error @+1 {{branch #1 must return (tensor<f32>), but returns (tensor<i32>)}}
  %r = xla.conditional %p, %x, %y branches({
  ^bb0(%a: tensor<f32>):
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%b: tensor<i32>):
    xla.return %b : tensor<i32>
  }) : (tensor<i1>, tensor<f32>, tensor<i32>) -> tensor<f32>
  func.return
}

// ---- call ---------------------------------------------------------------------------

// -----

func.func @call_missing(%x: tensor<f32>) {
  // expected-error @+1 {{callee @missing is not defined}}
  %r = xla.call %x, callee = @missing : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

builtin.module @not_a_function {
}

func.func @call_not_a_function() {
  // expected-error @+1 {{callee @not_a_function is a builtin.module, not a func.func}}
  xla.call callee = @not_a_function : () -> ()
  func.return
}

// -----

func.func private @scale(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32>

func.func @call_operand_types(%x: tensor<2xf32>) {
  // expected-error @+1 {{operand types (tensor<2xf32>) do not match callee @scale inputs (tensor<2xf32>, tensor<f32>)}}
  %r = xla.call %x, callee = @scale : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func private @scale(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32>

func.func @call_result_types(%x: tensor<2xf32>, %k: tensor<f32>) {
  // expected-error @+1 {{result types (tensor<f32>) do not match callee @scale results (tensor<2xf32>)}}
  %r = xla.call %x, %k, callee = @scale : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  func.return
}
