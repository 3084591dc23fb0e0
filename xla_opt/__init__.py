"""xla-opt: an MLIR-style compiler framework for XLA's operations, built on xDSL."""

__version__ = "0.1.0"
