"""Parsing helpers shared by our dialects' assembly formats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.parser import AttrParser


def parse_nested_list(parser: AttrParser, parse_leaf: Callable[[AttrParser], Any]) -> list:
    """`[a, b]`, `[[a, b], [c, d]]` or `[]`: a bracketed list whose items are nested
    lists or leaves read by `parse_leaf`."""
    parser.parse_punctuation("[")
    items: list = []
    if parser.parse_optional_punctuation("]") is not None:
        return items
    while True:
        if parser._current_token.text == "[":  # noqa: SLF001 - a look-ahead
            items.append(parse_nested_list(parser, parse_leaf))
        else:
            items.append(parse_leaf(parser))
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation("]")
    return items


def parse_integer(parser: AttrParser) -> int:
    return parser.parse_integer(allow_boolean=False)


def parse_integer_or_bool(parser: AttrParser) -> int | bool:
    word = parser._current_token.text  # noqa: SLF001 - a look-ahead
    if word in ("true", "false"):
        parser.parse_keyword(word)
        return word == "true"
    return parse_integer(parser)
