"""Reference semantics of the collectives and token ops on N replicas: the spec's worked
examples (two replicas), replica groups, host queues, channels, and what happens when
the replicas cannot meet (deadlock, mismatch, timeout, a failed replica). Expected
values are typed from the spec or computed independently with numpy."""

from __future__ import annotations

import functools
import threading
import time

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.util import tensor_type
from xla_opt.interpreter.replicas import (
    Rendezvous,
    ReplicaAborted,
    ReplicaContext,
    ReplicaError,
    run_replicas,
)

f32, i32, u32 = np.float32, np.int32, np.uint32


def computation(op: str, element: str) -> str:
    """A binary reducer region on tensor<element>."""
    t = f"tensor<{element}>"
    return (
        "computation {\n"
        f"  ^bb0(%p: {t}, %q: {t}):\n"
        f"    %s = xla.{op} %p, %q : {t}\n"
        f"    xla.return %s : {t}\n"
        "  }"
    )


def program(body: str, params: list[str], results: list[str]) -> str:
    """`body` defines %r (one result) or %r0, %r1, ... (several)."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
    names = ", ".join(["%r"] if len(results) == 1 else [f"%r{i}" for i in range(len(results))])
    return (
        f"func.func @main({args}) -> ({', '.join(results)}) {{\n{body}\n"
        f"  func.return {names} : {', '.join(results)}\n}}\n"
    )


def per_replica(values: list[np.ndarray]) -> np.ndarray:
    """Inputs with one value per replica: stacked on a leading axis."""
    return np.stack(values)


def run_n(prog: str, *arrays, replicas: int, **kw) -> list[list[np.ndarray]]:
    out = xla_opt.run(prog, *arrays, replicas=replicas, **kw)
    assert len(out) == replicas
    return out


def assert_each(results: list[list[np.ndarray]], expected: list, index: int = 0) -> None:
    """results[r][index] == expected[r], with the operand's exact dtype."""
    for r, exp in enumerate(expected):
        got = results[r][index]
        exp = np.asarray(exp, dtype=got.dtype) if not isinstance(exp, np.ndarray) else exp
        assert got.dtype == exp.dtype, f"replica {r}: dtype {got.dtype} != {exp.dtype}"
        np.testing.assert_array_equal(got, exp, err_msg=f"replica {r}")


# ---- the spec's two-replica examples -----------------------------------------------


def test_all_gather_spec_example():
    # AllGather: "si hay dos réplicas y el operando tiene el valor [1.0, 2.5] y
    # [3.0, 5.25] respectivamente en ambas réplicas, el valor de salida de esta op en la
    # que all_gather_dim es 0 será [1.0, 2.5, 3.0, 5.25] en ambas réplicas."
    prog = program(
        "  %r = xla.all_gather %a0, all_gather_dim = 0, replica_groups = [] : (tensor<2xf32>) -> tensor<4xf32>",
        ["tensor<2xf32>"],
        ["tensor<4xf32>"],
    )
    x = per_replica([np.array([1.0, 2.5], f32), np.array([3.0, 5.25], f32)])
    out = run_n(prog, x, replicas=2)
    assert_each(out, [np.array([1.0, 2.5, 3.0, 5.25], f32)] * 2)


def test_all_reduce_spec_example():
    # AllReduce: "si hay dos réplicas y el operando tiene el valor [1.0, 2.5] y
    # [3.0, 5.25], respectivamente, en las dos réplicas, el valor de salida de este
    # cálculo de op y suma será [4.0, 7.75] en ambas réplicas."
    prog = program(
        f"  %r = xla.all_reduce %a0, replica_groups = [] {computation('add', 'f32')} : tensor<2xf32>",
        ["tensor<2xf32>"],
        ["tensor<2xf32>"],
    )
    x = per_replica([np.array([1.0, 2.5], f32), np.array([3.0, 5.25], f32)])
    assert_each(run_n(prog, x, replicas=2), [np.array([4.0, 7.75], f32)] * 2)


def test_all_reduce_tuple_operand():
    # AllReduce: "Cuando operand es una tupla de arreglos, se realiza el All-reduce en
    # cada elemento de la tupla" -- several inputs, each reduced on its own.
    prog = program(
        f"  %r0, %r1 = xla.all_reduce %a0, %a1, replica_groups = [[0, 1]] {computation('maximum', 'i32')}"
        " : (tensor<2xi32>, tensor<3xi32>) -> (tensor<2xi32>, tensor<3xi32>)",
        ["tensor<2xi32>", "tensor<3xi32>"],
        ["tensor<2xi32>", "tensor<3xi32>"],
    )
    a = per_replica([np.array([1, 9], i32), np.array([5, -2], i32)])
    b = per_replica([np.array([0, 0, 7], i32), np.array([-1, 3, 2], i32)])
    out = run_n(prog, a, b, replicas=2)
    assert_each(out, [np.array([5, 9], i32)] * 2, 0)
    assert_each(out, [np.array([0, 3, 7], i32)] * 2, 1)


