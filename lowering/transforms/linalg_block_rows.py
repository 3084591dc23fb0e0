"""`linalg-block-rows`: register blocking of dot-like `linalg.generic`s, an
optimization kept out of the conversion (which emits the plain contraction).

A dot's generic nests its loops as (batch, lhs free, contracting, rhs free) with a body
acc + lhs * rhs. The last lhs-free loop r is split into a loop over blocks of B rows
(in r's place) and a new innermost loop over the rows of a block (r = outer * B +
inner): LLVM unrolls the innermost loop fully and vectorizes the rhs-free loop around
it, which computes B result rows per pass over an rhs row. B is the `rows` option
(`linalg-block-rows{rows=4}`, the default). Each result element still sums its products in contraction order, so the result
is unchanged.

xDSL takes a loop's bound from the first operand indexing it with a plain dimension,
so two unread placeholder inputs, first, carry the two new loops' extents.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects.xla.element_types import is_float
from xla_opt.lowering.utils.contractions import is_multiply_accumulate
from xla_opt.lowering.transforms.linalg_matmul_to_kernel import kernel_matmul
from xla_opt.lowering.conversions.convert_xla_to_linalg.common import PARALLEL, REDUCTION, is_half

from xla_opt.pattern_dispatch import ConversionWalker

ROW_BLOCK = 4  # the default of the pass's `rows` option


def _row_loop(op: linalg.GenericOp) -> int | None:
    """The last lhs-free loop of a dot-like generic (just before its contracting loops,
    read by lhs and not by rhs, with rhs-free loops after the contraction), or None."""
    iterators = [it.data for it in op.iterator_types.data]
    if REDUCTION.data not in iterators:
        return None
    first_reduction = iterators.index(REDUCTION.data)
    last_reduction = len(iterators) - 1 - iterators[::-1].index(REDUCTION.data)
    row = first_reduction - 1
    if row < 0 or last_reduction == len(iterators) - 1:
        return None  # no lhs-free loop, or no rhs-free loop
    if any(it != REDUCTION.data for it in iterators[first_reduction : last_reduction + 1]):
        return None
    lhs_map, rhs_map = (m.data for m in op.indexing_maps.data[:2])
    row_dim = AffineDimExpr(row)
    if row_dim not in lhs_map.results or row_dim in rhs_map.results:
        return None
    return row


@dataclass(eq=False)  # patterns compare by identity
class BlockRowsOfDot(RewritePattern):
    """A float dot-like generic with a row count divisible by `rows` (and more than
    one block) gets its last lhs-free loop split (see the module doc)."""

    rows: int = ROW_BLOCK

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1 or not is_multiply_accumulate(op):
            return
        if kernel_matmul(op) is not None:
            return  # linalg-matmul-to-kernel makes it a GEMM micro-kernel call
        output_type = op.outputs[0].type
        if not isinstance(output_type, TensorType):
            return
        element_type = output_type.element_type
        if not is_float(element_type) or is_half(element_type):
            return
        row_loop = _row_loop(op)
        if row_loop is None:
            return
        lhs_map = op.indexing_maps.data[0].data
        rows = op.inputs[0].type.get_shape()[lhs_map.results.index(AffineDimExpr(row_loop))]  # type: ignore[attr-defined]
        block = self.rows
        if block < 2 or rows <= block or rows % block:
            return
        n = len(op.iterator_types.data)
        d = AffineExpr.dimension
        split = d(row_loop) * block + d(n)

        def rewrite(m: AffineMapAttr) -> AffineMapAttr:
            return AffineMapAttr(AffineMap(n + 1, 0, tuple(split if e == d(row_loop) else e for e in m.data.results)))

        placeholders = [
            arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(element_type, [extent]), [0.0]))
            for extent in (rows // block, block)
        ]
        placeholder_maps = [AffineMapAttr(AffineMap(n + 1, 0, (d(loop),))) for loop in (row_loop, n)]
        body = op.body.block
        for _ in placeholders:  # unread: their element arguments come first
            body.insert_arg(element_type, 0)
        blocked = linalg.GenericOp(
            [*(p.result for p in placeholders), *op.inputs],
            list(op.outputs),
            rewriter.move_region_contents_to_new_regions(op.body),
            [*placeholder_maps, *(rewrite(m) for m in op.indexing_maps.data)],
            [*op.iterator_types.data, PARALLEL],
            [r.type for r in op.res],
        )
        rewriter.replace(op, [*placeholders, blocked])


@dataclass(frozen=True)
class BlockRowsPass(ModulePass):
    """Register blocking of float dots (see the module doc)."""

    name = "linalg-block-rows"
    input_dialects = ("linalg",)
    output_dialects = ("arith", "linalg")

    rows: int = ROW_BLOCK
    """Result rows computed per pass over an rhs row (the block the innermost loop
    walks, which LLVM unrolls); 1 turns the pass off."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConversionWalker([BlockRowsOfDot(self.rows)], repeat=False, erase_dead=False).rewrite_module(op)
