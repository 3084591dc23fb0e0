"""Optimizations within a level of the lowering (loop fusion, register blocking,
micro-kernel calls, loop coalescing, non-temporal stores, outlining): each module is one
pass, named after it (`linalg-block-rows` -> `linalg_block_rows.py`). Each can be run
and tested on its own (`xla-opt -p fuse-loop-nests`); `xla-to-llvm` runs them in order."""
