"""The gather_scatter family to linalg: gather and scatter.

* xla.gather -> one `linalg.generic` over the result. Each result element reads the
  start index vector of its batch position (tensor.extract of start_indices), clamps
  each start to [0, operand dim - slice size] ("the slice lies in bounds", as
  dynamic_slice), adds its offset inside the slice and extracts the operand there.
* xla.scatter -> `scf.for` loops over the update scatter dimensions, row-major, then
  over the update window, carrying the results (which start as the inputs). Each
  update element goes through the update computation, inlined as scalar code, with
  tensor.extract / tensor.insert: every element sees its updates in the interpreter's
  order, so repeated indices give its exact results, for any computation. A window
  that would leave the operand is skipped as a whole: its outermost loop runs zero
  times. `indices_are_sorted` / `unique_indices` are hints and change nothing.

Index element types: any integer type, read sign- or zero-extended by its signedness;
the bounds checks compare unsigned, so a negative start (or a u64 above 2^63) is out
of bounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import IndexType, i64
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.common import num_elements
from xla_opt.dialects.shapes.gather_scatter import remapped_offset_dims
from xla_opt.dialects.xla.element_types import elem_of, is_unsigned, shape_of
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import emit_convert

from .computation import inline_computation
from .elementwise import identity_generic, in_computation
from .shape_ops import IndexArithmetic

# --------------------------------------------------------------------------------------
# Index vectors
# --------------------------------------------------------------------------------------


def read_index(indices: SSAValue, position: Sequence[SSAValue], b: IndexArithmetic) -> SSAValue:
    """The element of the integer tensor `indices` at `position` as an index, extended
    by its signedness (through i64, xla.convert's rule)."""
    element = elem_of(indices.type)
    read = b.add_op(tensor.ExtractOp(indices, position, element))
    ops, wide = emit_convert(read, element, i64)
    b.ops += ops
    return b.add_op(arith.IndexCastOp(wide, IndexType()))


def index_vector(
    indices: SSAValue, index_vector_dim: int, batch: Sequence[SSAValue], b: IndexArithmetic
) -> list[SSAValue]:
    """The components of the index vector at the batch position `batch` (one index per
    dimension of `indices` but index_vector_dim; index_vector_dim = rank is an
    implicit trailing dimension of size 1)."""
    shape = shape_of(indices.type)
    if index_vector_dim == len(shape):
        return [read_index(indices, batch, b)]
    before, after = batch[:index_vector_dim], batch[index_vector_dim:]
    return [read_index(indices, [*before, b.const(k), *after], b) for k in range(shape[index_vector_dim])]


# --------------------------------------------------------------------------------------
# Gather
# --------------------------------------------------------------------------------------


class GatherToGeneric(RewritePattern):
    """xla.gather: result element (batch position B, offsets O) reads the operand at
    clamp(S[B]) + O, where S[B] is start_indices' index vector at B scattered to the
    start_index_map dimensions (0 elsewhere), each start clamped to
    [0, operand dim - slice size], and O is 0 in the collapsed dimensions."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.GatherOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        result_type = op.result.type
        result_rank = len(shape_of(result_type))
        if num_elements(shape_of(result_type)) == 0:
            rewriter.replace(op, tensor.EmptyOp([], result_type))
            return
        operand_shape = shape_of(op.operand.type)
        slice_sizes = op.get_slice_sizes()
        offset_dims = op.get_offset_dims()
        batch_dims = [d for d in range(result_rank) if d not in offset_dims]
        # the operand dimension each offset dimension walks, in order
        window_dims = remapped_offset_dims(len(operand_shape), op.get_collapsed_slice_dims())
        unsigned = is_unsigned(elem_of(op.start_indices.type))

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            loops = [b.loop_index(d) for d in range(result_rank)]
            vector = index_vector(
                op.start_indices, op.get_index_vector_dim(), [loops[d] for d in batch_dims], b
            )
            position: list[SSAValue | None] = [None] * len(operand_shape)
            for k, d in enumerate(window_dims):
                position[d] = loops[offset_dims[k]]
            for k, d in enumerate(op.get_start_index_map()):
                upper = b.const(operand_shape[d] - slice_sizes[d])
                if unsigned:
                    start = b.min_u(vector[k], upper)
                else:
                    below = b.add_op(arith.MinSIOp(vector[k], upper))
                    start = b.add_op(arith.MaxSIOp(below, b.const(0)))
                position[d] = start if position[d] is None else b.add(position[d], start)
            indices = [b.const(0) if p is None else p for p in position]
            read = tensor.ExtractOp(op.operand, indices, elem_of(result_type))
            return [*b.ops, read], [read.result]

        rewriter.replace(op, identity_generic([], result_type, body))


# --------------------------------------------------------------------------------------
# Scatter
# --------------------------------------------------------------------------------------

LoopBody = Callable[[list[SSAValue], list[SSAValue]], tuple[list[Operation], list[SSAValue]]]


def loop_nest(
    bounds: Sequence[SSAValue], carried: Sequence[SSAValue], step: SSAValue, build: LoopBody
) -> tuple[list[Operation], list[SSAValue]]:
    """scf.for loops from 0 to each of `bounds`, outermost first, carrying `carried`;
    the innermost body is `build(induction variables, carried values) -> (ops,
    yielded)`. Returns the ops (the outermost loop) and the final carried values."""
    if not bounds:
        return build([], list(carried))
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    iv, *inner = block.args

    def build_inner(ivs: list[SSAValue], values: list[SSAValue]):
        return build([iv, *ivs], values)

    ops, yielded = loop_nest(bounds[1:], inner, step, build_inner)
    block.add_ops([*ops, scf.YieldOp(*yielded)])
    loop = scf.ForOp(zero.result, bounds[0], step, carried, block)
    return [zero, loop], list(loop.results)


class ScatterToLoops(RewritePattern):
    """xla.scatter: for each batch position B of scatter_indices (row-major), the
    window starts at S[B] (the index vector scattered to scatter_dims_to_operand_dims,
    0 elsewhere); when 0 <= S[B][d] <= operand dim - window size in every dimension,
    each element W of the window (row-major) becomes
    update_computation(results[S[B] + W], updates[B, W]) for all results at once; a
    window out of bounds is skipped."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ScatterOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        inputs, updates = list(op.inputs), list(op.updates)
        operand_shape = shape_of(inputs[0].type)
        update_shape = shape_of(updates[0].type)
        if num_elements(operand_shape) == 0 or num_elements(update_shape) == 0:
            rewriter.replace(op, [], inputs)
            return
        rank = len(operand_shape)
        update_window_dims = op.get_update_window_dims()
        update_scatter_dims = [d for d in range(len(update_shape)) if d not in update_window_dims]
        # the operand dimension each update window dimension walks, in order
        window_dims = remapped_offset_dims(rank, op.get_inserted_window_dims())
        window = [1] * rank
        for k, d in enumerate(window_dims):
            window[d] = update_shape[update_window_dims[k]]
        b = IndexArithmetic()
        one = b.const(1)

        def window_element(batch: list[SSAValue], starts: list[SSAValue | None]) -> LoopBody:
            def build(at: list[SSAValue], results: list[SSAValue]):
                e = IndexArithmetic()
                position = list(starts)
                for k, d in enumerate(window_dims):
                    p = position[d]
                    position[d] = at[k] if p is None else e.add(p, at[k])
                indices = [e.const(0) if p is None else p for p in position]
                update_at: list[SSAValue] = [None] * len(update_shape)  # type: ignore[list-item]
                for j, d in enumerate(update_scatter_dims):
                    update_at[d] = batch[j]
                for k, d in enumerate(update_window_dims):
                    update_at[d] = at[k]
                # every read before any write: the inserts can then write in place
                current = [e.add_op(tensor.ExtractOp(r, indices, elem_of(r.type))) for r in results]
                given = [e.add_op(tensor.ExtractOp(u, update_at, elem_of(u.type))) for u in updates]
                ops, new = inline_computation(op.update_computation, current + given)
                e.ops += ops
                return e.ops, [e.add_op(tensor.InsertOp(n, r, indices)) for n, r in zip(new, results, strict=True)]

            return build

        def batch_position(batch: list[SSAValue], results: list[SSAValue]):
            e = IndexArithmetic()
            vector = index_vector(op.scatter_indices, op.get_index_vector_dim(), batch, e)
            starts: list[SSAValue | None] = [None] * rank
            inside = []
            for k, d in enumerate(op.get_scatter_dims_to_operand_dims()):
                starts[d] = vector[k]
                # unsigned: a negative start is out of bounds too
                inside.append(e.cmp("ule", vector[k], e.const(operand_shape[d] - window[d])))
            bounds = [e.const(update_shape[d]) for d in update_window_dims] or [one]
            in_bounds = e.all_of(inside)
            if in_bounds is not None:
                bounds[0] = e.add_op(arith.SelectOp(in_bounds, bounds[0], e.const(0)))
            ops, new = loop_nest(bounds, results, one, window_element(batch, starts))
            return [*e.ops, *ops], new

        batch_bounds = [b.const(update_shape[d]) for d in update_scatter_dims]
        ops, new = loop_nest(batch_bounds, inputs, one, batch_position)
        rewriter.replace(op, [*b.ops, *ops], new)


PATTERNS: list[RewritePattern] = [GatherToGeneric(), ScatterToLoops()]

# The ops these patterns lower.
LOWERED: frozenset[str] = frozenset({xla.GatherOp.name, xla.ScatterOp.name})
