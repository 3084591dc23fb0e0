"""The rule machinery of `convert-stablehlo-to-xla` and the helpers its rules share:
rules as rewrite patterns (`OpRule`, one per op; `OneToOne`, a table of ops with
the same operands; `Patterns`, a family's list with `@PATTERNS.rule("stablehlo.x")`),
the `Builder` that inserts xla ops before the op being converted, attribute readers
and region helpers. The rules themselves are in one module per op family next to
this one, each exporting its `PATTERNS`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    TupleType,
    UnknownLoc,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import VariadicDef
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException
from xla_opt.dialects.stablehlo.attrs import OpaqueAttr, StablehloTokenType
from xla_opt.dialects.xla.element_types import TokenType
from xla_opt.dialects.xla import elementwise as xe

from xla_opt.diagnostics import DiagnosticError, op_diagnostic, op_location
from xla_opt.passes.conversions import keep_sharding_attributes


class StablehloConversionError(DiagnosticError, PassFailedException):
    """An op that cannot be converted, reported at its location."""

    def __init__(self, op: Operation, message: str):
        DiagnosticError.__init__(self, [op_diagnostic(op, message, "<stablehlo>")])


def fail(op: Operation, message: str):
    raise StablehloConversionError(op, message)


class StablehloConversionWarning(UserWarning):
    """What the import drops from a program that still runs (a jax.debug.print),
    located at the op. A Python warning (filter or catch it as any other) whose
    `filename` is the program's `file:line` and `lineno` the column, so that Python
    prints it as one line, `file:line:col: StablehloConversionWarning: message`, as a
    located diagnostic is printed (a real file name would add its source line)."""


def warn(op: Operation, message: str) -> None:
    file, line, col = op_location(op, "<stablehlo>")
    warnings.warn_explicit(message, StablehloConversionWarning, f"{file}:{line}", col)


class MalformedAttribute(ValueError):
    """An attribute of the wrong kind or shape (a rule reading it raises this; the
    op's diagnostic says so, without a Python exception name)."""


# --------------------------------------------------------------------------------------
# Attribute helpers
# --------------------------------------------------------------------------------------


def ints(attr: Attribute | None) -> list[int]:
    """Integers of an array<i64>, a rank-0/1 dense elements attribute or an array
    attribute. StableHLO's integer-list attributes are one-dimensional: a dense list of
    another rank is malformed (reported at the op), never flattened."""
    if attr is None:
        return []
    if isinstance(attr, DenseIntOrFPElementsAttr):
        if len(attr.get_shape() or ()) > 1:
            raise MalformedAttribute(f"expected a one-dimensional integer list, got {attr.type}")
        return _dense_ints(attr)
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        return [int(a.value.data) for a in attr.data]  # type: ignore[attr-defined]
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    raise TypeError(f"not an integer list: {attr}")


def _dense_ints(attr: DenseIntOrFPElementsAttr) -> list[int]:
    """Every element, a splat expanded to its shape."""
    values = [int(v) for v in attr.get_values()]
    n = math.prod(attr.get_shape() or ())
    return values * n if len(values) == 1 and n != 1 else values


def matrix(attr: Attribute | None, ncols: int | None = None) -> list[list[int]]:
    """Rows of a rank-2 integer attribute (padding: `ncols=2`, replica groups,
    source-target pairs). Anything but a rank-2 tensor with `ncols` columns is
    malformed (reported at the op): rows are never re-chunked."""
    if attr is None:
        return []
    if isinstance(attr, DenseArrayBase | ArrayAttr) and not len(attr):
        return []  # `pad = []`: no rows (a convolution without spatial dimensions)
    shape = list(attr.get_shape() or ()) if isinstance(attr, DenseIntOrFPElementsAttr) else None
    if shape is None or len(shape) != 2:
        raise MalformedAttribute(f"expected a rank-2 integer tensor, got {getattr(attr, 'type', attr)}")
    if ncols is not None and shape[1] != ncols:
        raise MalformedAttribute(f"expected a tensor of shape [N, {ncols}], got {attr.type}")  # type: ignore[union-attr]
    values = _dense_ints(attr)  # type: ignore[arg-type]
    if shape[1] == 0:
        return [[] for _ in range(shape[0])]
    return [values[i : i + shape[1]] for i in range(0, len(values), shape[1])]


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(int(value), i64)


def int_of(attr: Attribute | None, default: int | None = None) -> int | None:
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    values = ints(attr)
    if len(values) == 1:
        return values[0]
    raise TypeError(f"not an integer: {attr}")


def int_prop(op: Operation, name: str) -> IntegerAttr:
    """A required integer attribute as an i64 attribute; missing, a located error
    (`stablehlo.concatenate` without `dimension`), not a TypeError."""
    value = int_of(prop(op, name))
    if value is None:
        fail(op, f"the integer attribute '{name}' is missing")
    return i64_attr(value)


def bool_of(attr: Attribute | None, default: bool = False) -> bool:
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    raise TypeError(f"not a boolean: {attr}")


def prop(op: Operation, name: str) -> Attribute | None:
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def field(op: Operation, attr_name: str, key: str) -> Attribute | None:
    """A field of a structured attribute (`#stablehlo.gather<...>`)."""
    attr = prop(op, attr_name)
    if attr is None:
        return None
    return attr.fields.data.get(key)  # type: ignore[attr-defined]


def convert_type(t: Attribute) -> Attribute:
    """StableHLO's types as xla's: tokens; a bounded dynamic tensor
    (`tensor<?xf32, #stablehlo.bounds<10>>`) is its static bound, as XLA's dynamic
    shapes are (the dynamic size travels with the value, see set_dimension_size)."""
    if isinstance(t, StablehloTokenType):
        return TokenType()
    if isinstance(t, TupleType):
        return TupleType(ArrayAttr([convert_type(e) for e in t.types.data]))
    if isinstance(t, TensorType) and isinstance(t.encoding, OpaqueAttr) and t.encoding.name == "stablehlo.bounds":
        bounds = [b.strip() for b in t.encoding.body.data.split(",")]
        dims = list(t.get_shape())
        if len(bounds) != len(dims) or any(d < 0 and not b.isdigit() for d, b in zip(dims, bounds, strict=True)):
            raise MalformedAttribute(f"bounds {t.encoding} do not bound every dynamic dimension of {t}")
        return TensorType(t.element_type, [int(b) if d < 0 else d for d, b in zip(dims, bounds, strict=True)])
    return t


def result_types(op: Operation) -> list[Attribute]:
    return [convert_type(r.type) for r in op.results]


def elem(v: SSAValue | Attribute) -> Attribute:
    t = v.type if isinstance(v, SSAValue) else v
    assert isinstance(t, TensorType)
    return t.get_element_type()


def shape(v: SSAValue | Attribute) -> tuple[int, ...]:
    t = v.type if isinstance(v, SSAValue) else v
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def scalar(t: Attribute) -> TensorType:
    return TensorType(t, [])


def constant_ints(op, value, what: str) -> list[int]:
    """The integers of a constant operand (a shape, bounds, paddings), or a located
    error: a truly dynamic shape has no static xla form."""
    owner = value.owner
    attr = prop(owner, "value") if getattr(owner, "name", "") in ("stablehlo.constant", "xla.constant") else None
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not isinstance(elem(value), IntegerType):
        fail(op, f"{what} must be an integer constant: a run-time shape has no static form here")
    return [int(v) for v in attr.get_values()] if len(attr) else []


# --------------------------------------------------------------------------------------
# The builder the rules use: inserts xla ops before the op being converted
# --------------------------------------------------------------------------------------


@dataclass
class Builder:
    """Inserts ops before `op` (through `rewriter` when given); they take its location."""

    op: Operation  # the op being replaced; new ops go before it
    rewriter: PatternRewriter | None = None

    def add(self, new: Operation) -> Operation:
        if isinstance(new.location, UnknownLoc):
            new.location = self.op.location
        if self.rewriter is not None:
            self.rewriter.insert(new, InsertPoint.before(self.op))
        else:
            Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new

    def build(self, cls, operands=(), types=(), props=None, regions=()) -> Operation:
        props = {k: v for k, v in (props or {}).items() if v is not None}
        rdefs = cls.get_irdl_definition().results
        if len(rdefs) == 1 and isinstance(rdefs[0][1], VariadicDef):
            if not (types and isinstance(types[0], list)):
                types = [list(types)]
        return self.add(
            cls.build(operands=list(operands), result_types=list(types), properties=props, regions=list(regions))
        )

    def one(self, cls, operands, type, props=None) -> SSAValue:
        return self.build(cls, operands, [type], props).results[0]

    # ---- values ---------------------------------------------------------------------
    def constant(self, value: float, t: Attribute) -> SSAValue:
        """A constant of tensor type `t` (all elements `value`)."""
        assert isinstance(t, TensorType)
        e = t.get_element_type()
        n = math.prod(t.get_shape())
        if isinstance(e, IntegerType):
            v: float | int = int(value)
            if e.width.data == 1:
                v = 1 if value else 0
        else:
            v = float(value)
        attr = DenseIntOrFPElementsAttr.from_list(t, [v] * max(n, 1) if n else [])
        return self.one(xe.ConstantOp, [], t, {"value": attr})

    def like(self, x: SSAValue, value: float) -> SSAValue:
        """A scalar constant of x's element type (binary ops broadcast scalars)."""
        return self.constant(value, scalar(elem(x)))

    def full(self, x: SSAValue, value: float) -> SSAValue:
        return self.constant(value, x.type)

    def unary(self, cls, x: SSAValue) -> SSAValue:
        return self.one(cls, [x], x.type)

    def binary(self, cls, a: SSAValue | float, b: SSAValue | float) -> SSAValue:
        if not isinstance(a, SSAValue):
            assert isinstance(b, SSAValue)
            a = self.like(b, a)
        if not isinstance(b, SSAValue):
            b = self.like(a, b)
        t = a.type if len(shape(a)) >= len(shape(b)) else b.type
        return self.one(cls, [a, b], t)

    def add_(self, a, b):
        return self.binary(xe.AddOp, a, b)

    def sub(self, a, b):
        return self.binary(xe.SubtractOp, a, b)

    def mul(self, a, b):
        return self.binary(xe.MultiplyOp, a, b)

    def div(self, a, b):
        return self.binary(xe.DivideOp, a, b)

    def compare(self, direction: str, a, b, compare_type: str | None = None) -> SSAValue:
        if not isinstance(b, SSAValue):
            b = self.like(a, b)
        if not isinstance(a, SSAValue):
            a = self.like(b, a)
        t = a.type if len(shape(a)) >= len(shape(b)) else b.type
        props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection(direction))}
        if compare_type is not None:
            props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType(compare_type))
        return self.one(xe.CompareOp, [a, b], TensorType(i1, list(shape(t))), props)

    def select(self, pred: SSAValue, a, b) -> SSAValue:
        """a where pred else b; scalar constants are expanded to pred's shape."""
        ref = a if isinstance(a, SSAValue) else b
        assert isinstance(ref, SSAValue)
        full_t = TensorType(elem(ref), list(shape(pred)))
        if not isinstance(a, SSAValue):
            a = self.constant(a, full_t)
        if not isinstance(b, SSAValue):
            b = self.constant(b, full_t)
        return self.one(xe.SelectOp, [pred, a, b], a.type)

    def convert(self, x: SSAValue, e: Attribute) -> SSAValue:
        if elem(x) == e:
            return x
        return self.one(xe.ConvertOp, [x], TensorType(e, list(shape(x))))


