"""Patches to xDSL's parser and lexer: what MLIR, JAX and StableHLO print is read as MLIR
reads it, malformed input is a located parse error (not an internal error or a hang),
and the commonest spellings are read without xDSL's per-token and per-type costs."""

from __future__ import annotations

import math
import re
import struct

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    CallSiteLoc,
    ComplexType,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FusedLoc,
    IntAttr,
    IntegerType,
    LocationAttr,
    NameLoc,
    NoneAttr,
    ReducedPrecisionFloatType,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.parser.attribute_parser import AttrParser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

from xla_opt.xdsl_patches.patch import Changes, Patch, replacing

# --------------------------------------------------------------------------------------
# dense literals: hexadecimal floats, values out of their type's range
# --------------------------------------------------------------------------------------


def _bits_dtypes(bitwidth: int) -> tuple[type, type]:
    """numpy's unsigned integer and float types of a width (numpy is imported on first
    use: `xla-opt --version` does not need it)."""
    import numpy as np

    return {16: (np.uint16, np.float16), 32: (np.uint32, np.float32), 64: (np.uint64, np.float64)}[bitwidth]


def float_from_bits(bits: int, float_type: AnyFloat) -> float:
    """The value of the IEEE (or bfloat16) bit pattern `bits` of `float_type`."""
    import numpy as np

    if isinstance(float_type, BFloat16Type):
        return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])
    if isinstance(float_type, Float16Type | Float32Type | Float64Type):
        uint, flt = _bits_dtypes(float_type.bitwidth)
        return float(np.array([bits], dtype=uint).view(flt)[0])
    if isinstance(float_type, ReducedPrecisionFloatType):  # the 8-, 6- and 4-bit floats
        return float_type.decode_bits(bits)
    raise NotImplementedError(f"hexadecimal literal for {float_type}")


# bfloat16's smallest overflowing magnitude: half an ulp above its largest finite value
_BF16_OVERFLOW = 2.0**128 * (1 - 2.0**-9)


def _overflows(value: float, float_type: AnyFloat) -> bool:
    """Whether a finite literal rounds to an infinity in `float_type`: numpy's casts
    (ml_dtypes' for bfloat16, through float32), computed with `struct`, which rounds
    the same way and raises OverflowError exactly when the result is infinite (every
    float literal is checked: importing numpy here cost each start-up ~0.07 s)."""
    if not math.isfinite(value):
        return False
    if isinstance(float_type, ReducedPrecisionFloatType):
        # the 8-, 6- and 4-bit floats: xDSL's rounding says None beyond the largest
        # finite value, whether the format then has an infinity, a NaN or saturates
        return value != 0 and float_type._rounded_exponent_mantissa(abs(value)) is None
    try:
        if isinstance(float_type, BFloat16Type):
            return abs(struct.unpack("<f", struct.pack("<f", value))[0]) >= _BF16_OVERFLOW
        if isinstance(float_type, Float16Type | Float32Type):
            struct.pack("<e" if isinstance(float_type, Float16Type) else "<f", value)
    except OverflowError:
        return True
    return False


def _install_dense_literals(changes: Changes) -> None:
    element = AttrParser._TensorLiteralElement  # noqa: SLF001
    original_to_type = element.to_type

    def to_type(self, parser, type):  # type: ignore[no-untyped-def]
        text = self.span.text
        if isinstance(type, AnyFloat) and text.lstrip("-")[:2] in ("0x", "0X") and isinstance(self.value, int):
            if text.startswith("-"):
                parser.raise_error(f"hexadecimal float literal {text} must not have a sign", at_position=self.span)
            bits = int(self.value)
            if bits.bit_length() > type.bitwidth:
                parser.raise_error(f"hexadecimal float literal {text} does not fit in {type}", at_position=self.span)
            return float_from_bits(bits, type)
        if isinstance(type, ComplexType) and not isinstance(self.value, tuple):
            parser.raise_error(f"a {type} element is written (real, imaginary), got {text}", at_position=self.span)
        if (
            isinstance(type, ReducedPrecisionFloatType)
            and not type.SEMANTICS.has_sign
            and isinstance(self.value, int | float)
            and self.value < 0
        ):
            parser.raise_error(f"float literal {text} is negative, but {type} has no sign", at_position=self.span)
        value = original_to_type(self, parser, type)
        if isinstance(type, AnyFloat) and isinstance(value, float) and _overflows(value, type):
            # xDSL raises OverflowError when packing the bytes (or rounds to inf)
            parser.raise_error(f"float literal {text} is out of range for {type}", at_position=self.span)
        if isinstance(type, IntegerType) and isinstance(value, int):
            low, high = type.value_range()
            if not low <= value < high:
                parser.raise_error(f"integer literal {text} is out of range for {type}", at_position=self.span)
        return value

    changes.replace(element, "to_type", to_type)


