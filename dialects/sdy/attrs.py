"""The attributes of the `sdy` dialect (Shardy's), parsed and printed as Shardy does
(`shardy/dialect/sdy/ir/attrs.td`, `parsers.cc`, `printers.cc`):

    #sdy.mesh<["x"=2, "y"=2]>   #sdy.mesh<["x"=4], device_ids=[3, 2, 1, 0]>   #sdy.mesh<[], device_ids=[0]>
    #sdy.sharding<@mesh, [{"x"}, {"y", ?}, {?}, {"x":(1)2}p1], replicated={"z"}, unreduced={"w"}>
    #sdy.sharding<mesh<["a"=2]>, [{"a"}]>          (an inline mesh)
    #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>
    #sdy<manual_axes{"x", "y"}>

The pieces of a sharding are attributes too: `MeshAxisAttr` (`"x"=2`), `SubAxisInfoAttr`
(`(1)2`), `AxisRefAttr` (`"x"` or `"x":(1)2`), `DimShardingAttr` (`{"x", ?}p1`). Every
attribute has typed accessors (`get_<parameter>()` returning plain Python values, as the
xla ops' properties have) besides the methods a partitioner needs
(`MeshAttr.axis_size`, `TensorShardingAttr.resolve_mesh` ...). The rules of a valid
mesh and sharding are shape rules (`dialects/shapes/sharding.py`), checked by the ops
that hold them (`ops.py`) and by `verify_sharding_attributes` (shardings on function
arguments and results and on other ops). `#sdy.op_sharding_rule<...>` and the
attributes of Shardy's propagation are kept as their text."""

from __future__ import annotations

import types
from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, NoneAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, OpaqueSyntaxAttribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# --------------------------------------------------------------------------------------
# Parsing and printing helpers (Shardy's spelling: no spaces around `=`, `:` and `p`)
# --------------------------------------------------------------------------------------


def _int(value: int | IntAttr) -> IntAttr:
    return IntAttr(value) if isinstance(value, int) else value


def _str(value: str | StringAttr) -> StringAttr:
    return StringAttr(value) if isinstance(value, str) else value


def _parse_int(parser: AttrParser, what: str) -> int:
    return parser.parse_integer(allow_boolean=False, allow_negative=False, context_msg=f" ({what})")


def _print_list(printer: Printer, items: Sequence[Attribute], open_: str, close: str) -> None:
    printer.print_string(open_)
    for i, item in enumerate(items):
        if i:
            printer.print_string(", ")
        item.print_body(printer)  # type: ignore[attr-defined]
    printer.print_string(close)


def _parse_axis_ref_list(parser: AttrParser) -> list[AxisRefAttr]:
    """`{"x", "y":(2)2}` (the braces included)."""
    return parser.parse_comma_separated_list(parser.Delimiter.BRACES, lambda: AxisRefAttr.parse_body(parser))


# --------------------------------------------------------------------------------------
# Meshes
# --------------------------------------------------------------------------------------


class _PieceAttr(ParametrizedAttribute):
    """A piece of a sharding (an axis, a sub-axis, a reference, a dimension sharding):
    written bare inside a mesh or a sharding (`parse_body`, `print_body`), and in angle
    brackets on its own (`#sdy.axis_ref<"x":(1)2>`)."""

    @classmethod
    def parse_body(cls, parser: AttrParser) -> _PieceAttr:
        raise NotImplementedError

    def print_body(self, printer: Printer) -> None:
        raise NotImplementedError

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self.print_body(printer)
        printer.print_string(">")




@irdl_attr_definition
class MeshAxisAttr(_PieceAttr):
    """A named axis of a mesh, `"x"=2`."""

    name = "sdy.mesh_axis"

    axis_name: StringAttr
    size: IntAttr

    def __init__(self, name: str | StringAttr, size: int | IntAttr):
        super().__init__(_str(name), _int(size))

    def get_name(self) -> str:
        return self.axis_name.data

    def get_size(self) -> int:
        return self.size.data

    @classmethod
    def parse_body(cls, parser: AttrParser) -> MeshAxisAttr:
        name = parser.parse_str_literal(" (a mesh axis name)")
        parser.parse_punctuation("=")
        return cls(name, _parse_int(parser, "the axis size"))

    def print_body(self, printer: Printer) -> None:
        printer.print_string_literal(self.get_name())
        printer.print_string(f"={self.get_size()}")


