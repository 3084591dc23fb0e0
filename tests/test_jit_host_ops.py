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
from tests.util import both, tensor_type, ttype

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


# ---- tokens: infeed, outfeed, send, recv, after_all ------------------------------------

INFEED_COMPUTE_OUTFEED = """func.func @main(%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %t0 = xla.after_all : !xla.token
  %x, %n, %t1 = xla.infeed %t0, infeed_config = "feed" : (!xla.token) -> (tensor<2x3xf32>, tensor<i32>, !xla.token)
  %t2 = xla.infeed %t1 : (!xla.token) -> !xla.token
  %z, %t3 = xla.infeed %t2 : (!xla.token) -> (tensor<2x3xf32>, !xla.token)
  %xy = xla.add %x, %y : tensor<2x3xf32>
  %s = xla.multiply %xy, %z : tensor<2x3xf32>
  %t4 = xla.outfeed %s, %n, %t3, outfeed_config = "out" : (tensor<2x3xf32>, tensor<i32>, !xla.token) -> !xla.token
  %t5 = xla.outfeed %t4 : !xla.token
  %t6 = xla.outfeed %x, %t5 : (tensor<2x3xf32>, !xla.token) -> !xla.token
  %t7 = xla.after_all %t0, %t6 : !xla.token
  func.return %s : tensor<2x3xf32>
}"""


def run_both_with_feeds(prog: str, inputs: list, infeed: list) -> tuple[list, list]:
    """Results and outfeed of the JIT, checked equal to the interpreter's."""
    runs = []
    for backend in ("interpreter", "jit"):
        outfeed: list = []
        results = xla_opt.run(prog, *inputs, backend=backend, infeed=list(infeed), outfeed=outfeed)
        runs.append((results, outfeed))
    (expected, expected_feed), (got, got_feed) = runs
    for g, e in zip([*got, *(a for el in got_feed for a in el)], [*expected, *(a for el in expected_feed for a in el)],
                    strict=True):  # fmt: skip
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(g, e)
    assert [len(el) for el in got_feed] == [len(el) for el in expected_feed]
    return got, got_feed


def test_infeed_compute_outfeed():
    x, y, z = values((2, 3), np.float32), values((2, 3), np.float32, 1), values((2, 3), np.float32, 2)
    (s,), outfeed = run_both_with_feeds(INFEED_COMPUTE_OUTFEED, [y], [(x, np.array(7, np.int32)), z])
    np.testing.assert_array_equal(s, (x + y) * z)
    assert len(outfeed) == 2  # the empty outfeed writes nothing
    np.testing.assert_array_equal(outfeed[0][0], s)
    assert outfeed[0][1] == 7 and outfeed[0][1].dtype == np.int32
    np.testing.assert_array_equal(outfeed[1][0], x)


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: np.dtype(d).name)
def test_infeed_outfeed_of_every_element_type(dtype):
    t = tensor_type((3,), dtype)
    prog = f"""func.func @main() -> {t} {{
  %t0 = xla.after_all : !xla.token
  %x, %t1 = xla.infeed %t0 : (!xla.token) -> ({t}, !xla.token)
  %r = xla.reverse %x, dimensions = [0] : {t}
  %t2 = xla.outfeed %r, %x, %t1 : ({t}, {t}, !xla.token) -> !xla.token
  func.return %x : {t}
}}"""
    x = values((3,), dtype)
    (got,), outfeed = run_both_with_feeds(prog, [], [x])
    np.testing.assert_array_equal(got, x)
    np.testing.assert_array_equal(outfeed[0][0], x[::-1])


def test_tokens_through_a_loop_and_a_call():
    # tokens in a while's state and a callee's signature stand for nothing (no data)
    prog = """func.func private @emit(%v: tensor<i32>, %t: !xla.token) -> !xla.token {
  %t1 = xla.outfeed %v, %t : (tensor<i32>, !xla.token) -> !xla.token
  func.return %t1 : !xla.token
}
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %t0 = xla.after_all : !xla.token
  %zero = xla.constant dense<0> : tensor<i32>
  %r:3 = xla.while %zero, %t0, %n cond {
  ^bb0(%i: tensor<i32>, %t: !xla.token, %m: tensor<i32>):
    %lt = xla.compare %i, %m, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } body {
  ^bb0(%i: tensor<i32>, %t: !xla.token, %m: tensor<i32>):
    %d, %t1 = xla.infeed %t : (!xla.token) -> (tensor<i32>, !xla.token)
    %next = xla.add %i, %d : tensor<i32>
    %t2 = xla.call %next, %t1, callee = @emit : (tensor<i32>, !xla.token) -> !xla.token
    xla.return %next, %t2, %m : tensor<i32>, !xla.token, tensor<i32>
  } : (tensor<i32>, !xla.token, tensor<i32>) -> (tensor<i32>, !xla.token, tensor<i32>)
  func.return %r#0 : tensor<i32>
}"""
    feed = [np.array(d, np.int32) for d in (2, 3, 4)]
    (total,), outfeed = run_both_with_feeds(prog, [np.array(7, np.int32)], feed)
    assert total == 9 and [int(el[0]) for el in outfeed] == [2, 5, 9]


