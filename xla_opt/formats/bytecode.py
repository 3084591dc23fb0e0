"""MLIR's bytecode container, read in pure Python (MLIR's `docs/BytecodeFormat.md` and
`mlir/lib/Bytecode/Reader/BytecodeReader.cpp` are the reference): the magic `ML\\xefR`,
the bytecode version (0 to 6) and producer, then sections:

* strings (sizes in reverse order, then the characters), dialects (names, versions,
  the op names grouped by dialect, with each op's "was registered" flag from version 5),
  attributes and types (an offset section giving each entry's dialect, size and whether
  it uses the dialect's own encoding or the text fallback: its textual assembly), the
  IR, resources and their offsets, dialect versions, op properties (from version 5);
* varints (a prefix of zero bits gives the count of extra bytes), signed varints
  (zigzag), aligned sections (0xCB padding), null-terminated strings;
* the IR: ops (name, encoding mask, location, attribute dictionary, properties,
  result types, operands as value numbers of the enclosing isolated region, successors,
  use-list orders, regions), regions and blocks with their arguments. A region isolated
  from above is, from version 2, a section of its own that a reader may load lazily:
  here every one is read as it comes.

Each dialect's attributes, types, op properties and ops are read by a `DialectCodec`:
the builtin dialect's is here (its encodings are MLIR's `BuiltinDialectBytecode.td`),
`func`'s too; VHLO's (`vhlo.py`) and Shardy's (`sdy.py`) are beside this module. An
attribute or type stored as text is parsed by our own parser. The reader builds xDSL
ops directly, as the codecs say; a dialect without a codec, an unknown code, or bytes
that do not make sense are a `BytecodeError` whose message is one line.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BytesAttr,
    CallSiteLoc,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    FunctionType,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnknownLoc,
    UnrankedMemRefType,
    UnrankedTensorType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser.core import ForwardDeclaredValue

MAGIC = b"ML\xefR"

# The bytecode versions and what each added (mlir/include/mlir/Bytecode/Encoding.h).
DIALECT_VERSIONING = 1
LAZY_LOADING = 2
USE_LIST_ORDERING = 3
ELIDE_UNKNOWN_BLOCK_ARG_LOCATION = 4
NATIVE_PROPERTIES_ENCODING = 5
NATIVE_PROPERTIES_ODS_SEGMENT_SIZE = 6
MAX_VERSION = 6

# Section ids.
STRING, DIALECT, ATTR_TYPE, ATTR_TYPE_OFFSET, IR, RESOURCE, RESOURCE_OFFSET, DIALECT_VERSIONS, PROPERTIES = range(9)
SECTION_NAMES = (
    "string",
    "dialect",
    "attribute/type",
    "attribute/type offset",
    "IR",
    "resource",
    "resource offset",
    "dialect versions",
    "properties",
)
ALIGNMENT_BYTE = 0xCB

# Op encoding mask bits.
HAS_ATTRS, HAS_RESULTS, HAS_OPERANDS, HAS_SUCCESSORS = 0x01, 0x02, 0x04, 0x08
HAS_INLINE_REGIONS, HAS_USE_LIST_ORDERS, HAS_PROPERTIES = 0x10, 0x20, 0x40

# MLIR's dynamic dimension (ShapedType::kDynamic), also xDSL's DYNAMIC_INDEX.
MLIR_DYNAMIC = -(1 << 63)

# A splat of this many elements or more keeps its one value (as the text parser does:
# xla_opt/xdsl_patches/parsing.py, "splat-literals").
SPLAT_KEPT_FROM = 1 << 16


class BytecodeError(Exception):
    """The bytes are not a program this reader understands; the message is one line."""


def is_bytecode(data: bytes | bytearray | memoryview) -> bool:
    return bytes(data[:4]) == MAGIC


# --------------------------------------------------------------------------------------
# Primitives
# --------------------------------------------------------------------------------------


class Reader:
    """A window `[pos, end)` of the file's bytes; positions are offsets in the file
    (alignment is relative to its start, as MLIR's reader assumes the buffer aligned)."""

    __slots__ = ("data", "end", "pos", "what")

    def __init__(self, data: bytes, pos: int = 0, end: int | None = None, what: str = "bytecode"):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end
        self.what = what

    def error(self, message: str) -> BytecodeError:
        return BytecodeError(f"{message} (in the {self.what}, at byte {self.pos})")

    def at_end(self) -> bool:
        return self.pos >= self.end

    def remaining(self) -> int:
        return self.end - self.pos

    def byte(self) -> int:
        if self.pos >= self.end:
            raise self.error("unexpected end of data")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n: int) -> bytes:
        if n < 0 or n > self.end - self.pos:
            raise self.error(f"{n} bytes expected, {self.end - self.pos} left")
        start = self.pos
        self.pos += n
        return self.data[start : self.pos]

    def skip(self, n: int) -> None:
        if n < 0 or n > self.end - self.pos:
            raise self.error(f"{n} bytes expected, {self.end - self.pos} left")
        self.pos += n

    def varint(self) -> int:
        """A PrefixVarInt: the first byte's trailing zeros count the extra bytes."""
        pos = self.pos
        if pos >= self.end:
            raise self.error("unexpected end of data")
        data = self.data
        first = data[pos]
        if first & 1:
            self.pos = pos + 1
            return first >> 1
        if first == 0:
            if pos + 9 > self.end:
                raise self.error("unexpected end of data in a varint")
            self.pos = pos + 9
            return int.from_bytes(data[pos + 1 : pos + 9], "little")
        extra = (first & -first).bit_length() - 1
        if pos + extra + 1 > self.end:
            raise self.error("unexpected end of data in a varint")
        self.pos = pos + extra + 1
        return int.from_bytes(data[pos : pos + extra + 1], "little") >> (extra + 1)

    def svarint(self) -> int:
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def varint_flag(self) -> tuple[int, bool]:
        v = self.varint()
        return v >> 1, bool(v & 1)

    def cstring(self) -> bytes:
        nul = self.data.find(b"\0", self.pos, self.end)
        if nul < 0:
            raise self.error("a null-terminated string has no null character")
        start = self.pos
        self.pos = nul + 1
        return self.data[start:nul]

    def align(self, alignment: int) -> None:
        if alignment <= 0 or alignment & (alignment - 1) or alignment > (1 << 32):
            raise self.error(f"alignment {alignment} is not a power of two")
        while self.pos % alignment:
            if self.byte() != ALIGNMENT_BYTE:
                raise self.error("expected the alignment byte 0xCB")

    def section(self) -> tuple[int, Reader]:
        """A section: its id byte (the high bit: aligned), length, alignment, data."""
        start = self.pos
        id_and_align = self.byte()
        length = self.varint()
        section_id = id_and_align & 0x7F
        if section_id >= len(SECTION_NAMES):
            self.pos = start
            raise self.error(f"unknown section id {section_id}")
        if id_and_align & 0x80:
            self.align(self.varint())
        if length > self.end - self.pos:
            raise self.error(f"the {SECTION_NAMES[section_id]} section's length {length} runs past the end")
        sub = Reader(self.data, self.pos, self.pos + length, f"{SECTION_NAMES[section_id]} section")
        self.pos += length
        return section_id, sub

    def list_of(self, read: Callable[[], Any]) -> list[Any]:
        n = self.varint()
        if n > self.end - self.pos:  # every element takes at least one byte
            raise self.error(f"a list of {n} elements is longer than its data")
        return [read() for _ in range(n)]


