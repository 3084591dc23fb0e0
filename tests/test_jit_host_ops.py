"""The host-side ops on the JIT against the reference interpreter: the collectives and
replica_id on one replica, get/set_dimension_size, the token ops through the host
queues and channels, and custom calls (Python targets through a host callback, native
symbols called directly). Expected values come from the interpreter (the oracle) and,
where handy, numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from tests.test_interp_collectives import computation
from tests.test_jit_differential import both
from tests.util import tensor_type, ttype

BF16 = np.dtype(ml_dtypes.bfloat16)
ALL_TYPES = [np.float32, np.float64, np.float16, BF16, np.int8, np.int32, np.int64, np.uint8, np.uint32,
             np.uint64, np.bool_]  # fmt: skip


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0, 100, shape).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def program(body: str, params: list[str], results: list[str]) -> str:
    """`body` defines %r0, %r1, ... (one per result type)."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    return (
        f"func.func @main({args}) -> ({', '.join(results)}) {{\n{body}\n"
        f"  func.return {names} : {', '.join(results)}\n}}\n"
    )


def jit_error(prog: str, *inputs) -> str:
    """The message of the error the JIT raises compiling `prog`."""
    with pytest.raises(NotImplementedError) as info:
        xla_opt.run(prog, *inputs, backend="jit")
    return str(info.value)


# ---- replica_id and the collectives on one replica ----------------------------------


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: np.dtype(d).name)
def test_collectives_of_one_replica(dtype):
    # one replica: all_reduce folds one value, all_gather / reduce_scatter / all_to_all
    # have one block; collective_permute gives zeros to a replica that is no target
    x = values((2, 4), dtype)
    t = ttype(x)
    element = t.removeprefix("tensor<2x4x").removesuffix(">")
    op = "or" if dtype == np.bool_ else "add"
    body = (
        f"  %r0 = xla.all_reduce %a0, replica_groups = [] {computation(op, element)} : {t}\n"
        f"  %r1 = xla.all_gather %a0, all_gather_dim = 1, replica_groups = [[0]] : ({t}) -> {t}\n"
        f"  %r2 = xla.reduce_scatter %a0, scatter_dimension = 0, replica_groups = [], shard_count = 1"
        f" {computation(op, element)} : ({t}) -> {t}\n"
        f"  %r3 = xla.all_to_all %a0, split_dimension = 1, concat_dimension = 0, split_count = 1,"
        f" replica_groups = [[0]] : ({t}) -> {t}\n"
        f"  %r4 = xla.collective_permute %a0, source_target_pairs = [[0, 0]], channel_id = 3 : {t}\n"
        f"  %r5 = xla.collective_permute %a0, source_target_pairs = [] : {t}\n"
        "  %r6 = xla.replica_id : tensor<ui32>"
    )
    prog = program(body, [t], [t] * 6 + ["tensor<ui32>"])
    both(prog, x)
    got = xla_opt.run(prog, x, backend="jit")
    for r in got[:5]:
        np.testing.assert_array_equal(r, x)
    np.testing.assert_array_equal(got[5], np.zeros_like(x))
    assert got[6].dtype == np.uint32 and got[6] == 0


def test_all_reduce_of_several_inputs():
    x, y = values((3,), np.float32), values((2, 2), np.float32, seed=1)
    body = f"  %r0, %r1 = xla.all_reduce %a0, %a1, replica_groups = [[0]] {computation('maximum', 'f32')} : (tensor<3xf32>, tensor<2x2xf32>) -> (tensor<3xf32>, tensor<2x2xf32>)"
    both(program(body, [ttype(x), ttype(y)], [ttype(x), ttype(y)]), x, y)


def test_replica_id_in_arithmetic():
    x = np.array([1, 2, 3], np.uint32)
    body = (
        "  %id = xla.replica_id : tensor<ui32>\n"
        "  %r0 = xla.add %a0, %id, broadcast_dimensions = [] : (tensor<3xui32>, tensor<ui32>) -> tensor<3xui32>"
    )
    both(program(body, [ttype(x)], [ttype(x)]), x)


