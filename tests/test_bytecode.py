"""What `jax.export` saves, read without jaxlib (issue 33): MLIR bytecode of VHLO
(StableHLO portable artifacts) and serialized `jax.export.Exported`
(`xla_opt/formats/`).

The artifacts are made here with the installed JAX: `Exported.serialize()` of an MLP,
a small convnet, a transformer block, a `lax.scan` and a sharded program (4 host
devices, in a process of its own), and portable artifacts of the target versions
`serialize_portable_artifact` writes (StableHLO 0.9 to today's, bytecode versions 0
to 6). Each runs on both backends with JAX's results, and imports to the same xla
program as the text JAX prints. Truncated, corrupted and random files are one-line
errors, never a traceback or a hang (a bounded fuzz loop)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import xla_opt
from xla_opt.diagnostics import ProgramError

jax = pytest.importorskip("jax")
pytest.importorskip("flatbuffers")  # Exported.serialize() needs it (the `jax` extra)

import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ("interpreter", "jit")


# --------------------------------------------------------------------------------------
# Programs
# --------------------------------------------------------------------------------------


def mlp(x, w1, b1, w2):
    return jnp.tanh(x @ w1 + b1) @ w2


def convnet(x, k1, k2):
    y = lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(y)
    y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = lax.conv_general_dilated(y, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.softmax(y.mean(axis=(1, 2)), axis=-1)


def transformer(x, wq, wk, wv, wo, w1, w2, g):
    def norm(h):
        m = h.mean(-1, keepdims=True)
        v = ((h - m) ** 2).mean(-1, keepdims=True)
        return (h - m) * lax.rsqrt(v + 1e-5) * g

    def heads(t):
        return t.reshape(2, 8, 4, 8).transpose(0, 2, 1, 3)

    h = norm(x)
    q, k, v = heads(h @ wq), heads(h @ wk), heads(h @ wv)
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(8.0)
    s = jnp.where(jnp.tril(jnp.ones((8, 8), bool)), s, -1e9)
    o = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v).transpose(0, 2, 1, 3).reshape(2, 8, 32)
    x = x + o @ wo
    return x + jax.nn.gelu(norm(x) @ w1) @ w2


def scan(xs, w, h0):
    def step(h, x):
        h = jnp.tanh(h @ w + x)
        return h, h.sum()

    return lax.scan(step, h0, xs)


def _inputs(name: str) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(map(ord, name)))

    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return {
        "mlp": lambda: [f32(4, 16), f32(16, 32), f32(32), f32(32, 8)],
        "convnet": lambda: [f32(2, 8, 8, 3), f32(3, 3, 3, 8, scale=0.3), f32(3, 3, 8, 10, scale=0.3)],
        "transformer": lambda: [
            f32(2, 8, 32),
            *[f32(32, 32, scale=0.2) for _ in range(4)],
            f32(32, 64, scale=0.2),
            f32(64, 32, scale=0.2),
            f32(32),
        ],
        "scan": lambda: [f32(6, 3, 5), f32(5, 5, scale=0.5), f32(3, 5)],
    }[name]()


PROGRAMS = {"mlp": mlp, "convnet": convnet, "transformer": transformer, "scan": scan}


class Artifact:
    def __init__(self, name: str):
        self.name = name
        self.inputs = _inputs(name)
        fn = jax.jit(PROGRAMS[name])
        self.exported = jax.export.export(fn)(*self.inputs)
        self.serialized = bytes(self.exported.serialize())
        self.bytecode = bytes(self.exported.mlir_module_serialized)
        self.expected = [np.asarray(v) for v in jax.tree_util.tree_leaves(fn(*self.inputs))]


_ARTIFACTS: dict[str, Artifact] = {}


def artifact(name: str) -> Artifact:
    if name not in _ARTIFACTS:
        _ARTIFACTS[name] = Artifact(name)
    return _ARTIFACTS[name]


def assert_close(got, expected, tol=2e-5):
    assert len(got) == len(expected)
    for g, w in zip(got, expected, strict=True):
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


_VALUE = r"%[\w$.-]+(?![\w$.-])"


def normalized(module) -> str:
    """The printed program with its values renamed in order of definition (the text
    keeps JAX's names, which repeat from one function or region to the next)."""
    names: dict[str, str] = {}
    count = 0
    out = []
    for line in str(module).splitlines():
        results = re.match(rf"^(\s*)((?:{_VALUE}(?:, )?)+) = (.*)$", line)
        head, body = (results.group(1) + results.group(2), results.group(3)) if results else ("", line)
        # uses first (they name earlier definitions), then this line's definitions:
        # results, and arguments (`%x: type`) of a function or block
        body = re.sub(rf"({_VALUE})(?!:)", lambda m: names.get(m.group(1), m.group(1)), body)
        for name in re.findall(_VALUE, head) + re.findall(rf"({_VALUE}):", body):
            names[name] = f"%v{count}"
            count += 1
        head = re.sub(_VALUE, lambda m: names[m.group(0)], head)
        body = re.sub(rf"({_VALUE}):", lambda m: names[m.group(1)] + ":", body)
        out.append(head + (" = " if results else "") + body)
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# jax.export artifacts run with JAX's results
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_serialized_export_runs_with_jaxs_results(name, backend):
    a = artifact(name)
    assert_close(xla_opt.run(a.serialized, *a.inputs, backend=backend), a.expected, tol=1e-4)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_bytecode_imports_as_the_text_jax_prints(name):
    """The portable artifact and the Exported import to the xla program JAX's text gives."""
    a = artifact(name)
    from_text = normalized(xla_opt.load_program(a.exported.mlir_module()))
    assert normalized(xla_opt.load_program(a.bytecode)) == from_text
    assert normalized(xla_opt.load_program(a.serialized)) == from_text


def test_a_file_is_known_by_its_content(tmp_path):
    """A path to bytecode or to a serialized Exported, whatever its name, reads as such;
    compile takes it as run does."""
    a = artifact("mlp")
    for data, filename in ((a.bytecode, "model.mlirbc"), (a.serialized, "model.bin"), (a.bytecode, "weights")):
        path = tmp_path / filename
        path.write_bytes(data)
        for program in (str(path), path):
            assert_close(xla_opt.compile(program)(*a.inputs), a.expected)


def test_the_exported_flatbuffer_is_read():
    from xla_opt.formats.jax_export import read_exported

    a = artifact("scan")
    info = read_exported(a.serialized)
    assert info.function_name == "scan"
    assert [(av.shape, av.dtype) for av in info.in_avals] == [(x.shape, "float32") for x in a.inputs]
    assert [(av.shape, av.dtype) for av in info.out_avals] == [(w.shape, str(w.dtype)) for w in a.expected]
    assert info.platforms == ["cpu"] and info.nr_devices == 1
    assert info.module == a.bytecode
    assert info.calling_convention_version == a.exported.calling_convention_version
    assert info.module_kept_var_idx == list(a.exported.module_kept_var_idx)


# --------------------------------------------------------------------------------------
# Portable artifacts of every target version
# --------------------------------------------------------------------------------------

TARGETS = ["0.9.0", "0.10.0", "0.12.0", "0.14.0", "0.15.0", "0.19.0", "1.0.0", "1.5.0", "1.9.0", "1.12.0", "current"]


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split("."))


