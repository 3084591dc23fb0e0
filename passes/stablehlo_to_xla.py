"""`convert-stablehlo-to-xla`: StableHLO (as JAX prints it) to the `xla` dialect.

Every `stablehlo` op with an xla counterpart becomes that op (one small rule per op in
`RULES`; element-wise ops by a table). What JAX emits besides plain StableHLO is
handled too:

* `chlo` ops are decomposed into xla ops (top_k via sort + slice; erf, erf_inv, lgamma
  and digamma by the polynomial and Lanczos approximations of XLA's math library; tan,
  sinh, cosh, asin, acos, atan, asinh, acosh, atanh through exp, log, atan2; is_inf;
  next_after by bit arithmetic);
* the LAPACK custom calls of JAX's CPU lowering (`lapack_?potrf_ffi` -> xla.cholesky,
  `lapack_?trsm_ffi` -> xla.triangular_solve; their `info` results become zeros);
* `sdy` sharding annotations are dropped, `func.call` becomes `xla.call`;
* regions: stablehlo regions already take rank-0 tensors, as xla's do. stablehlo.while
  and stablehlo.case/if bodies may use values defined above them, but the xla ops are
  isolated from above: a while carries the captured values as extra state, and a
  conditional branch receives them as its operand (one value directly, several packed
  in an `xla.tuple` and unpacked with `xla.get_tuple_element`).

Attributes with no meaning here (module `mhlo.*`, argument/result attributes such as
`jax.result_info`, `mhlo.sharding`, `mhlo.layout_mode`) are dropped. Any other op is an
error naming the op, at its location.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import VariadicDef
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from xla_opt.diagnostics import DiagnosticError, op_diagnostic
from xla_opt.dialects.stablehlo.attrs import StablehloTokenType, enum_value
from xla_opt.dialects.stablehlo.ops import ShloOp
from xla_opt.dialects.xla import base as xb
from xla_opt.dialects.xla import collectives as xcol
from xla_opt.dialects.xla import control_flow as xcf
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import gather_scatter as xgs
from xla_opt.dialects.xla import linear_algebra as xla_la
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp as XlaReturnOp


class StablehloConversionError(DiagnosticError, PassFailedException):
    """An op that cannot be converted, reported at its location."""

    def __init__(self, op: Operation, message: str):
        DiagnosticError.__init__(self, [op_diagnostic(op, message, "<stablehlo>")])


def fail(op: Operation, message: str):
    raise StablehloConversionError(op, message)


# --------------------------------------------------------------------------------------
# Attribute helpers
# --------------------------------------------------------------------------------------


def ints(attr: Attribute | None) -> list[int]:
    """Integers of an array<i64>, a dense elements attribute or an array attribute."""
    if attr is None:
        return []
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = [int(v) for v in attr.get_values()]
        n = math.prod(attr.get_shape() or ())
        if len(values) == 1 and n != 1:
            values = values * n
        return values
    if isinstance(attr, ArrayAttr):
        return [int(a.value.data) for a in attr.data]  # type: ignore[attr-defined]
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    raise TypeError(f"not an integer list: {attr}")


def matrix(attr: Attribute | None, ncols: int = 2) -> list[list[int]]:
    """Rows of a rank-2 integer attribute (padding, replica groups)."""
    if attr is None:
        return []
    values = ints(attr)
    shape = list(attr.get_shape() or ()) if isinstance(attr, DenseIntOrFPElementsAttr) else []
    if len(shape) == 2:
        ncols = shape[1]
    if ncols == 0:
        return [[] for _ in range(shape[0])] if shape else []
    return [values[i : i + ncols] for i in range(0, len(values), ncols)]


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
    if isinstance(t, StablehloTokenType):
        return xb.TokenType()
    if isinstance(t, TupleType):
        return TupleType(ArrayAttr([convert_type(e) for e in t.types.data]))
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


# --------------------------------------------------------------------------------------
# The builder the rules use: inserts xla ops before the op being converted
# --------------------------------------------------------------------------------------


@dataclass
class Builder:
    op: Operation  # the op being replaced; new ops go before it

    def add(self, new: Operation) -> Operation:
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
    def constant(self, value: float | int, t: Attribute) -> SSAValue:
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
# Rules
# --------------------------------------------------------------------------------------

Rule = Callable[[Operation, Builder], Sequence[SSAValue] | None]
RULES: dict[str, Rule] = {}


def rule(*names: str):
    def register(fn: Rule) -> Rule:
        for n in names:
            RULES[n] = fn
        return fn

    return register


def _same_operands(cls) -> Rule:
    def convert(op: Operation, b: Builder):
        return b.build(cls, op.operands, result_types(op)).results

    return convert


ELEMENTWISE = {
    "abs": xe.AbsOp,
    "cbrt": xe.CbrtOp,
    "ceil": xe.CeilOp,
    "cosine": xe.CosineOp,
    "sine": xe.SineOp,
    "tan": xe.TanOp,
    "exponential": xe.ExponentialOp,
    "exponential_minus_one": xe.ExponentialMinusOneOp,
    "floor": xe.FloorOp,
    "imag": xe.ImagOp,
    "real": xe.RealOp,
    "is_finite": xe.IsFiniteOp,
    "log": xe.LogOp,
    "log_plus_one": xe.LogPlusOneOp,
    "logistic": xe.LogisticOp,
    "not": xe.NotOp,
    "negate": xe.NegateOp,
    "popcnt": xe.PopcntOp,
    "count_leading_zeros": xe.CountLeadingZerosOp,
    "rsqrt": xe.RsqrtOp,
    "sign": xe.SignOp,
    "sqrt": xe.SqrtOp,
    "tanh": xe.TanhOp,
    "round_nearest_afz": xe.RoundNearestAfzOp,
    "round_nearest_even": xe.RoundNearestEvenOp,
    "add": xe.AddOp,
    "subtract": xe.SubtractOp,
    "multiply": xe.MultiplyOp,
    "divide": xe.DivideOp,
    "remainder": xe.RemainderOp,
    "maximum": xe.MaximumOp,
    "minimum": xe.MinimumOp,
    "power": xe.PowerOp,
    "atan2": xe.Atan2Op,
    "and": xe.AndOp,
    "or": xe.OrOp,
    "xor": xe.XorOp,
    "shift_left": xe.ShiftLeftOp,
    "shift_right_logical": xe.ShiftRightLogicalOp,
    "shift_right_arithmetic": xe.ShiftRightArithmeticOp,
    "select": xe.SelectOp,
    "clamp": xe.ClampOp,
    "convert": xe.ConvertOp,
    "bitcast_convert": xe.BitcastConvertOp,
    "reshape": xs.ReshapeOp,
    "tuple": xs.TupleOp,
    "optimization_barrier": xs.OptimizationBarrierOp,
    "after_all": xcol.AfterAllOp,
    "replica_id": xcol.ReplicaIdOp,
    "dot": xla_la.DotOp,
}
for _name, _cls in ELEMENTWISE.items():
    if _name != "dot":
        RULES[f"stablehlo.{_name}"] = _same_operands(_cls)


@rule("stablehlo.tuple", "stablehlo.optimization_barrier", "stablehlo.after_all")
def _variadic(op, b):
    cls = ELEMENTWISE[op.name.split(".", 1)[1]]
    return b.build(cls, [list(op.operands)], result_types(op)).results


@rule("stablehlo.create_token")
def _create_token(op, b):
    return b.build(xcol.AfterAllOp, [[]], [xb.TokenType()]).results


@rule("stablehlo.constant", "chlo.constant")
def _constant(op, b):
    value = prop(op, "value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        fail(op, f"constant value {value} is not a dense elements attribute")
    return [b.one(xe.ConstantOp, [], op.results[0].type, {"value": value})]


@rule("stablehlo.iota")
def _iota(op, b):
    return [b.one(xe.IotaOp, [], op.results[0].type, {"iota_dimension": i64_attr(int_of(prop(op, "iota_dimension")))})]


@rule("stablehlo.compare")
def _compare(op, b):
    direction = enum_value(prop(op, "comparison_direction"))
    ctype = enum_value(prop(op, "compare_type"))
    if ctype == "NOTYPE":
        ctype = None
    props = {"comparison_direction": xe.ComparisonDirectionAttr(xe.ComparisonDirection(direction))}
    if ctype is not None:
        props["compare_type"] = xe.ComparisonTypeAttr(xe.ComparisonType(ctype))
    return [b.one(xe.CompareOp, op.operands, op.results[0].type, props)]


@rule("stablehlo.reduce_precision")
def _reduce_precision(op, b):
    props = {
        "exponent_bits": i64_attr(int_of(prop(op, "exponent_bits"))),
        "mantissa_bits": i64_attr(int_of(prop(op, "mantissa_bits"))),
    }
    return [b.one(xe.ReducePrecisionOp, op.operands, op.results[0].type, props)]


def _props_rule(cls, **names: tuple[str, Callable]) -> Rule:
    """A one-operand-group op whose xla properties come from stablehlo ones."""

    def convert(op, b):
        props = {}
        for xla_name, (shlo_name, conv) in names.items():
            value = prop(op, shlo_name)
            if value is not None:
                props[xla_name] = conv(value)
        return b.build(cls, op.operands, result_types(op), props).results

    return convert


_ARR = lambda a: i64_array(ints(a))  # noqa: E731
_INT = lambda a: i64_attr(int_of(a))  # noqa: E731

RULES["stablehlo.broadcast_in_dim"] = _props_rule(
    xs.BroadcastInDimOp, broadcast_dimensions=("broadcast_dimensions", _ARR)
)
RULES["stablehlo.broadcast"] = _props_rule(xs.BroadcastOp, broadcast_sizes=("broadcast_sizes", _ARR))
RULES["stablehlo.transpose"] = _props_rule(xs.TransposeOp, permutation=("permutation", _ARR))
RULES["stablehlo.reverse"] = _props_rule(xs.ReverseOp, dimensions=("dimensions", _ARR))
RULES["stablehlo.slice"] = _props_rule(
    xs.SliceOp,
    start_indices=("start_indices", _ARR),
    limit_indices=("limit_indices", _ARR),
    strides=("strides", _ARR),
)
RULES["stablehlo.pad"] = _props_rule(
    xs.PadOp,
    edge_padding_low=("edge_padding_low", _ARR),
    edge_padding_high=("edge_padding_high", _ARR),
    interior_padding=("interior_padding", _ARR),
)
RULES["stablehlo.get_dimension_size"] = _props_rule(xs.GetDimensionSizeOp, dimension=("dimension", _INT))
RULES["stablehlo.get_tuple_element"] = _props_rule(xs.GetTupleElementOp, index=("index", _INT))
RULES["stablehlo.fft"] = _props_rule(
    xla_la.FftOp,
    fft_type=("fft_type", lambda a: xla_la.FftTypeAttr(xla_la.FftType(enum_value(a)))),
    fft_length=("fft_length", _ARR),
)
RULES["stablehlo.cholesky"] = _props_rule(
    xla_la.CholeskyOp, lower=("lower", lambda a: BoolAttr.from_bool(bool_of(a)))
)


@rule("stablehlo.triangular_solve")
def _triangular_solve(op, b):
    props = {
        "left_side": BoolAttr.from_bool(bool_of(prop(op, "left_side"))),
        "lower": BoolAttr.from_bool(bool_of(prop(op, "lower"))),
        "unit_diagonal": BoolAttr.from_bool(bool_of(prop(op, "unit_diagonal"))),
        "transpose_a": xla_la.TransposeAttr(xla_la.Transpose(enum_value(prop(op, "transpose_a")) or "NO_TRANSPOSE")),
    }
    return b.build(xla_la.TriangularSolveOp, op.operands, result_types(op), props).results


def _batch_norm(cls) -> Rule:
    def convert(op, b):
        eps = prop(op, "epsilon")
        props = {
            "epsilon": FloatAttr(float(eps.value.data), f32),  # type: ignore[union-attr]
            "feature_index": i64_attr(int_of(prop(op, "feature_index"))),
        }
        return b.build(cls, op.operands, result_types(op), props).results

    return convert


RULES["stablehlo.batch_norm_training"] = _batch_norm(xla_la.BatchNormTrainingOp)
RULES["stablehlo.batch_norm_inference"] = _batch_norm(xla_la.BatchNormInferenceOp)
RULES["stablehlo.batch_norm_grad"] = _batch_norm(xla_la.BatchNormGradOp)


@rule("stablehlo.dynamic_slice")
def _dynamic_slice(op, b):
    x, *starts = op.operands
    props = {"slice_sizes": i64_array(ints(prop(op, "slice_sizes")))}
    return b.build(xs.DynamicSliceOp, [x, starts], result_types(op), props).results


@rule("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(op, b):
    x, update, *starts = op.operands
    return b.build(xs.DynamicUpdateSliceOp, [x, update, starts], result_types(op)).results


@rule("stablehlo.concatenate")
def _concatenate(op, b):
    props = {"dimension": i64_attr(int_of(prop(op, "dimension")))}
    return b.build(xs.ConcatenateOp, [list(op.operands)], result_types(op), props).results


def _to_result_element(op, b, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """dot/convolution with a wider result element type (preferred_element_type):
    the operands are converted to it first."""
    e = elem(op.results[0])
    return [b.convert(v, e) for v in operands]


@rule("stablehlo.dot")
def _dot(op, b):
    lhs, rhs = _to_result_element(op, b, op.operands)
    return [b.one(xla_la.DotOp, [lhs, rhs], op.results[0].type)]


@rule("stablehlo.dot_general")
def _dot_general(op, b):
    lhs, rhs = _to_result_element(op, b, op.operands)
    props = {
        name: i64_array(ints(field(op, "dot_dimension_numbers", name)))
        for name in (
            "lhs_batching_dimensions",
            "rhs_batching_dimensions",
            "lhs_contracting_dimensions",
            "rhs_contracting_dimensions",
        )
    }
    return [b.one(xla_la.DotGeneralOp, [lhs, rhs], op.results[0].type, props)]


_CONV_SCALARS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "output_batch_dimension",
    "output_feature_dimension",
)
_CONV_ARRAYS = ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions")


@rule("stablehlo.convolution")
def _convolution(op, b):
    lhs, rhs = _to_result_element(op, b, op.operands)
    props: dict[str, Attribute] = {}
    for name in _CONV_SCALARS:
        props[name] = i64_attr(int_of(field(op, "dimension_numbers", name)))
    for name in _CONV_ARRAYS:
        props[name] = i64_array(ints(field(op, "dimension_numbers", name)))
    n = len(ints(props["input_spatial_dimensions"]))
    for name in ("window_strides", "lhs_dilation", "rhs_dilation"):
        if prop(op, name) is not None:
            props[name] = i64_array(ints(prop(op, name)))
    if prop(op, "padding") is not None:
        props["padding"] = xb.i64_matrix(matrix(prop(op, "padding"))) if n else None
    for name in ("feature_group_count", "batch_group_count"):
        if prop(op, name) is not None:
            props[name] = i64_attr(int_of(prop(op, name)))
    reversal = ints(prop(op, "window_reversal"))
    if any(reversal):
        kernel_dims = ints(props["kernel_spatial_dimensions"])
        dims = [d for d, r in zip(kernel_dims, reversal) if r]
        rhs = b.one(xs.ReverseOp, [rhs], rhs.type, {"dimensions": i64_array(dims)})
    return [b.one(xla_la.ConvolutionOp, [lhs, rhs], op.results[0].type, props)]


def _take_regions(op: Operation) -> list[Region]:
    return [op.detach_region(r) for r in list(op.regions)]


@rule("stablehlo.reduce")
def _reduce(op, b):
    n = len(op.operands) // 2
    props = {"dimensions": i64_array(ints(prop(op, "dimensions")))}
    _check_isolated(op)
    return b.build(
        xcf.ReduceOp, [list(op.operands[:n]), list(op.operands[n:])], result_types(op), props, _take_regions(op)
    ).results


@rule("stablehlo.reduce_window")
def _reduce_window(op, b):
    n = len(op.operands) // 2
    props: dict[str, Attribute | None] = {
        "window_dimensions": i64_array(ints(prop(op, "window_dimensions"))),
    }
    for name in ("window_strides", "base_dilations", "window_dilations"):
        if prop(op, name) is not None:
            props[name] = i64_array(ints(prop(op, name)))
    if prop(op, "padding") is not None:
        props["padding"] = xb.i64_matrix(matrix(prop(op, "padding")))
    _check_isolated(op)
    return b.build(
        xcf.ReduceWindowOp, [list(op.operands[:n]), list(op.operands[n:])], result_types(op), props, _take_regions(op)
    ).results


@rule("stablehlo.select_and_scatter")
def _select_and_scatter(op, b):
    props: dict[str, Attribute | None] = {
        "window_dimensions": i64_array(ints(prop(op, "window_dimensions"))),
    }
    if prop(op, "window_strides") is not None:
        props["window_strides"] = i64_array(ints(prop(op, "window_strides")))
    if prop(op, "padding") is not None:
        props["padding"] = xb.i64_matrix(matrix(prop(op, "padding")))
    _check_isolated(op)
    return b.build(xcf.SelectAndScatterOp, op.operands, result_types(op), props, _take_regions(op)).results


@rule("stablehlo.sort")
def _sort(op, b):
    dim = int_of(prop(op, "dimension"), -1)
    if dim < 0:
        dim += len(shape(op.operands[0]))
    props = {"dimension": i64_attr(dim)}
    if prop(op, "is_stable") is not None:
        props["is_stable"] = BoolAttr.from_bool(bool_of(prop(op, "is_stable")))
    _check_isolated(op)
    return b.build(xcf.SortOp, [list(op.operands)], result_types(op), props, _take_regions(op)).results


@rule("stablehlo.map")
def _map(op, b):
    props = {"dimensions": i64_array(ints(prop(op, "dimensions")))}
    _check_isolated(op)
    return b.build(xcf.MapOp, [list(op.operands)], result_types(op), props, _take_regions(op)).results


def _unbatch_indices(
    b: Builder, indices: SSAValue, index_vector_dim: int, batching_dims: Sequence[int]
) -> tuple[SSAValue, int]:
    """Gather/scatter batching dimensions as explicit indices: an iota along each
    indices batching dimension is appended to the index vectors (which become an
    explicit dimension when index_vector_dim is the rank). Returns the new indices
    and index_vector_dim."""
    dims = list(shape(indices))
    e = elem(indices)
    if index_vector_dim == len(dims):
        dims.append(1)
        indices = b.one(xs.ReshapeOp, [indices], TensorType(e, dims))
    iota_shape = list(dims)
    iota_shape[index_vector_dim] = 1
    parts = [indices]
    for d in batching_dims:
        parts.append(b.one(xe.IotaOp, [], TensorType(e, iota_shape), {"iota_dimension": i64_attr(d)}))
    total = list(dims)
    total[index_vector_dim] = dims[index_vector_dim] + len(batching_dims)
    out = b.one(
        xs.ConcatenateOp, [parts], TensorType(e, total), {"dimension": i64_attr(index_vector_dim)}
    )
    return out, index_vector_dim


@rule("stablehlo.gather")
def _gather(op, b):
    key = "dimension_numbers"
    operand, indices = op.operands
    index_vector_dim = int_of(field(op, key, "index_vector_dim"), 0)
    collapsed = ints(field(op, key, "collapsed_slice_dims"))
    start_index_map = ints(field(op, key, "start_index_map"))
    operand_batching = ints(field(op, key, "operand_batching_dims"))
    indices_batching = ints(field(op, key, "start_indices_batching_dims"))
    if operand_batching:
        # batching dimensions: explicit iota indices into collapsed operand dimensions
        indices, index_vector_dim = _unbatch_indices(b, indices, index_vector_dim, indices_batching)
        collapsed = sorted([*collapsed, *operand_batching])
        start_index_map = [*start_index_map, *operand_batching]
    props = {
        "offset_dims": i64_array(ints(field(op, key, "offset_dims"))),
        "collapsed_slice_dims": i64_array(collapsed),
        "start_index_map": i64_array(start_index_map),
        "index_vector_dim": i64_attr(index_vector_dim),
        "slice_sizes": i64_array(ints(prop(op, "slice_sizes"))),
    }
    if prop(op, "indices_are_sorted") is not None:
        props["indices_are_sorted"] = BoolAttr.from_bool(bool_of(prop(op, "indices_are_sorted")))
    return b.build(xgs.GatherOp, [operand, indices], result_types(op), props).results


@rule("stablehlo.scatter")
def _scatter(op, b):
    key = "scatter_dimension_numbers"
    n = (len(op.operands) - 1) // 2
    indices = op.operands[n]
    index_vector_dim = int_of(field(op, key, "index_vector_dim"), 0)
    inserted = ints(field(op, key, "inserted_window_dims"))
    to_operand = ints(field(op, key, "scatter_dims_to_operand_dims"))
    input_batching = ints(field(op, key, "input_batching_dims"))
    indices_batching = ints(field(op, key, "scatter_indices_batching_dims"))
    if input_batching:
        indices, index_vector_dim = _unbatch_indices(b, indices, index_vector_dim, indices_batching)
        inserted = sorted([*inserted, *input_batching])
        to_operand = [*to_operand, *input_batching]
    props = {
        "update_window_dims": i64_array(ints(field(op, key, "update_window_dims"))),
        "inserted_window_dims": i64_array(inserted),
        "scatter_dims_to_operand_dims": i64_array(to_operand),
        "index_vector_dim": i64_attr(index_vector_dim),
    }
    for name in ("indices_are_sorted", "unique_indices"):
        if prop(op, name) is not None:
            props[name] = BoolAttr.from_bool(bool_of(prop(op, name)))
    _check_isolated(op)
    operands = [list(op.operands[:n]), indices, list(op.operands[n + 1 :])]
    return b.build(xgs.ScatterOp, operands, result_types(op), props, _take_regions(op)).results


def _check_isolated(op: Operation) -> None:
    captured = captured_values(op.regions)
    if captured:
        fail(op, f"its region uses {len(captured)} value(s) defined outside it; xla computations see only their parameters")


@rule("stablehlo.while")
def _while(op, b):
    cond, body = _take_regions(op)
    captured = captured_values([cond, body])
    n = len(op.operands)
    for region in (cond, body):
        block = region.blocks[0]
        for v in captured:
            arg = block.insert_arg(v.type, len(block.args))
            replace_uses_within(region, v, arg)
    # the body passes the captured values through
    ret = return_op(body)
    extra = list(body.blocks[0].args[n:])
    ret.operands = [*ret.operands, *extra]
    state = [*op.operands, *captured]
    new = b.build(xcf.WhileOp, [state], [v.type for v in state], regions=[cond, body])
    return new.results[:n]


def _conditional(op: Operation, b: Builder, index: SSAValue) -> Sequence[SSAValue]:
    branches = _take_regions(op)
    branch_operands = []
    for region in branches:
        block = region.blocks[0]
        captured = captured_values([region])
        if not captured:
            operand = index  # an unused operand: each branch takes exactly one
            block.insert_arg(index.type, 0)
        elif len(captured) == 1:
            operand = captured[0]
            arg = block.insert_arg(operand.type, 0)
            replace_uses_within(region, operand, arg)
        else:
            operand = b.one(xs.TupleOp, [captured], TupleType(ArrayAttr([v.type for v in captured])))
            arg = block.insert_arg(operand.type, 0)
            first = block.first_op
            for i, v in enumerate(captured):
                get = xs.GetTupleElementOp.build(
                    operands=[arg], result_types=[v.type], properties={"index": i64_attr(i)}
                )
                if first is None:
                    block.add_op(get)
                else:
                    block.insert_op_before(get, first)
                replace_uses_within(region, v, get.results[0])
        branch_operands.append(operand)
    return b.build(
        xcf.ConditionalOp, [index, branch_operands], result_types(op), regions=[branches]
    ).results


@rule("stablehlo.case")
def _case(op, b):
    return _conditional(op, b, op.operands[0])


@rule("stablehlo.if")
def _if(op, b):
    return _conditional(op, b, op.operands[0])


@rule("stablehlo.return")
def _return(op, b):
    b.add(XlaReturnOp.build(operands=[list(op.operands)]))
    return []


@rule("func.call")
def _call(op, b):
    return b.build(
        xcf.CallOp, [list(op.operands)], result_types(op), {"callee": op.properties.get("callee") or op.attributes["callee"]}
    ).results


@rule("stablehlo.rng")
def _rng(op, b):
    distribution = enum_value(prop(op, "rng_distribution"))
    cls = xgs.RngNormalOp if distribution == "NORMAL" else xgs.RngUniformOp
    return [b.one(cls, op.operands[:2], op.results[0].type)]


@rule("stablehlo.rng_bit_generator")
def _rng_bit_generator(op, b):
    algorithm = enum_value(prop(op, "rng_algorithm")) or "DEFAULT"
    props = {"rng_algorithm": xgs.RngAlgorithmAttr(xgs.RngAlgorithm(algorithm))}
    return b.build(xgs.RngBitGeneratorOp, op.operands, result_types(op), props).results


def _channel_id(op) -> IntegerAttr | None:
    handle = prop(op, "channel_handle")
    if handle is None:
        return None
    value = handle.fields.data.get("handle")  # type: ignore[attr-defined]
    return i64_attr(int_of(value)) if value is not None else None


@rule("stablehlo.infeed")
def _infeed(op, b):
    config = prop(op, "infeed_config")
    props = {"infeed_config": config if isinstance(config, StringAttr) and config.data else None}
    types = result_types(op)
    return b.build(xcol.InfeedOp, [op.operands[0]], [types[:-1], types[-1]], props).results


@rule("stablehlo.outfeed")
def _outfeed(op, b):
    config = prop(op, "outfeed_config")
    props = {"outfeed_config": config if isinstance(config, StringAttr) and config.data else None}
    return b.build(xcol.OutfeedOp, [list(op.operands[:-1]), op.operands[-1]], result_types(op), props).results


@rule("stablehlo.send")
def _send(op, b):
    props = {"channel_id": _channel_id(op) or i64_attr(0)}
    if prop(op, "is_host_transfer") is not None:
        props["is_host_transfer"] = BoolAttr.from_bool(bool_of(prop(op, "is_host_transfer")))
    return b.build(xcol.SendOp, [list(op.operands[:-1]), op.operands[-1]], result_types(op), props).results


@rule("stablehlo.recv")
def _recv(op, b):
    props = {"channel_id": _channel_id(op) or i64_attr(0)}
    if prop(op, "is_host_transfer") is not None:
        props["is_host_transfer"] = BoolAttr.from_bool(bool_of(prop(op, "is_host_transfer")))
    types = result_types(op)
    return b.build(xcol.RecvOp, [op.operands[0]], [types[:-1], types[-1]], props).results


def _replica_groups(op) -> DenseIntOrFPElementsAttr:
    groups = prop(op, "replica_groups")
    if groups is None:
        return xb.i64_matrix([])
    rows = matrix(groups)
    return xb.i64_matrix(rows) if rows and rows[0] else xb.i64_matrix([])


@rule("stablehlo.all_reduce")
def _all_reduce(op, b):
    props = {"replica_groups": _replica_groups(op), "channel_id": _channel_id(op)}
    _check_isolated(op)
    return b.build(xcol.AllReduceOp, [list(op.operands)], result_types(op), props, _take_regions(op)).results


@rule("stablehlo.all_gather")
def _all_gather(op, b):
    if len(op.operands) != 1:
        fail(op, "all_gather of several operands has no xla counterpart")
    props = {
        "all_gather_dim": i64_attr(int_of(prop(op, "all_gather_dim"))),
        "replica_groups": _replica_groups(op),
        "channel_id": _channel_id(op),
    }
    return b.build(xcol.AllGatherOp, op.operands, result_types(op), props).results


@rule("stablehlo.reduce_scatter")
def _reduce_scatter(op, b):
    props = {
        "scatter_dimension": i64_attr(int_of(prop(op, "scatter_dimension"))),
        "replica_groups": _replica_groups(op),
        "channel_id": _channel_id(op),
    }
    _check_isolated(op)
    return b.build(xcol.ReduceScatterOp, op.operands, result_types(op), props, _take_regions(op)).results


@rule("stablehlo.all_to_all")
def _all_to_all(op, b):
    if len(op.operands) != 1:
        fail(op, "all_to_all of several operands has no xla counterpart")
    props = {
        "split_dimension": i64_attr(int_of(prop(op, "split_dimension"))),
        "concat_dimension": i64_attr(int_of(prop(op, "concat_dimension"))),
        "split_count": i64_attr(int_of(prop(op, "split_count"))),
        "replica_groups": _replica_groups(op),
    }
    return b.build(xcol.AllToAllOp, op.operands, result_types(op), props).results


@rule("stablehlo.collective_permute")
def _collective_permute(op, b):
    props = {
        "source_target_pairs": xb.i64_matrix(matrix(prop(op, "source_target_pairs"))),
        "channel_id": _channel_id(op),
    }
    return b.build(xcol.CollectivePermuteOp, op.operands, result_types(op), props).results


@rule("sdy.sharding_constraint", "sdy.reshard")
def _sharding_identity(op, b):
    return [op.operands[0]]


# ---- custom calls ----------------------------------------------------------------------

SHARDING_TARGETS = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "annotate_device_placement"}


def _char_field(op, key: str, default: str) -> str:
    config = op.attributes.get("mhlo.backend_config")
    if isinstance(config, DictionaryAttr) and key in config.data:
        return chr(int_of(config.data[key]))
    return default


def _zeros_for(b: Builder, types: Sequence[Attribute]) -> list[SSAValue]:
    return [b.constant(0, t) for t in types]


@rule("stablehlo.custom_call")
def _custom_call(op, b):
    target = prop(op, "call_target_name")
    target = target.data if isinstance(target, StringAttr) else str(target)
    if target in SHARDING_TARGETS:
        return list(op.operands)
    base = target.removesuffix("_ffi")
    if base.startswith("lapack_") and base[8:] == "potrf":
        # (a) -> (factor, info)
        lower = _char_field(op, "uplo", "L") == "L"
        a = op.operands[-1]
        factor = b.one(xla_la.CholeskyOp, [a], a.type, {"lower": BoolAttr.from_bool(lower)})
        return [factor, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if base.startswith("lapack_") and base[8:] == "trsm" or base.startswith("blas_") and base[6:] == "trsm":
        a, rhs = op.operands[-2], op.operands[-1]
        trans = _char_field(op, "trans_x", "N")
        props = {
            "left_side": BoolAttr.from_bool(_char_field(op, "side", "L") == "L"),
            "lower": BoolAttr.from_bool(_char_field(op, "uplo", "L") == "L"),
            "unit_diagonal": BoolAttr.from_bool(_char_field(op, "diag", "N") == "U"),
            "transpose_a": xla_la.TransposeAttr(
                xla_la.Transpose({"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}[trans])
            ),
        }
        x = b.one(xla_la.TriangularSolveOp, [a, rhs], rhs.type, props)
        return [x, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if base.startswith(("lapack_", "blas_", "cusolver", "cublas", "hipsolver", "cu_", "hip_")):
        fail(op, f"custom call '{target}' has no xla counterpart")
    props: dict[str, Attribute | None] = {"call_target_name": StringAttr(target)}
    config = prop(op, "backend_config")
    if isinstance(config, StringAttr) and config.data:
        props["backend_config"] = config
    if prop(op, "has_side_effect") is not None:
        props["has_side_effect"] = BoolAttr.from_bool(bool_of(prop(op, "has_side_effect")))
    return b.build(xgs.CustomCallOp, [list(op.operands)], result_types(op), props).results


# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------

DROPPED_OPS = {"sdy.mesh"}


def _convert_block(block: Block) -> None:
    for op in list(block.ops):
        for region in op.regions:
            for inner in region.blocks:
                _convert_block(inner)
        _convert_op(op)


def _convert_op(op: Operation) -> None:
    name = op.name
    if name in DROPPED_OPS:
        op.detach()
        op.erase()
        return
    convert = RULES.get(name)
    if convert is None:
        if isinstance(op, ShloOp) or name.startswith(("stablehlo.", "chlo.", "sdy.", "mhlo.")):
            fail(op, f"'{name}' has no xla counterpart (convert-stablehlo-to-xla does not support it)")
        _retype_block_args(op)
        return
    for i, region in enumerate(op.regions):
        # StableHLO's regions are SizedRegion<1>: the rules read their one block
        if (count := len(region.blocks)) != 1:
            fail(op, f"region #{i} must have exactly one block, got {count}")
    b = Builder(op)
    try:
        new_values = convert(op, b)
    except StablehloConversionError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError) as e:
        fail(op, f"cannot convert {name}: {type(e).__name__}: {e}")
    new_values = list(new_values or [])
    if len(new_values) != len(op.results):
        fail(op, f"internal: conversion of {name} gave {len(new_values)} values for {len(op.results)} results")
    for old, new in zip(op.results, new_values, strict=True):
        old.replace_all_uses_with(new)
    _copy_location(op, b)
    op.detach()
    op.erase()


def _copy_location(op: Operation, b: Builder) -> None:
    """The new ops take the converted op's location."""
    prev = op.prev_op
    while prev is not None and prev.location != op.location:
        from xdsl.dialects.builtin import UnknownLoc

        if isinstance(prev.location, UnknownLoc):
            prev.location = op.location
            prev = prev.prev_op
        else:
            break


