"""The data-movement half of convert-xla-to-linalg: every result element is an operand
element (or a padding value), found through an indexing map or computed indices.

* affine maps on the operand: broadcast, broadcast_in_dim (size-1 dimensions read
  index 0), transpose (permutation), reverse (`-d + n - 1`), slice (`d * stride + start`);
* computed indices (`linalg.index`, index arithmetic, `tensor.extract` of the operand
  in the body): reshape and collapse (through the linear index), dynamic_slice (clamped
  start indices read from the rank-0 index tensors), dynamic_update_slice, pad and
  concatenate (selects between operand elements read at clamped indices, or the
  padding value);
* folded away: get_tuple_element of xla.tuple, optimization_barrier.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects.shapes.common import num_elements
from xla_opt.dialects.xla import shape_ops as so
from xla_opt.dialects.xla.element_types import elem_of, is_unsigned, shape_of
from xla_opt.lowering.utils.llvm_types import row_major_strides
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import emit_convert

from .common import PARALLEL, affine_map, generic
from .elementwise import identity_generic, in_computation

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def copy_through_map(
    operand: SSAValue, result_type: TensorType, operand_indices: Sequence[AffineExpr]
) -> list[Operation]:
    """A generic over the result reading the operand at `operand_indices` (affine
    expressions of the result's loop dimensions); the last op gives the result."""
    rank = len(shape_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    operand_shape, result_shape = shape_of(operand.type), shape_of(result_type)
    if 0 in result_shape:
        # nothing to copy; a map reading past the operand's end (a slice starting at
        # its size) would not verify even though the loop never runs
        return [empty]
    if any(
        isinstance(e, AffineDimExpr) and operand_shape[i] != result_shape[e.position]
        for i, e in enumerate(operand_indices)
    ):
        # A plain `dN` in the operand's map would make xDSL take loop N's bound from
        # the operand (it reads bounds from the first plain occurrence), so read the
        # operand with tensor.extract at the computed indices instead.
        return [empty, gather_through_indices(operand, empty, operand_indices)]
    operand_map = AffineMapAttr(AffineMap(rank, 0, tuple(operand_indices)))
    return [
        empty,
        generic(
            [operand],
            [empty.tensor],
            [operand_map, affine_map(rank, range(rank))],
            [PARALLEL] * rank,
            lambda args: ([], [args[0]]),
        ),
    ]


def _emit_affine(expr: AffineExpr, loops: Sequence[SSAValue]) -> tuple[list[Operation], SSAValue]:
    """Index arithmetic for an affine expression of the loop indices."""
    if isinstance(expr, AffineDimExpr):
        return [], loops[expr.position]
    if isinstance(expr, AffineConstantExpr):
        c = arith.ConstantOp.from_int_and_width(expr.value, IndexType())
        return [c], c.result
    assert isinstance(expr, AffineBinaryOpExpr) and expr.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
    lhs_ops, lhs = _emit_affine(expr.lhs, loops)
    rhs_ops, rhs = _emit_affine(expr.rhs, loops)
    combine = arith.AddiOp(lhs, rhs) if expr.kind == AffineBinaryOpKind.Add else arith.MuliOp(lhs, rhs)
    return [*lhs_ops, *rhs_ops, combine], combine.result


def gather_through_indices(operand: SSAValue, out: tensor.EmptyOp, operand_indices: Sequence[AffineExpr]) -> Operation:
    """A generic over `out` whose body extracts the operand at `operand_indices`."""
    rank = len(shape_of(out.tensor.type))

    def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        loops = [linalg.IndexOp(i) for i in range(rank)]
        ops: list[Operation] = list(loops)
        indices = []
        for expr in operand_indices:
            expr_ops, value = _emit_affine(expr, [lp.result for lp in loops])
            ops += expr_ops
            indices.append(value)
        extract = tensor.ExtractOp(operand, indices, elem_of(operand.type))
        return [*ops, extract], [extract.result]

    return generic([], [out.tensor], [affine_map(rank, range(rank))], [PARALLEL] * rank, body)


def dims(n: int) -> list[AffineExpr]:
    return [AffineExpr.dimension(i) for i in range(n)]


class IndexArithmetic:
    """Collects `index` arithmetic ops, in order (constants folded where trivial)."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add_op(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def const(self, value: int) -> SSAValue:
        return self.add_op(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def loop_index(self, dim: int) -> SSAValue:
        return self.add_op(linalg.IndexOp(dim))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.AddiOp(a, b))

    def add_const(self, a: SSAValue, value: int) -> SSAValue:
        return a if value == 0 else self.add(a, self.const(value))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.SubiOp(a, b))

    def mul_const(self, a: SSAValue, value: int) -> SSAValue:
        return a if value == 1 else self.add_op(arith.MuliOp(a, self.const(value)))

    def div_const(self, a: SSAValue, value: int) -> SSAValue:
        return a if value == 1 else self.add_op(arith.DivSIOp(a, self.const(value)))

    def rem_const(self, a: SSAValue, value: int) -> SSAValue:
        return self.add_op(arith.RemSIOp(a, self.const(value)))

    def cmp(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.CmpiOp(a, b, predicate))

    def min_u(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.MinUIOp(a, b))

    def all_of(self, conditions: Sequence[SSAValue]) -> SSAValue | None:
        result = None
        for c in conditions:
            result = c if result is None else self.add_op(arith.AndIOp(result, c))
        return result


def clamped_start(start: SSAValue, upper: int) -> tuple[list[Operation], SSAValue]:
    """The rank-0 integer tensor `start` read and clamped to [0, upper] as an index
    (computed in 64 bits: by its signedness, so a huge unsigned start clamps high)."""
    element = elem_of(start.type)
    read = tensor.ExtractOp(start, [], element)
    ops, wide = emit_convert(read.result, element, i64)
    ops = [read, *ops]
    high = arith.ConstantOp(IntegerAttr(upper, i64))
    ops.append(high)
    if is_unsigned(element):
        clamped = arith.MinUIOp(wide, high.result)
        ops.append(clamped)
    else:
        zero = arith.ConstantOp(IntegerAttr(0, i64))
        below = arith.MinSIOp(wide, high.result)
        clamped = arith.MaxSIOp(below, zero.result)
        ops += [zero, below, clamped]
    index = arith.IndexCastOp(clamped.result, IndexType())
    return [*ops, index], index.result


def clamped_starts(starts: Sequence[SSAValue], uppers: Sequence[int], rewriter: PatternRewriter) -> list[SSAValue]:
    """`clamped_start` of each start, inserted before the matched op."""
    values = []
    for start, upper in zip(starts, uppers, strict=True):
        ops, value = clamped_start(start, upper)
        rewriter.insert(ops)
        values.append(value)
    return values


# --------------------------------------------------------------------------------------
# Affine-map copies
# --------------------------------------------------------------------------------------


class BroadcastToGeneric(RewritePattern):
    """xla.broadcast: the operand fills the minor dimensions, map (d0..dn) -> (dk..dn)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.BroadcastOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        rank = len(shape_of(op.result.type))
        added = len(op.get_broadcast_sizes())
        rewriter.replace(op, copy_through_map(op.operand, op.result.type, dims(rank)[added:]))


class BroadcastInDimToGeneric(RewritePattern):
    """xla.broadcast_in_dim: operand dimension i reads loop broadcast_dimensions[i], or
    index 0 when it is a size-1 dimension stretched to a bigger one. One that only
    inserts unit dimensions, read only as dynamic_update_slice updates, is left to them
    (as `ReshapeToGeneric` leaves such a reshape)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.BroadcastInDimOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op) or _read_through_by_updates(op):
            return
        operand_shape, result_shape = shape_of(op.operand.type), shape_of(op.result.type)
        indices = [
            AffineExpr.dimension(d) if operand_shape[i] == result_shape[d] else AffineExpr.constant(0)
            for i, d in enumerate(op.get_broadcast_dimensions())
        ]
        rewriter.replace(op, copy_through_map(op.operand, op.result.type, indices))


class TransposeToGeneric(RewritePattern):
    """xla.transpose: result dimension i is operand dimension permutation[i], so operand
    dimension permutation[i] reads loop i."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.TransposeOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        permutation = op.get_permutation()
        loop_of = {p: i for i, p in enumerate(permutation)}
        indices = [AffineExpr.dimension(loop_of[j]) for j in range(len(permutation))]
        rewriter.replace(op, copy_through_map(op.operand, op.result.type, indices))


class ReverseToGeneric(RewritePattern):
    """xla.reverse: a reversed dimension of size n reads index `-d + n - 1`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.ReverseOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        shape = shape_of(op.operand.type)
        reversed_dims = set(op.get_dimensions())
        indices = [(d * -1 + (shape[i] - 1)) if i in reversed_dims else d for i, d in enumerate(dims(len(shape)))]
        rewriter.replace(op, copy_through_map(op.operand, op.result.type, indices))


class SliceToGeneric(RewritePattern):
    """xla.slice: dimension i reads index `d * stride + start`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.SliceOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        rank = len(shape_of(op.operand.type))
        indices = [d * stride + start for d, start, stride in zip(dims(rank), op.get_start_indices(), op.get_strides())]
        rewriter.replace(op, copy_through_map(op.operand, op.result.type, indices))


# --------------------------------------------------------------------------------------
# Reshapes: through the linear index
# --------------------------------------------------------------------------------------


def reshape_indices(
    operand_shape: Sequence[int], result_shape: Sequence[int], collapse_order: Sequence[int]
) -> list[AffineExpr]:
    """The operand's indices as affine expressions of the result's loops. The operand
    transposed by `collapse_order` and the result, size-1 dimensions aside, split into
    groups of consecutive dimensions with equal element counts; within a group, the
    result's row-major index L splits into the operand's: `L floordiv stride mod size`.
    A split reads `(d0, d1 * 64 + d2)` (128x256 -> 128x4x64), a merge
    `(d0, d1 floordiv 64, d1 mod 64)` (128x4x64 -> 128x256), 6x4 -> 4x6
    `((d0 * 6 + d1) floordiv 4, (d0 * 6 + d1) mod 4)`. Such a reshape is a plain
    data-move generic, which `linalg-fuse-elementwise` fuses like a transpose or a slice
    (and a matrix product reads a split or a merge of contiguous dimensions by
    strides). Size-1 operand dimensions read index 0."""
    transposed = [operand_shape[k] for k in collapse_order]
    sources = [p for p, size in enumerate(transposed) if size != 1]
    loops = [d for d, size in enumerate(result_shape) if size != 1]
    exprs: list[AffineExpr] = [AffineExpr.constant(0)] * len(transposed)
    i = j = 0
    while i < len(sources):
        group_sources, group_loops = [sources[i]], [loops[j]]
        operand_count, result_count = transposed[sources[i]], result_shape[loops[j]]
        i, j = i + 1, j + 1
        while operand_count != result_count:  # the smaller side takes its next dimension
            if operand_count < result_count:
                group_sources.append(sources[i])
                operand_count *= transposed[sources[i]]
                i += 1
            else:
                group_loops.append(loops[j])
                result_count *= result_shape[loops[j]]
                j += 1
        linear = AffineExpr.constant(0)
        for d, stride in zip(group_loops, row_major_strides([result_shape[d] for d in group_loops]), strict=True):
            linear = linear + AffineExpr.dimension(d) * stride
        strides = row_major_strides([transposed[p] for p in group_sources])
        for position, (p, stride) in enumerate(zip(group_sources, strides, strict=True)):
            expr = linear if stride == 1 else linear // stride
            exprs[p] = expr if position == 0 else expr % transposed[p]
    indices: list[AffineExpr] = [AffineExpr.constant(0)] * len(operand_shape)
    for position, dim in enumerate(collapse_order):
        indices[dim] = exprs[position]
    return indices


def reshape_ops(operand: SSAValue, result_type: TensorType, collapse_order: Sequence[int]) -> list[Operation]:
    """A generic over the result reading the operand through `reshape_indices`; the last
    op gives the result."""
    indices = reshape_indices(shape_of(operand.type), shape_of(result_type), collapse_order)
    return copy_through_map(operand, result_type, indices)


def unit_dims_only(op: Operation) -> list[int | None] | None:
    """For a reshape or broadcast_in_dim that only inserts (or, a reshape, drops)
    dimensions of size 1, the operand dimension of each result dimension (None for an
    inserted 1); else None (any other op too). JAX's scans make each step's value
    1 x ... so before writing it into the stacked output."""
    if isinstance(op, so.BroadcastInDimOp):
        operand, result = shape_of(op.operand.type), shape_of(op.result.type)
        mapped = {d: i for i, d in enumerate(op.get_broadcast_dimensions())}
        if any(operand[i] != result[d] for d, i in mapped.items()):
            return None  # a stretched dimension
        if any(size != 1 for d, size in enumerate(result) if d not in mapped):
            return None
        return [mapped.get(d) for d in range(len(result))]
    if not isinstance(op, so.ReshapeOp):
        return None
    operand, result = shape_of(op.operand.type), shape_of(op.result.type)
    if op.dimensions is not None and op.get_dimensions() != tuple(range(len(operand))):
        return None
    if [d for d in operand if d != 1] != [d for d in result if d != 1]:
        return None
    real = iter(i for i, d in enumerate(operand) if d != 1)
    return [next(real) if d != 1 else None for d in result]


def _read_through_by_updates(op: so.ReshapeOp | so.BroadcastInDimOp) -> bool:
    """Whether every use of `op` (`unit_dims_only`) is the update of a
    dynamic_update_slice, which reads `op`'s operand itself
    (`DynamicUpdateSliceToGeneric`): `op` needs no copy of its own then."""
    uses = list(op.result.uses)
    return (
        bool(uses)
        and unit_dims_only(op) is not None
        and all(
            isinstance(use.operation, so.DynamicUpdateSliceOp) and use.index == 1 and not in_computation(use.operation)
            for use in uses
        )
    )


class ReshapeToGeneric(RewritePattern):
    """xla.reshape (optionally collapsing in the order `dimensions`); a reshape to the
    same shape in the default order is the operand itself. A reshape that only inserts
    or drops unit dimensions, read only as dynamic_update_slice updates, is left to them:
    they read its operand (no copy); it is erased once dead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.ReshapeOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op) or _read_through_by_updates(op):
            return
        rank = len(shape_of(op.operand.type))
        order = op.get_dimensions() if op.dimensions is not None else tuple(range(rank))
        if op.operand.type == op.result.type and order == tuple(range(rank)):
            rewriter.replace(op, [], [op.operand])
            return
        if num_elements(shape_of(op.result.type)) == 0:
            rewriter.replace(op, tensor.EmptyOp([], op.result.type))
            return
        rewriter.replace(op, reshape_ops(op.operand, op.result.type, order))


class CollapseToGeneric(RewritePattern):
    """xla.collapse: a row-major reshape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.CollapseOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        rank = len(shape_of(op.operand.type))
        if num_elements(shape_of(op.result.type)) == 0:
            rewriter.replace(op, tensor.EmptyOp([], op.result.type))
            return
        rewriter.replace(op, reshape_ops(op.operand, op.result.type, range(rank)))


# --------------------------------------------------------------------------------------
# Dynamic slices
# --------------------------------------------------------------------------------------


class DynamicSliceToGeneric(RewritePattern):
    """xla.dynamic_slice: starts clamped to [0, dim - size]; each result element reads
    the operand at loop index + start."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.DynamicSliceOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        operand_shape = shape_of(op.operand.type)
        sizes = op.get_slice_sizes()
        if num_elements(sizes) == 0:
            rewriter.replace(op, tensor.EmptyOp([], op.result.type))
            return
        starts = clamped_starts(list(op.start_indices), [n - s for n, s in zip(operand_shape, sizes)], rewriter)
        element = elem_of(op.result.type)

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            indices = [b.add(b.loop_index(d), start) for d, start in enumerate(starts)]
            read = tensor.ExtractOp(op.operand, indices, element)
            return [*b.ops, read], [read.result]

        rewriter.replace(op, identity_generic([], op.result.type, body))


class DynamicUpdateSliceToGeneric(RewritePattern):
    """xla.dynamic_update_slice: starts clamped to [0, dim - update dim]; a generic
    over the operand yields the update element (read at the clamped relative index)
    where the position falls inside the update, else the operand element."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.DynamicUpdateSliceOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        operand_shape = shape_of(op.operand.type)
        update_shape = shape_of(op.update.type)
        if num_elements(update_shape) == 0:
            rewriter.replace(op, [], [op.operand])
            return
        starts = clamped_starts(list(op.start_indices), [n - u for n, u in zip(operand_shape, update_shape)], rewriter)
        element = elem_of(op.result.type)
        # an update made from a value by unit dimensions only is read in that value
        maker = op.update.owner
        through = unit_dims_only(maker) if isinstance(maker, Operation) else None
        source = maker.operands[0] if through is not None and isinstance(maker, Operation) else op.update

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            inside: list[SSAValue] = []
            indices: list[SSAValue] = []
            for d, (start, size) in enumerate(zip(starts, update_shape, strict=True)):
                relative = b.sub(b.loop_index(d), start)
                # one unsigned compare checks 0 <= relative < size
                last = b.const(size - 1)
                inside.append(b.cmp("ule", relative, last))
                indices.append(b.min_u(relative, last))
            if through is not None:
                at: list[SSAValue | None] = [None] * len(shape_of(source.type))
                for d, dim in enumerate(through):
                    if dim is not None:
                        at[dim] = indices[d]
                read = tensor.ExtractOp(source, [i if i is not None else b.const(0) for i in at], element)
            else:
                read = tensor.ExtractOp(op.update, indices, element)
            b.ops.append(read)
            in_update = b.all_of(inside)
            if in_update is None:  # rank 0: the update replaces the operand
                return b.ops, [read.result]
            chosen = b.add_op(arith.SelectOp(in_update, read.result, args[0]))
            return b.ops, [chosen]

        rewriter.replace(op, identity_generic([op.operand], op.result.type, body))


# --------------------------------------------------------------------------------------
# Concatenate, pad
# --------------------------------------------------------------------------------------


class ConcatenateToGeneric(RewritePattern):
    """xla.concatenate: a generic over the result; along `dimension`, position p
    belongs to the last input whose offset is <= p. Every input is read at its
    position clamped into it (reads stay in bounds) and selects keep the right one.
    (Copies into the result with offset outs maps would be cheaper, but the first
    input's offset 0 makes its outs map plain, which linalg requires to span the
    whole result.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.ConcatenateOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        pieces = [v for v in op.inputs if num_elements(shape_of(v.type)) != 0]
        if len(pieces) == 1 and pieces[0].type == op.result.type:
            rewriter.replace(op, [], [pieces[0]])
            return
        if not pieces:
            rewriter.replace(op, tensor.EmptyOp([], op.result.type))
            return
        rank = len(shape_of(op.result.type))
        dimension = op.get_dimension()
        element = elem_of(op.result.type)
        offsets = [0]
        for value in pieces:
            offsets.append(offsets[-1] + shape_of(value.type)[dimension])

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            loops = [b.loop_index(d) for d in range(rank)]
            position = loops[dimension]
            chosen: SSAValue | None = None
            for k in range(len(pieces) - 1, -1, -1):
                size = shape_of(pieces[k].type)[dimension]
                inner = b.min_u(b.add_const(position, -offsets[k]), b.const(size - 1))
                indices = [inner if d == dimension else loops[d] for d in range(rank)]
                read = b.add_op(tensor.ExtractOp(pieces[k], indices, element))
                if chosen is None:
                    chosen = read
                else:
                    before_next = b.cmp("ult", position, b.const(offsets[k + 1]))
                    chosen = b.add_op(arith.SelectOp(before_next, read, chosen))
            assert chosen is not None
            return b.ops, [chosen]

        rewriter.replace(op, identity_generic([], op.result.type, body))


class PadToGeneric(RewritePattern):
    """xla.pad (negative edges and interior padding included): a generic over the
    result; position p of a dimension maps to operand index (p - low) / (interior + 1)
    when that divides exactly and lands inside the operand, which is then read at that
    (clamped) index; elsewhere the padding value. A pad of nothing anywhere (JAX's
    irfft pads its operand so) is its operand, no copy (as MLIR folds tensor.pad)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.PadOp, rewriter: PatternRewriter, /) -> None:
        if in_computation(op):
            return
        paddings = (op.get_edge_padding_low(), op.get_edge_padding_high(), op.get_interior_padding())
        if not any(any(p) for p in paddings):
            rewriter.replace_op(op, [], [op.operand])
            return
        operand_shape = shape_of(op.operand.type)
        rank = len(shape_of(op.result.type))
        low, interior = op.get_edge_padding_low(), op.get_interior_padding()
        element = elem_of(op.result.type)
        empty = tensor.EmptyOp([], op.result.type)
        maps = [affine_map(rank, []), affine_map(rank, range(rank))]

        if num_elements(operand_shape) == 0:
            fill = generic([op.padding_value], [empty.tensor], maps, [PARALLEL] * rank, lambda args: ([], [args[0]]))
            rewriter.replace(op, [empty, fill])
            return

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            b = IndexArithmetic()
            valid: list[SSAValue] = []
            indices: list[SSAValue] = []
            for d, (size, lo, gap) in enumerate(zip(operand_shape, low, interior, strict=True)):
                step = gap + 1
                shifted = b.add_const(b.loop_index(d), -lo)
                # unsigned: a negative shifted position is out of range too
                span_end = b.const((size - 1) * step)
                valid.append(b.cmp("ule", shifted, span_end))
                if step > 1:
                    valid.append(b.cmp("eq", b.rem_const(shifted, step), b.const(0)))
                indices.append(b.min_u(b.div_const(shifted, step), b.const(size - 1)))
            read = tensor.ExtractOp(op.operand, indices, element)
            b.ops.append(read)
            in_operand = b.all_of(valid)
            if in_operand is None:  # rank 0: no padding at all
                return b.ops, [read.result]
            return b.ops, [b.add_op(arith.SelectOp(in_operand, read.result, args[0]))]

        pad = generic([op.padding_value], [empty.tensor], maps, [PARALLEL] * rank, body)
        rewriter.replace(op, [empty, pad])


# --------------------------------------------------------------------------------------
# Tuples, optimization barrier
# --------------------------------------------------------------------------------------


class ForwardTupleElement(RewritePattern):
    """get_tuple_element(tuple(a, b, ...)) -> the element itself."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.GetTupleElementOp, rewriter: PatternRewriter, /) -> None:
        producer = op.operand.owner
        if isinstance(producer, so.TupleOp):
            rewriter.replace(op, [], [producer.elements[op.get_index()]])


class EraseUnusedTuple(RewritePattern):
    """A tuple nobody reads is nothing to compute (its elements are computed by their
    own ops); tuples are lowered through their readers only (ForwardTupleElement), so
    one without any was left as not lowered (issue 31, fuzz finding F10)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.TupleOp, rewriter: PatternRewriter, /) -> None:
        if not op.results[0].uses:
            rewriter.erase(op)


