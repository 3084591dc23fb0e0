// -t hlo prints an xla program as HLO text that XLA's parser accepts (and ours reads
// back): a while's several operands are one tuple state, implicit broadcasting is
// explicit, xla.dot is a dot contracting lhs's last dimension.
// RUN: %xla-opt %s -t hlo | FileCheck %s
// RUN: %xla-opt %s -t hlo | %xla-opt - | FileCheck %s --check-prefix=BACK

func.func @main(%x: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2xf32>) {
  %zero = xla.constant dense<0> : tensor<i32>
  %r:2 = xla.while %zero, %x cond {
  ^bb0(%i: tensor<i32>, %v: tensor<3xf32>):
    %n = xla.constant dense<4> : tensor<i32>
    %lt = xla.compare %i, %n, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %v: tensor<3xf32>):
    %one = xla.constant dense<1> : tensor<i32>
    %j = xla.add %i, %one : tensor<i32>
    %half = xla.constant dense<0.5> : tensor<f32>
    %w = xla.multiply %v, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    xla.return %j, %w : tensor<i32>, tensor<3xf32>
  } : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
  %d = xla.dot %m, %r#1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %r#1, %d : tensor<3xf32>, tensor<2xf32>
}

// CHECK:      HloModule xla_program
// CHECK:      while_condition.1 {
// CHECK-NEXT:   arg_tuple.1 = (s32[], f32[3]{0}) parameter(0)
// CHECK-NEXT:   i.1 = s32[] get-tuple-element(arg_tuple.1), index=0
// CHECK-NEXT:   v.1 = f32[3]{0} get-tuple-element(arg_tuple.1), index=1
// CHECK:        ROOT compare.1 = pred[] compare(i.1, constant.{{[0-9]+}}), direction=LT
// CHECK:      while_body.1 {
// CHECK:        broadcast_in_dim.1 = f32[3]{0} broadcast(constant.{{[0-9]+}}), dimensions={}
// CHECK-NEXT:   multiply.1 = f32[3]{0} multiply(v.2, broadcast_in_dim.1)
// CHECK-NEXT:   ROOT tuple.1 = (s32[], f32[3]{0}) tuple(add.1, multiply.1)
// CHECK:      ENTRY main {
// CHECK-NEXT:   x.1 = f32[3]{0} parameter(0)
// CHECK-NEXT:   m.1 = f32[2,3]{1,0} parameter(1)
// CHECK-NEXT:   constant.1 = s32[] constant(0)
// CHECK-NEXT:   tuple.2 = (s32[], f32[3]{0}) tuple(constant.1, x.1)
// CHECK-NEXT:   while.1 = (s32[], f32[3]{0}) while(tuple.2), condition=while_condition.1, body=while_body.1
// CHECK-NEXT:   get-tuple-element.1 = s32[] get-tuple-element(while.1), index=0
// CHECK-NEXT:   get-tuple-element.2 = f32[3]{0} get-tuple-element(while.1), index=1
// CHECK-NEXT:   dot.1 = f32[2]{0} dot(m.1, get-tuple-element.2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
// CHECK-NEXT:   ROOT tuple.3 = (f32[3]{0}, f32[2]{0}) tuple(get-tuple-element.2, dot.1)
// CHECK-NEXT: }

// BACK:       func.func @main(%x: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2xf32>)
// BACK:         xla.while
// BACK:         xla.dot_general
