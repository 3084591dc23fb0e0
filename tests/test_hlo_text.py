"""HLO text in and out (xla_opt/formats/hlo_text.py, hlo_printer.py).

In: the HLO JAX prints for a program, unoptimized (`lowered.as_text(dialect="hlo")`) and
optimized (`compiled.as_text()`: fusions, layouts, `%` names, metadata with stack
frames), runs on both backends with JAX's results. Out: `-t hlo` text goes back through
our parser and through XLA's own (`hlo_module_from_text`, then XLA compiles and runs
it) with the same results. XLA also decides what literals and bitcasts with layouts
mean. Bad input is one located line, never a traceback (a bounded fuzz of
truncations and deletions of a real dump).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

import xla_opt  # noqa: E402
from xla_opt import xla_oracle  # noqa: E402
from xla_opt.diagnostics import ProgramError  # noqa: E402
from xla_opt.formats.hlo_printer import to_hlo_text  # noqa: E402
from xla_opt.formats.hlo_text import parse_hlo_text  # noqa: E402

# --------------------------------------------------------------------------------------
# XLA itself on HLO text
# --------------------------------------------------------------------------------------


def run_hlo_with_xla(text: str, *args) -> list[np.ndarray]:
    """XLA's parser reads `text` (jaxlib's hlo_module_from_text), XLA compiles and runs it."""
    from jax._src.lib import xla_client as xc

    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    return xla_oracle.run_stablehlo(xc._xla.mlir.xla_computation_to_mlir_module(computation), *args)


def assert_close(got, want, rtol=2e-5, atol=2e-5) -> None:
    got, want = list(got), list(want)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.dtype, g.shape, w.dtype, w.shape)
        if g.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(w.dtype), w, rtol=rtol, atol=atol)


# --------------------------------------------------------------------------------------
# Programs from JAX
# --------------------------------------------------------------------------------------

_rng = np.random.default_rng(0)


def _f32(*shape):
    return _rng.standard_normal(shape).astype(np.float32)


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2)


def convnet(x, k):
    y = jax.lax.conv_general_dilated(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.lax.reduce_window(jax.nn.relu(y), -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return y.mean(axis=(1, 2))


def transformer_block(x, wq, wk, wv, wo, g):
    def norm(v):
        m = v.mean(-1, keepdims=True)
        return (v - m) * jax.lax.rsqrt(((v - m) ** 2).mean(-1, keepdims=True) + 1e-5) * g

    h = norm(x)
    q, k, v = h @ wq, h @ wk, h @ wv
    mask = jnp.tril(jnp.ones((8, 8), bool))
    a = jax.nn.softmax(jnp.where(mask, jnp.einsum("td,sd->ts", q, k) / 4.0, -1e9), axis=-1)
    x = x + (a @ v) @ wo
    return x + jax.nn.gelu(norm(x))


def scan(x):
    def step(c, xi):
        c = jnp.sin(c) + xi
        return c, c * 2

    return jax.lax.scan(step, jnp.zeros(x.shape[1:]), x)


def while_loop(n, x):
    return jax.lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 1.5), (0, x))


def sort_top_k(x):
    values, indices = jax.lax.top_k(x, 3)
    return jnp.sort(x, axis=0), values, indices, jnp.argsort(x[0])


def reductions(x):
    return x.sum(0), x.max(1), jnp.argmax(x, 1), x.prod(), jnp.any(x > 0, axis=0), jnp.cumsum(x, 1)


def tuples(x, y):
    return (x, (y, x + y)), [x * 2]


def control_and_indexing(x, i, n):
    a = jax.lax.cond(n > 2, lambda v: v * 2, lambda v: v - 1, x)
    b = jax.lax.switch(n, [jnp.sin, jnp.cos, jnp.tanh], x)
    return a, b, x[i], x.at[i].add(1.0), jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)


def linalg_and_special(a, x):
    s = a @ a.T + 4 * jnp.eye(3)
    return (jnp.linalg.cholesky(s), jnp.linalg.solve(s, x), jnp.linalg.eigh(s)[0], jax.scipy.special.erf(x),
            jax.lax.complex(x, 2 * x), jnp.fft.fft(x[:, 0]), jnp.arcsinh(x))  # fmt: skip


def pooling_gradient(x):
    return jax.grad(lambda v: jax.lax.reduce_window(v, -jnp.inf, jax.lax.max, (2, 2), (2, 2), "VALID").sum())(x)


# name -> (function, inputs, backends); the JIT runs the programs that make the
# families of HLO a JIT has to compile (matmuls, convolutions, loops, sorts, tuples)
PROGRAMS = {
    "mlp": (mlp, (_f32(4, 8), _f32(8, 16), _f32(16), _f32(16, 3), _f32(3)), ("interpreter", "jit")),
    "convnet": (convnet, (_f32(2, 8, 8, 3), _f32(3, 3, 3, 4)), ("interpreter", "jit")),
    "transformer_block": (
        transformer_block, (_f32(8, 16), _f32(16, 16), _f32(16, 16), _f32(16, 16), _f32(16, 16), _f32(16)),
        ("interpreter", "jit"),
    ),
    "scan": (scan, (_f32(5, 3),), ("interpreter", "jit")),
    "while_loop": (while_loop, (np.int32(7), _f32(3)), ("interpreter", "jit")),
    "sort_top_k": (sort_top_k, (_f32(4, 6),), ("interpreter", "jit")),
    "reductions": (reductions, (_f32(4, 6),), ("interpreter", "jit")),
    "tuples": (tuples, (_f32(3), _f32(3)), ("interpreter", "jit")),
    "control_and_indexing": (control_and_indexing, (_f32(5, 4), np.array([3, 0, 3], np.int32), np.int32(1)), ("interpreter",)),
    "linalg_and_special": (linalg_and_special, (_f32(3, 3), _f32(3, 2)), ("interpreter",)),
    "pooling_gradient": (pooling_gradient, (_f32(4, 6),), ("interpreter",)),
}  # fmt: skip

_DUMPS: dict[str, dict] = {}


def dump(name: str) -> dict:
    """JAX's HLO of a program, unoptimized and optimized, and its results."""
    if name not in _DUMPS:
        f, args, _ = PROGRAMS[name]
        lowered = jax.jit(f).lower(*args)
        _DUMPS[name] = {
            "unoptimized": lowered.as_text(dialect="hlo"),
            "optimized": lowered.compile().as_text(),
            "want": [np.asarray(v) for v in jax.tree_util.tree_leaves(jax.jit(f)(*args))],
        }
    return _DUMPS[name]


