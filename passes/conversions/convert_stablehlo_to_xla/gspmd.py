"""GSPMD's sharding strings (`mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"`,
what JAX writes with `jax_use_shardy_partitioner` off) read as plain values, and the
meshes that express them as Shardy shardings. Pure functions of strings and integers,
tested directly (tests/test_gspmd_shardings.py); `sharding.py` turns them into `sdy`
ops and attributes.

The strings (XLA's `HloSharding::ToString`):

    {replicated}  {manual}  {maximal device=3}  {unknown}  {unknown shard_as 1}
    {devices=[2,2]0,2,1,3}                     a tile per device, the devices listed
    {devices=[2,1,2]<=[4]}                     the devices iota(4) reshaped to the tiles
    {devices=[1,2,2]<=[2,2]T(1,0)}             iota reshaped to [2,2], transposed, reshaped
    ... last_tile_dim_replicate                the last tile dimension replicates
    ... last_tile_dims={manual, replicated}    the kinds of the trailing tile dimensions
    {{devices=[2]<=[2]}, {replicated}}         one per element of a tuple

with `metadata={...}` and `shard_as N` / `shard_like N` anywhere after the kind.

A tiled sharding's devices, `iota(N).reshape(R).transpose(P).reshape(T)` for T the
tile shape, split the device index (its digits in radix R) into factors; each tile
dimension takes some of them. A mesh whose axes are those factors expresses the
sharding with whole axes: tile dimension d is sharded on the axes of its factors,
major first. Shardings whose factorizations are compatible (their digit boundaries
nest) share one mesh, whose axes refine them all (`MeshPlan`). A device list that no
iota gives is a mesh of its own, with the tile dimensions as axes and the list as its
device order."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field


class MalformedSharding(ValueError):
    """A sharding string that does not parse, or describes no valid tiling."""


@dataclass(frozen=True)
class Gspmd:
    """One GSPMD sharding (not a tuple). `kind` is replicated, manual, maximal,
    unknown or tiled. A tiled sharding has its tile shape (the tensor's dimensions,
    then the trailing subgroup dimensions whose kinds `last_tile_dims` gives) and its
    devices, row-major over the tiles: as an iota (`reshape` dims and `transpose`
    permutation) or listed."""

    kind: str
    tile_shape: tuple[int, ...] = ()
    iota: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    device_list: tuple[int, ...] = ()
    last_tile_dims: tuple[str, ...] = ()
    device: int | None = None
    shard_group: tuple[str, int] | None = None

    def devices(self) -> list[int]:
        """The devices of the tiles, row-major over the tile shape."""
        if self.iota is None:
            return list(self.device_list)
        return iota_devices(*self.iota)

    def data_rank(self) -> int:
        """How many tile dimensions are the tensor's (the rest are subgroups)."""
        return len(self.tile_shape) - len(self.last_tile_dims)

    def __str__(self) -> str:
        """As XLA writes it (metadata left out)."""
        ints = lambda values: ",".join(map(str, values))  # noqa: E731
        if self.kind == "maximal":
            words = [f"maximal device={self.device}"]
        elif self.kind != "tiled":
            words = [self.kind]
        else:
            if self.iota is not None:
                dims, perm = self.iota
                transpose = f"T({ints(perm)})" if list(perm) != sorted(perm) else ""
                devices = f"<=[{ints(dims)}]{transpose}"
            else:
                devices = ints(self.device_list)
            words = [f"devices=[{ints(self.tile_shape)}]{devices}"]
            if self.last_tile_dims == ("replicated",):
                words.append("last_tile_dim_replicate")
            elif self.last_tile_dims:
                words.append("last_tile_dims={" + ", ".join(self.last_tile_dims) + "}")
        if self.shard_group is not None:
            words.append(f"{self.shard_group[0]} {self.shard_group[1]}")
        return "{" + " ".join(words) + "}"