def _installed(target: str) -> str:
    from jaxlib.mlir.dialects import stablehlo

    current = stablehlo.get_current_version()
    if target != "current" and _version(target) > _version(current):
        pytest.skip(f"the installed StableHLO is {current}")
    return current if target == "current" else target


def _portable(target: str) -> bytes:
    from jax._src.lib import xla_client

    version = _installed(target)
    a = artifact("convnet")
    text = jax.jit(convnet).lower(*a.inputs).as_text()
    return bytes(xla_client._xla.mlir.serialize_portable_artifact(text, version))


_CURRENT: list = []


def _current_program() -> str:
    if not _CURRENT:
        _CURRENT.append(normalized(xla_opt.load_program(_portable("current"))))
    return _CURRENT[0]


@pytest.mark.parametrize("target", TARGETS)
def test_a_portable_artifact_of_each_target_version_runs(target):
    """Every version imports to the same program (the current version's), which runs
    on the interpreter with JAX's results."""
    data = _portable(target)
    assert data.startswith(b"ML\xefR") and b"StableHLO_v" in data[:32]
    module = xla_opt.load_program(data)
    assert normalized(module) == _current_program()
    a = artifact("convnet")
    assert_close(xla_opt.run(module, *a.inputs), a.expected, tol=1e-5)


@pytest.mark.parametrize("target", ["0.9.0", "current"])
def test_a_portable_artifact_runs_on_the_jit(target):
    a = artifact("convnet")
    assert_close(xla_opt.run(_portable(target), *a.inputs, backend="jit"), a.expected, tol=1e-5)


