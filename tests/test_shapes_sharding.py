"""Shape rules of shardings (dialects/shapes/sharding.py): valid meshes and shardings,
local and global shapes, which shard a device holds. The examples are Shardy's
(attrs.td) and the shardings JAX writes for jax.jit and shard_map on a 2x2 mesh."""

import pytest
from xla_opt.dialects.sdy import AxisRefAttr, DimShardingAttr, MeshAttr, TensorShardingAttr
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.sharding import (
    check_manual_axes_first,
    check_mesh,
    check_sharding,
    device_coordinates,
    dim_shard_count,
    global_shape,
    local_shape,
    shard_offsets,
)

MESH = MeshAttr([("x", 2), ("y", 2)])
MESH_8 = MeshAttr([("x", 8)])


def sharding(*dims, replicated=(), unreduced=(), mesh="mesh") -> TensorShardingAttr:
    """`sharding(["x"], [], ["x", "y"])`: closed dimensions of full axes; an axis given as
    ("x", pre, size) is a sub-axis."""

    def ref(a):
        return AxisRefAttr(a[0], (a[1], a[2])) if isinstance(a, tuple) else AxisRefAttr(a)

    return TensorShardingAttr(
        mesh, [DimShardingAttr([ref(a) for a in d]) for d in dims], [ref(a) for a in replicated], [ref(a) for a in unreduced]
    )


# ---- meshes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "axes, ids",
    [
        ([("a", 2), ("b", 3)], None),  # Shardy: implicit device ids iota(6)
        ([("a", 3), ("b", 2)], [0, 2, 4, 1, 3, 5]),  # Shardy: an explicit device order
        ([], [3]),  # a maximal mesh
        ([], None),  # an empty mesh
    ],
)
def test_valid_meshes(axes, ids):
    check_mesh(axes, ids)


