"""Parallel loops (issue 11): big loop nests run on several threads
(`convert-linalg-to-parallel-loops`, `convert-scf-to-openmp`, `convert-omp-to-llvm`,
libgomp's GOMP_parallel), and must give the results of one thread and of the
interpreter.

Sizes are odd, so that the static schedule's chunks are uneven, and above
MIN_ITERATIONS (2^17 iterations). Each program runs on 1, 2 and 3 threads (3 on the
2-core development machine: more threads than cores); results must be bit-identical
across thread counts (a reduction dimension is never split) and equal to the
interpreter's exactly where the arithmetic is exact (element-wise ops, integers,
small-integer sums: float sums may be reassociated, as XLA does, and are otherwise
compared within rounding)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from xla_opt.lowering.conversions.convert_linalg_to_parallel_loops import MIN_ITERATIONS

import xla_opt
from tests.util import tensor_type, ttype
from xla_opt.runtime import threads

GOMP_CALL = '@"GOMP_parallel"('
COUNTS = (1, 2, 3)
ROWS, COLS = 383, 347  # 132,901 >= 2^17 iterations
assert ROWS * COLS >= MIN_ITERATIONS


@pytest.fixture
def on_threads():
    """`on_threads(program, *inputs)`: the JIT's results on 1, 2 and 3 threads (one
    compile; the thread count is read at each parallel region), checked bit-identical
    across counts; the default count is restored after the test."""

    def run(program: str, *inputs: np.ndarray) -> list[np.ndarray]:
        fn = xla_opt.compile(program, backend="jit")
        assert GOMP_CALL in fn.jit.llvm_ir, "the program should have a parallel region"
        results = {}
        for n in COUNTS:
            threads.set_num_threads(n)
            results[n] = fn(*inputs)
        for n in COUNTS[1:]:
            for one, many in zip(results[1], results[n], strict=True):
                assert one.dtype == many.dtype and one.shape == many.shape
                assert one.tobytes() == many.tobytes(), f"{n} threads differ from 1"
        return results[1]

    yield run
    from xla_opt.runtime.cpu import num_threads

    threads.set_num_threads(num_threads())


def program(args: list[np.ndarray], body: str, result: str) -> str:
    params = ", ".join(f"%a{i}: {ttype(a)}" for i, a in enumerate(args))
    return f"func.func @main({params}) -> {result} {{\n{textwrap.dedent(body)}\n}}\n"


def interpreter(text: str, *inputs: np.ndarray) -> list[np.ndarray]:
    return xla_opt.run(text, *inputs, backend="interpreter")


def assert_exact(got: list[np.ndarray], expected: list[np.ndarray]) -> None:
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        assert g.tobytes() == e.tobytes()


def small_ints(rng, shape, dtype=np.float32) -> np.ndarray:
    return rng.integers(-8, 9, shape).astype(dtype)


def test_elementwise_chain(on_threads):
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal((ROWS, COLS)).astype(np.float32) for _ in range(3))
    t = ttype(a)
    text = program(
        [a, b, c],
        f"""
        %m = xla.multiply %a0, %a1 : {t}
        %s = xla.add %m, %a2 : {t}
        %x = xla.maximum %s, %a0 : {t}
        func.return %x : {t}""",
        t,
    )
    assert_exact(on_threads(text, a, b, c), interpreter(text, a, b, c))


def test_a_regions_body_is_compiled_once():
    """A parallel region's body is internal (convert-omp-to-llvm): LLVM inlines it into
    the region function GOMP_parallel runs and deletes it. External, it was optimized
    and compiled a second time on its own (the transformer block's LLVM compile took
    a fifth longer)."""
    a = np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float32)
    t = ttype(a)
    text = program([a], f"  %e = xla.multiply %a0, %a0 : {t}\n  func.return %e : {t}", t)
    fn = xla_opt.compile(text, backend="jit")
    assert re.search(r'^define internal void @"\w+_omp_body_0"', fn.jit.llvm_ir, re.M)
    defined = re.findall(r"^define [^@]*@(\S+)\(", fn.jit.program.native.optimized_ir, re.M)
    assert "main_kernel_0_omp_region_0" in defined and not any("omp_body" in name for name in defined)
    assert_exact(fn(a), interpreter(text, a))


def test_elementwise_transcendental(on_threads):
    """tanh and exp (inline vectorizable code): the same on every thread count, close to
    numpy."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    t = ttype(a)
    text = program(
        [a],
        f"""
        %e = xla.exponential %a0 : {t}
        %h = xla.tanh %e : {t}
        func.return %h : {t}""",
        t,
    )
    [got] = on_threads(text, a)
    np.testing.assert_allclose(got, np.tanh(np.exp(a)), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("dimension", [0, 1])
def test_broadcast(on_threads, dimension):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    v = rng.standard_normal((ROWS, COLS)[dimension]).astype(np.float32)
    t = ttype(a)
    text = program(
        [a, v],
        f"""
        %r = xla.add %a0, %a1, broadcast_dimensions = [{dimension}] : ({t}, {ttype(v)}) -> {t}
        func.return %r : {t}""",
        t,
    )
    [got] = on_threads(text, a, v)
    assert_exact([got], interpreter(text, a, v))
    assert_exact([got], [a + (v[:, None] if dimension == 0 else v[None, :])])


def reduce_op(
    result: str, operand: str, shape, dtype, dims: list[int], op: str, init: str
) -> str:
    """`%result = xla.reduce` of `%operand` over `dims` with `xla.op` from `init`."""
    kept = [d for i, d in enumerate(shape) if i not in dims]
    scalar, out = tensor_type((), dtype), tensor_type(kept, dtype)
    return f"""
        %{result}_init = xla.constant dense<{init}> : {scalar}
        %{result} = xla.reduce (%{operand}), (%{result}_init), dimensions = {dims} body {{
        ^bb0(%acc: {scalar}, %v: {scalar}):
          %n = xla.{op} %acc, %v : {scalar}
          xla.return %n : {scalar}
        }} : ({tensor_type(shape, dtype)}, {scalar}) -> {out}"""


def reduce_text(x: np.ndarray, dims: list[int], op: str, init: str) -> str:
    kept = [d for i, d in enumerate(x.shape) if i not in dims]
    out = tensor_type(kept, x.dtype)
    body = reduce_op("r", "a0", x.shape, x.dtype, dims, op, init)
    return program([x], f"{body}\n        func.return %r : {out}", out)


@pytest.mark.parametrize("dims", [[1], [0]], ids=["rows", "columns"])
def test_reduce_sum_exact(on_threads, dims):
    """Sums of small integers in f32 are exact in any order: the interpreter's result."""
    x = small_ints(np.random.default_rng(3), (ROWS, COLS))
    text = reduce_text(x, dims, "add", "0.0")
    if dims == [0]:  # the reduction is the outer loop: it stays serial
        assert GOMP_CALL not in xla_opt.compile(text, backend="jit").jit.llvm_ir
        assert_exact(xla_opt.run(text, x, backend="jit"), interpreter(text, x))
        return
    assert_exact(on_threads(text, x), interpreter(text, x))


def test_reduce_rows_float(on_threads):
    """Rows of random floats: each row summed by one thread, in one order (identical
    on every thread count), within rounding of the interpreter's sum."""
    x = np.random.default_rng(4).standard_normal((ROWS, COLS)).astype(np.float32)
    text = reduce_text(x, [1], "add", "0.0")
    [got] = on_threads(text, x)
    [expected] = interpreter(text, x)
    np.testing.assert_allclose(
        got,
        expected,
        rtol=0,
        atol=COLS * 4 * np.finfo(np.float32).eps * np.abs(x).max(),
    )


@pytest.mark.parametrize(
    "dtype,op,init",
    [
        (np.int32, "add", "0"),
        (np.int64, "maximum", "-9223372036854775808"),
        (np.float64, "minimum", "0x7FF0000000000000"),
    ],
)
def test_reduce_rows_other_types(on_threads, dtype, op, init):
    rng = np.random.default_rng(5)
    x = (
        rng.integers(-(2**20), 2**20, (ROWS, COLS))
        if dtype != np.float64
        else rng.standard_normal((ROWS, COLS))
    ).astype(dtype)
    text = reduce_text(x, [1], op, init)
    assert_exact(on_threads(text, x), interpreter(text, x))


def test_softmax(on_threads):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((401, 331)).astype(np.float32)
    t, v = ttype(x), "tensor<401xf32>"
    max_ = reduce_op("max", "a0", x.shape, x.dtype, [1], "maximum", "0xFF800000")
    sum_ = reduce_op("sum", "exp", x.shape, x.dtype, [1], "add", "0.0")
    text = program(
        [x],
        f"""{max_}
        %shifted = xla.subtract %a0, %max, broadcast_dimensions = [0] : ({t}, {v}) -> {t}
        %exp = xla.exponential %shifted : {t}{sum_}
        %y = xla.divide %exp, %sum, broadcast_dimensions = [0] : ({t}, {v}) -> {t}
        func.return %y : {t}""",
        t,
    )
    [got] = on_threads(text, x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        got, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7
    )


def test_maxpool(on_threads):
    """A 2x2/2 reduce_window over NHWC (3 x 29 x 29 x 16 windows of 4: 161,472
    iterations): outer loops collapsed into the parallel loop."""
    x = np.random.default_rng(7).standard_normal((3, 58, 58, 16)).astype(np.float32)
    t, out = ttype(x), "tensor<3x29x29x16xf32>"
    text = program(
        [x],
        f"""
        %ninf = xla.constant dense<0xFF800000> : tensor<f32>
        %r = xla.reduce_window (%a0), (%ninf), window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1] body {{
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %m = xla.maximum %p, %q : tensor<f32>
          xla.return %m : tensor<f32>
        }} : ({t}, tensor<f32>) -> {out}
        func.return %r : {out}""",
        out,
    )
    [got] = on_threads(text, x)
    assert_exact([got], interpreter(text, x))
    assert_exact([got], [x.reshape(3, 29, 2, 29, 2, 16).max(axis=(2, 4))])


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64, np.float64])
def test_select_and_integer_arithmetic(on_threads, dtype):
    """compare + select + multiply/add in each type (integers wrap)."""
    rng = np.random.default_rng(8)
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    make = (
        (lambda: rng.integers(info.min, info.max, (ROWS, COLS), endpoint=True))
        if info
        else (lambda: rng.standard_normal((ROWS, COLS)))
    )
    a, b = make().astype(dtype), make().astype(dtype)
    t, p = ttype(a), f"tensor<{ROWS}x{COLS}xi1>"
    text = program(
        [a, b],
        f"""
        %lt = xla.compare %a0, %a1, comparison_direction = LT : ({t}, {t}) -> {p}
        %m = xla.multiply %a0, %a1 : {t}
        %s = xla.add %m, %a1 : {t}
        %r = xla.select %lt, %s, %a0 : ({p}, {t}, {t}) -> {t}
        func.return %r : {t}""",
        t,
    )
    assert_exact(on_threads(text, a, b), interpreter(text, a, b))


