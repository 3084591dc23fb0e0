// RUN: xla-opt %s -p 'stream-result-stores{min-bytes=4096 min-run-bytes=256 chunk-bytes=1024}' | filecheck %s

// Rows of 200 f32 (800 bytes, within one 1024-byte chunk): each row is computed into
// a scratch allocated before the nest, then streamed to its place (row %i starts at
// element %i * 200); the nest, not parallel, is followed by the fence.
// CHECK-LABEL: func.func @rows
// CHECK-SAME:    (%[[A:.*]]: memref<8x200xf32>, %[[OUT:.*]]: memref<8x200xf32>)
// CHECK:         %[[S:.*]] = memref.alloca() : memref<200xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<8x200xf32>
// CHECK-NEXT:        memref.store %[[X]], %[[S]][%[[J]]] : memref<200xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[W:.*]] = arith.constant 200 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.muli %[[I]], %[[W]] : index
// CHECK-NEXT:      %[[BASE:.*]] = llvm.bitcast %[[OUT]] : memref<8x200xf32> to !llvm.ptr
// CHECK-NEXT:      %[[AT64:.*]] = arith.index_cast %[[AT]] : index to i64
// CHECK-NEXT:      %[[DST:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[AT64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:      %[[BYTES:.*]] = llvm.mlir.constant(800) : i64
// CHECK-NEXT:      %[[SRC:.*]] = llvm.bitcast %[[S]] : memref<200xf32> to !llvm.ptr
// CHECK-NEXT:      llvm.call @xla_opt_stream_store(%[[DST]], %[[SRC]], %[[BYTES]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.call @xla_opt_stream_fence() : () -> ()
// CHECK-NEXT:    func.return
func.func @rows(%a: memref<8x200xf32>, %out: memref<8x200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c200 = arith.constant 200 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c200 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x200xf32>
      memref.store %x, %out[%i, %j] : memref<8x200xf32>
    }
  }
  func.return
}

// A parallel loop over 1100 elements is strip-mined: a parallel loop over chunks of
// 256 (1024 bytes), its scratch at the top of its body (one per thread), an scf.for
// over the chunk (the last one partial: min(%k + 256, 1100)), then the copy of the
// chunk's %end - %k elements. No fence here: each thread fences its own stores
// (convert-omp-to-llvm).
// CHECK-LABEL: func.func @parallel
// CHECK-SAME:    (%[[A:.*]]: memref<1100xf32>, %[[OUT:.*]]: memref<1100xf32>)
// CHECK:         %c1100 = arith.constant 1100 : index
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[UB:.*]] = arith.constant 1100 : index
// CHECK-NEXT:    %[[CHUNK:.*]] = arith.constant 256 : index
// CHECK-NEXT:    "scf.parallel"(%[[LB]], %[[UB]], %[[CHUNK]])
// CHECK-NEXT:    ^{{.*}}(%[[K:.*]]: index):
// CHECK-NEXT:      %[[S:.*]] = memref.alloca() : memref<256xf32>
// CHECK-NEXT:      %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[K]], %[[C256]] : index
// CHECK-NEXT:      %[[END:.*]] = arith.minsi %[[NEXT]], %[[UB]] : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[K]] to %[[END]] step %[[ONE]] {
// CHECK-NEXT:        %[[P:.*]] = arith.subi %[[J]], %[[K]] : index
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[A]][%[[J]]] : memref<1100xf32>
// CHECK-NEXT:        %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:        memref.store %[[Y]], %[[S]][%[[P]]] : memref<256xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[N:.*]] = arith.subi %[[END]], %[[K]] : index
// CHECK-NEXT:      %[[BASE:.*]] = llvm.bitcast %[[OUT]] : memref<1100xf32> to !llvm.ptr
// CHECK-NEXT:      %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:      %[[DST:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[K64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:      %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:      %[[SIZE:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:      %[[BYTES:.*]] = arith.muli %[[N64]], %[[SIZE]] : i64
// CHECK-NEXT:      %[[SRC:.*]] = llvm.bitcast %[[S]] : memref<256xf32> to !llvm.ptr
// CHECK-NEXT:      llvm.call @xla_opt_stream_store(%[[DST]], %[[SRC]], %[[BYTES]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    })
// CHECK-NEXT:    func.return
func.func @parallel(%a: memref<1100xf32>, %out: memref<1100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1100 = arith.constant 1100 : index
  "scf.parallel"(%c0, %c1100, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %x = memref.load %a[%i] : memref<1100xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %out[%i] : memref<1100xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// The run may start at an offset defined outside the loop: row %i of 200 elements at
// column %c of a 4x1000 buffer starts at element %i * 1000 + %c.
// CHECK-LABEL: func.func @offset
// CHECK-SAME:    (%[[A:.*]]: memref<4x200xf32>, %[[OUT:.*]]: memref<4x1000xf32>, %[[C:.*]]: index)
// CHECK:           %[[X:.*]] = memref.load %[[A]][%[[I:.*]], %[[J:.*]]] : memref<4x200xf32>
// CHECK-NEXT:      memref.store %[[X]], %[[S:.*]][%[[J]]] : memref<200xf32>
// CHECK-NEXT:    }
// CHECK:         %[[W:.*]] = arith.constant 1000 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[I]], %[[W]] : index
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[ROW]], %[[C]] : index
// CHECK:         llvm.call @xla_opt_stream_store
func.func @offset(%a: memref<4x200xf32>, %out: memref<4x1000xf32>, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c200 = arith.constant 200 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c200 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x200xf32>
      %col = arith.addi %j, %c : index
      memref.store %x, %out[%i, %col] : memref<4x1000xf32>
    }
  }
  func.return
}

// Left alone: a result the function reads back, a run shorter than min-run-bytes
// (50 f32), a store across the rows (not contiguous in the inner loop), a buffer
// smaller than min-bytes, and a buffer the function allocates.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     xla_opt_stream
// CHECK:         func.return
func.func @left_alone(%a: memref<8x200xf32>, %read: memref<8x200xf32>, %short: memref<40x50xf32>, %across: memref<200x8xf32>, %small: memref<4x200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  %c50 = arith.constant 50 : index
  %c200 = arith.constant 200 : index
  %mine = memref.alloc() : memref<8x200xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c200 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x200xf32>
      memref.store %x, %read[%i, %j] : memref<8x200xf32>
      %y = memref.load %read[%i, %j] : memref<8x200xf32>
      memref.store %y, %across[%j, %i] : memref<200x8xf32>
      memref.store %y, %mine[%i, %j] : memref<8x200xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c200 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x200xf32>
      memref.store %x, %small[%i, %j] : memref<4x200xf32>
    }
  }
  scf.for %i = %c0 to %c40 step %c1 {
    scf.for %j = %c0 to %c50 step %c1 {
      %x = memref.load %a[%c0, %j] : memref<8x200xf32>
      memref.store %x, %short[%i, %j] : memref<40x50xf32>
    }
  }
  memref.dealloc %mine : memref<8x200xf32>
  func.return
}

// CHECK: llvm.func @xla_opt_stream_store(!llvm.ptr, !llvm.ptr, i64)
// CHECK: llvm.func @xla_opt_stream_fence()
