"""The Python builder (xla_opt/builder.py): programs built op by op with XlaBuilder's
names run on both backends and agree with numpy; result types come from the ops' own
inference; mistakes raise the verifier's located one-line diagnostic."""

from __future__ import annotations

import inspect
import keyword
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import Float64Type, TensorType, f32

import xla_opt
from xla_opt import Builder

BACKENDS = ["interpreter", "jit"]


def line_of(marker: str) -> int:
    """The line of this file holding `marker` (diagnostics point at the builder call)."""
    lines = inspect.getsource(sys.modules[__name__]).splitlines()
    return next(i for i, line in enumerate(lines, 1) if marker in line and "line_of(" not in line)


@pytest.mark.parametrize("backend", BACKENDS)
def test_spec_broadcasting_example(backend):
    """broadcasting.md: |1 2 3; 4 5 6| + |7 8 9| with broadcast_dimensions (1)."""
    b = Builder("f")
    x = b.parameter(0, (2, 3), "f32")
    v = b.parameter(1, (3,), "f32")
    module = b.build(b.add(x, v, broadcast_dimensions=[1]))
    X = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    V = np.array([7, 8, 9], np.float32)
    (y,) = xla_opt.run(module, X, V, backend=backend)
    np.testing.assert_array_equal(y, X + V)
    np.testing.assert_array_equal(y, [[8, 10, 12], [11, 13, 15]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_reduce_with_python_reducers(backend):
    """A sum and a variadic argmax (two inputs, two accumulators) from Python callables."""
    b = Builder()
    x = b.parameter(0, (3, 4), "f32")
    total = b.reduce(x, 0.0, lambda c, acc, e: c.add(acc, e), dimensions=[1])

    def argmax(c, best, best_i, e, i):
        take = c.gt(e, best)
        return c.select(take, e, best), c.select(take, i, best_i)

    index = b.iota((3, 4), "s32", iota_dimension=1)
    _, where = b.reduce([x, index], [b.constant(-np.inf), b.constant(0)], argmax, dimensions=[1])
    module = b.build(total, where)
    X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    s, i = xla_opt.run(module, X, backend=backend)
    np.testing.assert_allclose(s, X.sum(axis=1), rtol=1e-6)
    np.testing.assert_array_equal(i, X.argmax(axis=1))


@pytest.mark.parametrize("backend", BACKENDS)
def test_while_loop(backend):
    """x <- x * 0.5 + 1, n times: a state of a counter and a vector."""
    b = Builder()
    x = b.parameter(0, (4,), "f32")
    n = b.parameter(1, (), "s32")
    _, _, out = b.while_(
        lambda c, i, n, x: c.lt(i, n),
        lambda c, i, n, x: (c.add(i, 1), n, c.add(c.mul(x, 0.5), 1.0)),
        (b.constant(0), n, x),
    )
    module = b.build(out)
    X = np.array([0, 1, 2, 8], np.float32)
    (y,) = xla_opt.run(module, X, np.int32(5), backend=backend)
    expected = X.copy()
    for _ in range(5):
        expected = expected * np.float32(0.5) + np.float32(1)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sort_with_comparator(backend):
    """Keys sorted descending with their values alongside (a comparator over pairs)."""
    b = Builder()
    keys = b.parameter(0, (6,), "f32")
    values = b.parameter(1, (6,), "s32")
    sorted_keys, sorted_values = b.sort([keys, values], lambda c, k0, k1, v0, v1: c.gt(k0, k1), is_stable=True)
    module = b.build(sorted_keys, sorted_values)
    K = np.array([3, 1, 4, 1, 5, 9], np.float32)
    V = np.arange(6, dtype=np.int32)
    k, v = xla_opt.run(module, K, V, backend=backend)
    order = np.argsort(-K, kind="stable")
    np.testing.assert_array_equal(k, K[order])
    np.testing.assert_array_equal(v, V[order])


@pytest.mark.parametrize("backend", BACKENDS)
def test_dot_general(backend):
    """A batched matrix product: batch 0, contracting lhs 2 with rhs 1."""
    b = Builder()
    lhs = b.parameter(0, (2, 3, 4), "f32")
    rhs = b.parameter(1, (2, 4, 5), "f32")
    out = b.dot_general(lhs, rhs, [2], [1], [0], [0])
    assert out.type == TensorType(f32, [2, 3, 5])
    module = b.build(out)
    r = np.random.default_rng(1)
    L, R = r.standard_normal((2, 3, 4)).astype(np.float32), r.standard_normal((2, 4, 5)).astype(np.float32)
    (y,) = xla_opt.run(module, L, R, backend=backend)
    np.testing.assert_allclose(y, np.einsum("bij,bjk->bik", L, R), rtol=1e-5, atol=1e-6)


def conv2d_nchw(x: np.ndarray, k: np.ndarray, stride: int, pad: tuple[int, int]) -> np.ndarray:
    """The numpy oracle: input [n, c, h, w], kernel [o, c, kh, kw], symmetric padding."""
    xp = np.pad(x, ((0, 0), (0, 0), pad, pad))
    windows = np.lib.stride_tricks.sliding_window_view(xp, k.shape[2:], axis=(2, 3))[:, :, ::stride, ::stride]
    return np.einsum("nchwij,ocij->nohw", windows, k)


@pytest.mark.parametrize("backend", BACKENDS)
def test_convolution_same_padding(backend):
    """A 3x3 NCHW/OIHW convolution (XLA's default dimension numbers) with SAME padding."""
    b = Builder()
    x = b.parameter(0, (2, 3, 5, 5), "f32")
    k = b.parameter(1, (4, 3, 3, 3), "f32")
    out = b.conv_general_dilated(x, k, window_strides=[1, 1], padding="SAME")
    assert list(out.type.get_shape()) == [2, 4, 5, 5]
    module = b.build(out)
    r = np.random.default_rng(2)
    X, K = r.standard_normal((2, 3, 5, 5)).astype(np.float32), r.standard_normal((4, 3, 3, 3)).astype(np.float32)
    (y,) = xla_opt.run(module, X, K, backend=backend)
    np.testing.assert_allclose(y, conv2d_nchw(X, K, 1, (1, 1)), rtol=1e-5, atol=1e-5)


def test_shape_error_is_the_verifiers_message(tmp_path):
    """A wrong broadcast raises the verifier's one-line diagnostic (xla-opt's text for
    the same op), located at the builder call."""
    b = Builder("f")
    x = b.parameter(0, (2, 3), "f32")
    v = b.parameter(1, (3,), "f32")
    with pytest.raises(xla_opt.ProgramError) as error:
        b.add(x, v, broadcast_dimensions=[0])  # the bad call
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{__file__}:{line_of('# the bad call')}:")
    text = """func.func @f(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %x, %v, broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""
    (tmp_path / "bad.mlir").write_text(text)
    cli = subprocess.run(
        [sys.executable, "-m", "xla_opt.opt_main", str(tmp_path / "bad.mlir")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 1
    verifier = cli.stderr.strip().split(": error: ", 1)[1]
    assert message.split(": error: ", 1)[1] == verifier
    assert verifier.startswith("'xla.add' op broadcast_dimensions [0]:")
    # the failed op is not left behind: the builder goes on
    assert len(b.build(b.add(x, v, broadcast_dimensions=[1])).body.block.first_op.body.block.ops) == 2


def test_errors_inside_computations_and_of_arguments():
    b = Builder()
    x = b.parameter(0, (2, 3), "f32")
    with pytest.raises(xla_opt.ProgramError, match=r"'xla.reduce' op body must return \(tensor<f32>\)"):
        b.reduce(x, 0.0, lambda c, acc, e: c.compare(acc, e, "LT"), dimensions=[1])
    with pytest.raises(xla_opt.ProgramError, match=r"'xla.compare' op 'LTE' is not a valid comparison_direction"):
        b.compare(x, x, "LTE")
    with pytest.raises(xla_opt.ProgramError, match=r"'xla.transpose' op .*permutation"):
        b.transpose(x, [0, 0])
    with pytest.raises(xla_opt.ProgramError, match=r"'xla.constant' op constant: 300 is not representable as uint8"):
        b.constant(300, "u8")
    with pytest.raises(TypeError, match=r"unknown element type 'f33'"):
        b.parameter(1, (2,), "f33")
    with pytest.raises(xla_opt.ProgramError, match=r"parameters must be numbered 0 to 1; 1 is missing"):
        b.parameter(2, (2,), "f32")
        b.build(x)


def test_module_prints_reparses_and_goes_through_every_pass():
    """The built module is an ordinary one: its text re-parses to the same text, and
    the whole lowering runs on it (optimize, as xla-opt -p)."""
    b = Builder("softmax")
    x = b.parameter(0, (2, 8), "f32")
    m = b.reduce(x, -np.inf, lambda c, a, e: c.max(a, e), dimensions=[1])
    e = b.exp(b.sub(x, m, broadcast_dimensions=[0]))
    s = b.reduce(e, 0.0, lambda c, a, e: c.add(a, e), dimensions=[1])
    module = b.build(b.div(e, s, broadcast_dimensions=[0]))
    text = str(module)
    assert str(xla_opt.load_program(text)) == text
    lowered = xla_opt.optimize(module, "xla-to-llvm")
    assert {op.dialect_name() for op in lowered.walk()} <= {"builtin", "llvm"}
    X = np.random.default_rng(3).standard_normal((2, 8)).astype(np.float32)
    expected = np.exp(X - X.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    for backend in BACKENDS:
        np.testing.assert_allclose(xla_opt.run(module, X, backend=backend)[0], expected, rtol=1e-5)


def test_element_types_and_constants():
    b = Builder()
    types = [
        b.parameter(i, (2,), dtype).type.element_type
        for i, dtype in enumerate(["bf16", np.float16, "s32", "i32", "u8", "ui8", "pred", "c64", Float64Type()])
    ]
    assert [str(t) for t in types] == ["bf16", "f16", "i32", "i32", "ui8", "ui8", "i1", "complex<f32>", "f64"]
    constants = [
        b.constant(1.5),
        b.constant(2),
        b.constant(True),
        b.constant(1 + 2j),
        b.constant([[1, 2], [3, 4]], "u8"),
        b.constant(np.array([1.0, np.nan, -np.inf], np.float64)),
        b.constant(np.array([0.5, 2], ml_dtypes.bfloat16)),
        b.constant(np.zeros((2, 3), np.float32)),
    ]
    module = b.build(constants)
    results = xla_opt.run(
        xla_opt.load_program(str(module)),
        *[
            np.zeros(2, t)
            for t in (
                ml_dtypes.bfloat16,
                np.float16,
                np.int32,
                np.int32,
                np.uint8,
                np.uint8,
                np.bool_,
                np.complex64,
                np.float64,
            )
        ],
    )
    expected = [
        np.float32(1.5),
        np.int32(2),
        np.bool_(True),
        np.complex64(1 + 2j),
        np.array([[1, 2], [3, 4]], np.uint8),
        np.array([1.0, np.nan, -np.inf]),
        np.array([0.5, 2], ml_dtypes.bfloat16),
        np.zeros((2, 3), np.float32),
    ]
    for got, want in zip(results, expected, strict=True):
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tuples_conditional_call_and_map(backend):
    b = Builder("f")  # run finds @f: its callees are private
    x = b.parameter(0, (3,), "f32")
    p = b.parameter(1, (), "pred")
    pair = b.tuple([x, b.constant(2.0)])
    scaled = b.mul(b.get_tuple_element(pair, 0), b.get_tuple_element(pair, 1))
    branch = b.conditional(p, [lambda c, t: c.neg(t), lambda c, t: c.abs(t)], [scaled, scaled])

    def square(c, t):
        return c.mul(t, t)

    called = b.call(square, branch)
    again = b.call(square, called)  # the same callable and types: one function
    mapped = b.map([again, x], lambda c, a, e: c.max(a, e))
    module = b.build(mapped, called)
    assert sum(op.name == "func.func" for op in module.walk()) == 2
    X = np.array([-1, 0.5, 2], np.float32)
    for pred in (True, False):
        m, c = xla_opt.run(module, X, np.bool_(pred), backend=backend)
        branch_value = -(X * 2) if pred else np.abs(X * 2)
        np.testing.assert_array_equal(c, branch_value**2)
        np.testing.assert_array_equal(m, np.maximum(branch_value**4, X))


@pytest.mark.parametrize("backend", BACKENDS)
def test_windows_and_scatter(backend):
    """reduce_window (max pooling, VALID), select_and_scatter (its gradient) and a
    scatter-add, against numpy."""
    b = Builder()
    x = b.parameter(0, (4, 4), "f32")
    pooled = b.reduce_window(x, -np.inf, lambda c, a, e: c.max(a, e), [2, 2], [2, 2], "VALID")
    grad = b.select_and_scatter(
        x,
        lambda c, a, e: c.ge(a, e),
        [2, 2],
        [2, 2],
        "VALID",
        b.constant(np.ones((2, 2), np.float32)),
        0.0,
        lambda c, a, e: c.add(a, e),
    )
    indices = b.constant(np.array([[0], [2], [0]], np.int32))
    rows = b.constant(np.ones((3, 4), np.float32))
    scattered = b.scatter(x, indices, rows, lambda c, a, u: c.add(a, u), [1], [0], [0], 1)
    module = b.build(pooled, grad, scattered)
    X = np.random.default_rng(4).permutation(16).astype(np.float32).reshape(4, 4)
    p, g, s = xla_opt.run(module, X, backend=backend)
    blocks = X.reshape(2, 2, 2, 2).transpose(0, 2, 1, 3).reshape(2, 2, 4)
    np.testing.assert_array_equal(p, blocks.max(-1))
    expected_grad = np.zeros_like(X)
    for i in range(2):
        for j in range(2):
            w = X[2 * i : 2 * i + 2, 2 * j : 2 * j + 2]
            r, c = np.unravel_index(w.argmax(), w.shape)
            expected_grad[2 * i + r, 2 * j + c] = 1
    np.testing.assert_array_equal(g, expected_grad)
    expected_scatter = X.copy()
    np.add.at(expected_scatter, [0, 2, 0], 1)
    np.testing.assert_array_equal(s, expected_scatter)


def test_all_reduce_over_replicas():
    b = Builder()
    x = b.parameter(0, (2,), "f32")
    module = b.build(b.cross_replica_sum(b.add(x, b.convert(b.replica_id(), "f32"))))
    per_replica = xla_opt.run(module, np.array([1, 2], np.float32), replicas=3)
    for (y,) in per_replica:
        np.testing.assert_array_equal(y, [3 * 1 + 3, 3 * 2 + 3])


def test_builder_names_follow_the_dialect_tables():
    """Every unary and binary element-wise op has a method (its name, and XlaBuilder's
    spelling where it differs), and every comparison direction one."""
    from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS

    from xla_opt.builder import XLA_BUILDER_NAMES

    for op in (*UNARY_OPS, *BINARY_OPS):
        name = op.name.removeprefix("xla.")
        assert callable(getattr(Builder, name, None) or getattr(Builder, name + "_"))
        if name in XLA_BUILDER_NAMES:
            assert getattr(Builder, XLA_BUILDER_NAMES[name]) is getattr(Builder, name)
    for direction in ("eq", "ne", "lt", "le", "gt", "ge", "lt_total_order"):
        assert callable(getattr(Builder, direction))


def test_import_xla_opt_stays_light():
    """xla-opt starts fast: `import xla_opt` loads neither the builder, the interpreter
    nor the JIT; `xla_opt.Builder` loads the builder on first use."""
    code = (
        "import sys, xla_opt\n"
        "assert not any(m in sys.modules for m in ('xla_opt.builder', 'xla_opt.interpreter', 'xla_opt.runtime'))\n"
        "xla_opt.Builder\n"
        "assert 'xla_opt.builder' in sys.modules and 'xla_opt.runtime' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_op_of_the_dialect_has_a_builder_method():
    """Each op of the dialect is built by some method, verifies, re-parses from its
    text and runs on the interpreter; the shape ops and the others with a direct numpy
    counterpart agree with it."""
    from xla_opt.dialects.xla import ALL_OPS
    from xla_opt.dialects.xla.elementwise import BINARY_OPS, UNARY_OPS

    built: set[str] = set()

    def finish(b, roots, *inputs, **run):
        module = b.build(roots)
        built.update(op.name for op in module.walk())
        assert str(xla_opt.load_program(str(module))) == str(module)
        return xla_opt.run(module, *inputs, **run)

    X = np.array([[0.5, 2, 3], [4, 5, 6.5]], np.float32)
    I = np.array([[1, -2, 3], [4, 5, -6]], np.int32)

    # element-wise families, from the dialect's tables
    b = Builder()
    x, i = b.parameter(0, (2, 3), "f32"), b.parameter(1, (2, 3), "s32")
    roots = [getattr(b, _method(op))(x if op.ALLOWED(f32) else i) for op in UNARY_OPS]
    roots += [getattr(b, _method(op))(*([x, x] if op.ALLOWED(f32) else [i, i])) for op in BINARY_OPS]
    roots += [b.clamp(1.0, x, 5.0), b.select(b.gt(x, 3.0), x, b.neg(x)), b.reduce_precision(x, 5, 10)]
    roots += [b.convert(i, "f32"), b.bitcast_convert(x, "s32"), b.iota((2, 3), "f32", 1)]
    results = finish(b, roots, X, I)
    np.testing.assert_array_equal(results[-6], np.clip(X, 1, 5))
    np.testing.assert_array_equal(results[-5], np.where(X > 3, X, -X))
    np.testing.assert_array_equal(results[-2], X.view(np.int32))
    np.testing.assert_array_equal(results[-1], np.broadcast_to(np.arange(3, dtype=np.float32), (2, 3)))

    # shapes, tuples, dimension sizes
    b = Builder()
    x = b.parameter(0, (2, 3), "f32")
    pair = b.tuple([x, b.constant(1.0)])
    roots = [
        b.broadcast(x, [4]),
        b.broadcast_in_dim(b.slice(x, [0, 0], [1, 3]), (2, 3), [0, 1]),
        b.reshape(x, (3, 2)),
        b.collapse(x, [0, 1]),
        b.transpose(x, [1, 0]),
        b.rev(x, [1]),
        b.slice(x, [0, 1], [2, 3], [1, 2]),
        b.dynamic_slice(x, [1, 1], [1, 2]),
        b.dynamic_update_slice(x, b.constant(np.zeros((1, 2), np.float32)), [0, 1]),
        b.concat_in_dim([x, x], 0),
        b.pad(x, 0.0, [(1, 0, 0), (0, 1, 1)]),
        b.get_dimension_size(x, 1),
        b.set_dimension_size(x, b.constant(3, "s32"), 1),
        b.get_tuple_element(pair, 0),
        b.optimization_barrier(x),
        b.gather(x, b.constant(np.array([[1], [0]], np.int32)), [1], [0], [0], 1, [1, 3]),
    ]
    results = finish(b, roots, X)
    expected = [
        np.broadcast_to(X, (4, 2, 3)),
        np.broadcast_to(X[:1], (2, 3)),
        X.reshape(3, 2),
        X.reshape(6),
        X.T,
        X[:, ::-1],
        X[:, 1::2],
        X[1:2, 1:3],
        np.concatenate([X[:1, :1], np.zeros((1, 2), np.float32)], axis=1).tolist() + [X[1].tolist()],
        np.concatenate([X, X]),
        np.array([[0] * 6, [0.5, 0, 2, 0, 3, 0], [4, 0, 5, 0, 6.5, 0]], np.float32),
        np.int32(3),
        X,
        X,
        X,
        X[[1, 0]],
    ]
    for got, want in zip(results, expected, strict=True):
        np.testing.assert_array_equal(got, np.asarray(want, got.dtype))

    # linear algebra, batch normalization, random numbers, a custom call
    xla_opt.register_custom_call("test_builder_double", lambda a: a * 2)
    b = Builder()
    x = b.parameter(0, (2, 3), "f32")
    spd = b.constant(np.array([[4, 2], [2, 3]], np.float32))
    c = b.constant(np.ones((2, 4), np.complex64))
    scale, offset = b.constant(np.ones(3, np.float32)), b.constant(np.zeros(3, np.float32))
    output, mean, var = b.batch_norm_training(x, scale, offset, 1e-3, 1)
    roots = [
        b.dot(x, b.transpose(x, [1, 0])),
        b.fft(c, "FFT", [4]),
        b.cholesky(spd, lower=True),
        b.triangular_solve(spd, b.constant(np.ones((2, 1), np.float32)), True, True, False, "NO_TRANSPOSE"),
        output,
        b.batch_norm_inference(x, scale, offset, mean, var, 1e-3, 1),
        *b.batch_norm_grad(x, scale, mean, var, x, 1e-3, 1),
        b.rng_normal(b.constant(0.0), b.constant(1.0), (2,)),
        b.rng_uniform(b.constant(0.0), b.constant(1.0), (2,)),
        *b.rng_bit_generator("THREE_FRY", b.constant(np.array([1, 2], np.uint64)), (2,)),
        b.custom_call("test_builder_double", [x], ((2, 3), "f32")),
    ]
    results = finish(b, roots, X)
    np.testing.assert_allclose(results[0], X @ X.T, rtol=1e-6)
    np.testing.assert_allclose(results[2], np.linalg.cholesky([[4, 2], [2, 3]]), rtol=1e-6)
    np.testing.assert_array_equal(results[-1], X * 2)

    # tokens and host transfers
    b = Builder()
    token = b.after_all()
    data, token = b.infeed(token, ((2,), "f32"))
    token = b.outfeed([data], b.after_all(token))
    token = b.send([data], token, channel_id=1)
    received, token = b.recv(token, ((2,), "f32"), channel_id=1)
    outfeed: list = []
    (r,) = finish(b, b.mul(received, 2.0), infeed=[(np.array([1, 2], np.float32),)], outfeed=outfeed)
    np.testing.assert_array_equal(r, [2, 4])
    np.testing.assert_array_equal(outfeed[0][0], [1, 2])

    # collectives, on 2 replicas
    b = Builder()
    x = b.parameter(0, (2,), "f32")
    me = b.convert(b.replica_id(), "f32")
    mine = b.add(x, me)
    roots = [
        b.all_gather(mine, 0, replica_groups=[[0, 1]]),
        b.reduce_scatter(mine, lambda c, p, q: c.add(p, q), 0, replica_groups=[[0, 1]]),
        b.all_to_all(mine, 0, 0, 2, replica_groups=[[0, 1]]),
        b.collective_permute(mine, [[0, 1], [1, 0]]),
    ]
    replicas = finish(b, roots, np.array([1, 2], np.float32), replicas=2)
    np.testing.assert_array_equal(replicas[0][0], [1, 2, 2, 3])
    np.testing.assert_array_equal(replicas[1][1], [5])
    np.testing.assert_array_equal(replicas[0][3], [2, 3])

    # computations (their values are checked by the tests above)
    b = Builder()
    x = b.parameter(0, (4, 4), "f32")
    roots = [
        b.reduce_window(x, 0.0, lambda c, p, q: c.add(p, q), [2, 2], padding="SAME"),
        b.map([x], lambda c, e: c.neg(e)),
        b.sort(x),
        b.while_(lambda c, v: c.constant(False), lambda c, v: v, x),
        b.conditional(b.constant(0), [lambda c, v: v], [x]),
        b.call(lambda c, v: v, x),
        b.all_reduce(x, lambda c, p, q: c.add(p, q)),
        b.select_and_scatter(
            x,
            lambda c, p, q: c.ge(p, q),
            [2, 2],
            [2, 2],
            "VALID",
            b.constant(np.ones((2, 2), np.float32)),
            0.0,
            lambda c, p, q: c.add(p, q),
        ),
        b.scatter(
            x,
            b.constant(np.array([[0]], np.int32)),
            b.constant(np.ones((1, 4), np.float32)),
            lambda c, p, q: q,
            [1],
            [0],
            [0],
            1,
        ),
        b.reduce(x, 0.0, lambda c, p, q: c.add(p, q), [0]),
        b.dot_general(x, x, [1], [0]),
        b.conv(b.reshape(x, (1, 1, 4, 4)), b.constant(np.ones((1, 1, 2, 2), np.float32)), [1, 1], "VALID"),
    ]
    finish(b, roots, np.eye(4, dtype=np.float32))
    assert built >= {op.name for op in ALL_OPS}, sorted({op.name for op in ALL_OPS} - built)


def _method(op) -> str:
    """The builder method of an element-wise op: its name (`and_` for a keyword)."""
    name = op.name.removeprefix("xla.")
    return f"{name}_" if keyword.iskeyword(name) else name


@pytest.mark.parametrize("backend", BACKENDS)
def test_narrow_element_types(backend):
    """The 4-bit integers and 8-bit floats by name or ml_dtypes dtype, constants too."""
    b = Builder()
    x = b.parameter(0, (3,), "f8E4M3FN")
    i = b.parameter(1, (3,), ml_dtypes.int4)
    f = b.constant(np.array([0.5, 1.5, 2], ml_dtypes.float8_e4m3fn))
    c = b.constant(np.array([1, 2, -3], ml_dtypes.int4))
    module = b.build(b.add(x, f), b.add(i, c))
    assert [str(t) for t in module.body.block.first_op.function_type.inputs] == ["tensor<3xf8E4M3FN>", "tensor<3xi4>"]
    X = np.array([1, 2, 3], ml_dtypes.float8_e4m3fn)
    I = np.array([1, 2, 3], ml_dtypes.int4)
    y, j = xla_opt.run(module, X, I, backend=backend)
    np.testing.assert_array_equal(y.astype(np.float32), [1.5, 3.5, 5])
    np.testing.assert_array_equal(j.astype(np.int8), [2, 4, 0])  # 3 + -3
