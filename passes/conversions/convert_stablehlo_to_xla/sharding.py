"""convert-stablehlo-to-xla: shardings. A sharded program keeps them, in the `sdy`
dialect, for xla-spmd-partition; a program on one device drops them, as before.

A program is sharded when it runs on several devices: `mhlo.num_partitions *
mhlo.num_replicas` > 1 (without those attributes, when a mesh or a GSPMD sharding
spans several devices). Then (`prepare_shardings`, before the ops are converted):

* Shardy's form (JAX's default) stays: `sdy.mesh` at module level, `sdy.sharding` on
  function arguments and results and on ops, `sdy.sharding_constraint`, `sdy.reshard`,
  `sdy.sharding_group`, and `sdy.manual_computation` with its body converted to xla.
  `sdy.named_computation` is inlined and `sdy.propagation_barrier` is its operand
  (both only steer propagation); a constraint inside a reducer's computation (on its
  scalars) is dropped. A mesh of another device count than the program's is an error.
* GSPMD's form (`mhlo.sharding` strings, `jax_use_shardy_partitioner` off) becomes
  Shardy's: the strings are read (`gspmd.py`), one `sdy.mesh @mesh_gspmd_<i>` (axes
  `_axis_<j>`) is declared per arrangement of devices, shared by the shardings whose
  device factors nest, and a maximal sharding gets `@mesh_gspmd_maximal_<k>`;
  `mhlo.sharding` on arguments, results and ops becomes `sdy.sharding`; a `Sharding`
  custom call becomes `sdy.sharding_constraint` (its `unspecified_dims` open, its
  `shard_as`/`shard_like` group an `sdy.sharding_group`; `{manual}` and `{unknown}`
  constrain nothing); and the ops between `SPMDFullToShardShape` and
  `SPMDShardToFullShape` (shard_map's body, a call JAX names `@shmap_body`, inlined)
  become an `sdy.manual_computation`, its in and out shardings those of the `Sharding`
  before each `SPMDFullToShardShape` and of each `SPMDShardToFullShape`, manual on
  every axis of the mesh, or on those of `last_tile_dims={manual}`.

A malformed sharding string, a sharding over another number of devices than the
program's, or a manual region that cannot be cut out of its block is a located error.
Module attributes `mhlo.num_partitions` and `mhlo.num_replicas` stay on a sharded
program."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xla_opt.dialects import sdy
from xla_opt.dialects.sdy.ops import mesh_problem

from .common import Patterns, fail
from .gspmd import Gspmd, MalformedSharding, MeshPlan, parse_sharding, parse_unspecified_dims

PATTERNS = Patterns()

KEPT_MODULE_ATTRIBUTES = ("mhlo.num_partitions", "mhlo.num_replicas")
GSPMD = "mhlo.sharding"
SHARDING = sdy.SHARDING
FULL_TO_SHARD, SHARD_TO_FULL = "SPMDFullToShardShape", "SPMDShardToFullShape"
# ops whose regions compute on scalars (a reducer, a comparator): shardings mean nothing there
SCALAR_COMPUTATIONS = frozenset(
    f"stablehlo.{name}"
    for name in ("all_reduce", "reduce_scatter", "reduce", "reduce_window", "select_and_scatter", "scatter", "sort", "map")
)


def custom_call_target(op: Operation) -> str | None:
    if op.name != "stablehlo.custom_call":
        return None
    target = op.properties.get("call_target_name") or op.attributes.get("call_target_name")
    return target.data if isinstance(target, StringAttr) else None


def _module_count(module: ModuleOp, name: str) -> int | None:
    value = module.attributes.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else None


def _replace_by(op: Operation, values: Sequence[SSAValue]) -> None:
    """Erase `op`, its results replaced by `values`."""
    for result, value in zip(op.results, values, strict=True):
        result.replace_all_uses_with(value)
    op.detach()
    op.erase()


def _inline(op: Operation, region: Region, operands: Sequence[SSAValue]) -> None:
    """Replace `op` by its one-block `region`'s ops, the block's arguments by
    `operands`, its results by what the region's terminator returns."""
    block = region.blocks[0]
    terminator = block.last_op
    assert terminator is not None
    returned = list(terminator.operands)
    terminator.detach()
    terminator.erase()
    Rewriter.inline_block(block, InsertPoint.before(op), operands)
    _replace_by(op, returned)


