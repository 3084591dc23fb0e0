"""Shape rules of shardings (the `sdy` dialect, `dialects/sdy/`): which meshes and
tensor shardings are valid, and the shape and place of one device's shard.

A mesh is a list of named axes (`["x"=2, "y"=2]`) over its devices, `device_ids`
listing the devices in row-major order of the axes (iota when absent). A tensor
sharding names, for each dimension, the axes (or sub-axes) that split it, major to
minor; an axis not named is replicated. A sub-axis `"x":(m)k` is the middle factor of
axis "x" reshaped to `[m, k, size/(m*k)]`.

The functions are pure: they read the attributes' values through their accessors
(`MeshAttr.axis_names`, `TensorShardingAttr.dims`, `DimShardingAttr.get_axes`,
`AxisRefAttr.get_name` ...), never an op, and raise `ShapeError` with a message naming
the values. The verifiers of `dialects/sdy/` and the partitioner share them."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

from .common import Shape, ShapeError, fmt

# An axis reference as plain values: (axis name, (pre-size, size) of a sub-axis or None).
Ref = tuple[str, tuple[int, int] | None]


def ref_of(axis_ref: Any) -> Ref:
    """The plain value of an `AxisRefAttr`."""
    sub = axis_ref.get_sub_axis_info()
    return axis_ref.get_name(), None if sub is None else (sub.get_pre_size(), sub.get_size())


def ref_text(ref: Ref) -> str:
    """A reference as Shardy prints it: `"x"` or `"x":(1)2`."""
    name, sub = ref
    return f'"{name}"' if sub is None else f'"{name}":({sub[0]}){sub[1]}'


def _refs_text(refs: Sequence[Ref]) -> str:
    return "{" + ", ".join(ref_text(r) for r in refs) + "}"


def _axis_sizes(mesh: Any) -> dict[str, int]:
    return {name: mesh.axis_size(name) for name in mesh.axis_names()}


# --------------------------------------------------------------------------------------
# Meshes
# --------------------------------------------------------------------------------------


def check_mesh(axes: Sequence[tuple[str, int]], device_ids: Sequence[int] | None) -> None:
    """Shardy's rules of a mesh: every axis has a size of at least 1 and a name of its
    own; device ids are non-negative; with no axes, at most one device id (one: a
    maximal mesh, the device that runs the tensor); with axes, explicit device ids are
    a permutation of 0..N-1, N the product of the axis sizes."""
    ids = list(device_ids or [])
    if negative := [d for d in ids if d < 0]:
        raise ShapeError(f"device ids must be non-negative, got {fmt(negative)}")
    if not axes:
        if len(ids) > 1:
            raise ShapeError(f"a mesh without axes has at most one device id, got {fmt(ids)}")
        return
    seen: set[str] = set()
    for name, size in axes:
        if size < 1:
            raise ShapeError(f'axis "{name}" has size {size}; an axis size is at least 1')
        if name in seen:
            raise ShapeError(f'axis "{name}" appears twice in the mesh')
        seen.add(name)
    if not ids:
        return
    total = math.prod(size for _, size in axes)
    if len(ids) != total:
        raise ShapeError(f"the mesh's axes hold {total} devices but device_ids lists {len(ids)}")
    if sorted(ids) != list(range(total)):
        raise ShapeError(f"device_ids {fmt(ids)} is not a permutation of 0..{total - 1}")


def device_coordinates(mesh: Any, device: int) -> dict[str, int]:
    """The coordinate of `device` along each axis of `mesh` (its position in the
    mesh's device order, unravelled row-major over the axis sizes)."""
    ids = mesh.device_ids()
    if device not in ids:
        raise ShapeError(f"device {device} is not in the mesh's devices {fmt(ids)}")
    position = ids.index(device)
    coordinates: dict[str, int] = {}
    for name in reversed(mesh.axis_names()):
        size = mesh.axis_size(name)
        coordinates[name] = position % size
        position //= size
    return {name: coordinates[name] for name in mesh.axis_names()}


# --------------------------------------------------------------------------------------
# Axis references
# --------------------------------------------------------------------------------------


def ref_size(ref: Ref, axis_sizes: dict[str, int]) -> int:
    """The number of shards a reference splits into: its axis's size, or the
    sub-axis's size."""
    name, sub = ref
    if name not in axis_sizes:
        raise ShapeError(f'unknown axis "{name}"')
    return axis_sizes[name] if sub is None else sub[1]


def ref_coordinate(ref: Ref, axis_sizes: dict[str, int], coordinates: dict[str, int]) -> int:
    """A device's coordinate along a reference: along its axis, or along the sub-axis
    (the middle digit of the axis coordinate in radix [pre, size, rest])."""
    name, sub = ref
    if sub is None:
        return coordinates[name]
    pre, size = sub
    rest = axis_sizes[name] // (pre * size)
    return coordinates[name] // rest % size


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two sub-axes of one axis (as (pre, size) over a common full size) cover
    a common factor: their intervals [pre, pre*size) on the log scale intersect."""
    return a[0] < b[0] * b[1] and b[0] < a[0] * a[1]


def _check_refs(refs: Sequence[Ref], axis_sizes: dict[str, int], seen: list[Ref], what: str) -> None:
    """Every reference names an axis of the mesh and is a valid sub-axis; none is used
    twice or overlaps another of the sharding (`seen`, updated); two references in a
    row are not consecutive sub-axes of one axis (they would be one sub-axis)."""
    previous: Ref | None = None
    for ref in refs:
        name, sub = ref
        if name not in axis_sizes:
            known = ", ".join(f'"{a}"' for a in axis_sizes) or "none"
            raise ShapeError(f'{what} uses unknown axis "{name}" (mesh axes: {known})')
        size = axis_sizes[name]
        if sub is not None:
            pre, k = sub
            if pre < 1:
                raise ShapeError(f"{what}: sub-axis {ref_text(ref)} has pre-size {pre}; it is at least 1")
            if k <= 1:
                raise ShapeError(f"{what}: sub-axis {ref_text(ref)} has size {k}; a sub-axis is larger than 1")
            if size % (pre * k):
                raise ShapeError(
                    f'{what}: sub-axis {ref_text(ref)} does not divide axis "{name}" of size {size} '
                    f"(pre-size times size {pre * k})"
                )
            if k == size:
                raise ShapeError(f'{what}: sub-axis {ref_text(ref)} is all of axis "{name}": write "{name}"')
        for other in seen:
            if other[0] != name:
                continue
            if other == ref:
                raise ShapeError(f"{what}: axis {ref_text(ref)} is used twice in the sharding")
            if other[1] is None or sub is None or _overlaps(other[1], sub):
                raise ShapeError(f"{what}: {ref_text(ref)} overlaps {ref_text(other)}, used in the sharding too")
        if previous is not None and previous[0] == name and previous[1] and sub and previous[1][0] * previous[1][1] == sub[0]:
            raise ShapeError(f"{what}: consecutive sub-axes {ref_text(previous)}, {ref_text(ref)} are one sub-axis")
        seen.append(ref)
        previous = ref


def _check_mesh_order(refs: Sequence[Ref], order: list[str], what: str) -> None:
    """Replicated and unreduced axes are listed in the mesh's order (sub-axes of one
    axis by pre-size)."""
    keys = [(order.index(name) if name in order else len(order), sub[0] if sub else 0) for name, sub in refs]
    if keys != sorted(keys):
        raise ShapeError(f"{what} axes {_refs_text(refs)} are not in the mesh's order ({', '.join(order)})")


# --------------------------------------------------------------------------------------
# Tensor shardings
# --------------------------------------------------------------------------------------


def dim_refs(dim: Any) -> list[Ref]:
    """The references of a `DimShardingAttr`, major to minor."""
    return [ref_of(r) for r in dim.get_axes()]


def check_sharding(
    sharding: Any, mesh: Any, shape: Sequence[int] | None, bound_axes: Collection[str] = ()
) -> None:
    """Shardy's rules of a tensor sharding on `mesh` for a value of `shape` (None: not
    a tensor, e.g. a token):

    * a sharding on a maximal mesh, or of a value that is not a tensor, has no
      dimension shardings and no replicated or unreduced axes;
    * it has one dimension sharding per dimension of the tensor;
    * every axis exists in the mesh; a sub-axis divides its axis; an axis, or
      overlapping sub-axes of one axis, is used at most once across the dimensions,
      the replicated and the unreduced axes; replicated and unreduced axes are in the
      mesh's order;
    * priorities are non-negative, and a closed dimension with a priority has axes;
    * inside a manual computation, no axis it is manual on (`bound_axes`) is used.

    Dimensions need not divide evenly (a shard may be padded), as in Shardy."""
    dims = list(sharding.dims())
    replicated = [ref_of(r) for r in sharding.get_replicated_axes()]
    unreduced = [ref_of(r) for r in sharding.get_unreduced_axes()]
    if mesh.is_maximal() or shape is None:
        if dims or replicated or unreduced:
            where = "on a maximal mesh" if mesh.is_maximal() else "of a value that is not a tensor"
            raise ShapeError(f"a sharding {where} has no dimension shardings and no replicated or unreduced axes")
        return
    if len(dims) != len(shape):
        raise ShapeError(f"the sharding has {len(dims)} dimension shardings but the tensor has rank {len(shape)}")
    axis_sizes = _axis_sizes(mesh)
    seen: list[Ref] = []
    for d, dim in enumerate(dims):
        priority = dim.get_priority()
        if priority is not None and priority < 0:
            raise ShapeError(f"dimension {d} has a negative priority p{priority}")
        refs = dim_refs(dim)
        if priority is not None and dim.get_is_closed() and not refs:
            raise ShapeError(f"dimension {d} is empty and closed but has a priority")
        _check_refs(refs, axis_sizes, seen, f"dimension {d}")
    for what, refs in (("replicated", replicated), ("unreduced", unreduced)):
        _check_mesh_order(refs, mesh.axis_names(), what)
        _check_refs(refs, axis_sizes, seen, what)
    if bound := sorted({name for name, _ in seen} & set(bound_axes)):
        names = ", ".join(f'"{n}"' for n in bound)
        raise ShapeError(f"uses axis {names}, manual in an enclosing sdy.manual_computation")


def dim_shard_count(dim: Any, mesh: Any, axes: Collection[str] | None = None) -> int:
    """How many shards a dimension sharding splits its dimension into: the product of
    the sizes of its references (of those on `axes` only, when given)."""
    axis_sizes = _axis_sizes(mesh)
    return math.prod(ref_size(r, axis_sizes) for r in dim_refs(dim) if axes is None or r[0] in axes)


def local_shape(
    global_shape: Sequence[int],
    sharding: Any,
    mesh: Any,
    axes: Collection[str] | None = None,
    *,
    allow_padding: bool = False,
) -> Shape:
    """The shape of one device's shard of a tensor of `global_shape`: each dimension
    divided by its shard count (counting the axes in `axes` only, when given, as a
    manual computation's body sees its manual axes). A dimension its shards do not
    divide is an error, or, with `allow_padding`, rounded up (the last shards
    padded)."""
    dims = list(sharding.dims())
    if len(dims) != len(global_shape):
        raise ShapeError(
            f"the sharding has {len(dims)} dimension shardings but the tensor has rank {len(global_shape)}"
        )
    out = []
    for d, (size, dim) in enumerate(zip(global_shape, dims, strict=True)):
        count = dim_shard_count(dim, mesh, axes)
        if size % count and not allow_padding:
            which = "manual axes" if axes is not None else "axes"
            raise ShapeError(
                f"dimension {d} of size {size} of {fmt(global_shape)} is not divisible by its {which}' size {count}"
            )
        out.append(-(-size // count))
    return tuple(out)


def global_shape(
    local: Sequence[int], sharding: Any, mesh: Any, axes: Collection[str] | None = None
) -> Shape:
    """The shape a shard of shape `local` is one device's part of (each dimension times
    its shard count, over `axes` only when given): the inverse of `local_shape`."""
    dims = list(sharding.dims())
    if len(dims) != len(local):
        raise ShapeError(f"the sharding has {len(dims)} dimension shardings but the shard has rank {len(local)}")
    return tuple(size * dim_shard_count(dim, mesh, axes) for size, dim in zip(local, dims, strict=True))


def shard_index(dim: Any, mesh: Any, coordinates: dict[str, int], axes: Collection[str] | None = None) -> int:
    """Which of its dimension's shards a device (at `coordinates`) holds: its
    coordinates along the dimension's references, mixed radix, the first reference
    major."""
    axis_sizes = _axis_sizes(mesh)
    index = 0
    for ref in dim_refs(dim):
        if axes is None or ref[0] in axes:
            index = index * ref_size(ref, axis_sizes) + ref_coordinate(ref, axis_sizes, coordinates)
    return index


def shard_offsets(
    global_shape_: Sequence[int], sharding: Any, mesh: Any, device: int, axes: Collection[str] | None = None
) -> Shape:
    """Where `device`'s shard starts in the global tensor, per dimension (its shard
    index times the shard's size; a padded last shard may start at or past the end)."""
    local = local_shape(global_shape_, sharding, mesh, axes, allow_padding=True)
    coordinates = device_coordinates(mesh, device)
    return tuple(
        shard_index(dim, mesh, coordinates, axes) * size for dim, size in zip(sharding.dims(), local, strict=True)
    )


def check_manual_axes_first(sharding: Any, manual_axes: Collection[str], what: str) -> None:
    """In a manual computation's sharding, a dimension's manual axes come before its
    free ones (the body's shard is split further by the free axes only)."""
    for d, dim in enumerate(sharding.dims()):
        refs = dim_refs(dim)
        free_seen: Ref | None = None
        for ref in refs:
            if ref[0] not in manual_axes:
                free_seen = free_seen or ref
            elif free_seen is not None:
                raise ShapeError(
                    f"{what}: dimension {d} lists manual axis {ref_text(ref)} after free axis {ref_text(free_seen)}; "
                    "manual axes come first"
                )


__all__ = [
    "Ref",
    "check_manual_axes_first",
    "check_mesh",
    "check_sharding",
    "device_coordinates",
    "dim_refs",
    "dim_shard_count",
    "global_shape",
    "local_shape",
    "ref_coordinate",
    "ref_of",
    "ref_size",
    "ref_text",
    "shard_index",
    "shard_offsets",
]
