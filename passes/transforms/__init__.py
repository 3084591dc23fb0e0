"""xla -> xla transformations: each module is one pass, named after it
(`xla-legalize-broadcast` -> `xla_legalize_broadcast.py`)."""
