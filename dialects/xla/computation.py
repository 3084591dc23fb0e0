"""`xla.return` and the checks shared by every op that carries a computation region
(reduce, sort, map, scatter, all_reduce, while, conditional...).

Computations follow StableHLO: scalars are rank-0 tensors, so a reducer over f32 is a
block `^bb0(%a: tensor<f32>, %b: tensor<f32>)` ending in `xla.return %s : tensor<f32>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import irdl_op_definition, traits_def, var_operand_def
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from .base import XlaOp
from .element_types import elem_of, tensor


@irdl_op_definition
class ReturnOp(XlaOp):
    """Return: ends a computation region, yielding its results."""

    name = "xla.return"
    results_ = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())


def fmt_types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def region_signature(region: Region) -> tuple[list[Attribute], list[Attribute]]:
    """Argument and returned types of a single-block computation."""
    if len(region.blocks) != 1:
        raise VerifyException(f"computation must have one block, has {len(region.blocks)}")
    block = region.blocks[0]
    term = block.last_op
    if not isinstance(term, ReturnOp):
        raise VerifyException("computation must end with xla.return")
    return [a.type for a in block.args], [v.type for v in term.operands]


def verify_computation(
    region: Region,
    arg_types: Sequence[Attribute],
    result_types: Sequence[Attribute],
    what: str,
) -> None:
    """The region takes exactly `arg_types` and returns exactly `result_types`."""
    args, rets = region_signature(region)
    if list(args) != list(arg_types):
        raise VerifyException(
            f"{what} must take {fmt_types(arg_types)}, but takes {fmt_types(args)}"
        )
    if list(rets) != list(result_types):
        raise VerifyException(
            f"{what} must return {fmt_types(result_types)}, but returns {fmt_types(rets)}"
        )


PRED_SCALAR = tensor((), i1)


def scalar_of(t: Attribute) -> TensorType:
    """The rank-0 tensor a computation receives for one element of `t`."""
    return tensor((), elem_of(t))


def types_of(values: Sequence[SSAValue]) -> list[Attribute]:
    return [v.type for v in values]
