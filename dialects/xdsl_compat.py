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
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
)
from xdsl.parser.attribute_parser import AttrParser
from xdsl.utils.exceptions import VerifyException

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


def _install_located_attribute_range_errors() -> None:
    """`18446744073709551616 : i32` or `0x7FC00000 : f16`: xDSL raises a
    VerifyException/OverflowError while building the attribute, with no location; it
    becomes a parse error at the literal."""
    original = AttrParser.parse_optional_builtin_int_or_float_attr
    if getattr(original, "_xla_opt_located", False):
        return

    def parse_optional_builtin_int_or_float_attr(self: AttrParser):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start  # noqa: SLF001
        try:
            return original(self)
        except (VerifyException, ValueError, OverflowError) as e:
            end = self._current_token.span.start  # noqa: SLF001
            text = self.lexer.input.content[start:end].strip()
            message = f"literal {text} does not fit in its type" if isinstance(e, OverflowError) else str(e)
            self.raise_error(message, start, end)

    parse_optional_builtin_int_or_float_attr._xla_opt_located = True  # type: ignore[attr-defined]
    AttrParser.parse_optional_builtin_int_or_float_attr = parse_optional_builtin_int_or_float_attr  # type: ignore[method-assign]


def _install() -> None:
    _install_linear_string_literal()
    _install_located_attribute_range_errors()
    element = AttrParser._TensorLiteralElement  # noqa: SLF001
    if getattr(element, "_xla_opt_hex_floats", False):
        return
    original_to_type = element.to_type

    def to_type(self, parser, type):  # type: ignore[no-untyped-def]
        text = self.span.text
        if isinstance(type, AnyFloat) and text.lstrip("-")[:2] in ("0x", "0X") and isinstance(self.value, int):
            # MLIR: a hexadecimal float is a bit pattern of the type's width, unsigned
            if text.startswith("-"):
                parser.raise_error(f"hexadecimal float literal {text} must not have a sign", at_position=self.span)
            bits = int(self.value)
            if bits.bit_length() > type.bitwidth:
                parser.raise_error(f"hexadecimal float literal {text} does not fit in {type}", at_position=self.span)
            return float_from_bits(bits, type)
        if isinstance(type, ComplexType) and not isinstance(self.value, tuple):
            # xDSL asserts here
            parser.raise_error(f"a {type} element is written (real, imaginary), got {text}", at_position=self.span)
        value = original_to_type(self, parser, type)
        if isinstance(type, IntegerType) and isinstance(value, int):
            # xDSL checks the range later, with a ValueError and no location
            low, high = type.value_range()
            if not low <= value < high:
                parser.raise_error(f"integer literal {text} is out of range for {type}", at_position=self.span)
        return value

    element.to_type = to_type
    element._xla_opt_hex_floats = True


_install()
