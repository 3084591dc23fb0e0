// RUN: xla-opt %s --split-input-file -p convert-omp-to-llvm | filecheck %s
// RUN: xla-opt %s --split-input-file -p convert-omp-to-llvm,convert-scf-to-cf,convert-to-llvm -t llvm | filecheck %s --check-prefix=IR

// A row reduction's parallel loop. The body function takes the captured buffers as
// memrefs (distinct buffers: noalias once lowered) and the thread's number and team
// size; its static schedule splits the 300 rows (a trip count folded from constant
// bounds) into chunks of ceil(300 / team) and runs chunk `tid` as an scf.for whose
// induction variable is the row (zero lower bound, unit step). Constants are
// rematerialized in the body.
// CHECK-LABEL: func.func private @rows_omp_body_0(%x: memref<300x257xf32>, %out: memref<300xf32>, %tid: i32, %team: i32) attributes {llvm.linkage = #llvm.linkage<"internal">} {
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 300 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[K_END:.*]] = arith.constant 257 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[TOTAL:.*]] = arith.constant 300 : index
// CHECK-NEXT:    %[[TID:.*]] = arith.index_cast %tid : i32 to index
// CHECK-NEXT:    %[[TEAM:.*]] = arith.index_cast %team : i32 to index
// CHECK-NEXT:    %[[T1:.*]] = arith.addi %[[TOTAL]], %[[TEAM]] : index
// CHECK-NEXT:    %[[T2:.*]] = arith.subi %[[T1]], %[[ONE]] : index
// CHECK-NEXT:    %[[CHUNK:.*]] = arith.divsi %[[T2]], %[[TEAM]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[TID]], %[[CHUNK]] : index
// CHECK-NEXT:    %[[BEGIN:.*]] = arith.minsi %[[START]], %[[TOTAL]] : index
// CHECK-NEXT:    %[[STOP:.*]] = arith.addi %[[BEGIN]], %[[CHUNK]] : index
// CHECK-NEXT:    %[[END:.*]] = arith.minsi %[[STOP]], %[[TOTAL]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[BEGIN]] to %[[END]] step %[[ONE]] {
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[LB]] to %[[K_END]] step %[[STEP]] {
// CHECK-NEXT:        %{{.*}} = memref.load %x[%[[I]], %[[K]]] : memref<300x257xf32>
// CHECK-NEXT:        %{{.*}} = memref.load %out[%[[I]]] : memref<300xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf
// CHECK-NEXT:        memref.store %[[S]], %out[%[[I]]] : memref<300xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// The void(ptr) function GOMP_parallel runs on each thread: the captured values from
// the struct, the thread's place in the team, the body.
// CHECK-LABEL: func.func private @rows_omp_region_0(%data: !llvm.ptr) {
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr inbounds %data[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(!llvm.ptr, !llvm.ptr)>
// CHECK-NEXT:    %[[V0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[X:.*]] = builtin.unrealized_conversion_cast %[[V0]] : !llvm.ptr to memref<300x257xf32>
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr inbounds %data[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(!llvm.ptr, !llvm.ptr)>
// CHECK-NEXT:    %[[V1:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[V1]] : !llvm.ptr to memref<300xf32>
// CHECK-NEXT:    %[[TID:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK-NEXT:    %[[TEAM:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK-NEXT:    func.call @rows_omp_body_0(%[[X]], %[[OUT]], %[[TID]], %[[TEAM]])
// CHECK-NEXT:    func.return
// At the region's place: the struct (allocated in the entry block) filled, then
// GOMP_parallel on the runtime's thread count, or the region function directly on one.
// CHECK-LABEL: func.func @rows(%x: memref<300x257xf32>, %out: memref<300xf32>) {
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[ALLOCA:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(!llvm.ptr, !llvm.ptr)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[DATA:.*]] = llvm.bitcast %[[ALLOCA]] : !llvm.ptr to !llvm.ptr
// CHECK:         %[[F0:.*]] = llvm.getelementptr inbounds %[[DATA]][0, 0]
// CHECK-NEXT:    %[[C0:.*]] = builtin.unrealized_conversion_cast %x : memref<300x257xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.store %[[C0]], %[[F0]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[F1:.*]] = llvm.getelementptr inbounds %[[DATA]][0, 1]
// CHECK-NEXT:    %[[C1:.*]] = builtin.unrealized_conversion_cast %out : memref<300xf32> to !llvm.ptr
// CHECK-NEXT:    llvm.store %[[C1]], %[[F1]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[N:.*]] = func.call @xla_opt_num_threads() : () -> i32
// CHECK-NEXT:    %[[ONE32:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[MANY:.*]] = arith.cmpi sgt, %[[N]], %[[ONE32]] : i32
// CHECK-NEXT:    scf.if %[[MANY]] {
// CHECK-NEXT:      %[[FN:.*]] = llvm.mlir.addressof @rows_omp_region_0 : !llvm.ptr
// CHECK-NEXT:      %[[FLAGS:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      func.call @GOMP_parallel(%[[FN]], %[[DATA]], %[[N]], %[[FLAGS]]) : (!llvm.ptr, !llvm.ptr, i32, i32) -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @rows_omp_region_0(%[[DATA]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-DAG:   func.func private @GOMP_parallel(!llvm.ptr, !llvm.ptr, i32, i32) -> ()
// CHECK-DAG:   func.func private @omp_get_thread_num() -> i32
// CHECK-DAG:   func.func private @omp_get_num_threads() -> i32
// CHECK-DAG:   func.func private @xla_opt_num_threads() -> i32
// CHECK-NOT:   omp.

// Once in LLVM IR, the body's buffers are noalias, the region is void(ptr), and the call
// passes its address.
// IR-LABEL: define internal void @"rows_omp_body_0"(ptr noalias %".1", ptr noalias %".2", i32 %".3", i32 %".4")
// IR-LABEL: define void @"rows_omp_region_0"(ptr %".1")
// IR:         load ptr, ptr
// IR:         call ccc i32 @"omp_get_thread_num"()
// IR-NEXT:    call ccc i32 @"omp_get_num_threads"()
// IR:         call ccc void @"rows_omp_body_0"
// IR-LABEL: define void @"rows"(ptr noalias %".1", ptr noalias %".2")
// IR:         %[[DATA:.*]] = alloca {ptr, ptr}, i64 1, align 8
// IR:         %[[N:.*]] = call ccc i32 @"xla_opt_num_threads"()
// IR-NEXT:    %[[MANY:.*]] = icmp sgt i32 %[[N]], 1
// IR:         %[[FN:.*]] = bitcast void (ptr)* @"rows_omp_region_0" to ptr
// IR:         call ccc void @"GOMP_parallel"(ptr %[[FN]], ptr %{{.*}}, i32 %[[N]], i32 0)
// IR:         call ccc void @"rows_omp_region_0"(ptr
// IR:       declare void @"GOMP_parallel"(ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, i32 {{.*}})
func.func @rows(%x: memref<300x257xf32>, %out: memref<300xf32>) {
  %c300 = arith.constant 300 : index
  %c257 = arith.constant 257 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "omp.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>}> ({
    "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> ({
      "omp.loop_nest"(%c0, %c300, %c1) ({
      ^bb0(%i: index):
        "memref.alloca_scope"() ({
          scf.for %k = %c0 to %c257 step %c1 {
            %a = memref.load %x[%i, %k] : memref<300x257xf32>
            %acc = memref.load %out[%i] : memref<300xf32>
            %s = arith.addf %acc, %a : f32
            memref.store %s, %out[%i] : memref<300xf32>
          }
          "memref.alloca_scope.return"() : () -> ()
        }) : () -> ()
        "omp.yield"() : () -> ()
      }) : (index, index, index) -> ()
    }) : () -> ()
    "omp.terminator"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

// Two collapsed loops: the 4 x 8 linearized iterations are split, and each iteration
// recovers (i, j) row-major, j = l rem 8 and i = l div 8.
// CHECK-LABEL: func.func private @collapse_omp_body_0
// CHECK:         %{{.*}} = arith.constant 100 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 4 : index
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 32 : index
// CHECK:         scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[J:.*]] = arith.remsi %[[L]], %[[EIGHT]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.divsi %[[L]], %[[EIGHT]] : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %{{.*}} = memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<4x8x100xi32>

func.func @collapse(%x: memref<4x8x100xi32>, %out: memref<4x8x100xi32>) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c100 = arith.constant 100 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "omp.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>}> ({
    "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> ({
      "omp.loop_nest"(%c0, %c0, %c4, %c8, %c1, %c1) ({
      ^bb0(%i: index, %j: index):
        scf.for %k = %c0 to %c100 step %c1 {
          %a = memref.load %x[%i, %j, %k] : memref<4x8x100xi32>
          %s = arith.muli %a, %a : i32
          memref.store %s, %out[%i, %j, %k] : memref<4x8x100xi32>
        }
        "omp.yield"() : () -> ()
      }) : (index, index, index, index, index, index) -> ()
    }) : () -> ()
    "omp.terminator"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

