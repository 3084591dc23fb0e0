"""GSPMD sharding strings (passes/conversions/convert_stablehlo_to_xla/gspmd.py): the
strings JAX writes with jax_use_shardy_partitioner off, read as values, and the meshes
that express them. XLA's own reading (`xla_client.HloSharding`) is the oracle where
JAX is installed: the same tiles and devices, and every device on the tile XLA gives
it."""

import math

import numpy as np
import pytest

from xla_opt.passes.conversions.convert_stablehlo_to_xla.gspmd import (
    Gspmd,
    MalformedSharding,
    MeshPlan,
    factor,
    iota_devices,
    parse_sharding,
    parse_unspecified_dims,
    refine,
)

# what JAX 0.10 writes (tests/sharding's GSPMD programs, shard_map, pmap), and XLA's other forms
JAX_STRINGS = [
    "{replicated}",
    "{manual}",
    "{maximal device=3}",
    "{devices=[4,1]<=[4]}",
    "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
    "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
    "{devices=[2,2]<=[2,2]T(1,0)}",
    "{devices=[1,4]<=[4]}",
    "{devices=[2,2]<=[4] last_tile_dims={manual, replicated}}",
    "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}",
    "{devices=[2,2]0,2,1,3}",
    "{devices=[3,2]<=[2,3]T(1,0)}",
    "{devices=[2,4]<=[2,2,2]T(2,0,1)}",
    "{devices=[2,2,2]<=[8] last_tile_dims={manual}}",
]


def test_parse_the_kinds():
    assert parse_sharding("{replicated}") == Gspmd("replicated")
    assert parse_sharding("{maximal device=3}") == Gspmd("maximal", device=3)
    assert parse_sharding("{unknown shard_as 2}") == Gspmd("unknown", shard_group=("shard_as", 2))
    assert parse_sharding("{devices=[2,1,2]<=[4] last_tile_dim_replicate}") == Gspmd(
        "tiled", (2, 1, 2), ((4,), (0,)), last_tile_dims=("replicated",)
    )
    assert parse_sharding("{devices=[2,2]0,2,1,3}").devices() == [0, 2, 1, 3]
    assert parse_sharding("{{devices=[2]<=[2]}, {replicated}}") == (Gspmd("tiled", (2,), ((2,), (0,))), Gspmd("replicated"))
    assert parse_sharding('{replicated metadata={op_name="jit(f)/a{b}" source_file="x.py"}}') == Gspmd("replicated")
    assert parse_sharding("{}") == ()


@pytest.mark.parametrize("text", JAX_STRINGS)
def test_printed_back(text):
    assert str(parse_sharding(text)) == text


@pytest.mark.parametrize(
    "text, message",
    [
        ("{devices=[2,2]<=[3]}", r"<=\[3\] holds 3 devices but the tiles are 4"),
        ("{replicatd}", "unexpected 'replicatd'"),
        ("{devices=[2,2]0,1,2}", "is not a permutation of the 4 tiles' devices"),
        ("{devices=[2]<=[2]", "missing '}'"),
        ("{devices=[2,2]<=[2,2]T(0,0)}", "is not a permutation of the 2 reshape dimensions"),
        ("{devices=[2,2]<=[4] last_tile_dims={bogus}}", "last tile dimension kind 'bogus'"),
        ("{devices=[0,2]<=[0]}", "has a dimension below 1"),
        ("{replicated} x", "unexpected text after the sharding"),
    ],
)
def test_malformed(text, message):
    with pytest.raises(MalformedSharding, match=message):
        parse_sharding(text)


def test_unspecified_dims():
    assert parse_unspecified_dims("unspecified_dims=[0,1]") == [0, 1]
    assert parse_unspecified_dims("") == []


def test_iota_devices():
    assert iota_devices([4], [0]) == [0, 1, 2, 3]
    assert iota_devices([2, 2], [1, 0]) == [0, 2, 1, 3]
    assert iota_devices([2, 3], [1, 0]) == [0, 3, 1, 4, 2, 5]


def test_refine():
    assert refine([4], [2, 2]) == [2, 2]
    assert refine([2, 2], [4]) == [2, 2]
    assert refine([2, 3], [3, 2]) is None  # 3 straddles the boundary at 2
    assert refine([2, 4], [4, 2]) == [2, 2, 2]


def test_one_mesh_for_nesting_factorizations():
    # the argument, result and constraint of tests/sharding's programs on 2x2 devices
    plan = MeshPlan()
    texts = [
        "{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
        "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
        "{devices=[2,2]<=[2,2]T(1,0)}",
        "{devices=[1,4]<=[4]}",
    ]
    shardings = [parse_sharding(t) for t in texts]
    for s in shardings:
        plan.add(s)
    assert plan.meshes() == [([2, 2], None)]
    assert [plan.place(s) for s in shardings] == [
        (0, [[0], [], [1]]),
        (0, [[], [1], [0]]),
        (0, [[1], [0]]),
        (0, [[], [0, 1]]),
    ]


def test_a_listed_order_is_a_mesh_of_its_own():
    plan = MeshPlan()
    s = parse_sharding("{devices=[2,2]0,3,1,2}")
    plan.add(s)
    plan.add(parse_sharding("{devices=[4]<=[4]}"))
    assert plan.meshes() == [([4], None), ([2, 2], [0, 3, 1, 2])]
    assert plan.place(s) == (1, [[0], [1]])


def _tile_of_each_device(s: Gspmd) -> dict[int, tuple[int, ...]]:
    """Where our mesh puts each device: its coordinates along each tile dimension's
    axes, mixed radix, the first axis major."""
    plan = MeshPlan()
    plan.add(s)
    index, axes = plan.place(s)
    sizes, ids = plan.meshes()[index]
    ids = ids or list(range(math.prod(sizes)))
    tiles = {}
    for position, device in enumerate(ids):
        coordinates = np.unravel_index(position, sizes) if sizes else ()
        tile = []
        for tile_axes in axes:
            t = 0
            for a in tile_axes:
                t = t * sizes[a] + int(coordinates[a])
            tile.append(t)
        tiles[device] = tuple(tile)
    return tiles


@pytest.mark.parametrize("text", [t for t in JAX_STRINGS if "devices" in t])
def test_every_device_on_xlas_tile(text):
    """Our reading of a tiled sharding against XLA's: the same tile shape and devices,
    and every device at the tile coordinates XLA's tile assignment gives it."""
    s = parse_sharding(text)
    assert factor(s) is not None or s.iota is None
    tiles = _tile_of_each_device(s)
    assignment = np.array(s.devices()).reshape(s.tile_shape)
    for device, tile in tiles.items():
        assert assignment[tile] == device, (device, tile)
    pytest.importorskip("jax")
    from jax._src.lib import xla_client

    xla = xla_client.HloSharding.from_string(text)
    assert list(xla.tile_assignment_dimensions()) == list(s.tile_shape)
    assert list(xla.tile_assignment_devices()) == s.devices()