# --------------------------------------------------------------------------------------
# One device: the shardings dropped
# --------------------------------------------------------------------------------------


def drop_shardings(module: ModuleOp) -> None:
    """A program on one device: every sdy op, mesh and attribute removed (manual and
    named computations inlined; a one-device mesh makes local types global), as the
    import always did. GSPMD's custom calls are identities (custom_call.py)."""
    for op in list(module.walk()):
        if op.attributes:
            for name in [n for n in op.attributes if n.startswith("sdy.")]:
                del op.attributes[name]
        if not op.name.startswith("sdy.") or op.parent is None:
            continue
        if isinstance(op, sdy.MeshOp | sdy.ShardingGroupOp):
            op.detach()
            op.erase()
        elif isinstance(op, sdy.ManualComputationOp | sdy.NamedComputationOp):
            _inline(op, op.body, list(op.operands))
        elif isinstance(op, sdy.ShardingConstraintOp | sdy.ReshardOp | sdy.PropagationBarrierOp):
            _replace_by(op, [op.input])


# --------------------------------------------------------------------------------------
# GSPMD's form as Shardy's
# --------------------------------------------------------------------------------------


@dataclass
class _Site:
    """A GSPMD sharding string in the program: on an op, or on a function's argument
    (`index`) or result (`index`, `result`)."""

    op: Operation
    text: str
    parsed: Gspmd | tuple[Gspmd, ...]
    index: int | None = None
    result: bool = False


def _leaves(parsed: Gspmd | tuple[Gspmd, ...]) -> tuple[Gspmd, ...]:
    return parsed if isinstance(parsed, tuple) else (parsed,)


