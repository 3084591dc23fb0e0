"""The ops of the `sdy` dialect that JAX's programs hold, parsed and printed as Shardy
does (`shardy/dialect/sdy/ir/ops.td`), verified by Shardy's rules:

    sdy.mesh @mesh = <["x"=2, "y"=2]>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
    %2 = sdy.reshard %1 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>
    %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
             manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
      ...
      sdy.return %5 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    sdy.sharding_group %3 group_id=0 : tensor<8x4xf32>
    %4 = sdy.propagation_barrier %3 allowed_direction=FORWARD : tensor<8x4xf32>
    %5 = sdy.named_computation<"f">(%4) (%arg1: tensor<8x4xf32>) {...} : (tensor<8x4xf32>) -> tensor<8x4xf32>

A sharding's mesh is resolved in the module holding the op (`@mesh` names an
`sdy.mesh` of it). The shape rules are `dialects/shapes/sharding.py`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.sharding import (
    check_manual_axes_first,
    check_mesh,
    check_sharding,
    local_shape,
)

from .attrs import ManualAxesAttr, MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr

# --------------------------------------------------------------------------------------
# Resolving and checking shardings
# --------------------------------------------------------------------------------------


def _module_of(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def mesh_problem(mesh: MeshAttr) -> str | None:
    """What is wrong with a mesh (`check_mesh`), or None."""
    axes = [(a.get_name(), a.get_size()) for a in mesh.get_axes()]
    ids = [d.data for d in mesh.explicit_device_ids.data]
    try:
        check_mesh(axes, ids)
    except ShapeError as e:
        return str(e)
    return None


def resolve_mesh(op: Operation, sharding: TensorShardingAttr) -> MeshAttr:
    """The mesh of `sharding`, found from `op`: an inline mesh (checked), or the mesh
    of the `sdy.mesh` it names in `op`'s module. VerifyException when the symbol is
    missing or not an `sdy.mesh` (a mesh of an op not yet in a module is not
    checked: None there is a VerifyException too)."""
    if isinstance(sharding.mesh, MeshAttr):
        if (problem := mesh_problem(sharding.mesh)) is not None:
            raise VerifyException(f"inline mesh {sharding.mesh}: {problem}")
        return sharding.mesh
    name = sharding.mesh_name()
    module = _module_of(op)
    if module is None:
        raise VerifyException(f"sharding names mesh @{name} but the op is in no module")
    for candidate in module.body.block.ops:
        symbol = candidate.properties.get("sym_name") or candidate.attributes.get("sym_name")
        if isinstance(symbol, StringAttr) and symbol.data == name:
            if not isinstance(candidate, MeshOp):
                raise VerifyException(f"@{name} is a '{candidate.name}', not an sdy.mesh")
            return candidate.mesh
    raise VerifyException(f"unknown mesh @{name}: no sdy.mesh of that name in the module")


def enclosing_manual_axes(op: Operation) -> set[str]:
    """The axes the manual computations around `op` are manual on."""
    axes: set[str] = set()
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ManualComputationOp):
            axes.update(parent.manual_axes.get_axes())
        parent = parent.parent_op()
    return axes


def _shape(t: Attribute) -> tuple[int, ...] | None:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def check_value_sharding(op: Operation, sharding: TensorShardingAttr, t: Attribute, what: str) -> MeshAttr:
    """The rules of a sharding of a value of type `t` held by `op` (see
    `check_sharding`), as a VerifyException naming `what`; returns its mesh."""
    mesh = resolve_mesh(op, sharding)
    try:
        check_sharding(sharding, mesh, _shape(t), enclosing_manual_axes(op))
    except ShapeError as e:
        raise VerifyException(f"{what} {sharding}: {e}") from None
    return mesh


def check_shardings_per_value(
    op: Operation, shardings: TensorShardingPerValueAttr, types: Sequence[Attribute], what: str, values: str
) -> list[MeshAttr]:
    """One valid sharding per value (a list of one sharding of a maximal mesh, or fully
    replicated, also stands for an op without values, as in Shardy)."""
    items = shardings.get_shardings()
    if not types and len(items) == 1 and (items[0].is_fully_replicated() or resolve_mesh(op, items[0]).is_maximal()):
        return [check_value_sharding(op, items[0], TensorType(i32, []), what)]
    if len(items) != len(types):
        raise VerifyException(f"{what} has {len(items)} shardings for {len(types)} {values}")
    return [
        check_value_sharding(op, s, t, f"{what} #{i}" if len(items) > 1 else what)
        for i, (s, t) in enumerate(zip(items, types, strict=True))
    ]


# --------------------------------------------------------------------------------------
# Parsing and printing helpers
# --------------------------------------------------------------------------------------


def _parse_keyword_equal(parser: Parser, keyword: str) -> None:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")


def _parse_functional_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, FunctionType):
        parser.raise_error(f"expected a function type (operands) -> results, got {t}", pos, parser.pos)
    return list(t.inputs.data), list(t.outputs.data)


def _parse_body(parser: Parser) -> Region:
    """`(%arg1: T loc(...), ...) {...}`: a region whose block arguments precede it, each
    with an optional location (JAX prints them for shard_map bodies with debug info)."""
    locations: list[Attribute | None] = []

    def argument():  # type: ignore[no-untyped-def]
        arg = parser.parse_argument()
        locations.append(parser.parse_optional_location())
        return arg

    arguments = parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
    region = parser.parse_region(arguments)
    if region.blocks:
        for arg, location in zip(region.blocks[0].args, locations, strict=False):
            if location is not None:
                arg.location = location
    return region


def _parse_region_tail(
    parser: Parser, operands: list[UnresolvedOperand]
) -> tuple[Region, dict[str, Attribute], list[SSAValue], list[Attribute]]:
    """`(%arg: T, ...) {...} attr-dict : (operand types) -> result types`, after the
    operands: the body, the attributes, the operands resolved, the result types."""
    body = _parse_body(parser)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    ins, outs = _parse_functional_type(parser)
    return body, attrs, parser.resolve_operands(operands, ins, pos), outs


def _print_body(printer: Printer, region: Region) -> None:
    """`(%arg1: T, ...) {...}` (Shardy's SingleBlockRegionNoBlockId)."""
    block = region.blocks.first
    printer.print_string(" (")
    if block is not None:
        printer.print_list(block.args, printer.print_block_argument)
    printer.print_string(") ")
    printer.print_region(region, print_entry_block_args=False, print_block_terminators=True)


def _finish_unary(cls, parser: Parser, operand: UnresolvedOperand, props: dict[str, Attribute]) -> Operation:
    """`attr-dict : T` after the operand and properties of an op whose result (if
    any) has its operand's type."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    t = parser.parse_type()
    (value,) = parser.resolve_operands([operand], [t], pos)
    results = [t] if cls.get_irdl_definition().results else []
    return cls.create(operands=[value], result_types=results, properties=props, attributes=attrs)


def _print_value_op(printer: Printer, op: Operation, value: SSAValue, middle: str | Attribute) -> None:
    """` %x <middle> attr-dict : T`: an op on one value (its middle, text or a sharding
    printed bare), of the value's type."""
    printer.print_string(" ")
    printer.print_operand(value)
    printer.print_string(" ")
    if isinstance(middle, str):
        printer.print_string(middle)
    else:
        middle.print_parameters(printer)  # type: ignore[attr-defined]
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


# --------------------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------------------


@irdl_op_definition
class MeshOp(IRDLOperation):
    """`sdy.mesh @name = <...>`: a named mesh, at module level. Its mesh follows
    Shardy's rules (`check_mesh`): axis sizes of at least 1 and distinct names,
    non-negative device ids, at most one without axes, and otherwise a permutation of
    all devices other than the identity."""

    name = "sdy.mesh"

    sym_name = prop_def(StringAttr)
    mesh = prop_def(MeshAttr)

    traits = traits_def(SymbolOpInterface(), HasParent(ModuleOp))

    def __init__(self, sym_name: str, mesh: MeshAttr):
        super().__init__(properties={"sym_name": StringAttr(sym_name), "mesh": mesh})

    def verify_(self) -> None:
        if (problem := mesh_problem(self.mesh)) is not None:
            raise VerifyException(f"mesh {self.mesh}: {problem}")

    @classmethod
    def parse(cls, parser: Parser) -> MeshOp:
        name = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        mesh = MeshAttr.parse_body(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls(name.data, mesh)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" = ")
        self.mesh.print_parameters(printer)
        printer.print_op_attributes(self.attributes)


class _ShardingOfValueOp(IRDLOperation):
    """`sdy.<op> %x <sharding> attr-dict : T`: a value with a sharding, the result of
    the operand's type. The sharding is valid for the value's type on its mesh."""

    input = operand_def()
    sharding = prop_def(TensorShardingAttr)
    result = result_def()

    def __init__(self, input: SSAValue, sharding: TensorShardingAttr):
        super().__init__(operands=[input], result_types=[input.type], properties={"sharding": sharding})

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException(f"result type {self.result.type} differs from operand type {self.input.type}")
        check_value_sharding(self, self.sharding, self.input.type, "sharding")

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        sharding = TensorShardingAttr.parse_body(parser)
        return _finish_unary(cls, parser, operand, {"sharding": sharding})

    def print(self, printer: Printer) -> None:
        _print_value_op(printer, self, self.input, self.sharding)


@irdl_op_definition
class ShardingConstraintOp(_ShardingOfValueOp):
    """`sdy.sharding_constraint`: the value, constrained to have this sharding (its
    uses see it so sharded). Its sharding has one dimension sharding per dimension of
    the value, on axes of its mesh, each used once."""

    name = "sdy.sharding_constraint"


@irdl_op_definition
class ReshardOp(_ShardingOfValueOp):
    """`sdy.reshard`: the value, moved to this sharding (what propagation inserts where
    shardings disagree). Its sharding follows the rules of sharding_constraint's."""

    name = "sdy.reshard"


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sdy.return`: the values a manual or named computation's body returns."""

    name = "sdy.return"

    results_ = var_operand_def()

    traits = traits_def(IsTerminator())

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)])

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, ManualComputationOp | NamedComputationOp):
            raise VerifyException(f"ends the region of a '{parent.name}'; it ends manual and named computations")

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        attrs = parser.parse_optional_attr_dict()
        operands = []
        types: list[Attribute] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands = [first]
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            values = parser.resolve_operands(operands, types, pos)
        else:
            values = []
        op = cls(values)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.operands], printer.print_attribute)


@irdl_op_definition
class ManualComputationOp(IRDLOperation):
    """`sdy.manual_computation`: a body written per device over the manual axes, with
    explicit collectives. Its operands (global values) enter the body as each device's
    shard over the manual axes, its results leave it the same way. The rules (Shardy's):

    * one in sharding per operand and one out sharding per result, each valid for its
      value (`check_sharding`), all on one mesh, which has every manual axis;
    * manual axes are distinct and none is manual in an enclosing manual computation;
    * in each dimension sharding, the manual axes come before the free ones;
    * the body's argument types are the operands' local types: each dimension divided
      (evenly) by the product of the sizes of its manual axes; its `sdy.return`'s
      operand types are the results' local types likewise."""

    name = "sdy.manual_computation"

    # what running it in the global program is: the interpreter's and the JIT's error
    RUN_WHOLE_ERROR: ClassVar[str] = (
        "is one device's code over its manual axes: it runs in a partitioned program only "
        "(xla-spmd-partition), not in the global program run whole"
    )

    tensors = var_operand_def()
    in_shardings = prop_def(TensorShardingPerValueAttr)
    out_shardings = prop_def(TensorShardingPerValueAttr)
    manual_axes = prop_def(ManualAxesAttr)
    body = region_def("single_block")
    results_ = var_result_def()

    traits = traits_def(IsolatedFromAbove())

    def __init__(
        self,
        tensors: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        in_shardings: TensorShardingPerValueAttr,
        out_shardings: TensorShardingPerValueAttr,
        manual_axes: ManualAxesAttr,
        body: Region,
    ):
        super().__init__(
            operands=[list(tensors)],
            result_types=[list(result_types)],
            properties={"in_shardings": in_shardings, "out_shardings": out_shardings, "manual_axes": manual_axes},
            regions=[body],
        )

    def get_manual_axes(self) -> list[str]:
        return self.manual_axes.get_axes()

    def local_types(self, types: Sequence[Attribute], shardings: TensorShardingPerValueAttr) -> list[Attribute]:
        """The types the body sees of values of `types` (the operands' or the
        results') sharded by `shardings`: each tensor dimension divided by its manual
        axes' shard count. Raises ShapeError or VerifyException."""
        manual = set(self.get_manual_axes())
        out: list[Attribute] = []
        for t, sharding in zip(types, shardings.get_shardings(), strict=True):
            if not isinstance(t, TensorType):
                out.append(t)
                continue
            mesh = resolve_mesh(self, sharding)
            out.append(TensorType(t.element_type, local_shape(t.get_shape(), sharding, mesh, manual)))
        return out

    def verify_(self) -> None:
        manual = self.get_manual_axes()
        if repeated := sorted({a for a in manual if manual.count(a) > 1}):
            raise VerifyException(f'manual axis "{repeated[0]}" is listed twice')
        if bound := sorted(set(manual) & enclosing_manual_axes(self)):
            raise VerifyException(f'manual axis "{bound[0]}" is already manual in an enclosing sdy.manual_computation')
        operand_types = [v.type for v in self.tensors]
        result_types = [r.type for r in self.results_]
        meshes = check_shardings_per_value(self, self.in_shardings, operand_types, "in_shardings", "operands")
        meshes += check_shardings_per_value(self, self.out_shardings, result_types, "out_shardings", "results")
        if manual and meshes:
            if any(m != meshes[0] for m in meshes):
                raise VerifyException("in_shardings and out_shardings are on different meshes; they share one")
            for axis in manual:
                if axis not in meshes[0].axis_names():
                    raise VerifyException(
                        f'unknown manual axis "{axis}" (mesh axes: {", ".join(meshes[0].axis_names())})'
                    )
        for what, shardings in (("in_shardings", self.in_shardings), ("out_shardings", self.out_shardings)):
            for i, sharding in enumerate(shardings.get_shardings()):
                try:
                    check_manual_axes_first(sharding, set(manual), f"{what} #{i}")
                except ShapeError as e:
                    raise VerifyException(str(e)) from None
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("the body has no block")
        args = [a.type for a in block.args]
        if len(args) != len(operand_types):
            raise VerifyException(f"the body has {len(args)} arguments for {len(operand_types)} operands")
        terminator = block.last_op
        if not isinstance(terminator, ReturnOp):
            raise VerifyException("the body ends with an sdy.return")
        returned = [v.type for v in terminator.operands]
        if len(returned) != len(result_types):
            raise VerifyException(f"the body returns {len(returned)} values for {len(result_types)} results")
        for what, globals_, shardings, locals_ in (
            ("operand", operand_types, self.in_shardings, args),
            ("result", result_types, self.out_shardings, returned),
        ):
            try:
                expected = self.local_types(globals_, shardings)
            except ShapeError as e:
                raise VerifyException(f"{what} shape: {e}") from None
            for i, (e, got) in enumerate(zip(expected, locals_, strict=True)):
                if e != got:
                    where = "body argument" if what == "operand" else "returned value"
                    raise VerifyException(
                        f"{where} #{i} has type {got}, but the {what}'s local type over manual axes "
                        "{" + ", ".join(f'"{a}"' for a in manual) + f"}} is {e} (global {globals_[i]})"
                    )

    @classmethod
    def parse(cls, parser: Parser) -> ManualComputationOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        _parse_keyword_equal(parser, "in_shardings")
        in_shardings = TensorShardingPerValueAttr.parse_list(parser)
        _parse_keyword_equal(parser, "out_shardings")
        out_shardings = TensorShardingPerValueAttr.parse_list(parser)
        _parse_keyword_equal(parser, "manual_axes")
        manual_axes = ManualAxesAttr.parse_body(parser)
        body, attrs, values, outs = _parse_region_tail(parser, operands)
        op = cls(values, outs, in_shardings, out_shardings, manual_axes, body)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_operands(self.tensors)
        printer.print_string(" in_shardings=")
        self.in_shardings.print_list(printer)
        printer.print_string(" out_shardings=")
        self.out_shardings.print_list(printer)
        printer.print_string(" manual_axes=")
        self.manual_axes.print_parameters(printer)
        _print_body(printer, self.body)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.tensors], [r.type for r in self.results_])


@irdl_op_definition
class ShardingGroupOp(IRDLOperation):
    """`sdy.sharding_group %x group_id=N`: the tensors of one group get one sharding
    (what `jax.experimental.shard_alike` writes). No result."""

    name = "sdy.sharding_group"

    input = operand_def(TensorType)
    group_id = prop_def(IntegerAttr.constr(type=i64))

    def __init__(self, input: SSAValue, group_id: int):
        super().__init__(operands=[input], properties={"group_id": IntegerAttr(group_id, i64)})

    def get_group_id(self) -> int:
        return self.group_id.value.data

    @classmethod
    def parse(cls, parser: Parser) -> ShardingGroupOp:
        operand = parser.parse_unresolved_operand()
        _parse_keyword_equal(parser, "group_id")
        group = parser.parse_integer(allow_boolean=False)
        return _finish_unary(cls, parser, operand, {"group_id": IntegerAttr(group, i64)})

    def print(self, printer: Printer) -> None:
        _print_value_op(printer, self, self.input, f"group_id={self.get_group_id()}")


PROPAGATION_DIRECTIONS = ("NONE", "FORWARD", "BACKWARD", "BOTH")


@irdl_op_definition
class PropagationBarrierOp(IRDLOperation):
    """`sdy.propagation_barrier %x allowed_direction=FORWARD`: the value, through which
    propagation flows only the allowed way (NONE, FORWARD or BACKWARD; BOTH would make
    the barrier pointless and is an error)."""

    name = "sdy.propagation_barrier"

    input = operand_def(TensorType)
    allowed_direction = prop_def(IntegerAttr.constr(type=i32))
    result = result_def(TensorType)

    def get_allowed_direction(self) -> str:
        value = self.allowed_direction.value.data
        return PROPAGATION_DIRECTIONS[value] if 0 <= value < len(PROPAGATION_DIRECTIONS) else str(value)

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException(f"result type {self.result.type} differs from operand type {self.input.type}")
        direction = self.get_allowed_direction()
        if direction not in PROPAGATION_DIRECTIONS:
            raise VerifyException(f"allowed_direction {direction} is none of {', '.join(PROPAGATION_DIRECTIONS)}")
        if direction == "BOTH":
            raise VerifyException("allowed_direction BOTH blocks nothing: the barrier would be redundant")

    @classmethod
    def parse(cls, parser: Parser) -> PropagationBarrierOp:
        operand = parser.parse_unresolved_operand()
        _parse_keyword_equal(parser, "allowed_direction")
        pos = parser.pos
        word = parser.parse_identifier(" (a propagation direction)")
        if word not in PROPAGATION_DIRECTIONS:
            parser.raise_error(f"expected one of {', '.join(PROPAGATION_DIRECTIONS)}, got '{word}'", pos, parser.pos)
        props = {"allowed_direction": IntegerAttr(PROPAGATION_DIRECTIONS.index(word), i32)}
        return _finish_unary(cls, parser, operand, props)

    def print(self, printer: Printer) -> None:
        _print_value_op(printer, self, self.input, f"allowed_direction={self.get_allowed_direction()}")


@irdl_op_definition
class NamedComputationOp(IRDLOperation):
    """`sdy.named_computation<"name">(...)`: a body with a name, as a call inlined
    (propagation sees through it). Its body takes the operands' types and returns the
    results' types; its optional in and out shardings are valid for them."""

    name = "sdy.named_computation"

    computation_name = prop_def(StringAttr, prop_name="name")
    operands_ = var_operand_def()
    in_shardings = opt_prop_def(TensorShardingPerValueAttr)
    out_shardings = opt_prop_def(TensorShardingPerValueAttr)
    body = region_def("single_block")
    results_ = var_result_def()

    traits = traits_def(IsolatedFromAbove())

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("the body has no block")
        operand_types = [v.type for v in self.operands_]
        result_types = [r.type for r in self.results_]
        if [a.type for a in block.args] != operand_types:
            raise VerifyException(
                f"the body's argument types {[str(a.type) for a in block.args]} are not the operand types"
            )
        terminator = block.last_op
        if not isinstance(terminator, ReturnOp) or [v.type for v in terminator.operands] != result_types:
            raise VerifyException("the body ends with an sdy.return of the result types")
        if self.in_shardings is not None:
            check_shardings_per_value(self, self.in_shardings, operand_types, "in_shardings", "operands")
        if self.out_shardings is not None:
            check_shardings_per_value(self, self.out_shardings, result_types, "out_shardings", "results")

    @classmethod
    def parse(cls, parser: Parser) -> NamedComputationOp:
        parser.parse_punctuation("<")
        name = parser.parse_str_literal(" (the computation's name)")
        parser.parse_punctuation(">")
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        props: dict[str, Attribute] = {"name": StringAttr(name)}
        for keyword in ("in_shardings", "out_shardings"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                props[keyword] = TensorShardingPerValueAttr.parse_list(parser)
        body, attrs, values, outs = _parse_region_tail(parser, operands)
        return cls.create(operands=values, result_types=outs, properties=props, attributes=attrs, regions=[body])

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.computation_name.data)
        printer.print_string(">")
        printer.print_operands(self.operands_)
        for keyword in ("in_shardings", "out_shardings"):
            value = getattr(self, keyword)
            if value is not None:
                printer.print_string(f" {keyword}=")
                value.print_list(printer)
        _print_body(printer, self.body)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.operands_], [r.type for r in self.results_])


SDY_OPS = [
    MeshOp,
    ShardingConstraintOp,
    ReshardOp,
    ManualComputationOp,
    ReturnOp,
    ShardingGroupOp,
    PropagationBarrierOp,
    NamedComputationOp,
]

__all__ = [
    "ManualComputationOp",
    "MeshOp",
    "NamedComputationOp",
    "PropagationBarrierOp",
    "ReshardOp",
    "ReturnOp",
    "SDY_OPS",
    "ShardingConstraintOp",
    "ShardingGroupOp",
    "check_shardings_per_value",
    "check_value_sharding",
    "enclosing_manual_axes",
    "resolve_mesh",
]
