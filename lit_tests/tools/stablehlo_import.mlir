// xla-opt imports StableHLO by itself before a pipeline runs (as xla-run and the API
// do): convert-xla-to-linalg lowers a JAX program, xla-to-llvm compiles it.
// RUN: %xla-opt %s -p convert-xla-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: %xla-opt %s -p xla-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: %xla-opt %s -p xla-to-llvm -t llvm | FileCheck %s --check-prefix=IR
// RUN: %xla-opt %s -p cse | FileCheck %s --check-prefix=XLA
// Without a pipeline StableHLO prints as parsed; --no-import keeps it with a pipeline.
// RUN: %xla-opt %s | FileCheck %s --check-prefix=PARSED
// RUN: %xla-opt %s -p cse --no-import | FileCheck %s --check-prefix=PARSED

// LINALG:      func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32>
// LINALG:        linalg.generic
// LINALG:          arith.addf
// LINALG-NOT:  stablehlo
// LLVM:        llvm.func @main(
// IR:          define void @"main"(ptr noalias
// XLA:         xla.add %arg0, %arg0 : tensor<4xf32>
// XLA-NOT:     stablehlo
// PARSED:      "stablehlo.add"(%arg0, %arg0)
// PARSED-NOT:  xla.
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
