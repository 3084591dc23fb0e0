// RUN: xla-opt %s -p convert-xla-to-linalg | filecheck %s

// Tokens carry no data: after_all and the token results are tensor<0xi1> values; the
// ops moving data are calls of host callbacks (declared here, supplied by the JIT
// runtime) taking the operand buffers, then the result buffers. An infeed or outfeed
// of no data only orders: no call.
// CHECK-LABEL: func.func @feeds
// CHECK-SAME:    (%[[Y:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[X:.*]], %[[N:.*]] = func.call @[[INFEED:__xla_host_[0-9]+_infeed]]() : () -> (tensor<2x3xf32>, tensor<i32>)
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:         func.call @[[OUTFEED:__xla_host_[0-9]+_outfeed]](%[[S]], %[[N]]) : (tensor<2x3xf32>, tensor<i32>) -> ()
// CHECK-NEXT:    func.call @[[SEND:__xla_host_[0-9]+_send]](%[[X]]) : (tensor<2x3xf32>) -> ()
// CHECK-NEXT:    %[[A:.*]] = func.call @[[RECV:__xla_host_[0-9]+_recv]]() : () -> tensor<2x3xi8>
// CHECK-NEXT:    func.return %[[S]], %[[A]] : tensor<2x3xf32>, tensor<2x3xi8>
func.func @feeds(%y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xui8>) {
  %t0 = xla.after_all : !xla.token
  %x, %n, %t1 = xla.infeed %t0 : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  %t2 = xla.infeed %t1 : (!xla.token) -> !xla.token
  %s = xla.add %x, %y : tensor<2x3xf32>
  %t3 = xla.outfeed %s, %n, %t2 : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  %t4 = xla.outfeed %t3 : !xla.token
  %t5 = xla.send %x, %t4, channel_id = 1 : (tensor<2x3xf32>, !xla.token) -> !xla.token
  %a, %t6 = xla.recv %t5, channel_id = 1, is_host_transfer = true : (!xla.token) -> (tensor<2x3xui8>, !xla.token)
  %t7 = xla.after_all %t0, %t6 : !xla.token
  func.return %s, %a : tensor<2x3xf32>, tensor<2x3xui8>
}

// A token crossing a function boundary (or a loop's state) is a tensor<0xi1> there.
// CHECK-LABEL: func.func private @emit
// CHECK-SAME:    (%[[V:.*]]: tensor<i32>, %{{.*}}: tensor<0xi1>) -> tensor<0xi1>
// CHECK-NEXT:    func.call @{{__xla_host_[0-9]+_outfeed}}(%[[V]]) : (tensor<i32>) -> ()
// CHECK-NEXT:    %[[T:.*]] = tensor.empty() : tensor<0xi1>
// CHECK-NEXT:    func.return %[[T]] : tensor<0xi1>
func.func private @emit(%v: tensor<i32>, %t: !xla.token) -> !xla.token {
  %t1 = xla.outfeed %v, %t : (tensor<i32>, !xla.token) -> !xla.token
  func.return %t1 : !xla.token
}

// CHECK-LABEL: func.func @caller
// CHECK:         %[[T0:.*]] = tensor.empty() : tensor<0xi1>
// CHECK-NEXT:    %{{.*}} = func.call @emit(%{{.*}}, %[[T0]]) : (tensor<i32>, tensor<0xi1>) -> tensor<0xi1>
func.func @caller(%v: tensor<i32>) -> tensor<i32> {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.call %v, %t0, callee = @emit : (tensor<i32>, !xla.token) -> !xla.token
  func.return %v : tensor<i32>
}

// The callbacks are declared once each, at the end of the module.
// CHECK:       func.func private @[[INFEED]]() -> (tensor<2x3xf32>, tensor<i32>)
// CHECK-NEXT:  func.func private @[[OUTFEED]](tensor<2x3xf32>, tensor<i32>) -> ()
// CHECK-NEXT:  func.func private @[[SEND]](tensor<2x3xf32>) -> ()
// CHECK-NEXT:  func.func private @[[RECV]]() -> tensor<2x3xi8>
// CHECK-NEXT:  func.func private @{{__xla_host_[0-9]+_outfeed}}(tensor<i32>) -> ()
