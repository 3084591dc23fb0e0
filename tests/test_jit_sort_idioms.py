"""JAX's sort idioms on the sort kernels (issue 32): what `jax.jit(f).lower(x).as_text()`
writes for jnp.sort, jnp.argsort (stable and not, descending), lax.sort with several
operands and num_keys, lax.sort_key_val, jnp.partition / argpartition and lax.top_k,
for every key type. JAX's float comparators canonicalize -0.0 and NaN with selects
before a TOTALORDER compare; convert-xla-to-linalg recognizes them
(`convert_xla_to_linalg/sort_idioms.py`) and calls the radix-sort kernel (the top-k
kernel where only the first k are read) instead of merge-sorting with the comparator.

Each program runs on both backends, and the results must be JAX's exactly (bits: signs
of zeros, NaN payloads, tie order), the interpreter's (the reference) exactly, and the
lowered program must call the kernels and hold no merge sort (no scf.for)."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest

import xla_opt
from xla_opt.api import load_program
from xla_opt.dialects import xla
from xla_opt.lowering.conversions.convert_xla_to_linalg.reductions import SortToRadixKernel
from xla_opt.pattern_dispatch import ConversionWalker

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOAT_TYPES = [np.float16, BF16, np.float32, np.float64]
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
BACKENDS = ["interpreter", "jit"]


def bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}")) if a.dtype.kind in "fV" or a.dtype == BF16 else a


def data(dtype, shape, seed=0) -> np.ndarray:
    """Keys with ties; floats with -0.0 and +0.0, NaNs of both signs, +-inf."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    size = int(np.prod(shape))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size, endpoint=True, dtype=dtype)
        x[::3] = rng.integers(max(info.min, -3), 4, len(x[::3])).astype(dtype)  # ties
        x[1::17] = info.min
        x[2::19] = info.max
        return x.reshape(shape)
    x = (rng.standard_normal(size) * 4).astype(np.float32)
    x[::3] = np.round(x[::3])  # ties
    specials = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, -1.0], np.float32)
    picked = rng.choice(size, size // 4, replace=False)
    x[picked] = specials[rng.integers(0, len(specials), len(picked))]
    x = x.astype(dtype)
    if dtype == np.float32:  # a NaN with a payload of its own
        x.view(np.uint32)[5] = 0xFFC01234
    return x.reshape(shape)


def check_programs(f, *args, exact_jax=True, kernels=("xla_opt_sort_",), names=None) -> str:
    """Export f (its results a flat tuple, named by `names`), run it on both backends:
    equal to the interpreter's results bit for bit, and to JAX's (`exact_jax`); the
    sorts all take the kernels (`merge_sorted`), among them `kernels`. Returns the IR
    of the sorts' lowering."""
    jitted = jax.jit(f)
    text = jitted.lower(*args).as_text()
    expected = [np.asarray(e) for e in jitted(*args)]
    names = names or [str(i) for i in range(len(expected))]
    results = {backend: xla_opt.run(text, *args, backend=backend) for backend in BACKENDS}
    for name, got, want in zip(names, results["jit"], results["interpreter"], strict=True):
        np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"{name}: JIT != interpreter")
    if exact_jax:
        for name, got, want in zip(names, results["jit"], expected, strict=True):
            assert got.dtype == want.dtype and got.shape == want.shape, name
            np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"{name}: != JAX")
    count, ir = merge_sorted(text)
    assert count == 0, f"{count} sorts merge-sorted"
    for kernel in kernels:
        assert f"func.call @{kernel}" in ir, kernel
    return ir


def merge_sorted(text: str) -> tuple[int, str]:
    """How many of the program's xla.sort ops the kernels' pattern leaves to the merge
    sort (SortToRadixKernel applied alone), and the IR it makes."""
    module = xla_opt.optimize(load_program(text), "xla-legalize-broadcast")
    ConversionWalker([SortToRadixKernel()]).rewrite_module(module)
    return sum(isinstance(op, xla.SortOp) for op in module.walk()), str(module)


def lowered(text: str) -> str:
    """The program through the pipeline's stages up to convert-xla-to-linalg."""
    from xla_opt.lowering.xla_to_llvm import STAGES

    return str(xla_opt.optimize(load_program(text), ",".join(STAGES[: STAGES.index("convert-xla-to-linalg") + 1])))


