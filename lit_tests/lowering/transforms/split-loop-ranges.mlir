// RUN: xla-opt %s -p split-loop-ranges | filecheck %s
// RUN: xla-opt %s -p 'split-loop-ranges{max-ranges=2}' | filecheck %s --check-prefix=FEW

// A concatenation of three inputs along the inner dimension, as convert-xla-to-linalg
// writes it (each input read at its position clamped into it, selects keeping the
// right read): the inner loop becomes three loops, each reading one input at its
// own position, no clamp, no select.

// CHECK-LABEL: func.func @concatenate(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[H0:.*]] = arith.constant 100 : index
// CHECK-NEXT:      scf.for %[[J0:.*]] = %[[L0]] to %[[H0]] step %{{.*}} {
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[I]], %[[J0]]] : memref<64x100xf32>
// CHECK-NEXT:        memref.store %[[A]], %out[%[[I]], %[[J0]]] : memref<64x303xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[L1:.*]] = arith.constant 100 : index
// CHECK-NEXT:      %[[H1:.*]] = arith.constant 300 : index
// CHECK-NEXT:      scf.for %[[J1:.*]] = %[[L1]] to %[[H1]] step %{{.*}} {
// CHECK-NEXT:        %[[M100:.*]] = arith.constant -100 : index
// CHECK-NEXT:        %[[P1:.*]] = arith.addi %[[J1]], %[[M100]] : index
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[I]], %[[P1]]] : memref<64x200xf32>
// CHECK-NEXT:        memref.store %[[B]], %out[%[[I]], %[[J1]]] : memref<64x303xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[L2:.*]] = arith.constant 300 : index
// CHECK-NEXT:      %[[H2:.*]] = arith.constant 303 : index
// CHECK-NEXT:      scf.for %[[J2:.*]] = %[[L2]] to %[[H2]] step %{{.*}} {
// CHECK-NEXT:        %[[M300:.*]] = arith.constant -300 : index
// CHECK-NEXT:        %[[P2:.*]] = arith.addi %[[J2]], %[[M300]] : index
// CHECK-NEXT:        %[[C:.*]] = memref.load %c[%[[I]], %[[P2]]] : memref<64x3xf32>
// CHECK-NEXT:        memref.store %[[C]], %out[%[[I]], %[[J2]]] : memref<64x303xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     arith.select

// With at most two ranges a loop three would split is left whole.
// FEW-LABEL: func.func @concatenate(
// FEW-COUNT-2: scf.for
// FEW-NOT:     scf.for
// FEW:         func.return
func.func @concatenate(%a: memref<64x100xf32>, %b: memref<64x200xf32>, %c: memref<64x3xf32>, %out: memref<64x303xf32>) {
  %c64 = arith.constant 64 : index
  %c303 = arith.constant 303 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c303 step %c1 {
      %m300 = arith.constant -300 : index
      %j300 = arith.addi %j, %m300 : index
      %c2 = arith.constant 2 : index
      %jc = arith.minui %j300, %c2 : index
      %xc = memref.load %c[%i, %jc] : memref<64x3xf32>
      %m100 = arith.constant -100 : index
      %j100 = arith.addi %j, %m100 : index
      %c199 = arith.constant 199 : index
      %jb = arith.minui %j100, %c199 : index
      %xb = memref.load %b[%i, %jb] : memref<64x200xf32>
      %c300 = arith.constant 300 : index
      %in_b = arith.cmpi ult, %j, %c300 : index
      %bc = arith.select %in_b, %xb, %xc : f32
      %c99 = arith.constant 99 : index
      %ja = arith.minui %j, %c99 : index
      %xa = memref.load %a[%i, %ja] : memref<64x100xf32>
      %c100 = arith.constant 100 : index
      %in_a = arith.cmpi ult, %j, %c100 : index
      %r = arith.select %in_a, %xa, %bc : f32
      memref.store %r, %out[%i, %j] : memref<64x303xf32>
    }
  }
  func.return
}

// A pad of 4 before and 6 after the inner dimension, on a parallel loop: the unsigned
// test 0 <= j - 4 <= 99 splits it at 4 and 104; the outer test i <= 63 holds over the
// whole loop and becomes true (the loop stays whole); the padding ranges store the
// padding value alone.

// CHECK-LABEL: func.func @pad(
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = memref.load %z[] : memref<f32>
// CHECK-NEXT:      memref.store %[[Z]], %out[%[[I]], %[[J]]] : memref<64x110xf32>
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[M4:.*]] = arith.constant -4 : index
// CHECK-NEXT:      %[[P:.*]] = arith.addi %[[J]], %[[M4]] : index
// CHECK-NEXT:      %[[A:.*]] = memref.load %a[%[[I]], %[[P]]] : memref<64x100xf32>
// CHECK-NEXT:      memref.store %[[A]], %out[%[[I]], %[[J]]] : memref<64x110xf32>
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = memref.load %z[] : memref<f32>
// CHECK-NEXT:      memref.store %[[Z]], %out[%[[I]], %[[J]]] : memref<64x110xf32>
// CHECK-NOT:     "scf.parallel"
// CHECK:         func.return
func.func @pad(%a: memref<64x100xf32>, %z: memref<f32>, %out: memref<64x110xf32>) {
  %c64 = arith.constant 64 : index
  %c110 = arith.constant 110 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %c0, %c64, %c110, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %zero = memref.load %z[] : memref<f32>
    %c63 = arith.constant 63 : index
    %in_i = arith.cmpi ule, %i, %c63 : index
    %ic = arith.minui %i, %c63 : index
    %m4 = arith.constant -4 : index
    %j4 = arith.addi %j, %m4 : index
    %c99 = arith.constant 99 : index
    %in_j = arith.cmpi ule, %j4, %c99 : index
    %jc = arith.minui %j4, %c99 : index
    %x = memref.load %a[%ic, %jc] : memref<64x100xf32>
    %in = arith.andi %in_i, %in_j : i1
    %r = arith.select %in, %x, %zero : f32
    memref.store %r, %out[%i, %j] : memref<64x110xf32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// Left alone: a loop carrying a value, a step of 2, bounds that are not constants, and
// an equality test whose two changes are inside a loop allowed no split (FEW) stays a
// comparison; a test that changes nowhere inside the loop is folded even so.

// CHECK-LABEL: func.func @left_alone(
// CHECK-COUNT-3: arith.cmpi ult
// FEW-LABEL: func.func @left_alone(
// FEW:         arith.cmpi eq
// FEW-NOT:     arith.cmpi ult, %{{.*}}, %c1000
func.func @left_alone(%n: index, %out: memref<100xi1>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c50 = arith.constant 50 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %s = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %c0) -> (index) {
    %t = arith.cmpi ult, %i, %c50 : index
    %v = arith.select %t, %c1, %c2 : index
    %next = arith.addi %acc, %v : index
    scf.yield %next : index
  }
  scf.for %i = %c0 to %c100 step %c2 {
    %t = arith.cmpi ult, %i, %c50 : index
    memref.store %t, %out[%i] : memref<100xi1>
  }
  scf.for %i = %c0 to %n step %c1 {
    %t = arith.cmpi ult, %i, %c50 : index
    memref.store %t, %out[%i] : memref<100xi1>
  }
  scf.for %i = %c0 to %c100 step %c1 {
    %e = arith.cmpi eq, %i, %c50 : index
    %u = arith.cmpi ult, %i, %c1000 : index
    %t = arith.andi %e, %u : i1
    memref.store %t, %out[%i] : memref<100xi1>
  }
  func.return %s : index
}
