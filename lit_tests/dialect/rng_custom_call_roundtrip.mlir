// RUN: xla-opt %s | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | filecheck %s
// RUN: xla-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @rng
func.func @rng(%mu: tensor<f32>, %sigma: tensor<f32>, %lo: tensor<i32>, %hi: tensor<i32>, %plo: tensor<i1>, %half: tensor<f16>) {
  // CHECK: xla.rng_normal %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // GENERIC: "xla.rng_normal"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = xla.rng_normal %mu, %sigma : (tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: xla.rng_normal %{{.*}}, %{{.*}} : tensor<f32>
  %1 = xla.rng_normal %mu, %sigma : tensor<f32>
  // CHECK: xla.rng_uniform %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<7xi32>
  // GENERIC: "xla.rng_uniform"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<7xi32>
  %2 = xla.rng_uniform %lo, %hi : (tensor<i32>, tensor<i32>) -> tensor<7xi32>
  // CHECK: xla.rng_uniform %{{.*}}, %{{.*}} : (tensor<f16>, tensor<f16>) -> tensor<4x4xf16>
  %3 = xla.rng_uniform %half, %half : (tensor<f16>, tensor<f16>) -> tensor<4x4xf16>
  // CHECK: xla.rng_uniform %{{.*}}, %{{.*}} : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
  %4 = xla.rng_uniform %plo, %plo : (tensor<i1>, tensor<i1>) -> tensor<8xi1>
  return
}

// CHECK-LABEL: func.func @rng_bit_generator
func.func @rng_bit_generator(%s2: tensor<2xui64>, %s3: tensor<3xui64>) {
  // CHECK: %{{.*}}, %{{.*}} = xla.rng_bit_generator %{{.*}}, rng_algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  // GENERIC: "xla.rng_bit_generator"(%{{.*}}) <{rng_algorithm = #xla<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %0, %1 = xla.rng_bit_generator %s2, rng_algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  // CHECK: xla.rng_bit_generator %{{.*}}, rng_algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<10xui64>)
  %2, %3 = xla.rng_bit_generator %s3, rng_algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<10xui64>)
  // CHECK: xla.rng_bit_generator %{{.*}}, rng_algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xi8>)
  %4, %5 = xla.rng_bit_generator %s2, rng_algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xi8>)
  // CHECK: xla.rng_bit_generator %{{.*}}, rng_algorithm = DEFAULT : tensor<2xui64>
  // GENERIC: #xla<rng_algorithm DEFAULT>
  %6, %7 = xla.rng_bit_generator %s2, rng_algorithm = DEFAULT : tensor<2xui64>
  return
}

// The spec's example: CustomCall("myfunc", {x, y}, f32[3x3]).
// CHECK-LABEL: func.func @custom_call
func.func @custom_call(%x: tensor<2xf32>, %y: tensor<2x3xf32>, %t: !xla.token) {
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // GENERIC: "xla.custom_call"(%{{.*}}, %{{.*}}) <{call_target_name = "myfunc"}> : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %0 = xla.custom_call %x, %y, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "_Impl2", backend_config = "{\22k\22: 1}", has_side_effect = true : (tensor<2xf32>) -> (tensor<2xf32>, tuple<tensor<f32>, tensor<2x3xi32>>)
  // GENERIC: <{call_target_name = "_Impl2", backend_config = "{\22k\22: 1}", has_side_effect = true}>
  %1, %2 = xla.custom_call %x, call_target_name = "_Impl2", backend_config = "{\"k\": 1}", has_side_effect = true : (tensor<2xf32>) -> (tensor<2xf32>, tuple<tensor<f32>, tensor<2x3xi32>>)
  // Operands and result of one type, one result.
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, call_target_name = "add2" : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = xla.custom_call %x, %x, call_target_name = "add2" : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call %{{.*}}, call_target_name = "id" : tensor<2xf32>
  %5 = xla.custom_call %x, call_target_name = "id" : tensor<2xf32>
  // CHECK: xla.custom_call call_target_name = "make" : tensor<4xi32>
  %3 = xla.custom_call call_target_name = "make" : () -> tensor<4xi32>
  // CHECK: xla.custom_call %{{.*}}, %{{.*}}, %{{.*}}, call_target_name = "log_values", has_side_effect = true : tensor<2xf32>, tensor<2x3xf32>, !xla.token
  xla.custom_call %x, %y, %t, call_target_name = "log_values", has_side_effect = true : (tensor<2xf32>, tensor<2x3xf32>, !xla.token) -> ()
  return
}