def test_send_then_recv_on_one_replica():
    # send and recv meet by channel_id, messages of one channel in order
    prog = """func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.send %x, %t0, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  %t2 = xla.send %y, %t1, channel_id = 1 : (tensor<4xi32>, !xla.token) -> !xla.token
  %a, %t3 = xla.recv %t2, channel_id = 1 : (!xla.token) -> (tensor<4xi32>, !xla.token)
  %b, %t4 = xla.recv %t3, channel_id = 1, is_host_transfer = false : (!xla.token) -> (tensor<4xi32>, !xla.token)
  func.return %a, %b : tensor<4xi32>, tensor<4xi32>
}"""
    x, y = np.array([1, 2, 3, 4], np.int32), np.array([5, 6, 7, 8], np.int32)
    both(prog, x, y)
    a, b = xla_opt.run(prog, x, y, backend="jit")
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, y)


HOST_TRANSFERS = """func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %t0 = xla.after_all : !xla.token
  %t1 = xla.send %x, %x, %t0, channel_id = 2, is_host_transfer = true : (tensor<2xi32>, tensor<2xi32>, !xla.token) -> !xla.token
  %y, %t2 = xla.recv %t1, channel_id = 3, is_host_transfer = true : (!xla.token) -> (tensor<2xi32>, !xla.token)
  func.return %y : tensor<2xi32>
}"""


def test_host_transfers_use_the_contexts_host_queues():
    from xla_opt.interpreter.replicas import ReplicaContext, ReplicaError

    f = xla_opt.compile(HOST_TRANSFERS, backend="jit")
    x = np.array([4, 5], np.int32)
    context = ReplicaContext(1, host_to_device={3: [np.array([7, 8], np.int32)]})
    (y,) = f.jit.call_checked([x], context)
    np.testing.assert_array_equal(y, [7, 8])
    ((sender, data),) = context.device_to_host[2]
    assert sender == 0 and len(data) == 2
    np.testing.assert_array_equal(data[1], x)
    with pytest.raises(ReplicaError, match=r"xla.recv \(<program>:4:3\): the host has no data for channel 3"):
        f(x)


@pytest.mark.parametrize(
    "infeed, error",
    [
        ([(np.zeros((2, 3), np.float32), np.array(1, np.int32))],
         r"xla.infeed \(<program>:5:3\): the infeed queue of replica 0 is empty"),
        ([(np.zeros((2, 3)), np.array(1, np.int32)), np.zeros((2, 3), np.float32)],
         r"infeed element of replica 0, array #0: expected dtype float32, got float64"),
        ([np.zeros((2, 3), np.float32)], r"infeed element of replica 0 has 1 arrays"),
    ],
)
def test_infeed_errors_are_clear_and_do_not_hang(infeed, error):
    from xla_opt.interpreter.replicas import ReplicaError

    y = np.ones((2, 3), np.float32)
    for backend in ("interpreter", "jit"):
        with pytest.raises(ReplicaError, match=error):
            xla_opt.run(INFEED_COMPUTE_OUTFEED, y, backend=backend, infeed=infeed)


def test_recv_without_send_is_a_deadlock_not_a_hang():
    from xla_opt.interpreter.replicas import ReplicaError

    prog = """func.func @main() -> tensor<2xf32> {
  %t0 = xla.after_all : !xla.token
  %y, %t1 = xla.recv %t0, channel_id = 9 : (!xla.token) -> (tensor<2xf32>, !xla.token)
  func.return %y : tensor<2xf32>
}"""
    for backend in ("interpreter", "jit"):
        with pytest.raises(ReplicaError, match=r"deadlock: replica 0 waits in xla.recv \(<program>:3:3\)"):
            xla_opt.run(prog, backend=backend)


