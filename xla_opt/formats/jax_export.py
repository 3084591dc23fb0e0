"""`jax.export.Exported.serialize()`: JAX's flatbuffer around a StableHLO portable
artifact, read without JAX or the flatbuffers package.

The schema is JAX's `jax/_src/export/serialization.fbs` (its generated reader,
`serialization_generated.py`, gives each field's slot). What is read:

* the module (`mlir_module_serialized`, MLIR bytecode of VHLO, `vhlo.py`);
* the function's name, its inputs' and results' abstract values (shape and dtype,
  from `unique_avals` by index, or the older `in_avals`/`out_avals`), their named
  shardings (mesh axes, partition specs: informative, as the module carries its own
  `sdy` shardings), the device count, the platforms, the ordered and unordered
  effects, the disabled safety checks, the calling convention version, which inputs
  the module kept (`module_kept_var_idx`), whether it uses dimension variables.

What of the calling convention (JAX's "Module calling convention") is honoured:

* versions 9 and 10 are read (JAX 0.4.30 to 0.10 write these); another is refused;
* **platforms**: an export for several platforms has a first `_platform_index`
  argument; it is bound to the index of `cpu` (else of the first platform), so the
  entry takes the arrays only. An export for one platform, even not `cpu`, is read
  as it is (its custom calls may be ones the import does not know);
* **kept inputs**: inputs that the function does not use are not arguments of the
  module; the entry gets them back (unused), so it takes every input of `in_avals`,
  in order, as `Exported.call` does;
* **effects**: ordered effects thread `!stablehlo.token` arguments and results
  (`jax.token`); the StableHLO import makes the entry create its tokens, so the
  entry takes and returns arrays only;
* **shape polymorphism** (symbolic dimensions, dimension variables) is refused with a
  one-line error naming the input and its shape;
* the VJP of the function (`vjp_order > 0`) is not read.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from .bytecode import MAGIC, BytecodeError

# Slots of table Exported (serialization_generated.py, ExportedAdd*).
_SERIALIZATION_VERSION, _FUNCTION_NAME, _IN_TREE, _IN_AVALS, _OUT_TREE, _OUT_AVALS = 0, 1, 2, 3, 4, 5
_NR_DEVICES_SHORT, _IN_SHARDINGS, _OUT_SHARDINGS, _PLATFORMS, _ORDERED_EFFECTS = 6, 7, 8, 9, 10
_UNORDERED_EFFECTS, _DISABLED_CHECKS, _MODULE, _CALLING_CONVENTION, _KEPT_VAR_IDX = 11, 12, 13, 14, 15
_USES_GLOBAL_CONSTANTS, _VJP, _NR_DEVICES, _UNIQUE_AVALS, _UNIQUE_MESHES = 16, 17, 18, 19, 20
_UNIQUE_SHARDINGS, _IN_AVALS_IDXS, _OUT_AVALS_IDXS, _IN_SHARDINGS_IDXS, _OUT_SHARDINGS_IDXS = 21, 22, 23, 24, 25

# enum DType (serialization.fbs), as numpy's names (bfloat16 and the small floats:
# ml_dtypes').
DTYPES = {
    0: "bool",
    1: "int8",
    2: "int16",
    3: "int32",
    4: "int64",
    5: "uint8",
    6: "uint16",
    7: "uint32",
    8: "uint64",
    9: "float16",
    10: "float32",
    11: "float64",
    12: "complex64",
    13: "complex128",
    14: "bfloat16",
    15: "int4",
    16: "uint4",
    17: "float8_e4m3b11fnuz",
    18: "float8_e4m3fn",
    19: "float8_e4m3fnuz",
    20: "float8_e5m2",
    21: "float8_e5m2fnuz",
    22: "float0",
    23: "float8_e4m3",
    24: "float8_e3m4",
    25: "float8_e8m0fnu",
    26: "float4_e2m1fn",
    27: "key<fry>",
    28: "key<rbg>",
    29: "key<unsafe_rbg>",
}

SUPPORTED_CALLING_CONVENTIONS = (9, 10)


class ExportError(BytecodeError):
    """A serialized Exported that is malformed or asks for what is not supported."""


# --------------------------------------------------------------------------------------
# A flatbuffer table reader, every offset checked
# --------------------------------------------------------------------------------------


class _Table:
    __slots__ = ("buf", "pos", "vt_size", "vtable")

    def __init__(self, buf: bytes, pos: int):
        self.buf = buf
        self.pos = pos
        soffset = _i32(buf, pos)
        self.vtable = pos - soffset
        self.vt_size = _u16(buf, self.vtable)
        if self.vt_size < 4 or self.vt_size % 2:
            raise ExportError(f"a flatbuffer table at {pos} has a bad vtable")
        _check(buf, self.vtable, self.vt_size)

    def _field(self, slot: int) -> int | None:
        at = 4 + 2 * slot
        if at + 2 > self.vt_size:
            return None
        off = _u16(self.buf, self.vtable + at)
        return self.pos + off if off else None

    def scalar(self, slot: int, fmt: str, default: int = 0) -> int:
        p = self._field(slot)
        if p is None:
            return default
        size = struct.calcsize(fmt)
        _check(self.buf, p, size)
        return struct.unpack_from(fmt, self.buf, p)[0]

    def _indirect(self, slot: int) -> int | None:
        p = self._field(slot)
        if p is None:
            return None
        return p + _u32(self.buf, p)

    def table(self, slot: int) -> _Table | None:
        p = self._indirect(slot)
        return None if p is None else _Table(self.buf, p)

    def _vector(self, slot: int, elem: int) -> tuple[int, int] | None:
        p = self._indirect(slot)
        if p is None:
            return None
        n = _u32(self.buf, p)
        _check(self.buf, p + 4, n * elem)
        return p + 4, n

    def bytes(self, slot: int) -> bytes | None:
        v = self._vector(slot, 1)
        return None if v is None else self.buf[v[0] : v[0] + v[1]]

    def scalars(self, slot: int, fmt: str) -> list[int]:
        size = struct.calcsize(fmt)
        v = self._vector(slot, size)
        if v is None:
            return []
        return [struct.unpack_from(fmt, self.buf, v[0] + i * size)[0] for i in range(v[1])]

    def string(self, slot: int) -> str | None:
        p = self._indirect(slot)
        return None if p is None else _string_at(self.buf, p)

    def tables(self, slot: int) -> list[_Table]:
        v = self._vector(slot, 4)
        if v is None:
            return []
        out = []
        for i in range(v[1]):
            p = v[0] + 4 * i
            out.append(_Table(self.buf, p + _u32(self.buf, p)))
        return out

    def strings(self, slot: int) -> list[str]:
        v = self._vector(slot, 4)
        if v is None:
            return []
        return [_string_at(self.buf, v[0] + 4 * i + _u32(self.buf, v[0] + 4 * i)) for i in range(v[1])]


def _check(buf: bytes, pos: int, size: int) -> None:
    if pos < 0 or size < 0 or pos + size > len(buf):
        raise ExportError(f"a flatbuffer offset points outside the data ({pos}+{size} > {len(buf)})")


def _u16(buf: bytes, pos: int) -> int:
    _check(buf, pos, 2)
    return struct.unpack_from("<H", buf, pos)[0]


def _u32(buf: bytes, pos: int) -> int:
    _check(buf, pos, 4)
    return struct.unpack_from("<I", buf, pos)[0]


def _i32(buf: bytes, pos: int) -> int:
    _check(buf, pos, 4)
    return struct.unpack_from("<i", buf, pos)[0]


def _string_at(buf: bytes, pos: int) -> str:
    n = _u32(buf, pos)
    _check(buf, pos + 4, n)
    return buf[pos + 4 : pos + 4 + n].decode("utf-8", "replace")


# --------------------------------------------------------------------------------------
# What an Exported says
# --------------------------------------------------------------------------------------


@dataclass
class Aval:
    """An input's or result's abstract value: its shape (an int per dimension, or the
    text of a symbolic one) and its dtype's name."""

    shape: tuple[int | str, ...]
    dtype: str
    token: bool = False

    def __str__(self) -> str:
        if self.token:
            return "token"
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"

    @property
    def symbolic(self) -> bool:
        return any(isinstance(d, str) for d in self.shape)


