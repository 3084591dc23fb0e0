"""The SPMD partitioner's core (issue 30): a global program of N partitions becomes the
program each device runs, whose results, put back together, are the global program's.

Each case partitions a program under given shardings (an explicit plan: the mesh and
the boundary's shardings), runs the per-device program as N replicas on the
interpreter, and compares with the unpartitioned program on the interpreter (the
oracle). It also checks that the per-device program's entry has local shapes, and which
ops ran on shards and which collectives it took.
"""

from __future__ import annotations

import numpy as np
import pytest

import xla_opt
from xla_opt.interpreter import interpret_replicas
from xla_opt.interpreter.replicas import ReplicaContext
from xla_opt.loading import load_program
from xla_opt.partitions import partitioned
from xla_opt.passes.transforms.xla_spmd_partition import Plan
from xla_opt.passes.transforms.xla_spmd_partition.model import Mesh, Sharding, fitting

S = Sharding
R = Sharding.replicated
MESH_2x2 = Mesh((("x", 2), ("y", 2)))
MESH_4 = Mesh((("d", 4),))

SUM = """body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }"""

MATMUL_TANH_SUM = f"""module attributes {{mhlo.num_partitions = 4 : i32}} {{
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> (tensor<6xf32>, tensor<8x6xf32>) {{
  %0 = xla.dot_general %x, %w, lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %1 = xla.tanh %0 : tensor<8x6xf32>
  %z = xla.constant dense<0.0> : tensor<f32>
  %2 = xla.reduce (%1), (%z), dimensions = [0] {SUM} : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %2, %1 : tensor<6xf32>, tensor<8x6xf32>
}}
}}"""

MLP = f"""module attributes {{mhlo.num_partitions = 4 : i32}} {{
func.func @main(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x4xf32>) -> tensor<8x4xf32> {{
  %h = xla.dot %x, %w1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %z = xla.constant dense<0.0> : tensor<8x32xf32>
  %r = xla.maximum %h, %z : tensor<8x32xf32>
  %y = xla.dot %r, %w2 : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  func.return %y : tensor<8x4xf32>
}}
}}"""

SHAPES = f"""module attributes {{mhlo.num_partitions = 4 : i32}} {{
func.func @main(%x: tensor<8x12xf32>, %v: tensor<12xf32>) -> (tensor<12x8xf32>, tensor<8x3x4xf32>, tensor<8x6xf32>) {{
  %b = xla.broadcast_in_dim %v, broadcast_dimensions = [1] : (tensor<12xf32>) -> tensor<8x12xf32>
  %s = xla.add %x, %b : tensor<8x12xf32>
  %t = xla.transpose %s, permutation = [1, 0] : (tensor<8x12xf32>) -> tensor<12x8xf32>
  %r = xla.reshape %s : (tensor<8x12xf32>) -> tensor<8x3x4xf32>
  %l = xla.slice %s, start_indices = [0, 2], limit_indices = [8, 8], strides = [1, 1] : (tensor<8x12xf32>) -> tensor<8x6xf32>
  func.return %t, %r, %l : tensor<12x8xf32>, tensor<8x3x4xf32>, tensor<8x6xf32>
}}
}}"""