@dataclass
class GspmdImport:
    """GSPMD's shardings of a module as Shardy's (see the module doc)."""

    module: ModuleOp
    devices: int
    sites: list[_Site]
    plan: MeshPlan = field(default_factory=MeshPlan)
    mesh_names: list[str] = field(default_factory=list)
    meshes: list[sdy.MeshAttr] = field(default_factory=list)
    maximal: dict[int, str] = field(default_factory=dict)
    new_meshes: list[sdy.MeshOp] = field(default_factory=list)

    # ---- meshes ----------------------------------------------------------------------
    def _symbol(self, base: str) -> str:
        taken = {
            op.sym_name.data  # type: ignore[attr-defined]
            for op in (*self.module.ops, *self.new_meshes)
            if isinstance(getattr(op, "sym_name", None), StringAttr)
        }
        name, i = base, 0
        while name in taken:
            i += 1
            name = f"{base}_{i}"
        return name

    def _declare(self, base: str, mesh: sdy.MeshAttr, where: Operation) -> str:
        name = self._symbol(base)
        op = sdy.MeshOp(name, mesh)
        op.location = where.location
        self.new_meshes.append(op)
        return name

    def plan_meshes(self) -> None:
        """Every tiled sharding's devices checked against the program's, then the
        meshes that express them all."""
        for site in self.sites:
            for g in _leaves(site.parsed):
                if g.kind == "maximal" and g.device is not None and g.device >= self.devices:
                    fail(site.op, f"{GSPMD} {site.text!r}: device {g.device} of a program of {self.devices} devices")
                if g.kind != "tiled":
                    continue
                count = len(g.devices())
                if count != self.devices:
                    fail(site.op, f"{GSPMD} {site.text!r} spans {count} devices but the program has {self.devices}")
                self.plan.add(g)
        for i, (sizes, ids) in enumerate(self.plan.meshes()):
            mesh = sdy.MeshAttr([(f"_axis_{j}", size) for j, size in enumerate(sizes)], ids)
            self.meshes.append(mesh)
            self.mesh_names.append(self._declare(f"mesh_gspmd_{i}", mesh, self.sites[0].op))

    def default_mesh(self) -> tuple[str, sdy.MeshAttr]:
        """The mesh of replicated shardings: the first mesh, or one axis over every
        device when no sharding is tiled."""
        if not self.meshes:
            mesh = sdy.MeshAttr([("_axis_0", self.devices)])
            self.meshes.append(mesh)
            self.mesh_names.append(self._declare("mesh_gspmd_0", mesh, self.sites[0].op))
        return self.mesh_names[0], self.meshes[0]

    def maximal_mesh(self, device: int, where: Operation) -> str:
        if device not in self.maximal:
            self.maximal[device] = self._declare(f"mesh_gspmd_maximal_{device}", sdy.MeshAttr([], [device]), where)
        return self.maximal[device]

    def placed(self, g: Gspmd) -> tuple[str, sdy.MeshAttr, list[list[str]]]:
        """A tiled sharding's mesh and the axis names of each tile dimension."""
        index, axes = self.plan.place(g)
        mesh = self.meshes[index]
        names = mesh.axis_names()
        return self.mesh_names[index], mesh, [[names[a] for a in tile] for tile in axes]

    # ---- shardings -------------------------------------------------------------------
    def tensor_sharding(
        self, g: Gspmd, t: Attribute, where: Operation, open_dims: Sequence[int] = ()
    ) -> sdy.TensorShardingAttr | None:
        """The Shardy sharding of a value of type `t`, or None (manual, unknown, or
        not a tensor: nothing to say)."""
        if not isinstance(t, TensorType) or g.kind in ("manual", "unknown"):
            return None
        rank = len(t.get_shape())

        def dims(axes: Sequence[Sequence[str]]) -> list[sdy.DimShardingAttr]:
            return [sdy.DimShardingAttr(list(a), d not in open_dims) for d, a in enumerate(axes)]

        if g.kind == "maximal":
            return sdy.TensorShardingAttr(self.maximal_mesh(g.device or 0, where), [])
        if g.kind == "replicated":
            return sdy.TensorShardingAttr(self.default_mesh()[0], dims([[]] * rank))
        if g.data_rank() != rank:
            fail(where, f"{GSPMD} {g} has {g.data_rank()} tile dimensions for a tensor of rank {rank} ({t})")
        name, _, axes = self.placed(g)
        return sdy.TensorShardingAttr(name, dims(axes[:rank]))

    def manual_axes(self, g: Gspmd, fallback_mesh: str) -> tuple[str, list[str]]:
        """The mesh and the manual axes of a `SPMDFullToShardShape`'s sharding: every
        axis of the mesh for `{manual}`, else the axes of its manual tile dimensions."""
        if g.kind == "manual":
            if fallback_mesh not in self.mesh_names:  # a maximal operand sharding: the default mesh
                fallback_mesh = self.default_mesh()[0]
            mesh = self.meshes[self.mesh_names.index(fallback_mesh)]
            return fallback_mesh, mesh.axis_names()
        name, _, axes = self.placed(g)
        manual = [a for d, kind in enumerate(g.last_tile_dims) for a in axes[g.data_rank() + d] if kind == "manual"]
        return name, manual

    # ---- the rewrite -----------------------------------------------------------------
    def run(self) -> None:
        self.plan_meshes()
        for site in self.sites:
            if isinstance(site.op, func.FuncOp):
                self.function_site(site)
        for block in _blocks(self.module):
            if _within(block, self.module):  # not in a function inlined and erased meanwhile
                ManualRegions(self, block).run()
        for site in self.sites:
            if site.op.parent is None or isinstance(site.op, func.FuncOp):
                continue
            target = custom_call_target(site.op)
            if target == "Sharding":
                self.constraint(site)
            elif target in (FULL_TO_SHARD, SHARD_TO_FULL):
                fail(site.op, f"{target} outside a manual region (no matching {FULL_TO_SHARD} and {SHARD_TO_FULL})")
            elif GSPMD in site.op.attributes:
                self.op_site(site)
        block = self.module.body.block
        for mesh in reversed(self.new_meshes):
            if block.first_op is None:
                block.add_op(mesh)
            else:
                block.insert_op_before(mesh, block.first_op)

    def function_site(self, site: _Site) -> None:
        f = site.op
        assert isinstance(f, func.FuncOp) and site.index is not None
        types = f.function_type.outputs.data if site.result else f.function_type.inputs.data
        name = "res_attrs" if site.result else "arg_attrs"
        table = f.properties.get(name) or f.attributes.get(name)
        assert isinstance(table, ArrayAttr)
        entries = [dict(d.data) for d in table.data]  # type: ignore[attr-defined]
        entry = entries[site.index]
        del entry[GSPMD]
        if isinstance(site.parsed, Gspmd):
            sharding = self.tensor_sharding(site.parsed, types[site.index], f)
            if sharding is not None:
                entry[SHARDING] = sharding
        f.properties[name] = ArrayAttr([DictionaryAttr(e) for e in entries])
        f.attributes.pop(name, None)

    def constraint(self, site: _Site) -> None:
        """A `Sharding` custom call: a constraint (and a sharding group), or nothing."""
        op = site.op
        value = op.operands[0]
        if not isinstance(site.parsed, Gspmd):
            fail(op, f"a Sharding custom call of a tuple sharding {site.text!r}")
        g = site.parsed
        config = op.properties.get("backend_config") or op.attributes.get("backend_config")
        open_dims = parse_unspecified_dims(config.data) if isinstance(config, StringAttr) else []
        sharding = self.tensor_sharding(g, value.type, op, open_dims)
        result = value
        if sharding is not None:
            constraint = sdy.ShardingConstraintOp(value, sharding)
            constraint.location = op.location
            Rewriter.insert_op(constraint, InsertPoint.before(op))
            result = constraint.result
        if g.shard_group is not None:
            group = sdy.ShardingGroupOp(result, g.shard_group[1])
            group.location = op.location
            Rewriter.insert_op(group, InsertPoint.before(op))
        _replace_by(op, [result])

    def op_site(self, site: _Site) -> None:
        """`mhlo.sharding` on another op: `sdy.sharding`, one sharding per result."""
        op = site.op
        del op.attributes[GSPMD]
        leaves = _leaves(site.parsed)
        if len(leaves) != len(op.results):
            fail(op, f"{GSPMD} {site.text!r} has {len(leaves)} shardings for {len(op.results)} results")
        shardings = [self.tensor_sharding(g, r.type, op) for g, r in zip(leaves, op.results, strict=True)]
        if all(s is not None for s in shardings):
            op.attributes[SHARDING] = sdy.TensorShardingPerValueAttr(shardings)  # type: ignore[arg-type]


