"""The shape family: ops that move, copy or select elements without computing on them.

Every op keeps the element type, so results are the operand's dtype. Values are
treated as plain arrays of their static shape; the dynamic sizes set by
`set_dimension_size` (see `dynamic.py`) are read by `get_dimension_size` and carried
through the ops that only relabel or copy dimensions (transpose, reverse, broadcast,
broadcast_in_dim, tuples, the barrier). The ops that re-index elements (reshape,
slices, concatenate, pad) return static results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects.xla import shape_ops as so
from xla_opt.dialects.xla.element_types import shape_of

from .dynamic import dynamic_sizes, with_dynamic_size


def plain(value: np.ndarray) -> np.ndarray:
    """`value` as a plain ndarray (no dynamic sizes attached)."""
    return np.asarray(value).view(np.ndarray)


def with_sizes(value: np.ndarray, sizes: Sequence[int]) -> np.ndarray:
    """`value` carrying the run-time sizes `sizes` (a plain array when all are static)."""
    out = plain(value)
    for d, (size, bound) in enumerate(zip(sizes, out.shape)):
        if size != bound:
            out = with_dynamic_size(out, d, size)
    return out


def clamp_starts(
    starts: Sequence[np.ndarray], operand_shape: Sequence[int], sizes: Sequence[int]
) -> list[int]:
    """Start indices clamped to [0, operand_dim - size], so the slice stays in bounds."""
    return [
        max(0, min(int(s), dim - size)) for s, dim, size in zip(starts, operand_shape, sizes)
    ]


def pad(
    operand: np.ndarray,
    value: np.ndarray,
    low: Sequence[int],
    high: Sequence[int],
    interior: Sequence[int],
) -> np.ndarray:
    """Interior padding first, then edge padding (a negative edge removes elements)."""
    x = plain(operand)
    lo_pos = [max(lo, 0) for lo in low]
    hi_pos = [max(hi, 0) for hi in high]
    inner = [n + max(n - 1, 0) * k for n, k in zip(x.shape, interior)]
    extended = [lo + m + hi for lo, m, hi in zip(lo_pos, inner, hi_pos)]
    out = np.full(extended, plain(value)[()], dtype=x.dtype)
    out[tuple(slice(lo, lo + m, k + 1) for lo, m, k in zip(lo_pos, inner, interior))] = x
    crop = tuple(
        slice(max(-lo, 0), e - max(-hi, 0)) for lo, hi, e in zip(low, high, extended)
    )
    return out[crop].copy()


@register_impls
class ShapeFunctions(InterpreterFunctions):
    # ---- broadcasts ------------------------------------------------------------------

    @impl(so.BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: so.BroadcastOp, args: tuple[Any, ...]):
        x = args[0]
        sizes = op.get_broadcast_sizes()
        out = np.broadcast_to(plain(x), (*sizes, *x.shape)).copy()
        return (with_sizes(out, (*sizes, *dynamic_sizes(x))),)

    @impl(so.BroadcastInDimOp)
    def run_broadcast_in_dim(
        self, interpreter: Interpreter, op: so.BroadcastInDimOp, args: tuple[Any, ...]
    ):
        x = args[0]
        result_shape = shape_of(op.result.type)
        dims = op.get_broadcast_dimensions()
        expanded = [1] * len(result_shape)
        sizes = list(result_shape)
        for i, d in enumerate(dims):
            expanded[d] = x.shape[i]
            if x.shape[i] == result_shape[d]:
                sizes[d] = dynamic_sizes(x)[i]
        # operand dimension i -> result dimension dims[i]: put them in result order first
        order = sorted(range(len(dims)), key=lambda i: dims[i])
        arranged = np.transpose(plain(x), order).reshape(expanded)
        out = np.broadcast_to(arranged, result_shape).copy()
        return (with_sizes(out, sizes),)

    # ---- reshapes and permutations ---------------------------------------------------

    @impl(so.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: so.ReshapeOp, args: tuple[Any, ...]):
        x = plain(args[0])
        if op.dimensions is not None:
            # `dimensions` is the collapse order, slowest-varying first
            x = np.transpose(x, op.get_dimensions())
        return (x.reshape(shape_of(op.result.type)).copy(),)

    @impl(so.CollapseOp)
    def run_collapse(self, interpreter: Interpreter, op: so.CollapseOp, args: tuple[Any, ...]):
        # in-order consecutive dimensions: a row-major reshape
        return (plain(args[0]).reshape(shape_of(op.result.type)).copy(),)

    @impl(so.TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: so.TransposeOp, args: tuple[Any, ...]):
        x = args[0]
        perm = op.get_permutation()
        out = np.transpose(plain(x), perm).copy()
        sizes = dynamic_sizes(x)
        return (with_sizes(out, [sizes[p] for p in perm]),)

    @impl(so.ReverseOp)
    def run_reverse(self, interpreter: Interpreter, op: so.ReverseOp, args: tuple[Any, ...]):
        x = args[0]
        dims = op.get_dimensions()
        sizes = dynamic_sizes(x)
        out = plain(x).copy()
        # a dynamic dimension reverses its run-time elements; the padding stays behind
        logical = tuple(slice(0, s) for s in sizes)
        out[logical] = np.flip(plain(x)[logical], dims) if dims else plain(x)[logical]
        return (with_sizes(out, sizes),)

    # ---- slices ----------------------------------------------------------------------

    @impl(so.SliceOp)
    def run_slice(self, interpreter: Interpreter, op: so.SliceOp, args: tuple[Any, ...]):
        index = tuple(
            slice(s, l, st)
            for s, l, st in zip(op.get_start_indices(), op.get_limit_indices(), op.get_strides())
        )
        return (plain(args[0])[index].copy(),)

    @impl(so.DynamicSliceOp)
    def run_dynamic_slice(
        self, interpreter: Interpreter, op: so.DynamicSliceOp, args: tuple[Any, ...]
    ):
        x, *starts = args
        sizes = op.get_slice_sizes()
        begin = clamp_starts(starts, x.shape, sizes)
        index = tuple(slice(b, b + n) for b, n in zip(begin, sizes))
        return (plain(x)[index].copy(),)

    @impl(so.DynamicUpdateSliceOp)
    def run_dynamic_update_slice(
        self, interpreter: Interpreter, op: so.DynamicUpdateSliceOp, args: tuple[Any, ...]
    ):
        x, update, *starts = args
        begin = clamp_starts(starts, x.shape, update.shape)
        out = plain(x).copy()
        out[tuple(slice(b, b + n) for b, n in zip(begin, update.shape))] = plain(update)
        return (out,)

    # ---- concatenate, pad ------------------------------------------------------------

    @impl(so.ConcatenateOp)
    def run_concatenate(
        self, interpreter: Interpreter, op: so.ConcatenateOp, args: tuple[Any, ...]
    ):
        out = np.concatenate([plain(a) for a in args], axis=op.get_dimension())
        return (out.astype(args[0].dtype, copy=False),)

    @impl(so.PadOp)
    def run_pad(self, interpreter: Interpreter, op: so.PadOp, args: tuple[Any, ...]):
        x, value = args
        out = pad(
            x,
            value,
            op.get_edge_padding_low(),
            op.get_edge_padding_high(),
            op.get_interior_padding(),
        )
        return (out,)

    # ---- dimension sizes -------------------------------------------------------------

    @impl(so.GetDimensionSizeOp)
    def run_get_dimension_size(
        self, interpreter: Interpreter, op: so.GetDimensionSizeOp, args: tuple[Any, ...]
    ):
        return (np.array(dynamic_sizes(args[0])[op.get_dimension()], np.int32),)

    @impl(so.SetDimensionSizeOp)
    def run_set_dimension_size(
        self, interpreter: Interpreter, op: so.SetDimensionSizeOp, args: tuple[Any, ...]
    ):
        x, size = args
        return (with_dynamic_size(x, op.get_dimension(), int(size)),)

    # ---- tuples, optimization barrier ------------------------------------------------

    @impl(so.TupleOp)
    def run_tuple(self, interpreter: Interpreter, op: so.TupleOp, args: tuple[Any, ...]):
        return (tuple(args),)

    @impl(so.GetTupleElementOp)
    def run_get_tuple_element(
        self, interpreter: Interpreter, op: so.GetTupleElementOp, args: tuple[Any, ...]
    ):
        return (args[0][op.get_index()],)

    @impl(so.OptimizationBarrierOp)
    def run_optimization_barrier(
        self, interpreter: Interpreter, op: so.OptimizationBarrierOp, args: tuple[Any, ...]
    ):
        return tuple(args)
