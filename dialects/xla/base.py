"""Shared machinery of the `xla` dialect: element types, the op base class and its
custom assembly format.

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

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    OptionalDef,
    VariadicDef,
    irdl_attr_definition,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.parsing import parse_integer, parse_nested_list
from xla_opt.dialects.shapes.common import ShapeError

# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!xla.token`: orders side-effecting ops (infeed, outfeed, send, recv, after_all)."""

    name = "xla.token"


def element_type_name(t: Attribute) -> str:
    """The spec's spelling of an element type (PRED, S32, U8, F32, BF16, C64...)."""
    if isinstance(t, IntegerType):
        if t.width.data == 1:
            return "PRED"
        prefix = "U" if t.signedness.data == Signedness.UNSIGNED else "S"
        return f"{prefix}{t.width.data}"
    if isinstance(t, BFloat16Type):
        return "BF16"
    if isinstance(t, Float16Type | Float32Type | Float64Type):
        return f"F{t.bitwidth}"
    if isinstance(t, ComplexType):
        return f"C{2 * t.element_type.bitwidth}"  # type: ignore[union-attr]
    return str(t)


def is_pred(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def is_integer(t: Attribute) -> bool:
    """Signed, signless or unsigned integers of width > 1 (not PRED)."""
    return isinstance(t, IntegerType) and t.width.data > 1


def is_unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def is_complex(t: Attribute) -> bool:
    return isinstance(t, ComplexType)


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    if isinstance(t, ComplexType):
        return 2 * t.element_type.bitwidth  # type: ignore[union-attr]
    raise ValueError(f"no bit width for {t}")


_VALID_INT_WIDTHS = (1, 8, 16, 32, 64)


def is_xla_element_type(t: Attribute) -> bool:
    """The element types of OPS.md: i1, (u)i8..64, f16, bf16, f32, f64, complex<f32|f64>."""
    if isinstance(t, IntegerType):
        w, s = t.width.data, t.signedness.data
        if w == 1:
            return s == Signedness.SIGNLESS
        return w in _VALID_INT_WIDTHS and s in (Signedness.SIGNLESS, Signedness.UNSIGNED)
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return True
    if isinstance(t, ComplexType):
        return isinstance(t.element_type, Float32Type | Float64Type)
    return False


def is_static_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())


def shape_of(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def elem_of(t: Attribute) -> Attribute:
    assert isinstance(t, TensorType)
    return t.get_element_type()


def tensor(shape: Sequence[int], element_type: Attribute) -> TensorType:
    return TensorType(element_type, list(shape))


def same_element_type(**operands: Attribute) -> Attribute:
    """The element type shared by the named operand types."""
    (first_name, first), *rest = operands.items()
    for name, t in rest:
        if elem_of(t) != elem_of(first):
            raise VerifyException(
                f"{first_name} {first} and {name} {t} must have the same element type"
            )
    return elem_of(first)


def check_xla_type(t: Attribute, what: str, allow_token: bool = False) -> None:
    """Operands and results are static tensors of an XLA element type, tuples, tokens."""
    if isinstance(t, TokenType):
        if allow_token:
            return
        raise VerifyException(f"{what} cannot be a token")
    if isinstance(t, TupleType):
        for i, e in enumerate(t.types.data):
            check_xla_type(e, f"{what} tuple element {i}", allow_token=True)
        return
    if not isinstance(t, TensorType):
        raise VerifyException(f"{what} must be a tensor, tuple or token, got {t}")
    if not is_static_tensor(t):
        raise VerifyException(f"{what} must have a static shape, got {t}")
    if not is_xla_element_type(t.get_element_type()):
        raise VerifyException(
            f"{what} has element type {t.get_element_type()}, which is not an XLA "
            "element type (i1, i8-i64, ui8-ui64, f16, bf16, f32, f64, complex<f32>, "
            "complex<f64>)"
        )


# --------------------------------------------------------------------------------------
# Property values in the pretty form
# --------------------------------------------------------------------------------------


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def i64_matrix(rows: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """A rank-2 i64 elements attribute: padding pairs, replica groups, source-target pairs."""
    rows = [list(map(int, r)) for r in rows]
    ncols = len(rows[0]) if rows else 0
    if any(len(r) != ncols for r in rows):
        raise ValueError("rows of an integer matrix must have the same length")
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(rows), ncols]), [v for r in rows for v in r]
    )


def ints(attr: Attribute | None) -> tuple[int, ...]:
    """The integers of an i64 array property (empty when absent)."""
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, ArrayAttr):
        return tuple(int(a.value.data) for a in attr.data)  # type: ignore[attr-defined]
    raise TypeError(f"not an integer array: {attr}")


def int_matrix(attr: Attribute | None) -> list[tuple[int, ...]]:
    """The rows of an i64 matrix property (empty when absent)."""
    if attr is None:
        return []
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    shape = attr.get_shape() or ()
    values = [int(v) for v in attr.get_values()]
    if len(shape) != 2:
        return [tuple(values)]
    n = shape[1]
    return [tuple(values[i * n : (i + 1) * n]) for i in range(shape[0])]


def verified_int_matrix(attr: DenseIntOrFPElementsAttr, name: str) -> list[tuple[int, ...]]:
    """The rows of an integer-matrix property (padding, replica_groups,
    source_target_pairs) after checking that it is one: a rank-2 i64 tensor. (What a
    row must hold, e.g. a [low, high] pair, the shape functions check.)"""
    if attr.get_element_type() != i64 or len(attr.get_shape() or ()) != 2:
        raise VerifyException(f"{name} must be a rank-2 i64 tensor, got {attr.get_type()}")
    return int_matrix(attr)


def property_value(attr: Attribute) -> Any:
    """A property as a plain Python value: integer arrays as tuples, i64 matrices as
    lists of row tuples, booleans, integers, floats, strings, enums as their spelling,
    symbols as their name; other attributes (dimension numbers...) as they are."""
    if isinstance(attr, DenseArrayBase | ArrayAttr):
        return ints(attr)
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.get_element_type(), IntegerType):
        return int_matrix(attr)
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        return bool(value) if attr.type == IntegerType(1) else value
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, EnumAttribute):
        return str(attr.data.value)
    if isinstance(attr, SymbolRefAttr):
        return attr.root_reference.data
    return attr


def _property_accessor(name: str) -> Callable[[Any], Any]:
    def get(self: XlaOp) -> Any:
        attr = self.properties.get(name)
        if attr is None:
            default = type(self).PROPERTY_DEFAULTS.get(name)
            return default(self) if callable(default) else default
        return property_value(attr)

    get.__name__ = f"get_{name}"
    get.__doc__ = f"The `{name}` property as a plain Python value (the spec's default when absent)."
    return get


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


# --------------------------------------------------------------------------------------
# The op base class
# --------------------------------------------------------------------------------------


class XlaOp(IRDLOperation):
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
                setattr(cls, f"get_{field_name}", _property_accessor(field.ir_name or field_name))


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
