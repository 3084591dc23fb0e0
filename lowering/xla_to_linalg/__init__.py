"""convert-xla-to-linalg: xla ops on tensors -> the linalg-on-tensors level.

One greedy sweep of the element-wise, shape and structural patterns (one pattern per
op), then every integer type is made signless (unsignedness lives in the arith ops
chosen). An xla op left over is an error naming it: the JIT covers the core op set.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ComplexType,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    TypeConversionPattern,
    attr_type_rewrite_pattern,
)
from xla_opt.dialects.xla.element_types import TokenType

from xla_opt.diagnostics import DiagnosticError, op_diagnostic

from . import (
    batch_norm,
    collectives,
    control_flow,
    custom_call,
    elementwise,
    gather_scatter,
    linear_algebra,
    reductions,
    rng,
    shape_ops,
    tokens,
)

# One module per op family, with the family's name in every layer; each exports its
# `PATTERNS` (one per op) and the names of the ops they lower (`LOWERED`).
FAMILY_MODULES = {
    "elementwise": elementwise,
    "shape_ops": shape_ops,
    "reductions": reductions,
    "control_flow": control_flow,
    "gather_scatter": gather_scatter,
    "linear_algebra": linear_algebra,
    "batch_norm": batch_norm,
    "rng": rng,
    "custom_call": custom_call,
    "collectives": collectives,
    "tokens": tokens,
}


class SignlessIntegers(TypeConversionPattern):
    """uiN -> iN everywhere (unsignedness lives in the arith ops chosen)."""

    @attr_type_rewrite_pattern
    def convert_type(self, typ: IntegerType) -> IntegerType | None:
        if typ.signedness.data == Signedness.UNSIGNED:
            return IntegerType(typ.width.data)
        return None


# The lowerings that build their arithmetic themselves, on real numbers only (the
# factorizations' divisions and square roots of pivots): complex values of these ops
# run on the interpreter. Every other lowering computes through scalar_ops, which has
# complex arithmetic.
REAL_ONLY_OPS: frozenset[str] = frozenset(
    {"xla.cholesky", "xla.triangular_solve"}
)


def _unlowered_part(t: Attribute, real_only: bool = False) -> Attribute | None:
    """The part of a type the lowering has no representation for yet (a token), or
    None. Complex element types lower like the others (a pair of floats in memory),
    except in the operands and results of REAL_ONLY_OPS (`real_only`)."""
    if isinstance(t, TokenType):
        return None  # a tensor<0xi1> (tokens.py)
    if real_only and isinstance(t, TensorType) and isinstance(t.element_type, ComplexType):
        return t.element_type
    if isinstance(t, TupleType):
        return next((p for p in (_unlowered_part(e, real_only) for e in t.types.data) if p is not None), None)
    return None


def unlowered_types(module: ModuleOp) -> list:
    """Diagnostics for values of a type the lowering does not represent, before any
    pattern runs (a data-movement op on tokens would otherwise lower to LLVM IR that
    cannot be compiled): one per xla op with such a value, and one per function
    whose signature has one, or a tuple, when no op of its body was reported."""
    diagnostics = []

    def first_unlowered(types, real_only: bool = False) -> Attribute | None:
        return next((p for p in (_unlowered_part(t, real_only) for t in types) if p is not None), None)

    for func in module.walk():
        if not isinstance(func, FuncOp):
            continue
        reported = len(diagnostics)
        for op in func.body.walk():
            types = [*op.operand_types, *op.result_types]
            if op.name.startswith("xla.") and (part := first_unlowered(types, op.name in REAL_ONLY_OPS)):
                diagnostics.append(op_diagnostic(op, f"is not lowered to linalg: {part} values run on the interpreter only"))
        if len(diagnostics) > reported:
            continue
        signature = [*func.function_type.inputs.data, *func.function_type.outputs.data]
        if part := first_unlowered(signature):
            why = f"{part} values run on the interpreter only"
        elif tuple_type := next((t for t in signature if isinstance(t, TupleType)), None):
            # tuples live only inside a function: buffers cross its boundary
            why = f"{tuple_type} arguments and results run on the interpreter only"
        else:
            continue
        diagnostics.append(op_diagnostic(func, f"is not lowered to linalg: {why}"))
    return diagnostics


@dataclass(frozen=True)
class ConvertXlaToLinalgPass(ModulePass):
    name = "convert-xla-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if diagnostics := unlowered_types(op):
            raise DiagnosticError(diagnostics)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([p for m in FAMILY_MODULES.values() for p in m.PATTERNS])
        ).rewrite_module(op)
        PatternRewriteWalker(SignlessIntegers(recursive=True)).rewrite_module(op)
        leftovers = [inner for inner in op.walk() if inner.name.startswith("xla.")]
        if leftovers:
            raise DiagnosticError(
                [op_diagnostic(o, "is not lowered to linalg (the interpreter runs it)") for o in leftovers]
            )


# The ops the patterns lower. The tests/test_jit_*.py files run each of them through
# the JIT.
LOWERED_OPS: frozenset[str] = frozenset().union(*(m.LOWERED for m in FAMILY_MODULES.values()))
