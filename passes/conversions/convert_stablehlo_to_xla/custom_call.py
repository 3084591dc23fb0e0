"""convert-stablehlo-to-xla: Custom calls (JAX's LAPACK calls become xla.cholesky and xla.triangular_solve;
sharding markers and `sdy` sharding annotations are identities, except the manual-sharding
boundaries of a GSPMD program, below).

A GSPMD program from JAX (pmap, shard_map without Shardy) runs its per-device body between
`SPMDFullToShardShape` (global -> one device's shard) and `SPMDShardToFullShape` (the
shards -> the global value). Its devices run here as replicas (device p is replica p,
devices tiled row-major over the tile dimensions, XLA's iota device order `<=[N]`):
a shard is the `dynamic_slice` of the global value at the replica's tile coordinates
times the shard shape, and the global value is the `all_gather` of the shards along
each tiled dimension (last first, among the replicas that differ only in that
coordinate). So `xla-run prog --replicas N [--launcher mpi]` runs a data-parallel step
from JAX with every replica returning the global results."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BoolAttr,
    DictionaryAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla.properties import i64_array, i64_matrix

from .common import (
    Builder,
    Patterns,
    bool_of,
    fail,
    i64_attr,
    int_of,
    prop,
    result_types,
)

PATTERNS = Patterns()

SHARDING_TARGETS = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "annotate_device_placement"}


def _tiles(op, full: TensorType, shard: TensorType) -> list[int]:
    """Shards per dimension; only XLA's plain iota device order is understood."""
    sharding = op.attributes.get("mhlo.sharding")
    source = op.operands[0].owner
    texts = [
        a.data for a in (sharding, getattr(source, "attributes", {}).get("mhlo.sharding")) if isinstance(a, StringAttr)
    ]
    if any("T(" in t or "last_tile" in t or "subgroup" in t for t in texts):
        fail(op, f"sharding {' '.join(texts)}: only tiles in XLA's iota device order run as replicas")
    tiles = []
    for g, s in zip(full.get_shape(), shard.get_shape(), strict=True):
        if s <= 0 or g % s:
            fail(op, f"a shard of shape {list(shard.get_shape())} does not tile {list(full.get_shape())}")
        tiles.append(g // s)
    return tiles


def _shard_of_replica(op, b: Builder) -> SSAValue:
    """The replica's tile of the global operand (see the module doc)."""
    full, shard = op.operands[0].type, op.results[0].type
    tiles = _tiles(op, full, shard)
    index = TensorType(IntegerType(32, Signedness.UNSIGNED), [])
    replica = b.one(xla.ReplicaIdOp, [], index)
    starts = []
    for d, (t, size) in enumerate(zip(tiles, shard.get_shape(), strict=True)):
        stride = math.prod(tiles[d + 1 :])
        coordinate = b.binary(xe.RemainderOp, b.binary(xe.DivideOp, replica, stride), t)
        starts.append(b.binary(xe.MultiplyOp, coordinate, size))
    props = {"slice_sizes": i64_array(shard.get_shape())}
    return b.build(xla.DynamicSliceOp, [op.operands[0], starts], [shard], props).results[0]


def _gathered_shards(op, b: Builder) -> SSAValue:
    """The global value, every replica's shard gathered along each tiled dimension."""
    shard, full = op.operands[0].type, op.results[0].type
    tiles = _tiles(op, full, shard)
    devices = math.prod(tiles)
    value, shape = op.operands[0], list(shard.get_shape())
    for d in reversed(range(len(tiles))):
        if tiles[d] == 1:
            continue
        groups: dict[tuple[int, ...], list[int]] = {}
        for p in range(devices):
            coordinates = [(p // math.prod(tiles[k + 1 :])) % tiles[k] for k in range(len(tiles))]
            groups.setdefault(tuple(c for k, c in enumerate(coordinates) if k != d), []).append(p)
        shape[d] *= tiles[d]
        props = {"all_gather_dim": i64_attr(d), "replica_groups": i64_matrix(sorted(groups.values()))}
        value = b.one(xla.AllGatherOp, [value], TensorType(shard.get_element_type(), shape), props)
    return value


def _char_field(op, key: str, default: str) -> str:
    config = op.attributes.get("mhlo.backend_config")
    if isinstance(config, DictionaryAttr) and key in config.data:
        return chr(int_of(config.data[key]))
    return default


def _zeros_for(b: Builder, types: Sequence[Attribute]) -> list[SSAValue]:
    return [b.constant(0, t) for t in types]


@PATTERNS.rule("stablehlo.custom_call")
def _custom_call(op, b):
    target = prop(op, "call_target_name")
    target = target.data if isinstance(target, StringAttr) else str(target)
    if target in SHARDING_TARGETS:
        operand, result = op.operands[0].type, op.results[0].type
        if target == "SPMDFullToShardShape" and operand != result:
            return [_shard_of_replica(op, b)]
        if target == "SPMDShardToFullShape" and operand != result:
            return [_gathered_shards(op, b)]
        return list(op.operands)
    base = target.removesuffix("_ffi")
    if base.startswith("lapack_") and base[8:] == "potrf":
        # (a) -> (factor, info)
        lower = _char_field(op, "uplo", "L") == "L"
        a = op.operands[-1]
        factor = b.one(xla.CholeskyOp, [a], a.type, {"lower": BoolAttr.from_bool(lower)})
        return [factor, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if base.startswith("lapack_") and base[8:] == "trsm" or base.startswith("blas_") and base[6:] == "trsm":
        a, rhs = op.operands[-2], op.operands[-1]
        trans = _char_field(op, "trans_x", "N")
        props = {
            "left_side": BoolAttr.from_bool(_char_field(op, "side", "L") == "L"),
            "lower": BoolAttr.from_bool(_char_field(op, "uplo", "L") == "L"),
            "unit_diagonal": BoolAttr.from_bool(_char_field(op, "diag", "N") == "U"),
            "transpose_a": xla.TransposeAttr(
                xla.Transpose({"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}[trans])
            ),
        }
        x = b.one(xla.TriangularSolveOp, [a, rhs], rhs.type, props)
        return [x, *_zeros_for(b, [r.type for r in op.results[1:]])]
    if base.startswith(("lapack_", "blas_", "cusolver", "cublas", "hipsolver", "cu_", "hip_")):
        fail(op, f"custom call '{target}' has no xla counterpart")
    props: dict[str, Attribute | None] = {"call_target_name": StringAttr(target)}
    config = prop(op, "backend_config")
    if isinstance(config, StringAttr) and config.data:
        props["backend_config"] = config
    if prop(op, "has_side_effect") is not None:
        props["has_side_effect"] = BoolAttr.from_bool(bool_of(prop(op, "has_side_effect")))
    return b.build(xla.CustomCallOp, [list(op.operands)], result_types(op), props).results


@PATTERNS.rule("sdy.sharding_constraint", "sdy.reshard")
def _sharding_identity(op, b):
    return [op.operands[0]]
