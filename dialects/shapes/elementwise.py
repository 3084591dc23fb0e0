"""Shape rules of the element-wise family: select, clamp, bitcast_convert,
reduce_precision and iota."""

from __future__ import annotations

from .common import Shape, ShapeError, fmt


def select_shape(pred: Shape, on_true: Shape, on_false: Shape) -> Shape:
    """Select: on_true and on_false have one shape; pred is a scalar or has that shape."""
    if tuple(on_true) != tuple(on_false):
        raise ShapeError(
            f"on_true {fmt(on_true)} and on_false {fmt(on_false)} must have the same shape"
        )
    if len(pred) != 0 and tuple(pred) != tuple(on_true):
        raise ShapeError(
            f"pred {fmt(pred)} must be a scalar or have the shape {fmt(on_true)} of the "
            "selected operands"
        )
    return tuple(on_true)


def clamp_shape(min_: Shape, operand: Shape, max_: Shape) -> Shape:
    """Clamp: min and max are scalars or have the operand's shape."""
    for name, s in (("min", min_), ("max", max_)):
        if len(s) != 0 and tuple(s) != tuple(operand):
            raise ShapeError(
                f"{name} {fmt(s)} must be a scalar or have the operand's shape {fmt(operand)}"
            )
    return tuple(operand)


def bitcast_convert_shape(operand: Shape, in_bits: int, out_bits: int) -> Shape:
    """BitcastConvert: with equal widths the shape is kept; converting B-bit elements to
    B'-bit ones with B > B' appends a minor dimension of size B/B'; with B < B' the
    operand's minor dimension must be B'/B and is dropped."""
    if in_bits == out_bits:
        return tuple(operand)
    if in_bits > out_bits:
        if in_bits % out_bits:
            raise ShapeError(f"cannot bitcast {in_bits}-bit to {out_bits}-bit elements")
        return (*operand, in_bits // out_bits)
    if out_bits % in_bits:
        raise ShapeError(f"cannot bitcast {in_bits}-bit to {out_bits}-bit elements")
    ratio = out_bits // in_bits
    if len(operand) == 0 or operand[-1] != ratio:
        raise ShapeError(
            f"bitcast from {in_bits}-bit to {out_bits}-bit elements needs a minor dimension "
            f"of size {ratio}, but the operand shape is {fmt(operand)}"
        )
    return tuple(operand[:-1])


def check_reduce_precision(exponent_bits: int, mantissa_bits: int) -> None:
    """ReducePrecision: exponent_bits >= 1 and mantissa_bits >= 0."""
    if exponent_bits < 1:
        raise ShapeError(f"exponent_bits must be at least 1, got {exponent_bits}")
    if mantissa_bits < 0:
        raise ShapeError(f"mantissa_bits must be non-negative, got {mantissa_bits}")


def check_iota(shape: Shape, iota_dimension: int) -> None:
    """Iota: iota_dimension indexes a dimension of the (rank >= 1) result."""
    if not 0 <= iota_dimension < len(shape):
        raise ShapeError(
            f"iota_dimension {iota_dimension} out of range [0, {len(shape)}) for result "
            f"shape {fmt(shape)}"
        )