def kind_of(dtype) -> str:
    """The kernel's name for the key type: f32, bf16, i8 (signed or not)..."""
    dtype = np.dtype(dtype)
    kind = "i" if dtype.kind in "iu" else ("bf" if dtype == BF16 else "f")
    return f"{kind}{dtype.itemsize * 8}"


# --------------------------------------------------------------------------------------
# one key: sort, argsort, descending, along either dimension, top_k, partition
# --------------------------------------------------------------------------------------

ONE_KEY_IDIOMS = {
    "sort": lambda x: jnp.sort(x),
    "argsort": lambda x: jnp.argsort(x),
    "sort descending": lambda x: jnp.sort(x, descending=True),
    "argsort descending": lambda x: jnp.argsort(x, descending=True),
    "sort[::-1]": lambda x: jnp.sort(x)[:, ::-1],
    "sort axis 0": lambda x: jnp.sort(x, axis=0),
    "argsort axis 0": lambda x: jnp.argsort(x, axis=0),
    "top_k 5": lambda x: lax.top_k(x, 5),  # selected
    "top_k 30": lambda x: lax.top_k(x, 30),  # a large k (over 1/32 of the row): sorted, then sliced
    "partition": lambda x: jnp.partition(x, 4),  # top_k(-x, 5), selected, and top_k(x, 155)
    "argpartition": lambda x: jnp.argpartition(x, 4),
}
# what the idioms of a few key types are checked for; the others: sort, argsort, top_k
FULL = {np.dtype(t) for t in (np.float32, BF16, np.float64, np.int32, np.uint8)}
SHORT = ("sort", "argsort", "argsort descending", "top_k 5")


def one_key_program(dtypes):
    """One function of one array per key type: the idioms of each, flattened, and
    their names."""
    names = []
    for dtype in dtypes:
        for idiom in ONE_KEY_IDIOMS if np.dtype(dtype) in FULL else SHORT:
            count = 2 if idiom.startswith("top_k") else 1
            names += [f"{np.dtype(dtype).name} {idiom}"] * count

    def f(*xs):
        out = []
        for x in xs:
            for idiom, fn in ONE_KEY_IDIOMS.items():
                if np.dtype(x.dtype) in FULL or idiom in SHORT:
                    out += jax.tree_util.tree_leaves(fn(x))
        return tuple(out)

    return f, names


@pytest.mark.parametrize("dtypes", [FLOAT_TYPES, INT_TYPES], ids=["floats", "integers"])
def test_one_key_idioms(dtypes):
    """Every one-key idiom on every key type (arrays of 24 x 160), against JAX, in one
    program per family."""
    jax.config.update("jax_enable_x64", True)
    xs = [data(dtype, (24, 160), seed=np.dtype(dtype).itemsize) for dtype in dtypes]
    f, names = one_key_program(dtypes)
    ir = check_programs(f, *xs, kernels=("xla_opt_sort_", "xla_opt_topk_"), names=names)
    for dtype in dtypes:
        order = {"i": "signed", "u": "unsigned"}.get(np.dtype(dtype).kind, "float")
        assert f"@xla_opt_sort_{kind_of(dtype)}_{order}_lt_d8" in ir
        top_order = "totalorder" if order == "float" else order  # chlo.top_k: -0 < +0, -NaN last
        assert f"@xla_opt_topk_{kind_of(dtype)}_{top_order}_gt" in ir  # the largest first
        # top_k(x, 5) and the partitions' top_k(., 5) select; top_k(x, 30), the
        # partitions' other halves and the sorts sort
        calls = re.findall(rf"= func.call @xla_opt_topk_{kind_of(dtype)}_{top_order}_", ir)
        assert len(calls) == (3 if np.dtype(dtype) in FULL else 1)


def test_a_top_k_whose_indices_nothing_reads_sorts_without_positions():
    """jnp.partition's top_k of most of the row reads only its values: the row is
    sorted without positions (the kernel without `perm`, 3x faster on 1M f32);
    jnp.argpartition reads the indices and gets them. Both against JAX."""
    x = data(np.float32, (24, 160), seed=12)
    for f, perm in ((lambda x: jnp.partition(x, 4), False), (lambda x: jnp.argpartition(x, 4), True)):
        text = jax.jit(f).lower(x).as_text()
        kernels = set(re.findall(r"func.call @(xla_opt_sort_\w+?)__", merge_sorted(text)[1]))
        assert kernels == {"xla_opt_sort_f32_totalorder_gt_d8" + ("_perm" if perm else "")}
        check_programs(lambda x, f=f: (f(x),), x)


