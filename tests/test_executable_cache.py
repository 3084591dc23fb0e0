"""The executable cache (xla_opt/runtime/executable_cache.py): a program compiled once is,
in another process, loaded without being parsed or lowered and without importing xDSL,
and computes what it computed; what cannot be kept is compiled as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import xla_opt
from xla_opt.runtime import executable_cache

# A dot, a reduction, a sort (a kernel library made for its key type while lowering:
# the cache must declare it again), a bf16 parameter and a scalar result.
PROGRAM = """
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %h: tensor<5xbf16>) -> (tensor<8x4xf32>, tensor<8x16xf32>, tensor<f32>, tensor<5xbf16>) {
  %d = xla.dot %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %s = xla.sort %x, dimension = 1 comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare %a, %b, comparison_direction = LT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } : tensor<8x16xf32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %sum = xla.reduce (%x), (%zero), dimensions = [0, 1] body {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %add = xla.add %a, %b : tensor<f32>
    xla.return %add : tensor<f32>
  } : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
  %h2 = xla.add %h, %h : tensor<5xbf16>
  func.return %d, %s, %sum, %h2 : tensor<8x4xf32>, tensor<8x16xf32>, tensor<f32>, tensor<5xbf16>
}
"""

# Run in a fresh process: compile the program in argv[1] and call it on the inputs saved
# in argv[2]; print what was lowered and imported, and save the results to argv[3].
SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import xla_opt
    f = xla_opt.compile(sys.argv[1], backend="jit")
    inputs = np.load(sys.argv[2])
    results = f(*[inputs[f"arr_{i}"] for i in range(len(inputs.files))])
    np.savez(sys.argv[3], *[np.asarray(r).view(np.uint16) if np.asarray(r).dtype.name == "bfloat16" else r for r in results])
    print(json.dumps({
        "lowered": len(f.jit.times.stages) > 0,
        "xdsl": any(m == "xdsl" or m.startswith("xdsl.") for m in sys.modules),
        "interpreter": sorted(m for m in ("xdsl.interpreter", "xla_opt.partitions") if m in sys.modules),
    }))
    """
)


def inputs() -> list[np.ndarray]:
    import ml_dtypes

    r = np.random.default_rng(0)
    return [
        r.standard_normal((8, 16)).astype(np.float32),
        r.standard_normal((16, 4)).astype(np.float32),
        r.standard_normal(5).astype(ml_dtypes.bfloat16),
    ]


def expected(x: np.ndarray, w: np.ndarray, h: np.ndarray) -> list[np.ndarray]:
    return [x @ w, np.sort(x, axis=1), x.sum(dtype=np.float32), (h + h).view(np.uint16)]


