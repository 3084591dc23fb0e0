"""Ops that carry computations (reduce, reduce_window, select_and_scatter, sort, map) and
control flow (while, conditional, call).

XLA's computations are separate functions that see only their parameters, so every
computation region here is isolated from above and takes rank-0 tensors for scalars:

    %s = xla.reduce %x, %zero, dimensions = [1] body {
    ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
      %t = xla.add %acc, %v : tensor<f32>
      xla.return %t : tensor<f32>
    } : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    SymbolRefAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import (
    IsolatedFromAbove,
    RecursiveMemoryEffect,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from xla_opt.dialects.shapes.control_flow import (
    check_map_dimensions,
    common_shape,
    reduce_shape,
    reduce_window_shape,
    select_and_scatter_source_shape,
    sort_dimension,
)

from .base import XlaOp, elem_of, int_matrix, ints, shape_of, tensor
from .computation import fmt_types, region_signature, verify_computation

PRED_SCALAR = tensor((), i1)


def scalar_of(t: Attribute) -> TensorType:
    """The rank-0 tensor a computation receives for one element of `t`."""
    return tensor((), elem_of(t))


def _types(values: Sequence[SSAValue]) -> list[Attribute]:
    return [v.type for v in values]


def _padding_pairs(attr: DenseIntOrFPElementsAttr | None) -> list[tuple[int, ...]] | None:
    """The [low, high] rows of a padding property (None when absent)."""
    if attr is None:
        return None
    if attr.get_element_type() != i64 or len(attr.get_shape() or ()) != 2:
        raise VerifyException(f"padding must be an i64 matrix of [low, high] rows, got {attr}")
    return int_matrix(attr)


def _input_shape(inputs: Sequence[SSAValue]) -> tuple[int, ...]:
    """The one shape of a variadic operand group (inputs of reduce, sort, map...)."""
    return common_shape([shape_of(v.type) for v in inputs], "inputs")


def _optional_ints(attr: DenseArrayBase | None) -> tuple[int, ...] | None:
    return None if attr is None else ints(attr)


def _check_init_values(inputs: Sequence[SSAValue], init_values: Sequence[SSAValue]) -> None:
    """N inputs with N init values, init_values[i] a scalar of inputs[i]'s type."""
    if len(init_values) != len(inputs):
        raise VerifyException(
            f"expects one init value per input, got {len(inputs)} inputs and "
            f"{len(init_values)} init_values"
        )
    for i, (x, init) in enumerate(zip(inputs, init_values, strict=True)):
        if init.type != scalar_of(x.type):
            raise VerifyException(
                f"init_values #{i} must be {scalar_of(x.type)}, a scalar of input #{i}'s "
                f"element type, got {init.type}"
            )


# --------------------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------------------


