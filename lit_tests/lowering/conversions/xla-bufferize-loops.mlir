// RUN: xla-opt %s -p xla-bufferize --split-input-file | filecheck %s

// A loop filling a fresh tensor element by element: the state is the output buffer
// itself, each insert a store into it.
// CHECK-LABEL: func.func @reverse(%a: memref<5xf32>, %out0: memref<5xf32>) {
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[J:.*]] = arith.subi
// CHECK-NEXT:      %[[V:.*]] = memref.load %a[%[[J]]] : memref<5xf32>
// CHECK-NEXT:      memref.store %[[V]], %out0[%{{.*}}] : memref<5xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @reverse(%a: tensor<5xf32>) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<5xf32>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %e) -> (tensor<5xf32>) {
    %j = arith.subi %c4, %i : index
    %v = tensor.extract %a[%j] : tensor<5xf32>
    %t2 = tensor.insert %v into %t[%i] : tensor<5xf32>
    scf.yield %t2 : tensor<5xf32>
  }
  func.return %r : tensor<5xf32>
}

// -----

// A swap reads both elements before writing: the reads come earlier in the block, so
// both inserts write in place. The function's input is never written: the loop state
// starts as a copy of it. A scalar iteration argument stays loop-carried.
// CHECK-LABEL: func.func @swap_pairs(%a: memref<4xi32>, %out0: memref<4xi32>, %out1: memref<i32>) {
// CHECK:         "memref.copy"(%a, %out0)
// CHECK:         %[[N:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[K:.*]] = %{{.*}}) -> (i32) {
// CHECK:           memref.load %out0
// CHECK:           memref.load %out0
// CHECK-NEXT:      memref.store %{{.*}}, %out0
// CHECK-NEXT:      memref.store %{{.*}}, %out0
// CHECK:           scf.yield %{{.*}} : i32
// CHECK-NEXT:    }
func.func @swap_pairs(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %k0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %c4 step %c2 iter_args(%t = %a, %k = %k0) -> (tensor<4xi32>, i32) {
    %i1 = arith.addi %i, %c1 : index
    %x = tensor.extract %t[%i] : tensor<4xi32>
    %y = tensor.extract %t[%i1] : tensor<4xi32>
    %t1 = tensor.insert %y into %t[%i] : tensor<4xi32>
    %t2 = tensor.insert %x into %t1[%i1] : tensor<4xi32>
    %k1 = arith.addi %k, %one : i32
    scf.yield %t2, %k1 : tensor<4xi32>, i32
  }
  %s = tensor.empty() : tensor<i32>
  %sk = tensor.insert %r#1 into %s[] : tensor<i32>
  func.return %r#0, %sk : tensor<4xi32>, tensor<i32>
}

// -----

// A tensor from outside a loop is written inside it: every iteration must see the
// original, so each insert writes into a fresh copy.
// CHECK-LABEL: func.func @insert_into_outer
// CHECK:         scf.for
// CHECK:           %[[COPY:.*]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT:      "memref.copy"(%{{.*}}, %[[COPY]])
// CHECK-NEXT:      memref.store %{{.*}}, %[[COPY]]
func.func @insert_into_outer(%vt: tensor<f32>) -> tensor<3xf32> {
  %v = tensor.extract %vt[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant dense<0.0> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %e) -> (tensor<3xf32>) {
    %u = tensor.insert %v into %z[%i] : tensor<3xf32>
    %w = tensor.extract %u[%c0] : tensor<3xf32>
    %t2 = tensor.insert %w into %t[%i] : tensor<3xf32>
    scf.yield %t2 : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

// %t is read after %u is inserted into it: that insert writes into a copy (which is
// the result %u, so out0); the last insert comes after every other use of %t and
// writes in place (its buffer is the result %w, so out1).
// CHECK-LABEL: func.func @read_after_insert
// CHECK-NEXT:    %[[V:.*]] = memref.load %vt[]
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[V]], %out1[%[[C0]]]
// CHECK-NEXT:    "memref.copy"(%out1, %out0)
// CHECK-NEXT:    memref.store %[[V]], %out0[%[[C0]]]
// CHECK-NEXT:    %[[X:.*]] = memref.load %out1[%[[C0]]]
// CHECK-NEXT:    memref.store %[[X]], %out1[%[[C0]]]
func.func @read_after_insert(%vt: tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %v = tensor.extract %vt[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<2xf32>
  %t = tensor.insert %v into %e[%c0] : tensor<2xf32>
  %u = tensor.insert %v into %t[%c0] : tensor<2xf32>
  %x = tensor.extract %t[%c0] : tensor<2xf32>
  %w = tensor.insert %x into %t[%c0] : tensor<2xf32>
  func.return %u, %w : tensor<2xf32>, tensor<2xf32>
}

// -----

// One tensor (cse merges identical tensor.empty ops) as two loop states: each state
// needs its own buffer, so neither takes the tensor's own (both are copies, which
// become the results).
// CHECK-LABEL: func.func @one_value_two_states
// CHECK:         %[[E:.*]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT:    "memref.copy"(%[[E]], %out0)
// CHECK-NEXT:    "memref.copy"(%[[E]], %out1)
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.store %{{.*}}, %out0[
// CHECK-NEXT:      memref.store %{{.*}}, %out1[
func.func @one_value_two_states(%vt: tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %v = tensor.extract %vt[] : tensor<f32>
  %w = arith.addf %v, %v : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2xf32>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %e, %t = %e) -> (tensor<2xf32>, tensor<2xf32>) {
    %s2 = tensor.insert %v into %s[%i] : tensor<2xf32>
    %t2 = tensor.insert %w into %t[%i] : tensor<2xf32>
    scf.yield %s2, %t2 : tensor<2xf32>, tensor<2xf32>
  }
  func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
