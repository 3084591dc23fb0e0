// RUN: xla-opt %s -p xla-bufferize --split-input-file | filecheck %s

// Results are written into caller-provided buffers; the returned generic computes
// straight into the output buffer, the intermediate lives on the stack.
// CHECK-LABEL: func.func @chain(%a: memref<4x8xf32>, %b: memref<8xf32>, %out0: memref<4x8xf32>) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloca() : memref<4x8xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%[[T]] : memref<4x8xf32>)
// CHECK:         %[[C:.*]] = memref.get_global @__xla_constant_0 : memref<4x8xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[T]], %[[C]] : memref<4x8xf32>, memref<4x8xf32>) outs(%out0 : memref<4x8xf32>)
// CHECK:         func.return
// CHECK-NEXT:  }
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %c = arith.constant dense<2.0> : tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} ins(%r, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  func.return %r2 : tensor<4x8xf32>
}

// -----

// A large intermediate is heap allocated and freed; an input returned as is is copied
// (the caller's input buffers are never written).
// CHECK-LABEL: func.func @heap(%a: memref<1024x1024xf32>, %out0: memref<1024x1024xf32>, %out1: memref<1024x1024xf32>) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<1024x1024xf32>
// CHECK:         "memref.copy"(%a, %out1) : (memref<1024x1024xf32>, memref<1024x1024xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<1024x1024xf32>
// CHECK-NEXT:    func.return
func.func @heap(%a: tensor<1024x1024xf32>) -> (tensor<1024x1024xf32>, tensor<1024x1024xf32>) {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} ins(%a : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  } -> tensor<1024x1024xf32>
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} ins(%r : tensor<1024x1024xf32>) outs(%e2 : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  } -> tensor<1024x1024xf32>
  func.return %r2, %a : tensor<1024x1024xf32>, tensor<1024x1024xf32>
}

// -----

// Loop-carried tensors live in state buffers allocated before the loop; the body
// copies what it yields into them and frees its own allocations.
// The state buffer is the returned one, so it is the output buffer itself.
// CHECK-LABEL: func.func @loop(%n: memref<i32>, %out0: memref<i32>) {
// CHECK-NEXT:    "memref.copy"(%n, %out0) : (memref<i32>, memref<i32>) -> ()
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK:           memref.load %out0[] : memref<i32>
// CHECK:           scf.condition(%{{.*}})
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[T:.*]] = memref.alloc() : memref<i32>
// CHECK:           "memref.copy"(%[[T]], %out0) : (memref<i32>, memref<i32>) -> ()
// CHECK-NEXT:      memref.dealloc %[[T]] : memref<i32>
// CHECK-NEXT:      scf.yield
func.func @loop(%n: tensor<i32>) -> tensor<i32> {
  %r = scf.while (%x = %n) : (tensor<i32>) -> tensor<i32> {
    %v = tensor.extract %x[] : tensor<i32>
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %v, %z : i32
    scf.condition(%c) %x : tensor<i32>
  } do {
  ^bb0(%y: tensor<i32>):
    %e = tensor.empty() : tensor<i32>
    %d = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%y : tensor<i32>) outs(%e : tensor<i32>) {
    ^bb0(%a: i32, %b: i32):
      %one = arith.constant 1 : i32
      %s = arith.subi %a, %one : i32
      linalg.yield %s : i32
    } -> tensor<i32>
    scf.yield %d : tensor<i32>
  }
  func.return %r : tensor<i32>
}

// -----

// A loop state every iteration passes on unchanged (JAX's while loops carry the weights
// a scan closes over) is read in its init's buffer, a function argument here: no copy.
// CHECK-LABEL: func.func @unchanged_state_in_the_argument(%w: memref<4xf32>, %n: memref<i32>, %out0: memref<4xf32>) {
// CHECK-NOT:     memref.copy
// CHECK:         scf.while
// CHECK:           linalg.generic {{.*}} ins(%w : memref<4xf32>)
func.func @unchanged_state_in_the_argument(%w: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r:3 = scf.while (%s = %w, %acc = %e, %i = %n) : (tensor<4xf32>, tensor<4xf32>, i32) -> (tensor<4xf32>, tensor<4xf32>, i32) {
    %zero = arith.constant 0 : i32
    %c = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%c) %s, %acc, %i : tensor<4xf32>, tensor<4xf32>, i32
  } do {
  ^bb0(%t: tensor<4xf32>, %a: tensor<4xf32>, %j: i32):
    %e2 = tensor.empty() : tensor<4xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %one = arith.constant 1 : i32
    %k = arith.subi %j, %one : i32
    scf.yield %t, %d, %k : tensor<4xf32>, tensor<4xf32>, i32
  }
  func.return %r#1 : tensor<4xf32>
}

// -----

