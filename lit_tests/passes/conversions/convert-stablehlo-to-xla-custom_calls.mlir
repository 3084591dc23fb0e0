// RUN: xla-opt %s -p convert-stablehlo-to-xla --split-input-file --verify-diagnostics | filecheck %s

// Custom calls JAX emits that the import turns into xla programs or drops (issue 31).

// ApproxTopK (lax.approx_max_k, is_fallback on CPU): the exact top-k, a stable sort by
// the comparator and a slice; an f32 GT over values and their iota in total order (XLA's
// CPU TopK). The comparator function goes with the call.
// CHECK-LABEL: builtin.module
// CHECK-NOT:     @top_k_gt_f32_comparator
// CHECK:         func.func public @approx_max_k
// CHECK:         %[[IOTA:.*]] = xla.iota iota_dimension = 1 : tensor<2x8xi32>
// CHECK:         %[[V:.*]], %[[I:.*]] = xla.sort %arg0, %[[IOTA]], dimension = 1, is_stable = true comparator {
// CHECK:           xla.compare %{{.*}}, %{{.*}}, comparison_direction = GT, compare_type = TOTALORDER
// CHECK:         xla.slice %[[V]], start_indices = [0, 0], limit_indices = [2, 3], strides = [1, 1] : (tensor<2x8xf32>) -> tensor<2x3xf32>
// CHECK:         xla.slice %[[I]], start_indices = [0, 0], limit_indices = [2, 3], strides = [1, 1] : (tensor<2x8xi32>) -> tensor<2x3xi32>
func.func @top_k_gt_f32_comparator(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %0 : tensor<i1>
}
func.func public @approx_max_k(%arg0: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<2x8xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1:2 = stablehlo.custom_call @ApproxTopK(%arg0, %0, %cst, %c) {backend_config = "", called_computations = [@top_k_gt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 3 : i64}} : (tensor<2x8xf32>, tensor<2x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %1#0, %1#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// K = 1: a reduce keeping the accumulators where the comparator holds (XLA's
// reduction computation), from the init values.
// CHECK-LABEL: func.func public @approx_min_1
// CHECK:         xla.reduce (%arg0, %{{.*}}), (%cst, %c), dimensions = [0] body {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<f32>, %[[AI:.*]]: tensor<i32>, %[[X:.*]]: tensor<f32>, %[[XI:.*]]: tensor<i32>):
// CHECK-NEXT:      %[[LT:.*]] = xla.compare %[[A]], %[[X]], comparison_direction = LT
// CHECK-NEXT:      xla.select %[[LT]], %[[A]], %[[X]]
// CHECK-NEXT:      xla.select %[[LT]], %[[AI]], %[[XI]]
// CHECK:         xla.reshape %{{.*}} : (tensor<3xf32>) -> tensor<1x3xf32>
func.func @top_k_lt_f32_comparator(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare LT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %0 : tensor<i1>
}
func.func public @approx_min_1(%arg0: tensor<5x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xi32>) {
  %0 = stablehlo.iota dim = 0 : tensor<5x3xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %1:2 = stablehlo.custom_call @ApproxTopK(%arg0, %0, %cst, %c) {backend_config = "", called_computations = [@top_k_lt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 0 : i64, reduction_input_size_override = -1 : i64, top_k = 1 : i64}} : (tensor<5x3xf32>, tensor<5x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x3xf32>, tensor<1x3xi32>)
  return %1#0, %1#1 : tensor<1x3xf32>, tensor<1x3xi32>
}

// -----

func.func @cmp(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1> {
  %0 = stablehlo.compare GT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %0 : tensor<i1>
}
func.func public @top_k_beyond_the_input(%arg0: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // expected-error @+1 {{ApproxTopK results ['tensor<5xf32>', 'tensor<5xi32>'] do not hold the top 5 of 4 along dimension 0}}
  %1:2 = stablehlo.custom_call @ApproxTopK(%arg0, %i, %cst, %c) {called_computations = [@cmp], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.95 : f32, reduction_dim = 0 : i64, top_k = 5 : i64}} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %1#0, %1#1 : tensor<5xf32>, tensor<5xi32>
}

// -----

// jax.debug.print: dropped (with a warning on stderr); an ordered one gives back the
// token it took.
// CHECK-LABEL: func.func public @printed
// CHECK-NOT:     custom_call
// CHECK:         func.return %arg0, %{{.*}} : !xla.token, tensor<3xf32>
func.func public @printed(%arg0: !stablehlo.token, %arg1: tensor<3xf32>) -> (!stablehlo.token, tensor<3xf32>) {
  stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg1) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>) -> ()
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0, %arg1) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 1 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
  %1 = stablehlo.add %arg1, %arg1 : tensor<3xf32>
  return %0, %1 : !stablehlo.token, tensor<3xf32>
}

// -----

// jax.pure_callback: its result cannot be computed here.
func.func public @pure(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'xla_ffi_python_cpu_callback' is a host callback (jax.pure_callback or io_callback): its Python function runs in JAX's process, not here, so its results cannot be computed; compute them in the program (jax.numpy) or remove the callback}}
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {backend_config = "", mhlo.backend_config = {index = 0 : ui64}} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// An ordered jax.debug.print threads JAX's effect token through @main (`jax.token =
// true`): the runtime's, not the caller's. @main makes its own and returns only what
// jax.jit(f)(x) returns.
// CHECK-LABEL: func.func public @main(%arg1: tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    %{{.*}} = xla.after_all : !xla.token
// CHECK-NOT:     custom_call
// CHECK:         func.return %{{.*}} : tensor<3xf32>
func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<3xf32>) -> (!stablehlo.token {jax.token = true}, tensor<3xf32> {jax.result_info = "result"}) {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0, %arg1) {backend_config = "", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
  %1 = stablehlo.add %arg1, %arg1 : tensor<3xf32>
  return %0, %1 : !stablehlo.token, tensor<3xf32>
}
