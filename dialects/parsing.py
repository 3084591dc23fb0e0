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


I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def parse_integer(parser: AttrParser) -> int:
    """An integer of an attribute our ops keep as i64 (dimensions, sizes, indices): one
    outside i64's signed range is a located error, not a value wrapped around or an
    internal error when the attribute is built (issue 31: `broadcast_dimensions =
    [18446744073709551616]`)."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if not I64_MIN <= value <= I64_MAX:
        parser.raise_error(f"integer {value} does not fit in i64", start, parser.pos)
    return value


def parse_integer_or_bool(parser: AttrParser) -> int | bool:
    word = parser._current_token.text  # noqa: SLF001 - a look-ahead
    if word in ("true", "false"):
        parser.parse_keyword(word)
        return word == "true"
    return parse_integer(parser)