CASES = [
    (name, form, backend)
    for name, (_, _, backends) in PROGRAMS.items()
    for form in ("unoptimized", "optimized")
    for backend in backends
]


@pytest.mark.parametrize(("name", "form", "backend"), CASES)
def test_jax_hlo_runs_as_jax_does(name, form, backend):
    d = dump(name)
    args = PROGRAMS[name][1]
    module = parse_hlo_text(d[form], f"{name}.hlo")
    assert_close(xla_opt.run(module, *args, backend=backend), d["want"], rtol=1e-4, atol=1e-5)


def test_optimized_dumps_have_what_the_parser_reads():
    """The optimized form is XLA's: fusions, layouts, `%` names, stack frames."""
    text = dump("scan")["optimized"]
    for feature in ("fusion(", "kind=kLoop", "{1,0}", "%param_0", "stack_frame_id=", "StackFrames", "while("):
        assert feature in text, feature


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_hlo_out_round_trips_through_our_parser_and_xla(name):
    """-t hlo of the imported program: our parser reads it back, and XLA's parser reads
    it and XLA runs it, both with JAX's results."""
    d = dump(name)
    args = PROGRAMS[name][1]
    text = to_hlo_text(parse_hlo_text(d["unoptimized"], f"{name}.hlo"))
    assert text.startswith("HloModule ") and "\nENTRY main {\n" in text
    assert_close(xla_opt.run(parse_hlo_text(text, "out.hlo"), *args), d["want"], rtol=1e-4, atol=1e-5)
    assert_close(run_hlo_with_xla(text, *args), d["want"], rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------------------
# Literals and layouts: what XLA makes of them
# --------------------------------------------------------------------------------------

LITERALS = """\
HloModule literals

ENTRY main {
  a = f32[7]{0} constant({1.5, -0, nan, inf, -inf, 3.40282347e+38, -nan(0x7fffff)})
  b = bf16[3]{0} constant({1.5, -inf, 0.0078125})
  c = f16[2]{0} constant({65504, -2.5})
  d = f64[2]{0} constant({0.1, -1e-300})
  e = s8[3]{0} constant({-128, 127, 0})
  f = u8[2]{0} constant({255, 0})
  g = s64[2]{0} constant({-9223372036854775808, 9223372036854775807})
  h = u64[1]{0} constant({18446744073709551615})
  i = pred[4]{0} constant({true, false, 1, 0})
  j = c64[2]{0} constant({(1, 2), (nan, -inf)})
  k = c128[] constant((0.5, -0.25))
  l = s32[2,3]{1,0} constant({ { 1, 2, 3 }, { 4, 5, 6 } })
  m = s32[2,3]{0,1} constant({ { 1, 2, 3 }, { 4, 5, 6 } })
  n = f32[2,0]{1,0} constant({ {  }, {  } })
  o = u32[] constant(4294967295)
  ROOT t = (f32[7]{0}, bf16[3]{0}, f16[2]{0}, f64[2]{0}, s8[3]{0}, u8[2]{0}, s64[2]{0}, u64[1]{0}, pred[4]{0}, c64[2]{0}, c128[], s32[2,3]{1,0}, s32[2,3]{1,0}, f32[2,0]{1,0}, u32[]) tuple(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o)
}
"""


def _literal_values():
    import ml_dtypes

    return [
        np.array([1.5, -0.0, np.nan, np.inf, -np.inf, 3.40282347e38, np.nan], np.float32),
        np.array([1.5, -np.inf, 0.0078125], ml_dtypes.bfloat16),
        np.array([65504, -2.5], np.float16),
        np.array([0.1, -1e-300], np.float64),
        np.array([-128, 127, 0], np.int8),
        np.array([255, 0], np.uint8),
        np.array([-(2**63), 2**63 - 1], np.int64),
        np.array([2**64 - 1], np.uint64),
        np.array([True, False, True, False]),
        np.array([1 + 2j, complex(np.nan, -np.inf)], np.complex64),
        np.array(0.5 - 0.25j, np.complex128),
        np.array([[1, 2, 3], [4, 5, 6]], np.int32),
        np.array([[1, 2, 3], [4, 5, 6]], np.int32),  # logical order whatever the layout (XLA agrees below)
        np.zeros((2, 0), np.float32),
        np.array(2**32 - 1, np.uint32),
    ]


def _equal_with_nans(got, want):
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype)
        if g.dtype.kind in "fc" or g.dtype.name == "bfloat16":
            np.testing.assert_array_equal(g.astype(np.complex128), w.astype(np.complex128))
        else:
            np.testing.assert_array_equal(g, w)