# --------------------------------------------------------------------------------------
# Region helpers: captured values
# --------------------------------------------------------------------------------------


def _blocks_within(region: Region) -> set[Block]:
    blocks: set[Block] = set()
    for block in region.blocks:
        blocks.add(block)
        for op in block.ops:
            for inner in op.walk():
                for r in inner.regions:
                    blocks.update(r.blocks)
    return blocks


def captured_values(regions: Sequence[Region]) -> list[SSAValue]:
    """Values used inside the regions but defined outside them, in first-use order."""
    seen: dict[SSAValue, None] = {}
    for region in regions:
        inside = _blocks_within(region)
        for block in region.blocks:
            for top in block.ops:
                for op in top.walk():
                    for v in op.operands:
                        owner_block = v.block if isinstance(v, BlockArgument) else v.op.parent_block()
                        if owner_block not in inside:
                            seen.setdefault(v, None)
    return list(seen)


def replace_uses_within(region: Region, old: SSAValue, new: SSAValue) -> None:
    inside = _blocks_within(region)
    for use in list(old.uses):
        if use.operation.parent_block() in inside:
            use.operation.operands[use.index] = new


def return_op(region: Region) -> Operation:
    term = region.blocks[-1].last_op
    assert term is not None
    return term


# --------------------------------------------------------------------------------------
# Rules as rewrite patterns
# --------------------------------------------------------------------------------------

