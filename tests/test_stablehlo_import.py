"""StableHLO import: programs written with JAX are exported as text, imported
(`import_stablehlo`: parse, convert-stablehlo-to-xla, verify), run on the interpreter
and compared with JAX's own results."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the StableHLO import tests export programs with JAX")
jnp = jax.numpy
lax = jax.lax

from xla_opt.api import import_stablehlo, is_stablehlo_text  # noqa: E402

import xla_opt  # noqa: E402
from xla_opt.diagnostics import ProgramError  # noqa: E402

RNG = np.random.default_rng(0)
ROOT = Path(__file__).resolve().parents[1]


def f32(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape).astype(np.float32)


X = f32(2, 3)

PROGRAMS = {
    "mlp_softmax": (
        lambda x, w, b: jax.nn.softmax(jax.nn.relu(x @ w + b), axis=-1),
        (f32(4, 3), f32(3, 5), f32(5)),
    ),
    "sum_argmax": (lambda a: (jnp.sum(a, 1), jnp.argmax(a, 1), jnp.max(a, 0)), (X,)),
    "fori_loop_capture": (lambda a: lax.fori_loop(0, 3, lambda i, c: c * a + i, a), (X,)),
    "while_loop": (
        lambda a: lax.while_loop(lambda c: c[0].sum() < 50, lambda c: (c[0] * 2, c[1] + 1), (a, 0)),
        (np.abs(X) + 0.5,),
    ),
    "switch_capture": (
        lambda i, a, b: lax.switch(i, [lambda z: z + 1, lambda z: z * b, lambda z: z - a * b], a),
        (np.int32(2), X, f32(2, 3)),
    ),
    "cond": (lambda p, a: lax.cond(p, lambda z: z + 1, lambda z: jnp.sin(z), a), (np.bool_(False), X)),
    "conv_nhwc_same": (
        lambda x, k: lax.conv_general_dilated(
            x, k, (2, 1), "SAME", rhs_dilation=(1, 2), dimension_numbers=("NHWC", "HWIO", "NHWC")
        ),
        (f32(1, 5, 6, 2), f32(3, 2, 2, 4)),
    ),
    "conv_transpose": (
        lambda x, k: lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")),
        (f32(1, 2, 3, 3), f32(3, 2, 2, 2)),
    ),
    "maxpool_grad": (
        jax.grad(lambda a: lax.reduce_window(a, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID").sum()),
        (f32(3, 4),),
    ),
    "cumsum": (lambda a: jnp.cumsum(a, 1), (X,)),
    "gather_scatter": (
        lambda a, i: (a[i], a.at[i].add(1.0), a.at[i].max(0.5), jnp.take_along_axis(a, jnp.argsort(a, 1), 1)),
        (X, np.array([1, 0, 1], np.int32)),
    ),
    "batched_gather_scatter": (
        jax.vmap(lambda a, i: (a[i], a.at[i].add(1.0))),
        (f32(3, 4), np.array([[1], [0], [3]], np.int32)),
    ),
    "mlp_grad": (
        jax.grad(lambda w, x: jnp.mean(jnp.tanh(x @ w) ** 2), argnums=0),
        (f32(3, 4), f32(5, 3)),
    ),
    "sort_top_k": (lambda a: (jnp.sort(a), lax.top_k(a, 2)), (X,)),
    "dynamic_slices": (
        # start indices of one type whether or not another test enabled jax_enable_x64
        lambda a, i: (lax.dynamic_slice(a, (i, i * 0), (1, 2)), lax.dynamic_update_slice(a, jnp.zeros((1, 2), a.dtype), (i, i * 0 + 1))),
        (X, np.int32(1)),
    ),
    "shapes": (
        lambda a: (jnp.pad(a, ((1, 2), (0, 1))), a[::-1, 1::2], jnp.concatenate([a, a.T.reshape(2, 3)]), jnp.arange(6.0).reshape(2, 3) + a),
        (X,),
    ),
    "linalg": (
        lambda a, b: (jnp.linalg.cholesky(a), jax.scipy.linalg.solve_triangular(a, b, lower=True)),
        (np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]], np.float32), f32(3, 2)),
    ),
    "fft": (lambda a: (jnp.fft.fft(a), jnp.fft.rfft(a), jnp.fft.irfft(jnp.fft.rfft(a), 3)), (X,)),
    "bits": (
        lambda a: (lax.reduce_precision(a, 5, 10), lax.bitcast_convert_type(a, jnp.int32), a.astype(jnp.bfloat16)),
        (X,),
    ),
    "random_bits": (lambda k: jax.random.bits(jax.random.wrap_key_data(k), (4,)), (np.array([0, 42], np.uint32),)),
    "chlo_math": (
        lambda a, u: (
            lax.erf(a), lax.erf_inv(u), lax.lgamma(a), lax.digamma(a), jnp.tan(u), jnp.sinh(a),
            jnp.cosh(a), jnp.arcsin(u), jnp.arccos(u), jnp.arctan(a), jnp.arcsinh(a),
            jnp.arccosh(jnp.abs(a) + 1), jnp.arctanh(u), jnp.isinf(a / 0.0), jnp.nextafter(a, u),
        ),
        (f32(3, 4, low=-5, high=5), f32(3, 4, low=-0.9, high=0.9)),
    ),
}  # fmt: skip


def _leaves(tree):
    return [np.asarray(v) for v in jax.tree_util.tree_leaves(tree)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jax_program_runs_like_jax(name):
    f, args = PROGRAMS[name]
    text = jax.jit(f).lower(*args).as_text()
    assert is_stablehlo_text(text)
    module = import_stablehlo(text)
    got = xla_opt.run(module, *args, backend="interpreter")
    expected = _leaves(jax.jit(f)(*args))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = np.asarray(g)
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, g.dtype, e.shape, e.dtype)
        if e.dtype.kind in "biu":
            np.testing.assert_array_equal(g, e)
        elif e.dtype.kind == "c":
            np.testing.assert_allclose(g, e, rtol=2e-5, atol=2e-5)
        else:
            np.testing.assert_allclose(g.astype(np.float64), e.astype(np.float64), rtol=2e-5, atol=2e-5)


def test_debug_info_and_shardings_are_accepted():
    """Locations (`as_text(debug_info=True)`), Shardy meshes and shardings."""
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
    f = jax.jit(
        lambda k, a: (jnp.tanh(a) * jax.random.uniform(jax.random.wrap_key_data(k), (2,)), jnp.sum(a)),
        in_shardings=(None, NamedSharding(mesh, PartitionSpec("x"))),
    )
    key, a = np.array([0, 7], np.uint32), f32(2)
    text = f.lower(key, a).as_text(debug_info=True)
    assert "loc(" in text and "sdy." in text
    got = xla_opt.run(import_stablehlo(text), key, a)
    for g, e in zip(got, _leaves(f(key, a))):
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_jit_backend_runs_an_imported_program():
    f = lambda x, w: jax.nn.relu(x @ w).sum(0)  # noqa: E731
    args = (f32(4, 3), f32(3, 5))
    module = import_stablehlo(jax.jit(f).lower(*args).as_text())
    try:
        got = xla_opt.run(module, *args, backend="jit")
    except Exception as e:  # noqa: BLE001 - the JIT needs llvmlite and a host compiler
        pytest.skip(f"JIT backend unavailable: {e}")
    np.testing.assert_allclose(got[0], np.asarray(jax.jit(f)(*args)), rtol=1e-5, atol=1e-5)


def test_unsupported_op_is_a_located_error():
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    with pytest.raises(ProgramError, match=r"<stablehlo>:2:3: error: .*'stablehlo.uniform_quantize' has no xla counterpart"):
        import_stablehlo(text)


def test_parse_error_is_a_located_error():
    with pytest.raises(ProgramError, match=r"<stablehlo>:3:1: error: type expected"):
        import_stablehlo("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %x : \n}")


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_complex_constants_with_mixed_literals_are_exact(backend):
    """Issue 13: `(1.5, 2)` parses; each part is the real literal's value (2^53 + 1 rounds
    to even in f64, as a real literal does)."""
    module = import_stablehlo("""func.func @main() -> (tensor<complex<f32>>, tensor<2xcomplex<f64>>, tensor<complex<f64>>) {
  %0 = stablehlo.constant dense<(1.5, 2)> : tensor<complex<f32>>
  %1 = stablehlo.constant dense<[(0.0, 1), (2, 3.5)]> : tensor<2xcomplex<f64>>
  %2 = stablehlo.constant dense<(9007199254740993, -0.1)> : tensor<complex<f64>>
  return %0, %1, %2 : tensor<complex<f32>>, tensor<2xcomplex<f64>>, tensor<complex<f64>>
}""")
    got = xla_opt.run(module, backend=backend)
    expected = [
        np.complex64(1.5 + 2j),
        np.array([0 + 1j, 2 + 3.5j], np.complex128),
        np.complex128(complex(2.0**53, -0.1)),
    ]
    for g, e in zip(got, expected, strict=True):
        g = np.asarray(g)
        assert g.dtype == e.dtype and g.shape == np.shape(e)
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_custom_call_targets_are_any_string(backend):
    """Issue 13: JAX's `__gpu$xla.gpu.triton`-style names, and any other string, import and
    reach the registered Python target on both backends."""
    targets = {"__gpu$xla.gpu.triton": lambda x: x * 2, 'a "quoted" name': lambda x: x + 1}
    for name, fn in targets.items():
        xla_opt.register_custom_call(name, fn)
    try:
        module = import_stablehlo("""func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = stablehlo.custom_call @__gpu$xla.gpu.triton(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = stablehlo.custom_call @"a \\"quoted\\" name"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}""")
        x = np.array([1.5, -2.0], np.float32)
        doubled, plus_one = xla_opt.run(module, x, backend=backend)
    finally:
        from xla_opt.interpreter.custom_call import unregister_custom_call

        for name in targets:
            unregister_custom_call(name)
    np.testing.assert_array_equal(doubled, np.array([3.0, -4.0], np.float32))
    np.testing.assert_array_equal(plus_one, np.array([4.0, -3.0], np.float32))


def test_native_custom_call_target_with_dollar_and_dots():
    """A native symbol named like JAX's targets (`$`, `.`) is called by the JIT."""
    import llvmlite.binding as llvm

    from xla_opt.runtime.llvm import compile_llvm_ir

    name = "xla_opt.test$double"
    native = compile_llvm_ir(f"""define void @"{name}"(ptr %out, ptr %in) {{
  %p = load ptr, ptr %in
  %x = load float, ptr %p
  %y = fmul float %x, 2.0
  store float %y, ptr %out
  ret void
}}
""")
    llvm.add_symbol(name, native.address(name))
    module = import_stablehlo(f"""func.func @main(%x: tensor<f32>) -> tensor<f32> {{
  %0 = stablehlo.custom_call @{name}(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}}""")
    (got,) = xla_opt.run(module, np.float32(3.5), backend="jit")
    assert got == np.float32(7.0)


