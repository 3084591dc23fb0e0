// RUN: xla-opt %s --split-input-file --verify-diagnostics

// SSA dominance (issue 8: a use before its definition passed the verifier and then
// crashed xla-bufferize).

func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
func.func @use_before_def(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'func.call' op operand #1 does not dominate this use}}
  %1 = func.call @f(%arg0, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = xla.add %arg0, %arg0 : tensor<2xf32>
  func.return %1 : tensor<2xf32>
}

// -----

func.func @use_by_itself(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'xla.add' op operand #1 does not dominate this use}}
  %0 = xla.add %arg0, %0 : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @branch_not_dominating(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  %y = arith.addi %x, %x : i32
  cf.br ^b
^b:
  // expected-error @+1 {{'func.return' op operand #0 does not dominate this use}}
  func.return %y : i32
}

// -----

// Defined in a dominating block: valid (no diagnostic).
func.func @dominating_block(%c: i1, %x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^b
^b:
  func.return %y : i32
}