Rule = Callable[[Operation, Builder], Sequence[SSAValue] | None]
"""A conversion: builds the xla ops of `op` with the builder (before `op`) and returns
the values that replace its results."""


def apply_rule(op: Operation, convert: Rule, rewriter: PatternRewriter) -> None:
    """Replace `op` by what `convert` builds. Errors a rule runs into (a missing
    attribute, a malformed one) are reported at the op, as StablehloConversionError."""
    for i, region in enumerate(op.regions):
        # StableHLO's regions are SizedRegion<1>: the rules read their one block
        if (count := len(region.blocks)) != 1:
            fail(op, f"region #{i} must have exactly one block, got {count}")
    try:
        new_values = list(convert(op, Builder(op, rewriter)) or [])
    except StablehloConversionError:
        raise
    except MalformedAttribute as e:
        fail(op, f"malformed attribute: {e}")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError) as e:
        fail(op, f"cannot convert {op.name}: {type(e).__name__}: {e}")
    if len(new_values) != len(op.results):
        fail(op, f"internal: conversion of {op.name} gave {len(new_values)} values for {len(op.results)} results")
    keep_sharding_attributes(op, new_values)
    rewriter.replace(op, [], new_values)


class OpRule(RewritePattern):
    """The conversion of the ops named `name` (one stablehlo/chlo op) by a rule."""

    def __init__(self, name: str, convert: Rule):
        self.name = name
        self.convert = convert

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name == self.name:
            apply_rule(op, self.convert, rewriter)