// A bound known only at run time: the trip count max(ceil((n - 1) / 2), 0) is
// computed, and each iteration's i = 1 + l * 2. The index is passed as an i64.
// CHECK-LABEL: func.func private @strided_omp_body_0(%n: i64, %x: memref<1000xf64>, %tid: i32, %team: i32) attributes {llvm.linkage = #llvm.linkage<"internal">} {
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[N:.*]] = builtin.unrealized_conversion_cast %n : i64 to index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[SPAN:.*]] = arith.subi %[[N]], %[[LB]] : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[SPAN]], %[[STEP]] : index
// CHECK-NEXT:    %[[UP1:.*]] = arith.subi %[[UP]], %[[ONE]] : index
// CHECK-NEXT:    %[[TRIPS:.*]] = arith.divsi %[[UP1]], %[[STEP]] : index
// CHECK-NEXT:    %[[TOTAL:.*]] = arith.maxsi %[[TRIPS]], %[[ZERO]] : index
// CHECK:         scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %[[ONE]] {
// CHECK-NEXT:      %[[SCALED:.*]] = arith.muli %[[L]], %[[STEP]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[LB]], %[[SCALED]] : index
// CHECK-NEXT:      %{{.*}} = memref.load %x[%[[I]]] : memref<1000xf64>
// CHECK-LABEL: func.func @strided
// CHECK:         %[[N64:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    llvm.store %[[N64]], %{{.*}} : i64, !llvm.ptr
func.func @strided(%x: memref<1000xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  "omp.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>}> ({
    "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> ({
      "omp.loop_nest"(%c1, %n, %c2) ({
      ^bb0(%i: index):
        %v = memref.load %x[%i] : memref<1000xf64>
        %w = arith.negf %v : f64
        memref.store %w, %x[%i] : memref<1000xf64>
        "omp.yield"() : () -> ()
      }) : (index, index, index) -> ()
    }) : () -> ()
    "omp.terminator"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

