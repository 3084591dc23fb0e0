"""convert-xla-to-linalg: xla ops on tensors -> the linalg-on-tensors level.

Minimal driver (to be rewritten by the pipeline's owner): applies the pattern lists
of this package greedily, then makes every integer type signless.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    TypeConversionPattern,
    attr_type_rewrite_pattern,
)

from .elementwise import ELEMENTWISE_PATTERNS
from .shape_ops import SHAPE_PATTERNS
from .structural import STRUCTURAL_PATTERNS


class SignlessIntegers(TypeConversionPattern):
    """uiN -> iN everywhere (unsignedness lives in the arith ops chosen)."""

    @attr_type_rewrite_pattern
    def convert_type(self, typ: IntegerType) -> IntegerType | None:
        if typ.signedness.data == Signedness.UNSIGNED:
            return IntegerType(typ.width.data)
        return None


@dataclass(frozen=True)
class ConvertXlaToLinalgPass(ModulePass):
    name = "convert-xla-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [*ELEMENTWISE_PATTERNS, *SHAPE_PATTERNS, *STRUCTURAL_PATTERNS]
            )
        ).rewrite_module(op)
        PatternRewriteWalker(SignlessIntegers(recursive=True)).rewrite_module(op)
