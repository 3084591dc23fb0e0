"""The progressive lowering from the xla dialect to LLVM IR: `xla_opt.lowering`.

Where a pass goes (the rule; `tests/test_layout.py` checks it), as MLIR's `Conversion/`
and `Transforms/`:

* `lowering/conversions/`: a pass that takes ops of one level to the next and emits
  plain, correct IR (`convert-xla-to-linalg`, `xla-bufferize`,
  `convert-linalg-to-parallel-loops`, `convert-omp-to-llvm`, `convert-scf-while-to-cf`,
  `convert-to-llvm`);
* `lowering/transforms/`: a pass that rewrites IR within its level to make it faster
  (fusion, blocking, micro-kernel calls, loop coalescing, outlining...);
* `lowering/xla_to_llvm.py`: `xla-to-llvm`, the whole pipeline in order (its `STAGES`);
* `lowering/utils/`: analyses and builders shared by several passes (no pass here);
* `lowering/kernels/`: the micro-kernel libraries the transforms call, emitted as LLVM
  IR by our code, each declaring its entry points once (`xla_opt/runtime/` compiles and
  binds them; the lowering never imports the runtime).

Every pass is one module (or package) named after the pass (`fuse-loop-nests` ->
`fuse_loop_nests.py`), registered by name in `xla_opt/universe.py`, and tested by
`lit_tests/lowering/<conversions|transforms>/<pass-name>*.mlir`.
"""


def lowered_op_names() -> set[str]:
    """Names of the xla ops the JIT pipeline lowers (for the README's op table)."""
    from xla_opt.lowering.conversions.convert_xla_to_linalg import LOWERED_OPS

    return set(LOWERED_OPS)
