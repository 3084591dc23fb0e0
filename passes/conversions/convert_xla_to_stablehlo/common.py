"""The machinery of `convert-xla-to-stablehlo` and what its per-family patterns share:
`ExportError` handling, the `Builder` that inserts StableHLO ops before the xla op
being converted, the patterns (`ExportRule`, one per xla op; `ByTable`, a table of ops
converted by one rule; `Patterns`, a family's list with `@PATTERNS.rule(xla.XOp)`),
StableHLO attribute constructors, and tuples as their leaves."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    TupleType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xla_opt.dialects.stablehlo.attrs import STABLEHLO_ENUMS, StablehloTokenType
from xla_opt.dialects.stablehlo.ops import STABLEHLO_OPS
from xla_opt.dialects.xla.element_types import elem_of, shape_of, TokenType
from xla_opt.dialects.xla.properties import i64_array

from xla_opt.diagnostics import Diagnostic, DiagnosticError, op_diagnostic
from xla_opt.passes.conversions import keep_sharding_attributes


class StableHLOExportError(ValueError):
    """An op (or type) that cannot be expressed in a single-device StableHLO program."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


def export_diagnostic(err: StableHLOExportError) -> DiagnosticError:
    """The located diagnostic of an export error: at its op, naming it once."""
    message = str(err)
    if err.op is None:
        return DiagnosticError([Diagnostic("xla-opt", 0, 0, f"cannot export to StableHLO: {err}")])
    prefix = f"'{err.op.name}' "
    if message.startswith(prefix):  # the message names the op already
        message = message[len(prefix) :]
    else:
        message = f"cannot be exported to StableHLO: {message}"
    return DiagnosticError([op_diagnostic(err.op, message)])


# --------------------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------------------


def export_type(t: Attribute) -> Attribute:
    """The StableHLO type of an xla type: tensors as they are, `!xla.token` ->
    `!stablehlo.token`, tuples element by element."""
    if isinstance(t, TokenType | StablehloTokenType):
        return StablehloTokenType()
    if isinstance(t, TupleType):
        return TupleType(ArrayAttr([export_type(e) for e in t.types.data]))
    if isinstance(t, TensorType):
        return t
    raise StableHLOExportError(f"type {t} has no StableHLO equivalent")


def result_types(op: Operation) -> list[Attribute]:
    return [export_type(r.type) for r in op.results]


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), i64)


def i32_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), i32)


def bool_attr(value: bool) -> BoolAttr:
    return BoolAttr.from_bool(bool(value))


def enum_attr(kind: str, value: str) -> Attribute:
    """`#stablehlo<kind VALUE>`."""
    cls = STABLEHLO_ENUMS[kind]
    return cls(cls.enum_type(value))  # type: ignore[attr-defined]


def padding_attr(rows: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(rows), 2]), [int(v) for r in rows for v in r])



# --------------------------------------------------------------------------------------
# The builder the rules use: inserts StableHLO ops before an anchor op
# --------------------------------------------------------------------------------------


