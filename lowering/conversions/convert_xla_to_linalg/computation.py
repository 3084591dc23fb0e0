"""Computations as scalar code: the body of a reduce (or of any op carrying a scalar
computation region) inlined into a `linalg.generic` body.

An xla computation works on rank-0 tensors (`^bb0(%acc: tensor<f32>, %x: tensor<f32>)`);
inside a generic body the same values are plain scalars (`f32`). Every op of the
region is mapped through `emit_scalar`, each rank-0 tensor value standing for the
scalar that `emit_scalar` produced for it.

A computation with no scalar lowering is the program's to fix or the interpreter's to
run: it is reported as a located `DiagnosticError` at the op that has none (at the op
holding the computation when the region itself is malformed), as every op
`convert-xla-to-linalg` does not lower is, so the JIT says where.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, Region, SSAValue
from xla_opt.diagnostics import Diagnostic, DiagnosticError, op_diagnostic
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.lowering.conversions.convert_xla_to_linalg.scalar_ops import ScalarLoweringError, emit_scalar


def inline_computation(region: Region, scalar_args: Sequence[SSAValue]) -> tuple[list[Operation], list[SSAValue]]:
    """The scalar ops computing `region` (a single-block computation ending in
    xla.return) on `scalar_args` (one scalar per block argument, in order), and the
    scalars it returns. The region itself is left untouched."""
    block = region.block
    holder = region.parent_op()
    if len(block.args) != len(scalar_args):
        raise _error(holder, f"computation takes {len(block.args)} arguments, got {len(scalar_args)} scalars")
    scalar_of: dict[SSAValue, SSAValue] = dict(zip(block.args, scalar_args, strict=True))
    ops: list[Operation] = []
    for op in block.ops:
        operands = [scalar_of[v] for v in op.operands]
        if isinstance(op, ReturnOp):
            return ops, operands
        if op.regions:
            raise _error(op, "inside a computation cannot be lowered to scalar code")
        try:
            new_ops, results = emit_scalar(op, operands)
        except ScalarLoweringError as e:
            raise _error(op, f"cannot lower a computation to scalar code: {e}") from None
        ops.extend(new_ops)
        scalar_of.update(zip(op.results, results, strict=True))
    raise _error(holder, "computation does not end with xla.return")


def _error(op: Operation | None, message: str) -> DiagnosticError:
    """`message` located at `op` (its file:line:col)."""
    return DiagnosticError([op_diagnostic(op, message) if op is not None else Diagnostic("<unknown>", 0, 0, message)])