def test_reduce_scatter_spec_example():
    # ReduceScatter: "si hay dos réplicas y el operando tiene el valor [1.0, 2.25] y
    # [3.0, 5.25] respectivamente en ambas réplicas, el valor de salida de esta operación
    # en la que scatter_dim es 0 será [4.0] para la primera réplica y [7.5] para la
    # segunda."
    prog = program(
        f"  %r = xla.reduce_scatter %a0, scatter_dimension = 0, replica_groups = [[0, 1]] {computation('add', 'f32')}"
        " : (tensor<2xf32>) -> tensor<1xf32>",
        ["tensor<2xf32>"],
        ["tensor<1xf32>"],
    )
    x = per_replica([np.array([1.0, 2.25], f32), np.array([3.0, 5.25], f32)])
    assert_each(run_n(prog, x, replicas=2), [np.array([4.0], f32), np.array([7.5], f32)])


def test_all_to_all_spec_example():
    # AllToAll: x: f32[4, 16] on 4 cores, split_dimension 1, concat_dimension 0,
    # split_count 4: core i receives block i (f32[4, 4]) of every core and concatenates
    # them in core order 0..3 into f32[16, 4]. (The spec gives no values: each core's
    # operand is distinct, the expected blocks are sliced with numpy.)
    prog = program(
        "  %r = xla.all_to_all %a0, split_dimension = 1, concat_dimension = 0, split_count = 4,"
        " replica_groups = [] : (tensor<4x16xf32>) -> tensor<16x4xf32>",
        ["tensor<4x16xf32>"],
        ["tensor<16x4xf32>"],
    )
    xs = [np.arange(64, dtype=f32).reshape(4, 16) + 100 * c for c in range(4)]
    out = run_n(prog, per_replica(xs), replicas=4)
    expected = [np.concatenate([xs[c][:, 4 * i : 4 * i + 4] for c in range(4)], axis=0) for i in range(4)]
    assert_each(out, expected)


def test_all_to_all_spec_groups():
    # AllToAll: "replica_groups = { {1,2,3}, {4,5,0} } significa que se aplicará un
    # AllToAll dentro de las réplicas {1, 2, 3} ... concatenarán en el mismo orden de
    # 1, 2, 3. Luego, se aplicará otro AllToAll en las réplicas 4, 5 y 0, y el orden de
    # concatenación también es 4, 5, 0."
    prog = program(
        "  %r = xla.all_to_all %a0, split_dimension = 0, concat_dimension = 1, split_count = 3,"
        " replica_groups = [[1, 2, 3], [4, 5, 0]] : (tensor<6x3xi32>) -> tensor<2x9xi32>",
        ["tensor<6x3xi32>"],
        ["tensor<2x9xi32>"],
    )
    xs = [np.arange(18, dtype=i32).reshape(6, 3) + 100 * r for r in range(6)]
    out = run_n(prog, per_replica(xs), replicas=6)
    expected = [None] * 6
    for group in ([1, 2, 3], [4, 5, 0]):
        for k, r in enumerate(group):
            expected[r] = np.concatenate([xs[s][2 * k : 2 * k + 2] for s in group], axis=1)
    assert_each(out, expected)


def test_collective_permute_rotation_and_zeros():
    # CollectivePermute: "Para cada par, el operando se envía de la réplica de origen a
    # la réplica de destino" and "Si un ID de réplica no es un destino en ningún par, la
    # salida de esa réplica es un tensor que consta de 0 con la misma forma".
    prog = program(
        "  %r0 = xla.collective_permute %a0, source_target_pairs = [[0, 1], [1, 2], [2, 0]] : tensor<2x2xf32>\n"
        "  %r1 = xla.collective_permute %a0, source_target_pairs = [[0, 2]], channel_id = 4 : tensor<2x2xf32>",
        ["tensor<2x2xf32>"],
        ["tensor<2x2xf32>", "tensor<2x2xf32>"],
    )
    xs = [np.full((2, 2), r + 1, f32) for r in range(3)]
    out = run_n(prog, per_replica(xs), replicas=3)
    assert_each(out, [xs[2], xs[0], xs[1]], 0)
    zeros = np.zeros((2, 2), f32)
    assert_each(out, [zeros, zeros, xs[0]], 1)


