"""convert-xla-to-linalg: xla ops on tensors -> the linalg-on-tensors level.

One greedy sweep of the element-wise, shape and structural patterns (one pattern per
op), then one walk makes every integer type signless (unsignedness lives in the arith
ops chosen) and applies the families' type conversions. An xla op left over is an
error naming it: the JIT covers the core op set.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import TypeConversionPattern
from xdsl.rewriter import Rewriter

from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.pattern_dispatch import ConversionWalker

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
    sharding,
    tokens,
)

# One module per op family, with the family's name in every layer; each exports its
# `PATTERNS` (one per op) and the names of the ops they lower (`LOWERED`); a family
# whose types change too (tokens) exports its `TYPE_CONVERSIONS`.
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
    # the sdy dialect's ops, in a program compiled whole (not partitioned)
    "sharding": sharding,
}


class _LegalTypes:
    """One type or attribute with every integer type signless (uiN -> iN: unsignedness
    lives in the arith ops chosen) and the families' type conversions applied (e.g.
    tokens as tensor<0xi1>), recursively: every parameter of a parametrized attribute
    (tensor, memref, function and tuple types; dense, integer and array attributes'
    element types), every element of an ArrayAttr and value of a DictionaryAttr. The
    families' conversions see type attributes only, after their parameters, as
    xDSL's recursive TypeConversionPattern does. Other data (strings, bytes, numbers)
    is left as it is, and no attribute is ever printed: a 1 MB dense constant costs
    one look at its type. An attribute with nothing to convert is returned unchanged
    (the same object); results are memoized per attribute object."""

    def __init__(self, conversions: list[TypeConversionPattern]) -> None:
        self._conversions = conversions
        self._memo: dict[int, tuple[Attribute, Attribute]] = {}

    def __call__(self, attr: Attribute) -> Attribute:
        hit = self._memo.get(id(attr))
        if hit is not None:
            return hit[1]
        converted = self._convert(attr)
        self._memo[id(attr)] = (attr, converted)  # the key object stays alive with its id
        return converted

    def _convert(self, attr: Attribute) -> Attribute:
        if isinstance(attr, IntegerType):
            return IntegerType(attr.width.data) if attr.signedness.data == Signedness.UNSIGNED else attr
        if isinstance(attr, ParametrizedAttribute):
            params = attr.parameters
            converted = [self(p) for p in params]
            if any(c is not p for c, p in zip(converted, params, strict=True)):
                attr = type(attr).new(converted)
            if isinstance(attr, TypeAttribute):
                for conversion in self._conversions:
                    attr = conversion.convert_type(attr) or attr
            return attr
        if isinstance(attr, ArrayAttr):
            elements = tuple(self(e) for e in attr.data)
            if any(c is not e for c, e in zip(elements, attr.data, strict=True)):
                return type(attr).new(elements)
            return attr
        if isinstance(attr, DictionaryAttr):
            entries = {k: self(v) for k, v in attr.data.items()}
            if any(entries[k] is not v for k, v in attr.data.items()):
                return type(attr).new(entries)
            return attr
        return attr


def legalize_types(module: ModuleOp, conversions: list[TypeConversionPattern]) -> None:
    """Every integer type signless and the families' type conversions applied, in
    place, in one walk: op result types, block argument types, properties and
    attributes (function types, constants' dense values and every attribute that can
    hold a type). Nothing is rewritten when there is nothing to convert."""
    legal = _LegalTypes(conversions)
    for op in module.walk():
        for result in op.results:
            if (new_type := legal(result.type)) is not result.type:
                Rewriter.replace_value_with_new_type(result, new_type)
        for table in (op.properties, op.attributes):
            for name, value in table.items():
                if (new_value := legal(value)) is not value:
                    table[name] = new_value
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if (new_type := legal(arg.type)) is not arg.type:
                        Rewriter.replace_value_with_new_type(arg, new_type)


# The lowerings that compute on real numbers only: complex values of these ops run on
# the interpreter. None today: every lowering computes through scalar_ops, which has
# complex arithmetic, or (the factorizations) has its own complex path.
REAL_ONLY_OPS: frozenset[str] = frozenset()


def _complex_part(t: Attribute) -> Attribute | None:
    """The complex element type of a tensor (or of a tuple's first complex tensor), or
    None."""
    if isinstance(t, TensorType) and isinstance(t.element_type, ComplexType):
        return t.element_type
    if isinstance(t, TupleType):
        return next((p for p in map(_complex_part, t.types.data) if p is not None), None)
    return None


def unlowered_types(module: ModuleOp) -> list:
    """Diagnostics for values the lowering does not represent, before any pattern
    runs: one per op of REAL_ONLY_OPS with a complex operand or result, and one per
    function whose signature has a tuple (buffers cross a function's boundary) when no
    op of its body was reported."""
    diagnostics = []
    for func in module.walk():
        if not isinstance(func, FuncOp):
            continue
        reported = len(diagnostics)
        for op in func.body.walk():
            if op.name in REAL_ONLY_OPS and (
                part := next((p for p in map(_complex_part, [*op.operand_types, *op.result_types]) if p), None)
            ):
                diagnostics.append(
                    op_diagnostic(op, f"is not lowered to linalg: {part} values run on the interpreter only")
                )
        if len(diagnostics) > reported:
            continue
        signature = [*func.function_type.inputs.data, *func.function_type.outputs.data]
        if tuple_type := next((t for t in signature if isinstance(t, TupleType)), None):
            # tuples live only inside a function: buffers cross its boundary
            why = f"{tuple_type} arguments and results run on the interpreter only"
            diagnostics.append(op_diagnostic(func, f"is not lowered to linalg: {why}"))
    return diagnostics


@dataclass(frozen=True)
class ConvertXlaToLinalgPass(ModulePass):
    """xla ops on tensors -> the linalg-on-tensors level. See the module doc.

    `replica_id`: the replica a module of N > 1 replicas (`mhlo.num_replicas`) is lowered
    for, as each MPI rank lowers it for itself (its collectives become MPI calls); such a
    module without it is an error."""

    name = "convert-xla-to-linalg"
    input_dialects = ("sdy", "xla")  # sdy: a sharded program run whole drops its annotations
    output_dialects = ("arith", "func", "linalg", "math", "scf", "tensor")

    replica_id: int | None = None
    """The replica a module of N > 1 replicas is lowered for (an MPI rank's own)."""

    host_collectives: bool = False
    """Lower a module of N > 1 replicas for replicas that run as threads of one process:
    its collectives (and replica_id) become host calls, one program for every replica."""

    radix_sort_min_length: int = reductions.RADIX_MIN_LENGTH
    """Rows shorter than this are merge-sorted instead of radix-sorted (a radix sort
    clears its counters for every row)."""

    fft_kernel: bool = True
    """An FFT whose lengths the FFT kernel takes calls it (lowering/kernels/fft.py);
    false: every FFT as linalg generics (FftToGeneric), as for the other lengths."""

    def patterns(self, module: ModuleOp | None = None) -> list:
        """Every family's patterns, with this pass's options (for `module`: its FFTs'
        kernel library is the one of all of them)."""
        fft_library = linear_algebra.fft_kernel_library(module) if module is not None else None
        with_options = {
            collectives: collectives.patterns(self.replica_id, self.host_collectives),
            reductions: reductions.patterns(self.radix_sort_min_length),
            linear_algebra: [
                linear_algebra.FftToKernel(fft_library) if isinstance(p, linear_algebra.FftToKernel) else p
                for p in linear_algebra.PATTERNS
                if self.fft_kernel or not isinstance(p, linear_algebra.FftToKernel)
            ],
        }
        return [p for m in FAMILY_MODULES.values() for p in with_options.get(m, m.PATTERNS)]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if diagnostics := unlowered_types(op):
            raise DiagnosticError(diagnostics)
        sharding.strip_sharding_attributes(op)
        ConversionWalker(self.patterns(op)).rewrite_module(op)
        # A TypeConversionPattern in the greedy sweep would rebuild (and, through its
        # constraint's error message, print) every attribute of every op visited: the
        # families' type conversions run once, after the op patterns, with uiN -> iN.
        legalize_types(op, [c for m in FAMILY_MODULES.values() for c in getattr(m, "TYPE_CONVERSIONS", ())])
        leftovers = [inner for inner in op.walk() if inner.name.startswith("xla.")]
        if leftovers:
            raise DiagnosticError(
                [op_diagnostic(o, "is not lowered to linalg (the interpreter runs it)") for o in leftovers]
            )


# The ops the patterns lower. The tests/test_jit_*.py files run each of them through
# the JIT.
LOWERED_OPS: frozenset[str] = frozenset().union(*(m.LOWERED for m in FAMILY_MODULES.values()))
