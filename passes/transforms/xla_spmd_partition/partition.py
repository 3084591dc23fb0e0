"""The global program to the program one device runs: propagation, then partitioning.

**Propagation** gives every value of the function a sharding. The entry's arguments and
results, and `sdy.sharding_constraint` results, are fixed points; an op's rule
(`rules.py`) carries the shardings of its known values to its other values, factor by
factor: for each factor, the first known dimension of it that is sharded (results
first, then operands, in order), if its axes are still free in the op and divide the
factor. Forward then backward sweeps over the function's ops repeat until nothing
changes; a value no sweep reached is replicated. A value's sharded dimensions, once
set, stay; a later sweep may only shard its whole dimensions (with axes the value does
not use yet), except for the fixed points, which never change. The order makes it
deterministic.

**Partitioning** walks the ops in order and emits each as the device computes it, on
local shapes:
- an op with a rule: the op's factor shardings are chosen from its operands' current
  shardings and its results' propagated ones (results first); each operand is
  resharded to what the factors ask (`reshard`), the op is computed on the shards, and
  a factor that only operands have (a contraction, a reduced dimension) leaves partial
  results, which an all-reduce over its axes completes (or, for a reducer no all-reduce
  computes, such as argmax's, a reduce of the partial results gathered); a gather from
  rows spread over devices is masked (`masked_gather.py`);
- any other op (no rule, or a rule the local op does not verify with): its operands are
  gathered whole, it is computed whole, its results are whole (always correct, the
  fallback the statistics count).

A reshard gathers (`xla.all_gather` over the axes a dimension loses) and then slices
(a `dynamic_slice` at the device's offset: what Shardy calls all-slice, no
communication). Collectives name devices: the per-device program runs as one replica
per device, `xla.replica_id` being the device id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of, is_float, shape_of, tensor
from xla_opt.dialects.xla.elementwise import ComparisonDirection, ComparisonDirectionAttr
from xla_opt.dialects.xla.properties import i64_array, i64_matrix

from . import annotations, masked_gather
from .model import Mesh, Sharding
from .rules import Rule, rule_of

# --------------------------------------------------------------------------------------
# Choosing factor shardings
# --------------------------------------------------------------------------------------


def choose_factors(
    rule: Rule, values: Sequence[tuple[Sharding | None, list[int | None]]], mesh: Mesh
) -> dict[int, tuple[str, ...]]:
    """Axes for the rule's factors from the known shardings of the op's values (each a
    (sharding or None, its dimensions' factors) pair, in priority order): a factor takes
    the axes of the first sharded dimension of it whose axes are free. (A factor has the
    size of every dimension that walks it, so axes that do not divide it come from a
    value that is uneven already: a constraint's, as the boundary is even.)"""
    chosen: dict[int, tuple[str, ...]] = {}
    used: set[str] = set()
    for sharding, factors in values:
        if sharding is None:
            continue
        for axes, factor in zip(sharding.dims, factors, strict=True):
            if factor is None or factor in chosen or not axes:
                continue
            if used & set(axes):
                continue
            chosen[factor] = axes
            used |= set(axes)
    return chosen


def sharding_of(factors: list[int | None], chosen: dict[int, tuple[str, ...]]) -> Sharding:
    return Sharding(tuple(chosen.get(f, ()) if f is not None else () for f in factors))


# --------------------------------------------------------------------------------------
# Propagation
# --------------------------------------------------------------------------------------


SWEEPS = 4  # forward and backward sweeps at most: each one only adds shardings


def propagate(ops: Sequence[Operation], known: dict[SSAValue, Sharding], mesh: Mesh) -> dict[SSAValue, Sharding]:
    """Shardings for the values of `ops` from the `known` ones, which are fixed (see the
    module doc)."""
    fixed = set(known)
    known = dict(known)
    rules = {op: rule_of(op) for op in ops}
    for _ in range(SWEEPS):
        changed = False
        for sweep in (ops, list(reversed(ops))):
            for op in sweep:
                changed |= _infer(op, rules[op], known, fixed, mesh)
        if not changed:
            break
    return known


def _refined(have: Sharding, derived: Sharding) -> Sharding:
    """`have` with its whole dimensions sharded as `derived` shards them, where those
    axes are not used by `have` already."""
    used = have.used_axes()
    dims = []
    for mine, theirs in zip(have.dims, derived.dims, strict=True):
        if not mine and theirs and not used & set(theirs):
            used |= set(theirs)
            mine = theirs
        dims.append(mine)
    return Sharding(tuple(dims))


def _infer(op: Operation, rule: Rule | None, known: dict[SSAValue, Sharding], fixed: set[SSAValue], mesh: Mesh) -> bool:
    if is_constraint(op):
        # a constraint's input takes its sharding when it has none
        source, target = op.operands[0], op.results[0]
        if source not in known and target in known:
            known[source] = known[target]
            return True
        return False
    if rule is None:
        return False
    pairs = [(r, f) for r, f in zip(op.results, rule.results, strict=True)] + [
        (o, f) for o, f in zip(op.operands, rule.operands, strict=True)
    ]
    chosen = choose_factors(rule, [(known.get(v), f) for v, f in pairs], mesh)
    changed = False
    for value, factors in pairs:
        if value in fixed or not factors:
            continue
        derived = sharding_of(factors, chosen)
        sharding = _refined(known[value], derived) if value in known else derived
        if not sharding.is_replicated and sharding != known.get(value):
            known[value] = sharding
            changed = True
    return changed


def is_constraint(op: Operation) -> bool:
    return op.name in ("sdy.sharding_constraint", "sdy.reshard")


# --------------------------------------------------------------------------------------
# Emitting the per-device program
# --------------------------------------------------------------------------------------


@dataclass
class Statistics:
    """What partitioning did: ops computed on shards, ops computed whole because their
    values are replicated, ops computed whole for want of a rule (the fallback, by op
    name), and the collectives it emitted."""

    sharded: int = 0
    replicated: int = 0
    whole: dict[str, int] = field(default_factory=dict)
    collectives: dict[str, int] = field(default_factory=dict)

    def count(self, table: dict[str, int], name: str) -> None:
        table[name] = table.get(name, 0) + 1


class Emitter:
    """Appends ops to the per-device function's block."""

    def __init__(self, block: Block, mesh: Mesh, stats: Statistics) -> None:
        self.block = block
        self.mesh = mesh
        self.stats = stats
        self._device_index: SSAValue | None = None

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    # ---- the device's own values ---------------------------------------------------
    def device_index(self) -> SSAValue:
        """This device's id, as a rank-0 i32 (replica_id, once per function)."""
        if self._device_index is None:
            rid = self.add(xla.ReplicaIdOp.build(result_types=[tensor((), _ui32())]))
            self._device_index = self.add(
                xla.ConvertOp.build(operands=[rid.results[0]], result_types=[tensor((), i32)])
            ).results[0]
        return self._device_index

    def per_device(self, values: Sequence[int]) -> SSAValue:
        """A rank-0 i32 holding values[device id]."""
        table = self.constant(list(values), (len(values),), i32)
        one = self.add(
            xla.DynamicSliceOp.build(
                operands=[table, [self.device_index()]],
                result_types=[tensor((1,), i32)],
                properties={"slice_sizes": i64_array([1])},
            )
        )
        return self.add(xla.ReshapeOp.build(operands=[one.results[0]], result_types=[tensor((), i32)])).results[0]

    def constant(self, values: list[int], shape: tuple[int, ...], element: Attribute) -> SSAValue:
        t = TensorType(element, shape)
        return self.add(
            xla.ConstantOp.build(properties={"value": DenseIntOrFPElementsAttr.from_list(t, values)}, result_types=[t])
        ).results[0]

    # ---- collectives ---------------------------------------------------------------
    def groups(self, axes: Sequence[str]) -> DenseIntOrFPElementsAttr:
        """The replica groups of a collective over `axes`, each in shard order."""
        return i64_matrix(self.mesh.groups(list(axes)))

    def all_gather(self, value: SSAValue, dim: int, axes: tuple[str, ...]) -> SSAValue:
        shape = list(shape_of(value.type))
        shape[dim] *= self.mesh.shards(axes)
        self.stats.count(self.stats.collectives, "all_gather")
        return self.add(
            xla.AllGatherOp.build(
                operands=[value],
                result_types=[tensor(shape, elem_of(value.type))],
                properties={"all_gather_dim": IntegerAttr(dim, i64), "replica_groups": self.groups(axes)},
            )
        ).results[0]

    def all_reduce(self, values: list[SSAValue], axes: tuple[str, ...], combiner: object) -> list[SSAValue]:
        self.stats.count(self.stats.collectives, "all_reduce")
        region = _reducer(combiner, [elem_of(v.type) for v in values])
        op = self.add(
            xla.AllReduceOp.build(
                operands=[values],
                result_types=[[v.type for v in values]],
                properties={"replica_groups": self.groups(axes)},
                regions=[region],
            )
        )
        return list(op.results)

    def gather_and_reduce(
        self, values: list[SSAValue], axes: tuple[str, ...], reduce: xla.ReduceOp, inits: list[SSAValue]
    ) -> list[SSAValue]:
        """The partial results of `reduce` on each device's shard combined by its own
        reducer: stacked in shard order along a new leading dimension (an all_gather),
        then reduced along it."""
        stacked = []
        for value in values:
            shape = shape_of(value.type)
            one = self.add(
                xla.ReshapeOp.build(operands=[value], result_types=[tensor((1, *shape), elem_of(value.type))])
            )
            stacked.append(self.all_gather(one.results[0], 0, axes))
        op = self.add(
            xla.ReduceOp.build(
                operands=[stacked, inits],
                result_types=[[v.type for v in values]],
                properties={"dimensions": i64_array([0])},
                regions=[reduce.body.clone()],
            )
        )
        return list(op.results)

    def all_slice(self, value: SSAValue, target: Sharding, global_shape: Sequence[int], held: Sharding) -> SSAValue:
        """Each device's shard under `target` of a value it holds as `held`: along each
        dimension whole, or split by a prefix of target's axes (a coarser shard that
        holds the finer one), the slice at the target shard's offset within what it
        holds."""
        self.stats.count(self.stats.collectives, "all_slice")
        local = target.local_shape(global_shape, self.mesh)
        current = shape_of(value.type)
        padded = [
            n * self.mesh.shards(axes) if axes and current[d] == global_shape[d] else current[d]
            for d, (n, axes) in enumerate(zip(local, target.dims, strict=True))
        ]
        if padded != list(current):  # an uneven split: every shard as long, the last ones padded
            value = self.padded(value, padded)
            current = shape_of(value.type)
        zero = self.constant([0], (), i32)
        starts: list[SSAValue] = []
        for d, axes in enumerate(target.dims):
            if axes and current[d] != local[d]:
                offsets = [
                    target.offsets(dev, global_shape, self.mesh)[d] - held.offsets(dev, global_shape, self.mesh)[d]
                    for dev in range(self.mesh.size)
                ]
                starts.append(self.per_device(offsets))
            else:
                starts.append(zero)
        sizes = [local[d] if target.dims[d] and current[d] != local[d] else current[d] for d in range(len(current))]
        return self.add(
            xla.DynamicSliceOp.build(
                operands=[value, starts],
                result_types=[tensor(sizes, elem_of(value.type))],
                properties={"slice_sizes": i64_array(sizes)},
            )
        ).results[0]

    def leading(self, value: SSAValue, dim: int, size: int) -> SSAValue:
        """The first `size` entries of `value` along `dim`."""
        shape = list(shape_of(value.type))
        limits = list(shape)
        limits[dim] = size
        properties = {
            "start_indices": i64_array([0] * len(shape)),
            "limit_indices": i64_array(limits),
            "strides": i64_array([1] * len(shape)),
        }
        return self.add(
            xla.SliceOp.build(operands=[value], result_types=[tensor(limits, elem_of(value.type))], properties=properties)
        ).results[0]

    def padded(self, value: SSAValue, shape: Sequence[int]) -> SSAValue:
        """`value` padded at the end of each dimension to `shape` (with zeros)."""
        current = shape_of(value.type)
        element = elem_of(value.type)
        properties = {
            "edge_padding_low": i64_array([0] * len(shape)),
            "edge_padding_high": i64_array([n - c for n, c in zip(shape, current, strict=True)]),
            "interior_padding": i64_array([0] * len(shape)),
        }
        return self.add(
            xla.PadOp.build(operands=[value, self.zero(element)], result_types=[tensor(shape, element)], properties=properties)
        ).results[0]

    def without_padding(
        self, value: SSAValue, sharding: Sharding, global_shape: Sequence[int], dims: Sequence[int], fill: SSAValue
    ) -> SSAValue:
        """`value` (this device's shard under `sharding`) with the padding of its uneven
        dimensions `dims` replaced by the scalar `fill` (a reduction's identity, or zero
        for a contraction), so that it does not reach a result."""
        shape = shape_of(value.type)
        indices = tensor(shape, i32)
        held: SSAValue | None = None
        for d in dims:
            offset = self.per_device([sharding.offsets(device, global_shape, self.mesh)[d] for device in range(self.mesh.size)])
            index = self.add(xla.IotaOp.build(properties={"iota_dimension": IntegerAttr(d, i64)}, result_types=[indices]))
            position = self.add(xla.AddOp.build(operands=[index.results[0], self.spread(offset, indices)], result_types=[indices]))
            inside = self.add(
                xla.CompareOp.build(
                    operands=[position.results[0], self.spread(self.constant([global_shape[d]], (), i32), indices)],
                    result_types=[tensor(shape, i1)],
                    properties={"comparison_direction": ComparisonDirectionAttr(ComparisonDirection.LT)},
                )
            ).results[0]
            held = inside if held is None else self.add(xla.AndOp.build(operands=[held, inside], result_types=[inside.type])).results[0]
        assert held is not None
        return self.add(
            xla.SelectOp.build(operands=[held, value, self.spread(fill, value.type)], result_types=[value.type])
        ).results[0]

    def spread(self, scalar: SSAValue, t: Attribute) -> SSAValue:
        """A rank-0 value broadcast to type `t`."""
        return self.add(
            xla.BroadcastInDimOp.build(operands=[scalar], result_types=[t], properties={"broadcast_dimensions": i64_array([])})
        ).results[0]

    def zero(self, element: Attribute) -> SSAValue:
        return self.add(xla.ConstantOp.build(properties={"value": _zero(element)}, result_types=[tensor((), element)])).results[0]

    def iota_offset(self, value: SSAValue, dim: int, sharding: Sharding, global_shape: Sequence[int]) -> SSAValue:
        """A local iota counting from this device's offset along `dim`: its shard of the
        global iota."""
        offsets = [sharding.offsets(device, global_shape, self.mesh)[dim] for device in range(self.mesh.size)]
        offset = self.per_device(offsets)
        t = value.type
        scalar = tensor((), elem_of(t))
        converted = self.add(xla.ConvertOp.build(operands=[offset], result_types=[scalar])).results[0]
        spread = self.add(
            xla.BroadcastInDimOp.build(
                operands=[converted], result_types=[t], properties={"broadcast_dimensions": i64_array([])}
            )
        ).results[0]
        return self.add(xla.AddOp.build(operands=[value, spread], result_types=[t])).results[0]

    def all_to_all(self, value: SSAValue, gather_dim: int, split_dim: int, axes: tuple[str, ...]) -> SSAValue:
        """`value`'s dimension `gather_dim`, split by `axes`, made whole while its
        dimension `split_dim` is split by them instead: one exchange, each device sending
        each member the block of split_dim that member keeps."""
        self.stats.count(self.stats.collectives, "all_to_all")
        count = self.mesh.shards(axes)
        shape = list(shape_of(value.type))
        shape[gather_dim] *= count
        shape[split_dim] //= count
        return self.add(
            xla.AllToAllOp.build(
                operands=[value],
                result_types=[tensor(shape, elem_of(value.type))],
                properties={
                    "split_dimension": IntegerAttr(split_dim, i64),
                    "concat_dimension": IntegerAttr(gather_dim, i64),
                    "split_count": IntegerAttr(count, i64),
                    "replica_groups": self.groups(axes),
                },
            )
        ).results[0]

    def reshard(self, value: SSAValue, current: Sharding, target: Sharding, global_shape: Sequence[int]) -> SSAValue:
        """`value` (sharded as `current`) sharded as `target`: axes that move whole from
        one dimension to another whole one go in an all_to_all; then gather the
        dimensions that lose or change axes, then slice where target shards what is
        whole."""
        if current == target:
            return value
        moved = list(current.dims)
        for a, (have, want) in enumerate(zip(current.dims, target.dims, strict=True)):
            if not have or want:
                continue
            b = next((b for b, (h, w) in enumerate(zip(moved, target.dims, strict=True)) if w == have and not h), None)
            even = b is not None and global_shape[a] % self.mesh.shards(have) == global_shape[b] % self.mesh.shards(have) == 0
            if b is not None and b != a and even:
                value = self.all_to_all(value, a, b, have)
                moved[b], moved[a] = have, ()
        current = Sharding(tuple(moved))
        if current == target:
            return value
        dims = list(current.dims)
        for d, (have, want) in enumerate(zip(current.dims, target.dims, strict=True)):
            uneven = global_shape[d] % self.mesh.shards(want) or global_shape[d] % self.mesh.shards(have)
            # a finer split of `have` is sliced from it, unless padding is in the way
            if have and have != want and (want[: len(have)] != have or uneven):
                value = self.all_gather(value, d, have)
                if shape_of(value.type)[d] != global_shape[d]:  # the padding of an uneven split cut off
                    value = self.leading(value, d, global_shape[d])
                dims[d] = ()
        held = Sharding(tuple(dims))
        if held != target:
            value = self.all_slice(value, target, global_shape, held)
        return value


def _zero(element: Attribute) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(tensor((), element), [0.0 if is_float(element) else 0])  # type: ignore[arg-type]


def _ui32() -> Attribute:
    from xdsl.dialects.builtin import IntegerType, Signedness

    return IntegerType(32, Signedness.UNSIGNED)


def _reducer(combiner: object, elements: list[Attribute]) -> Region:
    """The all-reduce's computation: an add of each pair, or a copy of a reduce's body."""
    if isinstance(combiner, xla.ReduceOp):
        return combiner.body.clone()
    (element,) = elements
    scalar = tensor((), element)
    block = Block(arg_types=[scalar, scalar])
    add = xla.AddOp.build(operands=list(block.args), result_types=[scalar])
    block.add_ops([add, xla.ReturnOp.build(operands=[[add.results[0]]])])  # type: ignore[list-item]
    return Region(block)


# --------------------------------------------------------------------------------------
# Partitioning a function
# --------------------------------------------------------------------------------------


@dataclass
class Partitioned:
    """The per-device function's boundary: each argument's and result's sharding."""

    arguments: list[Sharding]
    results: list[Sharding]
    statistics: Statistics


def partition_function(
    fn: func.FuncOp,
    mesh: Mesh,
    arguments: list[Sharding],
    results: list[Sharding],
    constraints: dict[SSAValue, Sharding] | None = None,
) -> Partitioned:
    """Rewrite `fn` in place into the program one device runs (see the module doc).
    `arguments`/`results`: the boundary's shardings (already fitted to the mesh);
    `constraints`: fixed shardings of values inside."""
    inline_calls(fn)
    block = fn.body.block
    ops = list(block.ops)
    ret = ops[-1]
    assert isinstance(ret, func.ReturnOp)
    body = ops[:-1]
    known: dict[SSAValue, Sharding] = {a: s for a, s in zip(block.args, arguments, strict=True)}
    for value, s in zip(ret.operands, results, strict=True):
        known.setdefault(value, s)
    known.update(constraints or {})
    for op in body:
        if is_manual(op):
            ins, outs = manual_shardings(op)
            for value, sharding in zip(op.operands, ins, strict=True):
                known.setdefault(value, sharding)
            known.update(zip(op.results, outs, strict=True))
    shardings = propagate(body, known, mesh)

    stats = Statistics()
    new_block = Block(
        arg_types=[
            tensor(s.local_shape(shape_of(a.type), mesh), elem_of(a.type))
            for a, s in zip(block.args, arguments, strict=True)
        ]
    )
    for old_arg, new_arg in zip(block.args, new_block.args, strict=True):
        new_arg.name_hint = old_arg.name_hint
    emit = Emitter(new_block, mesh, stats)
    local: dict[SSAValue, SSAValue] = dict(zip(block.args, new_block.args, strict=True))
    current: dict[SSAValue, Sharding] = dict(zip(block.args, arguments, strict=True))

    def operand(value: SSAValue, wanted: Sharding) -> SSAValue:
        return emit.reshard(local[value], current[value], wanted, shape_of(value.type))

    for op in body:
        if is_manual(op):
            _emit_manual(op, local, current, emit)
            continue
        if is_constraint(op):
            target = shardings.get(op.results[0]) or Sharding.replicated(len(shape_of(op.results[0].type)))
            local[op.results[0]] = operand(op.operands[0], target)
            current[op.results[0]] = target
            continue
        if not _emit_sharded(op, shardings, local, current, emit, mesh):
            _emit_whole(op, local, current, emit, fallback=rule_of(op) is None or _any_sharded(op, current))
    # each result resharded to its own sharding (one value may be returned twice, differently)
    returned = [
        operand(value, s) if isinstance(value.type, TensorType) else local[value]
        for value, s in zip(ret.operands, results, strict=True)
    ]
    new_block.add_op(func.ReturnOp(*returned))

    # the new body replaces the old one, and the signature its types
    old = fn.body.blocks[0]
    fn.body.insert_block_before(new_block, old)
    for o in reversed(list(old.ops)):
        o.detach()
        o.erase(safe_erase=False)
    fn.body.erase_block(old, safe_erase=False)
    fn.properties["function_type"] = FunctionType.from_lists(
        [a.type for a in new_block.args],
        [v.type for v in new_block.last_op.operands],  # type: ignore[union-attr]
    )
    return Partitioned(arguments, results, stats)


def is_manual(op: Operation) -> bool:
    return op.name == "sdy.manual_computation"


def manual_shardings(op: Operation) -> tuple[list[Sharding], list[Sharding]]:
    """A manual computation's operand and result shardings over its manual axes only:
    what its body's local types are cut by (the free axes replicated: each device along
    them computes the body alike)."""
    manual = set(op.get_manual_axes())  # type: ignore[attr-defined]

    def over_manual(attrs: Attribute, values: Sequence[SSAValue]) -> list[Sharding]:
        out = []
        for attr, value in zip(attrs.get_shardings(), values, strict=True):  # type: ignore[attr-defined]
            whole = annotations.sharding_of(attr, len(shape_of(value.type)))
            out.append(Sharding(tuple(tuple(a for a in axes if a in manual) for axes in whole.dims)))
        return out

    return over_manual(op.in_shardings, op.operands), over_manual(op.out_shardings, op.results)  # type: ignore[attr-defined]


def _emit_manual(op: Operation, local: dict, current: dict, emit: Emitter) -> None:
    """shard_map: the operands resharded to the manual shardings, then the body, which is
    already the program of one device (its collectives name devices), copied in."""
    ins, outs = manual_shardings(op)
    operands = [emit.reshard(local[v], current[v], s, shape_of(v.type)) for v, s in zip(op.operands, ins, strict=True)]
    block = op.regions[0].block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, operands, strict=True))
    returned: list[SSAValue] = []
    for inner in block.ops:
        if inner.name == "sdy.return":
            returned = [mapping[v] for v in inner.operands]
            break
        clone = inner.clone(value_mapper=mapping)
        emit.add(clone)
        mapping.update(zip(inner.results, clone.results, strict=True))
    emit.stats.count(emit.stats.collectives, "manual_computation")
    for old, new, s in zip(op.results, returned, outs, strict=True):
        local[old] = new
        current[old] = s


INLINE_DEPTH = 32  # calls of calls inlined at most this deep (recursion is not XLA's)


def inline_calls(fn: func.FuncOp) -> None:
    """The calls at the function's top level (JAX's `@relu`, `@_take`... helpers)
    replaced by their callees' bodies, so that their ops are partitioned like the
    others instead of computed whole."""
    from xdsl.traits import SymbolTable

    for _ in range(INLINE_DEPTH):
        calls = [op for op in fn.body.block.ops if isinstance(op, xla.CallOp | func.CallOp)]
        if not calls:
            return
        for call in calls:
            callee = SymbolTable.lookup_symbol(call, call.callee)
            if not isinstance(callee, func.FuncOp) or callee.is_declaration or len(callee.body.blocks) != 1:
                continue
            body = callee.body.block
            mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, call.operands, strict=True))
            returned: list[SSAValue] = []
            for inner in body.ops:
                if isinstance(inner, func.ReturnOp):
                    returned = [mapping.get(v, v) for v in inner.operands]
                    break
                clone = inner.clone(value_mapper=mapping)
                fn.body.block.insert_op_before(clone, call)
                mapping.update(zip(inner.results, clone.results, strict=True))
            for old, new in zip(call.results, returned, strict=True):
                old.replace_all_uses_with(new)
            call.detach()
            call.erase()