def apint(r: Reader, width: int) -> int:
    """`readAPIntWithKnownWidth`: the bits of a `width`-bit integer, unsigned."""
    if width <= 8:
        return r.byte() & ((1 << width) - 1)
    if width <= 64:
        return r.svarint() & ((1 << width) - 1)
    words = r.list_of(r.svarint)
    value = 0
    for i, w in enumerate(words):
        value |= (w & ((1 << 64) - 1)) << (64 * i)
    return value & ((1 << width) - 1)


def signed(bits: int, width: int) -> int:
    return bits - (1 << width) if width and bits >> (width - 1) else bits


# --------------------------------------------------------------------------------------
# Floats
# --------------------------------------------------------------------------------------

_FLOAT_WIDTHS = {"bf16": 16, "f16": 16, "f32": 32, "f64": 64, "tf32": 19, "f80": 80, "f128": 128}


def float_width(t: Attribute) -> int:
    name = t.name if hasattr(t, "name") else ""
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    if isinstance(t, Float16Type | BFloat16Type):
        return 16
    if isinstance(t, Float80Type):
        return 80
    if isinstance(t, Float128Type):
        return 128
    width = getattr(t, "bitwidth", None)
    if isinstance(width, int):
        return width
    raise BytecodeError(f"no float semantics for {name or t}")


def float_from_bits(bits: int, t: Attribute) -> float:
    """The value of a float of type `t` from its bits."""
    if isinstance(t, Float32Type):
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    if isinstance(t, Float64Type):
        return struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    if isinstance(t, Float16Type):
        return struct.unpack("<e", bits.to_bytes(2, "little"))[0]
    if isinstance(t, BFloat16Type):
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    import numpy as np

    from xla_opt.interpreter.dtypes import numpy_dtype

    try:
        dtype = np.dtype(numpy_dtype(t))
    except Exception:  # noqa: BLE001 - any type numpy has no dtype for
        raise BytecodeError(f"a float constant of type {t} cannot be read") from None
    raw = bits.to_bytes(dtype.itemsize, "little")
    return float(np.frombuffer(raw, dtype)[0].astype(np.float64))


# --------------------------------------------------------------------------------------
# The reader's view of a dialect
# --------------------------------------------------------------------------------------


@dataclass
class OpParts:
    """What the bytecode says of one op, attributes and types decoded by their codecs."""

    name: str
    location: Attribute
    attributes: dict[str, Any]
    properties: dict[str, Any] | None
    operands: list[SSAValue]
    result_types: list[Attribute]
    successors: list[Block]
    regions: list[Region]
    isolated: bool = False
    parent: Operation | None = None  # the op whose region holds this one


class DialectCodec:
    """How one dialect's attributes, types, op properties and ops are read. The
    defaults refuse, naming what is not read."""

    name = ""

    def read_attribute(self, r: EntryReader) -> Any:
        raise r.error(f"attributes of dialect '{self.name}' in its own encoding are not read")

    def read_type(self, r: EntryReader) -> Any:
        raise r.error(f"types of dialect '{self.name}' in its own encoding are not read")

    def read_version(self, r: EntryReader) -> Any:
        return None

    def read_properties(self, op: str, r: EntryReader) -> dict[str, Any]:
        raise r.error(f"the properties of '{op}' are not read")

    def build_op(self, parts: OpParts, reader: BytecodeReader) -> Operation:
        raise BytecodeError(f"op '{parts.name}' of dialect '{self.name}' is not read")

    def finish(self, module: ModuleOp, reader: BytecodeReader) -> None:
        """After the whole module is read."""


class EntryReader(Reader):
    """A reader of one attribute, type or properties entry, which reads references to
    other entries and strings (MLIR's `DialectBytecodeReader`)."""

    __slots__ = ("owner",)

    def __init__(self, owner: BytecodeReader, data: bytes, pos: int, end: int, what: str):
        super().__init__(data, pos, end, what)
        self.owner = owner

    def attribute(self) -> Any:
        return self.owner.attribute(self.varint())

    def optional_attribute(self) -> Any | None:
        index, present = self.varint_flag()
        return self.owner.attribute(index) if present else None

    def type(self) -> Any:
        return self.owner.type(self.varint())

    def string(self) -> str:
        return self.owner.string(self.varint())

    def blob(self) -> bytes:
        return self.bytes(self.varint())

    def attributes(self) -> list[Any]:
        return self.list_of(self.attribute)

    def types(self) -> list[Any]:
        return self.list_of(self.type)

    def svarints(self) -> list[int]:
        return self.list_of(self.svarint)

    def resource(self) -> tuple[str, str]:
        index = self.varint()
        resources = self.owner.dialect_resources
        if index >= len(resources):
            raise self.error(f"resource {index} does not exist")
        return resources[index]