def iota_devices(dims: Sequence[int], perm: Sequence[int]) -> list[int]:
    """iota(prod(dims)) reshaped to `dims`, transposed by `perm`, flattened."""
    n = math.prod(dims)
    strides = [math.prod(dims[i + 1 :]) for i in range(len(dims))]
    shape = [dims[p] for p in perm]
    out = []
    for index in range(n):
        digits = []
        for size in reversed(shape):
            digits.append(index % size)
            index //= size
        digits.reverse()
        out.append(sum(d * strides[p] for d, p in zip(digits, perm, strict=True)))
    return out


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, message: str) -> MalformedSharding:
        return MalformedSharding(f"sharding {self.text!r}: {message} at offset {self.pos}")

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\n":
            self.pos += 1

    def peek(self, s: str) -> bool:
        self.skip_spaces()
        return self.text.startswith(s, self.pos)

    def take(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str) -> None:
        if not self.take(s):
            found = self.text[self.pos : self.pos + 12] or "the end"
            raise self.fail(f"expected '{s}', found {found!r}")

    def word(self) -> str:
        self.skip_spaces()
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.text, self.pos)
        if m is None:
            raise self.fail("expected a keyword")
        self.pos = m.end()
        return m.group()

    def integer(self) -> int:
        self.skip_spaces()
        m = re.compile(r"-?\d+").match(self.text, self.pos)
        if m is None:
            raise self.fail("expected an integer")
        self.pos = m.end()
        return int(m.group())

    def integers(self, open_: str, close: str) -> list[int]:
        self.expect(open_)
        values: list[int] = []
        if self.take(close):
            return values
        while True:
            values.append(self.integer())
            if self.take(close):
                return values
            self.expect(",")

    def skip_balanced(self) -> None:
        """A `{...}` group (metadata), strings inside it included."""
        self.expect("{")
        depth = 1
        while depth:
            if self.pos >= len(self.text):
                raise self.fail("unbalanced '{'")
            c = self.text[self.pos]
            if c == '"':
                end = self.pos + 1
                while end < len(self.text) and self.text[end] != '"':
                    end += 2 if self.text[end] == "\\" else 1
                self.pos = end
            depth += {"{": 1, "}": -1}.get(c, 0)
            self.pos += 1


def _parse_one(r: _Reader) -> Gspmd:
    """`{kind ...}` (the braces included)."""
    r.expect("{")
    fields: dict = {}
    kind: str | None = None
    while not r.take("}"):
        if r.pos >= len(r.text):
            raise r.fail("missing '}'")
        word = r.word()
        if word in ("replicated", "manual", "unknown") and kind is None:
            kind = word
        elif word == "maximal" and kind is None:
            kind = "maximal"
            r.expect("device")
            r.expect("=")
            fields["device"] = r.integer()
        elif word == "devices" and kind is None:
            kind = "tiled"
            r.expect("=")
            fields["tile_shape"] = tuple(r.integers("[", "]"))
            if r.take("<="):
                dims = tuple(r.integers("[", "]"))
                perm = tuple(range(len(dims)))
                if r.take("T"):
                    perm = tuple(r.integers("(", ")"))
                fields["iota"] = (dims, perm)
            else:
                devices = [r.integer()]
                while re.match(r"\s*,\s*-?\d", r.text[r.pos :]):
                    r.expect(",")
                    devices.append(r.integer())
                fields["device_list"] = tuple(devices)
        elif word == "last_tile_dim_replicate":
            fields["last_tile_dims"] = ("replicated",)
        elif word == "last_tile_dims":
            r.expect("=")
            r.expect("{")
            kinds = [r.word()]
            while r.take(","):
                kinds.append(r.word())
            r.expect("}")
            fields["last_tile_dims"] = tuple(kinds)
        elif word in ("shard_as", "shard_like"):
            fields["shard_group"] = (word, r.integer())
        elif word == "metadata":
            r.expect("=")
            r.skip_balanced()
        else:
            raise r.fail(f"unexpected '{word}'")
    if kind is None:
        raise r.fail("no kind (replicated, manual, maximal, unknown or devices=...)")
    sharding = Gspmd(kind, **fields)
    _check(sharding, r)
    return sharding


