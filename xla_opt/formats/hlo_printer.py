"""HLO text out: an xla program printed as an HLO module that XLA's parser
(`xla/hlo/parser/hlo_parser.cc`) accepts and that `hlo_text.py` reads back:
`xla-opt prog.mlir -t hlo`, or

    from xla_opt.formats.hlo_printer import to_hlo_text
    text = to_hlo_text(module, entry="main")

The entry function (`entry`, else `@main`, else the only public function) is the ENTRY
computation, the functions it calls and every op's regions are computations before it
(each defined before its first use, as XLA's parser wants). The text is in the form
`lowered.as_text(dialect="hlo")` prints: names without `%`, every shape with its
(row-major) layout. Where HLO says a thing differently from the dialect:

* implicit broadcasting (scalars, `broadcast_dimensions`) is made explicit
  (`xla-legalize-broadcast`), as HLO's element-wise ops take operands of one shape;
* several results are a tuple and `get-tuple-element`s (a function's root, reduce,
  sort, while, conditional, custom calls...); a while's state is one tuple, which its
  condition and body take apart; a function with several results returns a tuple;
* `xla.dot` is a `dot` contracting lhs's last with rhs's first dimension,
  `xla.broadcast` a `broadcast`, `xla.collapse` a `reshape`, a reshape with
  `dimensions` a transpose and a reshape;
* `xla.send`/`xla.recv` are HLO's send/send-done and recv/recv-done pairs;
* an all_to_all whose split and concat dimensions differ is XlaBuilder's: reshapes and
  transposes around HLO's array all-to-all of one dimension.

What HLO cannot say (a scalar `i32` of arith, not a tensor; an op of another
dialect) is a located error naming it (`HloExportError`, a `ProgramError`)."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from typing import IO, Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.target import Target

from xla_opt.diagnostics import DiagnosticError, ProgramError, op_diagnostic
from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import TokenType, element_type_name

__all__ = ["HloExportError", "HloTarget", "to_hlo_text"]


class HloExportError(DiagnosticError, ProgramError):
    """An op with no HLO form, at its location."""

    def __init__(self, op: Operation, message: str):
        DiagnosticError.__init__(self, [op_diagnostic(op, message, "<program>")])


# --------------------------------------------------------------------------------------
# Shapes and literals
# --------------------------------------------------------------------------------------


class _NoShape(ValueError):
    """A type with no HLO shape."""


def hlo_shape(t: Attribute) -> str:
    """`f32[2,3]{1,0}`, `(s32[], f32[4]{0})`, `token[]`."""
    if isinstance(t, TokenType):
        return "token[]"
    if isinstance(t, TupleType):
        return "(" + ", ".join(hlo_shape(e) for e in t.types.data) + ")"
    if isinstance(t, TensorType):
        dims = list(t.get_shape())
        element = element_type_name(t.get_element_type()).lower()
        layout = "{" + ",".join(str(d) for d in reversed(range(len(dims)))) + "}" if dims else ""
        return f"{element}[{','.join(map(str, dims))}]{layout}"
    raise _NoShape(f"type {t} has no HLO shape (HLO's values are arrays, tuples and tokens)")


def _number(value: float) -> str:
    """A float XLA reads back exactly: Python's shortest repr of the double (every
    narrower float is exactly a double), `nan`, `inf`, `-inf`."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(float(value))
    return text.removesuffix(".0")


def hlo_literal(attr: DenseIntOrFPElementsAttr) -> str:
    """A dense attribute as XLA's literal: nested braces in row-major order, `(re, im)`
    for complex numbers, `true`/`false` for pred."""
    from xla_opt.interpreter.dtypes import numpy_dtype

    t = attr.get_type()
    shape = list(t.get_shape())
    element = t.get_element_type()
    values = list(attr.get_values())
    size = math.prod(shape)
    if len(values) == 1 and size != 1:  # a splat
        values = values * size
    is_complex = isinstance(element, ComplexType)
    dtype = numpy_dtype(element)

    def one(v: Any) -> str:
        if is_complex:
            re_, im = v if isinstance(v, tuple) else (v.real, v.imag)
            return f"({_number(re_)}, {_number(im)})"
        if dtype == np.bool_:
            return "true" if v else "false"
        if dtype.kind in "iu" or isinstance(v, int):
            return str(int(v))
        return _number(float(v))

    atoms = [one(v) for v in values]
    if not shape:
        return atoms[0]

    def nest(dim: int, offset: int) -> str:
        if dim == len(shape) - 1:
            return "{" + ", ".join(atoms[offset : offset + shape[dim]]) + "}"
        stride = math.prod(shape[dim + 1 :])
        return "{ " + ", ".join(nest(dim + 1, offset + i * stride) for i in range(shape[dim])) + " }"

    return nest(0, 0)


def _ints(values: Sequence[int]) -> str:
    return "{" + ",".join(str(int(v)) for v in values) + "}"


def _prop_ints(op: Operation, name: str, default: Sequence[int] = ()) -> list[int]:
    attr = op.properties.get(name)
    if attr is None:
        return list(default)
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    raise ValueError(f"{name}: not an integer list")


def _prop_int(op: Operation, name: str, default: int | None = None) -> int | None:
    attr = op.properties.get(name)
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else default  # type: ignore[union-attr]


def _prop_bool(op: Operation, name: str) -> bool:
    attr = op.properties.get(name)
    return bool(attr.value.data) if isinstance(attr, IntegerAttr) else False


