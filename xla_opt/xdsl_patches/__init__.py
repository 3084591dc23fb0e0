"""Every change xla-opt makes to xDSL 0.74's behaviour, in one place, installed
explicitly by `install()` (the context factory and every driver call it), so that
parsing never depends on which module happened to be imported first.

Each patch is a `Patch` record (`patch.py`): its name, its reason (what xDSL does and
what the patch does instead), its upstream status and the xDSL version it was
written for. `install()` installs them all (idempotent), `install(names)` some;
`uninstall(names)` puts back what a patch replaced, and `REGISTRY[name].removed()`
keeps it out for the duration of a `with` block (the tests' way).
Installing warns once if the installed xDSL is not the version a patch was written
for. `tests/test_xdsl_patches.py` shows, for each patch, the bug or the cost it
removes. The numbers are the ones the README, tests and comments cite.

parsing.py, the parser and lexer:
  1, 2. dense-literals: hexadecimal floats are bit patterns; values out of range are errors
  3. attribute-ranges: an integer or float attribute out of range is a located error
  4. linear-string-literal: an unterminated string lexes in linear time, not exponential
  5. jax-locations: the locations JAX prints (ranges, names, callsites, forward aliases)
  8. mixed-complex-literals: `(1.5, 2)` for a float complex; a hexadecimal part is its bits
  10. splat-literals: a large splat keeps one value
  12. dense-literal-type-check: the literal's type constraint built once
  16. tensor-type-memo: a tensor type's spelling parsed once
  20. fast-common-tokens: the commonest tokens lexed without xDSL's per-token table
ir.py, building, verifying and comparing IR:
  7. linear-verifier: a region's block count read in O(1)
  11. linear-block-split: a split block's successor linked in O(1)
  13. cached-dense-arrays: short integer dense arrays (segment sizes) built once
  14. fast-op-arguments: a sequence argument told apart per class, not by an ABC check
  18. fast-op-init: an op of single operands and results built directly
  19. typed-structural-equivalence: result types compared, as MLIR does
  22. memoized-symbol-lookups: while a module is verified, each symbol table is read once
rewriting.py, pattern rewriting:
  9. rewrite-locations: what a rewrite creates takes the replaced op's location
  17. early-exit-effects: the dead-code check stops at the first effect
  21. conversion-sweeps: lower-affine and convert-scf-to-cf visit only the ops they convert
  23. linalg-memory-effects: linalg.generic's effects are its memref operands' (none on tensors)
llvm_translation.py, the llvm dialect's translation to LLVM IR:
  6. llvm-casts: llvm.uitofp, llvm.fptosi, llvm.fptoui translated
  15. llvm-function-attributes: a function's linkage and passthrough attributes kept

Not patches, though they reach into xDSL: `pass_manager._counting_rewrites` wraps the
walkers only while a pass runs under --mlir-pass-statistics, to count rewrites (it
changes no result); `opt_main` turns attribute verification off for
--disable-verify as xdsl-opt does; `pattern_dispatch.matched_type` reads the op type
of an `op_type_rewrite_pattern` from the decorator's closure.
"""

from __future__ import annotations

from collections.abc import Iterable

from xla_opt.xdsl_patches import ir, llvm_translation, parsing, rewriting
from xla_opt.xdsl_patches.ir import _fixed_arity_counts  # noqa: F401 - read by tests/test_compile_time.py
from xla_opt.xdsl_patches.patch import Patch, XdslVersionWarning, check_xdsl_version
from xla_opt.xdsl_patches.rewriting import _result_only_effects  # noqa: F401 - read by tests/test_compile_time.py

__all__ = ["PATCHES", "REGISTRY", "Patch", "XdslVersionWarning", "install", "uninstall"]

# in the order they are installed (no two replace the same thing)
PATCHES: tuple[Patch, ...] = (*parsing.PATCHES, *ir.PATCHES, *rewriting.PATCHES, *llvm_translation.PATCHES)
REGISTRY: dict[str, Patch] = {p.name: p for p in PATCHES}


def _chosen(names: Iterable[str] | None) -> list[Patch]:
    """The patches named (all when None), in the registry's order."""
    if names is None:
        return list(PATCHES)
    wanted = {names} if isinstance(names, str) else set(names)
    if unknown := wanted - REGISTRY.keys():
        raise KeyError(f"no xDSL patch named {', '.join(sorted(unknown))} (known: {', '.join(REGISTRY)})")
    return [p for p in PATCHES if p.name in wanted]


def install(names: Iterable[str] | None = None) -> None:
    """Install every patch, or the ones named; those already installed stay as they are
    (idempotent). A version mismatch is one warning naming every patch concerned."""
    pending = [p for p in _chosen(names) if not (p.installed or p.held_out)]
    check_xdsl_version(pending)
    for p in pending:
        p._install()  # the version checked above, in one warning


def uninstall(names: Iterable[str] | None = None) -> None:
    """Remove every patch, or the ones named (the last installed first): xDSL's own
    code is back."""
    for p in reversed(_chosen(names)):
        p.uninstall()
