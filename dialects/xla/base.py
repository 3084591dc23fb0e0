"""The base class of every xla op: XLA type checks on operands and results, shape
errors turned into verifier errors, the inferred-result-type check, typed property
accessors, and the uniform assembly format (`assembly.py`).

The rest of the dialect's shared machinery lives by job: `element_types.py` (the token
type, element-type predicates, tensor helpers), `properties.py` (property values and
their plain-Python readings), `assembly.py` (the custom format)."""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.ir import (
    Attribute,
)
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.common import ShapeError

from .assembly import UniformAssembly
from .element_types import check_xla_type
from .properties import property_accessor

# --------------------------------------------------------------------------------------
# The op base class
# --------------------------------------------------------------------------------------


class XlaOp(UniformAssembly, IRDLOperation):
    """Base of every xla op: the uniform pretty format, XLA type checks on operands and
    results, shape errors turned into verifier errors, and typed property accessors.

    Every property `p` gets an accessor `op.get_p()` returning its plain Python value
    (see `property_value`), as MLIR generates `getP()`; an absent optional property
    gives its default from `PROPERTY_DEFAULTS` (a value, or a function of the op), or
    None. Ops define composite accessors (`window()`, `dimension_numbers()`) on top."""

    # The spec's values of absent optional properties: name -> value, or op -> value.
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from xdsl.irdl.operations import _PropertyFieldDef  # noqa: PLC2701 - IRDL's field type

        for field_name, field in list(vars(cls).items()):
            if isinstance(field, _PropertyFieldDef) and f"get_{field_name}" not in vars(cls):
                setattr(cls, f"get_{field_name}", property_accessor(field.ir_name or field_name))


    # ---- verification -------------------------------------------------------------
    def verify_(self) -> None:
        for i, v in enumerate(self.operands):
            check_xla_type(v.type, f"operand #{i}", allow_token=True)
        for i, r in enumerate(self.results):
            check_xla_type(r.type, f"result #{i}", allow_token=True)
        try:
            self.verify_xla()
            self.check_inferred_result_types()
        except ShapeError as e:
            raise VerifyException(str(e)) from None

    def verify_xla(self) -> None:
        """Op-specific rules; may raise ShapeError or VerifyException. The result types
        are then checked against `infer_result_types` (when the spec determines them)."""

    def infer_result_types(self) -> list[Attribute] | None:
        """The result types the spec determines from operands and properties, or None."""
        return None

    def check_inferred_result_types(self) -> None:
        inferred = self.infer_result_types()
        if inferred is None:
            return
        declared = [r.type for r in self.results]
        if len(declared) != len(inferred):
            raise VerifyException(
                f"expected {len(inferred)} results, but the op declares {len(declared)}"
            )
        for i, (d, e) in enumerate(zip(declared, inferred, strict=True)):
            if d != e:
                which = "result type" if len(declared) == 1 else f"result #{i} type"
                raise VerifyException(f"inferred {which} {e} does not match declared {d}")
