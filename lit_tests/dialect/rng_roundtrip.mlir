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
