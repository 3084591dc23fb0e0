// RUN: xla-opt %s -p convert-to-llvm --split-input-file | filecheck %s
// RUN: xla-opt %s -p convert-to-llvm --split-input-file -t llvm | filecheck %s --check-prefix=IR

// Buffers are noalias bare pointers; loads and stores index them with one GEP on the
// row-major linear offset.
// CHECK-LABEL: llvm.func @copy_row(%a: !llvm.ptr {llvm.noalias}, %b: !llvm.ptr {llvm.noalias}, %i: i64)
// CHECK:         %[[S:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[M:.*]] = llvm.mul %{{.*}}, %[[S]] : i64
// CHECK-NEXT:    %[[L:.*]] = llvm.add %[[M]], %{{.*}} : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:         llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr
// IR-LABEL: define void @"copy_row"(ptr noalias %".1", ptr noalias %".2", i64 %".3")
// IR:         getelementptr inbounds float, ptr
func.func @copy_row(%a: memref<4x8xf32>, %b: memref<8xf32>, %i: index) {
  %j = arith.constant 3 : index
  %v = memref.load %a[%i, %j] : memref<4x8xf32>
  memref.store %v, %b[%j] : memref<8xf32>
  func.return
}

// -----

// Heap buffers are malloc/free, copies are memcpy; constants are raw-bit globals.
// Pointers passed to calls are cast to plain ptr (llvmlite checks call argument types).
// CHECK:       llvm.mlir.global internal constant @__c(dense<[1065353216, 1073741824]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x i32>
// CHECK-LABEL: llvm.func @buffers(%{{.*}}: !llvm.ptr {llvm.noalias})
// CHECK:         %[[N:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[H:.*]] = llvm.call @malloc(%[[N]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[G:.*]] = llvm.mlir.addressof @__c : !llvm.ptr
// CHECK:         %[[HC:.*]] = llvm.bitcast %[[H]] : !llvm.ptr to !llvm.ptr
// CHECK-NEXT:    %[[GC:.*]] = llvm.bitcast %[[G]] : !llvm.ptr to !llvm.ptr
// CHECK-NEXT:    llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%[[HC]], %[[GC]], %{{.*}}, %{{.*}})
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK:       llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:       llvm.func @free(!llvm.ptr)
// IR: @"__c" = internal constant [2 x i32] [i32 1065353216, i32 1073741824]
"memref.global"() <{sym_name = "__c", type = memref<2xf32>, initial_value = dense<[1.0, 2.0]> : tensor<2xf32>, sym_visibility = "private", constant}> : () -> ()
func.func @buffers(%out: memref<2xf32>) {
  %h = memref.alloc() : memref<2xf32>
  %g = memref.get_global @__c : memref<2xf32>
  "memref.copy"(%g, %h) : (memref<2xf32>, memref<2xf32>) -> ()
  "memref.copy"(%h, %out) : (memref<2xf32>, memref<2xf32>) -> ()
  memref.dealloc %h : memref<2xf32>
  func.return
}

// -----

// Arithmetic maps one to one; math uses intrinsics, or libm where LLVM has none.
// CHECK-LABEL: llvm.func @scalars(%{{.*}}: f32, %{{.*}}: i32) -> f32
// CHECK:         llvm.fadd
// CHECK:         llvm.call_intrinsic "llvm.log.f32"(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @expm1f(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.icmp "slt"
// CHECK:         llvm.sitofp %{{.*}} : i32 to f32
// CHECK:         llvm.fptosi %{{.*}} : f32 to i32
// CHECK:         llvm.select
// CHECK:         llvm.return %{{.*}} : f32
// CHECK:       llvm.func @expm1f(f32) -> f32
func.func @scalars(%x: f32, %n: i32) -> f32 {
  %a = arith.addf %x, %x : f32
  %e = math.log %a : f32
  %t = math.expm1 %e : f32
  %z = arith.constant 0 : i32
  %c = arith.cmpi slt, %n, %z : i32
  %f = arith.sitofp %n : i32 to f32
  %i = arith.fptosi %t : f32 to i32
  %s = arith.select %c, %f, %t : f32
  func.return %s : f32
}

// -----

// f32 exp and tanh are our polynomials (vectorizable), each defined once per module
// as an internal alwaysinline function that LLVM inlines before vectorizing; f64
// keeps LLVM/libm.
// CHECK-LABEL: llvm.func @exp_tanh(%{{.*}}: f32, %{{.*}}: f64) -> f64
// CHECK:         %[[E:.*]] = llvm.call @xla_opt.expf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @xla_opt.tanhf(%[[E]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.exp.f64"
// CHECK:         llvm.call @tanh(%{{.*}}) : (f64) -> f64
// CHECK:       llvm.func internal @xla_opt.expf(%{{.*}}: f32) -> f32 attributes {passthrough = ["alwaysinline"]}
// CHECK-NOT:     llvm.call @
// CHECK-NOT:     "llvm.exp.f32"
// CHECK:         llvm.return
// CHECK:       llvm.func internal @xla_opt.tanhf(%{{.*}}: f32) -> f32 attributes {passthrough = ["alwaysinline"]}
// CHECK-NOT:     llvm.call @
// CHECK:         llvm.return
// CHECK:       llvm.func @tanh(f64) -> f64
func.func @exp_tanh(%x: f32, %y: f64) -> f64 {
  %a = math.exp %x : f32
  %b = math.tanh %a : f32
  %c = math.exp %y : f64
  %d = math.tanh %c : f64
  func.return %d : f64
}

// -----

// bf16 lives in i16: widening shifts the bits into the high half of an f32,
// narrowing rounds to nearest even on the f32 bits.
// CHECK-LABEL: llvm.func @bf16(%{{.*}}: i16) -> i16
// CHECK:         llvm.zext %{{.*}} : i16 to i32
// CHECK:         llvm.shl
// CHECK:         llvm.bitcast %{{.*}} : i32 to f32
// CHECK:         llvm.fmul
// CHECK:         llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         llvm.trunc %{{.*}} : i32 to i16
func.func @bf16(%x: bf16) -> bf16 {
  %w = arith.extf %x : bf16 to f32
  %m = arith.mulf %w, %w : f32
  %n = arith.truncf %m : f32 to bf16
  func.return %n : bf16
}