class ByTable(RewritePattern):
    """The conversion of a table of ops by one rule taking each op's table entry
    (`name` -> `entry`, e.g. the xla op class): `convert(op, b, entry)`."""

    def __init__(self, table: dict[str, Any], convert: Callable[[Operation, Builder, Any], Sequence[SSAValue]]):
        self.table = table
        self.convert = convert

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        entry = self.table.get(op.name)
        if entry is not None:
            apply_rule(op, lambda op, b: self.convert(op, b, entry), rewriter)


def _same_operands(op: Operation, b: Builder, cls: type[Operation]) -> Sequence[SSAValue]:
    return b.build(cls, op.operands, result_types(op)).results


def one_to_one(table: dict[str, type[Operation]]) -> ByTable:
    """Ops that are an xla op of the same operands and results, by a table
    (`stablehlo.<name>` -> the xla op class)."""
    return ByTable({f"stablehlo.{name}": cls for name, cls in table.items()}, _same_operands)


class Patterns(list[RewritePattern]):
    """A family module's PATTERNS: `@PATTERNS.rule("stablehlo.x")` adds the decorated
    rule as the pattern of each op it names; `.add(name, rule)` adds one built rule."""

    def rule(self, *names: str) -> Callable[[Rule], Rule]:
        def register(fn: Rule) -> Rule:
            for n in names:
                self.add(n, fn)
            return fn

        return register

    def add(self, name: str, convert: Rule) -> None:
        self.append(OpRule(name, convert))


def props_rule(cls, **names: tuple[str, Callable]) -> Rule:
    """A one-operand-group op whose xla properties come from stablehlo ones."""

    def convert(op, b):
        props = {}
        for xla_name, (shlo_name, conv) in names.items():
            value = prop(op, shlo_name)
            if value is not None:
                props[xla_name] = conv(value)
        return b.build(cls, op.operands, result_types(op), props).results

    return convert


ARR = lambda a: i64_array(ints(a))
INT = lambda a: i64_attr(int_of(a))


def take_regions(op: Operation) -> list[Region]:
    return [op.detach_region(r) for r in list(op.regions)]


def check_isolated(op: Operation) -> None:
    captured = captured_values(op.regions)
    if captured:
        fail(
            op,
            f"its region uses {len(captured)} value(s) defined outside it; xla computations see only their parameters",
        )


def channel_id(op) -> IntegerAttr | None:
    handle = prop(op, "channel_handle")
    if handle is None:
        return None
    value = handle.fields.data.get("handle")  # type: ignore[attr-defined]
    return i64_attr(int_of(value)) if value is not None else None
