"""Cumulative reduce_windows (scans) as XLA:CPU computes them.

A reduce_window whose one window dimension spans a whole dimension of length L, padded
by L - 1 (an inclusive scan) or L (an exclusive one) on one side, is a scan: what
jnp.cumsum, cumprod, lax.cummax, cumlogsumexp write. Folded window by window it costs
L^2 / 2 reducer calls, and in bf16 or f16 (every partial sum rounded) its result
depends on the association. XLA:CPU's ReduceWindowRewriter (base length 16) makes a
scan longer than 16 a tree, and its result is that tree's: a strictly sequential fold
differed from JAX's cumsum of 1000 bf16 values on 75% of the elements. The
interpreter computes the same tree (`xla_opt/interpreter/reductions.py`,
`tree_scan`); this pattern writes it as xla ops, which the family's patterns lower
(the scans of rows are reduce_windows of 16, the scan of the rows' totals is a
reduce_window rewritten again while longer than 16):

    x (the scan dimension moved last by a transpose if it is not)
    -> pad with the init value to P, a multiple of 16, and reshape to [..., P/16, 16]
    -> reduce_window of 16 along the rows (padding 15 below; a reverse scan above)
    -> the rows' last (reverse: first) column, their totals [..., P/16]
    -> reduce_window of P/16 padded by P/16 (an exclusive scan), sliced to P/16: each
       row's carry, the fold of the rows before (after) it
    -> map(body, row scans, carries broadcast along the rows)
    -> reshape to [..., P], slice to L, transpose back; an exclusive scan padded with
       the init value (below, reverse: above) to L + 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xla_opt.dialects import xla
from xla_opt.dialects.shapes.windows import Window
from xla_opt.dialects.xla.element_types import elem_of, shape_of
from xla_opt.dialects.xla.element_types import tensor as tensor_type

from .elementwise import in_computation

# XLA:CPU's base length (its ReduceWindowRewriter is registered with base_length 16);
# the interpreter's SCAN_BASE_LENGTH.
SCAN_BASE_LENGTH = 16


@dataclass(frozen=True)
class Scan:
    """A cumulative window: along `dim` (length L), forward or reverse, inclusive (L
    results) or exclusive (L + 1)."""

    dim: int
    length: int
    forward: bool
    exclusive: bool


def cumulative_scan(shape: Sequence[int], window: Window) -> Scan | None:
    """The scan a window over an operand of `shape` is, as XLA:CPU's
    TryOptimizeCumSumOrProd takes it: one non-trivial window dimension, as long as
    that dimension (longer than SCAN_BASE_LENGTH), stride and dilations 1, padded by
    its length - 1 or its length below (forward) or above (reverse); None otherwise."""
    trivial = [
        size == 1 and stride == 1 and base == 1 and dilation == 1 and tuple(pad) == (0, 0)
        for size, stride, base, dilation, pad in zip(
            window.dimensions, window.strides, window.base_dilations, window.window_dilations, window.padding
        )
    ]
    if trivial.count(False) != 1:
        return None
    dim = trivial.index(False)
    length = shape[dim]
    low, high = window.padding[dim]
    if length <= SCAN_BASE_LENGTH or window.dimensions[dim] != length or window.strides[dim] != 1:
        return None
    if window.base_dilations[dim] != 1 or window.window_dilations[dim] != 1:
        return None
    forward = low in (length - 1, length) and high == 0
    if not forward and not (high in (length - 1, length) and low == 0):
        return None
    return Scan(dim, length, forward, (low if forward else high) == length)


def _array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


class _Ops:
    """Builds the xla ops of the tree, in order; each method returns its result."""

    def __init__(self, element) -> None:
        self.ops: list[Operation] = []
        self.element = element

    def _add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def transpose(self, x: SSAValue, permutation: Sequence[int]) -> SSAValue:
        shape = shape_of(x.type)
        result = tensor_type([shape[p] for p in permutation], self.element)
        return self._add(
            xla.TransposeOp.build(operands=[x], result_types=[result], properties={"permutation": _array(permutation)})
        )

    def pad(self, x: SSAValue, init: SSAValue, low: Sequence[int], high: Sequence[int]) -> SSAValue:
        shape = shape_of(x.type)
        result = tensor_type([s + lo + hi for s, lo, hi in zip(shape, low, high, strict=True)], self.element)
        return self._add(
            xla.PadOp.build(
                operands=[x, init],
                result_types=[result],
                properties={
                    "edge_padding_low": _array(low),
                    "edge_padding_high": _array(high),
                    "interior_padding": _array([0] * len(shape)),
                },
            )
        )

    def reshape(self, x: SSAValue, shape: Sequence[int]) -> SSAValue:
        return self._add(xla.ReshapeOp.build(operands=[x], result_types=[tensor_type(shape, self.element)]))

    def slice(self, x: SSAValue, starts: Sequence[int], limits: Sequence[int]) -> SSAValue:
        result = tensor_type([hi - lo for lo, hi in zip(starts, limits, strict=True)], self.element)
        return self._add(
            xla.SliceOp.build(
                operands=[x],
                result_types=[result],
                properties={
                    "start_indices": _array(starts),
                    "limit_indices": _array(limits),
                    "strides": _array([1] * len(starts)),
                },
            )
        )

    def broadcast_in_dim(self, x: SSAValue, shape: Sequence[int], dims: Sequence[int]) -> SSAValue:
        return self._add(
            xla.BroadcastInDimOp.build(
                operands=[x],
                result_types=[tensor_type(shape, self.element)],
                properties={"broadcast_dimensions": _array(dims)},
            )
        )

    def scan_window(self, op: xla.ReduceWindowOp, x: SSAValue, init: SSAValue, size: int, padding) -> SSAValue:
        """reduce_window of `size` along the last dimension with `padding` there (the
        other dimensions untouched), the reducer `op`'s."""
        shape = shape_of(x.type)
        rank = len(shape)
        low, high = padding
        result = tensor_type([*shape[:-1], shape[-1] + low + high - size + 1], self.element)
        pads = [[0, 0]] * (rank - 1) + [[low, high]]
        return self._add(
            xla.ReduceWindowOp.build(
                operands=[[x], [init]],
                result_types=[[result]],
                properties={
                    "window_dimensions": _array([1] * (rank - 1) + [size]),
                    "padding": DenseIntOrFPElementsAttr.from_list(
                        TensorType(i64, [rank, 2]), [v for pair in pads for v in pair]
                    ),
                },
                regions=[op.body.clone()],
            )
        )

    def map(self, op: xla.ReduceWindowOp, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        rank = len(shape_of(lhs.type))
        return self._add(
            xla.MapOp.build(
                operands=[[lhs, rhs]],
                result_types=[lhs.type],
                properties={"dimensions": _array(range(rank))},
                regions=[op.body.clone()],
            )
        )


class CumulativeWindowToTreeScan(RewritePattern):
    """xla.reduce_window that is a scan longer than SCAN_BASE_LENGTH (one input; see
    `cumulative_scan`) -> XLA:CPU's two-level scan as xla ops (see the module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ReduceWindowOp, rewriter: PatternRewriter):
        if in_computation(op) or len(op.inputs) != 1:
            return
        (x,), (init,) = op.inputs, op.init_values
        shape = shape_of(x.type)
        scan = cumulative_scan(shape, op.window())
        if scan is None or 0 in shape:
            return
        b = _Ops(elem_of(x.type))
        rank, last, base = len(shape), len(shape) - 1, SCAN_BASE_LENGTH
        permutation = list(range(rank))
        permutation[scan.dim], permutation[last] = last, scan.dim
        if scan.dim != last:
            x = b.transpose(x, permutation)
        batch = [shape[p] for p in permutation][:-1]
        length = scan.length
        padded = -(-length // base) * base
        rows = padded // base
        if padded != length:
            x = b.pad(x, init, [0] * rank, [0] * last + [padded - length])
        tiles = b.reshape(x, [*batch, rows, base])
        row_scans = b.scan_window(op, tiles, init, base, (base - 1, 0) if scan.forward else (0, base - 1))
        column = base - 1 if scan.forward else 0
        totals = b.slice(row_scans, [0] * rank + [column], [*batch, rows, column + 1])
        totals = b.reshape(totals, [*batch, rows])
        carries = b.scan_window(op, totals, init, rows, (rows, 0) if scan.forward else (0, rows))
        first = 0 if scan.forward else 1
        carries = b.slice(carries, [0] * last + [first], [*batch, first + rows])
        carried = b.broadcast_in_dim(carries, [*batch, rows, base], range(rank))
        out = b.map(op, row_scans, carried)
        out = b.reshape(out, [*batch, padded])
        if padded != length:
            out = b.slice(out, [0] * rank, [*batch, length])
        if scan.dim != last:
            out = b.transpose(out, permutation)  # a swap: its own inverse
        if scan.exclusive:
            edge = [0] * rank
            edge[scan.dim] = 1
            zero = [0] * rank
            out = b.pad(out, init, edge if scan.forward else zero, zero if scan.forward else edge)
        rewriter.replace(op, b.ops, [out])


PATTERNS: list[RewritePattern] = [CumulativeWindowToTreeScan()]