def test_loop_carried_buffer(on_threads):
    """A parallel loop in a while body works on the loop-carried buffer (passed as a
    plain pointer, not noalias)."""
    x = np.random.default_rng(9).standard_normal((ROWS, COLS)).astype(np.float32)
    t = ttype(x)
    text = program(
        [x],
        f"""
        %zero = xla.constant dense<0> : tensor<i32>
        %ri, %rx = xla.while %zero, %a0 cond {{
        ^bb0(%ci: tensor<i32>, %cx: {t}):
          %limit = xla.constant dense<5> : tensor<i32>
          %go = xla.compare %ci, %limit, comparison_direction = LT : (tensor<i32>, tensor<i32>) -> tensor<i1>
          xla.return %go : tensor<i1>
        }} body {{
        ^bb0(%bi: tensor<i32>, %bx: {t}):
          %one = xla.constant dense<1> : tensor<i32>
          %half = xla.constant dense<0.5> : tensor<f32>
          %ni = xla.add %bi, %one : tensor<i32>
          %m = xla.multiply %bx, %half : ({t}, tensor<f32>) -> {t}
          %nx = xla.add %m, %bx : {t}
          xla.return %ni, %nx : tensor<i32>, {t}
        }} : (tensor<i32>, {t}) -> (tensor<i32>, {t})
        func.return %rx : {t}""",
        t,
    )
    assert_exact(on_threads(text, x), interpreter(text, x))