def _check(s: Gspmd, r: _Reader) -> None:
    if s.kind == "maximal" and (s.device is None or s.device < 0):
        raise r.fail(f"maximal device {s.device} is not a device id")
    if s.kind != "tiled":
        if s.last_tile_dims:
            raise r.fail(f"last_tile_dims on a {s.kind} sharding")
        return
    if not s.tile_shape or any(t < 1 for t in s.tile_shape):
        raise r.fail(f"tile shape {list(s.tile_shape)} has a dimension below 1")
    if bad := [k for k in s.last_tile_dims if k not in ("replicated", "manual")]:
        raise r.fail(f"last tile dimension kind '{bad[0]}' (replicated or manual)")
    if len(s.last_tile_dims) > len(s.tile_shape):
        raise r.fail(f"{len(s.last_tile_dims)} last tile dims for a tile shape of rank {len(s.tile_shape)}")
    n = math.prod(s.tile_shape)
    if s.iota is not None:
        dims, perm = s.iota
        if sorted(perm) != list(range(len(dims))):
            raise r.fail(f"T{tuple(perm)} is not a permutation of the {len(dims)} reshape dimensions")
        if math.prod(dims) != n:
            raise r.fail(f"<={list(dims)} holds {math.prod(dims)} devices but the tiles are {n}")
    elif sorted(s.device_list) != list(range(n)):
        raise r.fail(f"the device list {list(s.device_list)} is not a permutation of the {n} tiles' devices 0..{n - 1}")


def parse_sharding(text: str) -> Gspmd | tuple[Gspmd, ...]:
    """A GSPMD sharding string: one sharding, or a tuple's (`{{...}, {...}}`)."""
    r = _Reader(text)
    r.skip_spaces()
    if re.match(r"\{\s*\{", text[r.pos :]):
        r.expect("{")
        items = [_parse_one(r)]
        while r.take(","):
            items.append(_parse_one(r))
        r.expect("}")
        result: Gspmd | tuple[Gspmd, ...] = tuple(items)
    elif re.match(r"\{\s*\}", text[r.pos :]):
        r.expect("{")
        r.expect("}")
        result = ()  # an empty tuple
    else:
        result = _parse_one(r)
    r.skip_spaces()
    if r.pos != len(text):
        raise r.fail("unexpected text after the sharding")
    return result


def parse_unspecified_dims(backend_config: str) -> list[int]:
    """The dimensions left to propagation (`unspecified_dims=[0,1]` in a `Sharding`
    custom call's backend_config): open dimensions in Shardy's terms."""
    m = re.search(r"unspecified_dims=\[([\d,\s]*)\]", backend_config)
    return [int(v) for v in m.group(1).split(",") if v.strip()] if m else []


# --------------------------------------------------------------------------------------
# Device factors and meshes
# --------------------------------------------------------------------------------------


def refine(a: Sequence[int], b: Sequence[int]) -> list[int] | None:
    """The common refinement of two factorizations of one number (major to minor):
    the factors between their digit boundaries, or None when the boundaries do not
    nest (a factor of one straddles two of the other)."""
    if math.prod(a) != math.prod(b):
        return None
    return _chain({*_boundaries(a), *_boundaries(b)})


def _boundaries(factors: Sequence[int]) -> set[int]:
    """The prefix products (major side) of a factorization: where its digits begin."""
    out, p = {1}, 1
    for f in factors:
        p *= f
        out.add(p)
    return out


