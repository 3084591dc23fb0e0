"""(to be written)"""

SHAPE_OPS: tuple = ()
SHAPE_ATTRS: tuple = ()