@irdl_attr_definition
class MeshAttr(ParametrizedAttribute):
    """A mesh: named axes over its devices (`<["x"=2, "y"=2]>`), the devices listed in
    row-major order of the axes (`device_ids=[...]`; the identity order when absent,
    and an explicit identity order is dropped, as Shardy drops it).
    No axes and one device id is a maximal mesh (`<[], device_ids=[3]>`: one device runs
    the tensor); no axes and no id, an empty mesh (`<[]>`)."""

    name = "sdy.mesh"

    axes: ArrayAttr[MeshAxisAttr]
    explicit_device_ids: ArrayAttr[IntAttr]

    def __init__(
        self,
        axes: Sequence[MeshAxisAttr | tuple[str, int]] | ArrayAttr[MeshAxisAttr],
        device_ids: Sequence[int] | ArrayAttr[IntAttr] | None = None,
    ):
        if not isinstance(axes, ArrayAttr):
            axes = ArrayAttr([a if isinstance(a, MeshAxisAttr) else MeshAxisAttr(*a) for a in axes])
        if not isinstance(device_ids, ArrayAttr):
            device_ids = ArrayAttr([IntAttr(int(d)) for d in device_ids or ()])
        total = 1
        for axis in axes.data:
            total *= axis.get_size()
        if axes.data and [d.data for d in device_ids.data] == list(range(total)):
            device_ids = ArrayAttr([])  # the identity order is written by giving none, as Shardy's builder does
        super().__init__(axes, device_ids)

    # ---- accessors --------------------------------------------------------------------
    def get_axes(self) -> list[MeshAxisAttr]:
        return list(self.axes.data)

    def axis_names(self) -> list[str]:
        return [a.get_name() for a in self.axes.data]

    def axis_size(self, name: str) -> int:
        for axis in self.axes.data:
            if axis.get_name() == name:
                return axis.get_size()
        raise KeyError(f'the mesh has no axis "{name}" (axes: {", ".join(self.axis_names()) or "none"})')

    def total_size(self) -> int:
        """The number of devices: the product of the axis sizes (1 without axes)."""
        total = 1
        for axis in self.axes.data:
            total *= axis.get_size()
        return total

    def device_ids(self) -> list[int]:
        """The devices in row-major order of the axes: the explicit list, or the
        identity order 0..N-1."""
        explicit = [d.data for d in self.explicit_device_ids.data]
        return explicit or list(range(self.total_size()))

    def has_explicit_device_ids(self) -> bool:
        return bool(self.explicit_device_ids.data)

    def is_maximal(self) -> bool:
        return not self.axes.data and len(self.explicit_device_ids.data) == 1

    # ---- syntax -----------------------------------------------------------------------
    @classmethod
    def parse_body(cls, parser: AttrParser) -> MeshAttr:
        """`<[axes] (, device_ids=[...])?>`."""
        parser.parse_punctuation("<")
        axes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: MeshAxisAttr.parse_body(parser))
        ids: list[int] = []
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("device_ids")
            parser.parse_punctuation("=")
            ids = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_int(parser, "a device id"))
        parser.parse_punctuation(">")
        return cls(axes, ids)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_body(parser).parameters

    def print_body(self, printer: Printer) -> None:
        """As in a list of them: with its angle brackets."""
        self.print_parameters(printer)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        _print_list(printer, self.get_axes(), "[", "]")
        if self.explicit_device_ids.data:
            printer.print_string(", device_ids=[" + ", ".join(str(d.data) for d in self.explicit_device_ids.data) + "]")
        printer.print_string(">")


