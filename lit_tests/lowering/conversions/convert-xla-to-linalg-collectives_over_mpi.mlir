// RUN: xla-opt %s -p 'convert-xla-to-linalg{replica-id=1}' | filecheck %s
// RUN: not xla-opt %s -p convert-xla-to-linalg 2>&1 | filecheck %s --check-prefix=NOID
// RUN: not xla-opt %s -p 'convert-xla-to-linalg{replica-id=2}' 2>&1 | filecheck %s --check-prefix=RANGE

// A module of 2 replicas, lowered for replica 1 as MPI rank 1 lowers it: no MPI job is
// needed to see what a rank runs. Its replica id is a constant; its collectives call
// the MPI wrappers (lowering/kernels/mpi.py) with a grouping's number (in the order the
// lowering meets them: all replicas first, then [[1, 0]]) and MPI's datatype and op as
// codes (DATATYPES[3] = INT32_T, OPS[0] = SUM), which the runtime maps to the job's
// handles. An integer sum is MPI's own Allreduce; a float sum is gathered and folded in
// group order (member 0 is replica 1), as the interpreter folds it.

// CHECK-LABEL: func.func @main
// CHECK:         %r = arith.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[WORLD:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[COUNT:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[INT32:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[SUM:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    func.call @xla_opt_mpi_allreduce__3xi32__3xi32(%[[WORLD]], %[[COUNT]], %[[INT32]], %[[SUM]], %i)
// CHECK:         %[[GROUPS:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.constant 12 : i64
// CHECK-NEXT:    %[[ALL:.*]] = func.call @xla_opt_mpi_allgather__3xf32__2x3xf32(%[[GROUPS]], %[[BYTES]], %f)
// CHECK:         tensor.extract %[[ALL]][%{{.*}}, %{{.*}}] : tensor<2x3xf32>
// CHECK:         affine_map<(d0) -> (1, d0)>
// CHECK:         arith.addf
// A permute of replica 1: it receives from replica 0 and sends to replica 0.
// CHECK:         %[[EVERYONE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 12 : i64
// CHECK-NEXT:    %[[SOURCE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[TARGET:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    func.call @xla_opt_mpi_permute__3xf32__3xf32(%[[EVERYONE]], %[[SIZE]], %[[SOURCE]], %[[TARGET]], %f)
// CHECK:       func.func private @xla_opt_mpi_allreduce__3xi32__3xi32(i64, i64, i64, i64, tensor<3xi32>) -> tensor<3xi32>

// NOID: error: 'xla.replica_id' op the module runs on 2 replicas, one per rank of an MPI job: lower it for one of them (convert-xla-to-linalg{replica-id=R}, as each rank's JIT does)
// RANGE: error: 'xla.replica_id' op replica-id 2 is not one of the module's 2 replicas

module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%i: tensor<3xi32>, %f: tensor<3xf32>) -> (tensor<ui32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>) {
    %r = xla.replica_id : tensor<ui32>
    %a = xla.all_reduce %i, replica_groups = [] computation {
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = xla.add %p, %q : tensor<i32>
      xla.return %s : tensor<i32>
    } : tensor<3xi32>
    %b = xla.all_reduce %f, replica_groups = [[1, 0]] computation {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = xla.add %p, %q : tensor<f32>
      xla.return %s : tensor<f32>
    } : tensor<3xf32>
    %c = xla.collective_permute %f, source_target_pairs = [[0, 1], [1, 0]] : tensor<3xf32>
    func.return %r, %a, %b, %c : tensor<ui32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>
  }
}