@pytest.mark.parametrize(
    "op, message",
    [
        ("xla.all_gather %a0, all_gather_dim = 0, replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>",
         r"replica_groups \[\[0, 1\]\] names replica ids \[1\]"),
        ("xla.all_gather %a0, all_gather_dim = 0, replica_groups = [] : (tensor<2xf32>) -> tensor<4xf32>",
         r"the result type tensor<4xf32> is that of a replica group of several"),
        ("xla.all_to_all %a0, split_dimension = 0, concat_dimension = 0, split_count = 2, replica_groups = []"
         " : (tensor<2xf32>) -> tensor<2xf32>", "split_count 2 needs as many replicas"),
        ("xla.collective_permute %a0, source_target_pairs = [[0, 1]] : tensor<2xf32>",
         r"source_target_pairs \[\[0, 1\]\] names replica ids \[1\]"),
    ],
)
def test_programs_for_several_replicas_are_a_located_error(op, message):
    prog = program(f"  %r0 = {op}", ["tensor<2xf32>"], [op.rsplit("-> ", 1)[-1] if "->" in op else "tensor<2xf32>"])
    x = np.ones(2, np.float32)
    with pytest.raises(Exception, match="replica"):
        xla_opt.run(prog, x)  # the interpreter fails at run time on one replica
    text = jit_error(prog, x)
    assert "<program>:2:" in text and "the jit backend runs one replica" in text
    assert __import__("re").search(message, text), text


# ---- get_dimension_size, set_dimension_size ------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, BF16, np.uint8, np.bool_], ids=lambda d: np.dtype(d).name)
def test_get_dimension_size_of_static_shapes(dtype):
    x = values((4, 3), dtype)
    t = ttype(x)
    body = (
        f"  %r0 = xla.get_dimension_size %a0, dimension = 0 : ({t}) -> tensor<i32>\n"
        f"  %r1 = xla.get_dimension_size %a0, dimension = 1 : ({t}) -> tensor<i32>"
    )
    prog = program(body, [t], ["tensor<i32>"] * 2)
    both(prog, x)
    assert [int(r) for r in xla_opt.run(prog, x, backend="jit")] == [4, 3]


SET_THEN_GET = """func.func @main(%x: tensor<4x3xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<4x3xf32>, tensor<12xf32>) {
  %s = xla.set_dimension_size %x, %n, dimension = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %g0 = xla.get_dimension_size %s, dimension = 0 : (tensor<4x3xf32>) -> tensor<i32>
  %g1 = xla.get_dimension_size %s, dimension = 1 : (tensor<4x3xf32>) -> tensor<i32>
  %r = xla.reshape %s : (tensor<4x3xf32>) -> tensor<12xf32>
  func.return %g0, %g1, %s, %r : tensor<i32>, tensor<i32>, tensor<4x3xf32>, tensor<12xf32>
}"""


@pytest.mark.parametrize("size", [2, 4, 9, -1])
def test_set_dimension_size_then_get_and_reshape(size):
    # the size read back is the one set, within the bound [0, 4]; the data is the
    # operand's ("pasa el operando como resultado")
    x = values((4, 3), np.float32)
    n = np.array(size, np.int32)
    both(SET_THEN_GET, x, n)
    g0, g1, s, r = xla_opt.run(SET_THEN_GET, x, n, backend="jit")
    assert (int(g0), int(g1)) == (min(max(size, 0), 4), 3)
    np.testing.assert_array_equal(s, x)
    np.testing.assert_array_equal(r, x.reshape(12))


def test_set_dimension_size_read_by_a_reduction_runs_on_the_interpreter():
    # reductions ignore the padding beyond a run-time size: the JIT has static shapes
    prog = """func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<f32> {
  %s = xla.set_dimension_size %x, %n, dimension = 0 : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  %z = xla.constant dense<0.0> : tensor<f32>
  %r = xla.reduce (%s), (%z), dimensions = [0] body {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = xla.add %p, %q : tensor<f32>
    xla.return %t : tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}"""
    x, n = np.array([1, 2, 3, 4], np.float32), np.array(2, np.int32)
    assert xla_opt.run(prog, x, n)[0] == 3
    assert "'xla.set_dimension_size' op is not lowered to linalg" in jit_error(prog, x, n)