def _any_sharded(op: Operation, current: dict) -> bool:
    return any(v in current and not current[v].is_replicated for v in op.operands)


def _emit_whole(op: Operation, local: dict, current: dict, emit: Emitter, fallback: bool = True) -> None:
    """Operands gathered whole, the op computed whole: the fallback (`fallback`: for an
    op with no rule, or sharded operands its local form could not take), or an op on
    replicated values."""
    operands = [
        emit.reshard(local[v], current[v], Sharding.replicated(len(shape_of(v.type))), shape_of(v.type))
        if isinstance(v.type, TensorType)
        else local[v]
        for v in op.operands
    ]
    if fallback:
        emit.stats.count(emit.stats.whole, op.name)
    else:
        emit.stats.replicated += 1
    clone = op.clone(value_mapper=dict(zip(op.operands, operands, strict=True)))
    emit.add(clone)
    for old, new in zip(op.results, clone.results, strict=True):
        local[old] = new
        if isinstance(old.type, TensorType):
            current[old] = Sharding.replicated(len(shape_of(old.type)))


def _emit_sharded(op: Operation, shardings: dict, local: dict, current: dict, emit: Emitter, mesh: Mesh) -> bool:
    """The op computed on shards, with the reshards and all-reduces its rule asks for;
    False (nothing emitted) when it has no rule or the local op does not verify."""
    rule = rule_of(op)
    if rule is None or not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return False
    values = [(shardings.get(r), f) for r, f in zip(op.results, rule.results, strict=True)]
    values += [(current[o], f) for o, f in zip(op.operands, rule.operands, strict=True)]
    chosen = choose_factors(rule, values, mesh)
    if not chosen:
        return False  # nothing sharded: computed whole (no collective needed)
    wanted = [sharding_of(f, chosen) for f in rule.operands]
    result_shardings = [sharding_of(f, chosen) for f in rule.results]
    # the local op first, on stand-in operands, so that a failure emits nothing
    local_types = [
        tensor(s.local_shape(shape_of(r.type), mesh), elem_of(r.type))
        for r, s in zip(op.results, result_shardings, strict=True)
    ]
    probe = _local_op(
        op,
        [
            tensor(w.local_shape(shape_of(o.type), mesh), elem_of(o.type))
            for o, w in zip(op.operands, wanted, strict=True)
        ],
        local_types,
        wanted,
        mesh,
    )
    if probe is None:
        return False
    probe.operands = [
        emit.reshard(local[o], current[o], w, shape_of(o.type)) for o, w in zip(op.operands, wanted, strict=True)
    ]
    _mask_padding(op, rule, chosen, wanted, probe, local, emit, mesh)
    picked = [d for f, d in rule.picked.items() if f in chosen]
    if picked:  # a gather from rows spread over devices (masked_gather.py)
        indices, held = masked_gather.local_indices(emit, op, probe.operands[1], wanted[0], picked, mesh)  # type: ignore[arg-type]
        probe.operands = [probe.operands[0], indices]
    emit.add(probe)
    results = list(probe.results)
    if picked:
        results = [masked_gather.zero_unheld(emit, op, results[0], held)]  # type: ignore[arg-type]
    if isinstance(op, xla.IotaOp) and (axes := result_shardings[0].dims[op.get_iota_dimension()]):
        results = [emit.iota_offset(results[0], op.get_iota_dimension(), result_shardings[0], shape_of(op.output.type))]
    reduced = tuple(name for f in sorted(rule.reductions) for name in chosen.get(f, ()))
    if reduced:
        axes = tuple(name for name in mesh.axis_names if name in reduced)
        if rule.gathered:
            assert isinstance(op, xla.ReduceOp)
            results = emit.gather_and_reduce(results, axes, op, [local[v] for v in op.init_values])
        else:
            results = emit.all_reduce(results, axes, rule.combiner)
    emit.stats.sharded += 1
    for old, new, s in zip(op.results, results, result_shardings, strict=True):
        local[old] = new
        current[old] = s
    return True


