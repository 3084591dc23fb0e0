// RUN: xla-opt %s -p convert-xla-to-linalg --split-input-file --verify-diagnostics | filecheck %s

// One replica (the JIT's): replica_id is the constant 0; all_reduce, all_gather,
// reduce_scatter and all_to_all over a group of one forward their operand; a
// collective_permute that targets replica 0 forwards it too, one that does not
// gives zeros.
// CHECK-LABEL: func.func @one_replica
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[ZEROS:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      linalg.yield %[[ZERO]] : f32
// CHECK:         %[[ID:.*]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:    func.return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[ZEROS]], %[[ID]]
func.func @one_replica(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<ui32>) {
  %r0 = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = xla.add %p, %q : tensor<f32>
    xla.return %s : tensor<f32>
  } : tensor<2x4xf32>
  %r1 = xla.all_gather %x, all_gather_dim = 1, replica_groups = [[0]] : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r2 = xla.reduce_scatter %x, scatter_dimension = 0, replica_groups = [] computation {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = xla.add %p, %q : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r3 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 1, replica_groups = [[0]] : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r4 = xla.collective_permute %x, source_target_pairs = [[0, 0]] : tensor<2x4xf32>
  %r5 = xla.collective_permute %x, source_target_pairs = [] : tensor<2x4xf32>
  %id = xla.replica_id : tensor<ui32>
  func.return %r0, %r1, %r2, %r3, %r4, %r5, %id : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<ui32>
}

// -----

// A program for several replicas is a located error.
func.func @two_replicas(%x: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.all_gather' op replica_groups [[0, 1]] names replica ids [1]: the jit backend runs one replica in-process (replicas=N runs on the interpreter, or as MPI ranks on either backend)}}
  %r = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
