// RUN: xla-opt %s -p buffer-loop-hoisting --split-input-file | filecheck %s

// A while loop's per-trip temporaries are allocated once, before the loop; small
// ones in the function's top-level block go on the stack, larger ones are freed after
// the loop.
// CHECK-LABEL: func.func @while_temporaries
// CHECK-NEXT:    %[[C:.*]] = memref.alloca() : memref<i1>
// CHECK-NEXT:    %[[S:.*]] = memref.alloca() : memref<16xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<4096xf32>
// CHECK-NEXT:    scf.while
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.dealloc
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.dealloc
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<4096xf32>
// CHECK-NEXT:    func.return
func.func @while_temporaries(%state: memref<16xf32>, %big: memref<4096xf32>) {
  scf.while () : () -> () {
    %c = memref.alloc() : memref<i1>
    %f = arith.constant false
    memref.store %f, %c[] : memref<i1>
    %go = memref.load %c[] : memref<i1>
    memref.dealloc %c : memref<i1>
    scf.condition(%go)
  } do {
    %t = memref.alloc() : memref<16xf32>
    "memref.copy"(%state, %t) : (memref<16xf32>, memref<16xf32>) -> ()
    "memref.copy"(%t, %state) : (memref<16xf32>, memref<16xf32>) -> ()
    %u = memref.alloc() : memref<4096xf32>
    "memref.copy"(%big, %u) : (memref<4096xf32>, memref<4096xf32>) -> ()
    "memref.copy"(%u, %big) : (memref<4096xf32>, memref<4096xf32>) -> ()
    memref.dealloc %u : memref<4096xf32>
    memref.dealloc %t : memref<16xf32>
    scf.yield
  }
  func.return
}

// -----

// Nested loops: the buffer leaves both. One freed in another block (it outlives the
// trip, or is freed conditionally) or of a dynamic size stays.
// CHECK-LABEL: func.func @nested_and_kept
// CHECK:         %[[T:.*]] = memref.alloca() : memref<8xf32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        "memref.copy"(%a, %[[T]])
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[D:.*]] = memref.alloc(%n) : memref<?xf32>
// CHECK-NEXT:      memref.dealloc %[[D]]
// CHECK-NEXT:      %[[K:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        memref.dealloc %[[K]]
func.func @nested_and_kept(%a: memref<8xf32>, %n: index, %p: i1) {
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %one = arith.constant 1 : index
  scf.for %i = %lo to %hi step %one {
    scf.for %j = %lo to %hi step %one {
      %t = memref.alloc() : memref<8xf32>
      "memref.copy"(%a, %t) : (memref<8xf32>, memref<8xf32>) -> ()
      memref.dealloc %t : memref<8xf32>
    }
    %d = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %d : memref<?xf32>
    %k = memref.alloc() : memref<8xf32>
    scf.if %p {
      memref.dealloc %k : memref<8xf32>
    }
  }
  func.return
}
