"""xla-opt: an MLIR-style compiler framework for XLA's operations, built on xDSL."""

from xla_opt.api import ProgramError, compile, load_program, run  # noqa: A004
from xla_opt.interpreter.gather_scatter import register_custom_call

__version__ = "0.1.0"
__all__ = ["run", "compile", "load_program", "ProgramError", "register_custom_call"]
