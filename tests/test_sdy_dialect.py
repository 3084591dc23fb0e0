"""The sdy dialect (dialects/sdy/): its attributes built from Python and read through
their accessors, and its text, which must be Shardy's own: every sdy line xla-opt
prints is the line jaxlib's MLIR (Shardy registered) prints for the same program."""

import re

import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr

import xla_opt
from xla_opt.context import make_context
from xla_opt.diagnostics import ProgramError, parse_source
from xla_opt.dialects.sdy import (
    AxisRefAttr,
    DimShardingAttr,
    ManualAxesAttr,
    ManualComputationOp,
    MeshAttr,
    MeshOp,
    SubAxisInfoAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from xla_opt.dialects.sdy.ops import resolve_mesh

PROGRAM = """
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @mesh_8 = <["x"=8], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
  sdy.mesh @maximal = <[], device_ids=[1]>
  sdy.mesh @empty = <[]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>},
                  %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_8, [{"x":(1)2}p0, {"x":(2)4, ?}p12]>},
                  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>})
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
    %1 = sdy.reshard %0 <mesh<["q"=2, "r"=2]>, [{"q"}, {}], replicated={"r"}> : tensor<8x4xf32>
    %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x4xf32>
    sdy.sharding_group %2 group_id=3 : tensor<8x4xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=BACKWARD : tensor<8x4xf32>
    %4 = sdy.manual_computation(%3, %arg2) in_shardings=[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}, {?}]>] manual_axes={"x"} (%arg3: tensor<4x4xf32>, %arg4: tensor<8xf32>) {
      sdy.return %arg3 : tensor<4x4xf32>
    } : (tensor<8x4xf32>, tensor<8xf32>) -> tensor<8x4xf32>
    %5 = sdy.named_computation<"body">(%4) out_shardings=[<@mesh, [{}, {}]>] (%arg3: tensor<8x4xf32>) {
      sdy.return %arg3 : tensor<8x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.custom_call @foo(%5) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}, custom>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %6 : tensor<8x4xf32>
  }
}
"""


def _attribute_dict(line: str) -> str:
    """The `{sdy.... = ...}` attribute dictionary of a line (its brackets balanced)."""
    start = line.index("{sdy.")
    depth = 0
    for end, c in enumerate(line[start:], start):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0:
            return line[start : end + 1]
    raise AssertionError(line)


def _sdy_lines(text: str) -> list[str]:
    """The lines of `text` holding sdy syntax, with SSA names normalized; of a
    stablehlo op (printed generically by us, pretty by jaxlib), its attributes only."""
    lines = [re.sub(r"%[\w#]+", "%v", line.strip()) for line in text.splitlines() if "sdy" in line]
    return [_attribute_dict(line) if "stablehlo." in line else line for line in lines]


def test_printed_as_shardy_prints():
    jax_mlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ours = str(parse_source(make_context(), PROGRAM, "<test>"))
    with jax_mlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True
        shardy = str(ir.Module.parse(PROGRAM))
        # and Shardy reads what we print (generic form too)
        assert ir.Module.parse(ours).operation.verify()
        module = parse_source(make_context(), PROGRAM, "<test>")
        from xdsl.printer import Printer
        import io

        out = io.StringIO()
        Printer(stream=out, print_generic_format=True).print_op(module)
        assert str(ir.Module.parse(out.getvalue())) == shardy
    assert _sdy_lines(ours) == _sdy_lines(shardy)


def test_generic_form_round_trips():
    module = parse_source(make_context(), PROGRAM, "<test>")
    import io

    from xdsl.printer import Printer

    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    again = parse_source(make_context(), out.getvalue(), "<generic>")
    assert str(again) == str(module)


def test_attributes_from_python():
    mesh = MeshAttr([("x", 2), ("y", 2)])
    assert str(mesh) == '#sdy.mesh<["x"=2, "y"=2]>'
    assert str(MeshAttr([("x", 4)], [3, 2, 1, 0])) == '#sdy.mesh<["x"=4], device_ids=[3, 2, 1, 0]>'
    assert str(MeshAttr([], [0])) == "#sdy.mesh<[], device_ids=[0]>"
    sub = AxisRefAttr("x", (1, 2))
    assert sub.get_name() == "x" and sub.get_sub_axis_info() == SubAxisInfoAttr(1, 2)
    assert AxisRefAttr("y").get_sub_axis_info() is None
    assert sub.size(MeshAttr([("x", 8)])) == 2 and AxisRefAttr("y").size(mesh) == 2
    dims = [
        DimShardingAttr(["x", "y"]),
        DimShardingAttr(["x"], is_closed=False),
        DimShardingAttr([], is_closed=False),
        DimShardingAttr([]),
        DimShardingAttr([sub], priority=1),
    ]
    assert [str(d) for d in dims] == [
        '#sdy.dimension_sharding<{"x", "y"}>',
        '#sdy.dimension_sharding<{"x", ?}>',
        '#sdy.dimension_sharding<{?}>',
        "#sdy.dimension_sharding<{}>",
        '#sdy.dimension_sharding<{"x":(1)2}p1>',
    ]
    assert dims[1].get_is_closed() is False and dims[4].get_priority() == 1 and dims[0].get_priority() is None
    sharding = TensorShardingAttr("mesh", [DimShardingAttr(["x"]), DimShardingAttr([])], ["y"], ["z"])
    assert str(sharding) == '#sdy.sharding<@mesh, [{"x"}, {}], replicated={"y"}, unreduced={"z"}>'
    assert sharding.mesh_name() == "mesh" and sharding.mesh == SymbolRefAttr("mesh")
    assert [d.get_axes() for d in sharding.dims()] == [[AxisRefAttr("x")], []]
    assert sharding.get_replicated_axes() == [AxisRefAttr("y")]
    assert sharding.get_unreduced_axes() == [AxisRefAttr("z")]
    inline = TensorShardingAttr(mesh, [DimShardingAttr(["x"])])
    assert str(inline) == '#sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}]>' and inline.mesh_name() is None
    per_value = TensorShardingPerValueAttr([sharding, inline])
    assert per_value.get_shardings() == [sharding, inline]
    assert str(per_value).startswith("#sdy.sharding_per_value<[<@mesh, [{")
    assert str(ManualAxesAttr(["x", "y"])) == '#sdy<manual_axes{"x", "y"}>'
    assert ManualAxesAttr(["x"]).get_axes() == ["x"]


def test_resolve_mesh_from_any_op_of_the_module():
    module = parse_source(make_context(), PROGRAM, "<test>")
    manual = next(op for op in module.walk() if isinstance(op, ManualComputationOp))
    inner = manual.body.block.first_op
    sharding = manual.in_shardings.get_shardings()[0]
    mesh = MeshAttr([("x", 2), ("y", 2)])
    assert sharding.resolve_mesh(inner) == mesh == sharding.resolve_mesh(module) == resolve_mesh(inner, sharding)
    assert manual.get_manual_axes() == ["x"]
    assert manual.local_types([v.type for v in manual.tensors], manual.in_shardings) == [a.type for a in manual.body.block.args]
    with pytest.raises(KeyError, match="no sdy.mesh @nowhere"):
        TensorShardingAttr("nowhere", []).resolve_mesh(inner)
    meshes = {op.sym_name.data: op.mesh for op in module.ops if isinstance(op, MeshOp)}
    assert meshes["mesh_8"].device_ids() == [7, 6, 5, 4, 3, 2, 1, 0] and meshes["empty"].total_size() == 1


def test_a_mesh_op_built_from_python_verifies():
    module = ModuleOp([MeshOp("mesh", MeshAttr([("x", 2)]))])
    module.verify()
    assert str(module.ops.first) == 'sdy.mesh @mesh = <["x"=2]>'
    assert module.ops.first.sym_name == StringAttr("mesh")


def test_errors_are_located_lines():
    with pytest.raises(ProgramError) as info:
        xla_opt.load_program('sdy.mesh @m = <["x"=2]>\nfunc.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) {\n  func.return\n}\n')
    assert str(info.value) == (
        "<program>:2:1: error: 'func.func' op argument #0 sharding #sdy.sharding<@m, [{\"y\"}]>: "
        'dimension 0 uses unknown axis "y" (mesh axes: "x")'
    )