def _retype_block_args(op: Operation) -> None:
    for region in op.regions:
        for block in region.blocks:
            for arg in list(block.args):
                new_type = convert_type(arg.type)
                if new_type != arg.type:
                    Rewriter.replace_value_with_new_type(arg, new_type)


_DROPPED_FUNC_ATTRS = ("arg_attrs", "res_attrs")


def _convert_func(f: func.FuncOp) -> None:
    for name in _DROPPED_FUNC_ATTRS:
        f.properties.pop(name, None)
        f.attributes.pop(name, None)
    for name in list(f.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.")):
            del f.attributes[name]
    _retype_block_args(f)
    ft = f.function_type
    inputs = [convert_type(t) for t in ft.inputs.data]
    outputs = [convert_type(t) for t in ft.outputs.data]
    if inputs != list(ft.inputs.data) or outputs != list(ft.outputs.data):
        f.function_type = FunctionType.from_lists(inputs, outputs)


def convert_module(ctx: Context | None, module: ModuleOp) -> None:
    """Convert every stablehlo/chlo/sdy op of `module` to xla ops, in place. Raises
    StablehloConversionError (a located DiagnosticError and a PassFailedException)."""
    for name in list(module.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.", "stablehlo.")):
            del module.attributes[name]
    for op in list(module.body.block.ops):
        if isinstance(op, func.FuncOp):
            _convert_func(op)
    _convert_block(module.body.block)


class ConvertStablehloToXlaPass(ModulePass):
    """StableHLO/CHLO (as JAX prints them) to the xla dialect."""

    name = "convert-stablehlo-to-xla"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(ctx, op)


# the chlo decompositions register their rules in RULES
from xla_opt.dialects.stablehlo import chlo_decompositions as _chlo  # noqa: E402, F401