def test_cross_replica_sum_is_all_reduce_add():
    # CrossReplicaSum: "Realiza AllReduce con un cálculo de suma." Integers wrap around.
    prog = program(
        f"  %r = xla.all_reduce %a0, replica_groups = [] {computation('add', 'i8')} : tensor<3xi8>",
        ["tensor<3xi8>"],
        ["tensor<3xi8>"],
    )
    xs = [np.array([100, -100, 1], np.int8), np.array([100, -100, 2], np.int8), np.array([1, 1, 3], np.int8)]
    expected = np.array([-55, 57, 6], np.int8)  # 201 - 256, -199 + 256
    assert_each(run_n(prog, per_replica(xs), replicas=3), [expected] * 3)


# ---- replica groups ----------------------------------------------------------------


def test_replica_groups_subsets():
    # "replica_groups = {0, 2}, {1, 3} realiza una reducción entre las réplicas 0 y 2, y
    # 1 y 3" (AllReduce), a concatenation (AllGather), a scatter (ReduceScatter).
    prog = program(
        f"  %r0 = xla.all_reduce %a0, replica_groups = [[0, 2], [1, 3]] {computation('add', 'f32')} : tensor<2xf32>\n"
        "  %r1 = xla.all_gather %a0, all_gather_dim = 0, replica_groups = [[0, 2], [1, 3]] : (tensor<2xf32>) -> tensor<4xf32>\n"
        f"  %r2 = xla.reduce_scatter %a0, scatter_dimension = 0, replica_groups = [[0, 2], [1, 3]], shard_count = 2 {computation('add', 'f32')}"
        " : (tensor<2xf32>) -> tensor<1xf32>",
        ["tensor<2xf32>"],
        ["tensor<2xf32>", "tensor<4xf32>", "tensor<1xf32>"],
    )
    xs = [np.array([1, 2], f32), np.array([10, 20], f32), np.array([100, 200], f32), np.array([1000, 2000], f32)]
    out = run_n(prog, per_replica(xs), replicas=4)
    s02, s13 = xs[0] + xs[2], xs[1] + xs[3]
    assert_each(out, [s02, s13, s02, s13], 0)
    g02, g13 = np.concatenate([xs[0], xs[2]]), np.concatenate([xs[1], xs[3]])
    assert_each(out, [g02, g13, g02, g13], 1)
    # replica 0 is first in {0, 2}, replica 2 second
    assert_each(out, [s02[:1], s13[:1], s02[1:], s13[1:]], 2)


def test_group_order_decides_the_concatenation():
    # AllGather: "El orden de las réplicas en cada grupo determina el orden en el que se
    # ubican sus entradas en el resultado."
    prog = program(
        "  %r = xla.all_gather %a0, all_gather_dim = 1, replica_groups = [[1, 0]] : (tensor<1x2xi32>) -> tensor<1x4xi32>",
        ["tensor<1x2xi32>"],
        ["tensor<1x4xi32>"],
    )
    xs = [np.array([[1, 2]], i32), np.array([[3, 4]], i32)]
    assert_each(run_n(prog, per_replica(xs), replicas=2), [np.array([[3, 4, 1, 2]], i32)] * 2)


def test_replica_id():
    # ReplicaId: "un número entero sin firmar en el intervalo [0, N)" (U32).
    prog = program("  %r = xla.replica_id : tensor<ui32>", [], ["tensor<ui32>"])
    assert_each(run_n(prog, replicas=4), [np.array(r, u32) for r in range(4)])
    (single,) = xla_opt.run(prog)
    assert single.dtype == u32 and single.shape == () and single == 0


def test_one_replica_needs_no_setup():
    # Collectives over one replica: identity (a reduction over one value, a gather of
    # one block, a permutation onto itself).
    prog = program(
        f"  %r0 = xla.all_reduce %a0, replica_groups = [] {computation('add', 'f32')} : tensor<2x3xf32>\n"
        "  %r1 = xla.all_gather %a0, all_gather_dim = 1, replica_groups = [[0]] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        f"  %r2 = xla.reduce_scatter %a0, scatter_dimension = 0, replica_groups = [] {computation('add', 'f32')}"
        " : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "  %r3 = xla.all_to_all %a0, split_dimension = 0, concat_dimension = 1, split_count = 1,"
        " replica_groups = [] : tensor<2x3xf32>\n"
        "  %r4 = xla.collective_permute %a0, source_target_pairs = [[0, 0]] : tensor<2x3xf32>\n"
        "  %r5 = xla.collective_permute %a0, source_target_pairs = [] : tensor<2x3xf32>",
        ["tensor<2x3xf32>"],
        ["tensor<2x3xf32>"] * 6,
    )
    x = np.arange(6, dtype=f32).reshape(2, 3)
    out = xla_opt.run(prog, x)
    for got in out[:5]:
        assert got.dtype == f32
        np.testing.assert_array_equal(got, x)
    np.testing.assert_array_equal(out[5], np.zeros((2, 3), f32))


