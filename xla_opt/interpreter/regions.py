"""Running computation regions (reducers, comparators, scatter updates...).

A computation works on rank-0 tensors. When its body holds only element-wise ops
(the common case: add, max, compare, select...), it can be run once on whole arrays
instead of once per element: `run_vectorized` does that, and every family uses it
before falling back to element-by-element calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter
from xdsl.ir import Region

from xla_opt.dialects.xla import elementwise as ew
from xla_opt.dialects.xla.element_types import elem_of
from xla_opt.dialects.xla.computation import ReturnOp

from .dtypes import numpy_dtype

_VECTORIZABLE = (*ew.UNARY_OPS, *ew.BINARY_OPS, ew.CompareOp, ew.ConstantOp, ew.SelectOp,
                 ew.ClampOp, ew.ConvertOp, ReturnOp)  # fmt: skip


def is_elementwise(region: Region) -> bool:
    """True when every op of the single-block region works element by element."""
    return len(region.blocks) == 1 and all(isinstance(op, _VECTORIZABLE) for op in region.block.ops)


def call(interpreter: Interpreter, region: Region, args: Sequence[Any], name: str = "computation") -> tuple[Any, ...]:
    """Run the region once on `args` (rank-0 arrays, or whole arrays when vectorizable)."""
    return tuple(interpreter.run_ssacfg_region(region, tuple(args), name))


def run_vectorized(
    interpreter: Interpreter, region: Region, args: Sequence[np.ndarray], name: str = "computation"
) -> tuple[np.ndarray, ...]:
    """Apply a scalar computation element-wise to same-shaped (or broadcastable) arrays."""
    if is_elementwise(region):
        out = call(interpreter, region, args, name)
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
        return tuple(np.broadcast_to(o, shape).copy() for o in out)
    arrays = np.broadcast_arrays(*args)
    shape = arrays[0].shape if arrays else ()
    results: list[list[Any]] | None = None
    for index in np.ndindex(shape):
        out = call(interpreter, region, [a[index].copy() for a in arrays], name)
        if results is None:
            results = [[] for _ in out]
        for acc, o in zip(results, out):
            acc.append(o)
    assert results is not None, "a computation over an empty shape"
    return tuple(np.array(r).reshape(shape) for r in results)


def plain(x: np.ndarray) -> np.ndarray:
    """A plain ndarray view (no subclass such as DynamicArray)."""
    return np.asarray(x).view(np.ndarray)


def result_dtypes(op) -> list[np.dtype]:
    """The numpy dtypes of an op's results."""
    return [numpy_dtype(elem_of(r.type)) for r in op.results]


def exact(values: Sequence[np.ndarray], dtypes: Sequence[np.dtype]) -> tuple[np.ndarray, ...]:
    """Plain arrays of exactly `dtypes` (a region may compute in a wider type)."""
    return tuple(np.asarray(v).view(np.ndarray).astype(d, copy=False) for v, d in zip(values, dtypes, strict=True))