// A loop state whose init is computed here and read by nothing after the loop lives in
// the init's own buffer: no copy before the loop (an LSTM scan's zero-filled residual
// stacks). An init read after the loop keeps its contents: the state is a copy.
// (The state is returned: its buffer is the output's, %out0.)
// CHECK-LABEL: func.func @state_in_the_init_buffer
// CHECK:         linalg.generic {{.*}} ins(%a : memref<4xf32>) outs(%out0 : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         scf.while
// CHECK-LABEL: func.func @init_read_after_the_loop
// CHECK:         linalg.generic {{.*}} ins(%a : memref<4xf32>) outs(%out1 : memref<4xf32>)
// CHECK:         "memref.copy"(%out1, %out0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    scf.while
func.func @state_in_the_init_buffer(%a: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r:2 = scf.while (%s = %z, %i = %n) : (tensor<4xf32>, i32) -> (tensor<4xf32>, i32) {
    %zero = arith.constant 0 : i32
    %c = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%c) %s, %i : tensor<4xf32>, i32
  } do {
  ^bb0(%t: tensor<4xf32>, %j: i32):
    %e2 = tensor.empty() : tensor<4xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %one = arith.constant 1 : i32
    %k = arith.subi %j, %one : i32
    scf.yield %d, %k : tensor<4xf32>, i32
  }
  func.return %r#0 : tensor<4xf32>
}
func.func @init_read_after_the_loop(%a: tensor<4xf32>, %n: i32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %r:2 = scf.while (%s = %z, %i = %n) : (tensor<4xf32>, i32) -> (tensor<4xf32>, i32) {
    %zero = arith.constant 0 : i32
    %c = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%c) %s, %i : tensor<4xf32>, i32
  } do {
  ^bb0(%t: tensor<4xf32>, %j: i32):
    %e2 = tensor.empty() : tensor<4xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %one = arith.constant 1 : i32
    %k = arith.subi %j, %one : i32
    scf.yield %d, %k : tensor<4xf32>, i32
  }
  func.return %r#0, %z : tensor<4xf32>, tensor<4xf32>
}

// -----

// One (cse-merged) tensor.empty as the outs of two generics: the second cannot
// write the first's buffer (still read afterwards), and as its body never reads
// its outs value it gets a fresh buffer with no copy of the old contents.
// CHECK-LABEL: func.func @unread_outs_not_copied
// CHECK:         linalg.generic {{.*}} outs(%[[A:.*]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {{.*}} ins(%a : memref<4xf32>) outs(%[[B:.*]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[B]] : memref<4xf32>, memref<4xf32>) outs(%out0 : memref<4xf32>)
func.func @unread_outs_not_copied(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.tanh %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  func.return %z : tensor<4xf32>
}

// -----

// Scalars in a signature (issue 31) cross the boundary as rank-0 buffers: the callee
// loads a parameter at its entry and stores a scalar result; the caller stores its
// scalar argument into a buffer of its own and loads the scalar result after the call.
// tensor.from_elements is one store per element.
// CHECK-LABEL: func.func private @scale(%x: memref<i32>, %t: memref<2xi32>, %out0: memref<i32>, %out1: memref<2xi32>) {
// CHECK-NEXT:    %[[X:.*]] = memref.load %x[] : memref<i32>
// CHECK:         %[[Y:.*]] = arith.muli %[[X]], %{{.*}} : i32
// CHECK:         memref.store %[[Y]], %out1[%{{.*}}] : memref<2xi32>
// CHECK:         memref.store %[[X]], %out1[%{{.*}}] : memref<2xi32>
// CHECK:         memref.store %[[Y]], %out0[] : memref<i32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @scalars(%a: memref<i32>, %t: memref<2xi32>, %out0: memref<i32>, %out1: memref<2xi32>) {
// CHECK-NEXT:    %[[A:.*]] = memref.load %a[] : memref<i32>
// CHECK-NEXT:    %[[RESULT:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT:    %[[ARG:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT:    memref.store %[[A]], %[[ARG]][] : memref<i32>
// CHECK-NEXT:    func.call @scale(%[[ARG]], %t, %[[RESULT]], %out1)
// CHECK-NEXT:    %[[R:.*]] = memref.load %[[RESULT]][] : memref<i32>
// CHECK-NEXT:    memref.store %[[R]], %out0[] : memref<i32>
func.func private @scale(%x: i32, %t: tensor<2xi32>) -> (i32, tensor<2xi32>) {
  %c = arith.constant 7 : i32
  %y = arith.muli %x, %c : i32
  %e = tensor.from_elements %y, %x : tensor<2xi32>
  func.return %y, %e : i32, tensor<2xi32>
}
func.func @scalars(%a: i32, %t: tensor<2xi32>) -> (i32, tensor<2xi32>) {
  %r:2 = func.call @scale(%a, %t) : (i32, tensor<2xi32>) -> (i32, tensor<2xi32>)
  func.return %r#0, %r#1 : i32, tensor<2xi32>
}