// A loop-carried buffer may be any buffer: the body takes the pointers as !llvm.ptr
// (not noalias) and casts them back. The struct is allocated once, in the entry block,
// not at every iteration of the loop around the region.
// CHECK-LABEL: func.func private @carried_omp_body_0(%x: !llvm.ptr, %buf: !llvm.ptr, %tid: i32, %team: i32) attributes {llvm.linkage = #llvm.linkage<"internal">} {
// CHECK:         %[[X:.*]] = builtin.unrealized_conversion_cast %x : !llvm.ptr to memref<1000xf64>
// CHECK-NEXT:    %[[BUF:.*]] = builtin.unrealized_conversion_cast %buf : !llvm.ptr to memref<1000xf64>
// CHECK:           memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<1000xf64>
// CHECK-LABEL: func.func @carried
// CHECK-NEXT:    llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.alloca
// CHECK:         scf.for
// CHECK-NOT:       llvm.alloca
// CHECK:           func.call @GOMP_parallel
// IR-LABEL: define internal void @"carried_omp_body_0"(ptr %".1", ptr %".2", i32 %".3", i32 %".4")

func.func @carried(%x: memref<1000xf64>, %n: index) -> memref<1000xf64> {
  %c1000 = arith.constant 1000 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.alloc() : memref<1000xf64>
  %last = scf.for %t = %c0 to %n step %c1 iter_args(%buf = %first) -> (memref<1000xf64>) {
    "omp.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>}> ({
      "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> ({
        "omp.loop_nest"(%c0, %c1000, %c1) ({
        ^bb0(%i: index):
          %v = memref.load %x[%i] : memref<1000xf64>
          %w = memref.load %buf[%i] : memref<1000xf64>
          %s = arith.addf %v, %w : f64
          memref.store %s, %buf[%i] : memref<1000xf64>
          "omp.yield"() : () -> ()
        }) : (index, index, index) -> ()
      }) : () -> ()
      "omp.terminator"() : () -> ()
    }) : () -> ()
    scf.yield %buf : memref<1000xf64>
  }
  func.return %last : memref<1000xf64>
}

