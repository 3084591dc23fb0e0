// An all_reduce in a loop of %n trips: a replica given a larger %n than the others
// reaches an all_reduce no other replica reaches.
func.func @main(%x: tensor<2xf32>, %n: tensor<i32>) -> tensor<2xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %i, %r, %m = xla.while %zero, %x, %n cond {
  ^bb0(%ci: tensor<i32>, %cx: tensor<2xf32>, %cn: tensor<i32>):
    %go = xla.compare %ci, %cn, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %go : tensor<i1>
  } body {
  ^bb0(%bi: tensor<i32>, %bx: tensor<2xf32>, %bn: tensor<i32>):
    %one = xla.constant dense<1> : tensor<i32>
    %ni = xla.add %bi, %one : tensor<i32>
    %s = xla.all_reduce %bx, replica_groups = [] computation {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = xla.add %a, %b : tensor<f32>
      xla.return %t : tensor<f32>
    } : tensor<2xf32>
    xla.return %ni, %s, %bn : tensor<i32>, tensor<2xf32>, tensor<i32>
  } : (tensor<i32>, tensor<2xf32>, tensor<i32>) -> (tensor<i32>, tensor<2xf32>, tensor<i32>)
  func.return %r : tensor<2xf32>
}
