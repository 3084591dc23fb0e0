"""(to be written)"""

LINALG_OPS: tuple = ()
LINALG_ATTRS: tuple = ()
