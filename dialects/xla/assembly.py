"""The xla dialect's custom assembly format, one for every op.

Every xla op prints in one readable, uniform form (close to StableHLO's pretty form):

    %r = xla.<op> <operands>(, <prop> = <value>)* (<region-name> <region>)* attr-dict? : <types>

* operands: `%a, %b`; when an op has more than one variadic operand group, each group
  is parenthesized: `xla.reduce (%x, %y), (%i0, %i1), ...`.
* properties, in declaration order: integer arrays as `[1, 2]`, nested integer arrays
  as `[[0, 1], [2, 3]]`, enums as bare words (`LT`), booleans, integers, floats, strings.
* types: `: T` when every operand and result has the same type `T`, otherwise the
  functional type `: (T0, T1) -> R` or `-> (R0, R1)`.

The generic MLIR form (`"xla.add"(%0, %1) <{...}> : (...) -> ...`) round-trips for every
op too. Ops with a more natural syntax (constant) override `parse`/`print`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    OptionalDef,
    VariadicDef,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xla_opt.dialects.parsing import parse_integer, parse_nested_list

from .properties import i64_array, i64_matrix, int_matrix


def _print_prop_value(printer: Printer, value: Attribute) -> None:
    if isinstance(value, DenseArrayBase) and isinstance(value.elt_type, IntegerType):
        printer.print_string("[" + ", ".join(str(v) for v in value.get_values()) + "]")
    elif (
        isinstance(value, DenseIntOrFPElementsAttr)
        and isinstance(value.get_element_type(), IntegerType)
        and value.get_element_type().width.data == 64  # type: ignore[union-attr]
        and len(value.get_shape() or ()) == 2
    ):
        rows = int_matrix(value)
        ncols = (value.get_shape() or (0, 0))[1]
        if value.get_shape() == (0, 0):
            printer.print_string("[]")
        elif not rows or ncols == 0:
            # an empty matrix of another shape cannot be spelled as nested lists
            printer.print_attribute(value)
        else:
            printer.print_string(
                "[" + ", ".join("[" + ", ".join(map(str, r)) + "]" for r in rows) + "]"
            )
    elif isinstance(value, IntegerAttr) and value.type == IntegerType(1):
        printer.print_string("true" if value.value.data else "false")  # type: ignore
    elif isinstance(value, IntegerAttr) and value.type == i64:
        printer.print_string(str(value.value.data))
    elif isinstance(value, EnumAttribute):
        printer.print_string(str(value.data.value))
    elif isinstance(value, FloatAttr) and isinstance(value.type, Float32Type):
        # bare: a FloatAttr property's number is read back as f32
        printer.print_float(value.value.data, value.type)
    else:
        printer.print_attribute(value)


def _parse_prop_value(parser: Parser, op_cls: type[IRDLOperation], name: str) -> Attribute:
    pdef = op_cls.get_irdl_definition().properties.get(name)
    if pdef is None:
        parser.raise_error(f"'{op_cls.name}' has no property '{name}'")
    bases = pdef.constr.get_bases() or set()
    enum_bases = [b for b in bases if issubclass(b, EnumAttribute)]
    if enum_bases:
        enum_cls = enum_bases[0]
        word = parser.parse_identifier(f" (a value of {name})")
        try:
            return enum_cls(enum_cls.enum_type(word))
        except ValueError:
            allowed = ", ".join(e.value for e in enum_cls.enum_type)
            parser.raise_error(f"'{word}' is not a valid {name}; expected one of {allowed}")
    tok = parser._current_token.text  # noqa: SLF001 - a look-ahead
    if tok == "[":
        values = parse_nested_list(parser, parse_integer)
        if any(isinstance(v, list) for v in values):
            try:
                return i64_matrix(values)
            except (ValueError, TypeError):
                parser.raise_error(f"'{name}' must be a list of integer lists of one length")
        if DenseIntOrFPElementsAttr in bases and DenseArrayBase not in bases:
            return i64_matrix([values]) if values else i64_matrix([])
        return i64_array(values)
    if tok in ("true", "false"):
        parser.parse_keyword(tok)
        return BoolAttr.from_bool(tok == "true")
    if IntegerAttr in bases:
        pos = parser.pos
        value = parser.parse_optional_number()
        if isinstance(value, int):
            return IntegerAttr(value, i64)
        if value is not None:
            parser.raise_error(f"'{name}' must be an integer", pos, parser.pos)
    if FloatAttr in bases:
        value = parser.parse_optional_number()
        if value is not None:
            from xdsl.dialects.builtin import f32

            return FloatAttr(float(value), f32)
    if StringAttr in bases and parser._current_token.kind.name == "STRING_LIT":  # noqa: SLF001
        return StringAttr(parser.parse_str_literal())
    return parser.parse_attribute()


def _distribute(parser: Parser, op_name: str, what: str, defs, values: Sequence) -> list:
    """Group parsed operands or result types by definition: single definitions take
    one value each, the (at most one) variadic definition takes the rest."""
    n_var = sum(isinstance(d, VariadicDef) for _, d in defs)
    n_single = len(defs) - n_var
    n_rest = len(values) - n_single
    if n_rest < 0 or (n_var == 0 and n_rest != 0):
        parser.raise_error(f"{op_name} expects {n_single} {what}, got {len(values)}")
    grouped: list = []
    index = 0
    for _, d in defs:
        if isinstance(d, VariadicDef):
            grouped.append(list(values[index : index + n_rest]))
            index += n_rest
        else:
            grouped.append(values[index])
            index += 1
    return grouped


def _short_form_result_count(opdef, n_operands: int) -> int:
    """How many results the short type form `: T` stands for: one per single result
    definition, plus one per operand for a variadic result group (the results mirror
    the operands, as in sort or optimization_barrier); at least one for ops without
    operands."""
    n_single = sum(not isinstance(d, VariadicDef) for _, d in opdef.results)
    n_var = len(opdef.results) - n_single
    count = n_single + (n_operands if n_var else 0)
    return max(count, 1) if n_operands == 0 else count




class UniformAssembly:
    """The uniform pretty form of the module docstring, as `print`/`parse` of an
    IRDL op class (XlaOp mixes it in)."""

    # ---- printing -----------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        opdef = self.get_irdl_definition()
        n_var = sum(isinstance(d, VariadicDef) for _, d in opdef.operands)
        first = True

        def sep() -> None:
            nonlocal first
            printer.print_string(" " if first else ", ")
            first = False

        for name, odef in opdef.operands:
            value = getattr(self, name)
            if isinstance(odef, VariadicDef):
                group = list(value) if value is not None else []
                if n_var > 1:
                    sep()
                    printer.print_string("(")
                    printer.print_list(group, printer.print_operand)
                    printer.print_string(")")
                    continue
            else:
                group = [value]
            for v in group:
                sep()
                printer.print_operand(v)
        for pname in opdef.properties:
            value = self.properties.get(pname)
            if value is None or pname in ("operandSegmentSizes", "resultSegmentSizes"):
                continue
            sep()
            printer.print_string(f"{pname} = ")
            _print_prop_value(printer, value)
        for (rname, rdef), _ in zip(opdef.regions, range(len(opdef.regions))):
            regions = getattr(self, rname)
            if isinstance(rdef, VariadicDef):
                regions = list(regions)
                if isinstance(rdef, OptionalDef) and not regions:
                    continue
                printer.print_string(f" {rname}(")
                printer.print_list(regions, lambda r: printer.print_region(r))
                printer.print_string(")")
            else:
                printer.print_string(f" {rname} ")
                printer.print_region(regions)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.operands or self.results:
            printer.print_string(" : ")
            self._print_types(printer)

    def _print_types(self, printer: Printer) -> None:
        in_types = [v.type for v in self.operands]
        out_types = [r.type for r in self.results]
        if not out_types and in_types and (
            len(in_types) > 1 or not self.get_irdl_definition().results
        ):
            # terminators and sinks: `: T0, T1` (a lone `: T` of an op with result
            # definitions would read as the short form, with results)
            printer.print_list(in_types, printer.print_attribute)
            return
        all_types = in_types + out_types
        same = all(t == all_types[0] for t in all_types)
        if same and len(out_types) == _short_form_result_count(
            self.get_irdl_definition(), len(in_types)
        ):
            printer.print_attribute(all_types[0])
            return
        printer.print_string("(")
        printer.print_list(in_types, printer.print_attribute)
        printer.print_string(") -> ")
        if len(out_types) == 1 and not isinstance(out_types[0], FunctionType):
            printer.print_attribute(out_types[0])
        else:
            printer.print_string("(")
            printer.print_list(out_types, printer.print_attribute)
            printer.print_string(")")

    # ---- parsing ------------------------------------------------------------------
    @classmethod
    def parse(cls, parser: Parser):
        opdef = cls.get_irdl_definition()
        n_var = sum(isinstance(d, VariadicDef) for _, d in opdef.operands)
        unresolved: list[UnresolvedOperand] = []
        group_sizes: list[int] = []

        # operands
        if n_var > 1:
            for i, (_, odef) in enumerate(opdef.operands):
                if i > 0:
                    parser.parse_punctuation(",")
                if isinstance(odef, VariadicDef):
                    group = parser.parse_comma_separated_list(
                        parser.Delimiter.PAREN, parser.parse_unresolved_operand
                    )
                    unresolved.extend(group)
                    group_sizes.append(len(group))
                else:
                    unresolved.append(parser.parse_unresolved_operand())
                    group_sizes.append(1)
            trailing_comma = parser.parse_optional_punctuation(",") is not None
        else:
            trailing_comma = True
            first = parser.parse_optional_unresolved_operand()
            if first is not None:
                unresolved.append(first)
                trailing_comma = False
                while parser.parse_optional_punctuation(",") is not None:
                    op = parser.parse_optional_unresolved_operand()
                    if op is None:
                        trailing_comma = True
                        break
                    unresolved.append(op)

        # properties `name = value`
        properties: dict[str, Attribute] = {}
        region_names = {n for n, _ in opdef.regions}
        while True:
            if not trailing_comma and unresolved:
                break
            if parser._current_token.text in region_names | {"attributes"}:  # noqa: SLF001
                break
            name = parser.parse_optional_identifier()
            if name is None:
                if trailing_comma and (unresolved or properties):
                    parser.raise_error("expected a property name after ','")
                break
            parser.parse_punctuation("=")
            properties[name] = _parse_prop_value(parser, cls, name)
            trailing_comma = parser.parse_optional_punctuation(",") is not None
            if not trailing_comma:
                break

        # regions `name {...}` / `name({...}, {...})`
        regions: list[Region | list[Region]] = []
        for rname, rdef in opdef.regions:
            if isinstance(rdef, VariadicDef):
                if parser.parse_optional_keyword(rname) is None:
                    if isinstance(rdef, OptionalDef):
                        regions.append([])
                        continue
                    parser.raise_error(f"expected '{rname}' regions")
                regions.append(
                    parser.parse_comma_separated_list(
                        parser.Delimiter.PAREN, parser.parse_region
                    )
                )
            else:
                parser.parse_keyword(rname, f" (the '{rname}' region of {cls.name})")
                regions.append(parser.parse_region())

        attributes = parser.parse_optional_attr_dict_with_keyword()
        if not unresolved and parser.parse_optional_punctuation(":") is None:
            in_types, out_types = [], []  # no operands, no results: no types
        else:
            if unresolved:
                parser.parse_punctuation(":")
            in_types, out_types = cls._parse_types(parser, len(unresolved), opdef)
        if len(in_types) != len(unresolved):
            parser.raise_error(
                f"{cls.name} has {len(unresolved)} operands but {len(in_types)} operand "
                "types"
            )
        operands = parser.resolve_operands(unresolved, in_types, parser.pos)

        # distribute operands over their definitions
        built_operands: list[SSAValue | list[SSAValue]] = []
        if n_var > 1:
            it = iter(operands)
            for (_, odef), size in zip(opdef.operands, group_sizes, strict=True):
                group = [next(it) for _ in range(size)]
                built_operands.append(group if isinstance(odef, VariadicDef) else group[0])
        else:
            built_operands = _distribute(parser, cls.name, "operands", opdef.operands, operands)
        built_results = _distribute(parser, cls.name, "results", opdef.results, out_types)

        return cls.build(
            operands=built_operands,
            result_types=built_results,
            properties=properties,
            attributes=attributes.data if attributes is not None else {},
            regions=regions,
        )

    @classmethod
    def _parse_types(
        cls, parser: Parser, n_operands: int, opdef
    ) -> tuple[list[Attribute], list[Attribute]]:
        if parser._current_token.text == "(":  # noqa: SLF001 - a look-ahead
            in_types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
            parser.parse_punctuation("->")
            if parser._current_token.text == "(":  # noqa: SLF001
                out_types = parser.parse_comma_separated_list(
                    parser.Delimiter.PAREN, parser.parse_type
                )
            else:
                out_types = [parser.parse_type()]
            return in_types, out_types
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) > 1 or not opdef.results:
            return types, []
        n_results = _short_form_result_count(opdef, n_operands)
        return [types[0]] * n_operands, [types[0]] * n_results