def test_literals_of_every_type_read_as_xla_reads_them():
    want = _literal_values()
    got = xla_opt.run(parse_hlo_text(LITERALS, "literals.hlo"))
    _equal_with_nans(got, want)
    _equal_with_nans(run_hlo_with_xla(LITERALS), want)
    # and printed back: our parser and XLA's read the same values again
    text = to_hlo_text(parse_hlo_text(LITERALS, "literals.hlo"))
    _equal_with_nans(xla_opt.run(parse_hlo_text(text, "out.hlo")), want)
    _equal_with_nans(run_hlo_with_xla(text), want)


BITCASTS = """\
HloModule bitcasts

ENTRY main {
  x = f32[2,3]{1,0} parameter(0)
  a = f32[3,2]{0,1} bitcast(x)
  b = f32[6]{0} bitcast(x)
  c = f32[3,2]{1,0} bitcast(x)
  y = f32[2,3]{0,1} copy(x)
  d = f32[6]{0} bitcast(y)
  e = f32[3,1,2]{2,0,1} bitcast(y)
  f = s32[2,3]{1,0} bitcast(x)
  ROOT t = (f32[3,2]{1,0}, f32[6]{0}, f32[3,2]{1,0}, f32[6]{0}, f32[3,1,2]{2,1,0}, s32[2,3]{1,0}) tuple(a, b, c, d, e, f)
}
"""


def _physical_to_logical(flat: np.ndarray, dims, minor_to_major) -> np.ndarray:
    """The logical array of a buffer in a layout: its dimensions major to minor are
    the reverse of minor_to_major."""
    order = list(reversed(minor_to_major))
    physical = flat.reshape([dims[d] for d in order])
    return physical.transpose([order.index(d) for d in range(len(dims))])


def test_bitcast_reinterprets_the_physical_layout():
    """bitcast is the one op whose meaning depends on layouts: the operand's buffer (in
    its layout) read as the result's shape in the result's layout; copy changes only
    the layout. (XLA compiles no module with bitcasts before its layout assignment, so
    the expected values are the buffers spelled out in numpy.)"""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    row_major = x.ravel()  # x is {1,0}
    column_major = x.T.ravel()  # y = copy(x) is {0,1}
    want = [
        _physical_to_logical(row_major, (3, 2), (0, 1)),
        row_major,
        _physical_to_logical(row_major, (3, 2), (1, 0)),
        column_major,
        _physical_to_logical(column_major, (3, 1, 2), (2, 0, 1)),
        x.view(np.int32),
    ]
    np.testing.assert_array_equal(want[0], x.T)
    for backend in ("interpreter", "jit"):
        assert_close(xla_opt.run(parse_hlo_text(BITCASTS, "bitcasts.hlo"), x, backend=backend), want)