def test_replica_groups_out_of_range():
    prog = program(
        "  %r = xla.all_gather %a0, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>",
        ["tensor<2xf32>"],
        ["tensor<4xf32>"],
    )
    with pytest.raises(ReplicaError, match=r"replica_groups \[\[0, 1\]\] names replica ids \[1\] but the program runs on 1 replica"):
        xla_opt.run(prog, np.zeros(2, f32))


def test_result_type_must_fit_the_group():
    # Empty groups and no shard_count: the verifier cannot know the group size; the
    # run does.
    prog = program(
        "  %r = xla.all_gather %a0, all_gather_dim = 0, replica_groups = [] : (tensor<2xf32>) -> tensor<6xf32>",
        ["tensor<2xf32>"],
        ["tensor<6xf32>"],
    )
    with pytest.raises(ReplicaError, match=r"result type tensor<6xf32> does not fit a replica group of 2"):
        run_n(prog, np.zeros(2, f32), replicas=2)
    out = run_n(prog, per_replica([np.full(2, r, f32) for r in range(3)]), replicas=3)
    assert_each(out, [np.array([0, 0, 1, 1, 2, 2], f32)] * 3)


def test_all_to_all_split_count_must_match_replicas():
    prog = program(
        "  %r = xla.all_to_all %a0, split_dimension = 0, concat_dimension = 0, split_count = 2,"
        " replica_groups = [] : tensor<4xf32>",
        ["tensor<4xf32>"],
        ["tensor<4xf32>"],
    )
    with pytest.raises(ReplicaError, match="split_count 2 differs from the replica group size 3"):
        run_n(prog, np.zeros(4, f32), replicas=3)


# ---- properties against numpy ------------------------------------------------------

DTYPES = [np.int8, np.int32, np.uint16, np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
REDUCERS = {"add": np.add, "maximum": np.maximum, "minimum": np.minimum, "multiply": np.multiply}


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def numpy_fold(reducer: str, parts: list[np.ndarray]) -> np.ndarray:
    """In group order; f16/bf16 computed in f32 and rounded back after each step; integer
    arithmetic wraps."""
    fn = REDUCERS[reducer]
    dtype = parts[0].dtype
    wide = np.float32 if dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)) else dtype
    with np.errstate(all="ignore"):
        return functools.reduce(lambda a, b: fn(a.astype(wide), b.astype(wide)).astype(dtype), parts)


@pytest.mark.parametrize("seed", range(7))
def test_collectives_match_numpy(seed):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(DTYPES[seed % len(DTYPES)])
    reducer = list(REDUCERS)[seed % len(REDUCERS)]
    n = int(rng.choice([2, 3, 4]))
    rank = int(rng.integers(1, 4))
    shape = [int(d) for d in rng.integers(1, 4, rank)]
    gdim, sdim, cdim = (int(rng.integers(0, rank)) for _ in range(3))
    shape[sdim] *= n  # divisible by the group size for reduce_scatter / all_to_all
    shape = tuple(shape)
    element = tensor_type((), dtype)[len("tensor<"):-1]
    gathered = list(shape)
    gathered[gdim] *= n
    scattered = list(shape)
    scattered[sdim] //= n
    a2a = list(shape)
    a2a[sdim] //= n
    a2a[cdim] *= n
    t = tensor_type(shape, dtype)
    results = [t, tensor_type(gathered, dtype), tensor_type(scattered, dtype), tensor_type(a2a, dtype)]
    prog = program(
        f"  %r0 = xla.all_reduce %a0, replica_groups = [] {computation(reducer, element)} : {t}\n"
        f"  %r1 = xla.all_gather %a0, all_gather_dim = {gdim}, replica_groups = [] : ({t}) -> {results[1]}\n"
        f"  %r2 = xla.reduce_scatter %a0, scatter_dimension = {sdim}, replica_groups = [], shard_count = {n}"
        f" {computation(reducer, element)} : ({t}) -> {results[2]}\n"
        f"  %r3 = xla.all_to_all %a0, split_dimension = {sdim}, concat_dimension = {cdim}, split_count = {n},"
        f" replica_groups = [] : ({t}) -> {results[3]}",
        [t],
        results,
    )
    xs = [random_array(rng, shape, dtype) for _ in range(n)]
    out = run_n(prog, per_replica(xs), replicas=n)
    reduced = numpy_fold(reducer, xs)
    assert_each(out, [reduced] * n, 0)
    assert_each(out, [np.concatenate(xs, axis=gdim)] * n, 1)
    assert_each(out, np.split(reduced, n, axis=sdim), 2)
    assert_each(out, [np.concatenate([np.split(x, n, axis=sdim)[i] for x in xs], axis=cdim) for i in range(n)], 3)


