// Locations survive the whole lowering (issue 14): bufferization, loops, the outlined
// parallel regions and the LLVM dialect keep the source op's location. Only the
// implicit module and the declarations of external functions (the GEMM micro-kernel,
// libgomp's entry points) have none.
// RUN: %xla-opt %s -p xla-to-llvm --mlir-print-debuginfo | FileCheck %s
// RUN: %xla-opt %s -p xla-to-llvm --mlir-print-debuginfo | python -c "import re, sys; print(sum('loc(unknown)' in l and not re.match(r'\s*(llvm.func @\w+\([^%%{]*|\})\s*loc\(unknown\)\s*$', l) for l in sys.stdin))" | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^0$}}

func.func @main(%x: tensor<512x512xf32>, %w: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %d = xla.dot %x, %w : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %t = xla.tanh %d : tensor<512x512xf32>
  %s = xla.add %t, %x : tensor<512x512xf32>
  func.return %s : tensor<512x512xf32>
}

// The element-wise loops run in parallel: the outlined body's ops keep their source op's line
// CHECK: llvm.func internal @main_kernel_0_omp_body
// CHECK: llvm.call @xla_opt.tanhf({{.*}} loc("{{.*}}locations_to_llvm.mlir":11:3)
// CHECK: llvm.fadd {{.*}} loc("{{.*}}locations_to_llvm.mlir":12:3)
// The loop nest's kernel function and its call: the line of the fused op
// CHECK: llvm.func @main_kernel_0(%{{[a-z0-9_]+}}: !llvm.ptr {llvm.noalias} loc("{{.*}}locations_to_llvm.mlir":12:3)
// CHECK: llvm.func @main(%{{[a-z0-9_]+}}: !llvm.ptr {llvm.noalias} loc("{{.*}}locations_to_llvm.mlir":9:17)
// The dot's line: the call of the micro-kernel
// CHECK: llvm.call @xla_opt_sgemm({{.*}} loc("{{.*}}locations_to_llvm.mlir":10:3)
// CHECK: llvm.call @main_kernel_0({{.*}} loc("{{.*}}locations_to_llvm.mlir":12:3)
// The f32 tanh expansion, defined once, has the name of its function as location
// CHECK: llvm.func internal @xla_opt.tanhf(%{{.*}}: f32 loc("xla_opt.tanhf")) -> f32
// CHECK: llvm.fmul {{.*}} loc("xla_opt.tanhf")