def test_transpose_invalid_is_a_one_line_located_error():
    """Issue 13: `#stablehlo<transpose TRANSPOSE_INVALID>` is a diagnostic, not a ValueError."""
    text = """func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}"""
    with pytest.raises(ProgramError) as info:
        import_stablehlo(text)
    assert str(info.value) == (
        "<stablehlo>:2:3: error: 'stablehlo.triangular_solve' op transpose_a = TRANSPOSE_INVALID "
        "is not one of NO_TRANSPOSE, TRANSPOSE, ADJOINT"
    )


COMPLEX_AND_CONVERT = """func.func @main(%re: tensor<4xf32>, %im: tensor<4xf32>, %z: tensor<2xcomplex<f64>>) -> (tensor<4xcomplex<f32>>, tensor<2xf64>, tensor<2xf32>) {
  %0 = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
  %1 = stablehlo.convert %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %2 = stablehlo.convert %z : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<4xcomplex<f32>>, tensor<2xf64>, tensor<2xf32>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_complex_and_complex_to_real_convert(backend):
    """Issue 13: stablehlo.complex (its short form prints only the result type) builds
    re + i im bit for bit, infinities and NaNs included; convert of a complex number to
    a real type is its real part (StableHLO)."""
    re = np.array([1.5, -np.inf, np.nan, -0.0], np.float32)
    im = np.array([np.inf, 2.0, -0.0, np.nan], np.float32)
    z = np.array([3.25 - 1j, -7.5 + 2j])
    made, real64, real32 = xla_opt.run(COMPLEX_AND_CONVERT, re, im, z, backend=backend)
    np.testing.assert_array_equal(made.real.view(np.uint32), re.view(np.uint32))
    np.testing.assert_array_equal(made.imag.view(np.uint32), im.view(np.uint32))
    np.testing.assert_array_equal(real64, z.real)
    np.testing.assert_array_equal(real32, z.real.astype(np.float32))


def test_partition_id_and_cross_replica_sum_run_on_replicas():
    """Issue 13: partition_id (partitions run as replicas) and the generic-form
    cross-replica-sum (an all_reduce that adds) import."""
    program = """func.func @main(%x: tensor<2xf32>) -> (tensor<ui32>, tensor<2xf32>) {
  %0 = stablehlo.partition_id : tensor<ui32>
  %1 = "stablehlo.cross-replica-sum"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<ui32>, tensor<2xf32>
}"""
    xs = np.array([[1.0, 2.0], [3.0, 40.0]], np.float32)
    (id0, sum0), (id1, sum1) = xla_opt.run(program, xs, replicas=2)
    assert (int(id0), int(id1)) == (0, 1)
    np.testing.assert_array_equal(sum0, xs[0] + xs[1])
    np.testing.assert_array_equal(sum1, xs[0] + xs[1])


def test_collective_broadcast_gives_each_group_its_first_replicas_operand():
    """Issue 13: collective_broadcast imports (as data movement: exact)."""
    program = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 1], [0, 3]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"""
    xs = np.arange(8, dtype=np.float32).reshape(4, 2)
    got = [r[0] for r in xla_opt.run(program, xs, replicas=4)]
    for replica, source in enumerate([0, 2, 2, 0]):  # group [2, 1] takes replica 2's, [0, 3] replica 0's
        np.testing.assert_array_equal(got[replica], xs[source])


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_composite_runs_its_decomposition(backend):
    """Issue 13: stablehlo.composite (pretty form with its name first) is a call of its
    decomposition function."""
    program = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.composite "my.double" %x {decomposition = @my_double, version = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @my_double(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}"""
    (got,) = xla_opt.run(program, np.array([1.5, -2.0], np.float32), backend=backend)
    np.testing.assert_array_equal(got, np.array([3.0, -4.0], np.float32))


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_dynamic_shape_ops_with_constant_shapes_run(backend):
    """Issue 13: dynamic_reshape, dynamic_broadcast_in_dim, dynamic_iota,
    real_dynamic_slice and dynamic_pad with constant shape operands run as their
    static forms (numpy gives the expected values)."""
    program = (ROOT / "lit_tests" / "passes" / "conversions" / "convert-stablehlo-to-xla-dynamic_shapes.mlir").read_text().split("// -----")[0]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    reshaped, broadcast, iota, sliced, padded = xla_opt.run(program, x, np.float32(-1), entry="folded", backend=backend)
    np.testing.assert_array_equal(reshaped, x.reshape(3, 2))
    np.testing.assert_array_equal(broadcast, np.broadcast_to(x, (4, 2, 3)))
    np.testing.assert_array_equal(iota, np.broadcast_to(np.arange(3, dtype=np.int32), (2, 3)))
    np.testing.assert_array_equal(sliced, x[:, 1:3])
    np.testing.assert_array_equal(padded, np.pad(x, ((1, 1), (0, 2)), constant_values=-1))


def test_set_dimension_size_and_bounded_types():
    """Issue 13: stablehlo.set_dimension_size imports as xla.set_dimension_size; a
    bounded dynamic type (`tensor<?xf32, #stablehlo.bounds<10>>`) is its static bound.
    The spec's example: a sum over the first five of ten elements (interpreter; the
    JIT runs set_dimension_size read by get_dimension_size)."""
    program = """func.func @main(%a: tensor<10xf32>, %n: tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<?xf32, #stablehlo.bounds<10>>) {
  %0 = stablehlo.set_dimension_size %a, %n, dim = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<10>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?xf32, #stablehlo.bounds<10>>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?xf32, #stablehlo.bounds<10>>) -> tensor<i32>
  return %1, %2, %0 : tensor<f32>, tensor<i32>, tensor<?xf32, #stablehlo.bounds<10>>
}"""
    v = np.arange(1, 11, dtype=np.float32)
    total, size, passed = xla_opt.run(program, v, np.int32(5))
    assert total == 15.0 and size == 5
    np.testing.assert_array_equal(passed, v)
    jit_program = program.replace("%1, %2, %0 : tensor<f32>, ", "%2, %0 : ").replace("-> (tensor<f32>, ", "-> (")
    size, passed = xla_opt.run(jit_program, v, np.int32(6), backend="jit")
    assert size == 6
    np.testing.assert_array_equal(passed, v)


MULHI = """func.func @main(%a: tensor<6x{t}>, %b: tensor<6x{t}>) -> tensor<6x{t}> {{
  %0 = chlo.mulhi %a, %b : tensor<6x{t}>, tensor<6x{t}> -> tensor<6x{t}>
  return %0 : tensor<6x{t}>
}}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_chlo_mulhi_is_the_high_half_of_the_product(backend, dtype):
    """Issue 13: chlo.mulhi = downcast((upcast(x) * upcast(y)) >> N), checked with
    Python's exact integers, extremes included."""
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, -1 if info.min else 3, 12345 % info.max, info.max // 3], dtype)
    b = np.array([info.max, info.max, info.min if info.min else 2, info.max, 6789 % info.max, 7], dtype)
    width = np.dtype(dtype).itemsize * 8
    expected = np.array([(int(x) * int(y)) >> width for x, y in zip(a, b)], dtype=object)
    t = ("ui" if info.min == 0 else "i") + str(width)
    (got,) = xla_opt.run(MULHI.format(t=t), a, b, backend=backend)
    assert [int(v) for v in got] == [int(v) for v in expected]


