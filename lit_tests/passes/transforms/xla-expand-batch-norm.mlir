// RUN: xla-opt %s -p xla-expand-batch-norm | filecheck %s

// Training: mean = sum(x) / N over every dimension but feature_index, the two-pass
// variance sum((x - mean)^2) / N, then scale * (x - mean) / sqrt(var + eps) + offset
// with the per-feature vectors broadcast along feature_index.
// CHECK-LABEL: func.func @training
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<3xf32>, %[[O:.*]]: tensor<3xf32>)
// CHECK-DAG:     %[[N:.*]] = xla.constant dense<8.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[EPS:.*]] = xla.constant dense<1.000000e-03> : tensor<f32>
// CHECK:         %[[SUM:.*]] = xla.reduce (%[[X]]), (%{{.*}}), dimensions = [0, 2] body {
// CHECK:           xla.add
// CHECK:         } : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[MEAN:.*]] = xla.divide %[[SUM]], %[[N]] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[MEANB:.*]] = xla.broadcast_in_dim %[[MEAN]], broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[C:.*]] = xla.subtract %[[X]], %[[MEANB]] : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[SQ:.*]] = xla.multiply %[[C]], %[[C]] : tensor<2x3x4xf32>
// CHECK:         %[[SQSUM:.*]] = xla.reduce (%[[SQ]]), (%{{.*}}), dimensions = [0, 2] body {
// CHECK:         %[[VAR:.*]] = xla.divide %[[SQSUM]], %[[N]]
// CHECK-NEXT:    %[[SB:.*]] = xla.broadcast_in_dim %[[S]], broadcast_dimensions = [1]
// CHECK-NEXT:    %[[SC:.*]] = xla.multiply %[[SB]], %[[C]] : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[VE:.*]] = xla.add %[[VAR]], %[[EPS]] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[SD:.*]] = xla.sqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[SDB:.*]] = xla.broadcast_in_dim %[[SD]], broadcast_dimensions = [1]
// CHECK-NEXT:    %[[Y0:.*]] = xla.divide %[[SC]], %[[SDB]] : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[OB:.*]] = xla.broadcast_in_dim %[[O]], broadcast_dimensions = [1]
// CHECK-NEXT:    %[[Y:.*]] = xla.add %[[Y0]], %[[OB]] : tensor<2x3x4xf32>
// CHECK-NEXT:    func.return %[[Y]], %[[MEAN]], %[[VAR]]
// CHECK-NOT:     xla.batch_norm
func.func @training(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = "xla.batch_norm_training"(%x, %s, %o) <{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %r#0, %r#1, %r#2 : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// Inference on bf16: computed in f32 (every operand converted), the result converted
// back; nothing is reduced.
// CHECK-LABEL: func.func @inference
// CHECK:         %[[X:.*]] = xla.convert %{{.*}} : (tensor<4x2xbf16>) -> tensor<4x2xf32>
// CHECK:         %[[MB:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [1] : (tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %{{.*}} = xla.subtract %[[X]], %[[MB]] : tensor<4x2xf32>
// CHECK-NOT:     xla.reduce
// CHECK:         xla.sqrt
// CHECK:         %[[Y:.*]] = xla.convert %{{.*}} : (tensor<4x2xf32>) -> tensor<4x2xbf16>
// CHECK-NEXT:    func.return %[[Y]]
func.func @inference(%x: tensor<4x2xbf16>, %s: tensor<2xbf16>, %o: tensor<2xbf16>, %m: tensor<2xbf16>, %v: tensor<2xbf16>) -> tensor<4x2xbf16> {
  %r = "xla.batch_norm_inference"(%x, %s, %o, %m, %v) <{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}> : (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> tensor<4x2xbf16>
  func.return %r : tensor<4x2xbf16>
}

// Grad (feature_index 0): three reductions over dimension 1 (dy (x - mean) / (var + eps),
// dy, dy (x - mean) / sqrt(var + eps)); grad_offset is sum(dy) itself.
// CHECK-LABEL: func.func @grad
// CHECK-SAME:    %[[DY:[^:]*]]: tensor<3x2xf64>)
// CHECK:         %[[C:.*]] = xla.reduce (%{{.*}}), (%{{.*}}), dimensions = [1] body {
// CHECK:         %[[DOFF:.*]] = xla.reduce (%[[DY]]), (%{{.*}}), dimensions = [1] body {
// CHECK:         xla.subtract %[[DY]], %{{.*}} : tensor<3x2xf64>
// CHECK:         %[[CORR:.*]] = xla.subtract %{{.*}}, %{{.*}} : tensor<3x2xf64>
// CHECK:         %[[DX:.*]] = xla.multiply %{{.*}}, %[[CORR]] : tensor<3x2xf64>
// CHECK:         %[[DSCALE:.*]] = xla.reduce (%{{.*}}), (%{{.*}}), dimensions = [1] body {
// CHECK:         func.return %[[DX]], %[[DSCALE]], %[[DOFF]] : tensor<3x2xf64>, tensor<3xf64>, tensor<3xf64>
func.func @grad(%x: tensor<3x2xf64>, %s: tensor<3xf64>, %m: tensor<3xf64>, %v: tensor<3xf64>, %dy: tensor<3x2xf64>) -> (tensor<3x2xf64>, tensor<3xf64>, tensor<3xf64>) {
  %r:3 = "xla.batch_norm_grad"(%x, %s, %m, %v, %dy) <{epsilon = 1.0e-3 : f32, feature_index = 0 : i64}> : (tensor<3x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3x2xf64>) -> (tensor<3x2xf64>, tensor<3xf64>, tensor<3xf64>)
  func.return %r#0, %r#1, %r#2 : tensor<3x2xf64>, tensor<3xf64>, tensor<3xf64>
}