DENSE_LITERALS = Patch(
    name="dense-literals",
    reason="""
    (1) Hexadecimal float literals in dense elements (`dense<0x7FC00000> : tensor<f32>`):
    MLIR reads them as the bit pattern of the float (how NaN, Inf and exact values are
    printed by MLIR, JAX and xDSL itself); xDSL reads the integer value. We take the
    bits; a literal wider than the type or with a sign is an error, as in MLIR.
    (2) Dense literals that do not fit their element type: an integer out of range (xDSL
    raises a ValueError later, without a location), a finite float beyond the type's
    range (an OverflowError, or a silent infinity for bf16) or a real number for a
    complex type (xDSL asserts) are parse errors at the literal. For the 8-, 6- and
    4-bit floats (hexadecimal literals are their bits), out of range means beyond the
    largest finite value, and a negative literal of the unsigned f8E8M0FNU is an error.
    """,
    upstream="""
    upstream candidate: xdsl/parser/attribute_parser.py (_TensorLiteralElement.to_type);
    not reported (xdslproject/xdsl#3370 made FloatAttr read hexadecimal bits, not dense literals)
    """,
    apply=_install_dense_literals,
)

# --------------------------------------------------------------------------------------
# integer and float attributes out of their type's range
# --------------------------------------------------------------------------------------


def _install_located_attribute_range_errors(changes: Changes) -> None:
    original = AttrParser.parse_optional_builtin_int_or_float_attr

    def parse_optional_builtin_int_or_float_attr(self: AttrParser):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start  # noqa: SLF001
        try:
            return original(self)
        except (VerifyException, ValueError, OverflowError) as e:
            end = self._current_token.span.start  # noqa: SLF001
            text = self.lexer.input.content[start:end].strip()
            message = f"literal {text} does not fit in its type" if isinstance(e, OverflowError) else str(e)
            self.raise_error(message, start, end)

    changes.replace(AttrParser, "parse_optional_builtin_int_or_float_attr", parse_optional_builtin_int_or_float_attr)


ATTRIBUTE_RANGES = Patch(
    name="attribute-ranges",
    reason="""
    (3) Integer and float attributes out of their type's range (`1 << 64 : i32`,
    `0x7FC00000 : f16`): xDSL raises VerifyException/OverflowError with no location;
    they become parse errors at the literal.
    """,
    upstream="""
    upstream candidate: xdsl/parser/attribute_parser.py (parse_optional_builtin_int_or_float_attr); not reported
    """,
    apply=_install_located_attribute_range_errors,
)

# --------------------------------------------------------------------------------------
# string literals in linear time
# --------------------------------------------------------------------------------------


LINEAR_STRING_LITERAL = Patch(
    name="linear-string-literal",
    reason="""
    (4) The lexer's string-literal pattern nests `+` inside `*`, so an unterminated string
    on a long line backtracks exponentially (a hang on malformed input). The same
    language without the nesting matches in linear time.
    """,
    upstream="upstream candidate: xdsl/utils/mlir_lexer.py (MLIRLexer._unescaped_characters_regex); not reported",
    apply=replacing(
        MLIRLexer, "_unescaped_characters_regex", re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
    ),
)

# --------------------------------------------------------------------------------------
# locations as JAX prints them
# --------------------------------------------------------------------------------------

_LOC_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|#[\w$.-]+|[A-Za-z_][\w$.-]*|\d+|[():,\[\]<>])')
_LOC_ALIAS_DEF = re.compile(r"^(#[\w$.-]+)\s*=\s*loc\(", re.MULTILINE)