MAX_ARGMAX = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8xi32>) {
  %m = xla.constant dense<0xFF800000> : tensor<f32>
  %0 = xla.reduce (%x), (%m), dimensions = [1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.maximum %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %i = xla.iota iota_dimension = 0 : tensor<4x8xi32>
  %zero = xla.constant dense<0> : tensor<i32>
  %c = xla.constant dense<0x7F800000> : tensor<f32>
  %1:2 = xla.reduce (%x, %i), (%c, %zero), dimensions = [0] body {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %lt = xla.compare %av, %bv, comparison_direction = LE : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = xla.select %lt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = xla.select %lt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %v, %k : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  func.return %0, %1#1 : tensor<4xf32>, tensor<8xi32>
}
}"""

INTEGERS = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%x: tensor<8x8xi32>) -> (tensor<8xi32>, tensor<8x8xi32>) {
  %z = xla.constant dense<0> : tensor<i32>
  %0 = xla.reduce (%x), (%z), dimensions = [1] body {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  } : (tensor<8x8xi32>, tensor<i32>) -> tensor<8xi32>
  %1 = xla.multiply %x, %x : tensor<8x8xi32>
  func.return %0, %1 : tensor<8xi32>, tensor<8x8xi32>
}
}"""


def run_partitioned(text: str, mesh: Mesh, arguments, results, inputs, backend: str = "interpreter"):
    """The per-device program of `text` under these shardings, run on `mesh.size`
    threads, its results put together; and the whole program's results (the oracle)."""
    module = load_program(text)
    program = partitioned(module, "main", lambda copy: Plan(mesh, arguments, results, {}))
    assert program is not None
    shards = program.split(inputs)
    context = ReplicaContext(mesh.size)
    if backend == "jit":
        from xla_opt.interpreter.replicas import run_on_replicas
        from xla_opt.runtime.executable import JitFunction

        compiled = JitFunction(program.module, "main", host_collectives=True)
        per_device = run_on_replicas(context, lambda r: tuple(compiled.call_checked(shards[r], context, r)))
    else:
        per_device = interpret_replicas(program.module, "main", shards, context)
    return program, program.assemble(per_device), xla_opt.run(module, *inputs, partitions=1)


def inputs_for(text: str, seed: int = 0):
    from xla_opt.api import find_function
    from xla_opt.signatures import input_specs

    module = load_program(text)
    r = np.random.default_rng(seed)
    out = []
    for dtype, shape in input_specs(find_function(module, "main").function_type):
        out.append(
            r.integers(-9, 9, shape).astype(dtype) if dtype.kind == "i" else r.standard_normal(shape).astype(dtype)
        )
    return out


# Embedding lookups (ids in [-9, 9): below 0 and past the table, which gather clamps)
EMBEDDING = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%table: tensor<8x6xf32>, %ids: tensor<4x5xi32>) -> tensor<4x5x6xf32> {
  %g = xla.gather %table, %ids, offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 6] : (tensor<8x6xf32>, tensor<4x5xi32>) -> tensor<4x5x6xf32>
  func.return %g : tensor<4x5x6xf32>
}
}"""

# two indexed dimensions, both picked (index vectors of 2)
POINTS = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%grid: tensor<8x4x6xi32>, %at: tensor<5x2xi32>) -> tensor<5x6xi32> {
  %g = xla.gather %grid, %at, offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [1, 1, 6] : (tensor<8x4x6xi32>, tensor<5x2xi32>) -> tensor<5x6xi32>
  func.return %g : tensor<5x6xi32>
}
}"""

