"""Attributes and types of the `stablehlo` and `chlo` dialects, as JAX prints them.

* enums in MLIR's opaque syntax: `#stablehlo<comparison_direction LT>`,
  `#stablehlo<precision DEFAULT>`, `#chlo<comparison_direction LT>`...
* structured attributes: `#stablehlo.gather<offset_dims = [1], ...>`,
  `#stablehlo.scatter<...>`, `#stablehlo.dot<...>`, `#stablehlo.channel_handle<...>`
  and `#stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>` (or `raw ...`): their
  fields are kept in a dictionary (integer lists as `array<i64: ...>`, integers as i64);
* attributes with no meaning here (`#stablehlo.output_operand_alias<...>`,
  `#stablehlo.result_accuracy<...>`...) are kept as their text;
* the type `!stablehlo.token`.
"""

from __future__ import annotations

import types

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum
from xla_opt.dialects.parsing import parse_integer_or_bool, parse_nested_list


@irdl_attr_definition
class StablehloTokenType(ParametrizedAttribute, TypeAttribute):
    """`!stablehlo.token`."""

    name = "stablehlo.token"


# --------------------------------------------------------------------------------------
# Enums
# --------------------------------------------------------------------------------------


def _enum(prefix: str, name: str, values: list[str]) -> type[EnumAttribute]:
    enum_type = StrEnum(name.title().replace("_", ""), {v: v for v in values})  # type: ignore[misc]
    cls_name = "".join(p.capitalize() for p in f"{prefix}_{name}".split("_")) + "Attr"
    cls = types.new_class(
        cls_name,
        (EnumAttribute[enum_type], SpacedOpaqueSyntaxAttribute),  # type: ignore[valid-type]
        {},
        lambda ns: ns.update({"name": f"{prefix}.{name}", "__module__": __name__}),
    )
    return irdl_attr_definition(cls)


_ENUMS = {
    "comparison_direction": ["EQ", "NE", "GE", "GT", "LE", "LT"],
    "comparison_type": ["NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"],
    "precision": ["DEFAULT", "HIGH", "HIGHEST"],
    "fft_type": ["FFT", "IFFT", "RFFT", "IRFFT"],
    "transpose": ["TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"],
    "rng_distribution": ["UNIFORM", "NORMAL"],
    "rng_algorithm": ["DEFAULT", "THREE_FRY", "PHILOX"],
    "custom_call_api_version": [
        "API_VERSION_UNSPECIFIED",
        "API_VERSION_ORIGINAL",
        "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED",
        "API_VERSION_TYPED_FFI",
    ],
    "result_accuracy_mode": ["DEFAULT", "HIGHEST", "TOLERANCE"],
}
STABLEHLO_ENUMS = {name: _enum("stablehlo", name, values) for name, values in _ENUMS.items()}
CHLO_ENUMS = {
    name: _enum("chlo", name, _ENUMS[name]) for name in ("comparison_direction", "comparison_type", "precision")
}


def enum_value(attr: Attribute | None) -> str | None:
    """The word of an enum attribute (also accepts a string attribute)."""
    if attr is None:
        return None
    if isinstance(attr, EnumAttribute):
        return str(attr.data.value)
    if isinstance(attr, StringAttr):
        return attr.data
    raise TypeError(f"not an enum: {attr}")


# --------------------------------------------------------------------------------------
# Structured attributes: `#stablehlo.gather<key = value, ...>`
# --------------------------------------------------------------------------------------


def parse_field_value(parser: AttrParser) -> Attribute:
    """`[1, 2]` (an i64 array), an integer (i64), `true`/`false`, or any attribute."""
    tok = parser._current_token.text  # noqa: SLF001
    if tok == "[":
        return DenseArrayBase.from_list(i64, [int(v) for v in parse_nested_list(parser, parse_integer_or_bool)])
    if tok in ("true", "false"):
        parser.parse_keyword(tok)
        return BoolAttr.from_bool(tok == "true")
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
    if value is not None:
        return IntegerAttr(value, i64)
    return parser.parse_attribute()


