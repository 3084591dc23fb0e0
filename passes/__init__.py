"""Passes over the xla dialect (StableHLO import). Every pass of xla-opt, here or in
`lowering/`, is registered by its kebab-case name in `xla_opt/universe.py`."""
