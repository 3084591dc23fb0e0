// Replica r adds r to its input; all_reduce sums the replicas' values.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %id = xla.replica_id : tensor<ui32>
  %r = xla.convert %id : (tensor<ui32>) -> tensor<f32>
  %y = xla.add %x, %r : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %sum = xla.all_reduce %y, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : tensor<2xf32>
  func.return %sum : tensor<2xf32>
}
