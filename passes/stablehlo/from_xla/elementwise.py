"""StableHLO export: constants, iota, reduce_precision, and the element-wise ops printed under
another name (unary and binary ones are printed by the emitter itself)."""

from __future__ import annotations

from xla_opt.dialects.xla import elementwise as ew

from .common import Emitter, handles, i64_attr, same_properties


@handles(ew.ConstantOp)
def _constant(e: Emitter, op: ew.ConstantOp) -> None:
    from xla_opt.interpreter.elementwise import constant_value

    e.bind(op, [e.constant(constant_value(op), op.output.type)])


@handles(ew.IotaOp)
def _iota(e: Emitter, op: ew.IotaOp) -> None:
    e.simple(op, "stablehlo.iota", {"iota_dimension": i64_attr(op.get_iota_dimension())})


@handles(ew.ReducePrecisionOp)
def _reduce_precision(e: Emitter, op: ew.ReducePrecisionOp) -> None:
    e.simple(
        op,
        "stablehlo.reduce_precision",
        {
            "exponent_bits": f"{op.get_exponent_bits()} : i32",
            "mantissa_bits": f"{op.get_mantissa_bits()} : i32",
        },
    )


same_properties(
    {
        ew.SelectOp: ("stablehlo.select", ()),
        ew.ClampOp: ("stablehlo.clamp", ()),
        ew.ConvertOp: ("stablehlo.convert", ()),
        ew.BitcastConvertOp: ("stablehlo.bitcast_convert", ()),
    }
)
