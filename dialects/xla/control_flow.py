"""Control flow: while, conditional and call. Their regions (cond, body, branches) are
computations: isolated from above, rank-0 tensors for scalars (see `computation`)."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    SymbolRefAttr,
    TensorType,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
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

from .base import XlaOp
from .element_types import tensor
from .computation import PRED_SCALAR, fmt_types, types_of, verify_computation

# --------------------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------
# Sort, map
# --------------------------------------------------------------------------------------


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
        return types_of(self.operand)

    def verify_xla(self) -> None:
        state = types_of(self.operand)
        verify_computation(self.cond, state, [PRED_SCALAR], "cond")
        verify_computation(self.body, state, state, "body")


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
        outputs = types_of(self.outputs)
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
        args, outputs = types_of(op.args), types_of(op.outputs)
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


CONTROL_FLOW_OPS = (WhileOp, ConditionalOp, CallOp)
CONTROL_FLOW_ATTRS: tuple = ()


def _symbol_names(attr: Attribute, into: set[str]) -> None:
    if isinstance(attr, SymbolRefAttr):
        into.add(attr.root_reference.data)
    elif isinstance(attr, ArrayAttr):
        for a in attr.data:
            _symbol_names(a, into)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            _symbol_names(a, into)


def referenced_symbols(module: ModuleOp) -> set[str]:
    """The symbols some op's property or attribute names (a call's callee, a custom
    call's called computations...): the functions that must stay."""
    names: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            _symbol_names(attr, names)
    return names