def test_the_targets_cover_every_bytecode_version():
    """StableHLO 0.9 writes bytecode 0, 0.10 version 1, 0.12 version 3, 0.14 version 4
    and 0.15 on version 6 (the version is the varint after the magic)."""
    versions = {_portable(t)[4] >> 1 for t in TARGETS[:5]}
    assert versions == {0, 1, 3, 4, 6}


# --------------------------------------------------------------------------------------
# The calling convention of an Exported
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_export_for_several_platforms_and_with_an_unused_input_runs(backend):
    """`platforms=('cpu', 'cuda')` adds a platform index argument (bound to cpu's), and
    the unused `y` is not an argument of the module: the entry still takes x, y, z."""

    def f(x, y, z):
        return jnp.sin(x) + z, jnp.cos(z)

    x, y, z = (np.arange(3, dtype=np.float32) + i for i in range(3))
    exported = jax.export.export(jax.jit(f), platforms=("cuda", "cpu"))(x, y, z)
    assert exported.module_kept_var_idx == (0, 2)
    got = xla_opt.run(bytes(exported.serialize()), x, y, z, backend=backend)
    assert_close(got, [np.asarray(v) for v in f(x, y, z)], tol=1e-6)


def test_a_shape_polymorphic_export_is_refused_in_one_line():
    (b,) = jax.export.symbolic_shape("b")
    exported = jax.export.export(jax.jit(lambda x: x * 2))(jax.ShapeDtypeStruct((b, 4), jnp.float32))
    with pytest.raises(ProgramError) as e:
        xla_opt.load_program(bytes(exported.serialize()), "poly.bin")
    assert str(e.value) == (
        "poly.bin: error: a shape-polymorphic export (input #0 has shape (b, 4)): symbolic dimensions "
        "are not supported; export with concrete shapes"
    )


# --------------------------------------------------------------------------------------
# A sharded program (4 host devices, in a process of its own)
# --------------------------------------------------------------------------------------

SHARDED_SCRIPT = textwrap.dedent(
    """
    import os, sys
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax, jax.numpy as jnp, numpy as np
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    out = sys.argv[1]
    mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))

    def f(x, w):
        h = jnp.tanh(x @ w)
        h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("x", None)))
        s = jax.shard_map(lambda b: jax.lax.psum(b.sum(axis=0, keepdims=True), "x"), mesh=mesh,
                          in_specs=P("x", "y"), out_specs=P(None, "y"))(h)
        return h.sum(axis=1), s

    x = np.arange(32, dtype=np.float32).reshape(8, 4) / 17
    w = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
    fn = jax.jit(f, in_shardings=(NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", None))))
    exported = jax.export.export(fn)(x, w)
    want = fn(x, w)
    open(out + "/sharded.bin", "wb").write(exported.serialize())
    open(out + "/sharded.mlirbc", "wb").write(exported.mlir_module_serialized)
    # the text without locations (our sdy.manual_computation parser takes no `loc(...)`
    # on its region's arguments)
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir
    with jax_mlir.make_ir_context():
        text = ir.Module.parse(exported.mlir_module()).operation.get_asm(enable_debug_info=False)
    open(out + "/sharded.mlir", "w").write(text)
    np.savez(out + "/data.npz", x=x, w=w, out0=np.asarray(want[0]), out1=np.asarray(want[1]))
    """
)


