"""The sort kernels of lowering/kernels/sort.py called directly on numpy arrays: the
radix sort, the vector quicksort (AVX-512 and AVX2 hosts) and the top-k selection, for every
key type and order, against numpy's stable order of the kernels' keys (the order the
lowering relies on: SortToRadixKernel). Each kernel sorts rows (outer, n, inner) and
writes the sorted bits and, with `perm`, each element's position in its row.

Keys (`SortVariant.encode`): TOTALORDER floats by their IEEE total order, FLOAT ones
with -0.0 tied to +0.0 and every NaN one NaN above +inf (both kept in input order,
with their own bits), SIGNED and UNSIGNED integers; GT sorts descending, ties still
in input order."""

from __future__ import annotations

import ctypes
import re

import ml_dtypes
import numpy as np
import pytest

from xla_opt.lowering.kernels import libraries, sort
from xla_opt.runtime import binding

BF16 = np.dtype(ml_dtypes.bfloat16)
# The kernels' CPU features: the radix sort's (none), the vector quicksort's on
# AVX-512 (the host's) and on AVX2 (the host's without AVX-512: the permutation table)
FEATURES = {
    "radix": "",
    "vq512": binding.HOST.cpu_features,
    "vq256": ",".join(f for f in binding.HOST.cpu_features.split(",") if not f.startswith("+avx512")),
}
_F32 = sort.SortVariant("f", 32, "float", False, 8, False)
VECTOR_QUICKSORTS = [
    pytest.param(name, marks=pytest.mark.skipif(sort.vector_quicksort(_F32, FEATURES[name]) != bits, reason=why))
    for name, bits, why in (("vq512", 512, "no AVX-512 on this host"), ("vq256", 256, "no AVX2 on this host"))
]
ALGORITHMS = ["radix", *VECTOR_QUICKSORTS]


def kind(dtype) -> str:
    dtype = np.dtype(dtype)
    return "i" if dtype.kind in "iu" else ("bf" if dtype == BF16 else "f")


def orders(dtype) -> list[str]:
    dtype = np.dtype(dtype)
    return {"i": ["signed"], "u": ["unsigned"]}.get(dtype.kind, ["float", "totalorder"])


def library(v, algorithm: str = "radix", tag: str = "") -> ctypes.CFUNCTYPE:
    """The kernel of `v`, compiled for this host (`algorithm`: the radix sort, or the
    vector quicksort of AVX-512 or AVX2, `FEATURES`; `tag`: a build of its own)."""
    features = FEATURES[algorithm]
    name = f"test-{algorithm}{tag}-{v.symbol}"
    lib = libraries.Library(name, (v.symbol,), lambda t: sort.sort_ir(v, t.parallel, features), v)
    native = binding.load_library(lib)
    scalars = 4 if isinstance(v, sort.TopKVariant) else 3
    pointers = 3 if isinstance(v, sort.TopKVariant) or v.perm else 2
    function = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * scalars, *[ctypes.c_void_p] * pointers)(
        native.address(v.symbol)
    )
    function.native = native  # keep the code alive
    return function


def keys_of(x: np.ndarray, ctype: str, descending: bool) -> np.ndarray:
    """The kernel's keys as uint64, whose stable order is the kernel's."""
    w = x.dtype.itemsize * 8
    u = x.view(f"u{w // 8}").astype(np.uint64)
    if x.dtype.kind == "f" or x.dtype == BF16:
        if ctype == "float":
            magnitude = u & np.uint64((1 << (w - 1)) - 1)
            infinity = {np.dtype(np.float16): 0x7C00, BF16: 0x7F80, np.dtype(np.float32): 0x7F800000,
                        np.dtype(np.float64): 0x7FF0000000000000}[x.dtype]  # fmt: skip
            u = np.where(magnitude == 0, np.uint64(0), u)
            u = np.where(magnitude > np.uint64(infinity), np.uint64((1 << (w - 1)) - 1), u)
        negative = (u >> np.uint64(w - 1)) & np.uint64(1)
        key = np.where(negative == 1, u ^ np.uint64((1 << w) - 1), u ^ np.uint64(1 << (w - 1)))
    elif ctype == "signed":
        key = u ^ np.uint64(1 << (w - 1))
    else:
        key = u
    return key ^ np.uint64((1 << w) - 1) if descending else key


