// RUN: xla-opt %s -p xla-legalize-broadcast | filecheck %s

// A scalar operand broadcasts freely: broadcast_in_dim with no dimensions.
// CHECK-LABEL: func.func @scalar_operand
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %[[S]], broadcast_dimensions = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.add %[[A]], %[[B]] : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @scalar_operand(%a: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %r = xla.add %a, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// The scalar may be the lhs too.
// CHECK-LABEL: func.func @scalar_lhs
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %{{.*}} = xla.subtract %[[B]], %{{.*}} : tensor<4xi32>
func.func @scalar_lhs(%s: tensor<i32>, %a: tensor<4xi32>) -> tensor<4xi32> {
  %r = xla.subtract %s, %a : (tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// InDim broadcasting: the vector's dimension goes to broadcast_dimensions; the
// attribute leaves the element-wise op.
// CHECK-LABEL: func.func @in_dim
// CHECK-SAME:    (%[[M:.*]]: tensor<2x3xf32>, %[[V:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %[[V]], broadcast_dimensions = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.multiply %[[M]], %[[B]] : tensor<2x3xf32>
// CHECK-NOT:     broadcast_dimensions = [1] :
func.func @in_dim(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = xla.multiply %m, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// broadcasting.md's example: a rank-1 lhs to dimension 0 of a 2x... degenerate rhs:
// both operands are broadcast, the lhs through InDim then its degenerate dimension.
// CHECK-LABEL: func.func @in_dim_and_degenerate
// CHECK-SAME:    (%[[V:.*]]: tensor<4xf32>, %[[D:.*]]: tensor<1x2xf32>)
// CHECK-NEXT:    %[[BV:.*]] = xla.broadcast_in_dim %[[V]], broadcast_dimensions = [0] : (tensor<4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %[[BD:.*]] = xla.broadcast_in_dim %[[D]], broadcast_dimensions = [0, 1] : (tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %{{.*}} = xla.add %[[BV]], %[[BD]] : tensor<4x2xf32>
func.func @in_dim_and_degenerate(%v: tensor<4xf32>, %d: tensor<1x2xf32>) -> tensor<4x2xf32> {
  %r = xla.add %v, %d, broadcast_dimensions = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}

// Degenerate broadcasting between equal ranks, one size-1 dimension on each side.
// CHECK-LABEL: func.func @degenerate_both
// CHECK-NEXT:    %[[L:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [0, 1] : (tensor<2x1xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %[[R:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [0, 1] : (tensor<1x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = xla.maximum %[[L]], %[[R]] : tensor<2x3xi8>
func.func @degenerate_both(%a: tensor<2x1xi8>, %b: tensor<1x3xi8>) -> tensor<2x3xi8> {
  %r = xla.maximum %a, %b : (tensor<2x1xi8>, tensor<1x3xi8>) -> tensor<2x3xi8>
  func.return %r : tensor<2x3xi8>
}

// Compare keeps its direction and type; the result is PRED of the broadcast shape.
// CHECK-LABEL: func.func @compare_scalar
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = xla.compare %[[B]], %{{.*}}, comparison_direction = LT, compare_type = TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
func.func @compare_scalar(%s: tensor<f32>, %a: tensor<3xf32>) -> tensor<3xi1> {
  %r = xla.compare %s, %a, comparison_direction = LT, compare_type = TOTALORDER : (tensor<f32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %r : tensor<3xi1>
}

// Identity broadcast_dimensions between equal shapes: only the attribute goes.
// CHECK-LABEL: func.func @identity_dims
// CHECK-NEXT:    %{{.*}} = xla.and %{{.*}}, %{{.*}} : tensor<2x2xi1>
func.func @identity_dims(%a: tensor<2x2xi1>, %b: tensor<2x2xi1>) -> tensor<2x2xi1> {
  %r = xla.and %a, %b, broadcast_dimensions = [0, 1] : tensor<2x2xi1>
  func.return %r : tensor<2x2xi1>
}

// Same shapes: nothing changes.
// CHECK-LABEL: func.func @same_shapes
// CHECK-NEXT:    %{{.*}} = xla.add %{{.*}}, %{{.*}} : tensor<2xf32>
// CHECK-NEXT:    func.return
func.func @same_shapes(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %r = xla.add %a, %b : tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// Scalars combined with scalars stay scalar.
// CHECK-LABEL: func.func @all_scalars
// CHECK-NEXT:    %{{.*}} = xla.divide %{{.*}}, %{{.*}} : tensor<ui32>
// CHECK-NEXT:    func.return
func.func @all_scalars(%a: tensor<ui32>, %b: tensor<ui32>) -> tensor<ui32> {
  %r = xla.divide %a, %b : tensor<ui32>
  func.return %r : tensor<ui32>
}

// A scalar pred of select is broadcast to the operands' shape.
// CHECK-LABEL: func.func @select_scalar_pred
// CHECK-SAME:    (%[[P:.*]]: tensor<i1>, %[[T:.*]]: tensor<2x2xf16>, %[[F:.*]]: tensor<2x2xf16>)
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %[[P]], broadcast_dimensions = [] : (tensor<i1>) -> tensor<2x2xi1>
// CHECK-NEXT:    %{{.*}} = xla.select %[[B]], %[[T]], %[[F]] : (tensor<2x2xi1>, tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
func.func @select_scalar_pred(%p: tensor<i1>, %t: tensor<2x2xf16>, %f: tensor<2x2xf16>) -> tensor<2x2xf16> {
  %r = xla.select %p, %t, %f : (tensor<i1>, tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  func.return %r : tensor<2x2xf16>
}

// Scalar bounds of clamp are broadcast; an array bound stays.
// CHECK-LABEL: func.func @clamp_scalar_bounds
// CHECK-SAME:    (%[[LO:.*]]: tensor<i32>, %[[X:.*]]: tensor<5xi32>, %[[HI:.*]]: tensor<5xi32>)
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %[[LO]], broadcast_dimensions = [] : (tensor<i32>) -> tensor<5xi32>
// CHECK-NEXT:    %{{.*}} = xla.clamp %[[B]], %[[X]], %[[HI]] : tensor<5xi32>
func.func @clamp_scalar_bounds(%lo: tensor<i32>, %x: tensor<5xi32>, %hi: tensor<5xi32>) -> tensor<5xi32> {
  %r = xla.clamp %lo, %x, %hi : (tensor<i32>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  func.return %r : tensor<5xi32>
}

// Ops inside computation regions are legalized too.
// CHECK-LABEL: func.func @in_region
// CHECK:         } body {
// CHECK:           %[[B:.*]] = xla.broadcast_in_dim %{{.*}}, broadcast_dimensions = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:      %{{.*}} = xla.add %{{.*}}, %[[B]] : tensor<2xf32>
func.func @in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = xla.while %a cond {
  ^bb0(%v: tensor<2xf32>):
    %false = xla.constant dense<false> : tensor<i1>
    xla.return %false : tensor<i1>
  } body {
  ^bb0(%v: tensor<2xf32>):
    %step = xla.constant dense<1.0> : tensor<f32>
    %sum = xla.add %v, %step : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    xla.return %sum : tensor<2xf32>
  } : tensor<2xf32>
  func.return %r : tensor<2xf32>
}
