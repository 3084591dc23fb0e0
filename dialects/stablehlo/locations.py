"""MLIR debug locations as JAX prints them (`as_text(debug_info=True)`).

xDSL 0.74 reads `loc("file":1:2)`, `loc(unknown)` and location aliases defined
before use. JAX prints more: `loc("f.py":4:24 to :34)` ranges, name locations
`loc("jit(f)/sin"(#loc8))`, `callsite(... at ...)`, and `#loc12 = loc(...)` aliases
defined at the *end* of the file and used before. This module makes every `loc(...)`
parse: a plain `"file":line:col` (or a range starting there) is kept as a
FileLineColLoc, and anything else is accepted and becomes `loc(unknown)` (the parser
then locates the op at its text). Alias definitions `#name = loc(...)` are accepted.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.parser import Parser
from xdsl.parser.attribute_parser import AttrParser
from xdsl.utils.mlir_lexer import MLIRTokenKind

_FILE_LINE_COL = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:\s*(\d+)\s*:\s*(\d+)\s*(?:to\s*[\d:\s]*)?\Z')


def _scan_loc_body(parser: AttrParser) -> str:
    """After `loc`: the raw text between the balanced parentheses."""
    start_tok = parser._current_token  # noqa: SLF001
    if start_tok.kind != MLIRTokenKind.L_PAREN:
        parser.raise_error("expected '(' after 'loc'")
    text = parser.lexer.input.content
    i = start_tok.span.end
    depth = 1
    in_str = False
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
                break
        i += 1
    if depth != 0:
        parser.raise_error("unbalanced parentheses in location")
    body = text[start_tok.span.end : i]
    parser.lexer.pos = i + 1
    parser._parser_state.current_token = parser.lexer.lex()  # noqa: SLF001
    return body


def _location_from_body(body: str):
    m = _FILE_LINE_COL.match(body)
    if m is not None:
        return FileLineColLoc(StringAttr(m.group(1)), IntAttr(int(m.group(2))), IntAttr(int(m.group(3))))
    return UnknownLoc()


def _parse_optional_location(self: AttrParser):
    if self._current_token.text != "loc":  # noqa: SLF001
        return None
    self._consume_token()  # noqa: SLF001
    return _location_from_body(_scan_loc_body(self))


def _install() -> None:
    if getattr(AttrParser, "_xla_opt_lenient_locations", False):
        return
    AttrParser.parse_optional_location = _parse_optional_location  # type: ignore[method-assign]
    original_alias_def = Parser._parse_alias_def  # noqa: SLF001

    def _parse_alias_def(self: Parser) -> None:
        tok = self._current_token  # noqa: SLF001
        if tok.kind == MLIRTokenKind.HASH_IDENT:
            # `#name = loc(...)`: a location alias
            state = self.pos
            self._consume_token()  # noqa: SLF001
            if self.parse_optional_punctuation("=") is not None and self._current_token.text == "loc":  # noqa: SLF001
                self.attribute_aliases[tok.text] = _parse_optional_location(self)
                return
            self._resume_from(state)  # noqa: SLF001
        original_alias_def(self)

    Parser._parse_alias_def = _parse_alias_def  # type: ignore[method-assign]  # noqa: SLF001
    AttrParser._xla_opt_lenient_locations = True  # type: ignore[attr-defined]


_install()