def data(dtype, shape, seed=0) -> np.ndarray:
    """Ties, the whole range; floats with signed zeros, NaNs of both signs and payloads, infinities."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    size = int(np.prod(shape))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size, endpoint=True, dtype=dtype)
        x[::3] = 5
        return x.reshape(shape)
    x = (rng.standard_normal(size) * 10).astype(np.float32)
    x[::5] = np.round(x[::5])
    specials = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf], np.float32)
    picked = rng.choice(size, min(size, 40), replace=False)
    x[picked] = specials[rng.integers(0, len(specials), len(picked))]
    x = x.astype(dtype)
    if dtype == np.float32 and size > 7:
        x.view(np.uint32)[7] = 0xFFC01234  # a NaN payload of its own
    return x.reshape(shape)


def check_sort(algorithm: str, x, ctype: str, descending: bool, perm: bool, axis: int = -1, tag: str = "") -> None:
    w = x.dtype.itemsize * 8
    v = sort.SortVariant(kind(x.dtype), w, ctype, descending, 11 if x.shape[axis] >= 1 << 14 and w >= 32 else 8, perm)
    if algorithm != "radix" and not sort.vector_quicksort(v, FEATURES[algorithm]):
        return  # the radix sort's (narrow keys alone, 64-bit keys with positions)
    f = library(v, algorithm, tag)
    axis %= x.ndim
    outer, n, inner = int(np.prod(x.shape[:axis])), x.shape[axis], int(np.prod(x.shape[axis + 1 :]))
    dst = np.empty_like(x)
    positions = np.empty(x.shape, np.int32)
    f(outer, n, inner, x.ctypes.data, dst.ctypes.data, *([positions.ctypes.data] if perm else []))
    order = np.argsort(keys_of(x, ctype, descending), axis=axis, kind="stable")
    bits = f"u{w // 8}"
    np.testing.assert_array_equal(dst.view(bits), np.take_along_axis(x, order, axis=axis).view(bits), err_msg=str(v))
    if perm:
        np.testing.assert_array_equal(positions, order, err_msg=str(v))


KEY_TYPES = [np.float16, BF16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
             np.uint32, np.uint64]  # fmt: skip
# rows: one short, several (split over the threads), along a middle dimension, odd
# lengths, a long row (the whole team, 11-bit digits, recursion)
SHAPES = [((2, 5), -1), ((3, 300), -1), ((40, 7, 4), 1), ((2, 257), -1), ((1, 70_000), -1), ((4, 20_000), -1)]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("dtype", KEY_TYPES, ids=lambda d: np.dtype(d).name)
def test_sort(algorithm, dtype):
    """Two kernels per key type (each compiles in ~0.3 s): the first order ascending
    without positions, the last descending with them (floats: FLOAT, then TOTALORDER)."""
    for ctype, descending, perm in ((orders(dtype)[0], False, False), (orders(dtype)[-1], True, True)):
        for seed, (shape, axis) in enumerate(SHAPES):
            check_sort(algorithm, data(dtype, shape, seed), ctype, descending, perm, axis)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_sorted_reversed_and_repeated_inputs(algorithm):
    """Inputs a pivot choice can go wrong on: sorted, reversed, all equal, two values,
    many duplicates, an organ pipe."""
    n = 100_000
    ramp = np.arange(n, dtype=np.int32)
    inputs = [ramp, ramp[::-1].copy(), np.zeros(n, np.int32), (ramp % 2).astype(np.int32),
              np.random.default_rng(1).integers(0, 3, n).astype(np.int32),
              np.concatenate([ramp[: n // 2], ramp[: n // 2][::-1]])]  # fmt: skip
    for x in inputs:
        for descending, perm in ((False, False), (True, True)):
            check_sort(algorithm, x, "signed", descending, perm)
    zeros = np.zeros(n, np.float32)
    zeros[::3] = -0.0
    check_sort(algorithm, zeros, "float", False, False)  # one class: input order, signs and all


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_rows_whose_every_key_is_the_greatest(algorithm):
    """A pivot with no key below it splits off the keys equal to it (those below
    pivot + 1); when it is the greatest key of all (the keys' all-ones), every key is
    equal to it: unsigned maxima ascending, signed minima descending."""
    n = 3_000
    for x, ctype, descending in ((np.full(n, 2**32 - 1, np.uint32), "unsigned", False),
                                 (np.full(n, 2**64 - 1, np.uint64), "unsigned", False),
                                 (np.full(n, -(2**31), np.int32), "signed", True)):  # fmt: skip
        for perm in (False, True):
            check_sort(algorithm, x, ctype, descending, perm)


@pytest.mark.parametrize("algorithm", VECTOR_QUICKSORTS)
def test_vector_quicksort_falls_back_to_heapsort(algorithm, monkeypatch):
    """Past its depth limit a segment is heapsorted (no input is quadratic): forced by
    a negative slack, every segment longer than a network takes the fallback."""
    monkeypatch.setattr(sort, "VQ_DEPTH_SLACK", -200)
    for dtype, perm in ((np.float32, False), (np.float32, True), (np.uint64, False)):
        for ctype in orders(dtype)[:1]:
            check_sort(algorithm, data(dtype, (3, 5000), seed=3), ctype, False, perm, tag="-heapsort")


def test_bitonic_network_schedule_sorts():
    """The networks' schedule (`_vq_bitonic_steps`: per block a flip, then halvings,
    the lower position taking the minimum), simulated on numpy rows of every size a
    network has, sorts random keys with many ties and every 0-1 pattern of 16 (the 0-1
    principle). Runs on any host: the kernels' own tests need AVX2 or AVX-512."""
    rng = np.random.default_rng(0)
    for size in (8, 16, 32, 64, 128, 256, 512):
        rows = [rng.integers(0, 5, (300, size))]
        if size == 16:
            rows.append((np.arange(1 << 16)[:, None] >> np.arange(16)) & 1)
        for x in rows:
            g = np.arange(size)
            for block, distance in sort._vq_bitonic_steps(size):
                partner = g ^ (distance or block - 1)
                low, high = np.minimum(x, x[:, partner]), np.maximum(x, x[:, partner])
                x = np.where(g < partner, low, high)
            assert (np.diff(x, axis=1) >= 0).all(), size