SCAN_CUMSUM = """func.func @main(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2xi32>) {
  %init = stablehlo.constant dense<0> : tensor<2xi32>
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 attributes {is_reverse = REVERSE} {
  ^bb0(%a: tensor<2xi32>, %c: tensor<2xi32>):
    %1 = stablehlo.add %a, %c : tensor<2xi32>
    stablehlo.return %1, %1 : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  return %0#0, %0#1 : tensor<2x3xi32>, tensor<2xi32>
}"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("reverse", [False, True])
def test_chlo_scan_runs_as_a_loop(backend, reverse):
    """Issue 13: chlo.scan (StableHLO's interpret tests: cumulative sum along a
    non-zero dimension, forward and reverse)."""
    x = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    outputs, carry = xla_opt.run(SCAN_CUMSUM.replace("REVERSE", str(reverse).lower()), x, backend=backend)
    expected = np.cumsum(x[:, ::-1], axis=1)[:, ::-1] if reverse else np.cumsum(x, axis=1)
    np.testing.assert_array_equal(outputs, expected)
    np.testing.assert_array_equal(carry, x.sum(axis=1))


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_chlo_scan_cumulative_max_with_argmax(backend):
    """Two inputs and two carries: StableHLO's expected values ([3, 3, 4, 4, 5],
    [0, 0, 2, 2, 4], 5, 4)."""
    program = (ROOT / "lit_tests" / "passes" / "conversions" / "convert-stablehlo-to-xla-chlo_scan.mlir").read_text()
    x, iota = np.array([3, 1, 4, 1, 5], np.int32), np.arange(5, dtype=np.int32)
    values, indices, last, last_index = xla_opt.run(program, x, iota, backend=backend)
    assert values.tolist() == [3, 3, 4, 4, 5] and indices.tolist() == [0, 0, 2, 2, 4]
    assert int(last) == 5 and int(last_index) == 4


RAGGED_DOT = """func.func @main(%lhs: tensor<{l}xf32>, %rhs: tensor<{r}xf32>, %g: tensor<{g}xi32>) -> tensor<{o}xf32> {{
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %g) {{ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = {lb}, rhs_batching_dimensions = {rb}, lhs_contracting_dimensions = {lc},
      rhs_contracting_dimensions = {rc}, lhs_ragged_dimensions = [{ragged}], rhs_group_dimensions = {group}>}}
      : (tensor<{l}xf32>, tensor<{r}xf32>, tensor<{g}xi32>) -> tensor<{o}xf32>
  return %0 : tensor<{o}xf32>
}}"""


def _dims(shape) -> str:
    return "x".join(map(str, shape))


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_chlo_ragged_dot_mode_1_matches_jax(backend):
    """Issue 13: chlo.ragged_dot with a ragged lhs row dimension and an rhs group
    dimension `[m,k], [g,k,n], [g] -> [m,n]`, against jax.lax.ragged_dot."""
    lhs, rhs = f32(11, 5), f32(3, 5, 7)
    sizes = np.array([4, 2, 5], np.int32)
    program = RAGGED_DOT.format(l="11x5", r="3x5x7", g="3", o="11x7", lb="[]", rb="[]", lc="[1]", rc="[1]",
                                ragged=0, group="[0]")  # fmt: skip
    (got,) = xla_opt.run(program, lhs, rhs, sizes, backend=backend)
    expected = np.asarray(jax.lax.ragged_dot(lhs, rhs, sizes))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_chlo_ragged_dot_modes_2_and_3(backend):
    """Mode 2 (ragged contracting dim, per-batch group sizes `[b,g]`):
    `[b,m,k], [b,k,n] -> [g,b,m,n]`, group j's slice of k only; mode 3 (ragged batch
    dim): the plain batched matmul. numpy by the definition."""
    lhs, rhs = f32(2, 3, 5), f32(2, 5, 7)
    sizes = np.array([[1, 0, 3, 1], [2, 2, 1, 0]], np.int32)
    program = RAGGED_DOT.format(l="2x3x5", r="2x5x7", g="2x4", o="4x2x3x7", lb="[0]", rb="[0]", lc="[2]",
                                rc="[1]", ragged=2, group="[]")  # fmt: skip
    (got,) = xla_opt.run(program, lhs, rhs, sizes, backend=backend)
    expected = np.zeros((4, 2, 3, 7), np.float32)
    for batch in range(2):
        ends = np.cumsum(sizes[batch])
        for j in range(4):
            k = slice(ends[j] - sizes[batch, j], ends[j])
            expected[j, batch] = lhs[batch][:, k] @ rhs[batch][k, :]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    program = RAGGED_DOT.format(l="2x3x5", r="2x5x7", g="2", o="2x3x7", lb="[0]", rb="[0]", lc="[2]",
                                rc="[1]", ragged=0, group="[]")  # fmt: skip
    (got,) = xla_opt.run(program, lhs, rhs, np.array([1, 1], np.int32), backend=backend)
    np.testing.assert_allclose(got, lhs @ rhs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_dynamic_gather_and_conv_with_constant_operands_run(backend):
    """Issue 13: dynamic_gather (constant slice sizes) is a gather, dynamic_conv
    (constant padding) a convolution; numpy by the definitions."""
    chunk = (ROOT / "lit_tests" / "passes" / "conversions" / "convert-stablehlo-to-xla-dynamic_shapes.mlir").read_text().split("// -----")[3]
    x = f32(3, 4)
    i = np.array([[2], [0]], np.int32)
    img, k = f32(1, 1, 5, 5), f32(1, 1, 3, 3)
    gathered, conv = xla_opt.run(chunk, x, i, img, k, backend=backend)
    np.testing.assert_array_equal(gathered, x[[2, 0]])
    padded = np.pad(img[0, 0], 1)
    expected = np.array([[(padded[r : r + 3, c : c + 3] * k[0, 0]).sum() for c in range(5)] for r in range(5)])
    np.testing.assert_allclose(conv[0, 0], expected, rtol=1e-5, atol=1e-5)


def _model_with_argmax(x):
    y = jnp.sin(x) * 2.0  # the line the diagnostics below must point at
    return jnp.argmax(y, 1), y.sum()


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_jax_debug_info_locations_are_the_users_python_lines(backend):
    """Issue 13: JAX's `as_text(debug_info=True)` with a variadic reduce (argmax:
    `loc(...)` on the reducer's block arguments) runs, and JAX's locations (names,
    call sites, ranges, aliases defined after their use) are kept, so a diagnostic
    points at the user's Python line: here an unregistered custom call put in place
    of the sine."""
    import inspect

    x = f32(2, 3)
    text = jax.jit(_model_with_argmax).lower(x).as_text(debug_info=True)
    got = xla_opt.run(text, x, backend=backend)
    for g, e in zip(got, _leaves(jax.jit(_model_with_argmax)(x))):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    lines, first = inspect.getsourcelines(_model_with_argmax)
    sine_line = first + 1
    assert "jnp.sin" in lines[1]
    broken = re.sub(r"stablehlo\.sine %(\w+) : tensor<2x3xf32>", r"stablehlo.custom_call @no_such_target(%\1) : (tensor<2x3xf32>) -> tensor<2x3xf32>", text)  # fmt: skip
    assert broken != text
    with pytest.raises(Exception, match=rf"{re.escape(__file__)}:{sine_line}:\d+\).*no_such_target"):
        xla_opt.run(broken, x, backend=backend)
