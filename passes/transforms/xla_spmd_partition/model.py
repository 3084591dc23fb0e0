"""The partitioner's view of a device mesh and of a tensor's sharding, as plain values.

A mesh is named axes of given sizes laid over the devices: the device at mesh position p
(row-major over the axes, the first axis major) is `device_ids[p]`. A sharding says, for
each dimension of a tensor, which mesh axes split it, major to minor: the dimension is
cut into as many shards as the product of their sizes, and the shard a device holds is
its coordinates along those axes read as one mixed-radix number. Axes a sharding does
not name replicate the tensor. (Shardy's model; sub-axes are not represented: the
partitioner replicates such dimensions instead, which is always correct.)

A dimension of size D split n ways that n does not divide is *uneven*: every shard has
ceil(D / n) entries, shard k those from k * ceil(D / n), and where that runs past D the
shard ends in padding (10 rows over 4 devices: 3, 3, 3 and 1 row, the last shard with 2
rows of padding). What the padding holds is unspecified; the partitioner masks it where
it would reach a result (reductions and contractions over the dimension) and cuts it off
where the dimension is gathered whole.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

DimAxes = tuple[str, ...]  # the axes splitting one dimension, major to minor


@dataclass(frozen=True)
class Mesh:
    """Axes (name, size) in order, and the device at each position (iota by default)."""

    axes: tuple[tuple[str, int], ...]
    device_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.device_ids:
            object.__setattr__(self, "device_ids", tuple(range(self.size)))

    @property
    def size(self) -> int:
        return math.prod(size for _, size in self.axes)

    @cached_property
    def axis_size(self) -> dict[str, int]:
        return dict(self.axes)

    @cached_property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.axes)

    def coordinates(self, device: int) -> dict[str, int]:
        """The mesh coordinates of `device`, by axis."""
        position = self.device_ids.index(device)
        coords: dict[str, int] = {}
        for name, size in reversed(self.axes):
            position, coords[name] = divmod(position, size)
        return coords

    def shard_index(self, device: int, axes: Iterable[str]) -> int:
        """Which shard of a dimension split by `axes` (major to minor) `device` holds."""
        coords = self.coordinates(device)
        index = 0
        for name in axes:
            index = index * self.axis_size[name] + coords[name]
        return index

    def shards(self, axes: Iterable[str]) -> int:
        return math.prod(self.axis_size[name] for name in axes)

    def groups(self, axes: Sequence[str]) -> list[list[int]]:
        """The devices that differ only along `axes`, each group in shard order (the
        order of `shard_index` over `axes`): the replica groups of a collective over
        those axes. One group per combination of the other axes' coordinates."""
        others = [name for name in self.axis_names if name not in axes]
        found: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for device in self.device_ids:
            coords = self.coordinates(device)
            key = tuple(coords[name] for name in others)
            found.setdefault(key, []).append((self.shard_index(device, axes), device))
        return [[device for _, device in sorted(members)] for _, members in sorted(found.items())]


@dataclass(frozen=True)
class Sharding:
    """The axes splitting each dimension of a tensor (empty: that dimension whole)."""

    dims: tuple[DimAxes, ...]

    @staticmethod
    def replicated(rank: int) -> Sharding:
        return Sharding(((),) * rank)

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def is_replicated(self) -> bool:
        return not any(self.dims)

    def used_axes(self) -> set[str]:
        return {name for axes in self.dims for name in axes}

    def local_shape(self, shape: Sequence[int], mesh: Mesh) -> list[int]:
        """Each dimension divided by its shard count, rounded up (an uneven dimension's
        shards are padded to one size)."""
        return [-(-size // mesh.shards(axes)) for size, axes in zip(shape, self.dims, strict=True)]

    def uneven(self, shape: Sequence[int], mesh: Mesh) -> dict[int, int]:
        """The dimensions its shard count does not divide, with their global sizes."""
        return {d: size for d, (size, axes) in enumerate(zip(shape, self.dims, strict=True)) if size % mesh.shards(axes)}

    def offsets(self, device: int, shape: Sequence[int], mesh: Mesh) -> list[int]:
        """Where `device`'s shard starts in the global tensor, per dimension."""
        local = self.local_shape(shape, mesh)
        return [mesh.shard_index(device, axes) * size for axes, size in zip(self.dims, local, strict=True)]

    def fits(self, shape: Sequence[int], mesh: Mesh) -> bool:
        """Whether every sharded dimension divides evenly and no axis is used twice."""
        names = [name for axes in self.dims for name in axes]
        if len(names) != len(set(names)) or any(name not in mesh.axis_size for name in names):
            return False
        return all(size % mesh.shards(axes) == 0 for size, axes in zip(shape, self.dims, strict=True))

    def __str__(self) -> str:
        return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" for axes in self.dims) + "]"


def fitting(sharding: Sharding, shape: Sequence[int], mesh: Mesh, uneven: bool = False) -> Sharding:
    """`sharding` with every repeated or unknown axis, and (unless `uneven`) every
    dimension that does not divide evenly, replicated instead (the partitioner's way with
    what it does not represent: always correct, only less spread). The boundary of the
    program is even (so each device's inputs and results are plain slices: JAX refuses
    uneven in_shardings and out_shardings too); values inside may be uneven."""
    seen: set[str] = set()
    dims: list[DimAxes] = []
    for size, axes in zip(shape, sharding.dims, strict=True):
        ok = all(name in mesh.axis_size and name not in seen for name in axes) and (uneven or size % mesh.shards(axes) == 0)
        dims.append(tuple(axes) if ok else ())
        if ok:
            seen.update(axes)
    return Sharding(tuple(dims))


def all_devices(mesh: Mesh) -> list[int]:
    return sorted(mesh.device_ids)


def flat(rows: Iterable[Iterable[int]]) -> list[int]:
    return list(itertools.chain.from_iterable(rows))