class ForwardOptimizationBarrier(RewritePattern):
    """optimization_barrier passes its operands through: its results are the operands
    (nothing reorders code at the linalg level)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.OptimizationBarrierOp, rewriter: PatternRewriter, /) -> None:
        rewriter.replace(op, [], list(op.operands))


# --------------------------------------------------------------------------------------
# Dimension sizes
# --------------------------------------------------------------------------------------
#
# The interpreter (the oracle) keeps the data of a set_dimension_size result and marks
# the dimension's run-time size on the value; get_dimension_size reads it, reductions
# ignore the elements beyond it, and shape ops relabelling dimensions carry it. The JIT
# has static shapes only, so it lowers the cases where that mark is not needed: a
# get_dimension_size with no set_dimension_size in the program (a constant) or of a
# set_dimension_size result (its size, clamped to the bound); a set_dimension_size whose
# users all read the data as it is. Any other case stays a not-lowered error.

# Users that read a set_dimension_size result as a plain array of its static shape
# (the interpreter's "ops that re-index elements return static results").
_STATIC_READERS = frozenset(
    op.name
    for op in (so.ReshapeOp, so.CollapseOp, so.SliceOp, so.DynamicSliceOp, so.DynamicUpdateSliceOp,
               so.ConcatenateOp, so.PadOp)
)  # fmt: skip


def _function_of(op: Operation) -> Operation | None:
    while op is not None and op.name != "func.func":
        op = op.parent_op()  # type: ignore[assignment]
    return op


def _has_callers(fn: Operation) -> bool:
    """Whether function `fn` is called in the module (what it returns keeps its
    run-time sizes in the caller; what it takes may have them)."""
    name = fn.sym_name.data  # type: ignore[attr-defined]
    callee_names = (getattr(o, "callee", None) for o in fn.get_toplevel_object().walk())
    return any(c is not None and c.string_value() == name for c in callee_names)


def _is_input(value: SSAValue) -> bool:
    """An argument of a function no one calls: an input array, of static sizes."""
    if not isinstance(value, BlockArgument):
        return False
    fn = value.block.parent_op()
    return fn is not None and fn.name == "func.func" and not _has_callers(fn)


def _size_tensor(size: SSAValue, bound: int, result_type: Attribute) -> list[Operation]:
    """The rank-0 `size` clamped to [0, bound] as `result_type` (tensor<i32>): what
    set_dimension_size records; the last op gives the result."""
    ops, index = clamped_start(size, bound)
    cast = arith.IndexCastOp(index, elem_of(result_type))
    empty = tensor.EmptyOp([], result_type)
    return [*ops, cast, empty, tensor.InsertOp(cast.result, empty.tensor, [])]


class GetDimensionSizeToConstant(RewritePattern):
    """get_dimension_size -> the static size, when the operand cannot carry a run-time
    size: a function input, or any value once the program sets no dimension size
    (SetDimensionSizeToOperand lowers the get_dimension_size of its own results)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.GetDimensionSizeOp, rewriter: PatternRewriter, /) -> None:
        if not _is_input(op.operand) and any(
            isinstance(o, so.SetDimensionSizeOp) for o in op.get_toplevel_object().walk()
        ):
            return  # the operand may carry a run-time size: the interpreter runs it
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        static = shape_of(op.operand.type)[op.get_dimension()]
        rewriter.replace(op, arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(result_type, [static])))