def test_bitcasts_of_optimized_jax_programs():
    """The bitcasts XLA's layout assignment leaves (a reshape of a transposed value
    that XLA computed in another layout) mean what JAX computes."""
    x = _f32(4, 3)
    for f in (lambda v: jnp.cumsum(v.T, axis=1).reshape(-1), lambda v: jnp.sort(v.T, axis=0).reshape(2, -1)):
        text = jax.jit(f).lower(x).compile().as_text()
        assert "bitcast(" in text
        assert_close(xla_opt.run(parse_hlo_text(text, "f.hlo"), x), [np.asarray(f(x))], 1e-5, 1e-5)


TUPLE_PARAMETER = """\
HloModule tuple_parameter

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

swap {
  p = (f32[2]{0}, s32[]) parameter(0)
  x = f32[2]{0} get-tuple-element(p), index=0
  n = s32[] get-tuple-element(p), index=1
  ROOT r = (s32[], f32[2]{0}) tuple(n, x)
}

ENTRY main {
  p0 = (f32[2]{0}, s32[]) parameter(0)
  c = (s32[], f32[2]{0}) call(p0), to_apply=swap
  x = f32[2]{0} get-tuple-element(c), index=1
  zero = f32[] constant(0)
  total = f32[] reduce(x, zero), dimensions={0}, to_apply=add
  ROOT out = ((s32[], f32[2]{0}), f32[]) tuple(c, total)
}
"""


def test_tuple_parameters_nested_tuple_results():
    """A tuple parameter is one tuple argument; a tuple root returns its elements (a
    nested tuple as one tuple value); a called computation takes and returns tuples."""
    module = parse_hlo_text(TUPLE_PARAMETER, "t.hlo")
    x = np.array([1.0, 2.0], np.float32)
    (pair, total) = xla_opt.run(module, (x, np.int32(7)))
    assert int(pair[0]) == 7 and pair[1].tolist() == [1.0, 2.0] and float(total) == 3.0


# --------------------------------------------------------------------------------------
# Sharded programs (the texts are what JAX printed for 2 devices)
# --------------------------------------------------------------------------------------

SHARDED = """\
HloModule jit_f, entry_computation_layout={(f32[4,3]{1,0}, f32[3,2]{1,0})->f32[2]{0}}, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["x"=2]>}}

region_0.1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main.2 {
  a.1 = f32[4,3]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{\\"x\\"}, {}]>"}
  b.1 = f32[3,2]{1,0} parameter(1)
  dot.1 = f32[4,2]{1,0} dot(a.1, b.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  tanh.1 = f32[4,2]{1,0} tanh(dot.1)
  constant.1 = f32[] constant(0)
  sum.1 = f32[2]{0} reduce(tanh.1, constant.1), dimensions={0}, to_apply=region_0.1
  ROOT r = f32[2]{0} custom-call(sum.1), custom_call_target="xla.sdy.FuncResultSharding", custom_call_has_side_effect=true
}
"""

PARTITIONED = """\
HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[2,3]{1,0}, f32[3,2]{1,0})->f32[2]{0}}, num_partitions=2

%region_0.0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main.0_spmd (param: f32[2,3], param.1: f32[3,2]) -> f32[2] {
  %param = f32[2,3]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}
  %param.1 = f32[3,2]{1,0} parameter(1), sharding={replicated}
  %partition-id = u32[] partition-id()
  %id = f32[] convert(%partition-id)
  %ids = f32[2,3]{1,0} broadcast(%id), dimensions={}
  %shifted = f32[2,3]{1,0} add(%param, %ids)
  %dot = f32[2,2]{1,0} dot(%shifted, %param.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %zero = f32[] constant(0)
  %sum = f32[2]{0} reduce(%dot, %zero), dimensions={0}, to_apply=%region_0.0
  ROOT %all-reduce = f32[2]{0} all-reduce(%sum), channel_id=1, replica_groups=mesh['axis_0'=2,'axis_1'=1] {'axis_0'}, use_global_device_ids=true, to_apply=%region_0.0
}
"""


def test_shardings_are_dropped_the_program_runs_whole():
    """A sharded program's unoptimized HLO (GSPMD shardings, Shardy's markers) says
    where values live, not what they are: it runs whole on one device."""
    a, b = _f32(4, 3), _f32(3, 2)
    (got,) = xla_opt.run(parse_hlo_text(SHARDED, "sharded.hlo"), a, b)
    np.testing.assert_allclose(got, np.tanh(a @ b).sum(0), rtol=1e-5)


