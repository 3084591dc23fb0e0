"""Reading the `sdy` dialect's annotations as the partitioner's plain values (model.py)."""

from __future__ import annotations

from xdsl.ir import Attribute

from .model import Mesh, Sharding


def mesh_of(mesh_attr: Attribute) -> Mesh:
    """Our Mesh of an `#sdy.mesh` attribute."""
    axes = tuple((name, mesh_attr.axis_size(name)) for name in mesh_attr.axis_names())  # type: ignore[attr-defined]
    return Mesh(axes, tuple(mesh_attr.device_ids()))  # type: ignore[attr-defined]


def sharding_of(attr: Attribute, rank: int) -> Sharding:
    """Our Sharding of a `#sdy.sharding` (a dimension with a sub-axis replicated)."""
    dims = []
    for dim in attr.dims():  # type: ignore[attr-defined]
        axes = dim.get_axes()
        if any(a.get_sub_axis_info() is not None for a in axes):
            dims.append(())
        else:
            dims.append(tuple(a.get_name() for a in axes))
    if len(dims) != rank:
        return Sharding.replicated(rank)
    return Sharding(tuple(dims))


def readable(attr: Attribute | None) -> Attribute | None:
    """`attr` when it is a `#sdy.sharding` the dialect reads (else None: replicated)."""
    return attr if attr is not None and hasattr(attr, "mesh_name") and hasattr(attr, "dims") else None


def mesh_name(attr: Attribute) -> str | None:
    return attr.mesh_name()  # type: ignore[attr-defined]