def _balanced_body(text: str, start: int) -> int:
    """The index of the `)` closing the parenthesis opened just before `start`, or -1."""
    depth, i, in_str = 1, start, False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _scan_loc_body(parser: AttrParser) -> str:
    """After `loc`: the raw text between the balanced parentheses."""
    start_tok = parser._current_token  # noqa: SLF001
    if start_tok.kind != MLIRTokenKind.L_PAREN:
        parser.raise_error("expected '(' after 'loc'")
    text = parser.lexer.input.content
    end = _balanced_body(text, start_tok.span.end)
    if end < 0:
        parser.raise_error("unbalanced parentheses in location")
    parser.lexer.pos = end + 1
    parser._parser_state.current_token = parser.lexer.lex()  # noqa: SLF001
    return text[start_tok.span.end : end]


class _LocationReader:
    """Reads a location body (`"f.py":3:4 to :9`, `"name"(...)`, `callsite(a at b)`,
    `fused<...>[a, b]`, `#alias`, `unknown`). Aliases resolve through the parser's
    table, else through their definition anywhere in the input (JAX prints most
    after their uses); an unreadable or cyclic one is unknown."""

    def __init__(self, parser: AttrParser):
        self.parser = parser
        text = parser.lexer.input.content
        self.alias_bodies: dict[str, str] = {}
        for m in _LOC_ALIAS_DEF.finditer(text):
            end = _balanced_body(text, m.end())
            if end >= 0:
                self.alias_bodies[m.group(1)] = text[m.end() : end]
        self.resolved: dict[str, LocationAttr] = {}
        self.resolving: set[str] = set()

    def read(self, body: str) -> LocationAttr:
        self.tokens = _LOC_TOKEN.findall(body)
        self.i = 0
        try:
            loc = self._loc()
        except (IndexError, ValueError):
            return UnknownLoc()
        return loc if self.i == len(self.tokens) else UnknownLoc()

    def _next(self) -> str:
        self.i += 1
        return self.tokens[self.i - 1]

    def _peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _expect(self, token: str) -> None:
        if self._next() != token:
            raise ValueError(token)

    def _loc(self) -> LocationAttr:
        tok = self._next()
        if tok == "unknown":
            return UnknownLoc()
        if tok.startswith("#"):
            return self._alias(tok)
        if tok == "callsite":
            self._expect("(")
            callee = self._loc()
            self._expect("at")
            caller = self._loc()
            self._expect(")")
            return CallSiteLoc(callee, caller)
        if tok == "fused":
            if self._peek() == "<":  # metadata: skipped
                while self._next() != ">":
                    pass
            self._expect("[")
            locs = [self._loc()]
            while self._peek() == ",":
                self._next()
                locs.append(self._loc())
            self._expect("]")
            return FusedLoc(tuple(locs), NoneAttr())
        if not tok.startswith('"'):
            raise ValueError(tok)
        # MLIR's escapes (\\, \", \n, \t, \XX bytes) as xDSL's lexer reads them: UTF-8 paths intact
        name = StringLiteral.from_span(Span(0, len(tok), Input(tok, "<location>"))).string_contents
        if self._peek() == ":":
            self._next()
            line = int(self._next())
            self._expect(":")
            col = int(self._next())
            if self._peek() == "to":  # a range: its start is the position
                self._next()
                if self._peek() != ":":
                    self._next()
                self._expect(":")
                self._next()
            return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        child: Attribute = NoneAttr()
        if self._peek() == "(":
            self._next()
            child = self._loc()
            self._expect(")")
        return NameLoc(StringAttr(name), child)

    def _alias(self, name: str) -> LocationAttr:
        known = self.parser.attribute_aliases.get(name)
        if isinstance(known, LocationAttr):
            return known
        if name in self.resolved:
            return self.resolved[name]
        body = self.alias_bodies.get(name)
        if body is None or name in self.resolving:
            return UnknownLoc()
        self.resolving.add(name)
        saved = (self.tokens, self.i)
        loc = self.read(body)
        self.tokens, self.i = saved
        self.resolving.discard(name)
        self.resolved[name] = loc
        return loc


