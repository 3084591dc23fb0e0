// A malformed pipeline is one line, never a traceback.
// RUN: not %xla-opt %s -p 'canonicalize{' 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: xla-opt: error: invalid pass pipeline 'canonicalize{': column 14: expected argument name here
// BRACE-NOT: Traceback
// RUN: not %xla-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=PAREN
// PAREN: xla-opt: error: invalid pass pipeline 'builtin.module(func.func(cse)': column 30: expected ')', found the end
// RUN: not %xla-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: invalid pass pipeline 'func.func(cse)': the pipeline's top level must be anchored on 'builtin.module' (or 'any'), not 'func.func'
// RUN: not %xla-opt %s --pass-pipeline='builtin.module(func.func(no-such-pass))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: invalid pass pipeline {{.*}}: unknown pass 'no-such-pass' (xla-opt --list-passes lists them)
// RUN: not %xla-opt %s -p 'convert-linalg-to-parallel-loops{min-iterations=many}' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: invalid pass pipeline {{.*}}: pass 'convert-linalg-to-parallel-loops': {{.+}}
// RUN: not %xla-opt %s -p cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: xla-opt: error: give the pipeline once
// xDSL's mlir-opt pass without the executable: said before any pass runs (issue 31).
// RUN: not env XDSL_MLIR_OPT=no-such-mlir-opt %xla-opt %s -p 'mlir-opt[canonicalize]' 2>&1 | FileCheck %s --check-prefix=TOOL
// TOOL: xla-opt: error: pass 'mlir-opt' runs the 'no-such-mlir-opt' executable, which is not on PATH
// TOOL-NOT: internal error
func.func @f() {
  func.return
}