@pytest.mark.parametrize("seed", range(3))
def test_collective_permute_matches_numpy(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 6))
    targets = rng.permutation(n)
    pairs = [(int(s), int(targets[s])) for s in range(n) if rng.random() < 0.6]
    shape = tuple(int(d) for d in rng.integers(1, 4, int(rng.integers(0, 3))))
    t = tensor_type(shape, np.int16)
    text = "[" + ", ".join(f"[{s}, {d}]" for s, d in pairs) + "]"
    prog = program(f"  %r = xla.collective_permute %a0, source_target_pairs = {text} : {t}", [t], [t])
    xs = [random_array(rng, shape, np.int16) for _ in range(n)]
    expected = [np.zeros(shape, np.int16) for _ in range(n)]
    for s, d in pairs:
        expected[d] = xs[s]
    assert_each(run_n(prog, per_replica(xs), replicas=n), expected)


def test_reducer_region_that_is_not_elementwise():
    # A computation with a non-vectorizable op inside (a conditional) is applied
    # element by element.
    if "xla.conditional" not in xla_opt.interpreter.interpreted_op_names():
        pytest.skip("xla.conditional is not interpreted yet")
    t = "tensor<f32>"
    reducer = (
        "computation {\n"
        f"  ^bb0(%p: {t}, %q: {t}):\n"
        f"    %c = xla.compare %p, %q, comparison_direction = GT : ({t}, {t}) -> tensor<i1>\n"
        f"    %m = xla.conditional %c, %p, %q branches({{\n"
        f"    ^bb1(%u: {t}):\n      xla.return %u : {t}\n"
        f"    }}, {{\n    ^bb2(%v: {t}):\n      xla.return %v : {t}\n"
        f"    }}) : (tensor<i1>, {t}, {t}) -> {t}\n"
        f"    xla.return %m : {t}\n"
        "  }"
    )
    prog = program(
        f"  %r = xla.all_reduce %a0, replica_groups = [] {reducer} : tensor<3xf32>",
        ["tensor<3xf32>"],
        ["tensor<3xf32>"],
    )
    xs = [np.array([1, 5, 2], f32), np.array([4, 0, 3], f32)]
    # pred true takes branch 0 (%p), so the reducer picks %p when p > q, else %q: max
    assert_each(run_n(prog, per_replica(xs), replicas=2), [np.array([4, 5, 3], f32)] * 2)


# ---- tokens, infeed and outfeed ----------------------------------------------------

INFEED_OUTFEED = """func.func @main(%t0: !xla.token) -> (tensor<2x3xf32>, !xla.token) {
  %x, %n, %t1 = xla.infeed %t0, infeed_config = "feed" : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  %t2 = xla.infeed %t1 : (!xla.token) -> !xla.token
  %y, %t3 = xla.infeed %t2 : (!xla.token) -> (tensor<2x3xf32>, !xla.token)
  %s = xla.add %x, %y : tensor<2x3xf32>
  %t4 = xla.outfeed %s, %n, %t3, outfeed_config = "out" : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  %t5 = xla.outfeed %t4 : !xla.token
  %t6 = xla.outfeed %x, %t5 : (tensor<2x3xf32>, !xla.token) -> !xla.token
  %t7 = xla.after_all %t0, %t6 : !xla.token
  func.return %s, %t7 : tensor<2x3xf32>, !xla.token
}
"""


