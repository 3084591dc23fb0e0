"""Fixes for xDSL 0.74 behaviour that MLIR text from other tools relies on.

* Hexadecimal float literals in dense elements (`dense<0x7FC00000> : tensor<f32>`):
  MLIR reads them as the bit pattern of the float (this is how NaN, Inf and exact
  values are printed by MLIR, JAX and xDSL itself); xDSL 0.74 reads them as the
  integer value. We reinterpret the bits.
* The lexer's string-literal pattern nests `+` inside `*`, so an unterminated string
  literal on a long line backtracks exponentially (a hang on malformed input). The
  same language without the nesting matches in linear time.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.parser.attribute_parser import AttrParser

_BITS_DTYPES = {16: (np.uint16, np.float16), 32: (np.uint32, np.float32), 64: (np.uint64, np.float64)}


def float_from_bits(bits: int, float_type: AnyFloat) -> float:
    """The value of the IEEE (or bfloat16) bit pattern `bits` of `float_type`."""
    if isinstance(float_type, BFloat16Type):
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])
    if isinstance(float_type, Float16Type | Float32Type | Float64Type):
        uint, flt = _BITS_DTYPES[float_type.bitwidth]
        return float(np.array([bits], dtype=uint).view(flt)[0])
    raise NotImplementedError(f"hexadecimal literal for {float_type}")


def _install_linear_string_literal() -> None:
    import re

    from xdsl.utils.mlir_lexer import MLIRLexer

    MLIRLexer._unescaped_characters_regex = re.compile(  # noqa: SLF001
        r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
    )


def _install() -> None:
    _install_linear_string_literal()
    element = AttrParser._TensorLiteralElement  # noqa: SLF001
    if getattr(element, "_xla_opt_hex_floats", False):
        return
    original_to_type = element.to_type

    def to_type(self, parser, type):  # type: ignore[no-untyped-def]
        text = self.span.text.lstrip("-")
        if isinstance(type, AnyFloat) and text[:2] in ("0x", "0X") and isinstance(self.value, int):
            return float_from_bits(abs(int(self.value)), type)
        return original_to_type(self, parser, type)

    element.to_type = to_type
    element._xla_opt_hex_floats = True


_install()