def _location_from_body(parser: AttrParser, body: str) -> LocationAttr:
    reader = getattr(parser, "_xla_location_reader", None)
    if reader is None:
        reader = _LocationReader(parser)
        parser._xla_location_reader = reader  # type: ignore[attr-defined]
    return reader.read(body)


def _parse_optional_location(self: AttrParser):
    if self._current_token.text != "loc":  # noqa: SLF001
        return None
    self._consume_token()  # noqa: SLF001
    from xla_opt.diagnostics import file_position

    loc = _location_from_body(self, _scan_loc_body(self))
    return loc if file_position(loc) is not None else UnknownLoc()


def _install_lenient_locations(changes: Changes) -> None:
    changes.replace(AttrParser, "parse_optional_location", _parse_optional_location)
    original_alias_def = Parser._parse_alias_def  # noqa: SLF001

    def _parse_alias_def(self: Parser) -> None:
        tok = self._current_token  # noqa: SLF001
        if tok.kind == MLIRTokenKind.HASH_IDENT:
            # `#name = loc(...)`: a location alias
            state = self.pos
            self._consume_token()  # noqa: SLF001
            if self.parse_optional_punctuation("=") is not None and self._current_token.text == "loc":  # noqa: SLF001
                self._consume_token()  # noqa: SLF001 - `loc`
                self.attribute_aliases[tok.text] = _location_from_body(self, _scan_loc_body(self))
                return
            self._resume_from(state)  # noqa: SLF001
        original_alias_def(self)

    changes.replace(Parser, "_parse_alias_def", _parse_alias_def)


JAX_LOCATIONS = Patch(
    name="jax-locations",
    reason="""
    (5) Debug locations as JAX prints them (`as_text(debug_info=True)`): xDSL reads
    `loc("file":1:2)`, `loc(unknown)` and aliases defined before use. JAX also prints
    ranges `loc("f.py":4:24 to :34)`, names `loc("jit(f)/sin"(#loc8))`, `callsite(...)`,
    `fused<...>[...]`, and `#loc12 = loc(...)` aliases defined at the end of the file,
    after their uses. All of these are read (a range as its start, a forward alias from
    its definition anywhere in the input), so an op keeps the user's Python position
    (`xla_opt.diagnostics.op_location` reports the innermost file position). A location
    with no file position in it (a bare name) is `loc(unknown)`: the parser then
    locates the op at its text.
    """,
    upstream="""
    upstream candidate: xdsl/parser/attribute_parser.py (parse_optional_location) and
    xdsl/parser/core.py (_parse_alias_def); not reported
    """,
    apply=_install_lenient_locations,
)

# --------------------------------------------------------------------------------------
# complex literals with mixed integer and float parts
# --------------------------------------------------------------------------------------


def _parse_optional_complex(self: AttrParser):  # type: ignore[no-untyped-def]
    """xDSL 0.74's `_parse_optional_complex`, accepting `(float, int)` and `(int, float)`:
    which of them the element type allows is decided when the literal meets its type."""
    if self._current_token.kind != MLIRTokenKind.L_PAREN:
        return None
    start_token = self._consume_token(MLIRTokenKind.L_PAREN)
    real, _ = self._parse_bool_int_or_float()
    self.parse_punctuation(",")
    imag, _ = self._parse_bool_int_or_float()
    if self._current_token.kind != MLIRTokenKind.R_PAREN:
        # a located error, not _consume_token's assertion (`dense<(1.5, 2>)>`)
        self.raise_error("expected ')' after the imaginary part of a complex literal")
    end_token = self._consume_token(MLIRTokenKind.R_PAREN)
    span = Span(start_token.span.start, end_token.span.end, start_token.span.input)
    if (isinstance(real, bool) or isinstance(imag, bool)) and type(real) is not type(imag):
        self.raise_error("a complex literal's parts are both booleans or both numbers", at_position=span)
    return (real, imag), span