MOVE = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %0 = xla.exponential %x : tensor<8x12xf32>
  func.return %0 : tensor<8x12xf32>
}
}"""

TWICE = """module attributes {mhlo.num_partitions = 4 : i32} {
func.func @main(%x: tensor<8x12xf32>) -> (tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>) {
  func.return %x, %x, %x : tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>
}
}"""

CASES = [
    ("rows to columns", MOVE, MESH_4, [S((("d",), ()))], [S(((), ("d",)))]),
    # a value returned three times, three ways (a finer split of a shard is sliced from it)
    (
        "one value, several results",
        TWICE,
        MESH_2x2,
        [S((("x",), ()))],
        [S((("x", "y"), ())), R(2), S(((), ("x", "y")))],
    ),
    ("axes swapped between dims", MOVE, MESH_2x2, [S((("x",), ("y",)))], [S((("y",), ("x",)))]),
    ("rows, columns", MATMUL_TANH_SUM, MESH_2x2, [S((("x",), ())), S(((), ("y",)))], [R(1), S((("y",), ()))]),
    ("contracting sharded", MATMUL_TANH_SUM, MESH_2x2, [S(((), ("x",))), S((("x",), ()))], [R(1), R(2)]),
    ("two axes on one dim", MATMUL_TANH_SUM, MESH_2x2, [S((("x", "y"), ())), R(2)], [S((("y",),)), R(2)]),
    ("replicated", MATMUL_TANH_SUM, MESH_4, [R(2), R(2)], [R(1), R(2)]),
    ("megatron", MLP, MESH_4, [R(2), S(((), ("d",))), S((("d",), ()))], [R(2)]),
    ("data parallel", MLP, MESH_4, [S((("d",), ())), R(2), R(2)], [S((("d",), ()))]),
    ("2-d mesh", MLP, MESH_2x2, [S((("x",), ())), S(((), ("y",))), S((("y",), ()))], [S((("x",), ()))]),
    (
        "shape ops",
        SHAPES,
        MESH_2x2,
        [S((("x",), ("y",))), S((("y",),))],
        [S((("y",), ("x",))), S((("x",), (), ())), R(2)],
    ),
    ("max and argmax over sharded dims", MAX_ARGMAX, MESH_2x2, [S((("x",), ("y",)))], [S((("x",),)), S((("y",),))]),
    ("integers", INTEGERS, MESH_4, [S(((), ("d",)))], [R(1), S((("d",), ()))]),
    ("embedding, vocabulary sharded", EMBEDDING, MESH_4, [S((("d",), ())), R(2)], [R(3)]),
    ("embedding, ids sharded", EMBEDDING, MESH_4, [R(2), S((("d",), ()))], [S((("d",), (), ()))]),
    ("embedding, 2-d", EMBEDDING, MESH_2x2, [S((("x",), ("y",))), R(2)], [S(((), (), ("y",)))]),
    ("gather at points", POINTS, MESH_2x2, [S((("x",), ("y",), ())), R(2)], [R(2)]),
]


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("name,text,mesh,arguments,results", CASES, ids=[c[0] for c in CASES])
def test_partitioned_results_are_the_global_programs(name, text, mesh, arguments, results, backend):
    inputs = inputs_for(text)
    program, got, want = run_partitioned(text, mesh, arguments, results, inputs, backend)
    for g, w in zip(got, want, strict=True):
        if np.issubdtype(w.dtype, np.integer):
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    # the entry takes and returns each device's shards
    fn = next(iter(program.module.body.block.ops))
    for t, s, b in zip(fn.function_type.inputs.data, arguments, program.arguments, strict=True):
        assert tuple(t.get_shape()) == tuple(s.local_shape(b.global_shape, mesh))


def test_a_megatron_mlp_needs_one_all_reduce():
    """Column- then row-sharded weights: the first product is local, the relu too, and
    the second product's partial sums are all-reduced once (no gather)."""
    inputs = inputs_for(MLP)
    program, _, _ = run_partitioned(MLP, MESH_4, [R(2), S(((), ("d",))), S((("d",), ()))], [R(2)], inputs)
    assert program.statistics.collectives == {"all_reduce": 1}
    assert program.statistics.whole == {}  # the zeros of the relu made at the shard's shape


def test_data_parallel_needs_no_collective():
    inputs = inputs_for(MLP)
    program, _, _ = run_partitioned(MLP, MESH_4, [S((("d",), ())), R(2), R(2)], [S((("d",), ()))], inputs)
    assert program.statistics.collectives == {}


def test_groups_follow_the_mesh():
    mesh = Mesh((("x", 2), ("y", 2)), (3, 1, 2, 0))
    assert mesh.coordinates(3) == {"x": 0, "y": 0} and mesh.coordinates(0) == {"x": 1, "y": 1}
    assert mesh.groups(["x"]) == [[3, 2], [1, 0]]
    assert mesh.groups(["y"]) == [[3, 1], [2, 0]]
    assert mesh.groups(["x", "y"]) == [[3, 1, 2, 0]]
    assert mesh.groups(["y", "x"]) == [[3, 2, 1, 0]]


def test_what_does_not_divide_is_replicated():
    """10 rows over 4 devices: replicated at the program's boundary (correct, only less
    spread), kept inside (padded); an axis used twice or unknown: replicated."""
    assert fitting(S((("d",), ())), (10, 4), MESH_4) == R(2)
    assert fitting(S((("d",), ())), (10, 4), MESH_4, uneven=True) == S((("d",), ()))
    assert S((("d",), ())).local_shape((10, 4), MESH_4) == [3, 4]
    assert [S((("d",), ())).offsets(device, (10, 4), MESH_4) for device in range(4)] == [[0, 0], [3, 0], [6, 0], [9, 0]]
    assert fitting(S((("d",), ("d",))), (8, 8), MESH_4) == S((("d",), ()))
    assert fitting(S((("z",),)), (8,), MESH_4) == R(1)