def _prop_matrix(op: Operation, name: str) -> list[list[int]]:
    attr = op.properties.get(name)
    if attr is None:
        return []
    shape = list(attr.get_shape())  # type: ignore[attr-defined]
    values = [int(v) for v in attr.get_values()]  # type: ignore[attr-defined]
    if len(shape) != 2:
        return []
    if len(values) == 1 and shape[0] * shape[1] != 1:
        values = values * (shape[0] * shape[1])
    return [values[i * shape[1] : (i + 1) * shape[1]] for i in range(shape[0])]


def _enum(op: Operation, name: str) -> str | None:
    attr = op.properties.get(name)
    return None if attr is None else str(attr.data.value)  # type: ignore[attr-defined]


def _matrix_text(rows: list[list[int]]) -> str:
    return "{" + ",".join(_ints(r) for r in rows) + "}"


def _window(sizes: Sequence[int], strides=None, padding=None, lhs_dilation=None, rhs_dilation=None) -> str:
    n = len(sizes)
    if n == 0:
        return "{}"
    parts = ["size=" + "x".join(map(str, sizes))]
    if strides and any(s != 1 for s in strides):
        parts.append("stride=" + "x".join(map(str, strides)))
    if padding and any(p != [0, 0] for p in padding):
        parts.append("pad=" + "x".join(f"{lo}_{hi}" for lo, hi in padding))
    if lhs_dilation and any(d != 1 for d in lhs_dilation):
        parts.append("lhs_dilate=" + "x".join(map(str, lhs_dilation)))
    if rhs_dilation and any(d != 1 for d in rhs_dilation):
        parts.append("rhs_dilate=" + "x".join(map(str, rhs_dilation)))
    return "{" + " ".join(parts) + "}"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# --------------------------------------------------------------------------------------
# The printer
# --------------------------------------------------------------------------------------

_UNARY = {
    xla.AbsOp: "abs", xla.CeilOp: "ceil", xla.CosineOp: "cosine", xla.SineOp: "sine", xla.TanOp: "tan",
    xla.ExponentialOp: "exponential", xla.ExponentialMinusOneOp: "exponential-minus-one",
    xla.FloorOp: "floor", xla.ImagOp: "imag", xla.RealOp: "real", xla.IsFiniteOp: "is-finite",
    xla.LogOp: "log", xla.LogPlusOneOp: "log-plus-one", xla.NotOp: "not", xla.LogisticOp: "logistic",
    xla.PopcntOp: "popcnt", xla.CountLeadingZerosOp: "count-leading-zeros", xla.NegateOp: "negate",
    xla.RsqrtOp: "rsqrt", xla.SignOp: "sign", xla.SqrtOp: "sqrt", xla.CbrtOp: "cbrt", xla.TanhOp: "tanh",
    xla.RoundNearestAfzOp: "round-nearest-afz", xla.RoundNearestEvenOp: "round-nearest-even",
    xla.AddOp: "add", xla.SubtractOp: "subtract", xla.MultiplyOp: "multiply", xla.DivideOp: "divide",
    xla.RemainderOp: "remainder", xla.MaximumOp: "maximum", xla.MinimumOp: "minimum", xla.PowerOp: "power",
    xla.Atan2Op: "atan2", xla.AndOp: "and", xla.OrOp: "or", xla.XorOp: "xor", xla.ShiftLeftOp: "shift-left",
    xla.ShiftRightArithmeticOp: "shift-right-arithmetic", xla.ShiftRightLogicalOp: "shift-right-logical",
    xla.SelectOp: "select", xla.ClampOp: "clamp", xla.ConvertOp: "convert",
    xla.BitcastConvertOp: "bitcast-convert", xla.AfterAllOp: "after-all", xla.ReplicaIdOp: "replica-id",
    xla.ReshapeOp: "reshape", xla.CollapseOp: "reshape",
}  # fmt: skip


class _Computation:
    """The lines of one computation being printed."""

    def __init__(self, name: str):
        self.name = name
        self.lines: list[str] = []
        self.root: str | None = None