# --------------------------------------------------------------------------------------
# The reader
# --------------------------------------------------------------------------------------


@dataclass
class _Dialect:
    name: str
    version_data: Reader | None = None
    codec: DialectCodec | None = None
    version: Any = None
    loaded: bool = False


@dataclass
class _OpName:
    dialect: _Dialect
    name: str
    registered: bool | None


@dataclass
class _Entry:
    dialect: _Dialect
    custom: bool
    start: int
    end: int


_PENDING = object()


@dataclass
class _Scope:
    """The values of one region isolated from above, numbered in order of definition;
    each region within it reserves its own range."""

    values: list[SSAValue | None] = field(default_factory=list)
    next_ids: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    forward: dict[int, ForwardDeclaredValue] = field(default_factory=dict)


class BytecodeReader:
    """Reads one bytecode file into a builtin.module of xDSL ops."""

    def __init__(self, data: bytes, codecs: dict[str, DialectCodec], text_parser: Callable[[str, bool], Any]):
        self.data = bytes(data)
        self.codecs = codecs
        self.parse_text = text_parser  # (text, is_type) -> attribute or type
        self.version = 0
        self.producer = ""
        self.strings: list[str] = []
        self.dialects: list[_Dialect] = []
        self.op_names: list[_OpName] = []
        self.attrs: list[_Entry] = []
        self.types_: list[_Entry] = []
        self.attr_cache: list[Any] = []
        self.type_cache: list[Any] = []
        self.dialect_resources: list[tuple[str, str]] = []  # (dialect, key)
        self.resource_blobs: dict[tuple[str, str], bytes] = {}
        self.properties: Reader | None = None
        self.property_offsets: list[int] = []
        self.scopes: list[_Scope] = []
        self.parents: list[Operation] = []

    # ---- the header and the sections ---------------------------------------------------
    def read(self) -> ModuleOp:
        r = Reader(self.data, what="header")
        if r.bytes(4) != MAGIC:
            raise BytecodeError("not MLIR bytecode (no 'ML\\xefR' magic number)")
        self.version = r.varint()
        if self.version > MAX_VERSION:
            raise BytecodeError(f"bytecode version {self.version} is newer than the versions read (0 to {MAX_VERSION})")
        self.producer = r.cstring().decode("utf-8", "replace")
        sections: dict[int, Reader] = {}
        r.what = "file"
        while not r.at_end():
            section_id, section = r.section()
            if section_id in sections:
                raise BytecodeError(f"the {SECTION_NAMES[section_id]} section appears twice")
            sections[section_id] = section
        for required in (STRING, DIALECT, ATTR_TYPE, ATTR_TYPE_OFFSET, IR):
            if required not in sections:
                raise BytecodeError(f"the {SECTION_NAMES[required]} section is missing")
        if self.version >= NATIVE_PROPERTIES_ENCODING and PROPERTIES not in sections:
            raise BytecodeError("the properties section is missing")
        self._read_strings(sections[STRING])
        if PROPERTIES in sections:
            self._read_properties_section(sections[PROPERTIES])
        self._read_dialects(sections[DIALECT])
        if (RESOURCE in sections) != (RESOURCE_OFFSET in sections):
            raise BytecodeError("the resource and resource offset sections come together")
        if RESOURCE in sections:
            self._read_resources(sections[RESOURCE], sections[RESOURCE_OFFSET])
        self._read_attr_type_offsets(sections[ATTR_TYPE], sections[ATTR_TYPE_OFFSET])
        module = self._read_ir(sections[IR])
        for d in self.dialects:
            if d.codec is not None:
                d.codec.finish(module, self)
        return module

    def _read_strings(self, r: Reader) -> None:
        count = r.varint()
        if count > r.remaining():
            raise r.error(f"{count} strings in {r.remaining()} bytes")
        sizes = [r.varint() for _ in range(count)]
        end = r.end
        strings: list[str] = [""] * count
        for i, size in enumerate(sizes):  # sizes are in reverse order, from the end
            index = count - 1 - i
            if size < 1 or size > end - r.pos:
                raise r.error("a string's size runs past the string data")
            raw = self.data[end - size : end - 1]
            try:
                strings[index] = raw.decode("utf-8")
            except UnicodeDecodeError:
                strings[index] = raw.decode("utf-8", "surrogateescape")
            end -= size
        if end != r.pos:
            raise r.error("unexpected data between the string sizes and the strings")
        self.strings = strings

    def string(self, index: int) -> str:
        if index >= len(self.strings):
            raise BytecodeError(f"string {index} does not exist ({len(self.strings)} strings)")
        return self.strings[index]

    def _read_properties_section(self, r: Reader) -> None:
        if r.at_end():
            return
        count = r.varint()
        offsets = []
        for _ in range(count):
            offsets.append(r.pos)
            r.skip(r.varint())
        if not r.at_end():
            raise r.error("trailing data after the properties")
        self.properties = r
        self.property_offsets = offsets

    def _read_dialects(self, r: Reader) -> None:
        count = r.varint()
        if count > r.remaining():
            raise r.error(f"{count} dialects in {r.remaining()} bytes")
        for _ in range(count):
            if self.version < DIALECT_VERSIONING:
                self.dialects.append(_Dialect(self.string(r.varint())))
                continue
            index, versioned = r.varint_flag()
            d = _Dialect(self.string(index))
            if versioned:
                section_id, d.version_data = r.section()
                if section_id != DIALECT_VERSIONS:
                    raise r.error("expected a dialect version section")
            self.dialects.append(d)
        if self.version >= ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
            r.varint()  # the number of op names, a capacity hint
        while not r.at_end():
            dialect = self._dialect_at(r.varint(), r)
            for _ in range(r.varint()):
                if self.version < NATIVE_PROPERTIES_ENCODING:
                    self.op_names.append(_OpName(dialect, self.string(r.varint()), None))
                else:
                    index, registered = r.varint_flag()
                    self.op_names.append(_OpName(dialect, self.string(index), registered))

    def _dialect_at(self, index: int, r: Reader) -> _Dialect:
        if index >= len(self.dialects):
            raise r.error(f"dialect {index} does not exist ({len(self.dialects)} dialects)")
        return self.dialects[index]

    def codec(self, d: _Dialect) -> DialectCodec:
        if not d.loaded:
            codec = self.codecs.get(d.name)
            if codec is None:
                raise BytecodeError(f"dialect '{d.name}' is not read (read: {', '.join(sorted(self.codecs))})")
            d.codec = codec
            d.loaded = True
            if d.version_data is not None:
                v = d.version_data
                d.version = codec.read_version(EntryReader(self, self.data, v.pos, v.end, f"{d.name} version"))
        assert d.codec is not None
        return d.codec

    def _read_resources(self, data: Reader, offsets: Reader) -> None:
        external = offsets.varint()

        def group(dialect: str | None) -> None:
            for _ in range(offsets.varint()):
                key = self.string(offsets.varint())
                size = offsets.varint()
                kind = offsets.byte()
                start = data.pos
                data.skip(size)
                if dialect is None:
                    continue  # an external resource (a reproducer's pipeline...): not ours
                self.dialect_resources.append((dialect, key))
                if size and kind == 0:  # a blob: alignment, size, padding, bytes
                    blob = Reader(self.data, start, start + size, f"resource '{key}'")
                    alignment = blob.varint()
                    n = blob.varint()
                    blob.align(alignment)
                    self.resource_blobs[(dialect, key)] = blob.bytes(n)

        for _ in range(external):
            self.string(offsets.varint())
            group(None)
        while not offsets.at_end():
            d = self._dialect_at(offsets.varint(), offsets)
            group(d.name)

    def _read_attr_type_offsets(self, data: Reader, r: Reader) -> None:
        n_attrs = r.varint()
        n_types = r.varint()
        if n_attrs + n_types > 2 * max(r.remaining(), 1) + 2:
            raise r.error(f"{n_attrs} attributes and {n_types} types in {r.remaining()} bytes")
        offset = data.pos

        def entries(count: int) -> list[_Entry]:
            nonlocal offset
            out: list[_Entry] = []
            while len(out) < count:
                dialect = self._dialect_at(r.varint(), r)
                for _ in range(r.varint()):
                    if len(out) >= count:
                        raise r.error("more attribute/type entries than declared")
                    size, custom = r.varint_flag()
                    if size > data.end - offset:
                        raise r.error("an attribute or type runs past the end of its section")
                    out.append(_Entry(dialect, custom, offset, offset + size))
                    offset += size
            return out

        self.attrs = entries(n_attrs)
        self.types_ = entries(n_types)
        if not r.at_end():
            raise r.error("trailing data in the attribute/type offset section")
        self.attr_cache = [None] * n_attrs
        self.type_cache = [None] * n_types

    # ---- attributes and types -----------------------------------------------------------
    def attribute(self, index: int) -> Any:
        cache = self.attr_cache
        if index >= len(cache):
            raise BytecodeError(f"attribute {index} does not exist ({len(cache)} attributes)")
        value = cache[index]
        if value is None:
            value = self._decode(self.attrs[index], cache, index, False)
        elif value is _PENDING:
            raise BytecodeError(f"attribute {index} refers to itself")
        return value

    def type(self, index: int) -> Any:
        cache = self.type_cache
        if index >= len(cache):
            raise BytecodeError(f"type {index} does not exist ({len(cache)} types)")
        value = cache[index]
        if value is None:
            value = self._decode(self.types_[index], cache, index, True)
        elif value is _PENDING:
            raise BytecodeError(f"type {index} refers to itself")
        return value

    def _decode(self, entry: _Entry, cache: list[Any], index: int, is_type: bool) -> Any:
        what = "type" if is_type else "attribute"
        cache[index] = _PENDING
        try:
            r = EntryReader(self, self.data, entry.start, entry.end, f"{entry.dialect.name} {what} #{index}")
            codec = self.codec(entry.dialect)
            if entry.custom:
                value = codec.read_type(r) if is_type else codec.read_attribute(r)
            else:
                text = r.cstring().decode("utf-8", "replace")
                value = self.parse_text(text, is_type)
            if not r.at_end():
                raise r.error(f"trailing bytes after the {what}")
        except BaseException:
            cache[index] = None
            raise
        cache[index] = value
        return value

    # ---- the IR -----------------------------------------------------------------------
    def _read_ir(self, r: Reader) -> ModuleOp:
        holder = Block()
        scope = _Scope()
        self.scopes.append(scope)
        scope.next_ids.append(0)
        scope.ends.append(0)
        n_ops = self._block_header(r, holder, top=True)
        for _ in range(n_ops):
            op = self._op(r, [holder], defines=False)
            holder.add_op(op)
        if not r.at_end():
            raise r.error("trailing data after the top-level operations")
        self._check_forward(scope)
        self.scopes.pop()
        ops = list(holder.ops)
        if len(ops) == 1 and isinstance(ops[0], ModuleOp):
            module = ops[0]
            module.detach()
            return module
        for op in ops:
            op.detach()
        return ModuleOp(ops)

    def _block_header(self, r: Reader, block: Block, top: bool = False) -> int:
        n_ops, has_args = r.varint_flag()
        if n_ops > r.remaining():
            raise r.error(f"a block of {n_ops} ops in {r.remaining()} bytes")
        if has_args:
            if top:
                raise r.error("the top-level block has arguments")
            n_args = r.varint()
            if n_args > r.remaining():
                raise r.error(f"a block of {n_args} arguments in {r.remaining()} bytes")
            args = []
            for i in range(n_args):
                if self.version >= ELIDE_UNKNOWN_BLOCK_ARG_LOCATION:
                    type_index, has_loc = r.varint_flag()
                    t = self.type(type_index)
                    loc = self.attribute(r.varint()) if has_loc else None
                else:
                    t = self.type(r.varint())
                    loc = self.attribute(r.varint())
                if not isinstance(t, Attribute):
                    raise r.error(f"block argument #{i} has no type: {t!r}")
                args.append(block.insert_arg(t, i, loc if isinstance(loc, Attribute) else None))
            self._define(args, r)
            if self.version >= USE_LIST_ORDERING and r.byte():
                self._use_list_orders(r, n_args)
        return n_ops

    def _use_list_orders(self, r: Reader, n_values: int) -> None:
        """Use-list orders say how uses were ordered; they do not change the program."""
        count = r.varint() if n_values > 1 else 1
        for _ in range(count):
            if n_values > 1:
                r.varint()
            n, _pairs = r.varint_flag()
            if n > r.remaining():
                raise r.error("a use-list order longer than its data")
            for _ in range(n):
                r.varint()

    def _define(self, values: list[SSAValue], r: Reader) -> None:
        scope = self.scopes[-1]
        first = scope.next_ids[-1]
        if first + len(values) > scope.ends[-1]:
            raise r.error(
                f"values {first}..{first + len(values) - 1} lie outside their region's {scope.ends[-1]} values"
            )
        for i, value in enumerate(values, first):
            scope.values[i] = value
            fwd = scope.forward.pop(i, None)
            if fwd is not None:
                fwd.replace_all_uses_with(value)
        scope.next_ids[-1] = first + len(values)

    def _operand(self, r: Reader) -> SSAValue:
        scope = self.scopes[-1]
        index = r.varint()
        if index >= len(scope.values):
            raise r.error(f"operand refers to value {index}; {len(scope.values)} values are in scope")
        value = scope.values[index]
        if value is None:  # defined later (a graph region, a later block)
            value = scope.forward.get(index)
            if value is None:
                value = scope.forward[index] = ForwardDeclaredValue(NoneType())
        return value

    def _check_forward(self, scope: _Scope) -> None:
        if scope.forward:
            raise BytecodeError(f"values {sorted(scope.forward)} are used but never defined")

    def _op(self, r: Reader, blocks: list[Block], defines: bool) -> Operation:
        index = r.varint()
        if index >= len(self.op_names):
            raise r.error(f"op name {index} does not exist ({len(self.op_names)} op names)")
        op_name = self.op_names[index]
        name = f"{op_name.dialect.name}.{op_name.name}" if op_name.name else op_name.dialect.name
        codec = self.codec(op_name.dialect)
        mask = r.byte()
        location = self.attribute(r.varint())
        attributes: dict[str, Any] = {}
        if mask & HAS_ATTRS:
            attributes = _as_dict(self.attribute(r.varint()), r, name)
        properties = None
        if mask & HAS_PROPERTIES:
            if op_name.registered is None:
                raise r.error(f"'{name}' has properties in bytecode version {self.version}")
            if op_name.registered:
                properties = self._properties(r, codec, name)
            else:  # an unregistered op's properties are an attribute
                properties = _as_dict(self.attribute(r.varint()), r, name)
        result_types: list[Attribute] = []
        if mask & HAS_RESULTS:
            result_types = r.list_of(lambda: self.type(r.varint()))
        operands: list[SSAValue] = []
        if mask & HAS_OPERANDS:
            operands = r.list_of(lambda: self._operand(r))
        successors: list[Block] = []
        if mask & HAS_SUCCESSORS:
            for _ in range(r.varint()):
                b = r.varint()
                if b >= len(blocks):
                    raise r.error(f"successor {b} does not exist ({len(blocks)} blocks)")
                successors.append(blocks[b])
        if self.version >= USE_LIST_ORDERING and mask & HAS_USE_LIST_ORDERS:
            self._use_list_orders(r, len(result_types))
        n_regions, isolated = 0, False
        if mask & HAS_INLINE_REGIONS:
            n_regions, isolated = r.varint_flag()
            if n_regions > r.remaining() + 1:
                raise r.error(f"{n_regions} regions in {r.remaining()} bytes")
        regions = [Region() for _ in range(n_regions)]
        for t in result_types:
            if not isinstance(t, Attribute):
                raise r.error(f"'{name}' has a result of no type: {t!r}")
        parent = self.parents[-1] if self.parents else None
        parts = OpParts(
            name, location, attributes, properties, operands, result_types, successors, regions, isolated, parent
        )
        op = codec.build_op(parts, self)
        if defines and op.results:
            self._define(list(op.results), r)
        if n_regions:
            self.parents.append(op)
            self._regions(r, regions, isolated)
            self.parents.pop()
        return op

    def _properties(self, r: Reader, codec: DialectCodec, name: str) -> dict[str, Any]:
        index = r.varint()
        if self.properties is None or index >= len(self.property_offsets):
            raise r.error(f"properties {index} of '{name}' do not exist")
        start = self.property_offsets[index]
        size_reader = Reader(self.data, start, self.properties.end, "properties section")
        size = size_reader.varint()
        pr = EntryReader(self, self.data, size_reader.pos, size_reader.pos + size, f"properties of '{name}'")
        props = codec.read_properties(name, pr)
        if not pr.at_end():
            raise pr.error(f"trailing bytes after the properties of '{name}'")
        return props

    def _regions(self, r: Reader, regions: list[Region], isolated: bool) -> None:
        if isolated:
            if self.version >= LAZY_LOADING:
                section_id, r = r.section()
                if section_id != IR:
                    raise r.error("expected an IR section for an isolated region")
            self.scopes.append(_Scope())
        for region in regions:
            self._region(r, region)
        if isolated:
            scope = self.scopes.pop()
            self._check_forward(scope)
            if self.version >= LAZY_LOADING and not r.at_end():
                raise r.error("trailing data after an isolated region")

    def _region(self, r: Reader, region: Region) -> None:
        n_blocks = r.varint()
        if n_blocks == 0:
            return
        n_values = r.varint()
        if n_blocks > r.remaining() or n_values > 2 * r.remaining() + 16:
            raise r.error(f"a region of {n_blocks} blocks and {n_values} values in {r.remaining()} bytes")
        scope = self.scopes[-1]
        start = len(scope.values)
        scope.values.extend([None] * n_values)
        scope.next_ids.append(start)
        scope.ends.append(start + n_values)
        blocks = [Block() for _ in range(n_blocks)]
        for b in blocks:
            region.add_block(b)
        for block in blocks:
            n_ops = self._block_header(r, block)
            for _ in range(n_ops):
                block.add_op(self._op(r, blocks, defines=True))
        scope.next_ids.pop()
        scope.ends.pop()
        for i in range(start, start + n_values):  # values die with their region
            if i in scope.forward:
                raise BytecodeError(f"value {i} is used but never defined")
        del scope.values[start:]