REPLICATED = """func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>, tensor<8xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce %x, replica_groups = [] computation {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  } : tensor<4xf32>
  %r = xla.replica_id : tensor<ui32>
  %g = xla.all_gather %x, all_gather_dim = 0, replica_groups = [[1, 0]] : (tensor<4xf32>) -> tensor<8xf32>
  %p = xla.collective_permute %x, source_target_pairs = [[0, 1], [1, 0]] : tensor<4xf32>
  func.return %0, %r, %g, %p : tensor<4xf32>, tensor<ui32>, tensor<8xf32>, tensor<4xf32>
}"""


def test_jit_runs_replicas_as_threads():
    """replicas=N on the jit backend: one compiled program whose collectives and
    replica_id are host calls on the threads' shared rendezvous; the interpreter's
    results, replica by replica (it used to run one replica only)."""
    x = np.stack([np.arange(4, dtype=np.float32), np.full(4, 10, np.float32)])
    interpreted = xla_opt.run(REPLICATED, x, replicas=2)
    compiled = xla_opt.run(REPLICATED, x, replicas=2, backend="jit")
    for want, got in zip(interpreted, compiled, strict=True):
        for w, g in zip(want, got, strict=True):
            np.testing.assert_array_equal(g, w)
    assert compiled[1][1] == 1 and compiled[0][2].tolist() == [10] * 4 + [0, 1, 2, 3]


def test_jit_replica_errors_are_the_interpreters():
    """A recv of a host transfer nothing sent: the same error on both backends."""
    from xla_opt.interpreter.replicas import ReplicaError

    messages = []
    for backend in ("interpreter", "jit"):
        with pytest.raises(ReplicaError) as error:
            xla_opt.run(HOST_TRANSFERS, np.zeros((2, 2), np.int32), backend=backend, replicas=2)
        messages.append(str(error.value).splitlines()[0])
    assert messages[0] == messages[1]


# ---- custom_call ------------------------------------------------------------------------


def test_custom_call_of_a_python_target(targets):
    # the spec's example: myfunc(x: f32[2], y: f32[2x3]) -> f32[3x3]
    seen = []

    def myfunc(x, y):
        seen.append(x.flags.writeable)
        return np.outer(y.sum(axis=0), x.sum() * np.ones(3, np.float32)).astype(np.float32)

    targets("myfunc", myfunc)
    x, y = np.array([1, 2], np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    prog = program('  %r0 = xla.custom_call %a0, %a1, call_target_name = "myfunc" : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>',
                   [ttype(x), ttype(y)], ["tensor<3x3xf32>"])  # fmt: skip
    both(prog, x, y)
    assert seen == [False, False]  # operands are read-only on both backends
    np.testing.assert_array_equal(xla_opt.run(prog, x, y, backend="jit")[0], np.outer([3, 5, 7], [3, 3, 3]))


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: np.dtype(d).name)
def test_custom_call_of_every_element_type(targets, dtype):
    targets("flip_and_count", lambda x: (x[::-1].copy(), np.array(x.size, np.int64)))
    x = values((5,), dtype)
    t = ttype(x)
    prog = program(f'  %r0, %r1 = xla.custom_call %a0, call_target_name = "flip_and_count" : ({t}) -> ({t}, tensor<i64>)',
                   [t], [t, "tensor<i64>"])  # fmt: skip
    both(prog, x)


def test_custom_call_without_results_has_its_effect(targets):
    seen = []
    targets("sink", lambda v: seen.append(float(v)))
    prog = """func.func @main(%f: tensor<f32>) -> tensor<f32> {
  xla.custom_call %f, call_target_name = "sink", has_side_effect = true : (tensor<f32>) -> ()
  func.return %f : tensor<f32>
}"""
    both(prog, np.array(2.5, np.float32))
    assert seen == [2.5, 2.5]


def test_custom_call_errors_are_the_interpreters(targets):
    targets("wrong_type", lambda x: x.astype(np.float64))
    targets("raises", lambda x: 1 / 0)
    prog = program('  %r0 = xla.custom_call %a0, call_target_name = "TARGET" : (tensor<2xf32>) -> tensor<2xf32>',
                   ["tensor<2xf32>"], ["tensor<2xf32>"])  # fmt: skip
    x = np.ones(2, np.float32)
    for backend in ("interpreter", "jit"):
        with pytest.raises(ValueError, match=r'custom_call "wrong_type" result #0: expected dtype float32, got float64'):
            xla_opt.run(prog.replace("TARGET", "wrong_type"), x, backend=backend)
        with pytest.raises(ZeroDivisionError):
            xla_opt.run(prog.replace("TARGET", "raises"), x, backend=backend)
        with pytest.raises(LookupError, match=r'"unknown_target".*registered: .*raises'):
            xla_opt.run(prog.replace("TARGET", "unknown_target"), x, backend=backend)