class _StructAttr(ParametrizedAttribute):
    """Fields `key = value` in angle brackets, kept in a dictionary. A trailing comma
    before `>` is accepted, as StableHLO's struct parser does (`index_vector_dim = 1,>`)."""

    fields: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        values: dict[str, Attribute] = {}
        parser.parse_punctuation("<")
        if parser.parse_optional_punctuation(">") is not None:
            return (DictionaryAttr(values),)
        while True:
            key = parser.parse_identifier(" (a field name)")
            parser.parse_punctuation("=")
            values[key] = parse_field_value(parser)
            if parser.parse_optional_punctuation(",") is None:
                break
            if parser.parse_optional_punctuation(">") is not None:
                return (DictionaryAttr(values),)
        parser.parse_punctuation(">")
        return (DictionaryAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        first = True
        for key, value in self.fields.data.items():
            if not first:
                printer.print_string(", ")
            first = False
            printer.print_string(f"{key} = ")
            if isinstance(value, DenseArrayBase):
                printer.print_string("[" + ", ".join(str(v) for v in value.get_values()) + "]")
            elif isinstance(value, IntegerAttr) and value.type == i64:
                printer.print_string(str(value.value.data))
            else:
                printer.print_attribute(value)
        printer.print_string(">")

    def get(self, key: str) -> Attribute | None:
        return self.fields.data.get(key)

    def ints(self, key: str) -> list[int]:
        value = self.get(key)
        if value is None:
            return []
        if isinstance(value, DenseArrayBase):
            return [int(v) for v in value.get_values()]
        if isinstance(value, ArrayAttr):
            return [int(a.value.data) for a in value.data]  # type: ignore[attr-defined]
        raise TypeError(f"field {key} is not an integer list: {value}")

    def int(self, key: str, default: int | None = None) -> int | None:
        value = self.get(key)
        if value is None:
            return default
        assert isinstance(value, IntegerAttr)
        return int(value.value.data)

    @classmethod
    def from_fields(cls, **fields: Attribute):
        return cls(DictionaryAttr(fields))


@irdl_attr_definition
class GatherDimensionNumbersAttr(_StructAttr):
    name = "stablehlo.gather"


@irdl_attr_definition
class ScatterDimensionNumbersAttr(_StructAttr):
    name = "stablehlo.scatter"


@irdl_attr_definition
class DotDimensionNumbersAttr(_StructAttr):
    name = "stablehlo.dot"


@irdl_attr_definition
class ChannelHandleAttr(_StructAttr):
    name = "stablehlo.channel_handle"


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(_StructAttr):
    """`#chlo.ragged_dot<lhs_batching_dimensions = [...], ..., lhs_ragged_dimensions =
    [...], rhs_group_dimensions = [...]>`."""

    name = "chlo.ragged_dot"


@irdl_attr_definition
class DotAlgorithmAttr(_StructAttr):
    name = "stablehlo.dot_algorithm"


# --------------------------------------------------------------------------------------
# Convolution dimension numbers
# --------------------------------------------------------------------------------------

CONV_FIELDS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
)


def _parse_dim_layout(parser: AttrParser, letters: tuple[str, str]) -> tuple[int, int, list[int]]:
    """`[b, f, 0, 1]`: the positions of the two letters and of the spatial dimensions
    (by their number)."""
    pos = parser.pos
    items: list[str | int] = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE,
        lambda: parser.parse_optional_integer(allow_boolean=False)
        if parser._current_token.kind.name == "INTEGER_LIT"  # noqa: SLF001
        else parser.parse_identifier(),
    )
    where: dict = {}
    for i, item in enumerate(items):
        if item in where:
            parser.raise_error(f"dimension '{item}' appears twice", pos, parser.pos)
        where[item] = i
    for letter in letters:
        if letter not in where:
            parser.raise_error(f"expected dimension '{letter}' in {items}", pos, parser.pos)
    spatial = [k for k in where if isinstance(k, int)]
    if sorted(spatial) != list(range(len(spatial))) or len(where) != len(spatial) + 2:
        parser.raise_error(
            f"expected '{letters[0]}', '{letters[1]}' and spatial dimensions 0..n-1, got {items}",
            pos,
            parser.pos,
        )
    return where[letters[0]], where[letters[1]], [where[s] for s in range(len(spatial))]