class _Printer:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
        self.names: set[str] = set()
        self.counters: dict[str, int] = {}  # base name -> the last number given
        self.done: list[_Computation] = []  # in definition order
        self.function_computations: dict[str, str] = {}
        self.values: dict[SSAValue, str] = {}

    # ---- names ------------------------------------------------------------------------
    def fresh(self, base: str) -> str:
        base = re.sub(r"[^\w.\-]", "_", base).strip(".-") or "v"
        if not re.match(r"[A-Za-z_]", base):
            base = "v" + base
        k = self.counters.get(base, 0) + 1
        name = f"{base}.{k}"
        while name in self.names:
            k += 1
            name = f"{base}.{k}"
        self.counters[base] = k
        self.names.add(name)
        return name

    def ref(self, v: SSAValue) -> str:
        return self.values[v]

    def refs(self, values: Sequence[SSAValue]) -> str:
        return ", ".join(self.values[v] for v in values)

    # ---- computations -------------------------------------------------------------------
    def function(self, name: str) -> str:
        """The computation of function `name` (printed once, before its callers)."""
        if name in self.function_computations:
            return self.function_computations[name]
        f = self.functions.get(name)
        if f is None or not f.body.blocks:
            raise ValueError(f"@{name} has no body (XLA needs every computation's instructions)")
        comp_name = self.fresh(name)
        self.function_computations[name] = comp_name
        self.block(comp_name, f.body.blocks[0], tuple_params=False)
        return comp_name

    def region(self, block: Block, base: str, tuple_params: bool = False) -> str:
        return self.block(self.fresh(base), block, tuple_params)

    def block(self, comp_name: str, block: Block, tuple_params: bool) -> str:
        """A block as a computation: its arguments the parameters (with `tuple_params`,
        one tuple parameter taken apart), its terminator's operands the root (a tuple
        of several)."""
        comp = _Computation(comp_name)
        saved = dict(self.values)
        for arg in block.args:
            try:
                hlo_shape(arg.type)
            except _NoShape as e:
                raise HloExportError(block.parent_op() or self.module, str(e)) from None
        if tuple_params and len(block.args) != 1:
            t = TupleType([a.type for a in block.args])
            param = self.fresh("arg_tuple")
            comp.lines.append(f"{param} = {hlo_shape(t)} parameter(0)")
            for i, arg in enumerate(block.args):
                name = self.fresh(arg.name_hint or "get-tuple-element")
                comp.lines.append(f"{name} = {hlo_shape(arg.type)} get-tuple-element({param}), index={i}")
                self.values[arg] = name
        else:
            for i, arg in enumerate(block.args):
                name = self.fresh(arg.name_hint or "Arg")
                comp.lines.append(f"{name} = {hlo_shape(arg.type)} parameter({i})")
                self.values[arg] = name
        for op in block.ops:
            if op is block.last_op and isinstance(op, func.ReturnOp | xla.ReturnOp):
                self.root(comp, list(op.operands))
                break
            self.op(comp, op)
        else:
            raise ValueError("a block without a terminator")
        self.values = saved
        self.done.append(comp)
        return comp_name

    def root(self, comp: _Computation, values: list[SSAValue]) -> None:
        if len(values) == 1:
            comp.root = self.ref(values[0])
            return
        name = self.fresh("tuple")
        t = TupleType([v.type for v in values])
        comp.lines.append(f"{name} = {hlo_shape(t)} tuple({self.refs(values)})")
        comp.root = name

    # ---- instructions -------------------------------------------------------------------
    def emit(
        self, comp: _Computation, base: str, t: Attribute, opcode: str, operands: str, attrs: Sequence[str] = ()
    ) -> str:
        name = self.fresh(base)
        tail = "".join(f", {a}" for a in attrs if a)
        comp.lines.append(f"{name} = {hlo_shape(t)} {opcode}({operands}){tail}")
        return name

    def results(
        self,
        comp: _Computation,
        op: Operation,
        opcode: str,
        operands: str,
        attrs: Sequence[str] = (),
        base: str | None = None,
    ) -> None:
        """The instruction of `op`: one result is the instruction, several a tuple taken
        apart."""
        base = base or op.name.removeprefix("xla.")
        if len(op.results) == 1:
            self.values[op.results[0]] = self.emit(comp, base, op.results[0].type, opcode, operands, attrs)
            return
        t = TupleType([r.type for r in op.results])
        whole = self.emit(comp, base, t, opcode, operands, attrs)
        for i, r in enumerate(op.results):
            self.values[r] = self.emit(comp, "get-tuple-element", r.type, "get-tuple-element", whole, [f"index={i}"])

    def tuple_of(self, comp: _Computation, values: Sequence[SSAValue]) -> str:
        """One value: the value itself, or a tuple of several."""
        if len(values) == 1:
            return self.ref(values[0])
        return self.emit(comp, "tuple", TupleType([v.type for v in values]), "tuple", self.refs(values))

    def op(self, comp: _Computation, op: Operation) -> None:
        try:
            self._op(comp, op)
        except _NoShape as e:
            raise HloExportError(op, str(e)) from None

    def _op(self, comp: _Computation, op: Operation) -> None:
        rule = _RULES.get(type(op))
        if rule is not None:
            rule(self, comp, op)
            return
        opcode = _UNARY.get(type(op))  # type: ignore[arg-type]
        if opcode is not None:
            self.results(comp, op, opcode, self.refs(op.operands))
            return
        if isinstance(op, func.CallOp):
            _call(self, comp, op)
            return
        raise HloExportError(op, f"'{op.name}' has no HLO form")


# --------------------------------------------------------------------------------------
# The ops with attributes, regions or another form in HLO
# --------------------------------------------------------------------------------------

_RULES: dict[type, Any] = {}


def _rule(*classes: type):
    def register(fn):
        for cls in classes:
            _RULES[cls] = fn
        return fn

    return register


@_rule(xla.ConstantOp)
def _constant(p: _Printer, comp: _Computation, op: Operation) -> None:
    p.results(comp, op, "constant", hlo_literal(op.properties["value"]))  # type: ignore[arg-type]