def test_small_programs_stay_serial():
    """Below MIN_ITERATIONS no parallel region: waking a team would cost more."""
    a = np.ones((127, 129), np.float32)  # 16,383 iterations
    t = ttype(a)
    text = program([a], f"  %r = xla.add %a0, %a0 : {t}\n  func.return %r : {t}", t)
    fn = xla_opt.compile(text, backend="jit")
    assert (
        "GOMP_parallel" not in fn.jit.llvm_ir
        and "xla_opt_num_threads" not in fn.jit.llvm_ir
    )
    assert_exact(fn(a), [a + a])


def test_set_num_threads():
    from xla_opt.runtime.cpu import num_threads

    if not threads.load():
        pytest.skip("no libgomp: one thread")
    try:
        for n in (1, 3, 2):
            threads.set_num_threads(n)
            assert threads.get_num_threads() == n
        threads.set_num_threads(0)
        assert threads.get_num_threads() == 1
        xla_opt.set_num_threads(2)  # the same setting, from the package's API
        assert xla_opt.get_num_threads() == threads.get_num_threads() == 2
    finally:
        threads.set_num_threads(num_threads())


_THREADS_SEEN = """
import os, numpy as np, xla_opt
from xla_opt.runtime import threads
{patch}
x = np.ones((512, 512), np.float32)
t = "tensor<512x512xf32>"
text = "func.func @main(%a: T) -> T {{\\n %r = xla.add %a, %a : T\\n func.return %r : T\\n}}"
fn = xla_opt.compile(text.replace("T", t), backend="jit")
before = len(os.listdir("/proc/self/task"))
(y,) = fn(x)
assert (y == 2).all()
print(threads.get_num_threads(), len(os.listdir("/proc/self/task")) - before)
"""