def parse_conv_dimension_numbers(parser: AttrParser) -> dict[str, Attribute]:
    """`[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]` into the nine dimension fields."""
    ib, if_, isp = _parse_dim_layout(parser, ("b", "f"))
    parser.parse_characters("x")
    ko, ki, ksp = _parse_dim_layout(parser, ("o", "i"))
    parser.parse_punctuation("->")
    ob, of, osp = _parse_dim_layout(parser, ("b", "f"))
    ints = lambda v: DenseArrayBase.from_list(i64, v)  # noqa: E731
    one = lambda v: IntegerAttr(v, i64)  # noqa: E731
    return {
        "input_batch_dimension": one(ib),
        "input_feature_dimension": one(if_),
        "input_spatial_dimensions": ints(isp),
        "kernel_input_feature_dimension": one(ki),
        "kernel_output_feature_dimension": one(ko),
        "kernel_spatial_dimensions": ints(ksp),
        "output_batch_dimension": one(ob),
        "output_feature_dimension": one(of),
        "output_spatial_dimensions": ints(osp),
    }


@irdl_attr_definition
class ConvDimensionNumbersAttr(_StructAttr):
    """`#stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>` or
    `#stablehlo.conv<raw input_batch_dimension = 0, ...>`."""

    name = "stablehlo.conv"

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("raw") is not None:
            values: dict[str, Attribute] = {}
            while True:
                key = parser.parse_identifier(" (a field name)")
                parser.parse_punctuation("=")
                values[key] = parse_field_value(parser)
                if parser.parse_optional_punctuation(",") is None:
                    break
        else:
            values = parse_conv_dimension_numbers(parser)
        parser.parse_punctuation(">")
        return (DictionaryAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        """`<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>`, as StableHLO prints it."""

        def layout(prefix: str, first: tuple[str, str], letters: tuple[str, str]) -> str:
            spatial = self.ints(f"{prefix}_spatial_dimensions")
            items: list[str] = [""] * (len(spatial) + 2)
            items[self.int(first[0])] = letters[0]  # type: ignore[index]
            items[self.int(first[1])] = letters[1]  # type: ignore[index]
            for i, d in enumerate(spatial):
                items[d] = str(i)
            return "[" + ", ".join(items) + "]"

        lhs = layout("input", ("input_batch_dimension", "input_feature_dimension"), ("b", "f"))
        rhs = layout(
            "kernel", ("kernel_output_feature_dimension", "kernel_input_feature_dimension"), ("o", "i")
        )
        out = layout("output", ("output_batch_dimension", "output_feature_dimension"), ("b", "f"))
        printer.print_string(f"<{lhs}x{rhs}->{out}>")


# --------------------------------------------------------------------------------------
# Attributes kept as text
# --------------------------------------------------------------------------------------

OPAQUE_STABLEHLO_ATTRS = [
    "stablehlo.output_operand_alias",
    "stablehlo.result_accuracy",
    "stablehlo.type_extensions",
    "stablehlo.bounds",
    "stablehlo.type",
    "stablehlo.argument_info",
]


class OpaqueAttr(ParametrizedAttribute):
    """An attribute with no meaning here, kept as the text of its `<...>` body."""

    body: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        if parser._current_token.text != "<":  # noqa: SLF001
            return (StringAttr(""),)
        return (StringAttr(parser._parse_dialect_symbol_body()),)  # noqa: SLF001

    def print_parameters(self, printer: Printer) -> None:
        if self.body.data:
            printer.print_string(f"<{self.body.data}>")


def opaque_attrs(names: list[str]) -> list[type[Attribute]]:
    out = []
    for n in names:
        cls_name = "".join(p.capitalize() for p in n.replace(".", "_").split("_")) + "Attr"
        cls = types.new_class(
            cls_name, (OpaqueAttr,), {}, lambda ns, n=n: ns.update({"name": n, "__module__": __name__})
        )
        out.append(irdl_attr_definition(cls))
    return out


STABLEHLO_ATTRS = [
    StablehloTokenType,
    *STABLEHLO_ENUMS.values(),
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
    DotDimensionNumbersAttr,
    ChannelHandleAttr,
    DotAlgorithmAttr,
    ConvDimensionNumbersAttr,
    *opaque_attrs(OPAQUE_STABLEHLO_ATTRS),
]
CHLO_ATTRS = [*CHLO_ENUMS.values(), RaggedDotDimensionNumbersAttr]