def _blocks(op: Operation) -> list[Block]:
    return [block for inner in op.walk() for region in inner.regions for block in region.blocks]


def _within(block: Block, module: ModuleOp) -> bool:
    parent = block.parent_op()
    while parent is not None and parent is not module:
        parent = parent.parent_op()
    return parent is module


# --------------------------------------------------------------------------------------
# shard_map's regions: SPMDFullToShardShape ... SPMDShardToFullShape as manual computations
# --------------------------------------------------------------------------------------


class ManualRegions:
    """The manual regions of one block: the ops between `SPMDFullToShardShape`s and
    `SPMDShardToFullShape`s, grouped by the values they share, each cut out as an
    `sdy.manual_computation` in the place of its last `SPMDFullToShardShape`."""

    def __init__(self, gspmd: GspmdImport, block: Block):
        self.gspmd = gspmd
        self.block = block
        self.ops = list(block.ops)
        self.position = {op: i for i, op in enumerate(self.ops)}
        self.parent: dict[Operation, Operation] = {}

    def _find(self, op: Operation) -> Operation:
        while self.parent.get(op, op) is not op:
            op = self.parent[op]
        return op

    def _join(self, a: Operation, b: Operation) -> None:
        self.parent.setdefault(a, a)
        self.parent.setdefault(b, b)
        self.parent[self._find(a)] = self._find(b)

    def _in_block(self, op: Operation | None) -> Operation | None:
        """The op of this block holding `op` (itself, or an ancestor)."""
        while op is not None and op.parent_block() is not self.block:
            op = op.parent_op()
        return op

    def run(self) -> None:
        starts = [op for op in self.ops if custom_call_target(op) == FULL_TO_SHARD]
        ends = [op for op in self.ops if custom_call_target(op) == SHARD_TO_FULL]
        if not starts and not ends:
            return
        for start in starts:  # forward from each region's entries
            self.parent.setdefault(start, start)
            todo = [start]
            while todo:
                op = todo.pop()
                for result in op.results:
                    for use in result.uses:
                        user = self._in_block(use.operation)
                        if user is None or user in self.parent:
                            if user is not None:
                                self._join(op, user)
                            continue
                        self._join(op, user)
                        if custom_call_target(user) != SHARD_TO_FULL:
                            todo.append(user)
        for end in ends:  # and backward from each exit, through ops used only inside
            self.parent.setdefault(end, end)
            todo = [end]
            while todo:
                op = todo.pop()
                for operand in op.operands:
                    owner = self._in_block(operand.owner) if isinstance(operand.owner, Operation) else None
                    if owner is None:
                        continue  # an argument of the block: from outside
                    if owner in self.parent:
                        self._join(op, owner)
                    elif all(self._in_block(u.operation) in self.parent for r in owner.results for u in r.uses):
                        self._join(op, owner)
                        todo.append(owner)
        groups: dict[Operation, list[Operation]] = {}
        for op in self.ops:
            if op in self.parent:
                groups.setdefault(self._find(op), []).append(op)
        for members in groups.values():
            ManualRegion(self, members).build()


