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
from xla_opt.dialects.xla.base import TokenType
from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS

from xla_opt.diagnostics import DiagnosticError, op_diagnostic

from .control_flow import CONTROL_FLOW_PATTERNS
from .elementwise import ELEMENTWISE_PATTERNS
from .linear_algebra import LINEAR_ALGEBRA_PATTERNS
from .reductions import REDUCTION_PATTERNS
from .shape_ops import SHAPE_PATTERNS


class SignlessIntegers(TypeConversionPattern):
    """uiN -> iN everywhere (unsignedness lives in the arith ops chosen)."""

    @attr_type_rewrite_pattern
    def convert_type(self, typ: IntegerType) -> IntegerType | None:
        if typ.signedness.data == Signedness.UNSIGNED:
            return IntegerType(typ.width.data)
        return None


def _unlowered_part(t: Attribute) -> Attribute | None:
    """The part of a type the lowering has no representation for yet (a complex
    element type or a token), or None."""
    if isinstance(t, TokenType):
        return t
    if isinstance(t, TensorType) and isinstance(t.element_type, ComplexType):
        return t.element_type
    if isinstance(t, TupleType):
        return next((p for p in map(_unlowered_part, t.types.data) if p is not None), None)
    return None


def unlowered_types(module: ModuleOp) -> list:
    """Diagnostics for values of a type the lowering does not represent, before any
    pattern runs (a data-movement op on complex numbers would otherwise lower to LLVM
    IR that cannot be compiled): one per xla op with such a value, and one per function
    whose signature has one, or a tuple, when no op of its body was reported."""
    diagnostics = []

    def first_unlowered(types) -> Attribute | None:
        return next((p for p in map(_unlowered_part, types) if p is not None), None)

    for func in module.walk():
        if not isinstance(func, FuncOp):
            continue
        reported = len(diagnostics)
        for op in func.body.walk():
            if op.name.startswith("xla.") and (part := first_unlowered([*op.operand_types, *op.result_types])):
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
            GreedyRewritePatternApplier(
                [*ELEMENTWISE_PATTERNS, *SHAPE_PATTERNS, *REDUCTION_PATTERNS, *LINEAR_ALGEBRA_PATTERNS, *CONTROL_FLOW_PATTERNS]
            )
        ).rewrite_module(op)
        PatternRewriteWalker(SignlessIntegers(recursive=True)).rewrite_module(op)
        leftovers = [inner for inner in op.walk() if inner.name.startswith("xla.")]
        if leftovers:
            raise DiagnosticError(
                [op_diagnostic(o, "is not lowered to linalg (the interpreter runs it)") for o in leftovers]
            )


# The ops these patterns lower (the core op set; complex element types excepted).
# tests/test_jit_differential.py runs each of them through the JIT.
LOWERED_OPS: frozenset[str] = frozenset(
    {f"xla.{n}" for n in (
        "constant", "iota", "select", "clamp", "convert", "compare", "broadcast", "broadcast_in_dim",
        "reshape", "collapse", "transpose", "reverse", "slice", "dynamic_slice", "dynamic_update_slice",
        "concatenate", "pad", "dot", "dot_general", "reduce", "while", "conditional", "call", "tuple",
        "get_tuple_element", "optimization_barrier", "bitcast_convert", "reduce_precision", "return",
    )}  # fmt: skip
    | {op.name for op in (*UNARY_OPS, *BINARY_OPS)}
)