NATIVE_SCALE_AND_SUM = """
; XLA's CPU custom-call convention (version 1): void f(void* out, const void** in);
; two results, so `out` is an array of two result pointers
define void @xla_opt_test_scale_and_sum(ptr %out, ptr %in) {
entry:
  %x = load ptr, ptr %in
  %kp = getelementptr ptr, ptr %in, i64 1
  %k = load ptr, ptr %kp
  %scaled = load ptr, ptr %out
  %sump = getelementptr ptr, ptr %out, i64 1
  %sum = load ptr, ptr %sump
  %kv = load double, ptr %k
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc2, %loop ]
  %xp = getelementptr double, ptr %x, i64 %i
  %xv = load double, ptr %xp
  %v = fmul double %xv, %kv
  %sp = getelementptr double, ptr %scaled, i64 %i
  store double %v, ptr %sp
  %acc2 = fadd double %acc, %xv
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 6
  br i1 %done, label %exit, label %loop
exit:
  store double %acc2, ptr %sum
  ret void
}
"""


def test_custom_call_of_a_native_symbol():
    # a native function (compiled here, made resolvable with add_symbol) is called
    # directly with the buffers: no Python on the way
    import llvmlite.binding as llvm

    from xla_opt.runtime.llvm import compile_llvm_ir

    native = compile_llvm_ir(NATIVE_SCALE_AND_SUM)
    llvm.add_symbol("xla_opt_test_scale_and_sum", native.address("xla_opt_test_scale_and_sum"))
    prog = program('  %r0, %r1 = xla.custom_call %a0, %a1, call_target_name = "xla_opt_test_scale_and_sum"'
                   " : (tensor<2x3xf64>, tensor<f64>) -> (tensor<2x3xf64>, tensor<f64>)",
                   ["tensor<2x3xf64>", "tensor<f64>"], ["tensor<2x3xf64>", "tensor<f64>"])  # fmt: skip
    x, k = values((2, 3), np.float64), np.array(2.5)
    scaled, total = xla_opt.run(prog, x, k, backend="jit")
    np.testing.assert_array_equal(scaled, x * 2.5)
    assert total == np.add.reduce(x.ravel())  # summed in order


def test_native_symbol_named_with_any_characters():
    """Issue 13: a target is any string; the JIT's wrapper declared it unquoted, so a
    native symbol named with a space or a quote broke its LLVM IR."""
    import llvmlite.binding as llvm

    from xla_opt.runtime.llvm import compile_llvm_ir

    name = 'xla_opt test "scale" and sum'
    native = compile_llvm_ir(NATIVE_SCALE_AND_SUM)
    llvm.add_symbol(name, native.address("xla_opt_test_scale_and_sum"))
    quoted = name.replace('"', '\\"')
    prog = program(f'  %r0, %r1 = xla.custom_call %a0, %a1, call_target_name = "{quoted}"'
                   " : (tensor<2x3xf64>, tensor<f64>) -> (tensor<2x3xf64>, tensor<f64>)",
                   ["tensor<2x3xf64>", "tensor<f64>"], ["tensor<2x3xf64>", "tensor<f64>"])  # fmt: skip
    x, k = values((2, 3), np.float64), np.array(2.5)
    scaled, _ = xla_opt.run(prog, x, k, backend="jit")
    np.testing.assert_array_equal(scaled, x * 2.5)


C_TARGET = r"""
/* XLA's CPU custom-call convention (version 1), one result: `out` is its buffer */
#include <math.h>
void xla_opt_test_hypot(void* out, const void** in) {
  const float* x = in[0];
  const float* y = in[1];
  float* r = out;
  for (int i = 0; i < 4; ++i) r[i] = hypotf(x[i], y[i]);
}
"""


def test_custom_call_of_a_symbol_in_a_loaded_library(tmp_path):
    # a C library loaded with load_library_permanently: its symbols resolve in the JIT
    import shutil
    import subprocess

    import llvmlite.binding as llvm

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    (tmp_path / "target.c").write_text(C_TARGET)
    library = tmp_path / "libtarget.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", library, tmp_path / "target.c", "-lm"], check=True)
    llvm.load_library_permanently(str(library))
    prog = program('  %r0 = xla.custom_call %a0, %a1, call_target_name = "xla_opt_test_hypot"'
                   " : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
                   ["tensor<4xf32>"] * 2, ["tensor<4xf32>"])  # fmt: skip
    x, y = np.array([3, 5, 0, -8], np.float32), np.array([4, 12, 0, 15], np.float32)
    (r,) = xla_opt.run(prog, x, y, backend="jit")
    np.testing.assert_array_equal(r, [5, 13, 0, 17])