def _install_mixed_complex_literals(changes: Changes) -> None:
    changes.replace(AttrParser, "_parse_optional_complex", _parse_optional_complex)
    element = AttrParser._TensorLiteralElement
    original_to_complex = element.to_complex

    def to_complex(self, parser, type):  # type: ignore[no-untyped-def]
        # xDSL would truncate a float part of an integer complex with int()
        if isinstance(type.element_type, IntegerType) and any(isinstance(v, float) for v in self.value):
            parser.raise_error(f"a {type} element has integer parts, got {self.span.text}", at_position=self.span)
        if isinstance(type.element_type, AnyFloat):
            return tuple(_complex_part(parser, self, text, value, type.element_type)
                         for text, value in zip(_complex_part_texts(self.span.text), self.value, strict=True))  # fmt: skip
        return original_to_complex(self, parser, type)

    changes.replace(element, "to_complex", to_complex)


def _complex_part_texts(text: str) -> list[str]:
    """The spellings of the two parts of `(re, im)` (a number never holds a comma)."""
    parts = [p.strip() for p in text.strip()[1:-1].split(",")]
    return parts if len(parts) == 2 else ["", ""]


def _complex_part(parser, element, text: str, value, part_type: AnyFloat) -> float:  # type: ignore[no-untyped-def]
    """One part of a float complex literal: a hexadecimal integer is the IEEE bits of
    the part's type (MLIR's rule for real literals, applied to each part: how MLIR and
    JAX print a complex NaN or infinity, `(0x7FC00000, 0x3F800000)`); any other number
    is converted as a real literal is."""
    if text.lstrip("-")[:2] not in ("0x", "0X") or not isinstance(value, int) or isinstance(value, bool):
        return float(value)
    if text.startswith("-"):
        parser.raise_error(f"hexadecimal float literal {text} must not have a sign", at_position=element.span)
    if value.bit_length() > part_type.bitwidth:
        parser.raise_error(f"hexadecimal float literal {text} does not fit in {part_type}", at_position=element.span)
    return float_from_bits(value, part_type)


MIXED_COMPLEX_LITERALS = Patch(
    name="mixed-complex-literals",
    reason="""
    (8) Complex literals mixing integer and float parts (`dense<(1.5, 2)> :
    tensor<complex<f32>>`, as MLIR and StableHLO print and accept): xDSL requires both
    parts of the same Python type ("Complex value must be either (float, float) or (int,
    int)"). A float complex takes any mix of int and float parts (each converted
    exactly as a real literal would be: a hexadecimal part is the IEEE bits of the
    part's type, as MLIR reads it, so `(0x7FC00000, 0x3F800000)` is nan+1j, the way
    JAX prints a complex NaN or infinity; xDSL read the integer 2143289344); an
    integer part written as a float, or a boolean part, stays an error, now at the
    literal.
    """,
    upstream="""
    upstream candidate: xdsl/parser/attribute_parser.py (_parse_optional_complex,
    _TensorLiteralElement.to_complex); not reported
    """,
    apply=_install_mixed_complex_literals,
)

# --------------------------------------------------------------------------------------
# splat literals stay splats
# --------------------------------------------------------------------------------------

# Splats of at least this many elements keep one value (smaller ones are expanded as
# xDSL does, so code reading an attribute's values, e.g. a property's, sees them all).
SPLAT_KEPT_FROM = 1 << 16


def _install_splat_literals(changes: Changes) -> None:
    """A large splat literal (`dense<0.0> : tensor<512x1x6400x6400xf32>`) keeps its
    one value: xDSL's DenseIntOrFPElementsAttr holds a single value for a shaped type
    (it prints it as a splat), but its parser repeats the value once per element,
    which exhausts memory for large shapes. The constant's consumers keep it a splat:
    the interpreter as a broadcast view, the lowering as a fill."""
    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr

    original = AttrParser.parse_dense_int_or_fp_elements_attr

    def parse_dense_int_or_fp_elements_attr(self: AttrParser, given_type):  # type: ignore[no-untyped-def]
        start = self.pos

        def not_a_splat():  # type: ignore[no-untyped-def]
            self._resume_from(start)  # noqa: SLF001
            return original(self, given_type)

        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.text in ("[", ">"):  # noqa: SLF001 - a list or empty
            return not_a_splat()
        hex_string = self.parse_optional_str_literal()
        element = None if hex_string is not None else self._parse_tensor_literal()  # noqa: SLF001
        if self.parse_optional_punctuation(">") is None:
            return not_a_splat()
        type = given_type
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()  # noqa: SLF001
        count = 1
        for d in type.get_shape():
            count *= d
        if count < SPLAT_KEPT_FROM:
            return not_a_splat()
        if hex_string is not None:
            try:
                data = bytes.fromhex(hex_string[2:])
            except ValueError:
                return not_a_splat()
            if len(data) != type.element_type.compile_time_size:
                return not_a_splat()
            return DenseIntOrFPElementsAttr(type, BytesAttr(data))
        values, shape = element  # type: ignore[misc]
        if shape or len(values) != 1:
            return not_a_splat()
        value = values[0].to_type(self, type.element_type)
        if isinstance(type.element_type, IntegerType):
            value = type.element_type.get_normalized_value(value)
        # the constructor, not from_list: from_list repeats a single value too
        return DenseIntOrFPElementsAttr(type, BytesAttr(type.element_type.pack([value])))

    changes.replace(AttrParser, "parse_dense_int_or_fp_elements_attr", parse_dense_int_or_fp_elements_attr)


