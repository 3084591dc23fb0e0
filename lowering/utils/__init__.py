"""Analyses and IR builders shared by several passes of the lowering: affine index forms
(`linear_forms`), contraction matching (`contractions`), kernel outlining
(`outlining`), LLVM types (`llvm_types`). No pass lives here."""
