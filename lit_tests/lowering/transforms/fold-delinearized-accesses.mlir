// RUN: xla-opt %s -p fold-delinearized-accesses | filecheck %s

// A reshape's merged dimensions read in memory order: the three indices of the
// 96x96x96 buffer address element %i, so the load reads a 1-D view of it (made at the
// top of the function) at %i; the divisions go. The store into a buffer allocated
// in the function does the same on a view made right after the allocation.
// CHECK-LABEL: func.func @merged_in_memory_order
// CHECK-SAME:    (%[[X:.*]]: memref<96x96x96xf32>, %[[Y:.*]]: memref<884736xf32>)
// CHECK-NEXT:    %[[XV:.*]] = memref.collapse_shape %[[X]] {{\[}}[0 : i64, 1 : i64, 2 : i64]] : memref<96x96x96xf32> into memref<884736xf32>
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<96x9216xf32>
// CHECK-NEXT:    %[[TV:.*]] = memref.collapse_shape %[[T]] {{\[}}[0 : i64, 1 : i64]] : memref<96x9216xf32> into memref<884736xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[XV]][%[[I]]] : memref<884736xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[Y]][%[[I]]] : memref<884736xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[TV]][%[[I]]] : memref<884736xf32>
// CHECK-NEXT:    }
func.func @merged_in_memory_order(%x: memref<96x96x96xf32>, %y: memref<884736xf32>) {
  %t = memref.alloc() : memref<96x9216xf32>
  %lb = arith.constant 0 : index
  %ub = arith.constant 884736 : index
  %step = arith.constant 1 : index
  scf.for %i = %lb to %ub step %step {
    %a = affine.apply affine_map<(d0) -> (d0 floordiv 9216)> (%i)
    %b = affine.apply affine_map<(d0) -> ((d0 floordiv 96) mod 96)> (%i)
    %c = affine.apply affine_map<(d0) -> (d0 mod 96)> (%i)
    %v = memref.load %x[%a, %b, %c] : memref<96x96x96xf32>
    memref.store %v, %y[%i] : memref<884736xf32>
    %r = affine.apply affine_map<(d0) -> (d0 floordiv 9216)> (%i)
    %s = affine.apply affine_map<(d0) -> (d0 mod 9216)> (%i)
    memref.store %v, %t[%r, %s] : memref<96x9216xf32>
  }
  memref.dealloc %t : memref<96x9216xf32>
  func.return
}

// With an index that is a loop value itself: (%j, %k floordiv 64, %k mod 64) of a
// 8x4x64 buffer is %j * 256 + %k.
// CHECK-LABEL: func.func @with_a_plain_index
// CHECK:           %[[L:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 256) + d1))> (%{{.*}}, %{{.*}})
// CHECK-NEXT:      memref.load %{{.*}}[%[[L]]] : memref<2048xf32>
func.func @with_a_plain_index(%x: memref<8x4x64xf32>, %j: index, %k: index) -> f32 {
  %a = affine.apply affine_map<(d0, d1) -> (d1 floordiv 64)> (%j, %k)
  %b = affine.apply affine_map<(d0, d1) -> (d1 mod 64)> (%j, %k)
  %v = memref.load %x[%j, %a, %b] : memref<8x4x64xf32>
  func.return %v : f32
}

// Merged dimensions read out of memory order (a transpose before the reshape: the
// address keeps a division) stay as they are.
// CHECK-LABEL: func.func @out_of_memory_order
// CHECK-NOT:     memref.collapse_shape
// CHECK:         memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<6x4xf32>
func.func @out_of_memory_order(%x: memref<6x4xf32>, %i: index) -> f32 {
  %a = affine.apply affine_map<(d0) -> (d0 mod 6)> (%i)
  %b = affine.apply affine_map<(d0) -> (d0 floordiv 6)> (%i)
  %v = memref.load %x[%a, %b] : memref<6x4xf32>
  func.return %v : f32
}
