"""The `xla` dialect: every operation of XLA's operation semantics.

The ops live in one module per family (the same module name in every layer: shape
functions, interpreter, lowering, StableHLO import and export); this module assembles
them into one `Dialect` and exports every op class, and the type predicates and
helpers a pass needs (`is_float`, `elem_of`, `shape_of`, `tensor`..., from
`element_types`; `scalar_of` for computations; `i64_array` for properties):

    from xla_opt.dialects.xla import DotGeneralOp, elem_of, is_float, shape_of
"""

from xdsl.ir import Dialect

from .base import XlaOp
from .element_types import (
    TokenType,
    bit_width,
    check_xla_type,
    elem_of,
    element_type_name,
    is_complex,
    is_float,
    is_integer,
    is_pred,
    is_static_tensor,
    is_unsigned,
    is_xla_element_type,
    same_element_type,
    shape_of,
    tensor,
)
from .batch_norm import *  # noqa: F403 - the op classes are this package's API
from .batch_norm import BATCH_NORM_ATTRS, BATCH_NORM_OPS
from .collectives import *  # noqa: F403
from .collectives import COLLECTIVE_ATTRS, COLLECTIVE_OPS
from .computation import PRED_SCALAR, ReturnOp, scalar_of
from .control_flow import *  # noqa: F403
from .control_flow import CONTROL_FLOW_ATTRS, CONTROL_FLOW_OPS
from .custom_call import *  # noqa: F403
from .custom_call import CUSTOM_CALL_ATTRS, CUSTOM_CALL_OPS
from .elementwise import *  # noqa: F403
from .elementwise import ELEMENTWISE_ATTRS, ELEMENTWISE_OPS
from .gather_scatter import *  # noqa: F403
from .gather_scatter import GATHER_SCATTER_ATTRS, GATHER_SCATTER_OPS
from .linear_algebra import *  # noqa: F403
from .linear_algebra import LINEAR_ALGEBRA_ATTRS, LINEAR_ALGEBRA_OPS
from .properties import i64_array, i64_matrix, property_value
from .reductions import *  # noqa: F403
from .reductions import REDUCTION_ATTRS, REDUCTION_OPS
from .rng import *  # noqa: F403
from .rng import RNG_ATTRS, RNG_OPS
from .shape_ops import *  # noqa: F403
from .shape_ops import SHAPE_ATTRS, SHAPE_OPS
from .tokens import *  # noqa: F403
from .tokens import TOKEN_ATTRS, TOKEN_OPS

# family -> (ops, attributes); the module of each family has the family's name
FAMILIES = {
    "elementwise": (ELEMENTWISE_OPS, ELEMENTWISE_ATTRS),
    "shape_ops": (SHAPE_OPS, SHAPE_ATTRS),
    "reductions": (REDUCTION_OPS, REDUCTION_ATTRS),
    "control_flow": ((*CONTROL_FLOW_OPS, ReturnOp), CONTROL_FLOW_ATTRS),
    "gather_scatter": (GATHER_SCATTER_OPS, GATHER_SCATTER_ATTRS),
    "linear_algebra": (LINEAR_ALGEBRA_OPS, LINEAR_ALGEBRA_ATTRS),
    "batch_norm": (BATCH_NORM_OPS, BATCH_NORM_ATTRS),
    "rng": (RNG_OPS, RNG_ATTRS),
    "custom_call": (CUSTOM_CALL_OPS, CUSTOM_CALL_ATTRS),
    "collectives": (COLLECTIVE_OPS, COLLECTIVE_ATTRS),
    "tokens": (TOKEN_OPS, TOKEN_ATTRS),
}

ALL_OPS = tuple(op for ops, _ in FAMILIES.values() for op in ops)

XLA = Dialect("xla", list(ALL_OPS), [TokenType, *(attr for _, attrs in FAMILIES.values() for attr in attrs)])

__all__ = [
    "XLA",
    "ALL_OPS",
    "FAMILIES",
    "TokenType",
    "XlaOp",
    # what a pass needs besides the op classes: types and their predicates, properties
    "PRED_SCALAR",
    "bit_width",
    "check_xla_type",
    "elem_of",
    "element_type_name",
    "i64_array",
    "i64_matrix",
    "is_complex",
    "is_float",
    "is_integer",
    "is_pred",
    "is_static_tensor",
    "is_unsigned",
    "is_xla_element_type",
    "property_value",
    "same_element_type",
    "scalar_of",
    "shape_of",
    "tensor",
    *sorted({cls.__name__ for ops, attrs in FAMILIES.values() for cls in (*ops, *attrs)}),
]
