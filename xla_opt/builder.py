"""Build xla programs in Python, with XlaBuilder's names (operation_semantics):

    b = xla_opt.Builder("f")
    x = b.parameter(0, (2, 3), "f32")
    v = b.parameter(1, (3,), "f32")
    module = b.build(b.add(x, v, broadcast_dimensions=[1]))   # a ModuleOp with func.func @f

Every method creates one xla op and returns its result (a tuple of results for ops
given a list of operands, or with several results). Result types come from the op's
own `infer_result_types`, the shape functions of `dialects/shapes/` that its verifier
checks against; where the spec leaves the result to the caller (reshape,
broadcast_in_dim, convert, iota, rng, custom_call, infeed, recv) it is an argument.
Each op is verified as it is created: a mistake raises `ProgramError` carrying the
verifier's one-line diagnostic, located at the Python line that called the builder
(ops keep that location, so later diagnostics point there too).

Computations (reducers, comparators, loop conditions and bodies, branches, callees)
are Python callables that receive a sub-builder and the computation's parameters
(rank-0 tensors for scalars) and return the result value(s):

    total = b.reduce(x, b.constant(0.0), lambda c, acc, e: c.add(acc, e), dimensions=[1])

Element types are strings ("f32", "bf16", "s32" or "i32", "u8" or "ui8", "pred",
"c64"), numpy dtypes or xDSL types; shapes are tuples of ints.
"""

from __future__ import annotations

import itertools
import keyword
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    f32,
    i1,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import VariadicDef

from xla_opt.diagnostics import ProgramError
from xla_opt.diagnostics import Diagnostic, verify_module
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.elementwise import bitcast_convert_shape
from xla_opt.dialects.shapes.linear_algebra import ConvDimensionNumbers
from xla_opt.dialects.shapes.reductions import same_padding, valid_padding
from xla_opt.dialects.shapes.windows import dilated_size
from xla_opt.dialects.xla.computation import PRED_SCALAR, region_signature, scalar_of
from xla_opt.dialects.xla.element_types import (
    NARROW_FLOAT_TYPES,
    NARROW_INT_WIDTHS,
    TokenType,
    bit_width,
    elem_of,
    element_type_name,
    is_xla_element_type,
    shape_of,
    tensor,
)
from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS, ComparisonDirection
from xla_opt.dialects.xla.properties import i64_array, i64_matrix
from xla_opt.interpreter.dtypes import check_value, numpy_dtype

__all__ = ["Builder", "dense_attribute", "element_type", "property_attribute", "tensor_type"]

TypeSpec = Any  # an xDSL type, or a (shape, element type) pair

# --------------------------------------------------------------------------------------
# Element types and types
# --------------------------------------------------------------------------------------

_INT_WIDTHS = (*NARROW_INT_WIDTHS, 8, 16, 32, 64)
_XLA_ELEMENT_TYPES: tuple[Attribute, ...] = (
    i1,
    *(IntegerType(w) for w in _INT_WIDTHS),
    *(IntegerType(w, Signedness.UNSIGNED) for w in _INT_WIDTHS),
    Float16Type(),
    BFloat16Type(),
    Float32Type(),
    Float64Type(),
    *(t() for t in NARROW_FLOAT_TYPES),
    ComplexType(Float32Type()),
    ComplexType(Float64Type()),
)


@cache
def _element_types_by_name() -> dict[str, Attribute]:
    """MLIR's spellings (i32, ui8, complex<f32>, f8E4M3FN) and the spec's (PRED, S32,
    U8, C64), lower-case."""
    names: dict[str, Attribute] = {}
    for t in _XLA_ELEMENT_TYPES:
        names[str(t).lower()] = t
        names[element_type_name(t).lower()] = t
    return names


@cache
def _element_types_by_dtype() -> dict[np.dtype, Attribute]:
    return {numpy_dtype(t): t for t in _XLA_ELEMENT_TYPES}


def element_type(dtype: Any) -> Attribute:
    """The xla element type of a name ("f32", "s32", "pred", "c64", "bf16"...), a numpy
    dtype or an xDSL type."""
    if isinstance(dtype, Attribute):
        if is_xla_element_type(dtype):
            return dtype
        raise TypeError(f"{dtype} is not an XLA element type")
    if isinstance(dtype, str):
        t = _element_types_by_name().get(dtype.lower())
        if t is None:
            known = ", ".join(sorted(_element_types_by_name()))
            raise TypeError(f"unknown element type '{dtype}'; expected one of {known}")
        return t
    try:
        return _element_types_by_dtype()[np.dtype(dtype)]
    except (TypeError, KeyError):
        raise TypeError(f"no XLA element type for {dtype!r}") from None


def tensor_type(shape: Sequence[int], dtype: Any) -> TensorType:
    """`tensor<shape x element type>`."""
    return tensor([int(d) for d in shape], element_type(dtype))


def _is_type_pair(spec: Any) -> bool:
    return (
        isinstance(spec, tuple | list)
        and len(spec) == 2
        and isinstance(spec[0], tuple | list)
        and not isinstance(spec[1], tuple | list)
    )


def _types(spec: TypeSpec) -> tuple[list[Attribute], bool]:
    """The types a spec names, and whether it names a single one: an xDSL type, a
    (shape, element type) pair, or a list of those."""
    if isinstance(spec, Attribute):
        return [spec], True
    if _is_type_pair(spec):
        return [tensor_type(*spec)], True
    if isinstance(spec, tuple | list):
        return [_types(s)[0][0] for s in spec], False
    raise TypeError(f"not a type: {spec!r} (expected an xDSL type or a (shape, element type) pair)")


