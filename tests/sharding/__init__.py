"""A corpus of sharded programs exported by JAX, with their inputs and JAX's results
(issue 30): `export.py` makes it, `corpus.py` reads it. See README.md."""
