// RUN: xla-opt %s -p fuse-loop-nests | filecheck %s

// A row's accumulator set, the row reduced into it, then scaled: three nests over the
// same rows, each touching its own row of what they share, become one (the ops between
// them move before it).
// CHECK-LABEL: func.func @row_chain
// CHECK:         %[[ACC:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         %[[OUT:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %{{.*}} = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:      memref.store %{{.*}}, %[[ACC]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             memref.store %{{.*}}, %[[ACC]][%[[I]]] : memref<4xf32>
// CHECK:           }
// CHECK:           %{{.*}} = memref.load %[[ACC]][%[[I]]] : memref<4xf32>
// CHECK:           memref.store %{{.*}}, %[[OUT]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK:         func.return
func.func @row_chain(%x: memref<4x8xf32>, %zero: memref<f32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %acc = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %z = memref.load %zero[] : memref<f32>
    memref.store %z, %acc[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %a = memref.load %acc[%i] : memref<4xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%i] : memref<4xf32>
    }
  }
  %out = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %acc[%i] : memref<4xf32>
    %h = arith.mulf %a, %a : f32
    memref.store %h, %out[%i] : memref<4xf32>
  }
  func.return %out : memref<4xf32>
}

// Not fused (5 nests, 7 loops): the consumer reads another row than its own (a
// reversal), the next nest runs over other rows, an independent nest shares nothing
// with the one before, and a call between two nests is not an op to move.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-7: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     scf.for
func.func @kept_apart(%x: memref<4xf32>, %y: memref<4xf32>, %w: memref<8x2xf32>, %u: memref<8x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %t[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.subi %c3, %i : index
    %v = memref.load %t[%r] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %w[%i, %j] : memref<8x2xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %w[%i, %j] : memref<8x2xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %u[%i, %j] : memref<8x2xf32>
      memref.store %v, %u[%i, %j] : memref<8x2xf32>
    }
  }
  func.call @side_effect() : () -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %y[%i] : memref<4xf32>
    memref.store %v, %x[%i] : memref<4xf32>
  }
  func.return
}
func.func private @side_effect()

// Nests coalesced over a collapsed view of a buffer each make their own view: the
// same view of the same buffer is the same rows.
// CHECK-LABEL: func.func @same_views
// CHECK:         scf.for
// CHECK-NOT:     scf.for
// CHECK:         func.return
func.func @same_views(%x: memref<2x4xf32>) -> memref<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloca() : memref<2x4xf32>
  %y = memref.alloca() : memref<2x4xf32>
  %xv = memref.collapse_shape %x [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  %tv = memref.collapse_shape %t [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %xv[%i] : memref<8xf32>
    %e = math.exp %v : f32
    memref.store %e, %tv[%i] : memref<8xf32>
  }
  %tv2 = memref.collapse_shape %t [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  %yv = memref.collapse_shape %y [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %tv2[%i] : memref<8xf32>
    %d = arith.addf %v, %v : f32
    memref.store %d, %yv[%i] : memref<8xf32>
  }
  func.return %y : memref<2x4xf32>
}

// Parallel row nests (big enough for threads) fuse as well, and a fill between them
// (an scf.for whose iterations each write their own row) joins the parallel nest:
// the row max and the exp-sum of a softmax are one scf.parallel, each thread's row
// read while it is in cache.
// CHECK-LABEL: func.func @parallel_rows
// CHECK:         %[[MAX:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         %[[SUM:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      %{{.*}} = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:      memref.store %{{.*}}, %[[MAX]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:      scf.for
// CHECK:           memref.store %{{.*}}, %[[SUM]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:      scf.for
// CHECK:           scf.reduce
// CHECK-NOT:     scf.for
// CHECK-NOT:     scf.parallel
// CHECK:         func.return
func.func @parallel_rows(%x: memref<4x8xf32>, %ninf: memref<f32>, %zero: memref<f32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %max = memref.alloca() : memref<4xf32>
  %sum = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %z = memref.load %ninf[] : memref<f32>
    memref.store %z, %max[%i] : memref<4xf32>
  }
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %m = memref.load %max[%i] : memref<4xf32>
      %n = arith.maximumf %m, %v : f32
      memref.store %n, %max[%i] : memref<4xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %z = memref.load %zero[] : memref<f32>
    memref.store %z, %sum[%i] : memref<4xf32>
  }
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %m = memref.load %max[%i] : memref<4xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %s = memref.load %sum[%i] : memref<4xf32>
      %t = arith.addf %s, %e : f32
      memref.store %t, %sum[%i] : memref<4xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  func.return %sum : memref<4xf32>
}