@dataclass
class ManualRegion:
    """One manual region's ops (in block order) and what it becomes."""

    regions: ManualRegions
    members: list[Operation]

    def _fail(self, op: Operation, message: str):
        fail(op, message)

    def _site(self, op: Operation) -> tuple[Gspmd, list[int]]:
        text = op.attributes.get(GSPMD)
        if not isinstance(text, StringAttr):
            self._fail(op, f"{custom_call_target(op)} has no {GSPMD}")
        try:
            parsed = parse_sharding(text.data)
        except MalformedSharding as e:
            self._fail(op, str(e))
        if not isinstance(parsed, Gspmd):
            self._fail(op, f"{custom_call_target(op)} of a tuple sharding {text.data!r}")
        config = op.properties.get("backend_config") or op.attributes.get("backend_config")
        return parsed, parse_unspecified_dims(config.data) if isinstance(config, StringAttr) else []

    def build(self) -> None:
        gspmd = self.regions.gspmd
        starts = [op for op in self.members if custom_call_target(op) == FULL_TO_SHARD]
        ends = [op for op in self.members if custom_call_target(op) == SHARD_TO_FULL]
        body = [op for op in self.members if op not in starts and op not in ends]
        anchor = starts[-1] if starts else ends[0]
        # the entries: each SPMDFullToShardShape's operand, its sharding that of the
        # `Sharding` before it (dropped when nothing else uses it)
        inputs: list[SSAValue] = []
        in_shardings: list[sdy.TensorShardingAttr] = []
        meshes: set[tuple[str, tuple[str, ...]]] = set()
        dropped: list[Operation] = []
        for start in starts:
            value = start.operands[0]
            before = value.owner
            g_in: Gspmd = Gspmd("replicated")
            open_in: list[int] = []
            if isinstance(before, Operation) and custom_call_target(before) == "Sharding":
                g_in, open_in = self._site(before)
                if value.has_one_use():
                    dropped.append(before)
                    value = before.operands[0]
            else:
                self._fail(start, f"{FULL_TO_SHARD}'s operand is no Sharding custom call: its sharding is unknown")
            sharding = gspmd.tensor_sharding(g_in, value.type, before, open_in)
            if sharding is None:
                self._fail(before, f"the sharding of a manual region's operand must be tiled or replicated, got {g_in}")
            g_manual, _ = self._site(start)
            mesh, manual = gspmd.manual_axes(g_manual, sharding.mesh_name() or "")
            if sharding.mesh_name() != mesh:
                if not sharding.is_fully_replicated():
                    self._fail(start, f"its operand's sharding {sharding} is on another mesh than its manual axes (@{mesh})")
                sharding = sdy.TensorShardingAttr(mesh, sharding.dim_shardings)
            meshes.add((mesh, tuple(manual)))
            inputs.append(value)
            in_shardings.append(sharding)
        out_shardings: list[sdy.TensorShardingAttr] = []
        for end in ends:
            g_out, open_out = self._site(end)
            sharding = gspmd.tensor_sharding(g_out, end.results[0].type, end, open_out)
            if sharding is None:
                self._fail(end, f"the sharding of a manual region's result must be tiled or replicated, got {g_out}")
            out_shardings.append(sharding)
        if not meshes:  # no entries: manual on every axis of the results' mesh
            name = out_shardings[0].mesh_name() or gspmd.default_mesh()[0]
            meshes.add((name, tuple(gspmd.meshes[gspmd.mesh_names.index(name)].axis_names())))
        if len(meshes) != 1:
            self._fail(anchor, f"the entries of one manual region differ in mesh or manual axes: {sorted(meshes)}")
        ((mesh, manual),) = meshes
        for i, sharding in enumerate(out_shardings):
            if sharding.mesh_name() != mesh:
                if not sharding.is_fully_replicated():
                    self._fail(ends[i], f"its sharding {sharding} is on another mesh than the region's (@{mesh})")
                out_shardings[i] = sdy.TensorShardingAttr(mesh, sharding.dim_shardings)
        region = self._body(starts, ends, body)
        op = sdy.ManualComputationOp(
            inputs,
            [end.results[0].type for end in ends],
            sdy.TensorShardingPerValueAttr(in_shardings),
            sdy.TensorShardingPerValueAttr(out_shardings),
            sdy.ManualAxesAttr(list(manual)),
            region,
        )
        op.location = anchor.location
        Rewriter.insert_op(op, InsertPoint.after(anchor))
        position = self.regions.position
        for end, result in zip(ends, op.results, strict=True):
            for use in list(end.results[0].uses):
                user = self.regions._in_block(use.operation)
                if user is not None and position.get(user, len(position)) < position[anchor]:
                    self._fail(end, f"its result is used before the manual region's last {FULL_TO_SHARD}")
            end.results[0].replace_all_uses_with(result)
        for old in [*ends, *starts, *dropped]:
            old.detach()
            old.erase()

    def _body(self, starts: list[Operation], ends: list[Operation], body: list[Operation]) -> Region:
        """The region: one argument per entry (its shard), the body's ops moved in
        (constants they use from outside cloned in; calls inlined), an sdy.return of
        what each exit takes."""
        block = Block(arg_types=[start.results[0].type for start in starts])
        for start, arg in zip(starts, block.args, strict=True):
            start.results[0].replace_all_uses_with(arg)
        inside = set(body)
        copies: dict[Operation, Operation] = {}

        def defined_inside(value: SSAValue) -> bool:
            owner = value.owner
            if isinstance(owner, Block):
                return owner is block or _is_within(owner, inside)
            return owner in inside or owner.parent_block() is block or _is_within(owner, inside)

        for op in body:
            op.detach()
        for op in body:
            for inner in op.walk():
                for i, operand in enumerate(inner.operands):
                    if defined_inside(operand):
                        continue
                    owner = operand.owner
                    if not isinstance(owner, Operation) or owner.name != "stablehlo.constant":
                        self._fail(inner, f"a manual region's op uses a value from outside the region, not through {FULL_TO_SHARD}")
                    if owner not in copies:
                        copies[owner] = owner.clone()
                        block.add_op(copies[owner])
                    inner.operands = [*inner.operands[:i], copies[owner].results[0], *inner.operands[i + 1 :]]
            block.add_op(op)
        returned = [end.operands[0] for end in ends]
        block.add_op(sdy.ReturnOp(returned))
        for op in list(block.ops):
            if op.name == "func.call":
                _inline_call(op, self.regions.gspmd.module)
        return Region(block)


