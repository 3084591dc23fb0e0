"""`convert-stablehlo-to-xla`: StableHLO (as JAX prints it) to the `xla` dialect.
Every `stablehlo` op with an xla counterpart becomes that op (one small rule per op in
`RULES`, one module per op family; element-wise ops by a table). What JAX emits besides plain StableHLO is
handled too:

* `chlo` ops are decomposed into xla ops (top_k via sort + slice; erf, erf_inv, lgamma
  and digamma by the polynomial and Lanczos approximations of XLA's math library; tan,
  sinh, cosh, asin, acos, atan, asinh, acosh, atanh through exp, log, atan2; is_inf;
  next_after by bit arithmetic);
* the LAPACK custom calls of JAX's CPU lowering (`lapack_?potrf_ffi` -> xla.cholesky,
  `lapack_?trsm_ffi` -> xla.triangular_solve; their `info` results become zeros);
* `sdy` sharding annotations are dropped, `func.call` becomes `xla.call`;
* regions: stablehlo regions already take rank-0 tensors, as xla's do. stablehlo.while
  and stablehlo.case/if bodies may use values defined above them, but the xla ops are
  isolated from above: a while carries the captured values as extra state, and a
  conditional branch receives them as its operand (one value directly, several packed
  in an `xla.tuple` and unpacked with `xla.get_tuple_element`).

Attributes with no meaning here (module `mhlo.*`, argument/result attributes such as
`jax.result_info`, `mhlo.sharding`, `mhlo.layout_mode`) are dropped. Any other op is an
error naming the op, at its location.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xla_opt.dialects.stablehlo.ops import ShloOp

# the rules, one module per op family (importing them registers them in RULES)
from . import (  # noqa: F401
    batch_norm,
    chlo,
    collectives,
    control_flow,
    custom_call,
    elementwise,
    gather_scatter,
    linear_algebra,
    reductions,
    rng,
    shape_ops,
    tokens,
)
from .common import RULES, Builder, StablehloConversionError, convert_type, fail

# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------

DROPPED_OPS = {"sdy.mesh"}


def _convert_block(block: Block) -> None:
    for op in list(block.ops):
        for region in op.regions:
            for inner in region.blocks:
                _convert_block(inner)
        _convert_op(op)


def _convert_op(op: Operation) -> None:
    name = op.name
    if name in DROPPED_OPS:
        op.detach()
        op.erase()
        return
    convert = RULES.get(name)
    if convert is None:
        if isinstance(op, ShloOp) or name.startswith(("stablehlo.", "chlo.", "sdy.", "mhlo.")):
            fail(op, f"'{name}' has no xla counterpart (convert-stablehlo-to-xla does not support it)")
        _retype_block_args(op)
        return
    for i, region in enumerate(op.regions):
        # StableHLO's regions are SizedRegion<1>: the rules read their one block
        if (count := len(region.blocks)) != 1:
            fail(op, f"region #{i} must have exactly one block, got {count}")
    b = Builder(op)
    try:
        new_values = convert(op, b)
    except StablehloConversionError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError) as e:
        fail(op, f"cannot convert {name}: {type(e).__name__}: {e}")
    new_values = list(new_values or [])
    if len(new_values) != len(op.results):
        fail(op, f"internal: conversion of {name} gave {len(new_values)} values for {len(op.results)} results")
    for old, new in zip(op.results, new_values, strict=True):
        old.replace_all_uses_with(new)
    _copy_location(op, b)
    op.detach()
    op.erase()


def _copy_location(op: Operation, b: Builder) -> None:
    """The new ops take the converted op's location."""
    prev = op.prev_op
    while prev is not None and prev.location != op.location:
        from xdsl.dialects.builtin import UnknownLoc

        if isinstance(prev.location, UnknownLoc):
            prev.location = op.location
            prev = prev.prev_op
        else:
            break


def _retype_block_args(op: Operation) -> None:
    for region in op.regions:
        for block in region.blocks:
            for arg in list(block.args):
                new_type = convert_type(arg.type)
                if new_type != arg.type:
                    Rewriter.replace_value_with_new_type(arg, new_type)


_DROPPED_FUNC_ATTRS = ("arg_attrs", "res_attrs")


def _convert_func(f: func.FuncOp) -> None:
    for name in _DROPPED_FUNC_ATTRS:
        f.properties.pop(name, None)
        f.attributes.pop(name, None)
    for name in list(f.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.")):
            del f.attributes[name]
    _retype_block_args(f)
    ft = f.function_type
    inputs = [convert_type(t) for t in ft.inputs.data]
    outputs = [convert_type(t) for t in ft.outputs.data]
    if inputs != list(ft.inputs.data) or outputs != list(ft.outputs.data):
        f.function_type = FunctionType.from_lists(inputs, outputs)


def convert_module(ctx: Context | None, module: ModuleOp) -> None:
    """Convert every stablehlo/chlo/sdy op of `module` to xla ops, in place. Raises
    StablehloConversionError (a located DiagnosticError and a PassFailedException)."""
    for name in list(module.attributes):
        if name.startswith(("mhlo.", "jax.", "sdy.", "tf.", "stablehlo.")):
            del module.attributes[name]
    for op in list(module.body.block.ops):
        if isinstance(op, func.FuncOp):
            _convert_func(op)
    _convert_block(module.body.block)


class ConvertStablehloToXlaPass(ModulePass):
    """StableHLO/CHLO (as JAX prints them) to the xla dialect."""

    name = "convert-stablehlo-to-xla"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(ctx, op)


__all__ = ["RULES", "ConvertStablehloToXlaPass", "StablehloConversionError", "convert_module"]