@pytest.fixture(scope="module")
def sharded(tmp_path_factory):
    out = tmp_path_factory.mktemp("sharded")
    proc = subprocess.run(
        [sys.executable, "-c", SHARDED_SCRIPT, str(out)], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sharded_export_runs_partitioned_with_jaxs_results(sharded, backend):
    data = np.load(sharded / "data.npz")
    for program in ("sharded.bin", "sharded.mlirbc"):
        f = xla_opt.compile(str(sharded / program), backend=backend)
        assert f.partitions is not None and f.partitions.devices == 4
        assert_close(f(data["x"], data["w"]), [data["out0"], data["out1"]])


def test_a_sharded_export_keeps_shardys_shardings(sharded):
    """The sdy ops and attributes (Shardy's own encoding) import as the text does; the
    flatbuffer's named shardings are read."""
    from xla_opt.formats.jax_export import read_exported

    from_text = normalized(xla_opt.load_program((sharded / "sharded.mlir").read_text()))
    assert normalized(xla_opt.load_program(str(sharded / "sharded.bin"))) == from_text
    info = read_exported((sharded / "sharded.bin").read_bytes())
    assert info.nr_devices == 4
    assert [str(s) for s in info.in_shardings] == ["P('x', 'y') on mesh(x=2, y=2)", "P('y', None) on mesh(x=2, y=2)"]


# --------------------------------------------------------------------------------------
# Errors: one line naming what is not read
# --------------------------------------------------------------------------------------


def _load_error(data: bytes, name: str = "model.bc") -> str:
    with pytest.raises(ProgramError) as e:
        xla_opt.load_program(data, name)
    return str(e.value)


def test_an_unknown_op_version_dialect_or_bytecode_version_is_named():
    data = artifact("mlp").bytecode
    tanh = re.search(rb"tanh_v\d", data).group(0)  # tanh_v2 from StableHLO 1.10, else tanh_v1
    message = _load_error(data.replace(tanh, b"tanh_v9"))
    assert message.startswith("model.bc: error: unknown VHLO op 'vhlo.tanh_v9'") and "\n" not in message
    message = _load_error(data.replace(b"vhlo\0", b"vhlx\0"))
    assert message.startswith("model.bc: error: dialect 'vhlx' is not read") and "\n" not in message
    newer = data[:4] + bytes([(9 << 1) | 1]) + data[5:]
    assert _load_error(newer) == "model.bc: error: bytecode version 9 is newer than the versions read (0 to 6)"


def test_text_that_is_not_utf8_is_an_error(tmp_path):
    path = tmp_path / "junk.bin"
    path.write_bytes(b"\xff\xfe not a program")
    assert _load_error(str(path)) == f"{path}: error: not UTF-8 text, MLIR bytecode or a serialized jax.export"


def _check_error(e: ProgramError, name: str) -> None:
    """Every line of the message is one diagnostic (several ops may fail to verify)."""
    for line in str(e).splitlines():
        assert re.match(r"^[^\n]*: error: \S", line), str(e)
        assert "Traceback" not in line


def _fuzz_cases(data: bytes, seed: int, flips: int, randoms: int) -> list[bytes]:
    rng = random.Random(seed)
    cases = [data[:n] for n in range(0, len(data), 5)]
    for _ in range(flips):
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(4, len(b))] ^= rng.choice((0x01, 0x10, 0x80, 0xFF))
        cases.append(bytes(b))
    for _ in range(randoms):
        cases.append(data[:4] + bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 160))))
    return cases


@pytest.mark.parametrize("form", ["bytecode", "serialized"])
def test_truncated_and_corrupted_files_are_one_line_errors(form):
    """Cut every 5 bytes, bytes flipped, random bytes after the magic: each loads (a
    harmless change) or is a ProgramError of located one-line diagnostics; none takes
    long (no hang)."""
    a = artifact("mlp")
    data = a.bytecode if form == "bytecode" else a.serialized
    budget = time.perf_counter() + 60
    for case in _fuzz_cases(data, seed=33, flips=150, randoms=60):
        start = time.perf_counter()
        try:
            xla_opt.load_program(case, "fuzz.bc")
        except ProgramError as e:
            _check_error(e, "fuzz.bc")
        assert time.perf_counter() - start < 5
        assert time.perf_counter() < budget


# --------------------------------------------------------------------------------------
# The tools
# --------------------------------------------------------------------------------------


def test_xla_opt_reads_bytecode_and_exports(tmp_path, capsys):
    from xla_opt.opt_main import main

    a = artifact("mlp")
    path = tmp_path / "mlp.mlirbc"
    path.write_bytes(a.bytecode)
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert '"stablehlo.dot_general"' in out and "func.func public @main" in out  # StableHLO, as read
    exported = tmp_path / "mlp.exported"
    exported.write_bytes(a.serialized)
    assert main([str(exported), "-p", "canonicalize"]) == 0
    assert "xla.dot_general" in capsys.readouterr().out  # imported before a pipeline
    cut = tmp_path / "cut.mlirbc"
    cut.write_bytes(a.bytecode[:200])
    assert main([str(cut)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"{cut}: error: "), err


def test_xla_run_runs_an_export(tmp_path, capsys):
    from xla_opt.run_main import main

    path = tmp_path / "scan.jaxexport"
    path.write_bytes(artifact("scan").serialized)
    assert main([str(path), "--random-inputs", "--backend", "jit"]) == 0
    out = capsys.readouterr().out
    assert "result #0: float32[3, 5]" in out and "result #1: float32[6]" in out
    cut = tmp_path / "cut.jaxexport"
    cut.write_bytes(artifact("scan").serialized[:-100])
    assert main([str(cut), "--random-inputs"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