def test_a_partitioned_module_runs_as_one_replica_per_device():
    """XLA's SPMD output (num_partitions=2: each device's program on its shards, a
    partition-id, an all-reduce over a mesh axis) runs as 2 replicas."""
    a, b = _f32(4, 3), _f32(3, 2)
    shards = a.reshape(2, 2, 3)  # device d holds rows 2d, 2d+1
    want = sum((shards[d] + d) @ b for d in range(2)).sum(0)
    results = xla_opt.run(parse_hlo_text(PARTITIONED, "spmd.hlo"), shards, b, replicas=2)
    for (got,) in results:
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_a_shard_map_in_hlo_text_is_a_located_error():
    text = SHARDED.replace("xla.sdy.FuncResultSharding", "xla.sdy.GlobalToLocalShape").replace(
        "ROOT r = f32[2]{0} custom-call", "ROOT r = f32[1]{0} custom-call"
    )
    with pytest.raises(
        ProgramError, match=r"^s\.hlo:16:22: error: custom call 'xla\.sdy\.GlobalToLocalShape' changes shapes"
    ):
        parse_hlo_text(text, "s.hlo")


# --------------------------------------------------------------------------------------
# Locations
# --------------------------------------------------------------------------------------


def _locations(module) -> dict[str, object]:
    return {op.name: op.location for op in module.walk()}


def test_metadata_becomes_the_op_location():
    """The optimized form's stack frames (stack_frame_id) and the source_file/line
    fields name the Python line; without metadata, the op's line in the HLO text."""
    from xdsl.dialects.builtin import FileLineColLoc, NameLoc

    module = parse_hlo_text(dump("mlp")["optimized"], "mlp.hlo")
    dots = [op.location for op in module.walk() if op.name == "xla.dot_general"]
    assert dots and isinstance(dots[0], NameLoc)
    assert dots[0].desc.data.endswith("dot_general")
    assert isinstance(dots[0].location, FileLineColLoc) and dots[0].location.filename.data == __file__
    text = """\
HloModule m

ENTRY main {
  x = f32[2]{0} parameter(0), metadata={op_name="x"}
  ROOT y = f32[2]{0} negate(x), metadata={op_name="jit(f)/neg" source_file="/src/model.py" source_line=12}
}
"""
    located = _locations(parse_hlo_text(text, "m.hlo"))["xla.negate"]
    assert isinstance(located, NameLoc) and located.desc.data == "jit(f)/neg"
    position = located.location
    assert isinstance(position, FileLineColLoc)
    assert (position.filename.data, position.line.data) == ("/src/model.py", 12)
    plain = _locations(
        parse_hlo_text(
            text.replace(', metadata={op_name="jit(f)/neg" source_file="/src/model.py" source_line=12}', ""), "m.hlo"
        )
    )
    assert isinstance(plain["xla.negate"], FileLineColLoc) and plain["xla.negate"].line.data == 5


def test_python_source_of_jax_optimized_hlo():
    """compiled.as_text()'s stack frames point at this file's lines."""
    from xla_opt.diagnostics import file_position

    module = parse_hlo_text(dump("scan")["optimized"], "scan.hlo")
    files = {file_position(op.location).filename.data for op in module.walk() if file_position(op.location)}
    assert __file__ in files


# --------------------------------------------------------------------------------------
# Errors: one located line
# --------------------------------------------------------------------------------------