class Builder:
    """Inserts StableHLO ops before `anchor` (the xla op being converted, or an op of a
    region), through the rewriter; they take the location of the op being converted."""

    def __init__(self, op: Operation, rewriter: PatternRewriter, anchor: Operation | None = None):
        self.converted = op
        self.rewriter = rewriter
        self.anchor = anchor or op

    def before(self, anchor: Operation) -> Builder:
        return Builder(self.converted, self.rewriter, anchor)

    def add(self, new: Operation) -> Operation:
        new.location = self.converted.location
        self.rewriter.insert(new, InsertPoint.before(self.anchor))
        return new

    def op(
        self,
        name: str,
        operands: Sequence[SSAValue],
        types: Sequence[Attribute],
        props: dict[str, Attribute | None] | None = None,
        regions: Sequence[Region] = (),
    ) -> Operation:
        """`stablehlo.<name>` (properties that are None are left out; the others in
        name order, as MLIR prints them)."""
        cls = STABLEHLO_OPS[name.removeprefix("stablehlo.")]
        props = {k: v for k, v in sorted((props or {}).items()) if v is not None}
        return self.add(
            cls.create(operands=list(operands), result_types=list(types), properties=props, regions=list(regions))
        )

    def one(self, name: str, operands: Sequence[SSAValue], t: Attribute, props=None) -> SSAValue:
        return self.op(name, operands, [t], props).results[0]

    def same(self, name: str, props=None, operands: Sequence[SSAValue] | None = None) -> Sequence[SSAValue]:
        """The converted op as `stablehlo.<name>` of the same operands and result types."""
        op = self.converted
        return self.op(name, op.operands if operands is None else operands, result_types(op), props).results

    def constant(self, value: DenseIntOrFPElementsAttr) -> SSAValue:
        return self.one("constant", [], value.get_type(), {"value": value})

    def broadcast_to(self, v: SSAValue, result: Attribute, dims: Sequence[int] | None) -> SSAValue:
        """`v` broadcast to `result`'s shape by XLA's element-wise rules: a scalar to
        any shape, a lower rank along `dims`, degenerate dimensions stretched."""
        s, r = shape_of(v.type), shape_of(result)
        if s == r:
            return v
        if dims is None or len(s) == len(r):
            dims = list(range(len(s)))
        target = TensorType(elem_of(v.type), list(r))
        return self.one("broadcast_in_dim", [v], target, {"broadcast_dimensions": i64_array(dims)})

    # ---- tuples as their leaves (StableHLO's while/if/case carry no tuples) ---------
    def leaves(self, v: SSAValue) -> list[SSAValue]:
        if not isinstance(v.type, TupleType):
            return [v]
        out: list[SSAValue] = []
        for i, et in enumerate(v.type.types.data):
            element = self.one("get_tuple_element", [v], et, {"index": i32_attr(i)})
            out += self.leaves(element)
        return out

    def flatten(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        return [leaf for v in values for leaf in self.leaves(v)]

    def pack(self, leaves: Iterator[SSAValue], t: Attribute) -> SSAValue:
        """The value of type `t` built from the leaves the iterator yields."""
        if not isinstance(t, TupleType):
            return next(leaves)
        elements = [self.pack(leaves, et) for et in t.types.data]
        return self.one("tuple", elements, t)


def flat_types(t: Attribute) -> list[Attribute]:
    """The leaves of a (nested) tuple type; a non-tuple type is its own leaf."""
    if isinstance(t, TupleType):
        return [leaf for e in t.types.data for leaf in flat_types(e)]
    return [t]


def flatten_block(b: Builder, block: Block) -> None:
    """A region's block with tuples as their leaves: its tuple arguments become their
    leaves (repacked for the ops that use them), its return returns leaves."""
    old_args = list(block.args)
    if any(isinstance(a.type, TupleType) for a in old_args):
        for t in (leaf for a in old_args for leaf in flat_types(a.type)):
            block.insert_arg(t, len(block.args))
        leaves = iter(block.args[len(old_args) :])
        inner = b.before(block.first_op)  # type: ignore[arg-type]
        for arg in old_args:
            arg.replace_all_uses_with(inner.pack(leaves, arg.type))
            block.erase_arg(arg)
    ret = block.last_op
    assert ret is not None
    ret.operands = b.before(ret).flatten(ret.operands)


# --------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------

Rule = Callable[[Any, Builder], Sequence[SSAValue]]
"""A conversion: builds the StableHLO ops of an xla op with the builder and returns
the values that replace its results."""


def apply_rule(op: Operation, convert: Rule, rewriter: PatternRewriter) -> None:
    """Replace `op` by what `convert` builds; an export error is reported at `op`."""
    try:
        new_values = list(convert(op, Builder(op, rewriter)))
    except StableHLOExportError as e:
        if e.op is None:
            e.op = op
        raise
    keep_sharding_attributes(op, new_values)
    rewriter.replace(op, [], new_values)


class ExportRule(RewritePattern):
    """The conversion of one xla op class by a rule."""

    def __init__(self, cls: type[Operation], convert: Rule):
        self.cls = cls
        self.convert = convert

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) is self.cls:
            apply_rule(op, self.convert, rewriter)


class ByTable(RewritePattern):
    """The conversion of a table of xla op classes by one rule taking each op's table
    entry (e.g. its StableHLO name): `convert(op, b, entry)`."""

    def __init__(self, table: dict[type[Operation], Any], convert: Callable[[Any, Builder, Any], Sequence[SSAValue]]):
        self.table = table
        self.convert = convert

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        entry = self.table.get(type(op))
        if entry is not None:
            apply_rule(op, lambda op, b: self.convert(op, b, entry), rewriter)


def _renamed(op: Operation, b: Builder, name: str) -> Sequence[SSAValue]:
    return b.same(name)


def renamed(table: dict[type[Operation], str]) -> ByTable:
    """xla ops that are a StableHLO op of the same operands, results and no properties:
    op class -> StableHLO name."""
    return ByTable(table, _renamed)


def _same_properties(op: Operation, b: Builder, entry: tuple[str, tuple[str, ...]]) -> Sequence[SSAValue]:
    name, properties = entry
    return b.same(name, {p: i64_array(getattr(op, f"get_{p}")()) for p in properties})


def same_properties(table: dict[type[Operation], tuple[str, tuple[str, ...]]]) -> ByTable:
    """xla ops that are a StableHLO op carrying the same i64-array properties:
    op class -> (StableHLO name, property names)."""
    return ByTable(table, _same_properties)


class Unsupported(RewritePattern):
    """xla ops with no meaning in a single-device StableHLO program: a located error
    saying why (op name -> the reason)."""

    def __init__(self, table: dict[str, str]):
        self.table = table

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        why = self.table.get(op.name)
        if why is not None:
            raise StableHLOExportError(
                f"'{op.name}' has no StableHLO equivalent in a single-device program (it {why})", op
            )


class Patterns(list[RewritePattern]):
    """A family module's PATTERNS: `@PATTERNS.rule(xla.XOp, ...)` adds the decorated
    rule as the pattern of each op class it names."""

    def rule(self, *classes: type[Operation]) -> Callable[[Rule], Rule]:
        def register(fn: Rule) -> Rule:
            for cls in classes:
                self.append(ExportRule(cls, fn))
            return fn

        return register
