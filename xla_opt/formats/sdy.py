"""Shardy's `sdy` dialect in bytecode: what a sharded `jax.export` writes beside VHLO.

The `sdy` ops (`sdy.mesh`, `sdy.sharding_constraint`, `sdy.manual_computation`...)
are written with builtin types and their properties as ODS writes them (attribute
references in the order of the attributes' names, a presence flag on an optional
one). Their attributes are in Shardy's own encoding (`shardy/dialect/sdy/ir/
bytecode.td`: codes 0-17, a mesh axis is its name and size, a dimension sharding its
axes, whether it is closed and its priority...) or, from an older Shardy, in the text
fallback. Either way they become the attributes of our `sdy` dialect
(`dialects/sdy/`), built by our parser from Shardy's syntax, so they are exactly
what the text JAX prints would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from .bytecode import BytecodeError, BytecodeReader, DialectCodec, EntryReader, OpParts, read_ods_properties


def _q(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class _Text:
    """A piece of a sharding, as Shardy writes it inside one (`"x"=2`, `{"x", ?}p1`)."""

    text: str


def _piece(value: Any, r: EntryReader, what: str) -> str:
    if isinstance(value, _Text):
        return value.text
    raise r.error(f"expected {what}, got {value!r}")


def _name(r: EntryReader) -> str:
    return r.string()


def _sub_axis(r: EntryReader) -> _Text:
    pre, size = r.svarint(), r.svarint()
    return _Text(f"({pre}){size}")


def _axis_ref(r: EntryReader) -> _Text:
    name = _name(r)
    sub = r.optional_attribute()
    return _Text(_q(name) + (":" + _piece(sub, r, "a sub-axis") if sub is not None else ""))


def _dim_sharding(r: EntryReader) -> _Text:
    axes = [_piece(a, r, "an axis") for a in r.attributes()]
    closed = r.byte()
    priority, has_priority = r.varint_flag()
    if not closed:
        axes.append("?")
    return _Text("{" + ", ".join(axes) + "}" + (f"p{priority}" if has_priority else ""))


def _mesh_text(r: EntryReader) -> str:
    axes = [_piece(a, r, "a mesh axis") for a in r.attributes()]
    ids = r.svarints()
    body = "[" + ", ".join(axes) + "]"
    if ids:
        body += ", device_ids=[" + ", ".join(map(str, ids)) + "]"
    return f"<{body}>"


def _sharding_body(r: EntryReader, unreduced: bool, reduction: bool) -> str:
    mesh = r.attribute()
    if isinstance(mesh, SymbolRefAttr):
        mesh_text = "@" + mesh.root_reference.data
    elif isinstance(mesh, StringAttr):
        mesh_text = "@" + mesh.data
    elif isinstance(mesh, Attribute) and mesh.name == "sdy.mesh":
        from io import StringIO

        from xdsl.printer import Printer

        out = StringIO()
        mesh.print_parameters(Printer(stream=out))  # type: ignore[attr-defined]
        mesh_text = "mesh" + out.getvalue()
    else:
        raise r.error(f"a sharding's mesh is {mesh!r}")
    dims = [_piece(d, r, "a dimension sharding") for d in r.attributes()]
    parts = [mesh_text, "[" + ", ".join(dims) + "]"]
    replicated = [_piece(a, r, "an axis") for a in r.attributes()]
    if replicated:
        parts.append("replicated={" + ", ".join(replicated) + "}")
    if unreduced:
        axes = [_piece(a, r, "an axis") for a in r.attributes()]
        if axes:
            parts.append("unreduced={" + ", ".join(axes) + "}")
    if reduction and r.svarint() != 0:
        raise r.error("an unreduced sharding with a reduction other than a sum is not read")
    return "<" + ", ".join(parts) + ">"


class SdyCodec(DialectCodec):
    name = "sdy"

    # ODS properties: (name, required), in the order of the names.
    PROPERTIES: ClassVar[dict[str, tuple[tuple[str, bool], ...]]] = {
        "sdy.mesh": (("mesh", True), ("sym_name", True)),
        "sdy.sharding_constraint": (("sharding", True),),
        "sdy.reshard": (("sharding", True),),
        "sdy.return": (),
        "sdy.manual_computation": (("in_shardings", True), ("manual_axes", True), ("out_shardings", True)),
        "sdy.sharding_group": (("group_id", True),),
        "sdy.propagation_barrier": (("allowed_direction", True),),
        "sdy.named_computation": (("in_shardings", False), ("name", True), ("out_shardings", False)),
    }

    def __init__(self, parse_attribute: Any):
        self.parse = parse_attribute  # Shardy's text -> our attribute

    def read_version(self, r: EntryReader) -> Any:
        return (r.varint(), r.varint(), r.varint())

    def read_attribute(self, r: EntryReader) -> Any:
        code = r.varint()
        if code == 0:
            axes = [_q(_name_of(a, r)) for a in r.attributes()]
            return self.parse("#sdy<manual_axes{" + ", ".join(axes) + "}>")
        if code == 1:
            name = _name(r)
            return _Text(f"{_q(name)}={r.svarint()}")
        if code == 2:
            return self.parse("#sdy.mesh" + _mesh_text(r))
        if code == 3:
            return _sub_axis(r)
        if code == 4:
            return _axis_ref(r)
        if code == 5:
            return _dim_sharding(r)
        if code in (6, 15, 17):
            return self.parse("#sdy.sharding" + _sharding_body(r, code != 6, code == 17))
        if code in (7, 16):
            items = r.list_of(lambda: _sharding_text(r.attribute(), r))
            return self.parse("#sdy.sharding_per_value<[" + ", ".join(items) + "]>")
        raise r.error(f"sdy attribute code {code} (sharding rules, explicit collectives' parameters) is not read")

    def read_properties(self, op: str, r: EntryReader) -> dict[str, Any]:
        spec = self.PROPERTIES.get(op)
        if spec is None:
            raise r.error(f"sdy op '{op}' is not read")
        return read_ods_properties(r, spec)

    def build_op(self, parts: OpParts, reader: BytecodeReader) -> Operation:
        from xla_opt.dialects.sdy import SDY_OPS

        cls = next((c for c in SDY_OPS if c.name == parts.name), None)
        if cls is None or parts.name not in self.PROPERTIES:
            raise BytecodeError(f"sdy op '{parts.name}' is not read")
        props = dict(parts.properties or {})
        attrs = {}
        for k, v in parts.attributes.items():  # before bytecode 5, properties were attributes
            if any(k == name for name, _ in self.PROPERTIES[parts.name]):
                props.setdefault(k, v)
            else:
                attrs[k] = v
        for k, v in {**props, **attrs}.items():
            if not isinstance(v, Attribute):
                raise BytecodeError(f"'{parts.name}': attribute '{k}' is {v!r}")
        op = cls.create(
            operands=parts.operands,
            result_types=parts.result_types,
            properties=props,
            attributes=attrs,
            regions=parts.regions,
        )
        if isinstance(parts.location, Attribute):
            op.location = parts.location
        return op


def _name_of(value: Any, r: EntryReader) -> str:
    if isinstance(value, StringAttr):
        return value.data
    raise r.error(f"expected an axis name, got {value!r}")


def _sharding_text(value: Any, r: EntryReader) -> str:
    """A sharding inside a list: `<@mesh, [...]>` (its attribute's text less `#sdy.sharding`)."""
    if isinstance(value, Attribute) and value.name == "sdy.sharding":
        return str(value).removeprefix("#sdy.sharding")
    raise r.error(f"expected a sharding, got {value!r}")


__all__ = ["SdyCodec"]