def _chain(boundaries: set[int]) -> list[int] | None:
    points = sorted(boundaries)
    if any(b % a for a, b in zip(points, points[1:])):
        return None
    return [b // a for a, b in zip(points, points[1:])]


@dataclass(frozen=True)
class Factored:
    """A tiled sharding over an iota of devices as factors of the device index:
    `factors` (major to minor, as (lower, upper) boundaries on the prefix-product
    scale of the device index) and, per tile dimension, the indices of its factors,
    major first."""

    total: int
    factors: tuple[tuple[int, int], ...]
    tiles: tuple[tuple[int, ...], ...]


def factor(s: Gspmd) -> Factored | None:
    """The device factors of an iota tiled sharding, or None when its tiles split its
    transposed iota dimensions across each other's boundaries (or it lists its
    devices: only a list equal to iota(N) is an iota)."""
    if s.iota is None:
        if s.device_list != tuple(range(len(s.device_list))):
            return None
        dims, perm = (len(s.device_list),), (0,)
    else:
        dims, perm = s.iota
    transposed = [dims[p] for p in perm]
    pieces = refine(transposed, s.tile_shape)
    if pieces is None:
        return None
    # each piece (in transposed order) lies in one transposed dimension and one tile
    # dimension; in the device index it is a digit range of iota dimension perm[t]
    t_starts = [math.prod(transposed[:t]) for t in range(len(transposed))]
    q_starts = [math.prod(s.tile_shape[:q]) for q in range(len(s.tile_shape))]
    position = 1
    placed = []  # (iota dim, offset of the piece within it on its prefix scale, size, tile dim)
    for size in pieces:
        t = max(i for i, start in enumerate(t_starts) if start <= position and transposed[i] > 1)
        q = max(i for i, start in enumerate(q_starts) if start <= position and s.tile_shape[i] > 1)
        placed.append((perm[t], position // t_starts[t], size, q))
        position *= size
    # the device index's digits, major to minor: iota dimension by dimension
    order = sorted(range(len(placed)), key=lambda k: (placed[k][0], placed[k][1]))
    bounds: dict[int, tuple[int, int]] = {}
    low = 1
    for k in order:
        bounds[k] = (low, low * placed[k][2])
        low *= placed[k][2]
    rank_factor = {k: i for i, k in enumerate(order)}
    tiles = tuple(tuple(rank_factor[k] for k in range(len(placed)) if placed[k][3] == q) for q in range(len(s.tile_shape)))
    return Factored(math.prod(dims), tuple(bounds[k] for k in order), tiles)


@dataclass
class MeshPlan:
    """The meshes of a program's shardings: iota shardings grouped where their device
    factors nest (one mesh of the refined factors per group), listed ones each a mesh
    of their tile dimensions with their device order (shared when equal)."""

    groups: list[set[int]] = field(default_factory=list)  # boundary sets, one per iota mesh
    listed: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)  # (axis sizes, device ids)

    def add(self, s: Gspmd) -> None:
        """Make room for a tiled sharding (call for every one before `place`)."""
        f = factor(s)
        if f is None:
            key = _listed_key(s)
            if key not in self.listed:
                self.listed.append(key)
            return
        mine = {b for lo_hi in f.factors for b in lo_hi}
        for group in self.groups:
            if _chain(group | mine) is not None:
                group |= mine
                return
        self.groups.append(mine)

    def meshes(self) -> list[tuple[list[int], list[int] | None]]:
        """The meshes: (axis sizes, explicit device ids or None), iota groups first."""
        out: list[tuple[list[int], list[int] | None]] = [(_chain(g) or [], None) for g in self.groups]
        out += [(list(sizes), list(ids)) for sizes, ids in self.listed]
        return out

    def place(self, s: Gspmd) -> tuple[int, list[list[int]]]:
        """The mesh (its index in `meshes()`) of a tiled sharding, and the axes (their
        indices in that mesh) of each tile dimension, major first."""
        f = factor(s)
        if f is None:
            sizes, _ = key = _listed_key(s)
            axes, i = [], 0
            for t in s.tile_shape:
                axes.append([i] if t > 1 else [])
                i += t > 1
            return len(self.groups) + self.listed.index(key), axes
        mine = {b for lo_hi in f.factors for b in lo_hi}
        index = next(i for i, g in enumerate(self.groups) if mine <= g)
        points = sorted(self.groups[index])
        axes = []
        for tile in f.tiles:
            names: list[int] = []
            for k in tile:
                low, high = f.factors[k]
                names += [points.index(b) for b in points if low <= b < high]
            axes.append(names)
        return index, axes


def _listed_key(s: Gspmd) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sizes = tuple(t for t in s.tile_shape if t > 1)
    devices = tuple(s.devices())
    return sizes, () if devices == tuple(range(len(devices))) else devices


__all__ = [
    "Factored",
    "Gspmd",
    "MalformedSharding",
    "MeshPlan",
    "factor",
    "iota_devices",
    "parse_sharding",
    "parse_unspecified_dims",
    "refine",
]