def test_infeed_outfeed_round_trip():
    # Infeed: "Lee un solo elemento de datos desde la interfaz de transmisión de entrada
    # implícita del dispositivo"; an empty shape "es, de hecho, una no-op".
    from xla_opt.interpreter.dtypes import Token

    x = np.arange(6, dtype=f32).reshape(2, 3)
    y = np.full((2, 3), 0.5, f32)
    outfeed: list = []
    s, token = xla_opt.run(INFEED_OUTFEED, Token(), infeed=[(x, np.array(7, i32)), y], outfeed=outfeed)
    np.testing.assert_array_equal(s, x + y)
    assert isinstance(token, Token)
    assert len(outfeed) == 2  # the empty outfeed writes nothing
    (o_s, o_n), (o_x,) = outfeed
    np.testing.assert_array_equal(o_s, x + y)
    assert o_n.dtype == i32 and o_n == 7
    np.testing.assert_array_equal(o_x, x)


def test_infeed_outfeed_per_replica():
    from xla_opt.interpreter.dtypes import Token

    feeds = [[(np.full((2, 3), r, f32), np.array(r, i32)), np.ones((2, 3), f32)] for r in range(2)]
    outfeed: list = []
    out = run_n(INFEED_OUTFEED, Token(), replicas=2, infeed=feeds, outfeed=outfeed)
    assert_each(out, [np.full((2, 3), 1, f32), np.full((2, 3), 2, f32)])
    assert len(outfeed) == 2
    for r in range(2):
        assert outfeed[r][0][1] == r
        np.testing.assert_array_equal(outfeed[r][1][0], np.full((2, 3), r, f32))


def test_infeed_queue_empty():
    from xla_opt.interpreter.dtypes import Token

    with pytest.raises(ReplicaError, match="the infeed queue of replica 0 is empty"):
        xla_opt.run(INFEED_OUTFEED, Token(), infeed=[(np.zeros((2, 3), f32), np.array(1, i32))])


def test_infeed_element_of_the_wrong_type():
    from xla_opt.interpreter.dtypes import Token

    with pytest.raises(ReplicaError, match=r"infeed element of replica 0, array #0: expected dtype float32, got float64"):
        xla_opt.run(INFEED_OUTFEED, Token(), infeed=[(np.zeros((2, 3)), np.array(1, i32)), np.zeros((2, 3), f32)])


# ---- send / recv -------------------------------------------------------------------


def test_send_then_recv_on_one_replica():
    # Send/Recv meet by channel: a send and a recv sharing channel_id. Messages of one
    # channel arrive in order.
    prog = """func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, !xla.token) {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.send %x, %t0, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  %t2 = xla.send %y, %t1, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  %a, %t3 = xla.recv %t2, channel_id = 1 : (!xla.token) -> (tensor<4xi32>, !xla.token)
  %b, %t4 = xla.recv %t3, channel_id = 1, is_host_transfer = false : (!xla.token) -> (tensor<4xi32>, !xla.token)
  func.return %a, %b, %t4 : tensor<4xi32>, tensor<4xi32>, !xla.token
}"""
    x, y = np.array([1, 2, 3, 4], i32), np.array([5, 6, 7, 8], i32)
    a, b, _ = xla_opt.run(prog, x, y)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, y)