def _mask_padding(
    op: Operation, rule: Rule, chosen: dict, wanted: list[Sharding], probe: Operation, local: dict, emit: Emitter, mesh: Mesh
) -> None:
    """The padding of uneven dimensions the op reduces or contracts over replaced in its
    (resharded) operands: by a reduce's init values (its reducer's identity, as the spec
    asks), by zeros in a contraction (in both operands: 0 * NaN is NaN). A gather's
    picked rows need none (its indices never reach the padding)."""
    summed = {f for f in rule.reductions if f in chosen and f not in rule.picked}
    if not summed:
        return
    operands = list(probe.operands)
    for i, (original, factors, sharding) in enumerate(zip(op.operands, rule.operands, wanted, strict=True)):
        shape = shape_of(original.type)
        uneven = sharding.uneven(shape, mesh)
        dims = [d for d, f in enumerate(factors) if f in summed and d in uneven]
        if not dims:
            continue
        fill = local[op.init_values[i]] if isinstance(op, xla.ReduceOp) else emit.zero(elem_of(original.type))
        operands[i] = emit.without_padding(operands[i], sharding, shape, dims, fill)
    probe.operands = operands


def _local_op(
    op: Operation, operand_types: list[Attribute], result_types: list[Attribute], wanted: list[Sharding], mesh: Mesh
) -> Operation | None:
    """A copy of `op` on local operands of these types with these result types (sizes in
    its properties made local), verified; None if it does not verify."""
    holder = Block(arg_types=operand_types)  # stand-ins until the real operands exist
    stand_ins = list(holder.args)
    clone = op.clone(value_mapper=dict(zip(op.operands, stand_ins, strict=True)))
    for result, t in zip(list(clone.results), result_types, strict=True):
        if result.type != t:
            Rewriter.replace_value_with_new_type(result, t)
    if isinstance(clone, xla.ConstantOp):  # a splat (rules.py): its value at the local shape
        (t,) = result_types
        first = next(iter(clone.value.get_values()))  # type: ignore[attr-defined]
        clone.properties["value"] = DenseIntOrFPElementsAttr.from_list(t, [first])  # type: ignore[arg-type]
    if isinstance(clone, xla.GatherOp):  # slices of dimensions sharded with the result's are local
        local = shape_of(operand_types[0])
        sizes = list(op.get_slice_sizes())  # type: ignore[attr-defined]
        for d, axes in enumerate(wanted[0].dims):
            if axes and sizes[d] != 1:
                sizes[d] = local[d]
        clone.properties["slice_sizes"] = i64_array(sizes)
    if isinstance(clone, xla.SliceOp):
        local = shape_of(operand_types[0])
        limits = list(op.get_limit_indices())
        for d, axes in enumerate(wanted[0].dims):
            if axes:
                limits[d] = local[d]
        clone.properties["limit_indices"] = i64_array(limits)
    try:
        clone.verify()
    except (VerifyException, ValueError, AssertionError):
        clone.erase(safe_erase=False)
        return None
    return clone
