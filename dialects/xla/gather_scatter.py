"""(to be written)"""

GATHER_SCATTER_OPS: tuple = ()
GATHER_SCATTER_ATTRS: tuple = ()