@pytest.mark.parametrize("vector_bits", [512, 256])
@pytest.mark.parametrize("perm", [False, True], ids=["keys", "keys with positions"])
def test_network_layouts_transpose_back_and_verify(perm, vector_bits):
    """Every network the kernels build (1 to VQ_SMALL_VECTORS vectors of 16, 8 or 4
    lanes) returns its keys in order: the generator follows each position through the
    layout of `_vq_place` and its transposition and asserts the sorted order, and
    the IR verifies (any host: nothing is run)."""
    import llvmlite.binding as llvm

    v = sort.SortVariant("f", 32, "float", False, 11, perm, vector_bits)
    vectors = 1
    while vectors <= 2 * sort.VQ_SMALL_VECTORS:  # one size past the kernels' largest
        k = sort._vq_lanes(v)
        declarations = [
            f"declare {k.vec} @llvm.masked.load.{k.suffix}.p0(ptr, i32, {k.mask}, {k.vec})",
            f"declare void @llvm.masked.store.{k.suffix}.p0({k.vec}, ptr, i32, {k.mask})",
            f"declare {k.vec} @llvm.umin.{k.suffix}({k.vec}, {k.vec})",
            f"declare {k.vec} @llvm.umax.{k.suffix}({k.vec}, {k.vec})",
        ]
        llvm.parse_assembly("\n".join([*declarations, sort._vq_network(v, vectors)])).verify()
        vectors *= 2