GOOD = """\
HloModule m

ENTRY main {
  x = f32[2,3]{1,0} parameter(0)
  c = f32[] constant(1)
  b = f32[2,3]{1,0} broadcast(c), dimensions={}
  ROOT y = f32[2,3]{1,0} add(x, b)
}
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("add(x, b)", "frobnicate(x, b)", "m.hlo:7:26: error: unknown HLO opcode 'frobnicate'"),
        ("constant(1)", "constant({...})", "m.hlo:5:22: error: constant: the literal is elided ('{...}')"),
        (
            "dimensions={}",
            "dimensions={0}",
            "m.hlo:6:21: error: 'xla.broadcast_in_dim' op broadcast_dimensions [0] must have one entry per operand dimension (0)",
        ),
        ("add(x, b)", "add(x, q)", "m.hlo:7:33: error: instruction 'q' does not exist"),
        ("constant(1)", "constant(1.5.2)", "m.hlo:5:22: error: constant: '1.5.2' is not a number of f32"),
        ("ROOT y = f32[2,3]{1,0}", "ROOT y = f32[3,2]{1,0}", "m.hlo:7:26: error: 'xla.add' op"),
        (", dimensions={}", "", "m.hlo:6:21: error: 'broadcast' needs the attribute 'dimensions'"),
        ("f32[2,3]{1,0} parameter", "f33[2,3]{1,0} parameter", "m.hlo:4:7: error: unknown element type 'f33'"),
        (
            "HloModule m",
            "HloModule m, entry_computation_layout={(f32[2,3]{1,0})->",
            "m.hlo:1:39: error: the attribute value is not closed",
        ),
        ("add(x, b)\n}\n", "add(x, b)\n", "m.hlo:3:7: error: computation 'main' is not closed"),
        ("dimensions={}", "dimensions={}, to_apply=nowhere", None),
    ],
)
def test_malformed_hlo_is_one_located_line(old, new, message):
    text = GOOD.replace(old, new)
    assert text != GOOD
    if message is None:  # an attribute the op does not read is ignored, as dropped metadata is
        parse_hlo_text(text, "m.hlo")
        return
    with pytest.raises(ProgramError) as e:
        parse_hlo_text(text, "m.hlo")
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_malformed_stack_frame_tables_are_located():
    """Found by fuzzing (lines of a dump swapped): a FileLocations entry among the
    FunctionNames was taken for a name, and reading a stack frame raised
    AttributeError."""
    text = """\
HloModule m

FileNames
1 "f.py"

FunctionNames
1 "<module>"
9 {file_name_id=1 function_name_id=2 line=23}

