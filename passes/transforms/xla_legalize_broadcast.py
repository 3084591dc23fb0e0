"""`xla-legalize-broadcast`: implicit broadcasting becomes explicit `xla.broadcast_in_dim`.

XLA's element-wise ops broadcast their operands implicitly (broadcasting.md): scalars
freely, lower ranks through `broadcast_dimensions`, same ranks through degenerate (size
1) dimensions; select broadcasts a scalar pred, clamp scalar bounds. After this pass
every operand of these ops has the result's shape and `broadcast_dimensions` is gone,
so later lowerings only see same-shape element-wise ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects.shapes.broadcast import broadcast_operand_map
from xla_opt.dialects.xla.element_types import elem_of, shape_of, tensor
from xla_opt.dialects.xla.elementwise import BinaryElementwiseOp, ClampOp, SelectOp
from xla_opt.dialects.xla.properties import i64_array
from xla_opt.dialects.xla.shape_ops import BroadcastInDimOp

from xla_opt.pattern_dispatch import ConversionWalker


def _broadcast_operands(
    op: Operation, rewriter: PatternRewriter, broadcast_dimensions: tuple[int, ...] | None
) -> list[SSAValue] | None:
    """The op's operands broadcast to its result shape (new broadcast_in_dim ops are
    inserted before `op`), or None when they all have that shape already."""
    result_shape = shape_of(op.results[0].type)
    new_operands: list[SSAValue] = []
    changed = False
    for value in op.operands:
        shape = shape_of(value.type)
        if shape == result_shape:
            new_operands.append(value)
            continue
        dims = broadcast_operand_map(shape, result_shape, broadcast_dimensions)
        broadcast = BroadcastInDimOp.build(
            operands=[value],
            result_types=[tensor(result_shape, elem_of(value.type))],
            properties={"broadcast_dimensions": i64_array(dims)},
        )
        rewriter.insert(broadcast)
        new_operands.append(broadcast.result)
        changed = True
    return new_operands if changed else None


class LegalizeBinaryBroadcast(RewritePattern):
    """Element-wise binary ops and compare: operands of another shape than the
    result's are broadcast (scalars, InDim through broadcast_dimensions, degenerate
    dimensions); broadcast_dimensions is dropped."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BinaryElementwiseOp, rewriter: PatternRewriter, /) -> None:
        dims = op.get_broadcast_dimensions()
        new_operands = _broadcast_operands(op, rewriter, dims)
        if new_operands is None and dims is None:
            return
        properties = {k: v for k, v in op.properties.items() if k != "broadcast_dimensions"}
        rewriter.replace(op, 
            type(op).build(
                operands=new_operands or list(op.operands),
                result_types=[op.result.type],
                properties=properties,
                attributes=dict(op.attributes),
            )
        )


class LegalizeSelectBroadcast(RewritePattern):
    """Select with a scalar pred: the pred is broadcast to the result's shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectOp, rewriter: PatternRewriter, /) -> None:
        new_operands = _broadcast_operands(op, rewriter, None)
        if new_operands is not None:
            rewriter.replace(op, 
                SelectOp.build(operands=new_operands, result_types=[op.result.type])
            )


class LegalizeClampBroadcast(RewritePattern):
    """Clamp with scalar min or max: the bounds are broadcast to the result's shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ClampOp, rewriter: PatternRewriter, /) -> None:
        new_operands = _broadcast_operands(op, rewriter, None)
        if new_operands is not None:
            rewriter.replace(op, 
                ClampOp.build(operands=new_operands, result_types=[op.result.type])
            )


@dataclass(frozen=True)
class XlaLegalizeBroadcastPass(ModulePass):
    """Makes the implicit broadcasting of element-wise ops explicit."""

    name = "xla-legalize-broadcast"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConversionWalker(
            [LegalizeBinaryBroadcast(), LegalizeSelectBroadcast(), LegalizeClampBroadcast()],
            repeat=False,
        ).rewrite_module(op)
