"""The `stablehlo` and `chlo` ops, as JAX prints them (the `sdy` dialect is `dialects/sdy/`).

Every op is defined the same way: any operands, results and regions, and properties
kept as parsed (named as in StableHLO's generic form). The ops only exist to be
converted to the `xla` dialect (`convert-stablehlo-to-xla`), which checks them; they
are not verified on their own and print in the generic form.

Each op parses its generic form (`"stablehlo.gather"(%x, %i) <{...}> : ...`) and the
pretty form StableHLO prints for it, e.g.

    stablehlo.add %a, %b : tensor<4xf32>
    stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<1x2x3xf32>
    stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.reduce(%x init: %y) applies stablehlo.add across dimensions = [1] : ...
    stablehlo.while(%iterArg = %x) : tensor<i32> cond {...} do {...}
    stablehlo.convolution(%a, %b) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {...}
    stablehlo.slice %x [1:3, 4:8:2] : (tensor<4x8xf32>) -> tensor<2x2xf32>
    chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    TupleType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import IsTerminator
from xla_opt.dialects.parsing import parse_integer_or_bool, parse_nested_list
from xla_opt.dialects.xla.elementwise import BINARY_OPS

from .attrs import (
    STABLEHLO_ENUMS,
    DotDimensionNumbersAttr,
    parse_conv_dimension_numbers,
)


class ShloOp(IRDLOperation):
    """Any operands, results and regions; properties as parsed. Not verified here:
    the conversion to xla checks each op."""

    operands_ = var_operand_def()
    results_ = var_result_def()
    regions_ = var_region_def()

    # How many results a type list without `->` stands for: "one" (a result of the
    # last type), "none", or "mirror" (the operand types).
    SHORT_RESULTS: ClassVar[str] = "one"
    # Keyword of the pretty form -> property name (`dims` -> `broadcast_dimensions`).
    KEYWORDS: ClassVar[dict[str, str]] = {}
    PRETTY: ClassVar[str] = "default"

    def verify_(self) -> None:
        pass

    def prop(self, name: str) -> Attribute | None:
        """A property, or an attribute of that name (pretty forms put some there)."""
        value = self.properties.get(name)
        return value if value is not None else self.attributes.get(name)

    @classmethod
    def parse(cls, parser: Parser) -> ShloOp:
        return PRETTY_PARSERS[cls.PRETTY](cls, parser)


# --------------------------------------------------------------------------------------
# Parsing helpers
# --------------------------------------------------------------------------------------


def _tok(parser: Parser) -> str:
    return parser._current_token.text  # noqa: SLF001 - a look-ahead


def _is_ident(parser: Parser) -> bool:
    return parser._current_token.kind.name == "BARE_IDENT"  # noqa: SLF001


def parse_types(parser: Parser) -> tuple[list[Attribute], list[Attribute] | None]:
    """After `:`: `T0, T1`, `(T0, T1) -> R`, `(T0) -> (R0, R1)` or chlo's `T0, T1 -> R`.
    Returns the input types and the result types (None without `->`)."""
    if _tok(parser) == "(":
        ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if parser.parse_optional_punctuation("->") is None:
            # a parenthesized list with no arrow: `(T0, T1)`
            return ins, None
    else:
        ins = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if parser.parse_optional_punctuation("->") is None:
            return ins, None
    if _tok(parser) == "(":
        outs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    else:
        outs = [parser.parse_type()]
    return ins, outs


def _signature(
    cls: type[ShloOp], parser: Parser, n_operands: int
) -> tuple[list[Attribute], list[Attribute]]:
    pos = parser.pos
    if parser.parse_optional_punctuation(":") is None:
        if n_operands:
            parser.raise_error(f"expected ':' and the types of {cls.name}")
        return [], []
    ins, outs = parse_types(parser)
    if outs is not None:
        if len(ins) != n_operands:
            parser.raise_error(
                f"{cls.name} has {n_operands} operands but {len(ins)} operand types", pos, parser.pos
            )
        return ins, outs
    rule = cls.SHORT_RESULTS
    if n_operands == 0:
        return [], ins  # `stablehlo.iota dim = 0 : tensor<4xi32>`
    if cls.name == "stablehlo.select" and len(ins) == 2 and n_operands == 3:
        return [ins[0], ins[1], ins[1]], [ins[1]]
    if len(ins) == 1 and n_operands != 1:
        ins = ins * n_operands
    if len(ins) != n_operands:
        parser.raise_error(
            f"{cls.name} has {n_operands} operands but {len(ins)} types", pos, parser.pos
        )
    if rule == "none":
        return ins, []
    if rule == "mirror":
        return ins, list(ins)
    return ins, [ins[-1]] if ins else parser.raise_error("expected a result type")


def _parse_operands(parser: Parser) -> tuple[list[UnresolvedOperand], bool]:
    """`%a, %b` (maybe none); returns them and whether a `,` is pending."""
    operands: list[UnresolvedOperand] = []
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return operands, True
    operands.append(first)
    while parser.parse_optional_punctuation(",") is not None:
        nxt = parser.parse_optional_unresolved_operand()
        if nxt is None:
            return operands, True
        operands.append(nxt)
    return operands, False


def _parse_list_leaf(parser: Parser):
    """An item of a list in a pretty form: an integer, a boolean, an enum word or an
    attribute (`#stablehlo...`)."""
    if _is_ident(parser) and _tok(parser) not in ("true", "false"):
        return parser.parse_identifier()
    if _tok(parser).startswith("#"):
        return parser.parse_attribute()
    return parse_integer_or_bool(parser)


def _parse_list(parser: Parser) -> list:
    """`[1, 2]`, `[[1, 2], [3, 4]]`, `[true, false]`, `[DEFAULT, HIGH]`, `[]`: a list
    of leaves or a list of lists of leaves (StableHLO's attributes go no deeper); a
    list mixing leaves and lists (`[1, [0]]`) or rows of different lengths is an error."""
    pos = parser.pos
    items = parse_nested_list(parser, _parse_list_leaf)
    nested = [isinstance(v, list) for v in items]
    if any(nested) and not all(nested) or any(isinstance(v, list) for r in items if isinstance(r, list) for v in r):
        parser.raise_error("expected a list of values or a list of lists of values", pos, parser.pos)
    if all(nested) and len({len(r) for r in items}) > 1:
        parser.raise_error("expected rows of one length", pos, parser.pos)
    return items


def list_attr(items: list) -> Attribute:
    """A parsed list as an attribute: integers -> array<i64>, rows -> a rank-2 i64
    tensor, booleans -> array<i1>, words -> an array of strings."""
    if items and all(isinstance(v, list) for v in items):
        ncols = len(items[0])
        return DenseIntOrFPElementsAttr.from_list(
            TensorType(i64, [len(items), ncols]), [int(v) for r in items for v in r]
        )
    if items and all(isinstance(v, bool) for v in items):
        from xdsl.dialects.builtin import i1

        return DenseArrayBase.from_list(i1, [int(v) for v in items])
    if items and all(isinstance(v, str) for v in items):
        return ArrayAttr([StringAttr(v) for v in items])
    if items and all(isinstance(v, Attribute) for v in items):
        return ArrayAttr(items)
    return DenseArrayBase.from_list(i64, [int(v) for v in items])


def _parse_value(parser: Parser) -> Attribute:
    t = _tok(parser)
    if t == "[":
        return list_attr(_parse_list(parser))
    if t in ("true", "false"):
        parser.parse_keyword(t)
        return BoolAttr.from_bool(t == "true")
    if _is_ident(parser):
        return StringAttr(parser.parse_identifier())
    if t == "<":
        return StringAttr(parser._parse_dialect_symbol_body())  # noqa: SLF001 - raw <...>
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
    if value is not None:
        return IntegerAttr(value, i64)
    return parser.parse_attribute()


def _parse_keywords(cls: type[ShloOp], parser: Parser, props: dict[str, Attribute]) -> None:
    """`name = value` pairs separated by commas (the first one already due)."""
    while _is_ident(parser):
        key = parser.parse_identifier()
        parser.parse_punctuation("=")
        if key in ("batching_dims", "contracting_dims"):
            lhs = _parse_list(parser)
            parser.parse_characters("x")
            rhs = _parse_list(parser)
            side = key.split("_")[0].replace("batching", "batching").replace("contracting", "contracting")
            props[f"lhs_{side}_dimensions"] = list_attr(lhs)
            props[f"rhs_{side}_dimensions"] = list_attr(rhs)
        elif key == "format":
            word = parser.parse_identifier()
            m = re.fullmatch(r"e(\d+)m(\d+)", word)
            if m is None:
                parser.raise_error(f"expected a format eXmY, got {word}")
            props["exponent_bits"] = IntegerAttr(int(m.group(1)), i64)
            props["mantissa_bits"] = IntegerAttr(int(m.group(2)), i64)
        else:
            props[cls.KEYWORDS.get(key, key)] = _parse_value(parser)
        if parser.parse_optional_punctuation(",") is None:
            break


def _finish(
    cls: type[ShloOp],
    parser: Parser,
    operands: list[UnresolvedOperand],
    props: dict[str, Attribute],
    regions: list[Region] | None = None,
    types: tuple[list[Attribute], list[Attribute]] | None = None,
) -> ShloOp:
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    if types is None:
        types = _signature(cls, parser, len(operands))
    ins, outs = types
    values = parser.resolve_operands(operands, ins, pos)
    _gather_dot_numbers(props)
    return cls.create(
        operands=values,
        result_types=outs,
        properties=props,
        attributes=attrs,
        regions=regions or [],
    )


def _gather_dot_numbers(props: dict[str, Attribute]) -> None:
    """dot_general's pretty `batching_dims`/`contracting_dims` into one attribute."""
    names = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
    )
    if any(n in props for n in names):
        fields = {n: props.pop(n) for n in names if n in props}
        props["dot_dimension_numbers"] = DotDimensionNumbersAttr(DictionaryAttr(fields))


