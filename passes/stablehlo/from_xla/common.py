"""The emitter of the StableHLO export and what its per-family handlers share:
`Emitter` (names, generic-form op printing, broadcasts of XLA-style binary ops), the
`HANDLERS` registry (`@handles(xla.XOp)`), `UNSUPPORTED`, and attribute spellings."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import Float64Type, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.base import TokenType, elem_of, shape_of
from xla_opt.dialects.xla.computation import ReturnOp

MODULE_ATTRIBUTES = "{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}"


class StableHLOExportError(ValueError):
    """An op (or type) that cannot be expressed in a single-device StableHLO program."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


# --------------------------------------------------------------------------------------
# Types and attribute spellings
# --------------------------------------------------------------------------------------


def type_text(t: Attribute) -> str:
    if isinstance(t, TokenType):
        return "!stablehlo.token"
    if isinstance(t, TupleType):
        return "tuple<" + ", ".join(type_text(e) for e in t.types.data) + ">"
    if isinstance(t, TensorType):
        return str(t)
    raise StableHLOExportError(f"type {t} has no StableHLO equivalent")


def types_text(values: Sequence[SSAValue]) -> list[str]:
    return [type_text(v.type) for v in values]


def i64_array(values: Sequence[int]) -> str:
    values = [int(v) for v in values]
    return "array<i64: " + ", ".join(map(str, values)) + ">" if values else "array<i64>"


def i64_attr(value: int) -> str:
    return f"{int(value)} : i64"


def bool_text(value: bool) -> str:
    return "true" if value else "false"


def int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def padding_attr(rows: Sequence[Sequence[int]]) -> str:
    body = "[" + ", ".join(int_list(r) for r in rows) + "]"
    return f"dense<{body}> : tensor<{len(rows)}x2xi64>"


def enum_attr(kind: str, value: str) -> str:
    return f"#stablehlo<{kind} {value}>"


def float_bits_text(value: float, t: Attribute) -> str:
    """A float attribute as its exact hexadecimal bit pattern (`0x3A83126F : f32`)."""
    if isinstance(t, Float64Type):
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return f"0x{bits:016X} : f64"
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return f"0x{bits:08X} : f32"


def _element_text(v) -> str:
    """One element, exactly: booleans, integers, and f16/f32/f64 floats in the shortest
    decimal that reads back to the same value (NaN and infinities as their bits)."""
    if isinstance(v, np.bool_):
        return bool_text(bool(v))
    if isinstance(v, np.integer):
        return str(int(v))
    if not np.isfinite(v):
        return "0x" + v.tobytes()[::-1].hex().upper()  # the big-endian bit pattern
    return np.format_float_scientific(v, unique=True, trim="0")


def _nested(array: np.ndarray) -> str:
    if array.ndim == 0:
        return _element_text(array[()])
    return "[" + ", ".join(_nested(a) for a in array) + "]"


_DECIMAL_KINDS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def dense_text(array: np.ndarray, t: TensorType) -> str:
    """A dense elements attribute of type `t` holding `array` exactly: booleans,
    integers and f16/f32/f64 as (nested) literals, a splat as one literal; bf16 and
    complex numbers as MLIR's little-endian hexadecimal buffer."""
    tt = type_text(t)
    if array.size == 0:
        return f"dense<> : {tt}"
    flat = np.ascontiguousarray(array).reshape(-1)
    splat = bool(np.all(flat.view(np.uint8).reshape(flat.size, -1) == flat[:1].view(np.uint8)))
    if array.dtype.kind in "biu" or array.dtype in _DECIMAL_KINDS:
        return f"dense<{_nested(flat[0] if splat else array)}> : {tt}"
    data = flat[:1] if splat else flat
    return f'dense<"0x{data.tobytes().hex().upper()}"> : {tt}'


# --------------------------------------------------------------------------------------
# The emitter
# --------------------------------------------------------------------------------------


@dataclass
class EmitRegion:
    """A region to print: its block, and block arguments to substitute (no arguments
    are printed when `substitute` maps them to outer values)."""

    block: Block
    substitute: dict[SSAValue, str] | None = None
    flatten: bool = False  # tuple arguments and returned tuples as their leaves


def flat_types(t: Attribute) -> list[Attribute]:
    """The leaves of a (nested) tuple type; a non-tuple type is its own leaf."""
    if isinstance(t, TupleType):
        return [leaf for e in t.types.data for leaf in flat_types(e)]
    return [t]