@pytest.mark.parametrize(
    "axes, ids, message",
    [
        ([("a", 2), ("a", 2)], None, 'axis "a" appears twice'),
        ([("a", 0)], None, 'axis "a" has size 0'),
        ([("a", 2)], [0, 2], "device_ids [0, 2] is not a permutation of 0..1"),
        ([("a", 4)], [1, 0], "the mesh's axes hold 4 devices but device_ids lists 2"),
        ([], [0, 1], "a mesh without axes has at most one device id"),
        ([], [-1], "device ids must be non-negative"),
    ],
)
def test_invalid_meshes(axes, ids, message):
    with pytest.raises(ShapeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        check_mesh(axes, ids)


def test_mesh_accessors():
    mesh = MeshAttr([("a", 3), ("b", 2)], [0, 2, 4, 1, 3, 5])
    assert mesh.axis_names() == ["a", "b"]
    assert mesh.axis_size("b") == 2
    assert mesh.total_size() == 6
    assert mesh.device_ids() == [0, 2, 4, 1, 3, 5]
    assert MESH.device_ids() == [0, 1, 2, 3]  # iota when none are given
    assert MeshAttr([("a", 2)], [0, 1]) == MeshAttr([("a", 2)])  # an explicit identity order is dropped
    assert MeshAttr([], [3]).is_maximal() and not MeshAttr([]).is_maximal()
    with pytest.raises(KeyError, match='no axis "c"'):
        mesh.axis_size("c")


def test_device_coordinates_follow_the_device_order():
    # devices listed row-major over the axes: position 1 holds device 2
    mesh = MeshAttr([("a", 3), ("b", 2)], [0, 2, 4, 1, 3, 5])
    assert device_coordinates(mesh, 2) == {"a": 0, "b": 1}
    assert device_coordinates(mesh, 1) == {"a": 1, "b": 1}
    assert device_coordinates(MESH, 2) == {"x": 1, "y": 0}
    with pytest.raises(ShapeError, match="device 7 is not in the mesh's devices"):
        device_coordinates(MESH, 7)


# ---- valid and invalid shardings --------------------------------------------------------


@pytest.mark.parametrize(
    "s, mesh, shape",
    [
        (sharding(["x"], []), MESH, (8, 4)),  # jit in_shardings P("x", None)
        (sharding([], ["x", "y"]), MESH, (8, 4)),  # P(None, ("x", "y"))
        (sharding(["x"], [], replicated=["y"]), MESH, (8, 4)),
        (sharding([], [], unreduced=["x", "y"]), MESH, (8, 4)),
        (sharding([("x", 1, 2)], [("x", 2, 4)]), MESH_8, (8, 4)),  # sub-axes of one axis, disjoint
        (sharding(["x"]), MESH, (7,)),  # uneven: a padded shard, as Shardy allows
        (sharding(), MESH, ()),
    ],
)
def test_valid_shardings(s, mesh, shape):
    check_sharding(s, mesh, shape)


@pytest.mark.parametrize(
    "s, mesh, shape, message",
    [
        (sharding(["x"]), MESH, (8, 4), "the sharding has 1 dimension shardings but the tensor has rank 2"),
        (sharding(["z"], []), MESH, (8, 4), 'dimension 0 uses unknown axis "z"'),
        (sharding(["x"], ["x"]), MESH, (8, 4), 'dimension 1: axis "x" is used twice'),
        (sharding(["x"], [], replicated=["x"]), MESH, (8, 4), 'replicated: axis "x" is used twice'),
        (sharding([], [], replicated=["y"], unreduced=["y"]), MESH, (8, 4), 'unreduced: axis "y" is used twice'),
        (sharding([], [], replicated=["y", "x"]), MESH, (8, 4), "replicated axes .* are not in the mesh's order"),
        (sharding([("x", 1, 4)], [("x", 2, 4)]), MESH_8, (8, 4), "overlaps"),
        (sharding([("x", 3, 2)], []), MESH_8, (8, 4), "does not divide axis"),
        (sharding([("x", 1, 8)], []), MESH_8, (8, 4), "is all of axis"),
        (sharding([("x", 1, 2), ("x", 2, 2)], []), MESH_8, (8, 4), "are one sub-axis"),
        (sharding(["x"], []), MeshAttr([], [0]), (8, 4), "maximal mesh"),
        (sharding(["x"]), MESH, None, "not a tensor"),
    ],
)
def test_invalid_shardings(s, mesh, shape, message):
    with pytest.raises(ShapeError, match=message):
        check_sharding(s, mesh, shape)


def test_priorities():
    s = TensorShardingAttr("mesh", [DimShardingAttr(["x"], True, 0), DimShardingAttr([], False, 2)])
    check_sharding(s, MESH, (8, 4))
    closed_empty = TensorShardingAttr("mesh", [DimShardingAttr([], True, 1)])
    with pytest.raises(ShapeError, match="dimension 0 is empty and closed but has a priority"):
        check_sharding(closed_empty, MESH, (8,))
    negative = TensorShardingAttr("mesh", [DimShardingAttr(["x"], True, -1)])
    with pytest.raises(ShapeError, match="negative priority"):
        check_sharding(negative, MESH, (8,))


def test_axes_bound_by_an_enclosing_manual_computation():
    with pytest.raises(ShapeError, match='uses axis "x", manual in an enclosing'):
        check_sharding(sharding(["x"]), MESH, (4,), bound_axes={"x"})
    check_sharding(sharding(["y"]), MESH, (4,), bound_axes={"x"})


# ---- shapes of shards --------------------------------------------------------------------


def test_local_and_global_shapes():
    # jax.jit(f, in_shardings=P("x", None)) on 2x2 devices: each holds a 4x4 block
    assert local_shape((8, 4), sharding(["x"], []), MESH) == (4, 4)
    assert local_shape((8, 4), sharding(["x", "y"], []), MESH) == (2, 4)
    assert local_shape((8, 4), sharding(["y"], ["x"]), MESH) == (4, 2)
    assert local_shape((8, 4), sharding([("x", 2, 4)], []), MESH_8) == (2, 4)
    assert global_shape((2, 4), sharding(["x", "y"], []), MESH) == (8, 4)
    assert dim_shard_count(sharding(["x", "y"]).dims()[0], MESH) == 4


def test_local_shape_over_manual_axes():
    # shard_map over "x" only (axis_names={"x"}): the body sees dimensions split by "x"
    s = sharding(["x", "y"], ["y"])
    assert local_shape((8, 4), s, MESH, axes={"x"}) == (4, 4)
    assert local_shape((8, 4), s, MESH, axes={"x", "y"}) == (2, 2)
    assert local_shape((8, 4), s, MESH, axes=set()) == (8, 4)
    assert global_shape((4, 4), s, MESH, axes={"x"}) == (8, 4)


def test_uneven_dimensions():
    with pytest.raises(ShapeError, match=r"dimension 0 of size 7 of \[7\] is not divisible by its axes' size 2"):
        local_shape((7,), sharding(["x"]), MESH)
    assert local_shape((7,), sharding(["x"]), MESH, allow_padding=True) == (4,)


def test_shard_offsets():
    s = sharding(["x"], ["y"])
    assert [shard_offsets((8, 4), s, MESH, d) for d in range(4)] == [(0, 0), (0, 2), (4, 0), (4, 2)]
    # the first axis of a dimension is major
    s = sharding(["y", "x"], [])
    assert [shard_offsets((8, 4), s, MESH, d)[0] for d in range(4)] == [0, 4, 2, 6]
    # a sub-axis: "x":(2)2 of an axis of 8 is the middle digit of the coordinate in radix [2, 2, 2]
    s = sharding([("x", 2, 2)], [])
    assert [shard_offsets((8, 4), s, MESH_8, d)[0] for d in range(8)] == [0, 0, 4, 4, 0, 0, 4, 4]
    # an explicit device order: device 3 is at position 0
    reversed_mesh = MeshAttr([("x", 4)], [3, 2, 1, 0])
    assert [shard_offsets((8,), sharding(["x"]), reversed_mesh, d)[0] for d in range(4)] == [6, 4, 2, 0]


def test_manual_axes_come_first():
    check_manual_axes_first(sharding(["x", "y"]), {"x"}, "in_shardings #0")
    with pytest.raises(ShapeError, match='dimension 0 lists manual axis "x" after free axis "y"'):
        check_manual_axes_first(sharding(["y", "x"]), {"x"}, "in_shardings #0")