@_rule(xla.BitcastConvertOp)
def _bitcast_convert(p, comp, op):
    """A bitcast between a real [..., 2] (real part first) and a complex type, which
    HLO's bitcast-convert refuses, is `complex` of the two halves, or the parts
    concatenated."""
    source, target = op.operands[0].type, op.results[0].type
    if isinstance(target.get_element_type(), ComplexType) == isinstance(source.get_element_type(), ComplexType):
        p.results(comp, op, "bitcast-convert", p.refs(op.operands))
        return
    x = p.ref(op.operands[0])
    if isinstance(target.get_element_type(), ComplexType):
        dims = list(source.get_shape())
        part = TensorType(source.get_element_type(), dims[:-1] + [1])
        halves = []
        for k in (0, 1):
            ranges = ", ".join([f"[0:{d}:1]" for d in dims[:-1]] + [f"[{k}:{k + 1}:1]"])
            piece = p.emit(comp, "slice", part, "slice", x, [f"slice={{{ranges}}}"])
            halves.append(p.emit(comp, "reshape", TensorType(source.get_element_type(), dims[:-1]), "reshape", piece))
        p.values[op.results[0]] = p.emit(comp, "complex", target, "complex", ", ".join(halves))
        return
    dims = list(source.get_shape())
    real = TensorType(target.get_element_type(), dims)
    column = TensorType(target.get_element_type(), dims + [1])
    parts = [
        p.emit(comp, "reshape", column, "reshape", p.emit(comp, opcode, real, opcode, x)) for opcode in ("real", "imag")
    ]
    p.values[op.results[0]] = p.emit(
        comp, "concatenate", target, "concatenate", ", ".join(parts), [f"dimensions={{{len(dims)}}}"]
    )


@_rule(xla.IotaOp)
def _iota(p, comp, op):
    p.results(comp, op, "iota", "", [f"iota_dimension={_prop_int(op, 'iota_dimension')}"])


@_rule(xla.CompareOp)
def _compare(p, comp, op):
    attrs = [f"direction={_enum(op, 'comparison_direction')}"]
    if (kind := _enum(op, "compare_type")) is not None:
        attrs.append(f"type={kind}")
    p.results(comp, op, "compare", p.refs(op.operands), attrs)


@_rule(xla.ReducePrecisionOp)
def _reduce_precision(p, comp, op):
    attrs = [f"exponent_bits={_prop_int(op, 'exponent_bits')}", f"mantissa_bits={_prop_int(op, 'mantissa_bits')}"]
    p.results(comp, op, "reduce-precision", p.refs(op.operands), attrs)


@_rule(xla.BroadcastInDimOp)
def _broadcast_in_dim(p, comp, op):
    p.results(
        comp, op, "broadcast", p.refs(op.operands), [f"dimensions={_ints(_prop_ints(op, 'broadcast_dimensions'))}"]
    )


@_rule(xla.BroadcastOp)
def _broadcast(p, comp, op):
    new = len(_prop_ints(op, "broadcast_sizes"))
    rank = len(op.operands[0].type.get_shape())
    p.results(comp, op, "broadcast", p.refs(op.operands), [f"dimensions={_ints(range(new, new + rank))}"])


@_rule(xla.ReshapeOp)
def _reshape(p, comp, op):
    order = _prop_ints(op, "dimensions")
    x = p.ref(op.operands[0])
    if order and order != sorted(order):  # a collapse order: the operand transposed first
        t = op.operands[0].type
        dims = list(t.get_shape())
        transposed = TensorType(t.get_element_type(), [dims[d] for d in order])
        x = p.emit(comp, "transpose", transposed, "transpose", x, [f"dimensions={_ints(order)}"])
    p.results(comp, op, "reshape", x)


@_rule(xla.TransposeOp)
def _transpose(p, comp, op):
    p.results(comp, op, "transpose", p.refs(op.operands), [f"dimensions={_ints(_prop_ints(op, 'permutation'))}"])


@_rule(xla.ReverseOp)
def _reverse(p, comp, op):
    p.results(comp, op, "reverse", p.refs(op.operands), [f"dimensions={_ints(_prop_ints(op, 'dimensions'))}"])


@_rule(xla.SliceOp)
def _slice(p, comp, op):
    starts, limits = _prop_ints(op, "start_indices"), _prop_ints(op, "limit_indices")
    strides = _prop_ints(op, "strides", [1] * len(starts))
    ranges = ", ".join(f"[{s}:{e}:{k}]" for s, e, k in zip(starts, limits, strides, strict=True))
    p.results(comp, op, "slice", p.refs(op.operands), [f"slice={{{ranges}}}"])


@_rule(xla.DynamicSliceOp)
def _dynamic_slice(p, comp, op):
    sizes = _ints(_prop_ints(op, "slice_sizes"))
    p.results(comp, op, "dynamic-slice", p.refs(op.operands), [f"dynamic_slice_sizes={sizes}"])


@_rule(xla.DynamicUpdateSliceOp)
def _dynamic_update_slice(p, comp, op):
    p.results(comp, op, "dynamic-update-slice", p.refs(op.operands))


@_rule(xla.ConcatenateOp)
def _concatenate(p, comp, op):
    p.results(comp, op, "concatenate", p.refs(op.operands), [f"dimensions={{{_prop_int(op, 'dimension')}}}"])


@_rule(xla.PadOp)
def _pad(p, comp, op):
    low, high = _prop_ints(op, "edge_padding_low"), _prop_ints(op, "edge_padding_high")
    interior = _prop_ints(op, "interior_padding", [0] * len(low))
    padding = "x".join(f"{lo}_{hi}" + (f"_{i}" if i else "") for lo, hi, i in zip(low, high, interior, strict=True))
    p.results(comp, op, "pad", p.refs(op.operands), [f"padding={padding}" if padding else ""])


@_rule(xla.GetDimensionSizeOp)
def _get_dimension_size(p, comp, op):
    p.results(comp, op, "get-dimension-size", p.refs(op.operands), [f"dimensions={{{_prop_int(op, 'dimension')}}}"])


@_rule(xla.SetDimensionSizeOp)
def _set_dimension_size(p, comp, op):
    p.results(comp, op, "set-dimension-size", p.refs(op.operands), [f"dimensions={{{_prop_int(op, 'dimension')}}}"])