@pytest.mark.parametrize("bits", [32, 64])
def test_avx2_order_table_puts_a_masks_lanes_first(bits):
    """AVX2's compress (`_Lanes.order_table`): `vpermd` by the entry of a mask (eight
    4-bit dword indices) moves the mask's lanes first, in order, and the others after
    them, last first (a partition's high side, stored whole, ends the vector). Any
    host: the table is read back from the IR text and applied with numpy."""
    lanes = sort._Lanes(bits, 256, "@t")
    text = lanes.order_table()
    entries = [int(x) & 0xFFFFFFFF for x in re.findall(r"i32 (-?\d+)", text.split("[", 2)[2])]
    assert len(entries) == 1 << lanes.count
    dwords = np.arange(8)  # lane j of a bits-wide vector is dwords j*bits/32 ...
    for mask, entry in enumerate(entries):
        moved = dwords[[(entry >> 4 * i) & 7 for i in range(8)]]
        per_lane = moved.reshape(lanes.count, -1)
        assert (per_lane[:, 0] % (bits // 32) == 0).all() and (np.diff(per_lane, axis=1) == 1).all()
        order = list(per_lane[:, 0] // (bits // 32))
        chosen = [j for j in range(lanes.count) if mask >> j & 1]
        assert order == chosen + [j for j in reversed(range(lanes.count)) if j not in chosen], (mask, order)


@pytest.mark.parametrize("algorithm", VECTOR_QUICKSORTS)
def test_vector_quicksort_partitions_in_place(algorithm, monkeypatch):
    """Segments of at least VQ_IN_PLACE_MIN keys are partitioned within their buffer:
    forced down to every segment longer than a network, on the inputs of the test
    above (sorted, reversed, all equal, few values) and random keys of each width,
    with and without positions; the rows' lengths leave partial vectors at both
    ends."""
    monkeypatch.setattr(sort, "VQ_IN_PLACE_MIN", sort.VQ_SMALL_VECTORS * 16 + 1)
    n = 30_011
    ramp = np.arange(n, dtype=np.int32)
    few = np.random.default_rng(2).integers(0, 3, n).astype(np.int32)
    for x in (ramp, ramp[::-1].copy(), np.zeros(n, np.int32), few):
        for descending, perm in ((False, False), (True, True)):
            check_sort(algorithm, x, "signed", descending, perm, tag="-in-place")
    for dtype, ctype, perm in ((np.float32, "float", False), (np.float32, "totalorder", True), (np.int64, "signed", False),
                               (np.float64, "totalorder", False), (np.uint32, "unsigned", True)):  # fmt: skip
        check_sort(algorithm, data(dtype, (2, n), seed=4), ctype, False, perm, tag="-in-place")


# --------------------------------------------------------------------------------------
# top-k
# --------------------------------------------------------------------------------------


def check_top_k(x: np.ndarray, ctype: str, descending: bool, k: int, axis: int = -1) -> None:
    w = x.dtype.itemsize * 8
    v = sort.TopKVariant(kind(x.dtype), w, ctype, descending)
    f = library(v)
    axis %= x.ndim
    outer, n, inner = int(np.prod(x.shape[:axis])), x.shape[axis], int(np.prod(x.shape[axis + 1 :]))
    shape = list(x.shape)
    shape[axis] = k
    dst, positions = np.empty(shape, x.dtype), np.empty(shape, np.int32)
    f(outer, n, inner, k, x.ctypes.data, dst.ctypes.data, positions.ctypes.data)
    order = np.take(np.argsort(keys_of(x, ctype, descending), axis=axis, kind="stable"), range(k), axis=axis)
    np.testing.assert_array_equal(positions, order, err_msg=str(v))
    bits = f"u{w // 8}"
    np.testing.assert_array_equal(dst.view(bits), np.take_along_axis(x, order, axis=axis).view(bits), err_msg=str(v))


@pytest.mark.parametrize("dtype", KEY_TYPES, ids=lambda d: np.dtype(d).name)
def test_top_k(dtype):
    """The first k of the stable order: rows split over the threads, a long row in a
    chunk per thread, a middle dimension, k = 1 and k = n."""
    for ctype, descending in ((orders(dtype)[0], False), (orders(dtype)[-1], True)):
        for seed, (shape, k, axis) in enumerate([((1000,), 16, -1), ((300, 40), 1, -1), ((3, 300), 300, -1),
                                                 ((50, 7, 4), 3, 1), ((1, 150_000), 9, -1)]):  # fmt: skip
            check_top_k(data(dtype, shape, seed), ctype, descending, k, axis)


def test_top_k_of_sorted_rows():
    """Every element enters the heap (ascending under GT), or none after the first k."""
    x = np.sort(data(np.float32, (2, 100_000), seed=5), axis=-1)
    for descending in (False, True):
        check_top_k(x, "totalorder", descending, 16)