# --------------------------------------------------------------------------------------
# Axis references and dimension shardings
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class SubAxisInfoAttr(_PieceAttr):
    """A sub-axis `(m)k`: the factor of size k of an axis reshaped to [m, k, rest]
    (m, the pre-size, is the product of the factors before it)."""

    name = "sdy.sub_axis_info"

    pre_size: IntAttr
    size: IntAttr

    def __init__(self, pre_size: int | IntAttr, size: int | IntAttr):
        super().__init__(_int(pre_size), _int(size))

    def get_pre_size(self) -> int:
        return self.pre_size.data

    def get_size(self) -> int:
        return self.size.data

    @classmethod
    def parse_body(cls, parser: AttrParser) -> SubAxisInfoAttr:
        parser.parse_punctuation("(")
        pre = _parse_int(parser, "the sub-axis pre-size")
        parser.parse_punctuation(")")
        return cls(pre, _parse_int(parser, "the sub-axis size"))

    def print_body(self, printer: Printer) -> None:
        printer.print_string(f"({self.get_pre_size()}){self.get_size()}")


@irdl_attr_definition
class AxisRefAttr(_PieceAttr):
    """A reference to a mesh axis, `"x"`, or to a sub-axis of it, `"x":(1)2`."""

    name = "sdy.axis_ref"

    axis_name: StringAttr
    sub_axis_info: SubAxisInfoAttr | NoneAttr

    def __init__(self, name: str | StringAttr, sub_axis_info: SubAxisInfoAttr | tuple[int, int] | None = None):
        if isinstance(sub_axis_info, tuple):
            sub_axis_info = SubAxisInfoAttr(*sub_axis_info)
        super().__init__(_str(name), sub_axis_info or NoneAttr())

    def get_name(self) -> str:
        return self.axis_name.data

    def get_sub_axis_info(self) -> SubAxisInfoAttr | None:
        info = self.sub_axis_info
        return info if isinstance(info, SubAxisInfoAttr) else None

    def size(self, mesh: MeshAttr) -> int:
        """How many shards it splits into: the axis's size, or the sub-axis's."""
        info = self.get_sub_axis_info()
        return mesh.axis_size(self.get_name()) if info is None else info.get_size()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> AxisRefAttr:
        name = parser.parse_str_literal(" (an axis name)")
        sub = SubAxisInfoAttr.parse_body(parser) if parser.parse_optional_punctuation(":") is not None else None
        return cls(name, sub)

    def print_body(self, printer: Printer) -> None:
        printer.print_string_literal(self.get_name())
        if (info := self.get_sub_axis_info()) is not None:
            printer.print_string(":")
            info.print_body(printer)


@irdl_attr_definition
class DimShardingAttr(_PieceAttr):
    """How one dimension is sharded: its axes, major to minor (`{"x", "y"}`); open to
    further sharding by propagation (`{"x", ?}`, `{?}`) or closed (`{"x"}`, `{}`); and a
    priority for propagation (`{"x"}p1`, lower first)."""

    name = "sdy.dimension_sharding"

    axes: ArrayAttr[AxisRefAttr]
    is_closed: IntAttr
    priority: IntAttr | NoneAttr

    def __init__(
        self,
        axes: Sequence[AxisRefAttr | str] | ArrayAttr[AxisRefAttr] = (),
        is_closed: bool | IntAttr = True,
        priority: int | IntAttr | NoneAttr | None = None,
    ):
        if not isinstance(axes, ArrayAttr):
            axes = ArrayAttr([AxisRefAttr(a) if isinstance(a, str) else a for a in axes])
        if not isinstance(is_closed, IntAttr):
            is_closed = IntAttr(int(bool(is_closed)))
        if priority is None:
            priority = NoneAttr()
        elif isinstance(priority, int):
            priority = IntAttr(priority)
        super().__init__(axes, is_closed, priority)

    def get_axes(self) -> list[AxisRefAttr]:
        return list(self.axes.data)

    def get_is_closed(self) -> bool:
        return bool(self.is_closed.data)

    def get_priority(self) -> int | None:
        return self.priority.data if isinstance(self.priority, IntAttr) else None

    def sharded_size(self, mesh: MeshAttr) -> int:
        """The number of shards of the dimension: the product of its axes' sizes."""
        total = 1
        for ref in self.axes.data:
            total *= ref.size(mesh)
        return total

    @classmethod
    def parse_body(cls, parser: AttrParser) -> DimShardingAttr:
        """`{axes (, ?)?}` or `{?}`, then `p<N>` for a priority."""
        parser.parse_punctuation("{")
        axes: list[AxisRefAttr] = []
        closed = True
        if parser.parse_optional_punctuation("}") is None:
            while True:
                if parser.parse_optional_punctuation("?") is not None:
                    closed = False
                    parser.parse_punctuation("}")
                    break
                axes.append(AxisRefAttr.parse_body(parser))
                if parser.parse_optional_punctuation("}") is not None:
                    break
                parser.parse_punctuation(",")
        priority = None
        pos = parser.pos
        if (word := parser.parse_optional_identifier()) is not None:
            digits = word[1:]
            if not (word.startswith("p") and digits.isdigit()):
                parser.raise_error(f"expected a priority p<number>, got '{word}'", pos, parser.pos)
            if len(digits) > 1 and digits.startswith("0"):
                parser.raise_error(f"a priority has no leading zeros, got '{word}'", pos, parser.pos)
            priority = int(digits)
        return cls(axes, closed, priority)

    def print_body(self, printer: Printer) -> None:
        printer.print_string("{")
        for i, ref in enumerate(self.axes.data):
            if i:
                printer.print_string(", ")
            ref.print_body(printer)
        if not self.get_is_closed():
            printer.print_string(", ?" if self.axes.data else "?")
        printer.print_string("}")
        if (priority := self.get_priority()) is not None:
            printer.print_string(f"p{priority}")