@_rule(xla.TupleOp)
def _tuple(p, comp, op):
    p.results(comp, op, "tuple", p.refs(op.operands))


@_rule(xla.GetTupleElementOp)
def _get_tuple_element(p, comp, op):
    p.results(comp, op, "get-tuple-element", p.refs(op.operands), [f"index={_prop_int(op, 'index')}"])


@_rule(xla.OptimizationBarrierOp)
def _optimization_barrier(p, comp, op):
    operands = list(op.operands)
    whole = p.emit(comp, "opt-barrier", TupleType([v.type for v in operands]), "opt-barrier",
                   p.emit(comp, "tuple", TupleType([v.type for v in operands]), "tuple", p.refs(operands)))  # fmt: skip
    for i, r in enumerate(op.results):
        p.values[r] = p.emit(comp, "get-tuple-element", r.type, "get-tuple-element", whole, [f"index={i}"])


# ---- computations -----------------------------------------------------------------------


@_rule(xla.MapOp)
def _map(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "map_computation")
    dims = _ints(_prop_ints(op, "dimensions"))
    p.results(comp, op, "map", p.refs(op.operands), [f"dimensions={dims}", f"to_apply={body}"])


@_rule(xla.ReduceOp)
def _reduce(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "reduce_computation")
    dims = _ints(_prop_ints(op, "dimensions"))
    p.results(comp, op, "reduce", p.refs(op.operands), [f"dimensions={dims}", f"to_apply={body}"])


@_rule(xla.ReduceWindowOp)
def _reduce_window(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "reduce_window_computation")
    n = len(_prop_ints(op, "window_dimensions"))
    window = _window(
        _prop_ints(op, "window_dimensions"),
        _prop_ints(op, "window_strides", [1] * n),
        _prop_matrix(op, "padding") or [[0, 0]] * n,
        _prop_ints(op, "base_dilations", [1] * n),
        _prop_ints(op, "window_dilations", [1] * n),
    )
    p.results(comp, op, "reduce-window", p.refs(op.operands), [f"window={window}", f"to_apply={body}"])


@_rule(xla.SelectAndScatterOp)
def _select_and_scatter(p, comp, op):
    select = p.region(op.regions[0].blocks[0], "select_computation")
    scatter = p.region(op.regions[1].blocks[0], "scatter_computation")
    n = len(_prop_ints(op, "window_dimensions"))
    window = _window(_prop_ints(op, "window_dimensions"), _prop_ints(op, "window_strides", [1] * n),
                     _prop_matrix(op, "padding") or [[0, 0]] * n)  # fmt: skip
    attrs = [f"window={window}", f"select={select}", f"scatter={scatter}"]
    p.results(comp, op, "select-and-scatter", p.refs(op.operands), attrs)


@_rule(xla.SortOp)
def _sort(p, comp, op):
    comparator = p.region(op.regions[0].blocks[0], "compare_computation")
    rank = len(op.operands[0].type.get_shape())
    dim = _prop_int(op, "dimension", rank - 1)
    dim = dim + rank if dim < 0 else dim  # type: ignore[operator]
    attrs = (
        [f"dimensions={{{dim}}}"]
        + (["is_stable=true"] if _prop_bool(op, "is_stable") else [])
        + [f"to_apply={comparator}"]
    )
    p.results(comp, op, "sort", p.refs(op.operands), attrs)


@_rule(xla.CallOp)
def _call(p, comp, op):
    callee = p.function(op.callee.root_reference.data)
    p.results(comp, op, "call", p.refs(op.operands), [f"to_apply={callee}"])


@_rule(xla.WhileOp)
def _while(p, comp, op):
    """HLO's while carries one value: several operands are a tuple, which the
    condition and body take apart (and the body returns)."""
    operands = list(op.operands)
    tupled = len(operands) != 1
    cond = p.region(op.regions[0].blocks[0], "while_condition", tuple_params=tupled)
    body = p.region(op.regions[1].blocks[0], "while_body", tuple_params=tupled)
    state = p.tuple_of(comp, operands)
    attrs = [f"condition={cond}", f"body={body}"]
    if not tupled:
        p.values[op.results[0]] = p.emit(comp, "while", op.results[0].type, "while", state, attrs)
        return
    whole = p.emit(comp, "while", TupleType([v.type for v in operands]), "while", state, attrs)
    for i, r in enumerate(op.results):
        p.values[r] = p.emit(comp, "get-tuple-element", r.type, "get-tuple-element", whole, [f"index={i}"])


@_rule(xla.ConditionalOp)
def _conditional(p, comp, op):
    index, *operands = op.operands
    branches = [p.region(r.blocks[0], f"branch_{i}_computation") for i, r in enumerate(op.regions)]
    if isinstance(index.type, TensorType) and element_type_name(index.type.get_element_type()) == "PRED":
        attrs = [f"true_computation={branches[0]}", f"false_computation={branches[1]}"]
    else:
        attrs = ["branch_computations={" + ", ".join(branches) + "}"]
    p.results(comp, op, "conditional", p.refs([index, *operands]), attrs)


# ---- linear algebra -----------------------------------------------------------------------


@_rule(xla.DotOp)
def _dot(p, comp, op):
    lhs_rank = len(op.operands[0].type.get_shape())
    attrs = [f"lhs_contracting_dims={{{lhs_rank - 1}}}", "rhs_contracting_dims={0}"]
    p.results(comp, op, "dot", p.refs(op.operands), attrs)