# An intermediate split unevenly (10 rows over 4 devices: 3, 3, 3, 1 and 2 of padding)
# by constraints, then reduced, contracted and arg-maxed over its rows: the padding
# (zeros where a shard is cut from a whole value, exp(0) = 1 after the exponential)
# must not count, nor win a maximum of negative values.
UNEVEN = """module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["d"=4]>
  func.func @main(%x: tensor<10x8xf32>, %w: tensor<10x6xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8x6xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<8xf32>) {
    %c = sdy.sharding_constraint %x <@mesh, [{"d"}, {}]> : tensor<10x8xf32>
    %v = sdy.sharding_constraint %w <@mesh, [{"d"}, {}]> : tensor<10x6xf32>
    %zero = xla.constant dense<0.0> : tensor<f32>
    %lowest = xla.constant dense<0xFF800000> : tensor<f32>
    %sum = xla.reduce (%c), (%zero), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<10x8xf32>, tensor<f32>) -> tensor<8xf32>
    %max = xla.reduce (%c), (%lowest), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.maximum %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<10x8xf32>, tensor<f32>) -> tensor<8xf32>
    %i = xla.iota iota_dimension = 0 : tensor<10x8xi32>
    %izero = xla.constant dense<0> : tensor<i32>
    %m:2 = xla.reduce (%c, %i), (%lowest, %izero), dimensions = [0] body {
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %gt = xla.compare %av, %bv, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v2 = xla.select %gt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %k = xla.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      xla.return %v2, %k : tensor<f32>, tensor<i32>
    } : (tensor<10x8xf32>, tensor<10x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    %p = xla.dot_general %c, %v, lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0] : (tensor<10x8xf32>, tensor<10x6xf32>) -> tensor<8x6xf32>
    %e = xla.exponential %c : tensor<10x8xf32>
    %rowmax = xla.reduce (%e), (%lowest), dimensions = [1] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.maximum %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<10x8xf32>, tensor<f32>) -> tensor<10xf32>
    %esum = xla.reduce (%e), (%zero), dimensions = [0] body {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
    } : (tensor<10x8xf32>, tensor<f32>) -> tensor<8xf32>
    func.return %sum, %max, %m#1, %p, %e, %rowmax, %esum : tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8x6xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<8xf32>
  }
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_uneven_shards_are_padded_and_the_padding_masked(backend):
    r = np.random.default_rng(0)
    x = r.standard_normal((10, 8)).astype(np.float32) - 20
    w = r.standard_normal((10, 6)).astype(np.float32)
    f = xla_opt.compile(UNEVEN, backend=backend)
    got = f(x, w)
    want = xla_opt.run(UNEVEN, x, w, partitions=1)
    for g, e in zip(got, want, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    assert f.partitions.statistics.whole == {}  # every op on its shards
    assert "tensor<3x8xf32>" in str(f.partitions.module)  # the shards: ceil(10 / 4) rows


def test_uneven_inputs_run():
    text = MATMUL_TANH_SUM.replace("8x4", "10x4").replace("8x6", "10x6")
    inputs = inputs_for(text)
    mesh = MESH_4
    arguments = [fitting(S((("d",), ())), (10, 4), mesh), R(2)]
    _, got, want = run_partitioned(text, mesh, arguments, [R(1), R(2)], inputs)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_an_embedding_from_a_sharded_vocabulary_is_gathered_where_its_rows_are():
    """Each device gathers the rows it holds, and one all-reduce sums them: the table
    is never gathered whole (GSPMD's partitioning of a gather over its sliced operand
    dimension)."""
    program, _, _ = run_partitioned(EMBEDDING, MESH_4, [S((("d",), ())), R(2)], [R(3)], inputs_for(EMBEDDING))
    assert program.statistics.collectives == {"all_reduce": 1}
    assert program.statistics.whole == {}


def test_moving_a_sharded_dimension_is_one_all_to_all():
    """Rows sharded in, columns sharded out (with_sharding_constraint moving the
    sharded dimension): one all_to_all, no gather."""
    program, _, _ = run_partitioned(MOVE, MESH_4, [S((("d",), ()))], [S(((), ("d",)))], inputs_for(MOVE))
    assert program.statistics.collectives == {"all_to_all": 1}
