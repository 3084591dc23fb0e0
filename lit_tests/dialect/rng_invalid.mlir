// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @rng_normal_vector_mu(%mu: tensor<2xf32>, %sigma: tensor<f32>) {
  // expected-error @+1 {{mu must be a scalar (rank-0 tensor) of the result's element type f32, got tensor<2xf32>}}
  %0 = xla.rng_normal %mu, %sigma : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @rng_normal_sigma_type(%mu: tensor<f32>, %sigma: tensor<f64>) {
  // expected-error @+1 {{sigma must be a scalar (rank-0 tensor) of the result's element type f32, got tensor<f64>}}
  %0 = xla.rng_normal %mu, %sigma : (tensor<f32>, tensor<f64>) -> tensor<3xf32>
  return
}

// -----

func.func @rng_normal_integer(%mu: tensor<i32>, %sigma: tensor<i32>) {
  // expected-error @+1 {{element type i32 must be floating-point}}
  %0 = xla.rng_normal %mu, %sigma : (tensor<i32>, tensor<i32>) -> tensor<3xi32>
  return
}

// -----

func.func @rng_uniform_vector_b(%a: tensor<i32>, %b: tensor<1xi32>) {
  // expected-error @+1 {{b must be a scalar (rank-0 tensor) of the result's element type i32, got tensor<1xi32>}}
  %0 = xla.rng_uniform %a, %b : (tensor<i32>, tensor<1xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @rng_uniform_result_type(%a: tensor<i32>, %b: tensor<i32>) {
  // expected-error @+1 {{a must be a scalar (rank-0 tensor) of the result's element type ui32, got tensor<i32>}}
  %0 = xla.rng_uniform %a, %b : (tensor<i32>, tensor<i32>) -> tensor<3xui32>
  return
}

// -----

func.func @rng_uniform_complex(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>) {
  // expected-error @+1 {{element type complex<f32> must be PRED, integer or floating-point}}
  %0 = xla.rng_uniform %a, %b : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
  return
}

// -----

func.func @rng_bit_generator_signed_state(%s: tensor<2xi64>) {
  // expected-error @+1 {{initial_state must have element type ui64, got tensor<2xi64>}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = THREE_FRY : (tensor<2xi64>) -> (tensor<2xi64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_three_fry_size(%s: tensor<3xui64>) {
  // expected-error @+1 {{initial_state shape [3] does not suit THREE_FRY; expected [2]}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_philox_size(%s: tensor<4xui64>) {
  // expected-error @+1 {{initial_state shape [4] does not suit PHILOX; expected [2] or [3]}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_default_size(%s: tensor<1xui64>) {
  // expected-error @+1 {{initial_state shape [1] does not suit DEFAULT; expected [2] or [3]}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = DEFAULT : (tensor<1xui64>) -> (tensor<1xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_matrix_state(%s: tensor<1x2xui64>) {
  // expected-error @+1 {{initial_state shape [1, 2] does not suit PHILOX; expected [2] or [3]}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = PHILOX : (tensor<1x2xui64>) -> (tensor<1x2xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_new_state_type(%s: tensor<3xui64>) {
  // expected-error @+1 {{output_state type tensor<2xui64> must be initial_state's tensor<3xui64>}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = PHILOX : (tensor<3xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_bit_generator_float_output(%s: tensor<2xui64>) {
  // expected-error @+1 {{output must have an integer element type, got tensor<4xf32>}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xf32>)
  return
}

// -----

func.func @rng_bit_generator_unknown_algorithm(%s: tensor<2xui64>) {
  // expected-error @+1 {{'MERSENNE' is not a valid rng_algorithm; expected one of DEFAULT, THREE_FRY, PHILOX}}
  %0, %1 = xla.rng_bit_generator %s, rng_algorithm = MERSENNE : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return
}