@_rule(xla.DotGeneralOp)
def _dot_general(p, comp, op):
    attrs = []
    for prop, name in (("lhs_batching_dimensions", "lhs_batch_dims"), ("lhs_contracting_dimensions", "lhs_contracting_dims"),
                       ("rhs_batching_dimensions", "rhs_batch_dims"), ("rhs_contracting_dimensions", "rhs_contracting_dims")):  # fmt: skip
        values = _prop_ints(op, prop)
        if values or "contracting" in name:
            attrs.append(f"{name}={_ints(values)}")
    p.results(comp, op, "dot", p.refs(op.operands), attrs)


def _labels(rank: int, batch: int, feature: int, spatial: Sequence[int], b: str, f: str) -> str:
    labels = ["?"] * rank
    labels[batch], labels[feature] = b, f
    for k, d in enumerate(spatial):
        labels[d] = str(k)
    return "".join(labels)


@_rule(xla.ConvolutionOp)
def _convolution(p, comp, op):
    lhs, rhs = op.operands
    rank = len(lhs.type.get_shape())
    spatial = _prop_ints(op, "input_spatial_dimensions")
    kernel_spatial = _prop_ints(op, "kernel_spatial_dimensions")
    if rank - 2 > 9:
        raise HloExportError(op, "HLO's dim_labels name at most 10 spatial dimensions")
    labels = (
        _labels(rank, _prop_int(op, "input_batch_dimension"), _prop_int(op, "input_feature_dimension"), spatial, "b", "f")
        + "_"
        + _labels(rank, _prop_int(op, "kernel_input_feature_dimension"), _prop_int(op, "kernel_output_feature_dimension"), kernel_spatial, "i", "o")
        + "->"
        + _labels(rank, _prop_int(op, "output_batch_dimension"), _prop_int(op, "output_feature_dimension"), _prop_ints(op, "output_spatial_dimensions"), "b", "f")
    )  # fmt: skip
    n = len(spatial)
    kernel = list(rhs.type.get_shape())
    window = _window(
        [kernel[d] for d in kernel_spatial],
        _prop_ints(op, "window_strides", [1] * n),
        _prop_matrix(op, "padding") or [[0, 0]] * n,
        _prop_ints(op, "lhs_dilation", [1] * n),
        _prop_ints(op, "rhs_dilation", [1] * n),
    )
    attrs = [f"window={window}" if n else "", f"dim_labels={labels}"]
    for name in ("feature_group_count", "batch_group_count"):
        if (count := _prop_int(op, name, 1)) != 1:
            attrs.append(f"{name}={count}")
    p.results(comp, op, "convolution", p.refs(op.operands), attrs)


@_rule(xla.FftOp)
def _fft(p, comp, op):
    attrs = [f"fft_type={_enum(op, 'fft_type')}", f"fft_length={_ints(_prop_ints(op, 'fft_length'))}"]
    p.results(comp, op, "fft", p.refs(op.operands), attrs)


@_rule(xla.CholeskyOp)
def _cholesky(p, comp, op):
    p.results(comp, op, "cholesky", p.refs(op.operands), [f"lower={str(_prop_bool(op, 'lower')).lower()}"])


@_rule(xla.TriangularSolveOp)
def _triangular_solve(p, comp, op):
    attrs = [f"{name}={str(_prop_bool(op, name)).lower()}" for name in ("left_side", "lower", "unit_diagonal")]
    attrs.append(f"transpose_a={_enum(op, 'transpose_a') or 'NO_TRANSPOSE'}")
    p.results(comp, op, "triangular-solve", p.refs(op.operands), attrs)


# ---- gather, scatter, batch norm, rng ---------------------------------------------------


@_rule(xla.GatherOp)
def _gather(p, comp, op):
    attrs = [
        f"{name}={_ints(_prop_ints(op, name))}" for name in ("offset_dims", "collapsed_slice_dims", "start_index_map")
    ]
    attrs.append(f"index_vector_dim={_prop_int(op, 'index_vector_dim')}")
    attrs.append(f"slice_sizes={_ints(_prop_ints(op, 'slice_sizes'))}")
    if _prop_bool(op, "indices_are_sorted"):
        attrs.append("indices_are_sorted=true")
    p.results(comp, op, "gather", p.refs(op.operands), attrs)


@_rule(xla.ScatterOp)
def _scatter(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "scatter_computation")
    names = ("update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims")
    attrs = [f"{name}={_ints(_prop_ints(op, name))}" for name in names]
    attrs.append(f"index_vector_dim={_prop_int(op, 'index_vector_dim')}")
    for flag in ("indices_are_sorted", "unique_indices"):
        if _prop_bool(op, flag):
            attrs.append(f"{flag}=true")
    attrs.append(f"to_apply={body}")
    p.results(comp, op, "scatter", p.refs(op.operands), attrs)


def _batch_norm(opcode: str):
    def rule(p, comp, op):
        epsilon = op.properties["epsilon"]
        value = epsilon.value.data if isinstance(epsilon, FloatAttr) else float(epsilon)  # type: ignore[union-attr]
        attrs = [f"epsilon={_number(float(value))}", f"feature_index={_prop_int(op, 'feature_index')}"]
        p.results(comp, op, opcode, p.refs(op.operands), attrs)

    return rule


