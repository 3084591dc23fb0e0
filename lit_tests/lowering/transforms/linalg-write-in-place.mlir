// RUN: xla-opt %s -p linalg-write-in-place --split-input-file | filecheck %s

// A while body's new state, computed element-wise from the old one into a fresh
// buffer and copied back: the generic writes the state itself; the copy, the fresh
// buffer and its dealloc go. `x + x` reads the state twice, both by the written
// element's own index.
// CHECK-LABEL: func.func @while_state
// CHECK:         } do {
// CHECK-NEXT:      linalg.generic {{.*}} ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%x : memref<1024xf32>)
// CHECK:           linalg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield
func.func @while_state(%x: memref<1024xf32>, %go: i1) {
  scf.while () : () -> () {
    scf.condition(%go)
  } do {
    %t = memref.alloc() : memref<1024xf32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    "memref.copy"(%t, %x) : (memref<1024xf32>, memref<1024xf32>) -> ()
    memref.dealloc %t : memref<1024xf32>
    scf.yield
  }
  func.return
}

// -----

// Left alone: the state read by another element's index (a reverse: element i would
// read what iteration 1023 - i already overwrote).
// CHECK-LABEL: func.func @reversed
// CHECK:         outs(%[[T:.*]] : memref<8xf32>)
// CHECK:         "memref.copy"(%[[T]], %x)
func.func @reversed(%x: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  "memref.copy"(%t, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  memref.dealloc %t : memref<8xf32>
  func.return
}

// -----

// Left alone: the old state read between the generic and the copy (a second new
// value computed from it), ...
// CHECK-LABEL: func.func @read_in_between
// CHECK:         outs(%[[T:.*]] : memref<8xf32>)
// CHECK:         "memref.copy"(%[[T]], %x)
// CHECK:         "memref.copy"(%y, %x)
func.func @read_in_between(%x: memref<8xf32>, %y: memref<8xf32>, %z: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  "memref.copy"(%x, %z) : (memref<8xf32>, memref<8xf32>) -> ()
  "memref.copy"(%t, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  memref.dealloc %t : memref<8xf32>
  "memref.copy"(%y, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  func.return
}

// -----

// ... a generic that reads its output (a reduction's accumulator), a fresh buffer
// with another user, and a view of the state among the inputs.
// CHECK-LABEL: func.func @not_fresh_or_not_element_wise
// CHECK-COUNT-3: "memref.copy"(%{{.*}}, %x)
func.func @not_fresh_or_not_element_wise(%x: memref<8xf32>, %s: memref<f32>) {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %a, %o : f32
    linalg.yield %n : f32
  }
  "memref.copy"(%t, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%u : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %c0 = arith.constant 0 : index
  %r = memref.load %u[%c0] : memref<8xf32>
  "memref.copy"(%u, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  %v = memref.alloc() : memref<8xf32>
  %w = "memref.cast"(%x) : (memref<8xf32>) -> memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w : memref<8xf32>) outs(%v : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  "memref.copy"(%v, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  func.return
}

// -----

// Left alone: a destination allocated after the generic (it could not write it there).
// CHECK-LABEL: func.func @destination_defined_later
// CHECK:         outs(%[[T:.*]] : memref<8xf32>)
// CHECK:         %[[D:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%[[T]], %[[D]])
func.func @destination_defined_later(%x: memref<8xf32>) -> memref<8xf32> {
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  %d = memref.alloc() : memref<8xf32>
  "memref.copy"(%t, %d) : (memref<8xf32>, memref<8xf32>) -> ()
  memref.dealloc %t : memref<8xf32>
  func.return %d : memref<8xf32>
}

// -----

// Left alone: the state read in the generic's body by an index of its own (a gather,
// the end of a sort's lowering: `t[i] = x[perm[i]]`), not as an operand: written in
// place, iteration i would read elements earlier iterations already overwrote.
// CHECK-LABEL: func.func @gathered_in_the_body
// CHECK:         outs(%[[T:.*]] : memref<5xi32>)
// CHECK:         "memref.copy"(%[[T]], %x)
func.func @gathered_in_the_body(%x: memref<5xi32>) {
  %t = memref.alloc() : memref<5xi32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%t : memref<5xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c4 = arith.constant 4 : index
    %j = arith.subi %c4, %i : index
    %v = memref.load %x[%j] : memref<5xi32>
    linalg.yield %v : i32
  }
  "memref.copy"(%t, %x) : (memref<5xi32>, memref<5xi32>) -> ()
  memref.dealloc %t : memref<5xi32>
  func.return
}