SPLAT_LITERALS = Patch(
    name="splat-literals",
    reason="""
    (10) The dense-literal parser repeats a splat's value once per element (as does
    `DenseIntOrFPElementsAttr.from_list`): `dense<0.0> : tensor<512x1x6400x6400xf32>`
    exhausts memory. A splat of `SPLAT_KEPT_FROM` elements or more keeps its one value
    (the attribute allows it and prints it as a splat).
    """,
    upstream="upstream candidate: xdsl/parser/attribute_parser.py (parse_dense_int_or_fp_elements_attr); not reported",
    apply=_install_splat_literals,
)

# --------------------------------------------------------------------------------------
# the dense-literal type check builds its constraint once
# --------------------------------------------------------------------------------------

_dense_literal_type_constraint = None


def _parse_dense_literal_type(self: AttrParser):  # type: ignore[no-untyped-def]
    """xDSL 0.74's `_parse_dense_literal_type` ("Expected memref, vector or tensor type
    of integer, index, float, or complex type"; "Dense literal attribute should have a
    static shape."), with the constraint built on first use instead of per literal."""
    global _dense_literal_type_constraint
    from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, RankedStructure
    from xdsl.irdl import base

    if _dense_literal_type_constraint is None:
        _dense_literal_type_constraint = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])
    type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
    if not _dense_literal_type_constraint.verifies(type):
        self.raise_error("Expected memref, vector or tensor type of integer, index, float, or complex type")
    if any(dim == DYNAMIC_INDEX for dim in list(type.get_shape())):
        self.raise_error("Dense literal attribute should have a static shape.")
    return type


DENSE_LITERAL_TYPE_CHECK = Patch(
    name="dense-literal-type-check",
    reason="""
    (12) The dense-literal parser builds the constraint that checks the literal's type
    (`base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])`, ~3 ms)
    for every literal: 0.12 s of parsing JAX's transformer block, whose 36 constants
    are most of its parse time. It is built once; the checks and messages are xDSL's.
    """,
    upstream="upstream candidate: xdsl/parser/attribute_parser.py (_parse_dense_literal_type); not reported",
    apply=replacing(AttrParser, "_parse_dense_literal_type", _parse_dense_literal_type),
)

# --------------------------------------------------------------------------------------
# a tensor type's spelling parsed once
# --------------------------------------------------------------------------------------

# `tensor<` dims `x` element `>`, the element a plain integer or float name; the end
# must not run on into a longer word (`tensor<4xf32>` is not read out of `tensor<4xf32>x`)
_SIMPLE_TENSOR_TYPE = re.compile(r"tensor<(?:(?:[0-9]+|\?)x)*(?:[su]?i[0-9]+|f(?:16|32|64)|bf16|index)>(?![\w$.])")
_TYPE_MEMO_SIZE = 4096