def _constant_array(value: Any, dtype: Any) -> np.ndarray:
    """`value` as an array of an XLA element type: of `dtype` when given (Python values
    must convert exactly; arrays are cast), else a numpy array keeps its dtype and
    Python values are PRED, S32, F32 or C64 (XlaBuilder's ConstantR0 defaults)."""
    if dtype is not None:
        t = element_type(dtype)
        if isinstance(value, np.ndarray | np.generic):
            return np.asarray(value).astype(numpy_dtype(t))
        return check_value(value, tensor(np.shape(value), t), "constant")
    if isinstance(value, np.ndarray | np.generic):
        array = np.asarray(value)
        element_type(array.dtype)  # an XLA element type, or a TypeError naming it
        return array
    array = np.asarray(value)
    default = {"b": "pred", "i": "s32", "u": "s32", "f": "f32", "c": "c64"}.get(array.dtype.kind)
    if default is None:
        raise TypeError(f"not a constant: {value!r}")
    return _constant_array(value, default)


def dense_attribute(array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """A dense elements attribute, a splat when every element is the same."""
    element = element_type(array.dtype)
    flat = array.ravel()
    if flat.size > 1 and np.all(flat == flat[0]):
        flat = flat[:1]
    if isinstance(element, ComplexType):
        values: list = [(float(v.real), float(v.imag)) for v in flat]
    elif isinstance(element, IntegerType):  # ml_dtypes' narrow integers are no numpy kind "i"
        values = [int(v) for v in flat]
    else:
        values = flat.astype(np.float64).tolist()
    t = tensor(array.shape, element)
    return DenseIntOrFPElementsAttr.from_list(t, values)


# --------------------------------------------------------------------------------------
# Property values from Python values
# --------------------------------------------------------------------------------------


def property_attribute(cls: type[Operation], name: str, value: Any) -> Attribute:
    """A Python value as the property `name` of `cls`, by its definition: integer lists
    (i64 arrays), lists of integer lists (padding, replica groups), integers, booleans,
    floats, strings, enum spellings, symbol names."""
    if isinstance(value, Attribute):
        return value
    bases = cls.get_irdl_definition().properties[name].constr.get_bases() or set()
    enums = [b for b in bases if issubclass(b, EnumAttribute)]
    if enums:
        enum = enums[0]
        try:
            return enum(enum.enum_type(str(value)))
        except ValueError:
            allowed = ", ".join(e.value for e in enum.enum_type)
            raise ValueError(f"'{value}' is not a valid {name}; expected one of {allowed}") from None
    if DenseArrayBase in bases:
        return i64_array(value)
    if DenseIntOrFPElementsAttr in bases:
        return i64_matrix(value)
    if isinstance(value, bool | np.bool_):
        return BoolAttr.from_bool(bool(value))
    if IntegerAttr in bases:
        return IntegerAttr(int(value), i64)
    if FloatAttr in bases:
        return FloatAttr(float(value), f32)
    if StringAttr in bases:
        return StringAttr(str(value))
    if SymbolRefAttr in bases:
        return SymbolRefAttr(str(value))
    raise TypeError(f"no conversion of {value!r} to property '{name}' of {cls.name}")


def _as_list(values: Any) -> list[Any]:
    return list(values) if isinstance(values, tuple | list) else [values]


# --------------------------------------------------------------------------------------
# The builder
# --------------------------------------------------------------------------------------


class Builder:
    """Builds one function, `func.func @name`, op by op; `build(root)` returns it in a
    ModuleOp. Sub-builders (given to computation callables) build regions."""

    def __init__(self, name: str = "main"):
        self.name = name
        self._module = ModuleOp([])
        self._function = func.FuncOp(name, ((), ()))
        self._module.body.block.add_op(self._function)
        self._block = self._function.body.block
        self._end = xla.ReturnOp.create()
        self._block.add_op(self._end)
        self._parameters: dict[int, SSAValue] = {}
        self._callees: dict[tuple[Any, tuple[Attribute, ...]], str] = {}
        self._top = self
        self._built = False

    def _sub(self, arg_types: Sequence[Attribute]) -> Builder:
        """A builder for a computation region taking `arg_types`."""
        sub = object.__new__(Builder)
        sub.name = self.name
        sub._module, sub._top, sub._built = self._module, self._top, False
        sub._block = Block(arg_types=list(arg_types))
        sub._end = xla.ReturnOp.create()
        sub._block.add_op(sub._end)
        sub._parameters = {}
        sub._function = None
        return sub

    # ---- diagnostics ----------------------------------------------------------------
    @staticmethod
    def _location() -> FileLineColLoc:
        """The first caller outside this module: the user's line and column."""
        frame = sys._getframe(1)
        while frame.f_back is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        line, col = frame.f_lineno, None
        position = next(itertools.islice(frame.f_code.co_positions(), frame.f_lasti // 2, None), None)
        if position is not None and position[0] is not None:
            line, col = position[0], position[2]
        return FileLineColLoc(StringAttr(frame.f_code.co_filename), IntAttr(line), IntAttr((col or 0) + 1))

    def _error(self, op_name: str, message: str) -> ProgramError:
        loc = self._location()
        diagnostic = Diagnostic(loc.filename.data, loc.line.data, loc.column.data, f"'{op_name}' op {message}")
        return ProgramError(str(diagnostic))

    def _check_open(self) -> None:
        if self._top._built:
            raise RuntimeError(f"the builder of @{self.name} has built its module already")

    # ---- creating ops ---------------------------------------------------------------
    def _op(
        self,
        cls: type[Operation],
        operands: Sequence[Any] = (),
        properties: dict[str, Any] | None = None,
        regions: Sequence[Region] = (),
        result_types: Sequence[Attribute] | None = None,
    ) -> Operation:
        """Create, insert and verify one op of `cls`; its result types are
        `result_types`, or the op's own inference."""
        self._check_open()
        try:
            props = {k: property_attribute(cls, k, v) for k, v in (properties or {}).items() if v is not None}
        except ValueError as e:
            raise self._error(cls.name, str(e)) from None
        for group in operands:
            for v in _as_list(group):
                if not isinstance(v, SSAValue):
                    raise TypeError(f"{cls.name}: operands must be values of this builder, got {v!r}")
        placeholders = [[] if isinstance(d, VariadicDef) else PRED_SCALAR for _, d in cls.get_irdl_definition().results]
        probe = cls.build(operands=list(operands), result_types=placeholders, properties=props, regions=list(regions))
        probe.location = self._location()
        if result_types is None:
            try:
                result_types = probe.infer_result_types()  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - the verifier names what is wrong
                result_types = None
            if result_types is None:
                self._insert_verified(probe)  # raises with the verifier's message
                self._block.detach_op(probe)
                probe.erase(safe_erase=False)
                raise self._error(cls.name, "cannot infer the result types")
        op = cls.create(
            operands=probe.operands,
            result_types=list(result_types),
            properties=dict(probe.properties),
            regions=[probe.detach_region(r) for r in list(probe.regions)],
            location=probe.location,
        )
        probe.erase()
        self._insert_verified(op)
        return op

    def _insert_verified(self, op: Operation) -> None:
        # before the placeholder terminator (`_end`), which keeps every block well-formed
        self._block.insert_op_before(op, self._end)
        diagnostics = verify_module(op, "<builder>")
        if diagnostics:
            self._block.detach_op(op)
            op.erase(safe_erase=False)
            raise ProgramError("\n".join(map(str, diagnostics)))

    def _one(self, cls: type[Operation], operands: Sequence[Any] = (), properties=None, regions=(), result_types=None):
        return self._op(cls, operands, properties, regions, result_types).results[0]

    @staticmethod
    def _results(op: Operation, single: bool) -> Any:
        return op.results[0] if single else tuple(op.results)

    def _computation(
        self, fn: Callable[..., Any], arg_types: Sequence[Attribute], terminator: type[Operation] = xla.ReturnOp
    ) -> Region:
        """The region of a computation: `fn(sub_builder, *parameters)` returns its result(s)."""
        sub = self._sub(arg_types)
        sub._finish(_as_list(fn(sub, *sub._block.args)), terminator)
        return Region(sub._block)

    def _finish(self, values: list[Any], terminator: type[Operation]) -> None:
        """End the block: the placeholder terminator becomes `terminator(values)` (the op
        that owns the block verifies its signature)."""
        for v in values:
            if not isinstance(v, SSAValue):
                raise TypeError(f"a computation returns values of its builder, got {v!r}")
        self._block.erase_op(self._end)
        self._block.add_op(terminator.create(operands=values))
        self._block.last_op.location = self._location()

    def _value(self, value: Any, like: SSAValue | None = None) -> SSAValue:
        """A value, or a Python/numpy constant of `like`'s element type."""
        if isinstance(value, SSAValue):
            return value
        dtype = numpy_dtype(elem_of(like.type)) if like is not None and isinstance(like.type, TensorType) else None
        return self.constant(value, dtype)

    def _pair(self, lhs: Any, rhs: Any) -> tuple[SSAValue, SSAValue]:
        """A binary op's operands: a Python number takes the other operand's element type."""
        lhs = self._value(lhs, rhs if isinstance(rhs, SSAValue) else None)
        return lhs, self._value(rhs, lhs)

    # ---- parameters, constants, the result ------------------------------------------
    def parameter(self, number: int, shape: Sequence[int] | Attribute, dtype: Any = None, name: str | None = None):
        """Parameter: argument `number` of the function, of shape and element type (or
        an xDSL type: a tuple, a token); `name` names it in the printed IR."""
        self._check_open()
        if self._function is None:
            raise TypeError("a computation's parameters are the arguments of its callable")
        if number in self._parameters:
            raise self._error("func.func", f"parameter {number} is declared twice")
        if not isinstance(shape, Attribute) and dtype is None:
            raise TypeError(f'parameter {number}: give its element type ("f32", np.int32...) or an xDSL type')
        t = shape if isinstance(shape, Attribute) else tensor_type(shape, dtype)
        position = sum(n < number for n in self._parameters)
        arg = self._block.insert_arg(t, position)
        if name is not None:
            arg.name_hint = name
        self._parameters[number] = arg
        return arg

    def constant(self, value: Any, dtype: Any = None) -> SSAValue:
        """ConstantLiteral: a Python scalar, (nested) list or numpy array; of `dtype` when
        given, else numpy's dtype, or PRED/S32/F32/C64 for Python values."""
        try:
            array = _constant_array(value, dtype)
        except (TypeError, ValueError) as e:
            raise self._error("xla.constant", str(e)) from None
        attr = dense_attribute(array)
        return self._one(xla.ConstantOp, [], {"value": attr}, result_types=[attr.get_type()])

    def build(self, *roots: Any) -> ModuleOp:
        """The module: `func.func @name` returning `roots` (one value, several, or a
        list/tuple of values), verified."""
        self._check_open()
        if self._function is None:
            raise TypeError("a computation returns from its callable; build() is for the top builder")
        numbers = sorted(self._parameters)
        if numbers != list(range(len(numbers))):
            missing = min(set(range(len(numbers) + 1)) - set(numbers))
            raise self._error("func.func", f"parameters must be numbered 0 to {len(numbers) - 1}; {missing} is missing")
        values = [v for root in roots for v in _as_list(root)]
        self._finish(values, func.ReturnOp)
        self._function.function_type = FunctionType.from_lists(
            [a.type for a in self._block.args], [v.type for v in values]
        )
        self._built = True
        diagnostics = verify_module(self._module, "<builder>")
        if diagnostics:
            raise ProgramError("\n".join(map(str, diagnostics)))
        return self._module

    # ---- element-wise ---------------------------------------------------------------
    def compare(self, lhs, rhs, direction: str, compare_type: str | None = None, broadcast_dimensions=None):
        """Compare: lhs <direction> rhs into PRED (EQ, NE, GE, GT, LE, LT; compare type
        FLOAT, TOTALORDER, SIGNED, UNSIGNED, by default the element type's)."""
        lhs, rhs = self._pair(lhs, rhs)
        properties = {
            "comparison_direction": direction,
            "compare_type": compare_type,
            "broadcast_dimensions": broadcast_dimensions,
        }
        return self._one(xla.CompareOp, [lhs, rhs], properties)

    def select(self, pred, on_true, on_false):
        """Select: on_true where pred, else on_false."""
        return self._one(xla.SelectOp, [pred, on_true, on_false])

    def clamp(self, min, operand, max):
        """Clamp: min(max(operand, min), max)."""
        return self._one(xla.ClampOp, [self._value(min, operand), operand, self._value(max, operand)])

    def iota(self, shape: Sequence[int], dtype: Any, iota_dimension: int = 0):
        """Iota: 0, 1, 2... along iota_dimension of a result of `shape` and `dtype`."""
        t = tensor_type(shape, dtype)
        return self._one(xla.IotaOp, [], {"iota_dimension": iota_dimension}, result_types=[t])

    def convert_element_type(self, operand, new_element_type: Any):
        """ConvertElementType: element-wise conversion, the shape kept."""
        t = tensor(shape_of(operand.type), element_type(new_element_type))
        return self._one(xla.ConvertOp, [operand], result_types=[t])

    def bitcast_convert_type(self, operand, new_element_type: Any):
        """BitcastConvertType: the bits reinterpreted (a minor dimension added or
        dropped between widths)."""
        new = element_type(new_element_type)
        try:
            shape = bitcast_convert_shape(shape_of(operand.type), bit_width(elem_of(operand.type)), bit_width(new))
        except ShapeError as e:
            raise self._error(xla.BitcastConvertOp.name, str(e)) from None
        return self._one(xla.BitcastConvertOp, [operand], result_types=[tensor(shape, new)])

    def reduce_precision(self, operand, exponent_bits: int, mantissa_bits: int):
        """ReducePrecision: rounds to exponent_bits and mantissa_bits."""
        properties = {"exponent_bits": exponent_bits, "mantissa_bits": mantissa_bits}
        return self._one(xla.ReducePrecisionOp, [operand], properties)

    # ---- shapes ---------------------------------------------------------------------
    def broadcast(self, operand, broadcast_sizes: Sequence[int]):
        """Broadcast: new dimensions broadcast_sizes on the left."""
        return self._one(xla.BroadcastOp, [operand], {"broadcast_sizes": broadcast_sizes})

    def broadcast_in_dim(self, operand, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int]):
        """BroadcastInDim: operand dimension i becomes result dimension
        broadcast_dimensions[i] of a result of shape out_dim_size."""
        t = tensor(out_dim_size, elem_of(operand.type))
        return self._one(
            xla.BroadcastInDimOp, [operand], {"broadcast_dimensions": broadcast_dimensions}, result_types=[t]
        )

    def reshape(self, operand, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None):
        """Reshape: to new_sizes, collapsing the operand's dimensions in `dimensions`
        order (default: in order)."""
        t = tensor(new_sizes, elem_of(operand.type))
        return self._one(xla.ReshapeOp, [operand], {"dimensions": dimensions}, result_types=[t])

    def collapse(self, operand, dimensions: Sequence[int]):
        """Collapse: consecutive dimensions become one."""
        return self._one(xla.CollapseOp, [operand], {"dimensions": dimensions})

    def transpose(self, operand, permutation: Sequence[int]):
        """Transpose: result dimension i is operand dimension permutation[i]."""
        return self._one(xla.TransposeOp, [operand], {"permutation": permutation})

    def rev(self, operand, dimensions: Sequence[int]):
        """Rev: the order of elements along `dimensions` reversed."""
        return self._one(xla.ReverseOp, [operand], {"dimensions": dimensions})

    def slice(self, operand, start_indices, limit_indices, strides=None):
        """Slice: [start, limit) by stride (default 1) along every dimension."""
        strides = strides if strides is not None else [1] * len(start_indices)
        properties = {"start_indices": start_indices, "limit_indices": limit_indices, "strides": strides}
        return self._one(xla.SliceOp, [operand], properties)

    def _start_indices(self, start_indices: Sequence[Any]) -> list[SSAValue]:
        """Start indices as values: Python integers become S32 scalars."""
        return [v if isinstance(v, SSAValue) else self.constant(v, "s32") for v in start_indices]

    def dynamic_slice(self, operand, start_indices: Sequence[Any], slice_sizes: Sequence[int]):
        """DynamicSlice: a slice of slice_sizes at run-time (clamped) start indices."""
        indices = self._start_indices(start_indices)
        return self._one(xla.DynamicSliceOp, [operand, indices], {"slice_sizes": slice_sizes})

    def dynamic_update_slice(self, operand, update, start_indices: Sequence[Any]):
        """DynamicUpdateSlice: `update` written into operand at (clamped) start indices."""
        return self._one(xla.DynamicUpdateSliceOp, [operand, update, self._start_indices(start_indices)])

    def concat_in_dim(self, operands: Sequence[Any], dimension: int):
        """ConcatInDim: the operands joined along `dimension`."""
        return self._one(xla.ConcatenateOp, [list(operands)], {"dimension": dimension})

    def pad(self, operand, padding_value, padding_config: Sequence[Sequence[int]]):
        """Pad: one (low, high, interior) triple per dimension."""
        config = [tuple(c) for c in padding_config]
        properties = {
            "edge_padding_low": [c[0] for c in config],
            "edge_padding_high": [c[1] for c in config],
            "interior_padding": [c[2] if len(c) > 2 else 0 for c in config],
        }
        return self._one(xla.PadOp, [operand, self._value(padding_value, operand)], properties)

    def get_dimension_size(self, operand, dimension: int):
        """GetDimensionSize: the size of `dimension`, a tensor<i32>."""
        return self._one(xla.GetDimensionSizeOp, [operand], {"dimension": dimension})

    def set_dimension_size(self, operand, size, dimension: int):
        """SetDimensionSize: `size` (a tensor<i32>) becomes the dynamic size of `dimension`."""
        return self._one(xla.SetDimensionSizeOp, [operand, self._value(size, None)], {"dimension": dimension})

    def tuple(self, elements: Sequence[SSAValue]):
        """Tuple: one value of type tuple<...> holding `elements`."""
        return self._one(xla.TupleOp, [list(elements)])

    def get_tuple_element(self, tuple_value, index: int):
        """GetTupleElement: element `index` of a tuple."""
        return self._one(xla.GetTupleElementOp, [tuple_value], {"index": index})

    def optimization_barrier(self, operands):
        """OptimizationBarrier: the operands, unchanged, as a barrier to code motion."""
        return self._results(self._op(xla.OptimizationBarrierOp, [_as_list(operands)]), isinstance(operands, SSAValue))

    # ---- linear algebra -------------------------------------------------------------
    def dot(self, lhs, rhs):
        """Dot: vector/matrix products over lhs's last and rhs's first dimension."""
        return self._one(xla.DotOp, [lhs, rhs])

    def dot_general(
        self,
        lhs,
        rhs,
        lhs_contracting_dimensions: Sequence[int] = (),
        rhs_contracting_dimensions: Sequence[int] = (),
        lhs_batch_dimensions: Sequence[int] = (),
        rhs_batch_dimensions: Sequence[int] = (),
    ):
        """DotGeneral: contracting and batch dimensions; the result holds the batch
        dimensions, then lhs's free ones, then rhs's."""
        properties = {
            "lhs_contracting_dimensions": lhs_contracting_dimensions,
            "rhs_contracting_dimensions": rhs_contracting_dimensions,
            "lhs_batching_dimensions": lhs_batch_dimensions,
            "rhs_batching_dimensions": rhs_batch_dimensions,
        }
        return self._one(xla.DotGeneralOp, [lhs, rhs], properties)

    def conv_general_dilated(
        self,
        lhs,
        rhs,
        window_strides: Sequence[int],
        padding: str | Sequence[Sequence[int]],
        lhs_dilation: Sequence[int] | None = None,
        rhs_dilation: Sequence[int] | None = None,
        dimension_numbers: ConvDimensionNumbers | None = None,
        feature_group_count: int = 1,
        batch_group_count: int = 1,
    ):
        """ConvGeneralDilated: `padding` is "SAME", "VALID" or (low, high) pairs;
        dimension_numbers default to XLA's (input [b, f, spatial...], kernel
        [o, i, spatial...], output [b, f, spatial...])."""
        n = len(shape_of(lhs.type)) - 2
        dn = dimension_numbers or ConvDimensionNumbers(
            0, 1, tuple(range(2, n + 2)), 1, 0, tuple(range(2, n + 2)), 0, 1, tuple(range(2, n + 2))
        )
        if isinstance(padding, str):
            base = [shape_of(lhs.type)[d] for d in dn.input_spatial]
            window = [
                dilated_size(shape_of(rhs.type)[d], (rhs_dilation or [1] * n)[i])
                for i, d in enumerate(dn.kernel_spatial)
            ]
            padding = self._padding(xla.ConvolutionOp.name, padding, base, window, window_strides)
        properties = {
            "window_strides": window_strides,
            "padding": padding,
            "lhs_dilation": lhs_dilation,
            "rhs_dilation": rhs_dilation,
            "feature_group_count": feature_group_count,
            "batch_group_count": batch_group_count,
            "input_batch_dimension": dn.input_batch,
            "input_feature_dimension": dn.input_feature,
            "input_spatial_dimensions": dn.input_spatial,
            "kernel_input_feature_dimension": dn.kernel_input_feature,
            "kernel_output_feature_dimension": dn.kernel_output_feature,
            "kernel_spatial_dimensions": dn.kernel_spatial,
            "output_batch_dimension": dn.output_batch,
            "output_feature_dimension": dn.output_feature,
            "output_spatial_dimensions": dn.output_spatial,
        }
        return self._one(xla.ConvolutionOp, [lhs, rhs], properties)

    def _padding(self, op_name: str, padding: str, base, window, strides) -> tuple[tuple[int, int], ...]:
        """Padding::kSame / kValid as explicit (low, high) pairs (shapes/reductions.py)."""
        try:
            if padding.upper() == "VALID":
                return valid_padding(len(base))
            if padding.upper() == "SAME":
                return same_padding(tuple(base), window, strides or [1] * len(base))
        except ShapeError as e:
            raise self._error(op_name, str(e)) from None
        raise self._error(op_name, f"padding '{padding}' must be SAME, VALID or (low, high) pairs")

    def fft(self, operand, fft_type: str, fft_length: Sequence[int]):
        """Fft: FFT, IFFT, RFFT or IRFFT over the innermost axes of lengths fft_length."""
        return self._one(xla.FftOp, [operand], {"fft_type": fft_type, "fft_length": fft_length})

    def cholesky(self, a, lower: bool = False):
        """Cholesky: the lower or upper triangular factor of each matrix."""
        return self._one(xla.CholeskyOp, [a], {"lower": lower})

    def triangular_solve(self, a, b, left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: str):
        """TriangularSolve: x with op(a) x = b (left_side) or x op(a) = b."""
        properties = {
            "left_side": left_side,
            "lower": lower,
            "unit_diagonal": unit_diagonal,
            "transpose_a": transpose_a,
        }
        return self._one(xla.TriangularSolveOp, [a, b], properties)

    # ---- computations: reductions, sort, map, scatter -------------------------------
    def _inputs_and_inits(self, operands, init_values) -> tuple[list[SSAValue], list[SSAValue]]:
        """A reduction's inputs and init values (Python numbers as scalars of their input's type)."""
        inputs = _as_list(operands)
        return inputs, [self._value(v, x) for v, x in zip(_as_list(init_values), inputs)]

    def reduce(self, operands, init_values, computation: Callable[..., Any], dimensions: Sequence[int]):
        """Reduce: `dimensions` folded by computation(builder, *accumulators, *elements)."""
        inputs, inits = self._inputs_and_inits(operands, init_values)
        scalars = [scalar_of(x.type) for x in inputs]
        region = self._computation(computation, scalars * 2)
        op = self._op(xla.ReduceOp, [inputs, inits], {"dimensions": dimensions}, [region])
        return self._results(op, isinstance(operands, SSAValue))

    def reduce_window(
        self,
        operands,
        init_values,
        computation: Callable[..., Any],
        window_dimensions: Sequence[int],
        window_strides: Sequence[int] | None = None,
        padding: str | Sequence[Sequence[int]] | None = None,
        base_dilations: Sequence[int] | None = None,
        window_dilations: Sequence[int] | None = None,
    ):
        """ReduceWindow: each window reduced by computation; `padding` is "SAME",
        "VALID" or (low, high) pairs."""
        inputs, inits = self._inputs_and_inits(operands, init_values)
        if isinstance(padding, str):
            base = shape_of(inputs[0].type)
            window = [dilated_size(w, d) for w, d in zip(window_dimensions, window_dilations or [1] * len(base))]
            padding = self._padding(xla.ReduceWindowOp.name, padding, base, window, window_strides)
        scalars = [scalar_of(x.type) for x in inputs]
        region = self._computation(computation, scalars * 2)
        properties = {
            "window_dimensions": window_dimensions,
            "window_strides": window_strides,
            "base_dilations": base_dilations,
            "window_dilations": window_dilations,
            "padding": padding,
        }
        op = self._op(xla.ReduceWindowOp, [inputs, inits], properties, [region])
        return self._results(op, isinstance(operands, SSAValue))

    def select_and_scatter(
        self,
        operand,
        select: Callable[..., Any],
        window_dimensions: Sequence[int],
        window_strides: Sequence[int] | None,
        padding: str | Sequence[Sequence[int]] | None,
        source,
        init_value,
        scatter: Callable[..., Any],
    ):
        """SelectAndScatter: select(builder, a, b) -> PRED picks an element per window,
        scatter(builder, a, b) adds the source value there."""
        if isinstance(padding, str):
            shape = shape_of(operand.type)
            padding = self._padding(xla.SelectAndScatterOp.name, padding, shape, window_dimensions, window_strides)
        scalar = scalar_of(operand.type)
        regions = [self._computation(select, [scalar, scalar]), self._computation(scatter, [scalar, scalar])]
        properties = {"window_dimensions": window_dimensions, "window_strides": window_strides, "padding": padding}
        operands = [operand, source, self._value(init_value, operand)]
        return self._one(xla.SelectAndScatterOp, operands, properties, regions)

    def sort(
        self, operands, comparator: Callable[..., Any] | None = None, dimension: int = -1, is_stable: bool = False
    ):
        """Sort: along `dimension` (-1: the last) by comparator(builder, lhs_0, rhs_0,
        lhs_1, rhs_1, ...) -> PRED; by default ascending on the first operand."""
        inputs = _as_list(operands)
        if comparator is None:
            comparator = _ascending
        pairs = [s for x in inputs for s in (scalar_of(x.type),) * 2]
        region = self._computation(comparator, pairs)
        properties = {"dimension": None if dimension == -1 else dimension, "is_stable": is_stable or None}
        op = self._op(xla.SortOp, [inputs], properties, [region])
        return self._results(op, isinstance(operands, SSAValue))

    def map(self, operands, computation: Callable[..., Any], dimensions: Sequence[int] | None = None):
        """Map: computation(builder, *elements) applied at every index."""
        inputs = _as_list(operands)
        region = self._computation(computation, [scalar_of(x.type) for x in inputs])
        if dimensions is None:
            dimensions = range(len(shape_of(inputs[0].type)))
        return self._one(xla.MapOp, [inputs], {"dimensions": list(dimensions)}, [region])

    def gather(
        self,
        operand,
        start_indices,
        offset_dims: Sequence[int],
        collapsed_slice_dims: Sequence[int],
        start_index_map: Sequence[int],
        index_vector_dim: int,
        slice_sizes: Sequence[int],
        indices_are_sorted: bool = False,
    ):
        """Gather: slices of slice_sizes at start_indices, stitched together."""
        properties = {
            "offset_dims": offset_dims,
            "collapsed_slice_dims": collapsed_slice_dims,
            "start_index_map": start_index_map,
            "index_vector_dim": index_vector_dim,
            "slice_sizes": slice_sizes,
            "indices_are_sorted": indices_are_sorted or None,
        }
        return self._one(xla.GatherOp, [operand, start_indices], properties)

    def scatter(
        self,
        operands,
        scatter_indices,
        updates,
        update_computation: Callable[..., Any],
        update_window_dims: Sequence[int],
        inserted_window_dims: Sequence[int],
        scatter_dims_to_operand_dims: Sequence[int],
        index_vector_dim: int,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
    ):
        """Scatter: update_computation(builder, *currents, *updates) applied at the
        windows scatter_indices select."""
        inputs = _as_list(operands)
        scalars = [scalar_of(x.type) for x in inputs]
        region = self._computation(update_computation, scalars * 2)
        properties = {
            "update_window_dims": update_window_dims,
            "inserted_window_dims": inserted_window_dims,
            "scatter_dims_to_operand_dims": scatter_dims_to_operand_dims,
            "index_vector_dim": index_vector_dim,
            "indices_are_sorted": indices_are_sorted or None,
            "unique_indices": unique_indices or None,
        }
        op = self._op(xla.ScatterOp, [inputs, scatter_indices, _as_list(updates)], properties, [region])
        return self._results(op, isinstance(operands, SSAValue))

    # ---- control flow ---------------------------------------------------------------
    def while_(self, condition: Callable[..., Any], body: Callable[..., Any], init):
        """While: body(builder, *state) -> state while condition(builder, *state) -> PRED."""
        state = _as_list(init)
        types = [v.type for v in state]
        regions = [self._computation(condition, types), self._computation(body, types)]
        return self._results(self._op(xla.WhileOp, [state], regions=regions), isinstance(init, SSAValue))

    def conditional(self, branch_index, branch_computations: Sequence[Callable[..., Any]], branch_operands):
        """Conditional: a PRED index runs the first (true) or second (false) branch, an
        S32 index branch_computations[index] (the last when out of range); branch b
        is called as fn(builder, branch_operands[b])."""
        operands = list(branch_operands)
        regions = [self._computation(fn, [v.type]) for fn, v in zip(branch_computations, operands)]
        # the results are what the branches return (the verifier checks they agree)
        outputs = region_signature(regions[0])[1] if regions else []
        op = self._op(xla.ConditionalOp, [branch_index, operands], regions=[regions], result_types=outputs)
        return self._results(op, len(op.results) == 1)

    def call(self, computation: Callable[..., Any] | str, *operands):
        """Call: the computation, a function of the module built from the callable
        (once per callable and argument types) or named."""
        if callable(computation):
            computation = self._callee(computation, [v.type for v in operands])
        callee = self._top._module.body.block
        target = next((f for f in callee.ops if isinstance(f, func.FuncOp) and f.sym_name.data == computation), None)
        outputs = list(target.function_type.outputs) if target is not None else []
        op = self._op(xla.CallOp, [list(operands)], {"callee": computation}, result_types=outputs)
        return self._results(op, len(op.results) == 1)

    def _callee(self, fn: Callable[..., Any], arg_types: list[Attribute]) -> str:
        key = (fn, tuple(arg_types))
        top = self._top
        if key in top._callees:
            return top._callees[key]
        names = {f.sym_name.data for f in top._module.body.block.ops if isinstance(f, func.FuncOp)}
        base = getattr(fn, "__name__", "computation").strip("<>") or "computation"
        candidates = itertools.chain([base], (f"{base}_{i}" for i in itertools.count(1)))
        name = next(n for n in candidates if n not in names)
        region = self._computation(fn, arg_types, func.ReturnOp)
        outputs = [v.type for v in region.block.last_op.operands]
        function = func.FuncOp(name, (arg_types, outputs), region, visibility="private")
        top._module.body.block.add_op(function)
        top._callees[key] = name
        return name

    # ---- batch normalization, random numbers, custom calls --------------------------
    def batch_norm_training(self, operand, scale, offset, epsilon: float, feature_index: int):
        """BatchNormTraining: (output, batch_mean, batch_var)."""
        properties = {"epsilon": epsilon, "feature_index": feature_index}
        return tuple(self._op(xla.BatchNormTrainingOp, [operand, scale, offset], properties).results)

    def batch_norm_inference(self, operand, scale, offset, mean, variance, epsilon: float, feature_index: int):
        """BatchNormInference: the operand normalized with the given mean and variance."""
        properties = {"epsilon": epsilon, "feature_index": feature_index}
        return self._one(xla.BatchNormInferenceOp, [operand, scale, offset, mean, variance], properties)

    def batch_norm_grad(self, operand, scale, mean, variance, grad_output, epsilon: float, feature_index: int):
        """BatchNormGrad: (grad_operand, grad_scale, grad_offset)."""
        properties = {"epsilon": epsilon, "feature_index": feature_index}
        operands = [operand, scale, mean, variance, grad_output]
        return tuple(self._op(xla.BatchNormGradOp, operands, properties).results)

    def rng_normal(self, mu, sigma, shape: Sequence[int]):
        """RngNormal: samples of N(mu, sigma) of `shape`."""
        t = tensor(shape, elem_of(mu.type))
        return self._one(xla.RngNormalOp, [mu, sigma], result_types=[t])

    def rng_uniform(self, a, b, shape: Sequence[int]):
        """RngUniform: samples of U[a, b) of `shape`."""
        t = tensor(shape, elem_of(a.type))
        return self._one(xla.RngUniformOp, [a, b], result_types=[t])

    def rng_bit_generator(self, algorithm: str, initial_state, shape: Sequence[int], dtype: Any = "u32"):
        """RngBitGenerator: (new state, random bits of `shape` and `dtype`)."""
        types = [initial_state.type, tensor_type(shape, dtype)]
        op = self._op(xla.RngBitGeneratorOp, [initial_state], {"rng_algorithm": algorithm}, result_types=types)
        return tuple(op.results)

    def custom_call(
        self,
        call_target_name: str,
        operands: Sequence[SSAValue],
        result_type: TypeSpec,
        backend_config: str | None = None,
        has_side_effect: bool = False,
    ):
        """CustomCall: calls the target with the operands; result_type is one type (or
        (shape, element type) pair) or a list of them."""
        types, single = _types(result_type)
        properties = {
            "call_target_name": call_target_name,
            "backend_config": backend_config,
            "has_side_effect": has_side_effect or None,
        }
        op = self._op(xla.CustomCallOp, [list(operands)], properties, result_types=types)
        return self._results(op, single)

    # ---- tokens and host transfers --------------------------------------------------
    def after_all(self, *tokens):
        """AfterAll: a token ordered after `tokens` (none: a fresh token)."""
        return self._one(xla.AfterAllOp, [list(tokens)], result_types=[TokenType()])

    create_token = after_all

    def infeed(self, token, result_type: TypeSpec, config: str | None = None):
        """Infeed: (data..., token) read from the infeed queue after `token`."""
        types, _ = _types(result_type)
        op = self._op(xla.InfeedOp, [token], {"infeed_config": config}, result_types=[*types, TokenType()])
        return tuple(op.results)

    def outfeed(self, operands, token, config: str | None = None):
        """Outfeed: writes the operands to the outfeed queue after `token`; a token."""
        properties = {"outfeed_config": config}
        return self._one(xla.OutfeedOp, [_as_list(operands), token], properties, result_types=[TokenType()])

    def send(self, operands, token, channel_id: int, is_host_transfer: bool = False):
        """Send: the operands to the Recv of channel_id, after `token`; a token."""
        properties = {"channel_id": channel_id, "is_host_transfer": is_host_transfer or None}
        return self._one(xla.SendOp, [_as_list(operands), token], properties, result_types=[TokenType()])

    def recv(self, token, result_type: TypeSpec, channel_id: int, is_host_transfer: bool = False):
        """Recv: (data..., token) from the Send of channel_id, after `token`."""
        types, _ = _types(result_type)
        properties = {"channel_id": channel_id, "is_host_transfer": is_host_transfer or None}
        return tuple(self._op(xla.RecvOp, [token], properties, result_types=[*types, TokenType()]).results)

    # ---- collectives ----------------------------------------------------------------
    def replica_id(self):
        """ReplicaId: this replica's id, a U32 scalar."""
        return self._one(xla.ReplicaIdOp)

    def all_reduce(self, operands, computation: Callable[..., Any], replica_groups=(), channel_id: int | None = None):
        """AllReduce: the operands reduced across replicas by computation(builder, a, b)."""
        inputs = _as_list(operands)
        region = self._computation(computation, [scalar_of(inputs[0].type)] * 2)
        properties = {"replica_groups": [list(g) for g in replica_groups], "channel_id": channel_id}
        op = self._op(xla.AllReduceOp, [inputs], properties, [region])
        return self._results(op, isinstance(operands, SSAValue))

    def cross_replica_sum(self, operands, replica_groups=()):
        """CrossReplicaSum: an all_reduce that adds."""
        return self.all_reduce(operands, lambda c, a, b: c.add(a, b), replica_groups)

    def _group_size_given(self, op_name: str, shard_count, replica_groups) -> None:
        if shard_count is None and not replica_groups:
            message = "the result shape depends on the group size: give replica_groups or shard_count"
            raise self._error(op_name, message)

    def all_gather(self, operand, all_gather_dim: int, shard_count=None, replica_groups=(), channel_id=None):
        """AllGather: the group's operands concatenated along all_gather_dim."""
        self._group_size_given(xla.AllGatherOp.name, shard_count, replica_groups)
        properties = {
            "all_gather_dim": all_gather_dim,
            "shard_count": shard_count,
            "replica_groups": [list(g) for g in replica_groups],
            "channel_id": channel_id,
        }
        return self._one(xla.AllGatherOp, [operand], properties)

    def reduce_scatter(
        self, operand, computation, scatter_dimension: int, shard_count=None, replica_groups=(), channel_id=None
    ):
        """ReduceScatter: an all_reduce whose result is split along scatter_dimension."""
        self._group_size_given(xla.ReduceScatterOp.name, shard_count, replica_groups)
        region = self._computation(computation, [scalar_of(operand.type)] * 2)
        properties = {
            "scatter_dimension": scatter_dimension,
            "shard_count": shard_count,
            "replica_groups": [list(g) for g in replica_groups],
            "channel_id": channel_id,
        }
        return self._one(xla.ReduceScatterOp, [operand], properties, [region])

    def all_to_all(self, operand, split_dimension: int, concat_dimension: int, split_count: int, replica_groups=()):
        """AllToAll: split_count blocks scattered over the group and concatenated."""
        properties = {
            "split_dimension": split_dimension,
            "concat_dimension": concat_dimension,
            "split_count": split_count,
            "replica_groups": [list(g) for g in replica_groups],
        }
        return self._one(xla.AllToAllOp, [operand], properties)

    def collective_permute(self, operand, source_target_pairs, channel_id: int | None = None):
        """CollectivePermute: the operand sent along [source, target] pairs."""
        properties = {"source_target_pairs": [list(p) for p in source_target_pairs], "channel_id": channel_id}
        return self._one(xla.CollectivePermuteOp, [operand], properties)

    # Our op names for the methods spelled after XlaBuilder.
    convolution = conv = conv_general_dilated
    reverse = rev
    concatenate = concat_in_dim
    convert = convert_element_type
    bitcast_convert = bitcast_convert_type


def _ascending(b: Builder, lhs: SSAValue, rhs: SSAValue, *_rest: SSAValue) -> SSAValue:
    """Sort's default comparator: lhs < rhs on the first operand."""
    return b.compare(lhs, rhs, "LT")


# --------------------------------------------------------------------------------------
# The element-wise families, from the dialect's tables
# --------------------------------------------------------------------------------------

# XlaBuilder's spellings (operation_semantics) of the ops whose names differ.
XLA_BUILDER_NAMES = {
    "cosine": "cos",
    "sine": "sin",
    "exponential": "exp",
    "exponential_minus_one": "expm1",
    "log_plus_one": "log1p",
    "negate": "neg",
    "popcnt": "population_count",
    "count_leading_zeros": "clz",
    "round_nearest_afz": "round",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "div",
    "remainder": "rem",
    "maximum": "max",
    "minimum": "min",
    "power": "pow",
}


def _method_names(op_cls: type[Operation]) -> list[str]:
    """The op's name (`and_` for a Python keyword) and its XlaBuilder spelling."""
    name = op_cls.name.removeprefix("xla.")
    names = [f"{name}_" if keyword.iskeyword(name) else name]
    if name in XLA_BUILDER_NAMES:
        names.append(XLA_BUILDER_NAMES[name])
    return names


def _unary_method(op_cls: type[Operation]) -> Callable[..., SSAValue]:
    def method(self: Builder, operand: SSAValue) -> SSAValue:
        return self._one(op_cls, [operand])

    return method


def _binary_method(op_cls: type[Operation]) -> Callable[..., SSAValue]:
    def method(self: Builder, lhs: Any, rhs: Any, broadcast_dimensions: Sequence[int] | None = None) -> SSAValue:
        lhs, rhs = self._pair(lhs, rhs)
        return self._one(op_cls, [lhs, rhs], {"broadcast_dimensions": broadcast_dimensions})

    return method


def _compare_method(direction: str, compare_type: str | None) -> Callable[..., SSAValue]:
    def method(self: Builder, lhs: Any, rhs: Any, broadcast_dimensions: Sequence[int] | None = None) -> SSAValue:
        return self.compare(lhs, rhs, direction, compare_type, broadcast_dimensions)

    method.__doc__ = f"Compare {direction}" + (f" ({compare_type})" if compare_type else "") + ": a PRED result."
    return method


def _install_elementwise_methods() -> None:
    families = [(op, _unary_method(op)) for op in UNARY_OPS] + [(op, _binary_method(op)) for op in BINARY_OPS]
    for op_cls, method in families:
        method.__doc__ = op_cls.__doc__
        for name in _method_names(op_cls):
            setattr(Builder, name, method)
    for direction in ComparisonDirection:
        setattr(Builder, direction.value.lower(), _compare_method(direction.value, None))
        setattr(Builder, f"{direction.value.lower()}_total_order", _compare_method(direction.value, "TOTALORDER"))


_install_elementwise_methods()
