// RUN: xla-opt %s -p coalesce-contiguous-loops | filecheck %s

// A 3-deep nest over buffers in memory order becomes one loop of 2*3*4 trips, each
// access made on a collapsed view of its buffer at the one index.

// CHECK-LABEL: func.func @elementwise(
// CHECK-DAG:     %[[A1:.*]] = memref.collapse_shape %a {{\[}}[0 : i64], [1 : i64, 2 : i64]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK-DAG:     %[[B1:.*]] = memref.collapse_shape %b {{\[}}[0 : i64], [1 : i64, 2 : i64]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK-DAG:     %[[A2:.*]] = memref.collapse_shape %[[A1]] {{\[}}[0 : i64, 1 : i64]] : memref<2x12xf32> into memref<24xf32>
// CHECK-DAG:     %[[B2:.*]] = memref.collapse_shape %[[B1]] {{\[}}[0 : i64, 1 : i64]] : memref<2x12xf32> into memref<24xf32>
// CHECK-DAG:     %[[N:.*]] = arith.constant 24 : index
// CHECK:         scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[A2]][%[[K]]] : memref<24xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %[[B2]][%[[K]]] : memref<24xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK:         func.return
func.func @elementwise(%a: memref<2x3x4xf32>, %b: memref<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %a[%i, %j, %k] : memref<2x3x4xf32>
        %y = arith.addf %x, %x : f32
        memref.store %y, %b[%i, %j, %k] : memref<2x3x4xf32>
      }
    }
  }
  func.return
}

// A full reduction into a scalar: the pair walks %a in memory order.

// CHECK-LABEL: func.func @sum_of_squares(
// CHECK:         memref.collapse_shape %a {{\[}}[0 : i64, 1 : i64]] : memref<64x10xf32> into memref<640xf32>
// CHECK:         scf.for
// CHECK-NOT:     scf.for
// CHECK:         func.return
func.func @sum_of_squares(%a: memref<64x10xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %x = memref.load %a[%i, %j] : memref<64x10xf32>
      %acc = memref.load %s[] : memref<f32>
      %sq = arith.mulf %x, %x : f32
      %sum = arith.addf %acc, %sq fastmath<reassoc> : f32
      memref.store %sum, %s[] : memref<f32>
    }
  }
  func.return
}

// Left alone: a row broadcast (%j alone indexes %bias), a column sum (%j alone indexes
// the result), a transposed access (%j before %i), a loop over part of a row (4 of 8
// columns) and a nest whose inner loop does not start at 0.

// CHECK-LABEL: func.func @not_in_memory_order(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-10: scf.for
// CHECK-NOT:     memref.collapse_shape
// CHECK:         func.return
func.func @not_in_memory_order(%a: memref<4x8xf32>, %bias: memref<8xf32>, %t: memref<8x4xf32>, %out: memref<4x8xf32>, %cols: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %b = memref.load %bias[%j] : memref<8xf32>
      %y = arith.addf %x, %b : f32
      memref.store %y, %out[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %acc = memref.load %cols[%j] : memref<8xf32>
      %y = arith.addf %acc, %x : f32
      memref.store %y, %cols[%j] : memref<8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %t[%j, %i] : memref<8x4xf32>
      memref.store %x, %out[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      memref.store %x, %out[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c1 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      memref.store %x, %out[%i, %j] : memref<4x8xf32>
    }
  }
  func.return
}