GUESSED_IDIOMS = {  # name: (function, arguments, whether every kernel it calls is guessed)
    "sort, argsort, descending, top_k": (
        lambda x: (jnp.sort(x), jnp.argsort(x), jnp.sort(x, descending=True), lax.top_k(x, 16)),
        [np.zeros(1 << 15, np.float32)],
        True,
    ),
    "argsort descending": (lambda x: jnp.argsort(x, descending=True), [np.zeros((4, 100), np.float32)], True),
    "signed": (lambda x: (jnp.sort(x), jnp.argsort(x), lax.top_k(x, 3)), [np.zeros((8, 300), np.int16)], True),
    "unsigned, axis 0": (lambda x: (jnp.sort(x, axis=0), lax.top_k(x, 3)), [np.zeros((300, 8), np.uint32)], True),
    "bf16": (lambda x: jnp.sort(x), [np.zeros(100, BF16)], True),
    "sort_key_val": (lax.sort_key_val, [np.zeros(100, np.float32), np.zeros(100, np.int32)], True),
    "too short": (lambda x: jnp.sort(x), [np.zeros(10, np.float32)], True),
    "smallest k": (lambda x: (lax.top_k(-x, 16), lax.top_k(x, 16)), [np.zeros(1 << 15, np.float32)], True),
    # positions nothing reads; two keys: not guessed, and nothing guessed wrong
    "partition": (lambda x: jnp.partition(x, 4), [np.zeros((24, 160), np.float32)], False),
    "two keys": (
        lambda x, y: lax.sort((x, y), num_keys=2),
        [np.zeros(100, np.float32), np.zeros(100, np.int32)],
        False,
    ),
}


@pytest.mark.parametrize("name", list(GUESSED_IDIOMS))
def test_the_sorts_guessed_from_a_programs_text_are_the_ones_it_calls(name):
    """`binding.sorts_in_text` (the kernel libraries a first compile starts before the
    compiler is even imported) names only kernels the lowering then calls, and all of
    them for JAX's usual idioms."""
    from xla_opt.runtime.binding import sorts_in_text

    f, args, complete = GUESSED_IDIOMS[name]
    text = jax.jit(f).lower(*args).as_text()
    guessed = {variant.symbol for variant in sorts_in_text(text)}
    called = set(re.findall(r"func.call @(xla_opt_(?:sort|topk)_\w+?)__", lowered(text)))
    assert guessed <= called
    assert (guessed == called) == complete, (guessed, called)


@pytest.mark.parametrize("compare_type", ["TOTALORDER", "FLOAT"])
def test_a_bare_float_comparator_is_guessed_only_as_a_total_order(compare_type):
    """A float comparator without JAX's canonicalizing selects: a TOTALORDER compare is
    the total-order kernel, guessed; a FLOAT one is not guessed (nothing wrong is)."""
    from xla_opt.runtime.binding import sorts_in_text

    text = f"""func.func @main(%x: tensor<300xf32>) -> tensor<300xf32> {{
  %0 = "stablehlo.sort"(%x) <{{dimension = 0 : i64, is_stable = true}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare  GT, %a, %b,  {compare_type} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }}) : (tensor<300xf32>) -> tensor<300xf32>
  return %0 : tensor<300xf32>
}}"""
    guessed = {variant.symbol for variant in sorts_in_text(text)}
    called = set(re.findall(r"func.call @(xla_opt_sort_\w+?)__", lowered(text)))
    assert guessed == (called if compare_type == "TOTALORDER" else set()) and called


@pytest.mark.parametrize("dtype", [np.float32, np.int16], ids=lambda d: np.dtype(d).name)
def test_unstable_argsort(dtype):
    """jnp.argsort(stable=False): the kernel is stable anyway (the interpreter's order);
    XLA may order ties otherwise, so JAX's sorted keys are compared (as numbers:
    -0.0 == 0.0 and NaNs, in any order, tie)."""
    jax.config.update("jax_enable_x64", True)
    x = data(dtype, (2, 50), seed=3)
    f = jax.jit(lambda x: jnp.argsort(x, stable=False))
    check_programs(lambda x: (f(x),), x, exact_jax=False)
    (got,) = xla_opt.run(f.lower(x).as_text(), x, backend="jit")
    keys = np.take_along_axis(x, got, axis=-1)
    np.testing.assert_array_equal(keys, np.take_along_axis(x, np.asarray(f(x)), axis=-1))
    assert "is_stable = false" in f.lower(x).as_text()


