// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file | filecheck %s

// stablehlo.complex (short form: only the result type) becomes the parts interleaved
// along a new minor dimension and bitcast: exact for every value (issue 13).
// CHECK-LABEL: func.func @complex
// CHECK:         %[[R:.*]] = xla.reshape %re : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[I:.*]] = xla.reshape %im : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[C:.*]] = xla.concatenate %[[R]], %[[I]], dimension = 1 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %{{.*}} = xla.bitcast_convert %[[C]] : (tensor<4x2xf32>) -> tensor<4xcomplex<f32>>
func.func @complex(%re: tensor<4xf32>, %im: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// A complex-to-real convert is the real part (then converted).
// CHECK-LABEL: func.func @convert_complex_to_real
// CHECK:         %[[R:.*]] = xla.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NEXT:    %{{.*}} = xla.convert %[[R]] : (tensor<2xf64>) -> tensor<2xf32>
func.func @convert_complex_to_real(%z: tensor<2xcomplex<f64>>) -> tensor<2xf32> {
  %0 = stablehlo.convert %z : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// partition_id is the replica id (partitions run as replicas); cross-replica-sum an
// all_reduce that adds.
// CHECK-LABEL: func.func @partitions
// CHECK:         xla.replica_id : tensor<ui32>
// CHECK:         xla.all_reduce %x, replica_groups = {{\[\[}}0, 1]] computation {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[S:.*]] = xla.add %[[A]], %[[B]] : tensor<f32>
// CHECK-NEXT:      xla.return %[[S]] : tensor<f32>
func.func @partitions(%x: tensor<2xf32>) -> (tensor<ui32>, tensor<2xf32>) {
  %0 = stablehlo.partition_id : tensor<ui32>
  %1 = "stablehlo.cross-replica-sum"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<ui32>, tensor<2xf32>
}

// -----

// collective_broadcast: each group's first replica keeps its operand, the others
// receive it by a collective_permute (one per member position), a replica in no group
// gets zeros; each replica selects by its replica_id.
// CHECK-LABEL: func.func @collective_broadcast
// CHECK:         %[[ID:.*]] = xla.replica_id : tensor<ui32>
// CHECK:         %[[SOURCE:.*]] = xla.or
// CHECK:         %[[TARGET:.*]] = xla.or
// CHECK:         %[[ZERO:.*]] = xla.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:    %[[OWN:.*]] = xla.select %[[SOURCE]], %x, %[[ZERO]]
// CHECK-NEXT:    %[[GOT:.*]] = xla.collective_permute %x, source_target_pairs = {{\[\[}}2, 1], [0, 3]] : tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = xla.select %[[TARGET]], %[[GOT]], %[[OWN]]
func.func @collective_broadcast(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 1], [0, 3]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A composite is a call of its decomposition.
// CHECK-LABEL: func.func @composite
// CHECK:         %{{.*}} = xla.call %x, callee = @my_double : tensor<2xf32>
func.func @composite(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.composite "my.double" %x {decomposition = @my_double, version = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @my_double(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