def _install_type_memo(changes: Changes) -> None:
    original = AttrParser.parse_optional_type
    memo: dict[str, Attribute] = {}

    def parse_optional_type(self: AttrParser):  # type: ignore[no-untyped-def]
        token = self._current_token  # noqa: SLF001
        if token.text != "tensor":
            return original(self)
        content = self.lexer.input.content
        match = _SIMPLE_TENSOR_TYPE.match(content, token.span.start)
        if match is None:
            return original(self)
        if (known := memo.get(match.group())) is None:
            known = original(self)
            if len(memo) >= _TYPE_MEMO_SIZE:
                memo.clear()
            memo[match.group()] = known
            return known
        self.lexer.pos = match.end()
        self._parser_state.current_token = self.lexer.lex()  # noqa: SLF001
        return known

    changes.replace(AttrParser, "parse_optional_type", parse_optional_type)


TENSOR_TYPE_MEMO = Patch(
    name="tensor-type-memo",
    reason="""
    (16) The parser reads a type token by token, building its shape list and attributes
    each time: `tensor<8x8xf32>` costs ~0.2 ms, half of parsing a 2,000-op program in
    which every op spells its types. A ranked tensor type of static or dynamic
    dimensions and a plain element type (`tensor<8x?xf32>`, `tensor<i1>`) is looked
    up by its spelling once parsed (types are immutable); any other type is parsed as
    before.
    """,
    upstream="""
    not reported (a memo of ours; upstream, the parser could build a type's parameters
    without a list per dimension)
    """,
    apply=_install_type_memo,
)

# --------------------------------------------------------------------------------------
# the lexer reads the commonest tokens straight from the text
# --------------------------------------------------------------------------------------


def _install_fast_common_tokens(changes: Changes) -> None:
    from xdsl.utils.lexer import Token

    punctuation = {
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "/": MLIRTokenKind.SLASH,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
    }
    prefixed = {
        "%": MLIRTokenKind.PERCENT_IDENT,
        "#": MLIRTokenKind.HASH_IDENT,
        "!": MLIRTokenKind.EXCLAMATION_IDENT,
        "^": MLIRTokenKind.CARET_IDENT,
    }
    whitespace = MLIRLexer._whitespace_regex
    bare_suffix = MLIRLexer.bare_identifier_suffix_regex
    suffix_id = MLIRLexer._suffix_id
    general = MLIRLexer.lex

    def lex(self):  # type: ignore[no-untyped-def]
        text = self.input.content
        if type(self) is not MLIRLexer or not isinstance(text, str):  # a subclass has its own rules
            return general(self)
        start = whitespace.match(text, self.pos).end()
        if start >= len(text):
            return general(self)
        char = text[start]
        kind = punctuation.get(char)
        if kind is not None:
            self.pos = start + 1
            return Token(kind, Span(start, start + 1, self.input))
        if char.isalpha() or char == "_":
            self.pos = bare_suffix.match(text, start + 1).end()
            return Token(MLIRTokenKind.BARE_IDENT, Span(start, self.pos, self.input))
        kind = prefixed.get(char)
        if kind is not None and not (char == "#" and text.startswith("-}", start + 1)):
            match = suffix_id.match(text, start + 1)
            if match is not None:
                self.pos = match.end()
                return Token(kind, Span(start, self.pos, self.input))
        return general(self)  # the rest, errors included, as xDSL lexes them

    lex.general = general  # type: ignore[attr-defined]
    changes.replace(MLIRLexer, "lex", lex)


FAST_COMMON_TOKENS = Patch(
    name="fast-common-tokens",
    reason="""
    (20) The lexer built its punctuation table per token (~6 µs a token). The commonest
    tokens (one-character punctuation, bare and %/#/!/^ identifiers) are read straight
    from the text with xDSL's rules and spans; every other token, byte inputs and
    lexer subclasses take xDSL's lexer.
    """,
    upstream="upstream candidate: xdsl/utils/mlir_lexer.py (MLIRLexer.lex: the table built once); not reported",
    apply=_install_fast_common_tokens,
)

PATCHES = (
    DENSE_LITERALS,
    ATTRIBUTE_RANGES,
    LINEAR_STRING_LITERAL,
    JAX_LOCATIONS,
    MIXED_COMPLEX_LITERALS,
    SPLAT_LITERALS,
    DENSE_LITERAL_TYPE_CHECK,
    TENSOR_TYPE_MEMO,
    FAST_COMMON_TOKENS,
)