# --------------------------------------------------------------------------------------
# several operands: payloads, num_keys, sort_key_val
# --------------------------------------------------------------------------------------

SEVERAL_OPERANDS = [(np.float32, np.int32), (BF16, np.uint8), (np.float64, np.int64), (np.int16, np.float16),
                    (np.uint32, np.float32)]  # fmt: skip


def several_operand_idioms(*xys):
    out = []
    for x, y in zip(xys[::2], xys[1::2], strict=True):
        iota = lax.broadcasted_iota(jnp.int32, x.shape, 1)
        out += [
            *lax.sort((x, iota), num_keys=1),  # the lax.sort((x, iota), num_keys=1)
            *lax.sort((x, y, iota), num_keys=2),
            *lax.sort((y, x, iota), num_keys=3),
            *lax.sort_key_val(x, y),
            *lax.sort((x, y), dimension=0, num_keys=2),
        ]
    return tuple(out)


def test_several_operands_and_keys():
    """Payloads ride along; num_keys = 2 and 3 sort by each key in turn (the
    lexicographic order of the canonicalized keys). Few distinct first keys, so the
    second and third keys decide."""
    jax.config.update("jax_enable_x64", True)
    arrays, names = [], []
    for x_type, y_type in SEVERAL_OPERANDS:
        x = data(x_type, (30, 48), seed=1)
        x.flat[::2] = x.flat[1::2]  # every first key at least twice
        arrays += [x, data(y_type, (30, 48), seed=2)]
        pair = f"{np.dtype(x_type).name}/{np.dtype(y_type).name}"
        names += [f"{pair} {idiom}" for idiom, count in
                  (("sort((x, iota))", 2), ("sort((x, y, iota), 2)", 3), ("sort((y, x, iota), 3)", 3),
                   ("sort_key_val", 2), ("sort((x, y), 2) axis 0", 2)) for _ in range(count)]  # fmt: skip
    ir = check_programs(several_operand_idioms, *arrays, names=names)
    assert "@xla_opt_sort_f32_float_lt_d8_perm" in ir and "@xla_opt_sort_i16_signed_lt_d8_perm" in ir


# --------------------------------------------------------------------------------------
# what JAX does not write: a GT comparator, other selects
# --------------------------------------------------------------------------------------


def _jax_sort_text(*xs, descending_compare: bool = False) -> str:
    """JAX's lax.sort((x, iota), num_keys=1) of each x; with `descending_compare`, its
    comparators' TOTALORDER LT made GT."""

    def f(*xs):
        return tuple(v for x in xs for v in lax.sort((x, lax.broadcasted_iota(jnp.int32, x.shape, 1)), num_keys=1))

    text = jax.jit(f).lower(*xs).as_text()
    if descending_compare:
        text, count = re.subn(r"compare LT, (%\w+), (%\w+), TOTALORDER", r"compare GT, \1, \2, TOTALORDER", text)
        assert count == len(xs)
    return text


def test_canonicalized_gt_comparator():
    """JAX's canonicalizing comparator with GT: a stable descending sort, NaNs (all one
    NaN above +inf) first in input order, -0.0 and +0.0 tied in input order."""
    jax.config.update("jax_enable_x64", True)
    xs = [data(dtype, (2, 64), seed=4) for dtype in (np.float32, BF16, np.float64)]
    text = _jax_sort_text(*xs, descending_compare=True)
    got = xla_opt.run(text, *xs, backend="jit")
    want = xla_opt.run(text, *xs, backend="interpreter")
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(bits(g), bits(w))
    for x, positions in zip(xs, got[1::2], strict=True):
        keys = x.astype(np.float64)
        nan = np.isnan(keys)
        keys[nan] = np.inf
        keys[keys == 0] = 0.0  # -0.0 too
        order = np.lexsort((np.arange(64)[None].repeat(2, 0), -keys, ~nan), axis=-1)
        np.testing.assert_array_equal(positions, order)
    count, ir = merge_sorted(text)
    assert count == 0 and "func.call @xla_opt_sort_f64_float_gt_d8_perm" in ir


