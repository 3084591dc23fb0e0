"""`xla` -> StableHLO text: any xla program printed as StableHLO that JAX's MLIR parser
accepts and XLA compiles (`xla-opt -t stablehlo`, or `to_stablehlo_text(module)`).

Ops print in MLIR's generic form (`%v3 = "stablehlo.add"(%v1, %v2) : (...) -> ...`) with
StableHLO's attributes (`#stablehlo.dot<...>`, `#stablehlo.gather<...>`,
`#stablehlo.scatter<...>`, `#stablehlo.conv<...>`, `#stablehlo<comparison_direction LT>`,
`array<i64: ...>`, `dense<...>`). Where the two dialects differ, the exporter spells the
xla op out in StableHLO:

* binary element-wise ops with XLA broadcasting (scalars, `broadcast_dimensions`,
  degenerate dimensions) get explicit `stablehlo.broadcast_in_dim` operands;
* `xla.broadcast` is a broadcast_in_dim, `xla.collapse` a reshape, and a reshape with
  `dimensions` (a collapse order) a transpose then a reshape; `xla.dot` a dot_general;
* `xla.conditional` becomes `stablehlo.if` (PRED index) or `stablehlo.case` (S32
  index): StableHLO's branches take no arguments, so each branch's parameter is
  replaced by its branch operand; `xla.call` becomes `func.call`;
* `xla.rng_uniform`/`xla.rng_normal` become `stablehlo.rng` with a constant shape.

Ops that have no meaning in a single-device StableHLO program (infeed, outfeed, send,
recv, the replica collectives, set_dimension_size) raise `StableHLOExportError` naming
the op.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.target import Target

from xla_opt.dialects.xla import collectives as coll
from xla_opt.dialects.xla import control_flow as cf
from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla import gather_scatter as gs
from xla_opt.dialects.xla import linear_algebra as la
from xla_opt.dialects.xla import shape_ops as sh
from xla_opt.dialects.xla.base import TokenType, elem_of, int_matrix, ints, shape_of
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


def _types(values: Sequence[SSAValue]) -> list[str]:
    return [type_text(v.type) for v in values]


def i64_array(values: Sequence[int]) -> str:
    values = [int(v) for v in values]
    return "array<i64: " + ", ".join(map(str, values)) + ">" if values else "array<i64>"


def i64_attr(value: int) -> str:
    return f"{int(value)} : i64"


def bool_text(value: bool) -> str:
    return "true" if value else "false"


def _int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def padding_attr(rows: Sequence[Sequence[int]]) -> str:
    body = "[" + ", ".join(_int_list(r) for r in rows) + "]"
    return f"dense<{body}> : tensor<{len(rows)}x2xi64>"


def enum_attr(kind: str, value: str) -> str:
    return f"#stablehlo<{kind} {value}>"


def _float_bits_text(value: float, t: Attribute) -> str:
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
class _Region:
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

UNSUPPORTED = {
    coll.InfeedOp.name: "reads the host's infeed queue",
    coll.OutfeedOp.name: "writes the host's outfeed queue",
    coll.SendOp.name: "communicates over a channel",
    coll.RecvOp.name: "communicates over a channel",
    coll.AllReduceOp.name: "is a replica collective",
    coll.AllGatherOp.name: "is a replica collective",
    coll.ReduceScatterOp.name: "is a replica collective",
    coll.AllToAllOp.name: "is a replica collective",
    coll.CollectivePermuteOp.name: "is a replica collective",
    sh.SetDimensionSizeOp.name: "gives a static shape a dynamic size",
}


class _Emitter:
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
        regions: Sequence[_Region] = (),
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

    def region(self, region: _Region) -> None:
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
            _types(op.operands),
            _types(op.results),
            props,
        )
        self.bind(op, results)

    def bind(self, op: Operation, names: Sequence[str]) -> None:
        for r, n in zip(op.results, names, strict=True):
            self.names[r] = n

    def regions_of(self, *regions: Region) -> list[_Region]:
        return [_Region(r.blocks[0]) for r in regions]

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
        dims = ints(op.broadcast_dimensions) if op.broadcast_dimensions is not None else None
        lhs = self.broadcast_to(op.lhs, result, dims)
        rhs = self.broadcast_to(op.rhs, result, dims)
        operand_type = type_text(TensorType(elem_of(op.lhs.type), list(shape_of(result))))
        props = None
        if isinstance(op, ew.CompareOp):
            ct = op.compare_type.data if op.compare_type is not None else None
            ct = ct or ew.default_compare_type(elem_of(op.lhs.type))
            props = {
                "comparison_direction": enum_attr(
                    "comparison_direction", op.comparison_direction.data.value
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

HANDLERS: dict[type[Operation], Callable[[_Emitter, Operation], None]] = {}


def handles(*ops: type[Operation]):
    def register(fn):
        for o in ops:
            HANDLERS[o] = fn
        return fn

    return register


@handles(ReturnOp)
def _return(e: _Emitter, op: ReturnOp) -> None:
    e.op("stablehlo.return", [e.name(v) for v in op.operands], _types(op.operands), [])


@handles(func.ReturnOp)
def _func_return(e: _Emitter, op: func.ReturnOp) -> None:
    e.op("func.return", [e.name(v) for v in op.operands], _types(op.operands), [])


@handles(func.CallOp, cf.CallOp)
def _call(e: _Emitter, op: Operation) -> None:
    callee = op.callee.root_reference.data  # type: ignore[attr-defined]
    e.simple(op, "func.call", {"callee": "@" + e.renames.get(callee, callee)})


# ---- element-wise ---------------------------------------------------------------------


@handles(ew.ConstantOp)
def _constant(e: _Emitter, op: ew.ConstantOp) -> None:
    from xla_opt.interpreter.elementwise import constant_value

    e.bind(op, [e.constant(constant_value(op), op.output.type)])


@handles(ew.IotaOp)
def _iota(e: _Emitter, op: ew.IotaOp) -> None:
    e.simple(op, "stablehlo.iota", {"iota_dimension": i64_attr(op.iota_dimension.value.data)})


@handles(ew.ReducePrecisionOp)
def _reduce_precision(e: _Emitter, op: ew.ReducePrecisionOp) -> None:
    e.simple(
        op,
        "stablehlo.reduce_precision",
        {
            "exponent_bits": f"{op.exponent_bits.value.data} : i32",
            "mantissa_bits": f"{op.mantissa_bits.value.data} : i32",
        },
    )


# ---- shapes ---------------------------------------------------------------------------


# xla ops that are StableHLO ops of another name carrying the same i64-array
# properties (none for most).
_SAME_PROPERTIES: dict[type[Operation], tuple[str, tuple[str, ...]]] = {
    ew.SelectOp: ("stablehlo.select", ()),
    ew.ClampOp: ("stablehlo.clamp", ()),
    ew.ConvertOp: ("stablehlo.convert", ()),
    ew.BitcastConvertOp: ("stablehlo.bitcast_convert", ()),
    sh.TransposeOp: ("stablehlo.transpose", ('permutation',)),
    sh.ReverseOp: ("stablehlo.reverse", ('dimensions',)),
    sh.SliceOp: ("stablehlo.slice", ('start_indices', 'limit_indices', 'strides')),
    sh.DynamicSliceOp: ("stablehlo.dynamic_slice", ('slice_sizes',)),
    sh.DynamicUpdateSliceOp: ("stablehlo.dynamic_update_slice", ()),
    sh.PadOp: ("stablehlo.pad", ('edge_padding_low', 'edge_padding_high', 'interior_padding')),
    sh.TupleOp: ("stablehlo.tuple", ()),
    sh.OptimizationBarrierOp: ("stablehlo.optimization_barrier", ()),
    coll.AfterAllOp: ("stablehlo.after_all", ()),
    coll.ReplicaIdOp: ("stablehlo.replica_id", ()),
}


@handles(*_SAME_PROPERTIES)
def _same_properties(e: _Emitter, op: Operation) -> None:
    name, properties = _SAME_PROPERTIES[type(op)]
    e.simple(op, name, {p: i64_array(ints(op.properties[p])) for p in properties})


@handles(sh.BroadcastOp)
def _broadcast(e: _Emitter, op: sh.BroadcastOp) -> None:
    n, rank = len(ints(op.broadcast_sizes)), len(shape_of(op.operand.type))
    e.simple(
        op, "stablehlo.broadcast_in_dim", {"broadcast_dimensions": i64_array(range(n, n + rank))}
    )


@handles(sh.BroadcastInDimOp)
def _broadcast_in_dim(e: _Emitter, op: sh.BroadcastInDimOp) -> None:
    e.simple(
        op,
        "stablehlo.broadcast_in_dim",
        {"broadcast_dimensions": i64_array(ints(op.broadcast_dimensions))},
    )


@handles(sh.ReshapeOp, sh.CollapseOp)
def _reshape(e: _Emitter, op: Operation) -> None:
    operand = op.operand  # type: ignore[attr-defined]
    source = e.name(operand)
    dims = ints(op.dimensions) if isinstance(op, sh.ReshapeOp) and op.dimensions else ()
    if dims and list(dims) != list(range(len(dims))):
        shape = shape_of(operand.type)
        transposed = TensorType(elem_of(operand.type), [shape[d] for d in dims])
        source = e.op(
            "stablehlo.transpose",
            [source],
            [type_text(operand.type)],
            [type_text(transposed)],
            {"permutation": i64_array(dims)},
        )[0]
        in_type = type_text(transposed)
        if transposed == op.results[0].type:
            return e.bind(op, [source])
    else:
        in_type = type_text(operand.type)
    e.bind(op, e.op("stablehlo.reshape", [source], [in_type], _types(op.results)))


@handles(sh.ConcatenateOp)
def _concatenate(e: _Emitter, op: sh.ConcatenateOp) -> None:
    e.simple(op, "stablehlo.concatenate", {"dimension": i64_attr(op.dimension.value.data)})


@handles(sh.GetDimensionSizeOp)
def _get_dimension_size(e: _Emitter, op: sh.GetDimensionSizeOp) -> None:
    e.simple(op, "stablehlo.get_dimension_size", {"dimension": i64_attr(op.dimension.value.data)})


@handles(sh.GetTupleElementOp)
def _get_tuple_element(e: _Emitter, op: sh.GetTupleElementOp) -> None:
    e.simple(op, "stablehlo.get_tuple_element", {"index": f"{op.index.value.data} : i32"})


# ---- linear algebra ---------------------------------------------------------------------


def _dot_numbers(lb: Sequence[int], rb: Sequence[int], lc: Sequence[int], rc: Sequence[int]) -> str:
    fields = []
    if lb or rb:
        fields += [f"lhs_batching_dimensions = {_int_list(lb)}", f"rhs_batching_dimensions = {_int_list(rb)}"]
    fields += [
        f"lhs_contracting_dimensions = {_int_list(lc)}",
        f"rhs_contracting_dimensions = {_int_list(rc)}",
    ]
    return "#stablehlo.dot<" + ", ".join(fields) + ">"


@handles(la.DotOp)
def _dot(e: _Emitter, op: la.DotOp) -> None:
    lhs_rank = len(shape_of(op.lhs.type))
    e.simple(
        op, "stablehlo.dot_general", {"dot_dimension_numbers": _dot_numbers([], [], [lhs_rank - 1], [0])}
    )


@handles(la.DotGeneralOp)
def _dot_general(e: _Emitter, op: la.DotGeneralOp) -> None:
    numbers = _dot_numbers(
        ints(op.lhs_batching_dimensions),
        ints(op.rhs_batching_dimensions),
        ints(op.lhs_contracting_dimensions),
        ints(op.rhs_contracting_dimensions),
    )
    e.simple(op, "stablehlo.dot_general", {"dot_dimension_numbers": numbers})


def _layout(rank: int, first: tuple[str, int], second: tuple[str, int], spatial: Sequence[int]) -> str:
    labels = ["?"] * rank
    labels[first[1]] = first[0]
    labels[second[1]] = second[0]
    for i, d in enumerate(spatial):
        labels[d] = str(i)
    return "[" + ", ".join(labels) + "]"


@handles(la.ConvolutionOp)
def _convolution(e: _Emitter, op: la.ConvolutionOp) -> None:
    dn = op.dimension_numbers()
    rank = len(shape_of(op.lhs.type))
    numbers = (
        "#stablehlo.conv<"
        + _layout(rank, ("b", dn.input_batch), ("f", dn.input_feature), dn.input_spatial)
        + "x"
        + _layout(rank, ("i", dn.kernel_input_feature), ("o", dn.kernel_output_feature), dn.kernel_spatial)
        + "->"
        + _layout(rank, ("b", dn.output_batch), ("f", dn.output_feature), dn.output_spatial)
        + ">"
    )
    n = len(dn.input_spatial)
    props = {
        "dimension_numbers": numbers,
        "feature_group_count": i64_attr(op.feature_group_count.value.data if op.feature_group_count else 1),
        "batch_group_count": i64_attr(op.batch_group_count.value.data if op.batch_group_count else 1),
    }
    for key in ("window_strides", "lhs_dilation", "rhs_dilation"):
        attr = getattr(op, key)
        if attr is not None and n:
            props[key] = i64_array(ints(attr))
    if op.padding is not None and n:
        props["padding"] = padding_attr(int_matrix(op.padding))
    e.simple(op, "stablehlo.convolution", props)


@handles(la.FftOp)
def _fft(e: _Emitter, op: la.FftOp) -> None:
    e.simple(
        op,
        "stablehlo.fft",
        {"fft_type": enum_attr("fft_type", op.fft_type.data.value), "fft_length": i64_array(ints(op.fft_length))},
    )


@handles(la.CholeskyOp)
def _cholesky(e: _Emitter, op: la.CholeskyOp) -> None:
    lower = bool(op.lower.value.data) if op.lower is not None else False
    e.simple(op, "stablehlo.cholesky", {"lower": bool_text(lower)})


@handles(la.TriangularSolveOp)
def _triangular_solve(e: _Emitter, op: la.TriangularSolveOp) -> None:
    e.simple(
        op,
        "stablehlo.triangular_solve",
        {
            "left_side": bool_text(bool(op.left_side.value.data)),
            "lower": bool_text(bool(op.lower.value.data)),
            "unit_diagonal": bool_text(bool(op.unit_diagonal.value.data)),
            "transpose_a": enum_attr("transpose", op.transpose_a.data.value),
        },
    )


@handles(la.BatchNormTrainingOp, la.BatchNormInferenceOp, la.BatchNormGradOp)
def _batch_norm(e: _Emitter, op: la.BatchNormOp) -> None:
    eps = op.epsilon
    e.simple(
        op,
        "stablehlo." + op.name[len("xla.") :],
        {
            "epsilon": _float_bits_text(eps.value.data, Float32Type()),
            "feature_index": i64_attr(op.feature_index.value.data),
        },
    )


# ---- computations and control flow ---------------------------------------------------


@handles(cf.ReduceOp)
def _reduce(e: _Emitter, op: cf.ReduceOp) -> None:
    results = e.op(
        "stablehlo.reduce",
        [e.name(v) for v in op.operands],
        _types(op.operands),
        _types(op.results),
        {"dimensions": i64_array(sorted(ints(op.dimensions)))},
        e.regions_of(op.body),
    )
    e.bind(op, results)


def _optional_array(props: dict[str, str], key: str, attr) -> None:
    if attr is not None:
        props[key] = i64_array(ints(attr))


@handles(cf.ReduceWindowOp)
def _reduce_window(e: _Emitter, op: cf.ReduceWindowOp) -> None:
    props = {"window_dimensions": i64_array(ints(op.window_dimensions))}
    rank = len(ints(op.window_dimensions))
    if rank:
        _optional_array(props, "window_strides", op.window_strides)
        _optional_array(props, "base_dilations", op.base_dilations)
        _optional_array(props, "window_dilations", op.window_dilations)
        if op.padding is not None:
            props["padding"] = padding_attr(int_matrix(op.padding))
    results = e.op(
        "stablehlo.reduce_window",
        [e.name(v) for v in op.operands],
        _types(op.operands),
        _types(op.results),
        props,
        e.regions_of(op.body),
    )
    e.bind(op, results)


@handles(cf.SelectAndScatterOp)
def _select_and_scatter(e: _Emitter, op: cf.SelectAndScatterOp) -> None:
    props = {"window_dimensions": i64_array(ints(op.window_dimensions))}
    if ints(op.window_dimensions):
        _optional_array(props, "window_strides", op.window_strides)
        if op.padding is not None:
            props["padding"] = padding_attr(int_matrix(op.padding))
    results = e.op(
        "stablehlo.select_and_scatter",
        [e.name(v) for v in op.operands],
        _types(op.operands),
        _types(op.results),
        props,
        e.regions_of(op.select, op.scatter),
    )
    e.bind(op, results)


@handles(cf.SortOp)
def _sort(e: _Emitter, op: cf.SortOp) -> None:
    rank = len(shape_of(op.inputs[0].type))
    dim = op.dimension.value.data if op.dimension is not None else rank - 1
    if dim < 0:
        dim += rank
    stable = bool(op.is_stable.value.data) if op.is_stable is not None else False
    results = e.op(
        "stablehlo.sort",
        [e.name(v) for v in op.inputs],
        _types(op.inputs),
        _types(op.results),
        {"dimension": i64_attr(dim), "is_stable": bool_text(stable)},
        e.regions_of(op.comparator),
    )
    e.bind(op, results)


@handles(cf.MapOp)
def _map(e: _Emitter, op: cf.MapOp) -> None:
    results = e.op(
        "stablehlo.map",
        [e.name(v) for v in op.inputs],
        _types(op.inputs),
        _types(op.results),
        {"dimensions": i64_array(ints(op.dimensions))},
        e.regions_of(op.computation),
    )
    e.bind(op, results)


@handles(cf.WhileOp)
def _while(e: _Emitter, op: cf.WhileOp) -> None:
    # StableHLO's while carries no tuples: a tuple state travels as its leaves.
    names, types = e.flatten_values(op.operand)
    flatten = has_tuples([v.type for v in op.operand])
    results = e.op(
        "stablehlo.while",
        names,
        types,
        types,
        None,
        [_Region(op.cond.blocks[0], flatten=flatten), _Region(op.body.blocks[0], flatten=flatten)],
    )
    e.bind_packed(op, results)


@handles(cf.ConditionalOp)
def _conditional(e: _Emitter, op: cf.ConditionalOp) -> None:
    # StableHLO's branches take no arguments: each branch parameter is replaced by its
    # branch operand (xla's branches are isolated, so only the branch's own block uses it).
    # Tuple results travel as their leaves.
    flatten = has_tuples([r.type for r in op.results])
    regions = []
    for region, arg in zip(op.branches, op.branch_operands, strict=True):
        block = region.blocks[0]
        regions.append(_Region(block, {a: e.name(arg) for a in block.args}, flatten=flatten))
    pred = elem_of(op.index.type)
    name = "stablehlo.if" if isinstance(pred, IntegerType) and pred.width.data == 1 else "stablehlo.case"
    out_types = [type_text(leaf) for r in op.results for leaf in flat_types(r.type)]
    results = e.op(name, [e.name(op.index)], [type_text(op.index.type)], out_types, None, regions)
    e.bind_packed(op, results)


# ---- gather, scatter, rng, custom call -------------------------------------------------


@handles(gs.GatherOp)
def _gather(e: _Emitter, op: gs.GatherOp) -> None:
    numbers = (
        "#stablehlo.gather<"
        + ", ".join(
            [
                f"offset_dims = {_int_list(ints(op.offset_dims))}",
                f"collapsed_slice_dims = {_int_list(ints(op.collapsed_slice_dims))}",
                f"start_index_map = {_int_list(ints(op.start_index_map))}",
                f"index_vector_dim = {op.index_vector_dim.value.data}",
            ]
        )
        + ">"
    )
    sorted_ = bool(op.indices_are_sorted.value.data) if op.indices_are_sorted is not None else False
    e.simple(
        op,
        "stablehlo.gather",
        {
            "dimension_numbers": numbers,
            "slice_sizes": i64_array(ints(op.slice_sizes)),
            "indices_are_sorted": bool_text(sorted_),
        },
    )


@handles(gs.ScatterOp)
def _scatter(e: _Emitter, op: gs.ScatterOp) -> None:
    numbers = (
        "#stablehlo.scatter<"
        + ", ".join(
            [
                f"update_window_dims = {_int_list(ints(op.update_window_dims))}",
                f"inserted_window_dims = {_int_list(ints(op.inserted_window_dims))}",
                f"scatter_dims_to_operand_dims = {_int_list(ints(op.scatter_dims_to_operand_dims))}",
                f"index_vector_dim = {op.index_vector_dim.value.data}",
            ]
        )
        + ">"
    )

    def flag(attr) -> str:
        return bool_text(bool(attr.value.data) if attr is not None else False)

    operands = [*op.inputs, op.scatter_indices, *op.updates]
    results = e.op(
        "stablehlo.scatter",
        [e.name(v) for v in operands],
        _types(operands),
        _types(op.results),
        {
            "scatter_dimension_numbers": numbers,
            "indices_are_sorted": flag(op.indices_are_sorted),
            "unique_indices": flag(op.unique_indices),
        },
        e.regions_of(op.update_computation),
    )
    e.bind(op, results)


@handles(gs.RngUniformOp, gs.RngNormalOp)
def _rng(e: _Emitter, op: Operation) -> None:
    result = op.results[0].type
    shape = shape_of(result)
    shape_type = TensorType(IntegerType(64), [len(shape)])
    shape_value = e.constant(np.array(shape, dtype=np.int64), shape_type)
    a, b = op.operands
    dist = "UNIFORM" if isinstance(op, gs.RngUniformOp) else "NORMAL"
    bounds, bound_type, out_type = [e.name(a), e.name(b)], type_text(a.type), result
    pred = isinstance(elem_of(result), IntegerType) and elem_of(result).width.data == 1
    if pred:  # XLA's RngExpander has no PRED: draw S32 in [a, b) and convert back
        bound_type = type_text(TensorType(IntegerType(32), []))
        bounds = [e.op("stablehlo.convert", [n], [type_text(a.type)], [bound_type])[0] for n in bounds]
        out_type = TensorType(IntegerType(32), list(shape))
    drawn = e.op(
        "stablehlo.rng",
        [*bounds, shape_value],
        [bound_type, bound_type, type_text(shape_type)],
        [type_text(out_type)],
        {"rng_distribution": enum_attr("rng_distribution", dist)},
    )
    if pred:
        drawn = e.op("stablehlo.convert", drawn, [type_text(out_type)], [type_text(result)])
    e.bind(op, drawn)


@handles(gs.RngBitGeneratorOp)
def _rng_bit_generator(e: _Emitter, op: gs.RngBitGeneratorOp) -> None:
    # XLA hands back unsigned bits for a signed output type: draw unsigned, bitcast.
    out = op.output.type
    element = elem_of(out)
    signed = isinstance(element, IntegerType) and element.signedness.data != Signedness.UNSIGNED
    drawn_type = (
        TensorType(IntegerType(element.width.data, Signedness.UNSIGNED), list(shape_of(out)))
        if signed
        else out
    )
    state, bits = e.op(
        "stablehlo.rng_bit_generator",
        [e.name(op.initial_state)],
        [type_text(op.initial_state.type)],
        [type_text(op.output_state.type), type_text(drawn_type)],
        {"rng_algorithm": enum_attr("rng_algorithm", op.rng_algorithm.data.value)},
    )
    if signed:
        bits = e.op("stablehlo.bitcast_convert", [bits], [type_text(drawn_type)], [type_text(out)])[0]
    e.bind(op, [state, bits])


def _string_literal(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@handles(gs.CustomCallOp)
def _custom_call(e: _Emitter, op: gs.CustomCallOp) -> None:
    props = {"call_target_name": _string_literal(op.call_target_name.data)}
    if op.backend_config is not None:
        props["backend_config"] = _string_literal(op.backend_config.data)
    if op.has_side_effect is not None:
        props["has_side_effect"] = bool_text(bool(op.has_side_effect.value.data))
    e.simple(op, "stablehlo.custom_call", props)


# ---- tokens ---------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# Functions and the module
# --------------------------------------------------------------------------------------


def _functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.ops if isinstance(op, func.FuncOp)]


def _reachable(functions: dict[str, func.FuncOp], entry: str) -> list[str]:
    """`entry` and every function it calls, directly or not (in module order)."""
    seen, todo = {entry}, [entry]
    while todo:
        f = functions[todo.pop()]
        for op in f.walk():
            callee = getattr(op, "callee", None)
            if isinstance(op, func.CallOp | cf.CallOp) and callee is not None:
                target = callee.root_reference.data
                if target in functions and target not in seen:
                    seen.add(target)
                    todo.append(target)
    return [n for n in functions if n in seen]


def _emit_function(e: _Emitter, f: func.FuncOp, name: str, public: bool) -> None:
    visibility = "public" if public else "private"
    if not f.body.blocks:  # a declaration
        ins = ", ".join(type_text(t) for t in f.function_type.inputs.data)
        outs = ", ".join(type_text(t) for t in f.function_type.outputs.data)
        e.write(f"func.func private @{name}({ins}) -> ({outs})")
        return
    block = f.body.blocks[0]
    args = []
    for arg in block.args:
        n = e.fresh()
        e.names[arg] = n
        args.append(f"{n}: {type_text(arg.type)}")
    outs = [type_text(t) for t in f.function_type.outputs.data]
    header = f"func.func {visibility} @{name}(" + ", ".join(args) + ")"
    if outs:
        header += " -> (" + ", ".join(outs) + ")"
    e.write(header + " {")
    e.indent += 2
    for op in block.ops:
        e.emit(op)
    e.indent -= 2
    e.write("}")


def to_stablehlo_text(module: ModuleOp, entry: str | None = None, module_name: str | None = None) -> str:
    """The StableHLO text of an xla program (a verified `ModuleOp`).

    Without `entry`, every function is printed under its own name (public). With
    `entry`, only that function (renamed `@main`, as XLA expects of the entry point) and
    the functions it calls are printed. Raises `StableHLOExportError` (with `.op`) for
    anything StableHLO cannot express on a single device."""
    functions = {f.sym_name.data: f for f in _functions(module)}
    for op in module.ops:
        if not isinstance(op, func.FuncOp):
            raise StableHLOExportError(f"'{op.name}' at module level has no StableHLO export", op)
    if entry is not None:
        if entry not in functions:
            raise StableHLOExportError(
                f"no function @{entry} in the program (functions: {', '.join(functions) or 'none'})"
            )
        names = _reachable(functions, entry)
        for n in names:
            if not functions[n].body.blocks:
                what = f"@{n} is" if n == entry else f"@{entry} calls @{n}, which is"
                raise StableHLOExportError(
                    f"{what} only declared (XLA needs every function's body)",
                    functions[n],
                )
        renames = {entry: "main"}
        if "main" in functions and entry != "main" and "main" in names:
            renames["main"] = "main_0"
    else:
        names = list(functions)
        renames = {}
    e = _Emitter()
    e.renames = renames
    for n in names:
        _emit_function(e, functions[n], renames.get(n, n), public=entry is None or n == entry)
    body = "\n".join(e.lines)
    sym = module.sym_name.data if getattr(module, "sym_name", None) is not None else (module_name or "xla_program")
    return f"module @{sym} attributes {MODULE_ATTRIBUTES} {{\n{body}\n}}\n"


# --------------------------------------------------------------------------------------
# `xla-opt -t stablehlo`
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StableHLOTarget(Target):
    """Print the program as StableHLO text (`xla-opt file.mlir -t stablehlo`)."""

    name = "stablehlo"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from xla_opt.diagnostics import Diagnostic, DiagnosticError, op_diagnostic

        try:
            text = to_stablehlo_text(module)
        except StableHLOExportError as err:
            message = str(err)
            if err.op is not None:
                prefix = f"'{err.op.name}' "
                if message.startswith(prefix):  # the diagnostic names the op already
                    message = message[len(prefix) :]
                else:
                    message = f"cannot be exported to StableHLO: {message}"
                diag = op_diagnostic(err.op, message)
            else:
                diag = Diagnostic("xla-opt", 0, 0, f"cannot export to StableHLO: {err}")
            raise DiagnosticError([diag]) from None
        output.write(text)


__all__ = ["StableHLOExportError", "StableHLOTarget", "to_stablehlo_text", "type_text"]
