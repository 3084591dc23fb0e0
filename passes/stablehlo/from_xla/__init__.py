"""`xla` -> StableHLO text: any xla program printed as StableHLO that JAX's MLIR parser
accepts and XLA compiles (`xla-opt -t stablehlo`, or `to_stablehlo_text(module)`).

Ops print in MLIR's generic form (`%v3 = "stablehlo.add"(%v1, %v2) : (...) -> ...`) with
StableHLO's attributes (`#stablehlo.dot<...>`, `#stablehlo.gather<...>`,
`#stablehlo.scatter<...>`, `#stablehlo.conv<...>`, `#stablehlo<comparison_direction LT>`,
`array<i64: ...>`, `dense<...>`). Where the two dialects differ, the exporter spells the
xla op out in StableHLO:

* binary element-wise ops with XLA broadcasting (scalars, `broadcast_dimensions`,
  degenerate dimensions) get explicit `stablehlo.broadcast_in_dim` operands;
* `xla.broadcast` is a broadcast_in_dim, `xla.collapse` a reshape, and a reshape with
  `dimensions` (a collapse order) a transpose then a reshape; `xla.dot` a dot_general;
* `xla.conditional` becomes `stablehlo.if` (PRED index) or `stablehlo.case` (S32
  index): StableHLO's branches take no arguments, so each branch's parameter is
  replaced by its branch operand; `xla.call` becomes `func.call`;
* `xla.rng_uniform`/`xla.rng_normal` become `stablehlo.rng` with a constant shape.

Ops that have no meaning in a single-device StableHLO program (infeed, outfeed, send,
recv, the replica collectives, set_dimension_size) raise `StableHLOExportError` naming
the op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target
from xla_opt.dialects import xla

# the handlers, one module per op family (importing them registers them)
from . import (  # noqa: F401
    batch_norm,
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
from .common import MODULE_ATTRIBUTES, Emitter, StableHLOExportError, type_text

# --------------------------------------------------------------------------------------
# Functions and the module
# --------------------------------------------------------------------------------------


def _functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.ops if isinstance(op, func.FuncOp)]


def _reachable(functions: dict[str, func.FuncOp], entry: str) -> list[str]:
    """`entry` and every function it calls, directly or not (in module order)."""
    seen, todo = {entry}, [entry]
    while todo:
        f = functions[todo.pop()]
        for op in f.walk():
            callee = getattr(op, "callee", None)
            if isinstance(op, func.CallOp | xla.CallOp) and callee is not None:
                target = callee.root_reference.data
                if target in functions and target not in seen:
                    seen.add(target)
                    todo.append(target)
    return [n for n in functions if n in seen]


def _emit_function(e: Emitter, f: func.FuncOp, name: str, public: bool) -> None:
    visibility = "public" if public else "private"
    if not f.body.blocks:  # a declaration
        ins = ", ".join(type_text(t) for t in f.function_type.inputs.data)
        outs = ", ".join(type_text(t) for t in f.function_type.outputs.data)
        e.write(f"func.func private @{name}({ins}) -> ({outs})")
        return
    block = f.body.blocks[0]
    args = []
    for arg in block.args:
        n = e.fresh()
        e.names[arg] = n
        args.append(f"{n}: {type_text(arg.type)}")
    outs = [type_text(t) for t in f.function_type.outputs.data]
    header = f"func.func {visibility} @{name}(" + ", ".join(args) + ")"
    if outs:
        header += " -> (" + ", ".join(outs) + ")"
    e.write(header + " {")
    e.indent += 2
    for op in block.ops:
        e.emit(op)
    e.indent -= 2
    e.write("}")


def to_stablehlo_text(module: ModuleOp, entry: str | None = None, module_name: str | None = None) -> str:
    """The StableHLO text of an xla program (a verified `ModuleOp`).

    Without `entry`, every function is printed under its own name (public). With
    `entry`, only that function (renamed `@main`, as XLA expects of the entry point) and
    the functions it calls are printed. Raises `StableHLOExportError` (with `.op`) for
    anything StableHLO cannot express on a single device."""
    functions = {f.sym_name.data: f for f in _functions(module)}
    for op in module.ops:
        if not isinstance(op, func.FuncOp):
            raise StableHLOExportError(f"'{op.name}' at module level has no StableHLO export", op)
    if entry is not None:
        if entry not in functions:
            raise StableHLOExportError(
                f"no function @{entry} in the program (functions: {', '.join(functions) or 'none'})"
            )
        names = _reachable(functions, entry)
        for n in names:
            if not functions[n].body.blocks:
                what = f"@{n} is" if n == entry else f"@{entry} calls @{n}, which is"
                raise StableHLOExportError(
                    f"{what} only declared (XLA needs every function's body)",
                    functions[n],
                )
        renames = {entry: "main"}
        if "main" in functions and entry != "main" and "main" in names:
            renames["main"] = "main_0"
    else:
        names = list(functions)
        renames = {}
    e = Emitter()
    e.renames = renames
    for n in names:
        _emit_function(e, functions[n], renames.get(n, n), public=entry is None or n == entry)
    body = "\n".join(e.lines)
    sym = module.sym_name.data if getattr(module, "sym_name", None) is not None else (module_name or "xla_program")
    return f"module @{sym} attributes {MODULE_ATTRIBUTES} {{\n{body}\n}}\n"


# --------------------------------------------------------------------------------------
# `xla-opt -t stablehlo`
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StableHLOTarget(Target):
    """Print the program as StableHLO text (`xla-opt file.mlir -t stablehlo`)."""

    name = "stablehlo"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from xla_opt.diagnostics import Diagnostic, DiagnosticError, op_diagnostic

        try:
            text = to_stablehlo_text(module)
        except StableHLOExportError as err:
            message = str(err)
            if err.op is not None:
                prefix = f"'{err.op.name}' "
                if message.startswith(prefix):  # the diagnostic names the op already
                    message = message[len(prefix) :]
                else:
                    message = f"cannot be exported to StableHLO: {message}"
                diag = op_diagnostic(err.op, message)
            else:
                diag = Diagnostic("xla-opt", 0, 0, f"cannot export to StableHLO: {err}")
            raise DiagnosticError([diag]) from None
        output.write(text)


__all__ = ["StableHLOExportError", "StableHLOTarget", "to_stablehlo_text", "type_text"]