ENTRY main {
  ROOT x = f32[2]{0} parameter(0), metadata={op_name="x" stack_frame_id=9}
}
"""
    with pytest.raises(ProgramError, match=r"^m\.hlo:8:3: error: expected a quoted name in FunctionNames, got '\{'$"):
        parse_hlo_text(text, "m.hlo")


def test_elided_constants_of_compiled_as_text_say_how_to_get_them():
    """compiled.as_text() elides constants of more than a few elements: a located error
    that says how to print them."""
    c = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    text = jax.jit(lambda x: jnp.dot(c.T, x)).lower(np.ones((3, 5), np.float32)).compile().as_text()
    assert "{...}" in text
    with pytest.raises(
        ProgramError, match=r"^c\.hlo:\d+:\d+: error: constant: the literal is elided .*print_large_constants"
    ):
        parse_hlo_text(text, "c.hlo")


_ONE_LINE = re.compile(r"^fuzz\.hlo:\d+:\d+: error: [^\n]+$|^fuzz\.hlo: error: [^\n]+$")


def test_truncated_and_corrupted_dumps_are_one_located_line():
    """A bounded fuzz of a real optimized dump: truncations at many points, deletions of
    spans and of single characters. Each either reads (a deletion can leave valid
    HLO) or is one located line; never another exception."""
    text = dump("scan")["optimized"]
    rng = np.random.default_rng(33)
    mutants = [text[:n] for n in rng.integers(0, len(text), 40)]
    for _ in range(40):
        start = int(rng.integers(0, len(text)))
        mutants.append(text[:start] + text[start + int(rng.integers(1, 40)) :])
    for _ in range(40):
        start = int(rng.integers(0, len(text)))
        mutants.append(text[:start] + text[start + 1 :])
    failures = 0
    for mutant in mutants:
        try:
            parse_hlo_text(mutant, "fuzz.hlo")
        except ProgramError as e:
            failures += 1
            assert _ONE_LINE.match(str(e)), repr(str(e))
    assert failures > len(mutants) // 2


# --------------------------------------------------------------------------------------
# The tools and the API read HLO text by its content
# --------------------------------------------------------------------------------------


def test_hlo_is_known_by_its_header_after_any_comments():
    """Reproducer: the header's regular expression backtracked exponentially on an MLIR
    file that opens with comments (lit_tests/tools/print_ir.mlir hung xla-opt, and CI)."""
    from xla_opt.formats.hlo_syntax import is_hlo_text

    comments = "// RUN: %xla-opt %s -p a,b // c // d\n\n   \n/* e // f */ // g\n" * 40
    assert not is_hlo_text(comments + "func.func @f() {\n}\n")
    assert not is_hlo_text(comments)
    assert not is_hlo_text("/* never closed HloModule m")
    assert is_hlo_text(comments + "HloModule m, entry_computation_layout={()->()}\n")
    assert not is_hlo_text(comments + "HloModules")


def test_tools_read_hlo_by_content(tmp_path, capsys):
    from xla_opt.opt_main import main as opt_main
    from xla_opt.run_main import main as run_main

    text = dump("mlp")["unoptimized"]
    args = PROGRAMS["mlp"][1]
    want = dump("mlp")["want"]
    for file_name in ("dump.hlo", "dump.txt", "module_0001.jit_mlp.before_optimizations"):
        path = tmp_path / file_name
        path.write_text(text)
        assert opt_main([str(path)]) == 0
        assert "func.func @main" in capsys.readouterr().out
        assert_close(xla_opt.run(str(path) if file_name.endswith((".hlo", ".txt")) else path, *args), want, 1e-4, 1e-5)
    assert_close(xla_opt.run(text, *args), want, 1e-4, 1e-5)  # the text itself
    assert_close(xla_opt.compile(text, backend="jit")(*args), want, 1e-4, 1e-5)
    assert opt_main([str(tmp_path / "dump.hlo"), "-t", "hlo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("HloModule jit_mlp\n") and "ENTRY main {" in out
    for i, a in enumerate(args):
        np.save(tmp_path / f"in{i}.npy", a)
    inputs = [str(tmp_path / f"in{i}.npy") for i in range(len(args))]
    assert run_main([str(tmp_path / "dump.txt"), "--input", *inputs, "--backend", "jit"]) == 0
    assert "result #0: float32[4, 3]" in capsys.readouterr().out
    bad = tmp_path / "bad.hlo"
    bad.write_text(text.replace("dot(", "dott("))
    assert opt_main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(rf"{re.escape(str(bad))}:\d+:\d+: error: unknown HLO opcode 'dott'\n", err), err
    assert run_main([str(bad), "--random-inputs"]) == 1
    assert "unknown HLO opcode 'dott'" in capsys.readouterr().err


# --------------------------------------------------------------------------------------
# HLO out of xla programs the importers do not make
# --------------------------------------------------------------------------------------

XLA_PROGRAM = """\
func.func @main(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %i: tensor<i32>, %c: tensor<3xcomplex<f32>>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3xcomplex<f32>>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) {
  %0 = xla.add %a, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %at = xla.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %sq = xla.dot %0, %at : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = xla.dot %sq, %a : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = xla.reshape %a, dimensions = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = xla.collapse %a, dimensions = [0, 1] : (tensor<2x3xf32>) -> tensor<6xf32>
  %4 = xla.broadcast %v, broadcast_sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  %5 = xla.bitcast_convert %c : (tensor<3xcomplex<f32>>) -> tensor<3x2xf32>
  %6 = xla.bitcast_convert %5 : (tensor<3x2xf32>) -> tensor<3xcomplex<f32>>
  %two = xla.constant dense<2.0> : tensor<f32>
  %7 = xla.multiply %a, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %8 = xla.conditional %i, %a, %a branches({
  ^bb0(%x: tensor<2x3xf32>):
    %n = xla.negate %x : tensor<2x3xf32>
    xla.return %n : tensor<2x3xf32>
  }, {
  ^bb0(%x: tensor<2x3xf32>):
    xla.return %x : tensor<2x3xf32>
  }) : (tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %9:2 = xla.sort %v, %v, dimension = 0, is_stable = true comparator {
  ^bb0(%l: tensor<f32>, %r: tensor<f32>, %l2: tensor<f32>, %r2: tensor<f32>):
    %lt = xla.compare %l, %r, comparison_direction = GT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %v0 = xla.constant dense<7.0> : tensor<f32>
  %10 = xla.pad %a, %v0, edge_padding_low = [0, 1], edge_padding_high = [0, -1], interior_padding = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %1, %2, %3, %4, %6, %5, %8, %9#0, %10 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3xcomplex<f32>>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>
}
"""


def test_hlo_out_of_ops_hlo_says_differently():
    """Implicit broadcasting, xla.dot, reshape with dimensions, collapse, broadcast,
    real <-> complex bitcasts, an S32 conditional, a multi-operand sort: XLA reads the
    HLO and computes what our interpreter computes on the xla program."""
    module = xla_opt.load_program(XLA_PROGRAM)
    args = (_f32(2, 3), _f32(3), np.int32(0), (_f32(3) + 1j * _f32(3)).astype(np.complex64))
    want = xla_opt.run(module, *args)
    text = to_hlo_text(module)
    assert_close(run_hlo_with_xla(text, *args), want)
    assert_close(xla_opt.run(parse_hlo_text(text, "out.hlo"), *args), want)


# ops XLA runs on one CPU device without peers, host queues or registered targets
_NEEDS_MORE_THAN_ONE_DEVICE = (
    "xla.all_", "xla.reduce_scatter", "xla.collective", "xla.replica_id", "xla.infeed", "xla.outfeed",
    "xla.send", "xla.recv", "xla.rng", "xla.custom_call", "xla.after_all", "xla.set_dimension_size", "sdy.",
)  # fmt: skip


def test_hlo_out_of_every_dialect_example_runs_on_xla():
    """Every function of the dialect's round-trip lit tests and of examples/ that one
    CPU device runs (no collectives, host transfers, random numbers, custom targets or
    tuple arguments): -t hlo, which XLA's parser reads and XLA runs on random inputs
    with our interpreter's results on the xla program."""
    from pathlib import Path

    from xdsl.dialects.builtin import TensorType
    from xdsl.dialects.func import FuncOp

    from xla_opt.run_main import _random_inputs

    root = Path(__file__).resolve().parents[1]
    paths = sorted((root / "lit_tests/dialect").glob("*roundtrip*.mlir")) + sorted((root / "examples").glob("*.mlir"))
    checked = 0
    for path in paths:
        for chunk in re.split(r"(?m)^// -----", path.read_text()):
            module = xla_opt.load_program(chunk, str(path))
            if any(op.name.startswith("sdy.") for op in module.walk()):
                continue
            for f in [op for op in module.ops if isinstance(op, FuncOp) and op.body.blocks]:
                if any(op.name.startswith(_NEEDS_MORE_THAN_ONE_DEVICE) for op in f.walk()) or not all(
                    isinstance(t, TensorType) for t in [*f.function_type.inputs.data, *f.function_type.outputs.data]
                ):  # arrays in and out (no tuples, tokens or scalars), as XLA's runtime takes them here
                    continue
                if any(op.name == "xla.call" for op in f.walk()):
                    continue  # its callees may do what is excluded above; the JAX programs call
                inputs = _random_inputs(f, 0, 1)
                want = xla_opt.run(module, *inputs, entry=f.sym_name.data)
                text = to_hlo_text(module, entry=f.sym_name.data)
                assert_close(run_hlo_with_xla(text, *inputs), want, rtol=1e-4, atol=1e-4)
                checked += 1
    assert checked >= 30


def test_all_to_all_of_two_dimensions_is_xla_builders():
    """HLO's array all-to-all splits and concatenates one dimension: another concat
    dimension is reshapes and transposes around it (XlaBuilder's AllToAll), which run
    on 2 replicas as the xla op does (XLA's parser reads the text)."""
    program = """\
func.func @main(%x: tensor<4x6xf32>) -> (tensor<2x12xf32>, tensor<8x3xf32>, tensor<4x6xf32>) {
  %0 = xla.all_to_all %x, split_dimension = 0, concat_dimension = 1, split_count = 2, replica_groups = [[0, 1]] : (tensor<4x6xf32>) -> tensor<2x12xf32>
  %1 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 0, split_count = 2, replica_groups = [[0, 1]] : (tensor<4x6xf32>) -> tensor<8x3xf32>
  %2 = xla.all_to_all %x, split_dimension = 1, concat_dimension = 1, split_count = 2, replica_groups = [[0, 1]] : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return %0, %1, %2 : tensor<2x12xf32>, tensor<8x3xf32>, tensor<4x6xf32>
}
"""
    from jax._src.lib import xla_client as xc

    module = xla_opt.load_program(program)
    text = to_hlo_text(module)
    assert text.count("all-to-all(") == 3 and "dimensions={0}" in text
    xc.hlo.hlo_module_from_text(text)
    x = np.arange(48, dtype=np.float32).reshape(2, 4, 6)  # one row per replica
    want = xla_opt.run(module, x, replicas=2)
    # XLA's AllToAll, spelled out: replica r gets block r of every replica, in order
    blocks = [np.split(x[r], 2, axis=0) for r in range(2)]
    np.testing.assert_array_equal(want[1][0], np.concatenate([blocks[0][1], blocks[1][1]], axis=1))
    for got, expected in zip(xla_opt.run(parse_hlo_text(text, "a2a.hlo"), x, replicas=2), want, strict=True):
        assert_close(got, expected)


def test_hlo_out_of_what_hlo_cannot_say_is_located():
    program = """\
func.func @main(%n: i32) -> i32 {
  func.return %n : i32
}
"""
    module = xla_opt.load_program(program, "scalar.mlir")
    with pytest.raises(ProgramError, match=r"^scalar\.mlir:1:1: error: 'func\.func' op type i32 has no HLO shape"):
        to_hlo_text(module)
