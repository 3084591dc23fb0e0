"""Export to StableHLO, checked against XLA itself.

* Every function of the lit round-trip examples (`lit_tests/dialect/*roundtrip*.mlir`)
  with a tensor signature is exported (`to_stablehlo_text(module, entry=...)`), accepted
  by JAX's own MLIR parser and verifier, compiled and run by XLA (`xla_oracle`) on random
  inputs, and compared with our interpreter. Functions that cannot run on one device
  (collectives, host queues, dynamic sizes, random draws, custom calls, tuple or token
  parameters, bodiless callees) are skipped with the reason.
* Every JAX conformance program (tests/test_conformance_jax.py), imported into xla,
  goes back out: xla -> StableHLO -> XLA, and agrees with our interpreter.
* The `-t stablehlo` target of xla-opt and its diagnostics.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ComplexType, IntegerType, Signedness, TensorType
from xdsl.dialects.func import FuncOp
from xla_opt.passes.conversions.convert_xla_to_stablehlo import StableHLOExportError, to_stablehlo_text

import xla_opt
from xla_opt.api import load_program
from xla_opt.interpreter.dtypes import numpy_dtype

pytest.importorskip("jax", reason="XLA as an oracle needs jax (pip install jax)")
from xla_opt import xla_oracle  # noqa: E402

if not xla_oracle.available():  # pragma: no cover
    pytest.skip("JAX's XLA CPU backend does not load", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
LIT_FILES = sorted((ROOT / "lit_tests" / "dialect").glob("*roundtrip*.mlir"))


def _lit_functions() -> list[tuple[str, str]]:
    out = []
    for path in LIT_FILES:
        for op in load_program(path).ops:
            if isinstance(op, FuncOp) and op.body.blocks:
                out.append((path.name, op.sym_name.data))
    return out


LIT_FUNCTIONS = _lit_functions()

# Ops whose results cannot agree between two runs of different implementations.
RANDOM_OPS = {"xla.rng_uniform": "draws random numbers", "xla.rng_normal": "draws random numbers"}
UNRUNNABLE_OPS = {"xla.custom_call": "calls a custom target XLA's CPU client does not have"}


def random_input(t, rng: np.random.Generator) -> np.ndarray:
    shape = tuple(t.get_shape())
    et = t.get_element_type()
    dtype = numpy_dtype(et)
    if isinstance(et, IntegerType) and et.width.data == 1:
        return rng.random(shape) < 0.5
    if isinstance(et, IntegerType):
        if et.signedness.data == Signedness.UNSIGNED:
            return rng.integers(0, 10, shape).astype(dtype)
        return rng.integers(-8, 9, shape).astype(dtype)
    if isinstance(et, ComplexType):
        return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


def well_conditioned(a: np.ndarray) -> np.ndarray:
    """A batch of square float matrices made symmetric positive definite."""
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.dtype.kind not in "fc":
        return a
    n = a.shape[-1]
    spd = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=a.dtype)
    return spd.astype(a.dtype)


TOLERANCE = {"f": (1e-5, 1e-6), "c": (1e-5, 1e-6)}


def assert_agree(got: list, want: list, what: str, rtol=None, atol=None) -> None:
    assert len(got) == len(want), f"{what}: XLA gives {len(got)} results, the interpreter {len(want)}"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        label = f"{what}: result #{i}"
        assert g.shape == w.shape and g.dtype == w.dtype, (
            f"{label}: XLA {g.dtype}{list(g.shape)}, interpreter {w.dtype}{list(w.shape)}"
        )
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=label)
            continue
        r, a = TOLERANCE["c" if w.dtype.kind == "c" else "f"]
        if w.dtype.itemsize <= 2:  # f16, bf16: a unit in the last place
            r, a = 1e-2, 1e-2
        wide = np.complex128 if w.dtype.kind == "c" else np.float64
        np.testing.assert_allclose(
            g.astype(wide), w.astype(wide), rtol=rtol or r, atol=atol or a, equal_nan=True, err_msg=label
        )


# --------------------------------------------------------------------------------------
# The lit examples
# --------------------------------------------------------------------------------------

_modules: dict[str, object] = {}


def _module(file: str):
    if file not in _modules:
        _modules[file] = load_program(ROOT / "lit_tests" / "dialect" / file)
    return _modules[file]


def expose_values(module, entry: str):
    """A copy of `module` whose `entry`, if it returns nothing, returns every tensor its
    body computes at the top level (the lit examples compute values they do not return)."""
    from xdsl.dialects.builtin import FunctionType
    from xdsl.dialects.func import ReturnOp
    from xdsl.rewriter import Rewriter

    module = module.clone()
    func = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == entry)
    if func.function_type.outputs.data:
        return module, func
    block = func.body.blocks[0]
    values = [r for op in block.ops for r in op.results if isinstance(r.type, TensorType)]
    Rewriter.replace_op(block.last_op, ReturnOp(*values))
    func.function_type = FunctionType.from_lists(
        list(func.function_type.inputs.data), [v.type for v in values]
    )
    return module, func


@pytest.mark.parametrize(("file", "entry"), LIT_FUNCTIONS, ids=[f"{f}::{e}" for f, e in LIT_FUNCTIONS])
def test_lit_example_round_trip(file: str, entry: str) -> None:
    module, func = expose_values(_module(file), entry)
    try:
        text = to_stablehlo_text(module, entry=entry)
    except StableHLOExportError as e:
        pytest.skip(f"not a single-device program: {e}")
    xla_oracle.check_stablehlo(text)  # JAX's own parser and verifier accept it
    if "sdy." in text:
        pytest.skip("a sharded program: tests/test_sharding_export.py runs those on XLA's partitioner")
    names = {op.name for op in func.walk()}
    for table in (RANDOM_OPS, UNRUNNABLE_OPS):
        for name in sorted(names & table.keys()):
            pytest.skip(f"{name} {table[name]}")
    signature = [*func.function_type.inputs.data, *func.function_type.outputs.data]
    bad = [str(t) for t in signature if not isinstance(t, TensorType)]
    if bad:
        pytest.skip(f"XLA's entry takes and returns arrays only, not {', '.join(bad)}")
    rng = np.random.default_rng(zlib.crc32(f"{file}:{entry}".encode()))
    inputs = [random_input(t, rng) for t in func.function_type.inputs.data]
    if names & {"xla.cholesky", "xla.triangular_solve"}:
        # factorizations of matrices that have one (what else gives is unspecified)
        inputs = [well_conditioned(a) for a in inputs]
    want = xla_opt.run(module, *inputs, entry=entry)
    got = xla_oracle.run_stablehlo(text, *inputs)
    assert_agree(got, want, f"{file}::{entry}")


# --------------------------------------------------------------------------------------
# The JAX conformance programs, back out
# --------------------------------------------------------------------------------------

conformance = pytest.importorskip("tests.test_conformance_jax")


@pytest.mark.parametrize("name", list(conformance.CASES))
def test_conformance_program_round_trip(name: str) -> None:
    c = conformance.CASES[name]
    module = conformance.imported(c)
    text = to_stablehlo_text(module, entry="main")
    xla_oracle.check_stablehlo(text)
    got = xla_oracle.run_stablehlo(text, *c.args())
    # the stated tolerance of the program (XLA against the interpreter)
    conformance.assert_matches(got, conformance.interpreted(c), c, "xla -> StableHLO -> XLA")


# --------------------------------------------------------------------------------------
# The xla-opt target and the Python API
# --------------------------------------------------------------------------------------

PROGRAM = """
func.func @main(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %x, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.reshape %0, dimensions = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = xla.reshape %1 : (tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}
"""


def test_target_output_runs_on_xla(tmp_path: Path, capsys) -> None:
    from xla_opt.opt_main import main

    src = tmp_path / "p.mlir"
    src.write_text(PROGRAM)
    assert main([str(src), "-t", "stablehlo"]) == 0
    text = capsys.readouterr().out
    assert '"stablehlo.broadcast_in_dim"' in text and '"stablehlo.transpose"' in text
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.array([10, 20, 30], np.float32)
    (got,) = xla_oracle.run_stablehlo(text, x, v)
    (want,) = xla_opt.run(PROGRAM, x, v)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, (x + v).T.reshape(2, 3))


def test_target_reports_unsupported_ops(tmp_path: Path, capsys) -> None:
    from xla_opt.opt_main import main

    src = tmp_path / "feed.mlir"
    src.write_text(
        "func.func @f(%t: !xla.token) -> !xla.token {\n"
        "  %x, %t1 = xla.infeed %t : (!xla.token) -> (tensor<2xf32>, !xla.token)\n"
        "  func.return %t1 : !xla.token\n"
        "}\n"
    )
    assert main([str(src), "-t", "stablehlo"]) == 1
    err = capsys.readouterr().err
    assert f"{src}:2:" in err and "'xla.infeed' op has no StableHLO equivalent" in err


def test_exported_text_imports_back() -> None:
    """Our own export is StableHLO our importer reads: xla -> StableHLO -> xla."""
    pytest.importorskip("xla_opt.passes.conversions.convert_stablehlo_to_xla", reason="the StableHLO importer")
    text = to_stablehlo_text(load_program(PROGRAM))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.array([1, 2, 3], np.float32)
    np.testing.assert_array_equal(xla_opt.run(text, x, v)[0], xla_opt.run(PROGRAM, x, v)[0])


def test_load_program_detects_stablehlo(tmp_path: Path, capsys) -> None:
    """`load_program` (so `xla_opt.run`, `xla_opt.compile`, `xla-run`) imports StableHLO
    text by itself; xla text that merely mentions StableHLO in a comment stays xla."""
    pytest.importorskip("xla_opt.passes.conversions.convert_stablehlo_to_xla", reason="the StableHLO importer")
    import jax

    from xla_opt.run_main import main as xla_run

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    text = jax.jit(lambda a: (a * 2.0).sum(axis=0)).lower(x).as_text()
    np.testing.assert_array_equal(xla_opt.run(text, x)[0], (x * 2).sum(axis=0))
    commented = "// like stablehlo.add, but xla\n" + PROGRAM
    assert any(op.name == "xla.add" for op in load_program(commented).walk())
    src = tmp_path / "jax.mlir"
    src.write_text(text)
    np.save(tmp_path / "x.npy", x)
    assert xla_run([str(src), "--input", str(tmp_path / "x.npy")]) == 0
    assert "result #0: float32[3]" in capsys.readouterr().out
