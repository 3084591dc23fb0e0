// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @after_all
// GENERIC-LABEL: "func.func"() <{sym_name = "after_all"
func.func @after_all(%a: !xla.token, %b: !xla.token) -> !xla.token {
  // CHECK: %{{.*}} = xla.after_all : !xla.token
  // GENERIC: "xla.after_all"() : () -> !xla.token
  %fresh = xla.after_all : !xla.token
  // CHECK: %{{.*}} = xla.after_all %{{.*}}, %{{.*}}, %{{.*}} : !xla.token
  // GENERIC: "xla.after_all"(%{{.*}}, %{{.*}}, %{{.*}}) : (!xla.token, !xla.token, !xla.token) -> !xla.token
  %joined = xla.after_all %a, %b, %fresh : !xla.token
  func.return %joined : !xla.token
}

// CHECK-LABEL: func.func @infeed_outfeed
// GENERIC-LABEL: "func.func"() <{sym_name = "infeed_outfeed"
func.func @infeed_outfeed(%t0: !xla.token) -> !xla.token {
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = xla.infeed %{{.*}}, infeed_config = "feed" : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  // GENERIC: "xla.infeed"(%{{.*}}) <{infeed_config = "feed"}> : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  %x, %n, %t1 = xla.infeed %t0, infeed_config = "feed" : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  // An empty infeed is a no-op that only orders.
  // CHECK: %{{.*}} = xla.infeed %{{.*}} : (!xla.token) -> !xla.token
  // GENERIC: "xla.infeed"(%{{.*}}) : (!xla.token) -> !xla.token
  %t2 = xla.infeed %t1 : (!xla.token) -> !xla.token
  // CHECK: %{{.*}} = xla.outfeed %{{.*}}, %{{.*}}, %{{.*}}, outfeed_config = "out" : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  // GENERIC: "xla.outfeed"(%{{.*}}, %{{.*}}, %{{.*}}) <{outfeed_config = "out"}> : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  %t3 = xla.outfeed %x, %n, %t2, outfeed_config = "out" : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  // CHECK: %{{.*}} = xla.outfeed %{{.*}} : !xla.token
  %t4 = xla.outfeed %t3 : !xla.token
  func.return %t4 : !xla.token
}

// CHECK-LABEL: func.func @send_recv
// GENERIC-LABEL: "func.func"() <{sym_name = "send_recv"
func.func @send_recv(%x: tensor<4xi32>, %t0: !xla.token) -> (tensor<4xi32>, !xla.token) {
  // CHECK: %{{.*}} = xla.send %{{.*}}, %{{.*}}, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  // GENERIC: "xla.send"(%{{.*}}, %{{.*}}) <{channel_id = 1 : i64}> : (tensor<4xi32>, !xla.token) -> !xla.token
  %t1 = xla.send %x, %t0, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  // CHECK: %{{.*}} = xla.send %{{.*}}, %{{.*}}, %{{.*}}, channel_id = 2, is_host_transfer = true : (tensor<4xi32>, tensor<4xi32>, !xla.token) -> !xla.token
  // GENERIC: "xla.send"(%{{.*}}, %{{.*}}, %{{.*}}) <{channel_id = 2 : i64, is_host_transfer = true}>
  %t2 = xla.send %x, %x, %t1, channel_id = 2, is_host_transfer = true : (tensor<4xi32>, tensor<4xi32>, !xla.token) -> !xla.token
  // CHECK: %{{.*}}, %{{.*}} = xla.recv %{{.*}}, channel_id = 1, is_host_transfer = false : (!xla.token) -> (tensor<4xi32>, !xla.token)
  // GENERIC: "xla.recv"(%{{.*}}) <{channel_id = 1 : i64, is_host_transfer = false}> : (!xla.token) -> (tensor<4xi32>, !xla.token)
  %y, %t3 = xla.recv %t2, channel_id = 1, is_host_transfer = false : (!xla.token) -> (tensor<4xi32>, !xla.token)
  // CHECK: %{{.*}} = xla.recv %{{.*}}, channel_id = 3 : (!xla.token) -> !xla.token
  %t4 = xla.recv %t3, channel_id = 3 : (!xla.token) -> !xla.token
  func.return %y, %t4 : tensor<4xi32>, !xla.token
}