class ReductionOp(XlaOp):
    """N >= 1 inputs of one shape reduced with N init values by a `body` computation
    (accumulators then inputs, 2N scalars -> N scalars) into N results."""

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of every result, given the inputs' shape (each reduction's rule)."""
        raise NotImplementedError

    def infer_result_types(self) -> list[Attribute]:
        shape = self.reduced_shape(_input_shape(self.inputs))
        return [tensor(shape, elem_of(x.type)) for x in self.inputs]

    def verify_xla(self) -> None:
        _input_shape(self.inputs)
        _check_init_values(self.inputs, self.init_values)
        accumulators = [scalar_of(x.type) for x in self.inputs]
        verify_computation(self.body, accumulators * 2, accumulators, "body")
        self.check_inferred_result_types()


@irdl_op_definition
class ReduceOp(ReductionOp):
    """Reduce: `dimensions` (distinct, in range) are removed from the N same-shaped inputs,
    each folded by `body` from its init value; the body takes the N accumulators then the
    N input elements and returns the N new accumulators."""

    name = "xla.reduce"
    dimensions = prop_def(DenseArrayBase.constr(i64))

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        return reduce_shape(input_shape, ints(self.dimensions))


@irdl_op_definition
class ReduceWindowOp(ReductionOp):
    """ReduceWindow: `body` reduces each window of the N same-shaped inputs; per dimension
    the result has floor((padded_dilated_base - dilated_window) / stride) + 1 windows,
    dilated sizes being (s - 1) * d + 1 (SAME and VALID are explicit `padding`)."""

    name = "xla.reduce_window"
    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    base_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    window_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)

    def reduced_shape(self, input_shape: tuple[int, ...]) -> tuple[int, ...]:
        return reduce_window_shape(
            input_shape,
            ints(self.window_dimensions),
            _optional_ints(self.window_strides),
            _optional_ints(self.base_dilations),
            _optional_ints(self.window_dilations),
            _padding_pairs(self.padding),
        )


@irdl_op_definition
class SelectAndScatterOp(XlaOp):
    """SelectAndScatter: `select` (T, T -> PRED) picks one element of each window of the
    operand and `scatter` (T, T -> T) adds the source value there into a result of the
    operand's type initialised to init_value; source has the windowed (ReduceWindow)
    shape of the operand."""

    name = "xla.select_and_scatter"
    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    result = result_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def("single_block")
    scatter = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def infer_result_types(self) -> list[Attribute]:
        return [self.operand.type]

    def verify_xla(self) -> None:
        element = scalar_of(self.operand.type)
        if elem_of(self.source.type) != elem_of(self.operand.type):
            raise VerifyException(
                f"source {self.source.type} must have the operand's element type "
                f"{elem_of(self.operand.type)}"
            )
        if self.init_value.type != element:
            raise VerifyException(f"init_value must be {element}, got {self.init_value.type}")
        select_and_scatter_source_shape(
            shape_of(self.operand.type),
            ints(self.window_dimensions),
            _optional_ints(self.window_strides),
            _padding_pairs(self.padding),
            shape_of(self.source.type),
        )
        verify_computation(self.select, [element, element], [PRED_SCALAR], "select")
        verify_computation(self.scatter, [element, element], [element], "scatter")
        self.check_inferred_result_types()


# --------------------------------------------------------------------------------------
# Sort, map
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SortOp(XlaOp):
    """Sort: the same-shaped inputs are sorted together along `dimension` (default: the
    last) by `comparator`, which takes 2N scalars (lhs_0, rhs_0, lhs_1, rhs_1, ...) and
    returns PRED; the results have the inputs' types."""

    name = "xla.sort"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    dimension = opt_prop_def(IntegerAttr.constr(type=i64))
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def infer_result_types(self) -> list[Attribute]:
        return _types(self.inputs)

    def verify_xla(self) -> None:
        shape = _input_shape(self.inputs)
        sort_dimension(shape, None if self.dimension is None else self.dimension.value.data)
        pairs = [s for x in self.inputs for s in (scalar_of(x.type), scalar_of(x.type))]
        verify_computation(self.comparator, pairs, [PRED_SCALAR], "comparator")
        self.check_inferred_result_types()


@irdl_op_definition
class MapOp(XlaOp):
    """Map: `computation` (N scalars of the inputs' element types -> one scalar of type S)
    applied at every index of the N same-shaped inputs; the result has their shape and
    element type S, and `dimensions` are all dimensions in order."""

    name = "xla.map"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    computation = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def _returned_scalar(self) -> TensorType:
        _, returned = region_signature(self.computation)
        if len(returned) != 1 or not isinstance(returned[0], TensorType) or shape_of(returned[0]):
            raise VerifyException(
                f"computation must return one scalar (a rank-0 tensor), but returns "
                f"{fmt_types(returned)}"
            )
        return returned[0]

    def infer_result_types(self) -> list[Attribute]:
        shape = _input_shape(self.inputs)
        return [tensor(shape, elem_of(self._returned_scalar()))]

    def verify_xla(self) -> None:
        shape = _input_shape(self.inputs)
        check_map_dimensions(shape, ints(self.dimensions))
        returned = self._returned_scalar()
        verify_computation(
            self.computation, [scalar_of(x.type) for x in self.inputs], [returned], "computation"
        )
        self.check_inferred_result_types()


# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------


@irdl_op_definition
class WhileOp(XlaOp):
    """While: runs `body` (state -> state) while `cond` (state -> PRED scalar) holds,
    starting from the operands; the results have the state's types."""

    name = "xla.while"
    operand = var_operand_def()
    outputs = var_result_def()
    cond = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def infer_result_types(self) -> list[Attribute]:
        return _types(self.operand)

    def verify_xla(self) -> None:
        state = _types(self.operand)
        verify_computation(self.cond, state, [PRED_SCALAR], "cond")
        verify_computation(self.body, state, state, "body")
        self.check_inferred_result_types()


@irdl_op_definition
class ConditionalOp(XlaOp):
    """Conditional: a PRED `index` runs the first (true) or second (false) of exactly two
    branches, an S32 `index` runs branches[index] (the last one when out of range); branch
    b takes exactly branch_operands[b] (a tuple to pass several values) and every branch
    returns the result types."""

    name = "xla.conditional"
    index = operand_def(TensorType)
    branch_operands = var_operand_def()
    outputs = var_result_def()
    branches = var_region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    def verify_xla(self) -> None:
        n = len(self.branches)
        if self.index.type == PRED_SCALAR:
            if n != 2:
                raise VerifyException(
                    f"a PRED index selects between exactly 2 branches (true, false), got {n}"
                )
        elif self.index.type == tensor((), i32):
            if n < 1:
                raise VerifyException("an S32 branch index needs at least 1 branch, got 0")
        else:
            raise VerifyException(
                f"index must be tensor<i1> (PRED) or tensor<i32> (S32 branch index), got "
                f"{self.index.type}"
            )
        if len(self.branch_operands) != n:
            raise VerifyException(
                f"expects one branch operand per branch, got {len(self.branch_operands)} "
                f"branch_operands for {n} branches"
            )
        outputs = _types(self.outputs)
        for b, (region, arg) in enumerate(zip(self.branches, self.branch_operands, strict=True)):
            verify_computation(region, [arg.type], outputs, f"branch #{b}")


class CalleeSymbolUse(SymbolUserOpInterface):
    """The callee is a func.func of the nearest symbol table, with the call's types."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        try:
            callee = SymbolTable.lookup_symbol(op, op.callee)
        except ValueError:
            raise VerifyException(f"callee {op.callee} has no symbol table to live in") from None
        if callee is None:
            raise VerifyException(f"callee {op.callee} is not defined")
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"callee {op.callee} is a {callee.name}, not a func.func")
        expected_in = list(callee.function_type.inputs)
        expected_out = list(callee.function_type.outputs)
        args, outputs = _types(op.args), _types(op.outputs)
        if args != expected_in:
            raise VerifyException(
                f"operand types {fmt_types(args)} do not match callee {op.callee} inputs "
                f"{fmt_types(expected_in)}"
            )
        if outputs != expected_out:
            raise VerifyException(
                f"result types {fmt_types(outputs)} do not match callee {op.callee} results "
                f"{fmt_types(expected_out)}"
            )


@irdl_op_definition
class CallOp(XlaOp):
    """Call: invokes the computation `callee` (a func.func symbol) with args whose arity
    and types match its parameters; the results are its results."""

    name = "xla.call"
    args = var_operand_def()
    outputs = var_result_def()
    callee = prop_def(SymbolRefAttr)
    traits = traits_def(CalleeSymbolUse())


CONTROL_FLOW_OPS = (
    ReduceOp,
    ReduceWindowOp,
    SelectAndScatterOp,
    SortOp,
    MapOp,
    WhileOp,
    ConditionalOp,
    CallOp,
)
CONTROL_FLOW_ATTRS: tuple = ()