# --------------------------------------------------------------------------------------
# Tensor shardings
# --------------------------------------------------------------------------------------


def find_mesh(op: Operation, name: str) -> MeshAttr | None:
    """The mesh of the `sdy.mesh @name` of the module holding `op` (or `op` itself,
    when it is a module)."""
    module = op if isinstance(op, ModuleOp) else None
    parent = op
    while module is None and parent is not None:
        parent = parent.parent_op()
        if isinstance(parent, ModuleOp):
            module = parent
    if module is None:
        return None
    for candidate in module.body.block.ops:
        if candidate.name == "sdy.mesh" and candidate.sym_name.data == name:  # type: ignore[attr-defined]
            return candidate.mesh  # type: ignore[attr-defined]
    return None


@irdl_attr_definition
class TensorShardingAttr(ParametrizedAttribute):
    """A tensor's sharding on a mesh, named (`@mesh`, an `sdy.mesh` of the module) or
    inline (`mesh<[...]>`): one dimension sharding per dimension, the axes it is
    explicitly replicated on, and the axes it is unreduced on (each device holds a
    partial sum over them)."""

    name = "sdy.sharding"

    mesh: SymbolRefAttr | MeshAttr
    dim_shardings: ArrayAttr[DimShardingAttr]
    replicated_axes: ArrayAttr[AxisRefAttr]
    unreduced_axes: ArrayAttr[AxisRefAttr]

    def __init__(
        self,
        mesh: str | SymbolRefAttr | MeshAttr,
        dim_shardings: Sequence[DimShardingAttr] | ArrayAttr[DimShardingAttr] = (),
        replicated_axes: Sequence[AxisRefAttr | str] | ArrayAttr[AxisRefAttr] = (),
        unreduced_axes: Sequence[AxisRefAttr | str] | ArrayAttr[AxisRefAttr] = (),
    ):
        def refs(values) -> ArrayAttr:
            if isinstance(values, ArrayAttr):
                return values
            return ArrayAttr([AxisRefAttr(v) if isinstance(v, str) else v for v in values])

        if isinstance(mesh, str):
            mesh = SymbolRefAttr(mesh)
        if not isinstance(dim_shardings, ArrayAttr):
            dim_shardings = ArrayAttr(list(dim_shardings))
        super().__init__(mesh, dim_shardings, refs(replicated_axes), refs(unreduced_axes))

    def verify(self) -> None:
        if isinstance(self.mesh, SymbolRefAttr) and self.mesh.nested_references.data:
            raise VerifyException(f"a sharding names its mesh by a flat symbol, got {self.mesh}")

    # ---- accessors --------------------------------------------------------------------
    def mesh_name(self) -> str | None:
        """The name of its `sdy.mesh`, or None for an inline mesh."""
        return self.mesh.root_reference.data if isinstance(self.mesh, SymbolRefAttr) else None

    def dims(self) -> list[DimShardingAttr]:
        return list(self.dim_shardings.data)

    def rank(self) -> int:
        return len(self.dim_shardings.data)

    def get_replicated_axes(self) -> list[AxisRefAttr]:
        return list(self.replicated_axes.data)

    def get_unreduced_axes(self) -> list[AxisRefAttr]:
        return list(self.unreduced_axes.data)

    def resolve_mesh(self, op: Operation) -> MeshAttr:
        """Its mesh: the inline one, or that of the `sdy.mesh` it names in the module
        holding `op` (any op inside the module). A missing mesh is a KeyError."""
        if isinstance(self.mesh, MeshAttr):
            return self.mesh
        name = self.mesh.root_reference.data
        mesh = find_mesh(op, name)
        if mesh is None:
            raise KeyError(f"no sdy.mesh @{name} in the module")
        return mesh

    def is_fully_replicated(self) -> bool:
        return all(not d.axes.data for d in self.dim_shardings.data)

    # ---- syntax -----------------------------------------------------------------------
    @classmethod
    def parse_body(cls, parser: AttrParser) -> TensorShardingAttr:
        """`<@mesh or mesh<...>, [dims] (, replicated={...})? (, unreduced={...})?>`."""
        parser.parse_punctuation("<")
        pos = parser.pos
        if parser.parse_optional_keyword("mesh") is not None:
            mesh: SymbolRefAttr | MeshAttr = MeshAttr.parse_body(parser)
        elif (symbol := parser.parse_optional_symbol_name()) is not None:
            mesh = SymbolRefAttr(symbol)
        else:
            parser.raise_error("expected a mesh: @name or mesh<...>", pos, parser.pos)
        parser.parse_punctuation(",")
        dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: DimShardingAttr.parse_body(parser))
        replicated: list[AxisRefAttr] = []
        unreduced: list[AxisRefAttr] = []
        while parser.parse_optional_punctuation(",") is not None:
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word == "replicated" and not replicated:
                parser.parse_punctuation("=")
                replicated = _parse_axis_ref_list(parser)
            elif word == "unreduced" and not unreduced:
                parser.parse_punctuation("=")
                unreduced = _parse_axis_ref_list(parser)
            else:
                parser.raise_error("expected replicated={...} or unreduced={...} after ','", pos, parser.pos)
        parser.parse_punctuation(">")
        return cls(mesh, dims, replicated, unreduced)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_body(parser).parameters

    def print_body(self, printer: Printer) -> None:
        """As in a list of them: with its angle brackets."""
        self.print_parameters(printer)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if isinstance(self.mesh, MeshAttr):
            printer.print_string("mesh")
            self.mesh.print_parameters(printer)
        else:
            printer.print_symbol_name(self.mesh.root_reference.data)
        printer.print_string(", ")
        _print_list(printer, self.dims(), "[", "]")
        for keyword, refs in (("replicated", self.replicated_axes.data), ("unreduced", self.unreduced_axes.data)):
            if refs:
                printer.print_string(f", {keyword}=")
                _print_list(printer, refs, "{", "}")
        printer.print_string(">")


