// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics

// Host transfers whose signature is not StableHLO's are located errors, not internal
// IndexErrors (issue 13): infeed/recv take one token and return at least a token (their
// last result), outfeed/send take their inputs then a token.

func.func @infeed_without_results(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.infeed' op returns at least a !stablehlo.token, its last result; got ()}}
  "stablehlo.infeed"(%t) : (!stablehlo.token) -> ()
  return
}

// -----

func.func @recv_without_results(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.recv' op returns at least a !stablehlo.token, its last result; got ()}}
  "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> ()
  return
}

// -----

func.func @infeed_without_token_result(%t: !stablehlo.token) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.infeed' op returns at least a !stablehlo.token, its last result; got (tensor<2xf32>)}}
  %0 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @recv_without_token_operand() -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.recv' op takes one !stablehlo.token operand, got ()}}
  %0 = "stablehlo.recv"() {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>} : () -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

func.func @send_without_token() -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.send' op takes its inputs then a !stablehlo.token, got ()}}
  %0 = "stablehlo.send"() {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>} : () -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

func.func @outfeed_without_token(%x: tensor<2xf32>) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.outfeed' op takes its inputs then a !stablehlo.token, got (tensor<2xf32>)}}
  %0 = "stablehlo.outfeed"(%x) : (tensor<2xf32>) -> !stablehlo.token
  return %0 : !stablehlo.token
}