def _is_within(op: Operation | Block, ops: set[Operation]) -> bool:
    """Whether `op` (or a block) lies in a region of one of `ops`."""
    parent = op.parent_op()
    while parent is not None:
        if parent in ops:
            return True
        parent = parent.parent_op()
    return False


def _inline_call(call: Operation, module: ModuleOp) -> None:
    """A `func.call` of a function of the module, replaced by a copy of its body (the
    function erased when nothing else calls it)."""
    callee = call.properties.get("callee") or call.attributes.get("callee")
    name = callee.root_reference.data  # type: ignore[union-attr]
    target = next((f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name), None)
    if target is None or not target.body.blocks:
        return
    copy = target.body.clone()
    _inline(call, copy, list(call.operands))
    still_called = any(
        (c := op.properties.get("callee") or op.attributes.get("callee")) is not None
        and getattr(c, "root_reference", None) == StringAttr(name)
        for op in module.walk()
    )
    if not still_called:
        target.detach()
        target.erase()


# --------------------------------------------------------------------------------------
# Deciding, and checking the meshes
# --------------------------------------------------------------------------------------


def _gspmd_sites(module: ModuleOp) -> list[_Site]:
    """Every GSPMD sharding string of the module, parsed (a located error if one does
    not parse)."""
    sites: list[_Site] = []

    def parse(op: Operation, text: str) -> Gspmd | tuple[Gspmd, ...]:
        try:
            return parse_sharding(text)
        except MalformedSharding as e:
            fail(op, f"malformed {GSPMD}: {e}")

    for op in module.walk():
        if isinstance(op, func.FuncOp):
            for result, name in ((False, "arg_attrs"), (True, "res_attrs")):
                table = op.properties.get(name) or op.attributes.get(name)
                for i, entry in enumerate(table.data if isinstance(table, ArrayAttr) else ()):
                    text = entry.data.get(GSPMD)  # type: ignore[attr-defined]
                    if isinstance(text, StringAttr):
                        sites.append(_Site(op, text.data, parse(op, text.data), i, result))
        elif op.attributes and isinstance(text := op.attributes.get(GSPMD), StringAttr):
            sites.append(_Site(op, text.data, parse(op, text.data)))
    return sites