# --------------------------------------------------------------------------------------
# Pretty forms
# --------------------------------------------------------------------------------------


def parse_default(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`%a, %b (, key = value)* attr-dict : types`."""
    operands, pending = _parse_operands(parser)
    props: dict[str, Attribute] = {}
    if pending:
        _parse_keywords(cls, parser, props)
    return _finish(cls, parser, operands, props)


def parse_complex(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`%re, %im attr-dict : type`: StableHLO prints only the result type (its
    ComplexOpType), the operands being of its part type; the functional form works too."""
    operands, _ = _parse_operands(parser)
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    ins, outs = _signature(cls, parser, len(operands))
    result = outs[0] if len(outs) == 1 else None
    if isinstance(result, TensorType) and isinstance(result.get_element_type(), ComplexType) and ins == [result] * 2:
        part = TensorType(result.get_element_type().element_type, result.get_shape())  # type: ignore[attr-defined]
        ins = [part, part]
    values = parser.resolve_operands(operands, ins, pos)
    return cls.create(operands=values, result_types=outs, attributes=attrs)


def parse_composite(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`"name" %a, %b attr-dict : (types) -> types` (the attr-dict holds
    `decomposition = @f`, `version`, `composite_attributes`)."""
    name = parser.parse_str_literal(" (the composite's name)")
    operands, _ = _parse_operands(parser)
    return _finish(cls, parser, operands, {"name": StringAttr(name)})


def parse_constant(cls: type[ShloOp], parser: Parser) -> ShloOp:
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    value = parser.parse_attribute()
    if not isinstance(value, DenseIntOrFPElementsAttr):
        if hasattr(value, "get_type"):
            result = value.get_type()  # type: ignore[attr-defined]
        else:
            parser.raise_error("expected a dense elements attribute", pos, parser.pos)
    else:
        result = value.get_type()
    return cls.create(result_types=[result], properties={"value": value}, attributes=attrs)


def parse_compare(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`LT, %a, %b (, FLOAT)? attr-dict : types`."""
    enums = STABLEHLO_ENUMS if cls.name.startswith("stablehlo") else __import__(
        "xla_opt.dialects.stablehlo.attrs", fromlist=["CHLO_ENUMS"]
    ).CHLO_ENUMS
    props: dict[str, Attribute] = {}
    word = parser.parse_identifier(" (a comparison direction)")
    props["comparison_direction"] = _enum_attr(parser, enums["comparison_direction"], word)
    parser.parse_punctuation(",")
    operands = [parser.parse_unresolved_operand()]
    parser.parse_punctuation(",")
    operands.append(parser.parse_unresolved_operand())
    if parser.parse_optional_punctuation(",") is not None:
        word = parser.parse_identifier(" (a comparison type)")
        props["compare_type"] = _enum_attr(parser, enums["comparison_type"], word)
    return _finish(cls, parser, operands, props)


def _enum_attr(parser: Parser, enum_cls, word: str) -> Attribute:
    try:
        return enum_cls(enum_cls.enum_type(word))
    except ValueError:
        allowed = ", ".join(e.value for e in enum_cls.enum_type)
        parser.raise_error(f"'{word}' is not a valid {enum_cls.name}; expected one of {allowed}")


def parse_slice(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`%x [1:3, 4:8:2]` (generic attributes `start_indices = [..], ...` also)."""
    operand = parser.parse_unresolved_operand()
    props: dict[str, Attribute] = {}
    if _tok(parser) == "[":
        starts, limits, strides = [], [], []

        def entry() -> None:
            starts.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(":")
            limits.append(parser.parse_integer(allow_boolean=False))
            if parser.parse_optional_punctuation(":") is not None:
                strides.append(parser.parse_integer(allow_boolean=False))
            else:
                strides.append(1)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        props["start_indices"] = DenseArrayBase.from_list(i64, starts)
        props["limit_indices"] = DenseArrayBase.from_list(i64, limits)
        props["strides"] = DenseArrayBase.from_list(i64, strides)
    elif parser.parse_optional_punctuation(",") is not None:
        _parse_keywords(cls, parser, props)
    return _finish(cls, parser, [operand], props)


def parse_get_tuple_element(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`%t[0] : (tuple<...>) -> T`."""
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    index = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation("]")
    props = {"index": IntegerAttr(index, i64)}
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    parser.parse_punctuation(":")
    ins, outs = parse_types(parser)
    if outs is None:
        tuple_type = ins[0]
        if not isinstance(tuple_type, TupleType):
            parser.raise_error("expected a tuple type", pos, parser.pos)
        outs = [tuple_type.types.data[index]]
    (value,) = parser.resolve_operands([operand], ins[:1], pos)
    return cls.create(operands=[value], result_types=outs, properties=props, attributes=attrs)


def parse_tuple(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`%a, %b : tuple<T0, T1>`."""
    operands, _ = _parse_operands(parser)
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    parser.parse_punctuation(":")
    ins, outs = parse_types(parser)
    if outs is None:
        tuple_type = ins[0]
        if not isinstance(tuple_type, TupleType):
            parser.raise_error("expected a tuple type", pos, parser.pos)
        outs = [tuple_type]
        ins = list(tuple_type.types.data)
    values = parser.resolve_operands(operands, ins, pos)
    return cls.create(operands=values, result_types=outs, attributes=attrs)


def parse_custom_call(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`@target(%a, %b) attr-dict : (T0, T1) -> R`."""
    target = parser.parse_symbol_name()
    operands = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
    props: dict[str, Attribute] = {"call_target_name": target}
    return _finish(cls, parser, operands, props)


def parse_paren_operands(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`(%a, %b, key = value) attr-dict : types` (chlo.top_k), and the region list of
    case/if: `(%i) ({...}, {...}) : (T) -> R`."""
    parser.parse_punctuation("(")
    operands, pending = _parse_operands(parser)
    props: dict[str, Attribute] = {}
    if pending:
        _parse_keywords(cls, parser, props)
    parser.parse_punctuation(")")
    regions = parser.parse_region_list()
    return _finish(cls, parser, operands, props, regions)


def parse_while(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`(%iterArg = %x, ...) : T0, T1 attr-dict cond {...} do {...}`."""
    names: list[Parser.UnresolvedArgument] = []
    operands: list[UnresolvedOperand] = []

    def pair() -> None:
        names.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        operands.append(parser.parse_unresolved_operand())

    if _tok(parser) == "(":
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, pair)
    pos = parser.pos
    types: list[Attribute] = []
    if parser.parse_optional_punctuation(":") is not None:
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    if len(types) != len(operands):
        parser.raise_error(
            f"stablehlo.while has {len(operands)} operands but {len(types)} types", pos, parser.pos
        )
    attrs = parser.parse_optional_attr_dict_with_keyword()
    values = parser.resolve_operands(operands, types, pos)
    parser.parse_keyword("cond")
    cond = parser.parse_region([n.resolve(t) for n, t in zip(names, types)])
    parser.parse_keyword("do")
    body = parser.parse_region([n.resolve(t) for n, t in zip(names, types)])
    return cls.create(
        operands=values,
        result_types=types,
        attributes=attrs.data if attrs is not None else {},
        regions=[cond, body],
    )


# StableHLO's binary element-wise ops: the ops a compact reduce `applies`.
_BINARY_ELEMENTWISE = {cls.name.removeprefix("xla.") for cls in BINARY_OPS}


def parse_reduce(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`(%x init: %y), ... applies stablehlo.add across dimensions = [1] : (...) -> ...`
    or `... across dimensions = [1] : (...) -> ... reducer(%a: T, %b: T) ... {...}`."""
    inputs: list[UnresolvedOperand] = []
    inits: list[UnresolvedOperand] = []

    def pair() -> None:
        inputs.append(parser.parse_unresolved_operand())
        parser.parse_keyword("init")
        parser.parse_punctuation(":")
        inits.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(
        parser.Delimiter.NONE,
        lambda: parser.parse_comma_separated_list(parser.Delimiter.PAREN, pair),
    )
    applies: str | None = None
    applies_at = (0, 0)
    if parser.parse_optional_keyword("applies") is not None:
        applies_at = (parser.pos, parser.pos)
        applies = parser.parse_identifier(" (the reduction op)")
        applies_at = (applies_at[0], parser.pos)
        if "." not in applies and _tok(parser) == ".":  # pragma: no cover - lexer keeps dots
            parser.parse_punctuation(".")
            applies += "." + parser.parse_identifier()
    parser.parse_keyword("across")
    parser.parse_keyword("dimensions")
    parser.parse_punctuation("=")
    props: dict[str, Attribute] = {"dimensions": list_attr(_parse_list(parser))}
    attrs = parser.parse_optional_attr_dict()
    pos = parser.pos
    parser.parse_punctuation(":")
    ins, outs = parse_types(parser)
    n = len(inputs)
    if outs is None or len(ins) != 2 * n:
        parser.raise_error(
            f"stablehlo.reduce expects the functional type of {n} inputs and {n} init values",
            pos,
            parser.pos,
        )
    values = parser.resolve_operands(inputs + inits, ins, pos)
    scalars = [TensorType(t.get_element_type(), []) for t in ins[n:]]  # type: ignore[attr-defined]
    if applies is not None:
        body_cls = parser.ctx.get_optional_op(applies)
        if body_cls is None:
            parser.raise_error(f"unknown reduction op '{applies}'", *applies_at)
        if applies.removeprefix("stablehlo.") not in _BINARY_ELEMENTWISE:
            # StableHLO prints `applies` only for a reducer that is one binary element-wise op
            parser.raise_error(f"'{applies}' is not a binary element-wise op; a reduce 'applies' one", *applies_at)
        block = Block(arg_types=scalars + scalars)
        results = []
        for i in range(n):
            op = body_cls.create(
                operands=[block.args[i], block.args[n + i]], result_types=[scalars[i]]
            )
            block.add_op(op)
            results.append(op.results[0])
        block.add_op(ReturnOp.create(operands=results))
        region = Region(block)
    else:
        parser.parse_keyword("reducer")
        firsts: list[Parser.Argument] = []
        seconds: list[Parser.Argument] = []

        def argument() -> Parser.Argument:
            """`%a: T`, with JAX's `loc(...)` after it when exported with debug info
            (its location is not kept: a reducer argument has no op to report at)."""
            arg = parser.parse_argument()
            parser.parse_optional_location()
            return arg

        def arg_pair() -> None:
            firsts.append(argument())
            parser.parse_punctuation(",")
            seconds.append(argument())

        for _ in range(n):
            parser.parse_punctuation("(")
            arg_pair()
            parser.parse_punctuation(")")
        region = parser.parse_region(firsts + seconds)
    return cls.create(
        operands=values, result_types=outs, properties=props, attributes=attrs, regions=[region]
    )


def parse_scan(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """chlo.scan: `(%in, ...) inits (%init, ...) dimension = D attributes {...} {body}
    : (input and init types) -> (output and carry types)`. The operand and result
    groups are recorded as MLIR does, in operandSegmentSizes / resultSegmentSizes."""
    inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
    parser.parse_keyword("inits")
    inits = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
    parser.parse_keyword("dimension")
    parser.parse_punctuation("=")
    dimension = parser.parse_integer(allow_boolean=False, allow_negative=False)
    attrs = {}
    if parser.parse_optional_keyword("attributes") is not None:
        attrs = parser.parse_optional_attr_dict()
    region = parser.parse_region()
    pos = parser.pos
    parser.parse_punctuation(":")
    ins, outs = parse_types(parser)
    n_in, n_carry = len(inputs), len(inits)
    if outs is None or len(ins) != n_in + n_carry:
        parser.raise_error("operand types must match the number of inputs and inits", pos, parser.pos)
    if len(outs) < n_carry:
        parser.raise_error("not enough result types to cover the required carries", pos, parser.pos)
    values = parser.resolve_operands(inputs + inits, ins, pos)
    props: dict[str, Attribute] = {
        "dimension": IntegerAttr(dimension, i64),
        "operandSegmentSizes": DenseArrayBase.from_list(i32, [n_in, n_carry]),
        "resultSegmentSizes": DenseArrayBase.from_list(i32, [len(outs) - n_carry, n_carry]),
    }
    return cls.create(operands=values, result_types=outs, properties=props, attributes=attrs, regions=[region])


def parse_convolution(cls: type[ShloOp], parser: Parser) -> ShloOp:
    """`(%a, %b) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
    window = {stride = [..], pad = [[..]], lhs_dilate = [..], rhs_dilate = [..],
    reverse = [..]} attr-dict : (T0, T1) -> R`."""
    from .attrs import ConvDimensionNumbersAttr

    operands = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
    props: dict[str, Attribute] = {}
    parser.parse_keyword("dim_numbers")
    parser.parse_punctuation("=")
    props["dimension_numbers"] = ConvDimensionNumbersAttr(
        DictionaryAttr(parse_conv_dimension_numbers(parser))
    )
    if parser.parse_optional_punctuation(",") is not None:
        parser.parse_keyword("window")
        parser.parse_punctuation("=")
        names = {
            "stride": "window_strides",
            "pad": "padding",
            "lhs_dilate": "lhs_dilation",
            "rhs_dilate": "rhs_dilation",
            "reverse": "window_reversal",
        }

        def entry() -> None:
            key = parser.parse_identifier(" (a window field)")
            if key not in names:
                parser.raise_error(f"unknown window field '{key}'")
            parser.parse_punctuation("=")
            props[names[key]] = list_attr(_parse_list(parser))

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, entry)
    return _finish(cls, parser, operands, props)


PRETTY_PARSERS: dict[str, Callable[[type[ShloOp], Parser], ShloOp]] = {
    "default": parse_default,
    "complex": parse_complex,
    "composite": parse_composite,
    "constant": parse_constant,
    "compare": parse_compare,
    "slice": parse_slice,
    "get_tuple_element": parse_get_tuple_element,
    "tuple": parse_tuple,
    "custom_call": parse_custom_call,
    "paren": parse_paren_operands,
    "while": parse_while,
    "reduce": parse_reduce,
    "convolution": parse_convolution,
    "scan": parse_scan,
}


# --------------------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------------------


def _define(
    full_name: str,
    pretty: str = "default",
    keywords: dict[str, str] | None = None,
    short: str = "one",
    terminator: bool = False,
) -> type[ShloOp]:
    dialect, op = full_name.split(".", 1)
    cls_name = "".join(p.capitalize() for p in f"{dialect}_{op}".split("_")) + "Op"
    body: dict = {
        "name": full_name,
        "PRETTY": pretty,
        "KEYWORDS": keywords or {},
        "SHORT_RESULTS": short,
        "__module__": __name__,
        "__annotations__": {"PRETTY": ClassVar[str], "KEYWORDS": ClassVar[dict], "SHORT_RESULTS": ClassVar[str]},
    }
    if terminator:
        body["traits"] = traits_def(IsTerminator())
    cls = irdl_op_definition(type(cls_name, (ShloOp,), body))
    cls.verify_ = ShloOp.verify_  # not verified: the conversion checks every op
    return cls


STABLEHLO_UNARY = (
    "abs cbrt ceil convert count_leading_zeros cosine exponential exponential_minus_one "
    "floor imag is_finite log log_plus_one logistic not negate popcnt real "
    "round_nearest_afz round_nearest_even rsqrt sign sine sqrt tan tanh bitcast_convert "
    "reshape"
).split()
STABLEHLO_BINARY = (
    "add subtract multiply divide remainder maximum minimum power atan2 and or xor "
    "shift_left shift_right_logical shift_right_arithmetic complex"
).split()

_SPECIAL: dict[str, dict] = {
    "constant": {"pretty": "constant"},
    "complex": {"pretty": "complex"},
    "cross-replica-sum": {},
    "iota": {"keywords": {"dim": "iota_dimension"}},
    "compare": {"pretty": "compare"},
    "select": {},
    "clamp": {},
    "reduce_precision": {},
    "broadcast_in_dim": {"keywords": {"dims": "broadcast_dimensions"}},
    "broadcast": {"keywords": {"sizes": "broadcast_sizes"}},
    "transpose": {"keywords": {"dims": "permutation"}},
    "reverse": {"keywords": {"dims": "dimensions"}},
    "slice": {"pretty": "slice"},
    "dynamic_slice": {"keywords": {"sizes": "slice_sizes"}},
    "dynamic_update_slice": {},
    "concatenate": {"keywords": {"dim": "dimension"}},
    "pad": {
        "keywords": {
            "low": "edge_padding_low",
            "high": "edge_padding_high",
            "interior": "interior_padding",
        }
    },
    "dot": {"keywords": {"precision": "precision_config"}},
    "dot_general": {"keywords": {"precision": "precision_config"}},
    "convolution": {"pretty": "convolution"},
    "reduce": {"pretty": "reduce"},
    "reduce_window": {},
    "select_and_scatter": {},
    "gather": {},
    "scatter": {},
    "sort": {"short": "mirror"},
    "map": {},
    "while": {"pretty": "while"},
    "case": {"pretty": "paren"},
    "if": {"pretty": "paren"},
    "fft": {"keywords": {"type": "fft_type", "length": "fft_length"}},
    "cholesky": {},
    "triangular_solve": {},
    "batch_norm_training": {},
    "batch_norm_inference": {},
    "batch_norm_grad": {},
    "rng": {"keywords": {"distribution": "rng_distribution"}},
    "rng_bit_generator": {"keywords": {"algorithm": "rng_algorithm"}},
    "custom_call": {"pretty": "custom_call"},
    "tuple": {"pretty": "tuple"},
    "get_tuple_element": {"pretty": "get_tuple_element"},
    "optimization_barrier": {"short": "mirror"},
    "after_all": {},
    "create_token": {},
    "infeed": {},
    "outfeed": {},
    "send": {},
    "recv": {},
    "replica_id": {},
    "partition_id": {},
    "all_reduce": {"short": "mirror"},
    "all_gather": {},
    "reduce_scatter": {},
    "all_to_all": {},
    "collective_permute": {},
    "collective_broadcast": {},
    "get_dimension_size": {"keywords": {"dim": "dimension"}},
    "set_dimension_size": {"keywords": {"dim": "dimension"}},
    "composite": {"pretty": "composite"},
    "uniform_quantize": {},
    "uniform_dequantize": {},
    "dynamic_broadcast_in_dim": {"keywords": {"dims": "broadcast_dimensions"}},
    "dynamic_reshape": {},
    "dynamic_iota": {"keywords": {"dim": "iota_dimension"}},
    "dynamic_pad": {},
    "dynamic_gather": {},
    "dynamic_conv": {},
    "real_dynamic_slice": {},
    "einsum": {},
    "unary_einsum": {},
    "torch_index_select": {},
    "return": {"short": "none", "terminator": True},
}

STABLEHLO_OPS: dict[str, type[ShloOp]] = {}
for _name in STABLEHLO_UNARY + STABLEHLO_BINARY:
    STABLEHLO_OPS[_name] = _define(f"stablehlo.{_name}")
for _name, _kw in _SPECIAL.items():
    STABLEHLO_OPS[_name] = _define(f"stablehlo.{_name}", **_kw)
ReturnOp = STABLEHLO_OPS["return"]

CHLO_UNARY = (
    "square erf erfc erf_inv lgamma digamma tan sinh cosh asin acos atan asinh acosh "
    "atanh is_inf is_pos_inf is_neg_inf conj bessel_i1e sign constant_like"
).split()
CHLO_BINARY = (
    "next_after polygamma zeta broadcast_add broadcast_subtract broadcast_multiply "
    "broadcast_divide broadcast_remainder broadcast_maximum broadcast_minimum "
    "broadcast_power broadcast_atan2 broadcast_and broadcast_or broadcast_xor "
    "broadcast_shift_left broadcast_shift_right_logical broadcast_shift_right_arithmetic "
    "broadcast_complex broadcast_next_after broadcast_polygamma broadcast_zeta mulhi"
).split()
CHLO_OPS: dict[str, type[ShloOp]] = {}
for _name in CHLO_UNARY + CHLO_BINARY:
    CHLO_OPS[_name] = _define(f"chlo.{_name}")
CHLO_OPS["top_k"] = _define("chlo.top_k", pretty="paren")
CHLO_OPS["broadcast_compare"] = _define("chlo.broadcast_compare")
CHLO_OPS["constant"] = _define("chlo.constant", pretty="constant")
CHLO_OPS["ragged_dot"] = _define("chlo.ragged_dot")
CHLO_OPS["scan"] = _define("chlo.scan", pretty="scan")