def _as_dict(value: Any, r: Reader, name: str) -> dict[str, Any]:
    if isinstance(value, DictionaryAttr):
        return dict(value.data)
    if isinstance(value, dict):
        return value
    raise r.error(f"the attributes of '{name}' are not a dictionary: {value!r}")


# --------------------------------------------------------------------------------------
# The builtin dialect (BuiltinDialectBytecode.td)
# --------------------------------------------------------------------------------------


def dense_from_raw(t: Attribute, raw: bytes, bool_byte: bool = False) -> DenseIntOrFPElementsAttr:
    """A dense elements attribute from MLIR's raw buffer: one value (a splat) or every
    element, each in its storage width (i1 in a byte)."""
    if not isinstance(t, TensorType | VectorType):
        raise BytecodeError(f"dense elements of type {t} are not read")
    et = t.element_type
    try:
        size = et.compile_time_size
    except Exception:  # noqa: BLE001 - a type with no storage size
        raise BytecodeError(f"dense elements of element type {et} are not read") from None
    count = 1
    for d in t.get_shape():
        if d < 0:
            raise BytecodeError(f"dense elements of dynamic type {t}")
        count *= d
    if isinstance(et, IntegerType) and et.width.data == 1 or bool_byte:
        raw = bytes(1 if b else 0 for b in raw)
    if len(raw) == count * size:
        return DenseIntOrFPElementsAttr(t, BytesAttr(raw))
    if len(raw) == size:  # a splat
        if count < SPLAT_KEPT_FROM:
            raw = raw * count
        return DenseIntOrFPElementsAttr(t, BytesAttr(raw))
    raise BytecodeError(f"dense elements of {t}: {len(raw)} bytes for {count} elements of {size} bytes")


