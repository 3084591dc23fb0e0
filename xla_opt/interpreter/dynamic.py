"""Dynamic dimension sizes (SetDimensionSize / GetDimensionSize).

A tensor's static shape is the bound; `set_dimension_size` gives a dimension a
smaller run-time size. The value stays a numpy array of the static shape (the padding
beyond the dynamic size is unspecified), and carries its dynamic sizes as an
attribute, so that size-sensitive ops (reductions, get_dimension_size) can honour it.
"""

from __future__ import annotations

import numpy as np


class DynamicArray(np.ndarray):
    """An array of the static shape with per-dimension dynamic sizes."""

    dynamic_sizes: tuple[int, ...]

    def __array_finalize__(self, obj) -> None:
        self.dynamic_sizes = getattr(obj, "dynamic_sizes", None) or tuple(self.shape)


def dynamic_sizes(value: np.ndarray) -> tuple[int, ...]:
    """The run-time size of each dimension (the static shape unless set)."""
    return getattr(value, "dynamic_sizes", None) or tuple(value.shape)


def with_dynamic_size(value: np.ndarray, dimension: int, size: int) -> np.ndarray:
    """A copy of `value` whose `dimension` has run-time size `size` (clamped to the bound)."""
    sizes = list(dynamic_sizes(value))
    sizes[dimension] = max(0, min(int(size), value.shape[dimension]))
    out = np.array(value, copy=True).view(DynamicArray)
    out.dynamic_sizes = tuple(sizes)
    return out


def logical_view(value: np.ndarray) -> np.ndarray:
    """The elements within the dynamic sizes, as a plain array (what reductions see)."""
    sizes = dynamic_sizes(value)
    plain = np.asarray(value).view(np.ndarray)
    if tuple(sizes) == tuple(plain.shape):
        return plain
    return plain[tuple(slice(0, s) for s in sizes)]
