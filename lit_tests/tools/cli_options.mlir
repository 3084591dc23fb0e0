// mlir-opt's single-dash long options are the long options.
// RUN: %xla-opt %s -allow-unregistered-dialect | FileCheck %s --check-prefix=UNREG
// RUN: not %xla-opt %s 2>&1 | FileCheck %s --check-prefix=NOUNREG
// UNREG:   "my.op"()
// NOUNREG: error: Operation my.op is not registered
// RUN: %xla-opt %s -allow-unregistered-dialect -split-input-file -verify-diagnostics -mlir-print-debuginfo

// --list-passes: ours first, with their descriptions and options, then xDSL's.
// RUN: %xla-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST:      xla-opt passes:
// LIST-NEXT:   convert-stablehlo-to-xla  - StableHLO/CHLO (as JAX prints them) to the xla dialect.
// LIST:        convert-xla-to-linalg  - xla ops on tensors -> the linalg-on-tensors level.
// LIST:        convert-linalg-to-parallel-loops  - {{.+}}
// LIST-NEXT:       {min-iterations: int = 131072}
// LIST:        xla-to-llvm  - The whole pipeline, from the xla dialect to the llvm dialect.
// LIST:      xDSL passes:
// LIST:        canonicalize
// LIST:        cse

// --help: what --verify-diagnostics does, --no-import, and only the targets that work.
// RUN: %xla-opt --help | FileCheck %s --check-prefix=HELP
// HELP:      -t TARGET, --target TARGET
// HELP-NEXT:   output: mlir (default; the IR as text), llvm (LLVM IR
// HELP:      --verify-diagnostics  check the diagnostics against the input's
// HELP:      1 otherwise
// HELP:      --no-import
// HELP:      --mlir-print-ir-after-all
// HELP:      --mlir-timing
// RUN: not %xla-opt %s -t x86-asm 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: invalid choice: 'x86-asm' (choose from mlir, stablehlo, llvm, hlo)
"my.op"() : () -> ()