def unpack_i1(blob: bytes, count: int) -> bytes:
    """Booleans are stored packed, 8 a byte, unless one byte (a splat) or unpacked."""
    packed = (count + 7) // 8
    if len(blob) == packed and len(blob) != count and len(blob) != 1:
        return bytes((blob[i // 8] >> (i % 8)) & 1 for i in range(count))
    return blob


def shape_of(dims: list[int]) -> list[int]:
    return dims  # a dynamic dimension is MLIR_DYNAMIC in both


def integer_value(bits: int, t: Attribute) -> int:
    if isinstance(t, IntegerType):
        width = t.width.data
        if t.signedness.data == Signedness.UNSIGNED or width == 1:
            return bits
        return signed(bits, width)
    return signed(bits, 64)  # index


class BuiltinCodec(DialectCodec):
    name = "builtin"

    def read_attribute(self, r: EntryReader) -> Any:
        code = r.varint()
        read = _BUILTIN_ATTRS.get(code)
        if read is None:
            raise r.error(f"unknown builtin attribute code {code}")
        return read(r)

    def read_type(self, r: EntryReader) -> Any:
        code = r.varint()
        read = _BUILTIN_TYPES.get(code)
        if read is None:
            raise r.error(f"unknown builtin type code {code}")
        return read(r)

    def read_properties(self, op: str, r: EntryReader) -> dict[str, Any]:
        if op == "builtin.module":  # sym_name, sym_visibility: optional, by name
            out = {}
            for key in ("sym_name", "sym_visibility"):
                value = r.optional_attribute()
                if value is not None:
                    out[key] = value
            return out
        if op == "builtin.unrealized_conversion_cast":
            return {}
        raise r.error(f"the properties of '{op}' are not read")

    def build_op(self, parts: OpParts, reader: BytecodeReader) -> Operation:
        if parts.name == "builtin.module":
            if len(parts.regions) != 1:
                raise BytecodeError("builtin.module has one region")
            props = dict(parts.properties or {})
            attrs = {k: v for k, v in parts.attributes.items() if k not in ("sym_name", "sym_visibility")}
            for k in ("sym_name", "sym_visibility"):
                if k in parts.attributes:
                    props[k] = parts.attributes[k]
            module = ModuleOp.create(
                regions=parts.regions,
                properties=_xdsl_dict(props, "builtin.module"),
                attributes=_xdsl_dict(attrs, "builtin.module"),
            )
            module.location = _location(parts.location)
            return module
        if parts.name == "builtin.unrealized_conversion_cast":
            op = UnrealizedConversionCastOp.create(
                operands=parts.operands,
                result_types=parts.result_types,
                attributes=_xdsl_dict(parts.attributes, parts.name),
            )
            op.location = _location(parts.location)
            return op
        raise BytecodeError(f"op '{parts.name}' is not read")

    def finish(self, module: ModuleOp, reader: BytecodeReader) -> None:
        """A cast between two equal types (VHLO's tensors read as builtin tensors, around
        an op of another dialect) is its operand."""
        for op in list(module.walk()):
            if (
                isinstance(op, UnrealizedConversionCastOp)
                and len(op.operands) == len(op.results)
                and all(a.type == b.type for a, b in zip(op.operands, op.results, strict=True))
            ):
                for old, new in zip(op.results, op.operands, strict=True):
                    old.replace_all_uses_with(new)
                op.detach()
                op.erase()


def _xdsl_dict(values: dict[str, Any], where: str) -> dict[str, Attribute]:
    for k, v in values.items():
        if not isinstance(v, Attribute):
            raise BytecodeError(f"'{where}': attribute '{k}' is not a builtin attribute: {v!r}")
    return values


def _location(loc: Any) -> Attribute:
    return loc if isinstance(loc, Attribute) else UnknownLoc()


def _int_type(r: EntryReader) -> IntegerType:
    v = r.varint()
    width, signedness = v >> 2, v & 3
    if signedness > 2 or width > (1 << 24):
        raise r.error(f"integer type of width {width} and signedness {signedness}")
    return IntegerType(width, Signedness(signedness))


def _ranked_tensor(r: EntryReader, with_encoding: bool) -> TensorType:
    encoding = r.attribute() if with_encoding else None
    shape = shape_of(r.svarints())
    et = r.type()
    if encoding is not None and not isinstance(encoding, Attribute):
        raise r.error(f"a tensor encoding that is not an attribute: {encoding!r}")
    return TensorType(et, shape, encoding if encoding is not None else NoneAttr())


def _dict_attr(r: EntryReader) -> Any:
    items = {}
    for _ in range(r.varint()):
        key = r.attribute()
        value = r.attribute()
        if not isinstance(key, StringAttr):
            raise r.error(f"a dictionary key that is not a string: {key!r}")
        items[key.data] = value
    if all(isinstance(v, Attribute) for v in items.values()):
        return DictionaryAttr(items)
    return items  # it holds another dialect's values (VHLO's): the op's codec reads them


def _array_attr(r: EntryReader) -> Any:
    items = r.attributes()
    if all(isinstance(v, Attribute) for v in items):
        return ArrayAttr(items)
    return items


def _integer_attr(r: EntryReader) -> Attribute:
    t = r.type()
    if isinstance(t, IntegerType):
        width = t.width.data
    elif isinstance(t, IndexType):
        width = 64
    else:
        raise r.error(f"an integer attribute of type {t}")
    return IntegerAttr(integer_value(apint(r, width), t), t)


def _float_attr(r: EntryReader) -> Attribute:
    t = r.type()
    return FloatAttr(float_from_bits(apint(r, float_width(t)), t), t)


def _file_line_col(r: EntryReader) -> Attribute:
    name = r.attribute()
    line = r.varint()
    col = r.varint()
    return FileLineColLoc(_str(name, r), IntAttr(line), IntAttr(col))


def _file_line_col_range(r: EntryReader) -> Attribute:
    """A file range keeps its start, as our locations are positions."""
    name = r.attribute()
    nums = r.list_of(r.varint)
    if len(nums) > 4:
        raise r.error("a file range of more than 4 numbers")
    line = nums[0] if nums else 0
    col = nums[1] if len(nums) > 1 else 0
    return FileLineColLoc(_str(name, r), IntAttr(line), IntAttr(col))


def _str(value: Any, r: Reader) -> StringAttr:
    if not isinstance(value, StringAttr):
        raise r.error(f"expected a string, got {value!r}")
    return value


def _loc(value: Any, r: Reader) -> Attribute:
    if not isinstance(value, FileLineColLoc | NameLoc | CallSiteLoc | FusedLoc | UnknownLoc):
        raise r.error(f"expected a location, got {value!r}")
    return value


def _fused(r: EntryReader, with_metadata: bool) -> Attribute:
    locs = [_loc(v, r) for v in r.attributes()]
    metadata = r.attribute() if with_metadata else NoneAttr()
    if not isinstance(metadata, Attribute):
        metadata = NoneAttr()  # another dialect's metadata: not kept
    return FusedLoc(ArrayAttr(locs), metadata)


def _name_loc(r: EntryReader) -> Attribute:
    name = _str(r.attribute(), r)
    child = _loc(r.attribute(), r)
    return NameLoc(name, child)


def _dense_array(r: EntryReader) -> Attribute:
    et = r.type()
    count = r.varint()
    raw = r.blob()
    if isinstance(et, IntegerType) and et.width.data == 1:
        raw = bytes(1 if b else 0 for b in raw)
    try:
        size = et.compile_time_size
    except Exception:  # noqa: BLE001
        raise r.error(f"a dense array of {et}") from None
    if len(raw) != count * size:
        raise r.error(f"a dense array of {count} {et}: {len(raw)} bytes")
    return DenseArrayBase(et, BytesAttr(raw))


def _dense_elements(r: EntryReader) -> Attribute:
    t = r.type()
    blob = r.blob()
    if isinstance(t, TensorType | VectorType):
        et = t.element_type
        if isinstance(et, IntegerType) and et.width.data == 1:
            count = 1
            for d in t.get_shape():
                count *= max(d, 0)
            blob = unpack_i1(blob, count)
    try:
        return dense_from_raw(t, blob)
    except BytecodeError as e:
        raise r.error(str(e)) from None


def _dense_resource(r: EntryReader) -> Attribute:
    t = r.type()
    dialect, key = r.resource()
    blob = r.owner.resource_blobs.get((dialect, key))
    if blob is None:
        return DenseResourceAttr.from_params(key, t)
    # the blob starts with its alignment as 4 bytes (MLIR's dense resources)
    data = blob[4:] if len(blob) >= 4 else blob
    try:
        return dense_from_raw(t, data)
    except BytecodeError:
        return DenseResourceAttr.from_params(key, t)


def _symbol_ref(r: EntryReader, nested: bool) -> Attribute:
    root = _str(r.attribute(), r)
    leafs = []
    for v in r.attributes() if nested else ():
        if not isinstance(v, SymbolRefAttr):
            raise r.error(f"a nested symbol reference that is not a symbol: {v!r}")
        leafs.append(v.root_reference)
    return SymbolRefAttr(root, ArrayAttr(leafs))


def _type_attr(r: EntryReader) -> Attribute:
    return r.type()  # a type is an attribute in xDSL (MLIR's TypeAttr)


def _string_attr_with_type(r: EntryReader) -> Attribute:
    value = r.string()
    r.type()  # a typed string: our StringAttr has no type
    return StringAttr(value)


def _memref(r: EntryReader, with_space: bool) -> Attribute:
    space = r.attribute() if with_space else NoneAttr()
    shape = shape_of(r.svarints())
    et = r.type()
    layout = r.attribute()
    return MemRefType(et, shape, layout if isinstance(layout, Attribute) else NoneAttr(), space)


def _vector(r: EntryReader, scalable: bool) -> Attribute:
    if scalable:
        flags = r.list_of(r.byte)
        shape = r.svarints()
        et = r.type()
        return VectorType(et, shape, ArrayAttr([IntegerAttr.from_bool(bool(f)) for f in flags]))  # type: ignore[arg-type]
    shape = r.svarints()
    return VectorType(r.type(), shape)


def _unranked_memref_in(space: Any, et: Any) -> Attribute:
    return UnrankedMemRefType(et, space if isinstance(space, Attribute) else NoneAttr())


def _function_type(r: EntryReader) -> Attribute:
    return FunctionType.from_lists(r.types(), r.types())


def _sparse(r: EntryReader) -> Attribute:
    raise r.error("sparse elements attributes are not read")


_BUILTIN_ATTRS: dict[int, Callable[[EntryReader], Any]] = {
    0: _array_attr,
    1: _dict_attr,
    2: lambda r: StringAttr(r.string()),
    3: _string_attr_with_type,
    4: lambda r: _symbol_ref(r, False),
    5: lambda r: _symbol_ref(r, True),
    6: _type_attr,
    7: lambda r: UnitAttr(),
    8: _integer_attr,
    9: _float_attr,
    10: lambda r: CallSiteLoc(_loc(r.attribute(), r), _loc(r.attribute(), r)),
    11: _file_line_col,
    12: lambda r: _fused(r, False),
    13: lambda r: _fused(r, True),
    14: _name_loc,
    15: lambda r: UnknownLoc(),
    16: _dense_resource,
    17: _dense_array,
    18: _dense_elements,
    19: lambda r: _sparse(r),  # dense string elements: no such values in our programs
    20: _sparse,
    21: lambda r: r.attribute(),  # a distinct attribute: its referenced attribute
    22: _file_line_col_range,
}

_BUILTIN_TYPES: dict[int, Callable[[EntryReader], Any]] = {
    0: _int_type,
    1: lambda r: IndexType(),
    2: _function_type,
    3: lambda r: BFloat16Type(),
    4: lambda r: Float16Type(),
    5: lambda r: Float32Type(),
    6: lambda r: Float64Type(),
    7: lambda r: Float80Type(),
    8: lambda r: Float128Type(),
    9: lambda r: ComplexType(r.type()),
    10: lambda r: _memref(r, False),
    11: lambda r: _memref(r, True),
    12: lambda r: NoneType(),
    13: lambda r: _ranked_tensor(r, False),
    14: lambda r: _ranked_tensor(r, True),
    15: lambda r: TupleType(r.types()),
    16: lambda r: UnrankedMemRefType(r.type(), NoneAttr()),
    17: lambda r: _unranked_memref_in(r.attribute(), r.type()),
    18: lambda r: UnrankedTensorType(r.type()),
    19: lambda r: _vector(r, False),
    20: lambda r: _vector(r, True),
}


# --------------------------------------------------------------------------------------
# func (a StableHLO module written as bytecode by MLIR, not as a portable artifact)
# --------------------------------------------------------------------------------------


class FuncCodec(DialectCodec):
    """`func.func`, `func.return`, `func.call`: ODS properties, by name."""

    name = "func"
    PROPERTIES: ClassVar[dict[str, tuple[tuple[str, bool], ...]]] = {
        "func.func": (
            ("arg_attrs", False),
            ("function_type", True),
            ("res_attrs", False),
            ("sym_name", True),
            ("sym_visibility", False),
        ),
        "func.call": (("arg_attrs", False), ("callee", True), ("no_inline", False), ("res_attrs", False)),
        "func.return": (),
    }

    def read_properties(self, op: str, r: EntryReader) -> dict[str, Any]:
        spec = self.PROPERTIES.get(op)
        if spec is None:
            raise r.error(f"the properties of '{op}' are not read")
        return read_ods_properties(r, spec)

    def build_op(self, parts: OpParts, reader: BytecodeReader) -> Operation:
        from xdsl.dialects import func

        props = {**parts.attributes, **(parts.properties or {})}
        if parts.name == "func.func":
            keep = {
                k: props[k]
                for k in ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
                if k in props
            }
            op = func.FuncOp.create(properties=_xdsl_dict(keep, parts.name), regions=parts.regions)
        elif parts.name == "func.return":
            op = func.ReturnOp.create(operands=parts.operands)
        elif parts.name == "func.call":
            callee = props.get("callee")
            if not isinstance(callee, SymbolRefAttr):
                raise BytecodeError(f"func.call's callee is not a symbol: {callee!r}")
            op = func.CallOp.create(
                operands=parts.operands, result_types=parts.result_types, properties={"callee": callee}
            )
        else:
            raise BytecodeError(f"op '{parts.name}' is not read")
        op.location = _location(parts.location)
        return op


def read_ods_properties(r: EntryReader, spec: tuple[tuple[str, bool], ...]) -> dict[str, Any]:
    """An op's properties as ODS writes them: its attributes in the order of their
    names, a required one as an attribute reference, an optional one as a reference
    with a presence flag."""
    out = {}
    for key, required in spec:
        value = r.attribute() if required else r.optional_attribute()
        if value is not None:
            out[key] = value
    return out


__all__ = [
    "MAGIC",
    "BuiltinCodec",
    "BytecodeError",
    "BytecodeReader",
    "DialectCodec",
    "EntryReader",
    "FuncCodec",
    "OpParts",
    "dense_from_raw",
    "is_bytecode",
    "read_ods_properties",
]
