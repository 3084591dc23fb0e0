"""Passes on the xla dialect: `xla_opt.passes`.

Where a pass goes (the rule; `tests/test_layout.py` checks it):

* `passes/` holds the passes whose input is the xla dialect and whose output is the xla
  dialect, or another program format it is exchanged with:
  - `passes/conversions/`: StableHLO in (`convert-stablehlo-to-xla`) and out
    (`convert-xla-to-stablehlo`, `xla-opt -t stablehlo`), one module per op family;
  - `passes/transforms/`: xla -> xla (`xla-inline-calls`, `xla-expand-batch-norm`,
    `xla-fold-dot-transpose`, `xla-fold-sort-negation`, `xla-legalize-broadcast`,
    `xla-widen-narrow-types`, `xla-spmd-partition`).
* `lowering/` holds the conversions out of xla and the passes on the dialects below it.

Every pass is one module (or package) named after the pass (`xla-legalize-broadcast`
-> `xla_legalize_broadcast.py`), registered by name in `xla_opt/universe.py`, and
tested by `lit_tests/<the module's folder>/<pass-name>*.mlir`.
"""