SEND_RECV_2 = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %id = xla.replica_id : tensor<ui32>
  %i = xla.convert %id : (tensor<ui32>) -> tensor<i32>
  %r = xla.conditional %i, %x, %x branches({
  ^bb0(%a: tensor<3xf32>):
    %t0 = xla.after_all : !xla.token
    %t1 = xla.send %a, %t0, channel_id = 5 : (tensor<3xf32>, !xla.token) -> !xla.token
    xla.return %a : tensor<3xf32>
  }, {
  ^bb0(%a: tensor<3xf32>):
    %t0 = xla.after_all : !xla.token
    %v, %t1 = xla.recv %t0, channel_id = 5 : (!xla.token) -> (tensor<3xf32>, !xla.token)
    %s = xla.add %v, %a : tensor<3xf32>
    xla.return %s : tensor<3xf32>
  }) : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}"""


def needs_conditional():
    if "xla.conditional" not in xla_opt.interpreter.interpreted_op_names():
        pytest.skip("xla.conditional is not interpreted yet")


def test_send_on_one_replica_recv_on_another():
    needs_conditional()
    xs = [np.array([1, 2, 3], f32), np.array([10, 20, 30], f32)]
    out = run_n(SEND_RECV_2, per_replica(xs), replicas=2)
    assert_each(out, [xs[0], xs[0] + xs[1]])


def test_host_transfers():
    prog = """func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.send %x, %x, %t0, channel_id = 2, is_host_transfer = true : (tensor<2xi32>, tensor<2xi32>, !xla.token) -> !xla.token
  %y, %t2 = xla.recv %t1, channel_id = 3, is_host_transfer = true : (!xla.token) -> (tensor<2xi32>, !xla.token)
  func.return %y : tensor<2xi32>
}"""
    module = xla_opt.api.load_program(prog)
    x = np.array([4, 5], i32)
    context = ReplicaContext(1, host_to_device={3: [np.array([7, 8], i32)]})
    ((y,),) = run_replicas(module, "main", [[x]], context)
    np.testing.assert_array_equal(y, [7, 8])
    ((sender, data),) = context.device_to_host[2]
    assert sender == 0 and len(data) == 2
    np.testing.assert_array_equal(data[1], x)
    with pytest.raises(ReplicaError, match="the host has no data for channel 3"):
        run_replicas(module, "main", [[x]], ReplicaContext(1))


def test_recv_type_must_match_the_send():
    prog = """func.func @main(%x: tensor<3xi32>) -> tensor<4xi32> {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.send %x, %t0, channel_id = 1 : (tensor<3xi32>, !xla.token) -> !xla.token
  %y, %t2 = xla.recv %t1, channel_id = 1 : (!xla.token) -> (tensor<4xi32>, !xla.token)
  func.return %y : tensor<4xi32>
}"""
    with pytest.raises(ReplicaError, match=r"expected shape \[4\], got \[3\] \(sent by replica 0\)"):
        xla_opt.run(prog, np.zeros(3, i32))


# ---- replicas that cannot meet -----------------------------------------------------


def test_recv_without_send_is_a_deadlock():
    prog = """func.func @main() -> tensor<2xf32> {
  %t0 = xla.after_all : !xla.token
  %y, %t1 = xla.recv %t0, channel_id = 9 : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return %y : tensor<2xf32>
}"""
    start = time.monotonic()
    with pytest.raises(ReplicaError, match=r"deadlock: replica 0 waits in xla.recv \(<program>:3:3\) for a send on channel 9"):
        xla_opt.run(prog)
    with pytest.raises(ReplicaError, match=r"deadlock: replica 0 waits in xla.recv .*; replica 1 waits in xla.recv"):
        run_n(prog, replicas=2)
    assert time.monotonic() - start < 5  # found at once, not by a timeout


def test_collective_reached_by_some_replicas_is_a_deadlock():
    # AllReduce: "si una réplica ejecuta un nodo AllReduce más veces que otra, la
    # réplica anterior esperará por siempre" -- here it is reported instead.
    needs_conditional()
    prog = f"""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %id = xla.replica_id : tensor<ui32>
  %i = xla.convert %id : (tensor<ui32>) -> tensor<i32>
  %r = xla.conditional %i, %x, %x branches({{
  ^bb0(%a: tensor<2xf32>):
    %s = xla.all_reduce %a, replica_groups = [] {computation('add', 'f32')} : tensor<2xf32>
    xla.return %s : tensor<2xf32>
  }}, {{
  ^bb0(%a: tensor<2xf32>):
    xla.return %a : tensor<2xf32>
  }}) : (tensor<i32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}}"""
    with pytest.raises(
        ReplicaError,
        match=r"deadlock: replica 0 waits in xla.all_reduce \(<program>:6:5\) for replicas \{1\} of group "
        r"\{0, 1\}; replicas \{1\} have returned",
    ) as info:
        run_n(prog, np.zeros(2, f32), replicas=2)
    assert info.value.replica == 0


def test_replicas_at_different_collectives():
    needs_conditional()
    prog = f"""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %id = xla.replica_id : tensor<ui32>
  %i = xla.convert %id : (tensor<ui32>) -> tensor<i32>
  %r = xla.conditional %i, %x, %x branches({{
  ^bb0(%a: tensor<2xf32>):
    %s = xla.all_reduce %a, replica_groups = [] {computation('add', 'f32')} : tensor<2xf32>
    xla.return %s : tensor<2xf32>
  }}, {{
  ^bb0(%a: tensor<2xf32>):
    %s = xla.collective_permute %a, source_target_pairs = [[0, 1]] : tensor<2xf32>
    xla.return %s : tensor<2xf32>
  }}) : (tensor<i32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}}"""
    with pytest.raises(ReplicaError, match=r"the replicas of group \{0, 1\} reached different collectives: "
                       r"replica 0 at xla.all_reduce \(<program>:6:5\); replica 1 at xla.collective_permute"):
        run_n(prog, np.zeros(2, f32), replicas=2)


def test_a_failing_replica_stops_the_others():
    # Replica 1 has no infeed data and fails while replica 0 waits in the all_reduce:
    # the error raised is replica 1's, not a timeout.
    prog = f"""func.func @main() -> tensor<2xf32> {{
  %t0 = xla.after_all : !xla.token
  %x, %t1 = xla.infeed %t0 : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %r = xla.all_reduce %x, replica_groups = [] {computation('add', 'f32')} : tensor<2xf32>
  func.return %r : tensor<2xf32>
}}"""
    with pytest.raises(ReplicaError, match="the infeed queue of replica 1 is empty") as info:
        run_n(prog, replicas=2, infeed=[[np.zeros(2, f32)], []])
    assert info.value.replica == 1
    assert not isinstance(info.value, ReplicaAborted)


def test_rendezvous_times_out_on_a_replica_that_never_arrives():
    # Replica 1 is busy (never blocks, never returns): replica 0 gives up after the timeout.
    rendezvous = Rendezvous(2, timeout=0.2)
    with pytest.raises(ReplicaError, match=r"timed out after 0.2 s: replica 0 waits in op for replicas \{1\}"):
        rendezvous.exchange(0, (0, 1), "key", "op", 1)
    with pytest.raises(ReplicaAborted, match="stopped because timed out"):
        rendezvous.exchange(1, (0, 1), "key", "op", 2)


def test_rendezvous_exchanges_in_program_order():
    # Consecutive collectives of one group meet in order, even when a replica runs ahead.
    n, rounds = 3, 20
    rendezvous = Rendezvous(n, timeout=10)
    seen: dict[int, list] = {r: [] for r in range(n)}

    def replica(r: int) -> None:
        for k in range(rounds):
            got = rendezvous.exchange(r, tuple(range(n)), f"round{k}", "op", (r, k))
            seen[r].append(sorted(got.values()))
        rendezvous.finish(r)

    threads = [threading.Thread(target=replica, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    for r in range(n):
        assert seen[r] == [[(s, k) for s in range(n)] for k in range(rounds)]


# ---- the Python API with replicas --------------------------------------------------


def test_inputs_for_every_replica_or_one_per_replica():
    prog = program("  %r = xla.add %a0, %a1 : tensor<2xi32>", ["tensor<2xi32>"] * 2, ["tensor<2xi32>"])
    shared = np.array([1, 2], i32)
    each = per_replica([np.array([10, 20], i32), np.array([30, 40], i32), np.array([50, 60], i32)])
    out = run_n(prog, shared, each, replicas=3)
    assert_each(out, [np.array([11, 22], i32), np.array([31, 42], i32), np.array([51, 62], i32)])
    with pytest.raises(ValueError, match=r"input #1 of @main: expected shape \[2\] \(for every replica\) or \[3, 2\] \(one per replica\), got \[2, 2\]"):
        run_n(prog, shared, each[:2], replicas=3)
    with pytest.raises(ValueError, match=r"input #1 of @main for replica 0: expected dtype int32, got int64"):
        run_n(prog, shared, each.astype(np.int64), replicas=3)
    f = xla_opt.compile(prog, replicas=3)
    assert len(f(shared, shared)) == 3
    with pytest.raises(ValueError, match="the number of replicas must be a positive integer, got 0"):
        xla_opt.compile(prog, replicas=0)
    with pytest.raises(ValueError, match=r"infeed: expected one list of elements per replica \(3\), got 1"):
        f(shared, shared, infeed=[[]])


def test_replica_groups_of_different_sizes():
    # XLA's all_reduce allows groups of different sizes; StableHLO spells them as a
    # matrix padded with -1 at the end of the shorter rows (issue 13).
    prog = program(
        f"  %r = xla.all_reduce %a0, replica_groups = [[0, 2, -1], [1, 3, 4]] {computation('add', 'f32')} : tensor<2xf32>",
        ["tensor<2xf32>"],
        ["tensor<2xf32>"],
    )
    xs = [np.array([1, 2], f32) * 10**i for i in range(5)]
    s02, s134 = xs[0] + xs[2], xs[1] + xs[3] + xs[4]
    assert_each(run_n(prog, per_replica(xs), replicas=5), [s02, s134, s02, s134, s134])


def test_replica_groups_of_different_sizes_do_not_fit_all_gather():
    prog = program(
        "  %r = xla.all_gather %a0, all_gather_dim = 0, replica_groups = [[0, 2, -1], [1, 3, 4]]"
        " : (tensor<2xf32>) -> tensor<6xf32>",
        ["tensor<2xf32>"],
        ["tensor<6xf32>"],
    )
    with pytest.raises(xla_opt.ProgramError, match="must all have the same size"):
        xla_opt.run(prog, np.zeros((5, 2), f32), replicas=5)
