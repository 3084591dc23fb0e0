"""Shape rules of batch normalization."""

from __future__ import annotations

from collections.abc import Sequence

from .common import (
    Shape,
    ShapeError,
    check_in_range,
    fmt,
)


def batch_norm_feature_size(
    operand: Shape, feature_index: int, vectors: Sequence[tuple[str, Shape]]
) -> int:
    """BatchNorm*: feature_index is a dimension of operand, and every per-feature
    operand (scale, offset, mean, variance) is 1-D of that dimension's size."""
    check_in_range((feature_index,), len(operand), "feature_index")
    features = operand[feature_index]
    for name, shape in vectors:
        if tuple(shape) != (features,):
            raise ShapeError(
                f"{name} {fmt(shape)} must be 1-D of the feature size {features} (operand "
                f"{fmt(operand)} dimension {feature_index})"
            )
    return features


