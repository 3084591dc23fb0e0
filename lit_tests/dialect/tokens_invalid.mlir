// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @after_all_of_tensor(%t: !xla.token, %x: tensor<2xf32>) {
  // expected-error @+1 {{operand 'inputs' at positions 0 to 1 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0 = xla.after_all %t, %x : (!xla.token, tensor<2xf32>) -> !xla.token
  func.return
}

// -----

func.func @after_all_to_tensor(%t: !xla.token) {
  // expected-error @+1 {{result 'result' at position 0 does not verify:; tensor<f32> should be of base attribute xla.token}}
  %0 = xla.after_all %t : (!xla.token) -> tensor<f32>
  func.return
}

// -----

func.func @infeed_of_tensor(%x: tensor<2xf32>) {
  // expected-error @+1 {{operand 'token' at position 0 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0, %1 = xla.infeed %x : (tensor<2xf32>) -> (tensor<2xf32>, !xla.token)
  func.return
}

// -----

func.func @infeed_token_as_data(%t: !xla.token) {
  // expected-error @+1 {{result 'outputs' at position 0 does not verify:; !xla.token should be of base attribute tensor}}
  %0, %1 = xla.infeed %t : (!xla.token) -> (!xla.token, !xla.token)
  func.return
}

// -----

func.func @infeed_without_token_result(%t: !xla.token) {
  // expected-error @+1 {{result 'output_token' at position 1 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0, %1 = xla.infeed %t : (!xla.token) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @outfeed_token_not_last(%t: !xla.token, %x: tensor<2xf32>) {
  // expected-error @+1 {{operand 'inputs' at position 0 does not verify:; !xla.token should be of base attribute tensor}}
  %0 = xla.outfeed %t, %x : (!xla.token, tensor<2xf32>) -> !xla.token
  func.return
}

// -----

func.func @outfeed_to_tensor(%t: !xla.token, %x: tensor<2xf32>) {
  // expected-error @+1 {{result 'result' at position 0 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0 = xla.outfeed %x, %t : (tensor<2xf32>, !xla.token) -> tensor<2xf32>
  func.return
}

// -----

func.func @send_without_channel(%t: !xla.token, %x: tensor<2xf32>) {
  // expected-error @+1 {{property 'channel_id' expected in operation 'xla.send'}}
  %0 = xla.send %x, %t : (tensor<2xf32>, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @send_token_as_data(%t: !xla.token) {
  // expected-error @+1 {{operand 'inputs' at position 0 does not verify:; !xla.token should be of base attribute tensor}}
  %0 = xla.send %t, %t, channel_id = 1 : (!xla.token, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @recv_of_tensor(%x: tensor<2xf32>) {
  // expected-error @+1 {{operand 'token' at position 0 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0, %1 = xla.recv %x, channel_id = 1 : (tensor<2xf32>) -> (tensor<2xf32>, !xla.token)
  func.return
}

// -----

func.func @recv_without_token_result(%t: !xla.token) {
  // expected-error @+1 {{result 'output_token' at position 0 does not verify:; tensor<2xf32> should be of base attribute xla.token}}
  %0 = xla.recv %t, channel_id = 1 : (!xla.token) -> tensor<2xf32>
  func.return
}

// -----

func.func @recv_without_channel(%t: !xla.token) {
  // expected-error @+1 {{property 'channel_id' expected in operation 'xla.recv'}}
  %0, %1 = "xla.recv"(%t) : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return
}
