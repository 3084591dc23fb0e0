// RUN: xla-opt %s --split-input-file -p 'convert-linalg-to-parallel-loops{min_iterations=1000}' | filecheck %s

// An element-wise nest: its outer loop is parallel (300 iterations, enough to split),
// the inner one stays an scf.for (vectorized). The body is xDSL's loop body.
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[ROWS:.*]] = arith.constant 300 : index
// CHECK:         %[[COLS:.*]] = arith.constant 257 : index
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         "scf.parallel"(%[[ZERO]], %[[ROWS]], %[[ONE]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[ZERO]] to %[[COLS]] step %[[ONE]] {
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<300x257xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<300x257xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:        memref.store %[[S]], %out[%[[I]], %[[J]]] : memref<300x257xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }) : (index, index, index) -> ()
// CHECK-NOT:     linalg.generic
func.func @elementwise(%a: memref<300x257xf32>, %b: memref<300x257xf32>, %out: memref<300x257xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<300x257xf32>, memref<300x257xf32>) outs(%out : memref<300x257xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A row reduction: only the parallel row loop is split over threads; each row is
// accumulated by one thread in the serial order (bit-identical results).
// CHECK-LABEL: func.func @rows
// CHECK:         "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[I]], %[[K]]] : memref<300x257xf32>
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %out[%[[I]]] : memref<300xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:        memref.store %[[S]], %out[%[[I]]] : memref<300xf32>
func.func @rows(%x: memref<300x257xf32>, %out: memref<300xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<300x257xf32>) outs(%out : memref<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Outer loops are collapsed into the scf.parallel until it has >= 64 iterations
// (4 x 8 = 32 is not enough), never the innermost loop.
// CHECK-LABEL: func.func @collapse
// CHECK:         %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK:         "scf.parallel"(%[[Z:.*]], %[[Z]], %[[FOUR]], %[[EIGHT]], %[[O:.*]], %[[O]]) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %{{.*}} = memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<4x8x100xi32>
func.func @collapse(%x: memref<4x8x100xi32>, %out: memref<4x8x100xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<4x8x100xi32>) outs(%out : memref<4x8x100xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.muli %a, %a : i32
    linalg.yield %s : i32
  }
  func.return
}

// -----

// A one-dimensional nest: the scf.parallel is the whole nest.
// CHECK-LABEL: func.func @flat
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      %[[V:.*]] = memref.load %x[%[[I]]] : memref<5000xf64>
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[V]] : f64
// CHECK-NEXT:      memref.store %[[N]], %out[%[[I]]] : memref<5000xf64>
// CHECK-NEXT:      scf.reduce
func.func @flat(%x: memref<5000xf64>, %out: memref<5000xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<5000xf64>) outs(%out : memref<5000xf64>) {
  ^bb0(%a: f64, %o: f64):
    %n = arith.negf %a : f64
    linalg.yield %n : f64
  }
  func.return
}

// -----

// Left for convert-linalg-to-loops: a nest under min_iterations (31 x 32 = 992), and
// a nest whose outer loop is a reduction (a parallel loop inside it would wake a team
// per outer iteration; the reduction is never split).
// CHECK-LABEL: func.func @serial
// CHECK-NOT:     scf.parallel
// CHECK:         linalg.generic {{.*}} outs(%small : memref<31x32xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK-NOT:     scf.parallel
func.func @serial(%x: memref<31x32xf32>, %small: memref<31x32xf32>, %big: memref<300x300xf32>, %cols: memref<300xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<31x32xf32>) outs(%small : memref<31x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%big : memref<300x300xf32>) outs(%cols : memref<300xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Left serial too: threads would not write disjoint elements. An output not indexed by
// the outer loop (every thread would write each element), a buffer read at another
// place than it is written (a thread would read what another writes), a body writing
// memory.
// CHECK-LABEL: func.func @racy
// CHECK-NOT:     scf.parallel
// CHECK:         linalg.generic {{.*}} outs(%row : memref<400xf32>)
// CHECK:         linalg.generic {{.*}} outs(%buf : memref<400x400xf32>)
// CHECK:         linalg.generic {{.*}} outs(%big : memref<400x400xf32>)
// CHECK-NOT:     scf.parallel
func.func @racy(%x: memref<400x400xf32>, %row: memref<400xf32>, %buf: memref<400x400xf32>, %big: memref<400x400xf32>, %log: memref<1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<400x400xf32>) outs(%row : memref<400xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%buf : memref<400x400xf32>) outs(%buf : memref<400x400xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<400x400xf32>) outs(%big : memref<400x400xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0 : index
    memref.store %a, %log[%c0] : memref<1xf32>
    linalg.yield %a : f32
  }
  func.return
}

// -----

// An in-place element-wise generic (the buffer read where it is written) is parallel.
// CHECK-LABEL: func.func @in_place
// CHECK:         "scf.parallel"
func.func @in_place(%buf: memref<400x400xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%buf : memref<400x400xf32>) outs(%buf : memref<400x400xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  func.return
}
