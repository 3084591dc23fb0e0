"""(to be written)"""

COLLECTIVE_OPS: tuple = ()
COLLECTIVE_ATTRS: tuple = ()