def has_tuples(types: Sequence[Attribute]) -> bool:
    return any(isinstance(t, TupleType) for t in types)


UNARY_NAMES = {op.name: "stablehlo." + op.name[len("xla.") :] for op in ew.UNARY_OPS}
BINARY_NAMES = {op.name: "stablehlo." + op.name[len("xla.") :] for op in ew.BINARY_OPS}

# xla op name -> why it has no single-device StableHLO equivalent (filled by the
# family modules)
UNSUPPORTED: dict[str, str] = {}


class Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[SSAValue, str] = {}
        self.counter = 0
        self.indent = 2
        self.renames: dict[str, str] = {}

    # ---- names -----------------------------------------------------------------
    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def name(self, v: SSAValue) -> str:
        try:
            return self.names[v]
        except KeyError:
            raise StableHLOExportError(f"value {v} is used outside its scope") from None

    def write(self, text: str) -> None:
        self.lines.append(" " * self.indent + text)

    # ---- one generic op ----------------------------------------------------------
    def op(
        self,
        name: str,
        operands: Sequence[str],
        operand_types: Sequence[str],
        result_types: Sequence[str],
        props: dict[str, str] | None = None,
        regions: Sequence[EmitRegion] = (),
    ) -> list[str]:
        """Print `name` in the generic form; returns the names of its results."""
        base = self.fresh() if result_types else ""
        if len(result_types) == 1:
            results = [base]
            lhs = f"{base} = "
        elif result_types:
            results = [f"{base}#{i}" for i in range(len(result_types))]
            lhs = f"{base}:{len(result_types)} = "
        else:
            results, lhs = [], ""
        text = f'{lhs}"{name}"(' + ", ".join(operands) + ")"
        if props:
            text += " <{" + ", ".join(f"{k} = {v}" for k, v in sorted(props.items())) + "}>"
        if len(result_types) == 1 and not result_types[0].startswith("("):
            out = result_types[0]
        else:
            out = "(" + ", ".join(result_types) + ")"
        signature = "(" + ", ".join(operand_types) + ") -> " + out
        if not regions:
            self.write(f"{text} : {signature}")
            return results
        self.write(text + " ({")
        for i, region in enumerate(regions):
            if i:
                self.write("}, {")
            self.region(region)
        self.write("}) : " + signature)
        return results

    def region(self, region: EmitRegion) -> None:
        block = region.block
        self.indent += 2
        if region.substitute is not None:
            for arg in block.args:
                self.names[arg] = region.substitute[arg]
        elif block.args:
            args, leaves = [], []
            for arg in block.args:
                arg_leaves = []
                for t in flat_types(arg.type) if region.flatten else [arg.type]:
                    n = self.fresh()
                    arg_leaves.append(n)
                    args.append(f"{n}: {type_text(t)}")
                leaves.append(arg_leaves)
            self.indent -= 2
            self.write("^bb0(" + ", ".join(args) + "):")
            self.indent += 2
            for arg, arg_leaves in zip(block.args, leaves, strict=True):
                self.names[arg] = self.pack(iter(arg_leaves), arg.type)
        for op in block.ops:
            if region.flatten and isinstance(op, ReturnOp):
                names, types = self.flatten_values(op.operands)
                self.op("stablehlo.return", names, types, [])
            else:
                self.emit(op)
        self.indent -= 2

    # ---- tuples as their leaves (StableHLO's while/if/case take no tuples) ----------
    def leaves(self, name: str, t: Attribute) -> list[str]:
        if not isinstance(t, TupleType):
            return [name]
        out = []
        for i, et in enumerate(t.types.data):
            element = self.op(
                "stablehlo.get_tuple_element", [name], [type_text(t)], [type_text(et)],
                {"index": f"{i} : i32"},
            )[0]
            out += self.leaves(element, et)
        return out

    def flatten_values(self, values: Sequence[SSAValue]) -> tuple[list[str], list[str]]:
        names = [n for v in values for n in self.leaves(self.name(v), v.type)]
        types = [type_text(leaf) for v in values for leaf in flat_types(v.type)]
        return names, types

    def pack(self, names, t: Attribute) -> str:
        """The value of type `t` built from the leaf names the iterator yields."""
        if not isinstance(t, TupleType):
            return next(names)
        elements = [self.pack(names, et) for et in t.types.data]
        return self.op(
            "stablehlo.tuple", elements, [type_text(et) for et in t.types.data], [type_text(t)]
        )[0]

    def bind_packed(self, op: Operation, leaves: Sequence[str]) -> None:
        it = iter(leaves)
        self.bind(op, [self.pack(it, r.type) for r in op.results])

    def constant(self, array: np.ndarray, t: TensorType) -> str:
        return self.op(
            "stablehlo.constant", [], [], [type_text(t)], {"value": dense_text(array, t)}
        )[0]

    # ---- helpers -------------------------------------------------------------------
    def broadcast_to(self, v: SSAValue, result: TensorType, dims: Sequence[int] | None) -> str:
        """`v` broadcast to `result`'s shape by XLA's element-wise rules."""
        s, r = shape_of(v.type), shape_of(result)
        if s == r:
            return self.name(v)
        if dims is None or len(s) == len(r):
            dims = [] if len(s) == 0 else list(range(len(s)))
        target = TensorType(elem_of(v.type), list(r))
        return self.op(
            "stablehlo.broadcast_in_dim",
            [self.name(v)],
            [type_text(v.type)],
            [type_text(target)],
            {"broadcast_dimensions": i64_array(dims)},
        )[0]

    def simple(self, op: Operation, name: str, props: dict[str, str] | None = None) -> None:
        results = self.op(
            name,
            [self.name(v) for v in op.operands],
            types_text(op.operands),
            types_text(op.results),
            props,
        )
        self.bind(op, results)

    def bind(self, op: Operation, names: Sequence[str]) -> None:
        for r, n in zip(op.results, names, strict=True):
            self.names[r] = n

    def regions_of(self, *regions: Region) -> list[EmitRegion]:
        return [EmitRegion(r.blocks[0]) for r in regions]

    # ---- dispatch ------------------------------------------------------------------
    def emit(self, op: Operation) -> None:
        name = op.name
        if name in UNSUPPORTED:
            raise StableHLOExportError(
                f"'{name}' has no StableHLO equivalent in a single-device program (it "
                f"{UNSUPPORTED[name]})",
                op,
            )
        if name in UNARY_NAMES:
            return self.simple(op, UNARY_NAMES[name])
        if isinstance(op, ew.BinaryElementwiseOp):
            return self.binary(op)
        handler = HANDLERS.get(type(op))
        if handler is None:
            raise StableHLOExportError(f"'{name}' has no StableHLO export", op)
        handler(self, op)

    def binary(self, op: ew.BinaryElementwiseOp) -> None:
        result = op.result.type
        dims = op.get_broadcast_dimensions()
        lhs = self.broadcast_to(op.lhs, result, dims)
        rhs = self.broadcast_to(op.rhs, result, dims)
        operand_type = type_text(TensorType(elem_of(op.lhs.type), list(shape_of(result))))
        props = None
        if isinstance(op, ew.CompareOp):
            ct = op.compare_type.data if op.compare_type is not None else None
            ct = ct or ew.default_compare_type(elem_of(op.lhs.type))
            props = {
                "comparison_direction": enum_attr(
                    "comparison_direction", op.get_comparison_direction()
                ),
                "compare_type": enum_attr("comparison_type", ct.value),
            }
            name = "stablehlo.compare"
        else:
            name = BINARY_NAMES[op.name]
        results = self.op(name, [lhs, rhs], [operand_type] * 2, [type_text(result)], props)
        self.bind(op, results)


# --------------------------------------------------------------------------------------
# Per-op handlers
# --------------------------------------------------------------------------------------

HANDLERS: dict[type[Operation], Callable[[Emitter, Operation], None]] = {}


def handles(*ops: type[Operation]):
    def register(fn):
        for o in ops:
            HANDLERS[o] = fn
        return fn

    return register


# xla ops that are StableHLO ops of another name carrying the same i64-array
# properties (none for most): op class -> (StableHLO name, properties); filled by the
# family modules with `same_properties`.
SAME_PROPERTIES: dict[type[Operation], tuple[str, tuple[str, ...]]] = {}


def _same_properties(e: Emitter, op: Operation) -> None:
    name, properties = SAME_PROPERTIES[type(op)]
    e.simple(op, name, {p: i64_array(getattr(op, f"get_{p}")()) for p in properties})


def same_properties(table: dict[type[Operation], tuple[str, tuple[str, ...]]]) -> None:
    SAME_PROPERTIES.update(table)
    for cls in table:
        HANDLERS[cls] = _same_properties
