"""Program formats of the XLA world that xla-opt reads and writes besides MLIR text:
one module per format (HLO text: `hlo_text.py`; MLIR bytecode and serialized
`jax.export.Exported`: `binary.py`, with `bytecode.py`, `vhlo.py`, `sdy.py` and
`jax_export.py`). Nothing heavy is imported here: each
entry point imports its format's module when it meets that format."""