def test_comparators_not_proved_keep_the_merge_sort():
    """Comparators that are not JAX's canonicalization (a NaN replaced by -NaN, zeros
    tested under TOTALORDER, zeros replaced by one, only the zero select, the lhs and
    rhs transformed differently, an EQ of a FLOAT compare between keys) keep the
    comparator as written: the merge sort, the interpreter's results."""
    x = data(np.float32, (1, 40), seed=5)
    base = _jax_sort_text(x)
    variants = {
        "negative NaN": base.replace("0x7FC00000", "0xFFC00000"),
        "zero test under TOTALORDER": re.sub(r"(compare EQ, %arg\d, %cst\w*), FLOAT", r"\1, TOTALORDER", base),
        "zero made one": re.sub(r"(%cst_[03] = stablehlo.constant) dense<0.000000e\+00>", r"\1 dense<1.0>", base),
        "zero select only": base.replace("compare LT, %5, %9", "compare LT, %3, %7"),
        "lhs and rhs differ": base.replace("compare LT, %5, %9", "compare LT, %5, %7"),
    }
    two_keys = jax.jit(lambda x: lax.sort((x, x * 2), num_keys=2)).lower(x).as_text()
    variants["EQ under FLOAT"] = re.sub(
        r"compare EQ, (%\w+), (%\w+), TOTALORDER", r"compare EQ, \1, \2, FLOAT", two_keys
    )
    for name, text in variants.items():
        assert text not in (base, two_keys), name
        assert merge_sorted(text)[0] == 1, name
        if name == "lhs and rhs differ":
            continue  # not a strict weak order: its result is the sorting algorithm's
        got = xla_opt.run(text, x, backend="jit")
        want = xla_opt.run(text, x, backend="interpreter")
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(bits(g), bits(w), err_msg=name)


# --------------------------------------------------------------------------------------
# top-k
# --------------------------------------------------------------------------------------


def test_top_k_many_rows():
    """Many rows split over the threads; XLA's order: the largest first in total order
    (NaN first, -NaN last, +0 before -0), ties by index."""
    jax.config.update("jax_enable_x64", True)
    dtypes = [np.float32, np.float64, BF16, np.int8, np.uint64]
    xs = [data(dtype, (700, 96), seed=6) for dtype in dtypes]
    names = [f"{np.dtype(d).name} {what}" for d in dtypes for what in ("values", "indices")]
    f = lambda *xs: tuple(v for x in xs for v in lax.top_k(x, 3))  # noqa: E731
    ir = check_programs(f, *xs, kernels=[f"xla_opt_topk_{kind_of(d)}_" for d in dtypes], names=names)
    assert "xla_opt_sort_" not in ir


def test_top_k_of_a_long_row_and_approx_max_k():
    """One long row of ascending data (every element enters the heap), cut into a
    chunk per thread and merged; approx_max_k (ApproxTopK) takes the same kernel."""
    x = np.sort(data(np.float32, (1, 100_000), seed=8), axis=-1)
    f = jax.jit(lambda x: (*lax.top_k(x, 16), *lax.approx_max_k(x, 16)))
    text = f.lower(x).as_text()
    assert merge_sorted(text)[1].count("func.call @xla_opt_topk_f32_totalorder_gt") == 2
    for g, w in zip(xla_opt.run(text, x, backend="jit"), f(x), strict=True):
        np.testing.assert_array_equal(bits(g), bits(np.asarray(w)))


def test_a_top_k_leaves_no_iota_behind():
    """JAX's top_k is a sort of the row with an iota, which the top-k kernel replaces
    (it makes the positions itself): the iota's generic, unused, is dead code (xDSL
    patch 23); it was bufferized into a buffer of the row's length, filled on every
    call and never read."""
    from xla_opt.lowering.xla_to_llvm import STAGES

    x = data(np.float32, (4096,), seed=3)
    text = jax.jit(lambda x: lax.top_k(x, 5)).lower(x).as_text()
    bufferized = str(xla_opt.optimize(load_program(text), ",".join(STAGES[: STAGES.index("xla-bufferize") + 1])))
    assert "func.call @xla_opt_topk_" in bufferized and "4096xi32" not in bufferized
    for g, w in zip(xla_opt.run(text, x, backend="jit"), lax.top_k(x, 5), strict=True):
        np.testing.assert_array_equal(bits(g), bits(np.asarray(w)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, BF16, np.float16], ids=lambda d: np.dtype(d).name)