_RULES[xla.BatchNormTrainingOp] = _batch_norm("batch-norm-training")
_RULES[xla.BatchNormInferenceOp] = _batch_norm("batch-norm-inference")
_RULES[xla.BatchNormGradOp] = _batch_norm("batch-norm-grad")


@_rule(xla.RngUniformOp, xla.RngNormalOp)
def _rng(p, comp, op):
    distribution = "rng_uniform" if isinstance(op, xla.RngUniformOp) else "rng_normal"
    p.results(comp, op, "rng", p.refs(op.operands), [f"distribution={distribution}"])


@_rule(xla.RngBitGeneratorOp)
def _rng_bit_generator(p, comp, op):
    algorithm = {"DEFAULT": "rng_default", "THREE_FRY": "rng_three_fry", "PHILOX": "rng_philox"}[
        _enum(op, "rng_algorithm") or "DEFAULT"
    ]
    p.results(comp, op, "rng-bit-generator", p.refs(op.operands), [f"algorithm={algorithm}"])


@_rule(xla.CustomCallOp)
def _custom_call(p, comp, op):
    target = op.properties["call_target_name"].data
    attrs = [f"custom_call_target={_quote(target)}"]
    if _prop_bool(op, "has_side_effect"):
        attrs.append("custom_call_has_side_effect=true")
    config = op.properties.get("backend_config")
    if isinstance(config, StringAttr) and config.data:
        attrs.append(f"backend_config={_quote(config.data)}")
    p.results(comp, op, "custom-call", p.refs(op.operands), attrs)


# ---- collectives, tokens ----------------------------------------------------------------------


def _groups(op) -> str:
    return f"replica_groups={_matrix_text(_prop_matrix(op, 'replica_groups'))}"


def _channel(op) -> str:
    channel = _prop_int(op, "channel_id")
    return f"channel_id={channel}" if channel is not None else ""


@_rule(xla.AllReduceOp)
def _all_reduce(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "all_reduce_computation")
    p.results(comp, op, "all-reduce", p.refs(op.operands), [_groups(op), _channel(op), f"to_apply={body}"])


@_rule(xla.AllGatherOp)
def _all_gather(p, comp, op):
    attrs = [f"dimensions={{{_prop_int(op, 'all_gather_dim')}}}", _groups(op), _channel(op)]
    p.results(comp, op, "all-gather", p.refs(op.operands), attrs)


@_rule(xla.ReduceScatterOp)
def _reduce_scatter(p, comp, op):
    body = p.region(op.regions[0].blocks[0], "reduce_scatter_computation")
    attrs = [f"dimensions={{{_prop_int(op, 'scatter_dimension')}}}", _groups(op), _channel(op), f"to_apply={body}"]
    p.results(comp, op, "reduce-scatter", p.refs(op.operands), attrs)