@dataclass
class NamedSharding:
    """A `jax.sharding.NamedSharding`: its mesh axes and partition spec (one entry per
    dimension: the mesh axes it is split over)."""

    mesh: tuple[tuple[str, int], ...]
    spec: tuple[tuple[str, ...], ...]
    memory_kind: str | None = None

    def __str__(self) -> str:
        dims = ", ".join("None" if not d else repr(d[0]) if len(d) == 1 else repr(d) for d in self.spec)
        axes = ", ".join(f"{n}={s}" for n, s in self.mesh)
        return f"P({dims}) on mesh({axes})"


@dataclass
class ExportedInfo:
    function_name: str
    module: bytes
    in_avals: list[Aval]
    out_avals: list[Aval]
    in_shardings: list[NamedSharding | None] = field(default_factory=list)
    out_shardings: list[NamedSharding | None] = field(default_factory=list)
    nr_devices: int = 1
    platforms: list[str] = field(default_factory=list)
    ordered_effects: list[str] = field(default_factory=list)
    unordered_effects: list[str] = field(default_factory=list)
    disabled_checks: int = 0
    calling_convention_version: int = 0
    module_kept_var_idx: list[int] = field(default_factory=list)
    uses_global_constants: bool = False
    serialization_version: int = 0
    has_vjp: bool = False