def test_the_k_smallest_select_the_keys_themselves(dtype):
    """JAX's k smallest, `lax.top_k(-x, k)` (and `jnp.partition`'s): xla-fold-sort-negation
    makes the top-k kernel select x's k smallest (ascending) instead of the largest of a
    negated copy of x, and negates only the k it keeps: no pass over the whole row
    negates it. Exactly JAX's values and indices, NaNs of both signs, zeros of both
    signs and ties included."""
    jax.config.update("jax_enable_x64", True)
    x = data(dtype, (6, 3000), seed=21)
    f = lambda x: (*lax.top_k(-x, 7), -lax.top_k(-x, 5)[0], jnp.partition(x, 3))
    check_programs(f, x, kernels=[f"xla_opt_topk_{kind_of(dtype)}_"])
    text = jax.jit(f).lower(x).as_text()
    assert lowered(text).count(f"func.call @xla_opt_topk_{kind_of(dtype)}_totalorder_lt") == 3
    folded = str(xla_opt.optimize(load_program(text), "xla-inline-calls,xla-fold-sort-negation"))
    negated = re.findall(r"xla.negate %\S+ : tensor<([\dx]+)", folded)
    # the 7 values top_k(-x, 7) returns negated; -top_k(-x, 5)[0] and the partition's
    # bottom (a negation of a negation) read the kernel's k smallest as they are
    assert negated and all(shape.split("x")[-2] == "7" for shape in negated), negated


def test_an_argsort_returns_the_kernels_positions_themselves():
    """`jnp.argsort`'s result is the iota payload gathered through the positions, which
    for an i32 iota are the positions themselves: the sort kernel writes them into the
    result, with no loop copying them through an identity chain of casts (a 4 MiB copy
    for 1M keys)."""
    from xla_opt.lowering.xla_to_llvm import STAGES

    x = data(np.float32, (3, 5000), seed=4)
    text = jax.jit(lambda x: jnp.argsort(x, axis=-1)).lower(x).as_text()
    outlined = str(xla_opt.optimize(load_program(text), ",".join(STAGES[: STAGES.index("outline-loop-nests") + 1])))
    assert "func.call @xla_opt_sort_" in outlined and "main_kernel" not in outlined
    np.testing.assert_array_equal(xla_opt.run(text, x, backend="jit")[0], np.asarray(jnp.argsort(x, axis=-1)))


# --------------------------------------------------------------------------------------
# long rows: 11-bit digits, the threads
# --------------------------------------------------------------------------------------


def test_long_rows_against_jax():
    """A row past the wide-digit length (2^14) and sorted by the whole team (2^17
    elements): the issue's four programs, against JAX (the interpreter would run JAX's
    comparator pair by pair)."""
    x = data(np.float32, (1 << 17,), seed=9)
    iota = np.arange(x.size, dtype=np.int32)
    f = jax.jit(lambda x, i: (jnp.sort(x), jnp.argsort(x), *lax.top_k(x, 16), *lax.sort((x, i), num_keys=1)))
    text = f.lower(x, iota).as_text()
    count, ir = merge_sorted(text)
    assert count == 0 and "func.call @xla_opt_sort_f32_float_lt_d11_perm" in ir and "@xla_opt_topk_" in ir
    for g, w in zip(xla_opt.run(text, x, iota, backend="jit"), f(x, iota), strict=True):
        np.testing.assert_array_equal(bits(g), bits(np.asarray(w)))


@pytest.mark.parametrize("length", [63, 64, 127, 128, 5000, 70000])
def test_a_rows_first_pivot_from_many_samples(length):
    """A row's first split takes its pivot from the median of 128 keys (64 with
    positions) sorted by a network (which writes them decoded: the median is encoded
    again). Rows below, at and above those counts, rows of specials only (the median a
    zero or a NaN, or the least key), on one thread and on two (the split gives each
    thread its side): JAX's results exactly, whatever the pivot."""
    from xla_opt.runtime import threads
    from xla_opt.runtime.cpu import num_threads

    rng = np.random.default_rng(length)
    specials = np.array([0.0, -0.0, np.nan, -np.nan, 1.0], np.float32)
    rows = [data(np.float32, (length,), seed=length), specials[rng.integers(0, 5, length)]]
    f = jax.jit(lambda x: (jnp.sort(x), jnp.argsort(x)))
    threads.load()
    try:
        for count in (1, 2):
            threads.set_num_threads(count)
            for x in rows:
                text = f.lower(x).as_text()
                for g, w in zip(xla_opt.run(text, x, backend="jit"), f(x), strict=True):
                    np.testing.assert_array_equal(bits(g), bits(np.asarray(w)))
    finally:
        threads.set_num_threads(num_threads())
