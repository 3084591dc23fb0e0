// RUN: xla-opt %s | filecheck %s
// Every valid example of broadcasting.md, as an xla.add whose declared result type the
// verifier checks against the inferred one.

// CHECK-LABEL: func.func @degenerate
func.func @degenerate(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>, %c: tensor<1x2x5xf32>, %d: tensor<7x2x5xf32>,
                      %e: tensor<7x1x5xf32>, %f: tensor<1x3xf32>) {
  // CHECK: xla.add %{{.*}}, %{{.*}} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = xla.add %a, %b : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: xla.add %{{.*}}, %{{.*}} : (tensor<1x2x5xf32>, tensor<7x2x5xf32>) -> tensor<7x2x5xf32>
  %1 = xla.add %c, %d : (tensor<1x2x5xf32>, tensor<7x2x5xf32>) -> tensor<7x2x5xf32>
  // CHECK: xla.add %{{.*}}, %{{.*}} : (tensor<7x2x5xf32>, tensor<7x1x5xf32>) -> tensor<7x2x5xf32>
  %2 = xla.add %d, %e : (tensor<7x2x5xf32>, tensor<7x1x5xf32>) -> tensor<7x2x5xf32>
  // the "outer operation": (2,1) and (1,3) broadcast to (2,3)
  // CHECK: xla.add %{{.*}}, %{{.*}} : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %3 = xla.add %a, %f : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @scalar
func.func @scalar(%m: tensor<2x3xi32>, %s: tensor<i32>) {
  // CHECK: xla.add %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %0 = xla.add %m, %s : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  func.return
}

// CHECK-LABEL: func.func @in_dim
func.func @in_dim(%m23: tensor<2x3xf32>, %v3: tensor<3xf32>, %m33: tensor<3x3xf32>, %c234: tensor<2x3x4xf32>,
                  %m34: tensor<3x4xf32>) {
  // 2x3 matrix + 3-vector with dimension (1)
  // CHECK: xla.add %{{.*}}, %{{.*}}, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = xla.add %m23, %v3, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // 3x3 matrix + 3-vector with (1) and with (0)
  // CHECK: broadcast_dimensions = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %1 = xla.add %m33, %v3, broadcast_dimensions = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  // CHECK: broadcast_dimensions = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %2 = xla.add %m33, %v3, broadcast_dimensions = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  // the 2x3x4 cuboid and a 3x4 matrix with (1, 2)
  // CHECK: broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %3 = xla.add %c234, %m34, broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// A TxV matrix onto an MxNxPxQ = 2x3x4x5 array.
// CHECK-LABEL: func.func @matrix_onto_rank4
func.func @matrix_onto_rank4(%x: tensor<2x3x4x5xf32>, %pq: tensor<4x5xf32>, %np: tensor<3x4xf32>, %mq: tensor<2x5xf32>) {
  // CHECK: broadcast_dimensions = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %0 = xla.add %x, %pq, broadcast_dimensions = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: broadcast_dimensions = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
  %1 = xla.add %x, %np, broadcast_dimensions = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: broadcast_dimensions = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = xla.add %x, %mq, broadcast_dimensions = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>) -> tensor<2x3x4x5xf32>
  func.return
}

// Broadcast composition: InDim then degenerate broadcasting.
// CHECK-LABEL: func.func @composition
func.func @composition(%v4: tensor<4xf32>, %m12: tensor<1x2xf32>, %c431: tensor<4x3x1xf32>) {
  // vector 4 + 1x2 matrix with (0) -> 4x2
  // CHECK: broadcast_dimensions = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %0 = xla.add %v4, %m12, broadcast_dimensions = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  // 1x2 matrix + 4x3x1 array with (1, 2) -> 4x3x2
  // CHECK: broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  %1 = xla.add %m12, %c431, broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  func.return
}
