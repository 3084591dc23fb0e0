"""Window arithmetic, shared by every windowed op (reduce_window, select_and_scatter,
convolution) and by the layers that run them: a window of `size` elements with
`dilation - 1` holes between neighbours spans `(size - 1) * dilation + 1` elements and
visits floor((padded_dilated_base - dilated_window) / stride) + 1 positions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def dilated_size(size: int, dilation: int) -> int:
    """A size after inserting dilation - 1 holes between neighbours: (s - 1) * d + 1."""
    return 0 if size == 0 else (size - 1) * dilation + 1


def padded_size(base: int, base_dilation: int, padding: Sequence[int]) -> int:
    """The dilated base with `padding` = (low, high) added (negative padding removes);
    may be negative, which the callers report."""
    return padding[0] + dilated_size(base, base_dilation) + padding[1]


def window_count(padded: int, window: int, window_dilation: int, stride: int) -> int:
    """How many positions a dilated window moved by `stride` takes in `padded` elements
    (0 when it does not fit)."""
    span = dilated_size(window, window_dilation)
    return 0 if span > padded else (padded - span) // stride + 1


@dataclass(frozen=True)
class Window:
    """A window over every dimension of an operand, with the spec's defaults applied:
    strides and dilations 1, padding (0, 0)."""

    dimensions: tuple[int, ...]
    strides: tuple[int, ...]
    base_dilations: tuple[int, ...]
    window_dilations: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]

    @staticmethod
    def of(
        dimensions: Sequence[int],
        strides: Sequence[int] | None = None,
        base_dilations: Sequence[int] | None = None,
        window_dilations: Sequence[int] | None = None,
        padding: Sequence[Sequence[int]] | None = None,
    ) -> Window:
        rank = len(dimensions)
        ones = (1,) * rank
        return Window(
            tuple(dimensions),
            tuple(strides) if strides is not None else ones,
            tuple(base_dilations) if base_dilations is not None else ones,
            tuple(window_dilations) if window_dilations is not None else ones,
            tuple(tuple(p) for p in padding) if padding is not None else ((0, 0),) * rank,  # type: ignore[misc]
        )