def run_fresh(tmp_path: Path, program: Path, cache: Path) -> tuple[dict, list[np.ndarray]]:
    arguments = tmp_path / "inputs.npz"
    # the bf16 input as np.save keeps it, raw 2-byte records, which a bf16 parameter reads as bf16
    np.savez(arguments, *[a.view("V2") if a.dtype.name == "bfloat16" else a for a in inputs()])
    results = tmp_path / "results.npz"
    env = {**os.environ, "XLA_OPT_CACHE_DIR": str(cache)}
    env.pop("XLA_OPT_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(program), str(arguments), str(results)],
        env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    saved = np.load(results)
    return json.loads(done.stdout.strip().splitlines()[-1]), [saved[f"arr_{i}"] for i in range(len(saved.files))]


def test_a_second_process_loads_the_program_without_lowering_it_or_importing_xdsl(tmp_path):
    """The first process lowers the program without xDSL's interpreter framework or the
    partitioner (a program of one partition, one replica); the second loads it without
    xDSL at all."""
    program = tmp_path / "program.mlir"
    program.write_text(PROGRAM)
    cache = tmp_path / "cache"
    first, first_results = run_fresh(tmp_path, program, cache)
    assert first == {"lowered": True, "xdsl": True, "interpreter": []}
    assert len(list(cache.glob("*.program"))) == 1
    second, second_results = run_fresh(tmp_path, program, cache)
    assert second == {"lowered": False, "xdsl": False, "interpreter": []}
    want = expected(*[a.astype(np.float32) if a.dtype.name == "bfloat16" else a for a in inputs()[:2]], inputs()[2])
    for got_first, got_second, value in zip(first_results, second_results, want):
        np.testing.assert_array_equal(got_second, got_first)
        np.testing.assert_allclose(got_second, value, rtol=1e-5)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """A fresh disk cache, and nothing the process remembers of others."""
    monkeypatch.setenv("XLA_OPT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLA_OPT_CACHE", raising=False)
    executable_cache.clear_memory()
    yield tmp_path
    executable_cache.clear_memory()


def test_a_hit_in_the_process_is_not_lowered_again(cache_dir):
    first = xla_opt.compile(PROGRAM, backend="jit")
    again = xla_opt.compile(PROGRAM, backend="jit")
    assert first.jit.times.stages and not again.jit.times.stages
    assert again.jit.native is first.jit.native
    assert again.jit.llvm_ir == first.jit.llvm_ir


def test_a_hit_reads_the_program_when_a_call_or_a_caller_needs_it(cache_dir):
    xla_opt.compile(PROGRAM, backend="jit")
    executable_cache.clear_memory()  # as another process: from the file
    f = xla_opt.compile(PROGRAM, backend="jit")
    assert "module" not in vars(f)
    x, w, h = inputs()
    # lists and float64 arrays are checked against the signature (the program parsed)
    results = f(x.tolist(), w.astype(np.float64).astype(np.float32), h)
    np.testing.assert_allclose(results[0], x @ w, rtol=1e-5)
    assert f.function.sym_name.data == "main" and f.module is not None
    with pytest.raises(ValueError, match="input #1 of @main"):
        f(x, w.astype(np.float64), h)  # lossy: an error, as without the cache
    raw = h.view(np.uint16).view("V2")  # bf16 saved by np.save reads back as raw records
    np.testing.assert_array_equal(f(x, w, raw)[3], h + h)


def test_what_the_key_depends_on(cache_dir, tmp_path):
    key = executable_cache.key_of(PROGRAM, None)
    assert key == executable_cache.key_of(PROGRAM, None)
    assert key != executable_cache.key_of(PROGRAM, "main")
    assert key != executable_cache.key_of(PROGRAM.replace("%sum", "%total"), None)
    path = tmp_path / "p.mlir"
    path.write_text(PROGRAM)
    assert executable_cache.key_of(path, None) == executable_cache.key_of(str(path), None) == key
    assert executable_cache.key_of(tmp_path / "missing.mlir", None) is None
    assert executable_cache.key_of(xla_opt.load_program(PROGRAM), None) is None  # a module


def test_a_damaged_entry_is_a_miss_and_is_rewritten(cache_dir):
    xla_opt.compile(PROGRAM, backend="jit")
    (entry,) = cache_dir.glob("*.program")
    entry.write_bytes(entry.read_bytes()[:-10])
    executable_cache.clear_memory()
    f = xla_opt.compile(PROGRAM, backend="jit")
    assert f.jit.times.stages  # lowered again
    executable_cache.clear_memory()
    assert not xla_opt.compile(PROGRAM, backend="jit").jit.times.stages


def test_host_calls_replicas_and_a_disabled_cache_keep_nothing(cache_dir, monkeypatch):
    outfeed = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = xla.after_all : !xla.token
  %t2 = xla.outfeed %x, %t : (tensor<4xf32>, !xla.token) -> !xla.token
  func.return %x : tensor<4xf32>
}"""
    xla_opt.compile(outfeed, backend="jit")
    xla_opt.compile(PROGRAM, backend="jit", replicas=2)
    xla_opt.compile(PROGRAM, backend="interpreter")
    assert list(cache_dir.glob("*.program")) == []
    monkeypatch.setenv("XLA_OPT_CACHE", "0")
    xla_opt.compile(PROGRAM, backend="jit")
    assert list(cache_dir.glob("*.program")) == []


def test_the_build_fingerprint_covers_every_source_folder():
    import xla_opt.dialects
    import xla_opt.lowering
    import xla_opt.passes

    folders = [Path(p) for m in (xla_opt, xla_opt.dialects, xla_opt.passes, xla_opt.lowering) for p in m.__path__]
    assert len(folders) == len(executable_cache.PACKAGES)
    assert all((f / "__init__.py").exists() for f in folders)


def test_a_hit_leaves_no_reference_cycle(cache_dir):
    """A cycle through the compiled function (its JIT function once read the signature
    through it) left LLVM's modules and contexts to the garbage collector, which freed a
    context before its module: a segfault in test_program_cache's rotation soak."""
    import gc
    import weakref

    xla_opt.compile(PROGRAM, backend="jit")
    gc.disable()
    try:
        f = xla_opt.compile(PROGRAM, backend="jit")
        assert f.jit.signature is not None and f.function is not None  # both read the parse
        jit = weakref.ref(f.jit)
        del f
        assert jit() is None  # freed by its reference count alone
    finally:
        gc.enable()