@irdl_attr_definition
class TensorShardingPerValueAttr(ParametrizedAttribute):
    """One tensor sharding per value (an op's results, a manual computation's operands
    or results): `<[<@mesh, [...]>, ...]>`."""

    name = "sdy.sharding_per_value"

    shardings: ArrayAttr[TensorShardingAttr]

    def __init__(self, shardings: Sequence[TensorShardingAttr] | ArrayAttr[TensorShardingAttr] = ()):
        super().__init__(shardings if isinstance(shardings, ArrayAttr) else ArrayAttr(list(shardings)))

    def get_shardings(self) -> list[TensorShardingAttr]:
        return list(self.shardings.data)

    @classmethod
    def parse_list(cls, parser: AttrParser) -> TensorShardingPerValueAttr:
        """`[<...>, <...>]`: the stripped list a manual computation prints."""
        return cls(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: TensorShardingAttr.parse_body(parser)))

    def print_list(self, printer: Printer) -> None:
        _print_list(printer, self.get_shardings(), "[", "]")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return cls.parse_list(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self.print_list(printer)
        printer.print_string(">")


@irdl_attr_definition
class ManualAxesAttr(ParametrizedAttribute, OpaqueSyntaxAttribute):
    """The axes a manual computation is manual on, `{"x", "y"}` (full axes only);
    `#sdy<manual_axes{"x"}>` in the generic form, as MLIR prints it."""

    name = "sdy.manual_axes"

    axes: ArrayAttr[StringAttr]

    def __init__(self, axes: Sequence[str | StringAttr] | ArrayAttr[StringAttr] = ()):
        if not isinstance(axes, ArrayAttr):
            axes = ArrayAttr([StringAttr(a) if isinstance(a, str) else a for a in axes])
        super().__init__(axes)

    def get_axes(self) -> list[str]:
        return [a.data for a in self.axes.data]

    @classmethod
    def parse_body(cls, parser: AttrParser) -> ManualAxesAttr:
        return cls(parser.parse_comma_separated_list(parser.Delimiter.BRACES, lambda: parser.parse_str_literal()))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("{")
        for i, axis in enumerate(self.get_axes()):
            if i:
                printer.print_string(", ")
            printer.print_string_literal(axis)
        printer.print_string("}")


# --------------------------------------------------------------------------------------
# Attributes kept as text: sharding rules and what Shardy's propagation writes
# --------------------------------------------------------------------------------------


class OpaqueSdyAttr(ParametrizedAttribute):
    """An attribute of Shardy's that means nothing here, kept as the text of its
    `<...>` body so that it prints back as it was read."""

    body: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser._current_token.text != "<":  # noqa: SLF001 - a look-ahead
            return (StringAttr(""),)
        return (StringAttr(parser._parse_dialect_symbol_body()),)  # noqa: SLF001 - the raw <...> text

    def print_parameters(self, printer: Printer) -> None:
        if self.body.data:
            printer.print_string(f"<{self.body.data}>")


def _opaque(name: str, doc: str) -> type[OpaqueSdyAttr]:
    cls_name = "".join(p.capitalize() for p in name.removeprefix("sdy.").split("_")) + "Attr"
    cls = types.new_class(
        cls_name, (OpaqueSdyAttr,), {}, lambda ns: ns.update({"name": name, "__module__": __name__, "__doc__": doc})
    )
    return irdl_attr_definition(cls)


OpShardingRuleAttr = _opaque("sdy.op_sharding_rule", "How an op's factors map to its operands' and results' dimensions.")
OPAQUE_ATTRS = [
    OpShardingRuleAttr,
    *(
        _opaque(name, "Kept as its text (Shardy's propagation).")
        for name in (
            "sdy.tensor_mapping",
            "sdy.dim_mapping",
            "sdy.propagation_edges",
            "sdy.axis_ref_list",
            "sdy.list_of_axis_ref_lists",
            "sdy.all_to_all_param",
            "sdy.all_to_all_param_list",
            "sdy.axis_to_propagation_details",
        )
    ),
]

SDY_ATTRS = [
    MeshAxisAttr,
    MeshAttr,
    SubAxisInfoAttr,
    AxisRefAttr,
    DimShardingAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    ManualAxesAttr,
    *OPAQUE_ATTRS,
]

__all__ = [
    "AxisRefAttr",
    "DimShardingAttr",
    "ManualAxesAttr",
    "MeshAttr",
    "MeshAxisAttr",
    "OpShardingRuleAttr",
    "SDY_ATTRS",
    "SubAxisInfoAttr",
    "TensorShardingAttr",
    "TensorShardingPerValueAttr",
    "find_mesh",
]