@_rule(xla.AllToAllOp)
def _all_to_all(p, comp, op):
    """HLO's array all-to-all splits and concatenates one dimension. Another concat
    dimension is XlaBuilder's AllToAll: the split dimension cut into [count, size /
    count], the count moved first, all-to-all along it (block k goes to replica k, and
    comes back as the block of replica k), then moved before the concat dimension and
    merged into it."""
    split, concat = _prop_int(op, "split_dimension"), _prop_int(op, "concat_dimension")
    count = _prop_int(op, "split_count")
    x = op.operands[0]
    if split == concat:
        p.results(comp, op, "all-to-all", p.refs(op.operands), [f"dimensions={{{split}}}", _groups(op)])
        return
    dims, element = list(x.type.get_shape()), x.type.get_element_type()
    block = dims[:split] + [dims[split] // count] + dims[split + 1 :]  # what one replica sends another
    cut = TensorType(element, dims[:split] + [count, dims[split] // count] + dims[split + 1 :])
    front = TensorType(element, [count, *block])
    value = p.emit(comp, "reshape", cut, "reshape", p.ref(x))
    perm = [split] + [d for d in range(len(dims) + 1) if d != split]
    if perm != sorted(perm):
        value = p.emit(comp, "transpose", front, "transpose", value, [f"dimensions={_ints(perm)}"])
    value = p.emit(comp, "all-to-all", front, "all-to-all", value, ["dimensions={0}", _groups(op)])
    perm = [*range(1, concat + 1), 0, *range(concat + 1, len(dims) + 1)]
    moved = TensorType(element, block[:concat] + [count] + block[concat:])
    if perm != sorted(perm):
        value = p.emit(comp, "transpose", moved, "transpose", value, [f"dimensions={_ints(perm)}"])
    p.values[op.results[0]] = p.emit(comp, "reshape", op.results[0].type, "reshape", value)


@_rule(xla.CollectivePermuteOp)
def _collective_permute(p, comp, op):
    attrs = [f"source_target_pairs={_matrix_text(_prop_matrix(op, 'source_target_pairs'))}", _channel(op)]
    p.results(comp, op, "collective-permute", p.refs(op.operands), attrs)


@_rule(xla.InfeedOp)
def _infeed(p, comp, op):
    *data, token = op.results
    t = TupleType([TupleType([r.type for r in data]), token.type])
    config = op.properties.get("infeed_config")
    attrs = [f"infeed_config={_quote(config.data)}"] if isinstance(config, StringAttr) and config.data else []
    whole = p.emit(comp, "infeed", t, "infeed", p.refs(op.operands), attrs)
    values = p.emit(comp, "get-tuple-element", t.types.data[0], "get-tuple-element", whole, ["index=0"])
    for i, r in enumerate(data):
        p.values[r] = p.emit(comp, "get-tuple-element", r.type, "get-tuple-element", values, [f"index={i}"])
    p.values[token] = p.emit(comp, "get-tuple-element", token.type, "get-tuple-element", whole, ["index=1"])


@_rule(xla.OutfeedOp)
def _outfeed(p, comp, op):
    *data, token = op.operands
    data_t = TupleType([v.type for v in data])
    tupled = p.emit(comp, "tuple", data_t, "tuple", p.refs(data))
    config = op.properties.get("outfeed_config")
    attrs = [f"outfeed_shape={hlo_shape(data_t)}"]
    if isinstance(config, StringAttr) and config.data:
        attrs.append(f"outfeed_config={_quote(config.data)}")
    p.values[op.results[0]] = p.emit(comp, "outfeed", TokenType(), "outfeed", f"{tupled}, {p.ref(token)}", attrs)


def _host(op) -> list[str]:
    return [f"channel_id={_prop_int(op, 'channel_id', 0)}"] + (
        ["is_host_transfer=true"] if _prop_bool(op, "is_host_transfer") else []
    )


@_rule(xla.SendOp)
def _send(p, comp, op):
    *data, token = op.operands
    from xla_opt.builder import tensor_type

    value = p.tuple_of(comp, data)
    data_t = data[0].type if len(data) == 1 else TupleType([v.type for v in data])
    send_t = TupleType([data_t, tensor_type((), "u32"), TokenType()])
    send = p.emit(comp, "send", send_t, "send", f"{value}, {p.ref(token)}", _host(op))
    p.values[op.results[0]] = p.emit(comp, "send-done", TokenType(), "send-done", send, _host(op))


@_rule(xla.RecvOp)
def _recv(p, comp, op):
    *data, token = op.results
    from xla_opt.builder import tensor_type

    data_t = data[0].type if len(data) == 1 else TupleType([r.type for r in data])
    recv = p.emit(
        comp, "recv", TupleType([data_t, tensor_type((), "u32"), TokenType()]), "recv", p.ref(op.operands[0]), _host(op)
    )
    done_t = TupleType([data_t, TokenType()])
    done = p.emit(comp, "recv-done", done_t, "recv-done", recv, _host(op))
    value = p.emit(comp, "get-tuple-element", data_t, "get-tuple-element", done, ["index=0"])
    if len(data) == 1:
        p.values[data[0]] = value
    else:
        for i, r in enumerate(data):
            p.values[r] = p.emit(comp, "get-tuple-element", r.type, "get-tuple-element", value, [f"index={i}"])
    p.values[token] = p.emit(comp, "get-tuple-element", TokenType(), "get-tuple-element", done, ["index=1"])


# --------------------------------------------------------------------------------------
# The module
# --------------------------------------------------------------------------------------


def _entry_name(module: ModuleOp, entry: str | None) -> str:
    from xla_opt.api import default_entry

    return default_entry(module, entry)


def to_hlo_text(module: ModuleOp, entry: str | None = None, module_name: str | None = None) -> str:
    """The HLO text of an xla program (a verified module, left unchanged), entry
    `entry` (default: @main, else the only public function). Raises `HloExportError`
    (a located `ProgramError`) for what HLO cannot say."""
    from xla_opt.passes.transforms.xla_legalize_broadcast import XlaLegalizeBroadcastPass

    from xla_opt.context import make_context

    module = module.clone()
    XlaLegalizeBroadcastPass().apply(make_context(), module)
    name = _entry_name(module, entry)
    printer = _Printer(module)
    f = printer.functions.get(name)
    if f is None:
        functions = ", ".join(printer.functions) or "none"
        raise ProgramError(f"<program>: error: no function @{name} in the program (functions: {functions})")
    if not f.body.blocks:
        raise HloExportError(f, f"@{name} is only declared (XLA needs every computation's instructions)")
    for op in module.walk():
        if op.name.startswith("sdy."):
            raise HloExportError(
                op,
                "a sharded program's shardings have no HLO form here: print the program one device runs "
                "(-p xla-spmd-partition), or StableHLO (-t stablehlo)",
            )
        if op.name.startswith(("stablehlo.", "chlo.")):
            raise HloExportError(
                op, f"'{op.name}' is not an xla op: import the program first (convert-stablehlo-to-xla)"
            )
    printer.names.add(name)
    try:
        printer.block(name, f.body.blocks[0], tuple_params=False)
    except ProgramError:
        raise
    except ValueError as e:
        raise ProgramError(f"<program>: error: {e}") from None
    title = re.sub(r"[^\w.\-]", "_", module_name or (module.sym_name.data if module.sym_name else "xla_program"))
    out = io.StringIO()
    out.write(f"HloModule {title}\n")
    for comp in printer.done:
        out.write("\n")
        out.write(("ENTRY " if comp is printer.done[-1] else "") + f"{comp.name} {{\n")
        for line in comp.lines:
            lhs = line.split(" = ", 1)[0]
            out.write(("  ROOT " if lhs == comp.root else "  ") + line + "\n")
        if comp.root is not None and not any(line.split(" = ", 1)[0] == comp.root for line in comp.lines):
            raise ProgramError(f"<program>: error: computation {comp.name} returns a value it does not define")
        out.write("}\n")
    return out.getvalue()


class HloTarget(Target):
    """Print the program as HLO text (`xla-opt file.mlir -t hlo`)."""

    name = "hlo"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(to_hlo_text(module))