def looks_like_exported(data: bytes) -> bool:
    """Whether `data` is a serialized Exported: a flatbuffer whose root table has the
    module field holding MLIR bytecode (JAX writes no file identifier)."""
    if len(data) < 16 or data[:4] == MAGIC:
        return False
    try:
        root = _Table(data, _u32(data, 0))
        module = root.bytes(_MODULE)
    except (ExportError, struct.error):
        return False
    return module is not None and module[:4] == MAGIC


def _aval(t: _Table) -> Aval:
    kind = t.scalar(0, "<b")
    if kind == 1:
        return Aval((), "token", token=True)
    dims: list[int | str] = []
    for d in t.strings(1):
        try:
            dims.append(int(d))
        except ValueError:
            dims.append(d)
    code = t.scalar(2, "<b")
    if code not in DTYPES:
        raise ExportError(f"unknown dtype code {code}")
    return Aval(tuple(dims), DTYPES[code])


def _mesh(t: _Table | None) -> tuple[tuple[str, int], ...]:
    if t is None:
        return ()
    sizes = t.scalars(0, "<I")
    names = t.strings(1)
    return tuple(zip(names, sizes, strict=False))


def _named_sharding(t: _Table, meshes: list[tuple[tuple[str, int], ...]]) -> NamedSharding:
    if meshes:
        idx = t.scalar(3, "<I")
        mesh = meshes[idx] if idx < len(meshes) else _mesh(t.table(0))
    else:
        mesh = _mesh(t.table(0))
    spec_table = t.table(1)
    spec = tuple(tuple(axis.strings(0)) for axis in spec_table.tables(0)) if spec_table is not None else ()
    return NamedSharding(mesh, spec, t.string(2))