def _threads_seen(env_threads: str, patch: str = "") -> tuple[int, int]:
    """(thread count, threads started by the first parallel region) in a fresh process
    with XLA_OPT_NUM_THREADS=env_threads."""
    env = {**os.environ, "XLA_OPT_NUM_THREADS": env_threads}
    out = subprocess.run(
        [sys.executable, "-c", _THREADS_SEEN.format(patch=patch)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return int(out[0]), int(out[1])


def test_thread_count_from_environment():
    """XLA_OPT_NUM_THREADS sets the team: libgomp starts n - 1 threads besides the
    caller on the first parallel region (none for 1)."""
    if not threads.load():
        pytest.skip("no libgomp: one thread")
    assert _threads_seen("3") == (3, 2)
    assert _threads_seen("1") == (1, 0)


def test_without_libgomp():
    """When libgomp cannot be loaded the same code runs on one thread (serial stand-ins
    for its entry points), whatever XLA_OPT_NUM_THREADS says."""
    patch = "import xla_opt.runtime.threads as r; r._load_gomp = lambda: False"
    assert _threads_seen("2", patch) == (1, 0)


def _gomp_environment(env: dict[str, str]) -> tuple[str, str]:
    """OMP_WAIT_POLICY and GOMP_SPINCOUNT as libgomp reads them once the JIT loaded it,
    in a fresh process started with `env` on top of ours minus both."""
    base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    code = (
        "import os; from xla_opt.runtime import threads; threads.load(); "
        "print(os.environ.get('OMP_WAIT_POLICY', '-'), os.environ.get('GOMP_SPINCOUNT', '-'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], out[1]


def test_idle_threads_sleep_after_a_short_spin_unless_the_user_chose():
    """Passive waiting (a busy machine's cores go to whoever has work) after a short spin
    (back-to-back regions of one call do not each pay a futex wake-up); a policy or spin
    count the user set is theirs."""
    if not threads.load():
        pytest.skip("no libgomp: one thread")
    from xla_opt.runtime.threads import SPIN_COUNT

    assert _gomp_environment({}) == ("passive", str(SPIN_COUNT))
    assert _gomp_environment({"GOMP_SPINCOUNT": "7"}) == ("passive", "7")
    assert _gomp_environment({"OMP_WAIT_POLICY": "active"}) == ("active", "-")


def test_exit_with_team_threads_spinning():
    """Reproducer: with OMP_WAIT_POLICY=active (a user's choice) the team's threads spin
    in libgomp after a region; at exit llvmlite dlclosed libgomp under them and the
    process died of a segmentation fault after its last line, every run. libgomp is now
    never unloaded."""
    if not threads.load():
        pytest.skip("no libgomp: one thread")
    code = textwrap.dedent(
        """
        import numpy as np, xla_opt
        t = "tensor<1048576xf32>"
        f = xla_opt.compile(f"func.func @main(%x: {t}) -> {t} {{ %0 = xla.add %x, %x : {t} func.return %0 : {t} }}",
                            backend="jit")
        x = np.arange(1 << 20, dtype=np.float32)
        assert (f(x)[0] == x + x).all()
        print("done")
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "GOMP_SPINCOUNT"}  # this process's own load set it
    env.update(OMP_WAIT_POLICY="active", XLA_OPT_NUM_THREADS="2")
    run = subprocess.run([sys.executable, "-c", code], check=False, env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout.strip()) == (0, "done"), run.stderr[-2000:]
