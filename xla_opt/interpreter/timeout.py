"""How long a replica waits for the others: a module of its own, which the API reads
without importing xDSL's interpreter framework (`replicas` imports it)."""

DEFAULT_TIMEOUT = 120.0
"""Seconds a replica waits in a collective or recv before giving up (deadlocks among
blocked replicas are found at once; this bounds waits on a replica that never stops)."""
