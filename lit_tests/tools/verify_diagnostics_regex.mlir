// RUN: xla-opt %s --split-input-file --verify-diagnostics

// An expected-error-re's text runs to the last `}}` of its line, as in MLIR, so its own
// {{regex}} islands are kept (issue 31: the text was cut at the first `}}`).

func.func @islands(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error-re @+1 {{'xla.add' op {{.*}} are incom{{[a-z]+}}: dimension {{[0-9]+}}}}
  %r = xla.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// An island that ends the line.
func.func @island_at_the_end(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error-re @+1 {{shapes [4] and [3] {{.*}}}}
  %r = xla.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
