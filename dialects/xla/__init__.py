"""The `xla` dialect: every operation of XLA's operation semantics.

The ops live in family modules; this module assembles them into one `Dialect`.
"""

from xdsl.ir import Dialect

from .base import TokenType, XlaOp
from .collectives import COLLECTIVE_ATTRS, COLLECTIVE_OPS
from .computation import ReturnOp
from .control_flow import CONTROL_FLOW_ATTRS, CONTROL_FLOW_OPS
from .elementwise import *  # noqa: F403 - the op classes are this package's API
from .elementwise import ELEMENTWISE_ATTRS, ELEMENTWISE_OPS
from .gather_scatter import GATHER_SCATTER_ATTRS, GATHER_SCATTER_OPS
from .linear_algebra import LINALG_ATTRS, LINALG_OPS
from .shape_ops import SHAPE_ATTRS, SHAPE_OPS

ALL_OPS = (
    *ELEMENTWISE_OPS,
    ReturnOp,
    *SHAPE_OPS,
    *LINALG_OPS,
    *CONTROL_FLOW_OPS,
    *GATHER_SCATTER_OPS,
    *COLLECTIVE_OPS,
)

XLA = Dialect(
    "xla",
    list(ALL_OPS),
    [
        TokenType,
        *ELEMENTWISE_ATTRS,
        *SHAPE_ATTRS,
        *LINALG_ATTRS,
        *CONTROL_FLOW_ATTRS,
        *GATHER_SCATTER_ATTRS,
        *COLLECTIVE_ATTRS,
    ],
)

__all__ = ["XLA", "ALL_OPS", "TokenType", "XlaOp", "ReturnOp"]