// A sequential nest whose iterations depend on each other (a running sum, carried in
// a scalar buffer) does not join the parallel nest that reads its rows: they would race.
// CHECK-LABEL: func.func @sequential_stays
// CHECK:         scf.for
// CHECK:         "scf.parallel"
// CHECK-NOT:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         func.return
func.func @sequential_stays(%x: memref<4xf32>, %y: memref<4xf32>, %acc: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %acc[] : memref<f32>
    %w = memref.load %x[%i] : memref<4xf32>
    %s = arith.addf %a, %w : f32
    memref.store %s, %acc[] : memref<f32>
    memref.store %s, %t[%i] : memref<4xf32>
  }
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %t[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// Two-dimensional parallel nests fuse on rows (i, j), the first two indices: a fill
// through a collapsed view that keeps those dimensions ([0], [1], [2, 3]) writes the
// same rows as the nest that reduces into the buffer itself (a max pooling's).
// CHECK-LABEL: func.func @rows_of_two_loops
// CHECK:         "scf.parallel"
// CHECK:           memref.collapse_shape
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:           scf.reduce
// CHECK-NOT:     "scf.parallel"
// CHECK:         func.return
func.func @rows_of_two_loops(%x: memref<2x3x4x2xf32>, %out: memref<2x3x2x2xf32>, %ninf: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c0, %c2, %c3, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.collapse_shape %out [[0], [1], [2, 3]] : memref<2x3x2x2xf32> into memref<2x3x4xf32>
    scf.for %k = %c0 to %c4 step %c1 {
      %n = memref.load %ninf[] : memref<f32>
      memref.store %n, %v[%i, %j, %k] : memref<2x3x4xf32>
    }
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  "scf.parallel"(%c0, %c0, %c2, %c3, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    scf.for %k = %c0 to %c2 step %c1 {
      scf.for %l = %c0 to %c2 step %c1 {
        %w = arith.muli %k, %c2 : index
        %a = memref.load %x[%i, %j, %w, %l] : memref<2x3x4x2xf32>
        %m = memref.load %out[%i, %j, %k, %l] : memref<2x3x2x2xf32>
        %b = arith.maximumf %a, %m : f32
        memref.store %b, %out[%i, %j, %k, %l] : memref<2x3x2x2xf32>
      }
    }
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// A collapsed view that merges the row dimensions ([0, 1], ...) has other rows: the
// nests stay apart.
// CHECK-LABEL: func.func @merged_rows_kept_apart
// CHECK-COUNT-2: "scf.parallel"
func.func @merged_rows_kept_apart(%out: memref<2x3x4xf32>, %ninf: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  "scf.parallel"(%c0, %c6, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.collapse_shape %out [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
    scf.for %k = %c0 to %c4 step %c1 {
      %n = memref.load %ninf[] : memref<f32>
      memref.store %n, %v[%i, %k] : memref<6x4xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c6, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %k = %c0 to %c4 step %c1 {
      %m = memref.load %out[%i, %c0, %k] : memref<2x3x4xf32>
      %b = arith.addf %m, %m : f32
      memref.store %b, %out[%i, %c0, %k] : memref<2x3x4xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}