def _implied_devices(module: ModuleOp, sites: list[_Site]) -> int:
    """The device count of a program that does not declare it: its meshes' and its
    shardings'."""
    counts = [op.mesh.total_size() for op in module.ops if isinstance(op, sdy.MeshOp) and not op.mesh.is_maximal()]
    for site in sites:
        for g in _leaves(site.parsed):
            if g.kind == "tiled":
                counts.append(len(g.devices()))
    return max(counts, default=1)


def _check_meshes(module: ModuleOp, devices: int) -> None:
    """Every mesh of the program spans its devices (a maximal or an empty mesh: one)."""
    for op in module.ops:
        if not isinstance(op, sdy.MeshOp):
            continue
        if (problem := mesh_problem(op.mesh)) is not None:
            fail(op, f"mesh {op.mesh}: {problem}")
        if op.mesh.axes.data and op.mesh.total_size() != devices:
            fail(op, f"mesh @{op.sym_name.data} has {op.mesh.total_size()} devices but the program has {devices} "
                 "(mhlo.num_partitions * mhlo.num_replicas)")  # fmt: skip
        if op.mesh.is_maximal() and op.mesh.device_ids()[0] >= devices:
            fail(op, f"maximal mesh @{op.sym_name.data} is on device {op.mesh.device_ids()[0]} of {devices}")


def prepare_shardings(module: ModuleOp) -> bool:
    """Before the ops are converted: keep a sharded program's shardings in Shardy's
    form (GSPMD's converted) and check them, or drop a one-device program's. Returns
    whether the program is sharded (its module attributes then stay)."""
    partitions = _module_count(module, "mhlo.num_partitions")
    replicas = _module_count(module, "mhlo.num_replicas")
    sites = _gspmd_sites(module)
    if partitions is None and replicas is None:
        devices = _implied_devices(module, sites)
    else:
        devices = (partitions or 1) * (replicas or 1)
    if devices <= 1:
        drop_shardings(module)
        return False
    _check_meshes(module, devices)
    if sites:
        GspmdImport(module, devices, sites).run()
    return True


# --------------------------------------------------------------------------------------
# The patterns of the walk: sdy ops that do not stay
# --------------------------------------------------------------------------------------


@PATTERNS.rule("sdy.propagation_barrier")
def _barrier(op, b):
    """Only steers propagation: its operand."""
    return [op.operands[0]]


@PATTERNS.rule("sdy.named_computation")
def _named(op, b):
    """A named body propagation sees through: inlined."""
    block = op.regions[0].blocks[0]
    terminator = block.last_op
    returned = list(terminator.operands)
    terminator.detach()
    terminator.erase()
    Rewriter.inline_block(block, InsertPoint.before(op), list(op.operands))
    return returned


class ScalarComputationShardings(RewritePattern):
    """A sharding constraint in a reducer's or comparator's computation (on scalars,
    as JAX writes one in shard_map's psum) constrains nothing: its operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, sdy.ShardingConstraintOp | sdy.ReshardOp):
            parent = op.parent_op()
            if parent is not None and parent.name in SCALAR_COMPUTATIONS:
                rewriter.replace(op, [], [op.input])


PATTERNS.append(ScalarComputationShardings())

# sdy ops that stay in the converted program (UnknownOps leaves them alone)
KEPT_OPS = frozenset(
    cls.name
    for cls in (
        sdy.MeshOp,
        sdy.ShardingConstraintOp,
        sdy.ReshardOp,
        sdy.ManualComputationOp,
        sdy.ReturnOp,
        sdy.ShardingGroupOp,
    )
)

__all__ = ["KEPT_MODULE_ATTRIBUTES", "KEPT_OPS", "PATTERNS", "drop_shardings", "prepare_shardings"]