// -----

// A scratch buffer at the top of the loop body (stream-result-stores) is allocated
// once per thread, in its body function before its share of the iterations (each
// iteration's alloca is fresh memory: one the thread reuses is as good, and an alloca
// inside the loop would grow the stack at every iteration). The body streams: the
// thread fences its non-temporal stores after its last iteration, before it returns
// to the team's barrier.
// CHECK-LABEL: func.func private @streamed_omp_body_0
// CHECK:         %[[S:.*]] = memref.alloca() : memref<256xf32>
// CHECK-NEXT:    scf.for
// CHECK-NOT:       memref.alloca
// CHECK:           memref.store %{{.*}}, %[[S]][%{{.*}}] : memref<256xf32>
// CHECK:           llvm.call @xla_opt_stream_store
// CHECK:         }
// CHECK-NEXT:    llvm.call @xla_opt_stream_fence() : () -> ()
// CHECK-NEXT:    func.return
// IR-LABEL: define internal void @"streamed_omp_body_0"
// IR:         alloca float, i64 256, align 64
// IR:         call ccc void @"xla_opt_stream_fence"()
// IR-NEXT:    ret void

func.func @streamed(%a: memref<1100xf32>, %out: memref<1100xf32>) {
  %0 = arith.constant 0 : index
  %1 = arith.constant 1100 : index
  %2 = arith.constant 256 : index
  "omp.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0>}> ({
    "omp.wsloop"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> ({
      "omp.loop_nest"(%0, %1, %2) ({
      ^bb0(%k: index):
        "memref.alloca_scope"() ({
          %s = memref.alloca() : memref<256xf32>
          %c256 = arith.constant 256 : index
          %next = arith.addi %k, %c256 : index
          %end = arith.minsi %next, %1 : index
          %c1 = arith.constant 1 : index
          scf.for %i = %k to %end step %c1 {
            %p = arith.subi %i, %k : index
            %x = memref.load %a[%i] : memref<1100xf32>
            %y = arith.mulf %x, %x : f32
            memref.store %y, %s[%p] : memref<256xf32>
          }
          %n = arith.subi %end, %k : index
          %base = llvm.bitcast %out : memref<1100xf32> to !llvm.ptr
          %k64 = arith.index_cast %k : index to i64
          %dst = llvm.getelementptr inbounds %base[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          %n64 = arith.index_cast %n : index to i64
          %four = llvm.mlir.constant(4) : i64
          %bytes = arith.muli %n64, %four : i64
          %src = llvm.bitcast %s : memref<256xf32> to !llvm.ptr
          llvm.call @xla_opt_stream_store(%dst, %src, %bytes) : (!llvm.ptr, !llvm.ptr, i64) -> ()
          "memref.alloca_scope.return"() : () -> ()
        }) : () -> ()
        "omp.yield"() : () -> ()
      }) : (index, index, index) -> ()
    }) : () -> ()
    "omp.terminator"() : () -> ()
  }) : () -> ()
  func.return
}
llvm.func @xla_opt_stream_store(!llvm.ptr, !llvm.ptr, i64)
llvm.func @xla_opt_stream_fence()
