"""convert-stablehlo-to-xla on sharded programs (passes/conversions/convert_stablehlo_to_xla/
sharding.py): the shardings are kept in the sdy dialect, and GSPMD's form becomes
Shardy's. The oracle is JAX itself: for the programs tests/sharding exports in both
forms, the imported GSPMD program puts every device on the same shard of every
argument and result, and has the same manual regions, as the imported Shardy one."""

import pytest
from xdsl.dialects import func

import xla_opt
from tests.sharding import corpus
from xla_opt.diagnostics import ProgramError
from xla_opt.dialects import sdy
from xla_opt.dialects.shapes.sharding import shard_offsets
from xla_opt.dialects.xla.element_types import shape_of

BOTH_FORMS = [c for c in corpus.programs() if c.gspmd_path is not None]


def _main(module) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main")


def _placement(module, sharding, shape, devices):
    """Where each device's shard of a value of `shape` starts (replicated: 0s)."""
    if sharding is None:
        return [(0,) * len(shape)] * devices
    mesh = sharding.resolve_mesh(module)
    return [shard_offsets(shape, sharding, mesh, d) for d in range(devices)]


def _boundary(module, devices):
    """Every argument's and result's placement on the devices."""
    f = _main(module)
    out = []
    for table, types in ((f.arg_attrs, f.function_type.inputs.data), (f.res_attrs, f.function_type.outputs.data)):
        for i, t in enumerate(types):
            sharding = table.data[i].data.get(sdy.SHARDING) if table is not None else None
            out.append(_placement(module, sharding, tuple(shape_of(t)), devices))
    return out


def _manual_regions(module, devices):
    """Each manual computation's in and out placements and its body's argument types."""
    out = []
    for op in module.walk():
        if isinstance(op, sdy.ManualComputationOp):
            ins = [_placement(module, s, tuple(shape_of(v.type)), devices) for s, v in zip(op.in_shardings.get_shardings(), op.tensors)]
            outs = [_placement(module, s, tuple(shape_of(r.type)), devices) for s, r in zip(op.out_shardings.get_shardings(), op.results)]
            out.append((ins, outs, [a.type for a in op.body.block.args]))
    return out


@pytest.mark.parametrize("case", BOTH_FORMS, ids=lambda c: c.id)
def test_gspmd_and_shardy_forms_shard_alike(case):
    shardy = xla_opt.load_program(case.path)
    gspmd = xla_opt.load_program(case.gspmd_path)
    for module in (shardy, gspmd):
        assert module.attributes["mhlo.num_partitions"].value.data == case.devices
        meshes = [op.mesh for op in module.ops if isinstance(op, sdy.MeshOp)]
        assert meshes and all(m.total_size() == case.devices for m in meshes)
    assert _boundary(gspmd, case.devices) == _boundary(shardy, case.devices)
    assert _manual_regions(gspmd, case.devices) == _manual_regions(shardy, case.devices)


@pytest.mark.parametrize("case", [c for c in corpus.programs() if c.gspmd_path is None][:4], ids=lambda c: c.id)
def test_shardy_shardings_stay(case):
    """The Shardy form keeps its own mesh and the argument shardings JAX wrote."""
    text = case.path.read_text()
    module = xla_opt.load_program(case.path)
    (mesh,) = [op for op in module.ops if isinstance(op, sdy.MeshOp)]
    assert [(a, mesh.mesh.axis_size(a)) for a in mesh.mesh.axis_names()] == list(case.mesh)
    f = _main(module)
    for i in range(len(f.args)):
        entry = f.arg_attrs.data[i].data if f.arg_attrs is not None else {}
        if sdy.SHARDING in entry:
            assert str(entry[sdy.SHARDING]) in text


def test_one_device_programs_are_unchanged():
    """mhlo.num_partitions = 1: no sdy op, attribute or module attribute is left."""
    text = """
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]>
  func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<4xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.sine %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
"""
    module = xla_opt.load_program(text)
    assert "sdy" not in str(module) and not module.attributes


def test_errors_are_located_lines():
    text = """
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4"}) -> tensor<8xf32> {
    %0 = stablehlo.sine %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"""
    with pytest.raises(ProgramError) as info:
        xla_opt.load_program(text)
    (line,) = str(info.value).splitlines()
    assert line.startswith("<program>:3:3: error: 'func.func' op malformed mhlo.sharding: sharding '{devices=[4]<=[4'")
