"""(to be written)"""

CONTROL_FLOW_OPS: tuple = ()
CONTROL_FLOW_ATTRS: tuple = ()
