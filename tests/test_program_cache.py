"""The JIT's in-process program cache is bounded (issue 31): after 100 distinct programs
compiled and dropped, it held 103 entries and the process had grown by 20 MB; nothing
was freed when a compiled function was dropped. Now it keeps the most recently used
programs (`xla_opt.set_program_cache_size`, `XLA_OPT_PROGRAM_CACHE_SIZE`, default 64),
an evicted program's execution engine is freed with its last reference, and a live
compiled function keeps its own.

The soak tests run in a fresh process each, to read its memory (RSS) alone. What
llvmlite's optimization pipeline keeps of every program it optimizes (~70 KB, which no
one can free: numba/numba#5976) is measured apart: recompiling evicted programs from
the disk cache, which skips that pipeline, must leave the memory flat.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import weakref

import numpy as np
import pytest

import xla_opt
from xla_opt.runtime import llvm as rt_llvm


def program(i: int) -> str:
    """A tiny program of its own for each i."""
    return (
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"  %c = xla.constant dense<{i}.0> : tensor<4xf32>\n"
        "  %r = xla.add %a, %c : tensor<4xf32>\n"
        "  %s = xla.multiply %r, %r : tensor<4xf32>\n"
        "  func.return %s : tensor<4xf32>\n}\n"
    )


X = np.arange(4, dtype=np.float32)


def expected(i: int) -> np.ndarray:
    return (X + np.float32(i)) ** 2


@pytest.fixture
def small_cache(monkeypatch):
    """A program cache of 3, no disk cache (every compile is LLVM's); the size
    restored after."""
    monkeypatch.setenv("XLA_OPT_CACHE", "0")
    before = xla_opt.get_program_cache_size()
    xla_opt.set_program_cache_size(3)
    yield
    xla_opt.set_program_cache_size(before)


def test_the_cache_keeps_the_most_recently_used(small_cache):
    base = 10_000 + os.getpid() % 1000 * 100  # programs no other test compiled
    compiled = [xla_opt.compile(program(base + i), backend="jit") for i in range(5)]
    keys = [(f.jit.llvm_ir, rt_llvm.PROGRAM_UNROLL_THRESHOLD, True) for f in compiled]
    assert len(rt_llvm._cache) <= 3
    assert [k in rt_llvm._cache for k in keys] == [False, False, True, True, True]
    again = xla_opt.compile(program(base + 2), backend="jit")  # a hit: now the most recent
    assert again.jit.native is compiled[2].jit.native
    xla_opt.compile(program(base + 5), backend="jit")
    assert [k in rt_llvm._cache for k in keys] == [False, False, True, False, True]
    # every compiled function runs, its program evicted or not
    for i, f in enumerate(compiled):
        np.testing.assert_array_equal(f(X)[0], expected(base + i))


def test_an_evicted_program_is_freed_with_its_last_function(small_cache):
    base = 20_000 + os.getpid() % 1000 * 100
    f = xla_opt.compile(program(base), backend="jit")
    native = weakref.ref(f.jit.native)
    engine = weakref.ref(f.jit.native.engine)
    for i in range(1, 5):
        xla_opt.compile(program(base + i), backend="jit")
    gc.collect()
    assert native() is not None  # evicted, but f holds it
    np.testing.assert_array_equal(f(X)[0], expected(base))
    del f
    gc.collect()
    assert native() is None and engine() is None


def test_the_size_is_a_setting():
    with pytest.raises(ValueError, match="non-negative integer"):
        xla_opt.set_program_cache_size(-1)
    script = "import xla_opt; print(xla_opt.get_program_cache_size())"
    env = {**os.environ, "XLA_OPT_PROGRAM_CACHE_SIZE": "5"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "5"
    env.pop("XLA_OPT_PROGRAM_CACHE_SIZE")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(rt_llvm.PROGRAM_CACHE_SIZE)


def test_size_zero_keeps_nothing(small_cache):
    xla_opt.set_program_cache_size(0)
    f = xla_opt.compile(program(30_000), backend="jit")
    assert len(rt_llvm._cache) == 0
    np.testing.assert_array_equal(f(X)[0], expected(30_000))


# --------------------------------------------------------------------------------------
# Soak tests, each in a process of its own
# --------------------------------------------------------------------------------------

SOAK = textwrap.dedent(
    """
    import gc, os, sys, tempfile
    import numpy as np
    import xla_opt
    from xla_opt.runtime import llvm as rt_llvm
    from tests.test_program_cache import X, expected, program

    def rss_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    def live_engines():
        return sum(isinstance(o, rt_llvm.NativeModule) for o in gc.get_objects())

    kind, n = sys.argv[1], int(sys.argv[2])
    xla_opt.set_program_cache_size(8)
    if kind == "rotation":  # 40 programs through a cache of 8: evicted, recompiled from disk
        os.environ["XLA_OPT_CACHE_DIR"] = tempfile.mkdtemp()
        ids = [i % 40 for i in range(n)]
    elif kind == "distinct":  # a new program every time, no disk cache
        os.environ["XLA_OPT_CACHE"] = "0"
        ids = list(range(n))
    samples = []
    if kind == "calls":
        f = xla_opt.compile(program(7), backend="jit")
        for i in range(n):
            (y,) = f(X)
            if i % (n // 5) == n // 5 - 1:
                gc.collect()
                samples.append(rss_mb())
        assert (y == expected(7)).all()
    else:
        for step, i in enumerate(ids):
            f = xla_opt.compile(program(i), backend="jit")
            (y,) = f(X)
            assert (y == expected(i)).all()
            del f
            if step % (n // 5) == n // 5 - 1:
                gc.collect()
                samples.append(rss_mb())
        print("engines", live_engines(), "cached", len(rt_llvm._cache))
    print("rss", *samples)
    """
)


def soak(kind: str, n: int) -> tuple[list[float], dict[str, int]]:
    """Run the soak script; the RSS samples (MB) at each fifth of the run and the
    counts it printed."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run(
        [sys.executable, "-c", SOAK, kind, str(n)], cwd=root, capture_output=True, text=True, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]
    counts: dict[str, int] = {}
    samples: list[float] = []
    for line in out.stdout.splitlines():
        words = line.split()
        if words[:1] == ["rss"]:
            samples = [float(w) for w in words[1:]]
        elif words[:1] == ["engines"]:
            counts = {"engines": int(words[1]), "cached": int(words[3])}
    return samples, counts


def test_soak_recompiling_evicted_programs_keeps_memory_flat():
    """240 compiles of 40 programs through a cache of 8 (each program evicted and
    compiled again five times, its object code from the disk cache): at most 8
    engines alive at the end, and the memory after the first fifth (every program
    compiled once) grows by less than 2 MB."""
    samples, counts = soak("rotation", 240)
    assert counts["cached"] <= 8 and counts["engines"] <= 8
    assert samples[-1] - samples[0] < 2.0, samples


def test_soak_distinct_programs_free_their_engines():
    """200 distinct programs compiled and dropped: at most 8 engines alive at the
    end; the memory grows by llvmlite's share only (~70 KB a program optimized; it
    grew by 160-230 KB a program when every engine was kept)."""
    samples, counts = soak("distinct", 200)
    assert counts["cached"] <= 8 and counts["engines"] <= 8
    per_program_kb = (samples[-1] - samples[0]) * 1024 / (200 * 4 / 5)
    assert per_program_kb < 110, samples


def test_soak_calls_do_not_leak():
    """20,000 calls of one compiled function: the memory stays flat."""
    samples, _ = soak("calls", 20_000)
    assert samples[-1] - samples[0] < 1.0, samples


def _tiny_ir(i: int) -> str:
    return f"define i64 @tiny_{i}(i64 %x) {{\n  %y = add i64 %x, {i}\n  ret i64 %y\n}}\n"


def _compile_on_threads(texts: list[str]) -> list[object]:
    import threading

    results: list[object] = [None] * len(texts)

    def run(i: int) -> None:
        results[i] = rt_llvm.compile_llvm_ir(texts[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_compiles_of_different_texts_run_at_once(monkeypatch):
    """A library prefetched on its thread compiles beside a program's compile: two
    compiles of different texts are in LLVM together (here both wait for the other at
    a barrier, which would time out if one compile held the other off, as a lock
    around the whole compile did)."""
    import threading

    barrier = threading.Barrier(2, timeout=20)
    real = rt_llvm._compile

    def meeting(*args):
        barrier.wait()
        return real(*args)

    monkeypatch.setattr(rt_llvm, "_compile", meeting)
    first, second = _compile_on_threads([_tiny_ir(9001), _tiny_ir(9002)])
    assert first is not None and second is not None and first is not second


def test_a_text_compiled_on_two_threads_at_once_is_compiled_once(monkeypatch):
    """The second asker waits for the compile under way and gets its module."""
    import threading
    import time

    calls = []
    real = rt_llvm._compile

    def slow(*args):
        calls.append(threading.current_thread().name)
        time.sleep(0.3)
        return real(*args)

    monkeypatch.setattr(rt_llvm, "_compile", slow)
    first, second = _compile_on_threads([_tiny_ir(9003), _tiny_ir(9003)])
    assert len(calls) == 1
    assert first is second and first is not None
