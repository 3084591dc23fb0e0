// RUN: xla-opt %s -p convert-xla-to-linalg --split-input-file --verify-diagnostics | filecheck %s

// A sharded program compiled whole (not partitioned): constraints and reshards are
// their operands, sharding groups and meshes nothing, and the shardings functions
// carry are dropped with the meshes they name.
// CHECK-LABEL: builtin.module {
// CHECK-NOT:     sdy.
// CHECK:         func.func @whole(%[[X:.*]]: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:      %{{.*}} = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:      %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>)
// CHECK:           func.return %[[Y]] : tensor<8xf32>
// CHECK-NOT:     sdy.
sdy.mesh @mesh = <["x"=2]>
func.func @whole(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = xla.sine %0 attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = sdy.reshard %1 <@mesh, [{"x"}]> : tensor<8xf32>
  sdy.sharding_group %2 group_id=0 : tensor<8xf32>
  func.return %2 : tensor<8xf32>
}

// -----

// A manual computation is one device's code: it needs xla-spmd-partition.
sdy.mesh @mesh = <["x"=2]>
func.func @manual(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op is one device's code over its manual axes: it runs in a partitioned program only (xla-spmd-partition), not in the global program run whole}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