def read_exported(data: bytes) -> ExportedInfo:
    """The fields of a serialized Exported; an ExportError if it is malformed."""
    data = bytes(data)
    if len(data) < 8:
        raise ExportError("too short for a serialized jax.export.Exported")
    try:
        root = _Table(data, _u32(data, 0))
        module = root.bytes(_MODULE)
        if module is None or module[:4] != MAGIC:
            raise ExportError("a serialized Exported without a StableHLO module (mlir_module_serialized)")
        unique = [_aval(t) for t in root.tables(_UNIQUE_AVALS)]

        def avals(idx_slot: int, old_slot: int) -> list[Aval]:
            idxs = root.scalars(idx_slot, "<I")
            if idxs:
                if any(i >= len(unique) for i in idxs):
                    raise ExportError("an aval index points outside unique_avals")
                return [unique[i] for i in idxs]
            return [_aval(t) for t in root.tables(old_slot)]

        meshes = [_mesh(t) for t in root.tables(_UNIQUE_MESHES)]
        named = [_named_sharding(t, meshes) for t in root.tables(_UNIQUE_SHARDINGS)]

        def shardings(idx_slot: int, old_slot: int) -> list[NamedSharding | None]:
            idxs = root.scalars(idx_slot, "<I")
            if idxs:
                if any(i > len(named) for i in idxs):
                    raise ExportError("a sharding index points outside unique_named_shardings")
                return [None if i == 0 else named[i - 1] for i in idxs]
            out: list[NamedSharding | None] = []
            for s in root.tables(old_slot):
                ns = s.table(2)
                out.append(None if ns is None else _named_sharding(ns, meshes))
            return out

        info = ExportedInfo(
            function_name=root.string(_FUNCTION_NAME) or "",
            module=module,
            in_avals=avals(_IN_AVALS_IDXS, _IN_AVALS),
            out_avals=avals(_OUT_AVALS_IDXS, _OUT_AVALS),
            in_shardings=shardings(_IN_SHARDINGS_IDXS, _IN_SHARDINGS),
            out_shardings=shardings(_OUT_SHARDINGS_IDXS, _OUT_SHARDINGS),
            nr_devices=root.scalar(_NR_DEVICES, "<I") or root.scalar(_NR_DEVICES_SHORT, "<h") or 1,
            platforms=root.strings(_PLATFORMS),
            ordered_effects=[e.string(0) or "" for e in root.tables(_ORDERED_EFFECTS)],
            unordered_effects=[e.string(0) or "" for e in root.tables(_UNORDERED_EFFECTS)],
            disabled_checks=len(root.tables(_DISABLED_CHECKS)),
            calling_convention_version=root.scalar(_CALLING_CONVENTION, "<H"),
            module_kept_var_idx=root.scalars(_KEPT_VAR_IDX, "<H"),
            uses_global_constants=bool(root.scalar(_USES_GLOBAL_CONSTANTS, "<B")),
            serialization_version=root.scalar(_SERIALIZATION_VERSION, "<H"),
            has_vjp=root._field(_VJP) is not None,  # noqa: SLF001
        )
    except (struct.error, RecursionError) as e:
        raise ExportError(f"a malformed flatbuffer ({e})") from None
    return info


def check_supported(info: ExportedInfo) -> None:
    """Refuse, in one line, what of the calling convention is not honoured."""
    if info.calling_convention_version not in SUPPORTED_CALLING_CONVENTIONS:
        raise ExportError(
            f"calling convention version {info.calling_convention_version} is not read "
            f"(read: {', '.join(map(str, SUPPORTED_CALLING_CONVENTIONS))})"
        )
    for what, avals in (("input", info.in_avals), ("result", info.out_avals)):
        for i, a in enumerate(avals):
            if a.symbolic:
                raise ExportError(
                    f"a shape-polymorphic export ({what} #{i} has shape ({', '.join(map(str, a.shape))})): "
                    "symbolic dimensions are not supported; export with concrete shapes"
                )
            if a.dtype.startswith("key<") or a.dtype == "float0":
                raise ExportError(f"{what} #{i} has dtype {a.dtype}, which is not supported")
    # `uses_global_constants` is also set by the platform index of a multi-platform
    # export: dimension variables show in the shapes, checked above.
    kept = info.module_kept_var_idx
    if sorted(set(kept)) != list(kept) or any(i >= len(info.in_avals) for i in kept):
        raise ExportError(f"module_kept_var_idx {kept} does not fit {len(info.in_avals)} inputs")


__all__ = [
    "Aval",
    "ExportError",
    "ExportedInfo",
    "NamedSharding",
    "check_supported",
    "looks_like_exported",
    "read_exported",
]
