// RUN: xla-opt %s -p convert-stablehlo-to-xla | filecheck %s

// An infeed or recv whose only result is its token imports (issue 13).
// CHECK-LABEL: func.func @token_only
func.func @token_only(%t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: %[[A:.*]] = xla.infeed %{{.*}} : (!xla.token) -> !xla.token
  %0 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> !stablehlo.token
  // CHECK-NEXT: xla.recv %[[A]], channel_id = 1, is_host_transfer = true : (!xla.token) -> !xla.token
  %1 = "stablehlo.recv"(%0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> !stablehlo.token
  return %1 : !stablehlo.token
}