class SetDimensionSizeToOperand(RewritePattern):
    """set_dimension_size -> its operand ("passes the operand as the result"), when
    every user reads the data as it is (a re-indexing op, the return of a function
    no one calls) or reads its size: get_dimension_size of the dimension set -> the
    clamped size, of another dimension -> get_dimension_size of the operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: so.SetDimensionSizeOp, rewriter: PatternRewriter, /) -> None:
        users = [use.operation for use in op.result.uses]
        for user in users:
            if user.name == "func.return":
                fn = _function_of(user)
                if fn is None or _has_callers(fn):
                    return
            elif not (user.name in _STATIC_READERS or isinstance(user, so.GetDimensionSizeOp)):
                return
        dimension = op.get_dimension()
        bound = shape_of(op.operand.type)[dimension]
        for user in users:
            if isinstance(user, so.GetDimensionSizeOp) and user.get_dimension() == dimension:
                rewriter.replace(user, _size_tensor(op.size, bound, user.result.type))
        rewriter.replace(op, [], [op.operand])  # other dimensions: sizes of the operand


PATTERNS: list[RewritePattern] = [
    BroadcastToGeneric(),
    BroadcastInDimToGeneric(),
    TransposeToGeneric(),
    ReverseToGeneric(),
    SliceToGeneric(),
    ReshapeToGeneric(),
    CollapseToGeneric(),
    DynamicSliceToGeneric(),
    DynamicUpdateSliceToGeneric(),
    ConcatenateToGeneric(),
    PadToGeneric(),
    ForwardTupleElement(),
    EraseUnusedTuple(),
    ForwardOptimizationBarrier(),
    GetDimensionSizeToConstant(),
    SetDimensionSizeToOperand(),
]

# The ops these patterns lower (get/set_dimension_size: the static cases above).
LOWERED: frozenset[str] = frozenset(op.name for op in so.SHAPE_OPS)
