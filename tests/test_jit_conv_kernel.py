"""The convolution kernel (lowering/kernels/conv.py, issue 11): 2-D f32 convolutions of
at least MIN_MACS multiply-adds are `linalg-conv-to-kernel` calls of `xla_opt_sconv_<side>`,
an implicit GEMM on the GEMM's micro-kernel, which must give the interpreter's results.

Inputs are small nonzero integers: every product and partial sum is exact in f32, so
the kernel's summation order gives the interpreter's result bit for bit (compared with
assert_array_equal, and with a float64 numpy convolution where the layout is NCHW)."""

from __future__ import annotations

import ctypes
import re

import numpy as np
import pytest
from xla_opt.lowering.transforms.linalg_conv_to_kernel import MIN_MACS
from xla_opt.lowering.kernels.conv import PARAMS, SCONV_BY_SIDE, SYMBOL, SYMBOL_BY_SIDE
from xla_opt.lowering.kernels.gemm import AVX2_FMA, OVERWRITE, SSE, library_ir

import xla_opt
from tests.test_interp_linear_algebra import layout_dnums
from tests.test_jit_linear_algebra import conv_op, func

F32 = np.float32


def small_ints(rng: np.random.Generator, shape, dtype=F32) -> np.ndarray:
    """Nonzero integers in [-3, 3]: no -0.0 product, exact sums."""
    values = rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)
    return values.astype(dtype)


def shape_in(spec: str, sizes: dict[str, int]) -> tuple[int, ...]:
    return tuple(sizes[c] for c in spec)


def program_of(lhs: np.ndarray, rhs: np.ndarray, specs, **props) -> str:
    op, result = conv_op(
        "%a0",
        "%a1",
        (lhs.shape, lhs.dtype),
        (rhs.shape, rhs.dtype),
        layout_dnums(*specs),
        **props,
    )
    return func([lhs, rhs], result, f"  %r = {op}")


def uses_kernel(program: str) -> bool:
    return SYMBOL in xla_opt.compile(program, backend="jit").jit.llvm_ir


def numpy_conv_nchw(
    x, w, strides=(1, 1), padding=((0, 0), (0, 0)), rhs_dilation=(1, 1), groups=1
) -> np.ndarray:
    """NCHW x OIHW -> NCHW in float64, from the definition (padding may be negative)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (pt, pb), (pl, pr) = padding
    padded = np.zeros((n, c, h + max(pt, 0) + max(pb, 0), wd + max(pl, 0) + max(pr, 0)))
    padded[:, :, max(pt, 0) : max(pt, 0) + h, max(pl, 0) : max(pl, 0) + wd] = x
    padded = padded[
        :,
        :,
        max(-pt, 0) : padded.shape[2] - max(-pb, 0),
        max(-pl, 0) : padded.shape[3] - max(-pr, 0),
    ]
    (sh, sw), (dh, dw) = strides, rhs_dilation
    oh = (padded.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (padded.shape[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                rows = slice(i * dh, i * dh + sh * (oh - 1) + 1, sh)
                cols = slice(j * dw, j * dw + sw * (ow - 1) + 1, sw)
                patch = padded[:, g * cg : (g + 1) * cg, rows, cols]
                out[:, g * og : (g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og : (g + 1) * og, :, i, j]
                )
    return out


def check(program: str, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """The JIT's result, equal to the interpreter's."""
    got = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    np.testing.assert_array_equal(
        got, xla_opt.run(program, lhs, rhs, backend="interpreter")[0]
    )
    return got


# (sizes of N, C, H, W; of O, kernel H, W; properties): odd sizes, output features and
# windows not multiples of the 6 x 16 tile, windows wider than a panel (vector loads of
# two runs) and narrower (lane by lane).
NCHW_CASES = [
    ((2, 5, 17, 17), (7, 3, 3), {"padding": [(1, 1), (1, 1)]}),
    ((1, 8, 9, 40), (13, 3, 3), {"padding": [(2, 0), (0, 3)]}),
    (
        (3, 4, 20, 11),
        (9, 2, 3),
        {"window_strides": [2, 1], "padding": [(1, 2), (0, 1)]},
    ),
    ((2, 6, 16, 37), (5, 3, 3), {"rhs_dilation": [2, 3], "padding": [(2, 1), (0, 3)]}),
    ((2, 3, 15, 65), (10, 2, 2), {"window_strides": [2, 2], "rhs_dilation": [1, 2]}),
    ((2, 4, 18, 24), (6, 3, 3), {"padding": [(-1, 2), (1, -2)]}),
    ((4, 16, 12, 12), (24, 1, 1), {}),
    (
        (1, 3, 70, 70),
        (40, 5, 5),
        {"padding": [(2, 2), (2, 2)]},
    ),  # 4900 windows: two NC blocks
    (
        (1, 48, 20, 20),
        (16, 3, 3),
        {"padding": [(1, 1), (1, 1)]},
    ),  # K = 432 > KC: two depth slices
]


@pytest.mark.parametrize(
    "sizes,kernel,props", NCHW_CASES, ids=lambda x: str(x).replace(" ", "")
)
def test_nchw(sizes, kernel, props):
    rng = np.random.default_rng(sum(sizes) + sum(kernel))
    x = small_ints(rng, sizes)
    w = small_ints(rng, (kernel[0], sizes[1], kernel[1], kernel[2]))
    program = program_of(x, w, ("NCHW", "OIHW", "NCHW"), **props)
    assert uses_kernel(program)
    got = check(program, x, w)
    expected = numpy_conv_nchw(
        x,
        w,
        props.get("window_strides", (1, 1)),
        props.get("padding", ((0, 0), (0, 0))),
        props.get("rhs_dilation", (1, 1)),
    )
    np.testing.assert_array_equal(got, expected)


# Other layouts: NHWC (the named op, or with padding the generic; windows as rows, batch
# folded),
# and layouts that are just strides for the kernel.
LAYOUT_CASES = [
    (("NHWC", "HWIO", "NHWC"), {"padding": [(1, 1), (1, 1)]}),
    (("NHWC", "HWIO", "NHWC"), {"window_strides": [2, 2], "padding": [(1, 0), (0, 2)]}),
    (("NHWC", "HWIO", "NHWC"), {"rhs_dilation": [2, 1]}),
    (("NHWC", "OIHW", "NCHW"), {"padding": [(1, 1), (0, 1)]}),
    (("CHWN", "IHWO", "HWNC"), {"window_strides": [1, 2], "padding": [(1, 0), (0, 1)]}),
    (("NCHW", "HWIO", "NHWC"), {"rhs_dilation": [1, 2], "padding": [(0, 2), (1, 1)]}),
    (
        ("NCHW", "OHWI", "CNHW"),
        {"padding": [(1, 1), (1, 1)]},
    ),  # batch folded into the windows
]


@pytest.mark.parametrize(
    "specs,props", LAYOUT_CASES, ids=lambda x: str(x).replace(" ", "")
)
def test_layouts(specs, props):
    rng = np.random.default_rng(len(str(specs)) + len(props))
    lhs = small_ints(rng, shape_in(specs[0], {"N": 3, "C": 6, "H": 13, "W": 19}))
    rhs = small_ints(rng, shape_in(specs[1], {"O": 23, "I": 6, "H": 3, "W": 2}))
    program = program_of(lhs, rhs, specs, **props)
    assert uses_kernel(program)
    check(program, lhs, rhs)


def test_padded_nhwc_is_one_call_and_no_loop():
    """An f32 NHWC/HWIO convolution with padding (JAX's "SAME") is the kernel call alone:
    the padding is taken in the packing, never materialized in a padded copy, and the
    output is not zero-filled first (OVERWRITE)."""
    rng = np.random.default_rng(5)
    specs = ("NHWC", "HWIO", "NHWC")
    lhs = small_ints(rng, shape_in(specs[0], {"N": 2, "C": 8, "H": 10, "W": 12}))
    rhs = small_ints(rng, shape_in(specs[1], {"O": 16, "I": 8, "H": 3, "W": 3}))
    program = program_of(lhs, rhs, specs, padding=[(1, 1), (1, 1)])
    ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    # the call, the declaration: of the rows' kernel alone (windows are rows in NHWC)
    assert ir.count(f'@"{SYMBOL_BY_SIDE[1]}"(') == 2 and " br " not in ir and "alloc" not in ir
    check(program, lhs, rhs)


def test_one_input_feature_windows_as_rows():
    """NHWC with one input feature: windows (rows, MR-wide panels) read consecutive
    inputs, the vector loads of `side` 1."""
    rng = np.random.default_rng(13)
    lhs, rhs = small_ints(rng, (2, 24, 23, 1)), small_ints(rng, (3, 3, 1, 16))
    program = program_of(lhs, rhs, ("NHWC", "HWIO", "NHWC"), padding=[(1, 1), (2, 0)])
    assert uses_kernel(program)
    check(program, lhs, rhs)


@pytest.mark.parametrize(
    "specs", [("NCHW", "OIHW", "NCHW"), ("NHWC", "HWIO", "NHWC")], ids="-".join
)
@pytest.mark.parametrize(
    "groups,per_group", [(2, 5), (6, 4)], ids=["two-groups", "six-groups"]
)
def test_feature_groups(specs, groups, per_group):
    """Each group a GEMM of its own (its features' slice of the input, the kernel, the
    output); NHWC groups take the generic form too."""
    rng = np.random.default_rng(groups)
    cg = 3
    lhs = small_ints(
        rng, shape_in(specs[0], {"N": 2, "C": groups * cg, "H": 14, "W": 18})
    )
    rhs = small_ints(
        rng, shape_in(specs[1], {"O": groups * per_group, "I": cg, "H": 3, "W": 3})
    )
    program = program_of(
        lhs, rhs, specs, feature_group_count=groups, padding=[(1, 1), (1, 1)]
    )
    assert uses_kernel(program)
    got = check(program, lhs, rhs)
    if specs[0] == "NCHW":
        expected = numpy_conv_nchw(lhs, rhs, padding=((1, 1), (1, 1)), groups=groups)
        np.testing.assert_array_equal(got, expected)


# NHWC inputs whose features come in runs of at least INDIRECT_MIN_RUN are read in place
# through row pointers (conv.WindowRows, the indirect micro-kernel): runs of 8 to 64,
# windows not a multiple of the tile's 8 rows, strides, padding on every side (negative
# too), dilation, depth slices that start inside a position's features (40 features,
# slices of 192), groups; and features in runs of 4 (packed) beside them.
INDIRECT_CASES = [
    ({"N": 2, "C": 8, "H": 9, "W": 9}, 20, (3, 3), {"padding": [(1, 1), (1, 1)]}),
    ({"N": 1, "C": 24, "H": 11, "W": 13}, 33, (3, 2), {"window_strides": [2, 1], "padding": [(1, 0), (0, 2)]}),
    ({"N": 1, "C": 48, "H": 10, "W": 7}, 17, (3, 3), {"padding": [(2, 2), (1, 1)]}),
    ({"N": 2, "C": 64, "H": 8, "W": 8}, 16, (3, 3), {"rhs_dilation": [2, 1], "padding": [(-1, 2), (1, -1)]}),
    ({"N": 1, "C": 40, "H": 9, "W": 9}, 24, (3, 3), {"padding": [(1, 1), (1, 1)]}),
    ({"N": 2, "C": 16, "H": 10, "W": 10}, 24, (3, 3), {"feature_group_count": 2, "padding": [(1, 1), (1, 1)]}),
    ({"N": 2, "C": 12, "H": 10, "W": 10}, 24, (3, 3), {"padding": [(1, 1), (1, 1)]}),
]


@pytest.mark.parametrize("sizes,o,window,props", INDIRECT_CASES, ids=lambda x: str(x).replace(" ", ""))
def test_nhwc_features_read_in_place(sizes, o, window, props):
    rng = np.random.default_rng(sizes["C"] + o)
    specs = ("NHWC", "HWIO", "NHWC")
    groups = props.get("feature_group_count", 1)
    lhs = small_ints(rng, shape_in(specs[0], sizes))
    rhs = small_ints(rng, shape_in(specs[1], {"O": o, "I": sizes["C"] // groups, "H": window[0], "W": window[1]}))
    program = program_of(lhs, rhs, specs, **props)
    assert uses_kernel(program)
    check(program, lhs, rhs)


@pytest.fixture
def kernel_threads():
    """Sets the kernels' thread count (read at each call), restoring the default after."""
    from xla_opt.runtime import threads
    from xla_opt.runtime.cpu import num_threads

    yield threads.set_num_threads
    threads.set_num_threads(num_threads())


@pytest.mark.parametrize(
    "specs,sizes,o",
    [
        (
            ("NCHW", "OIHW", "NCHW"),
            {"N": 3, "C": 16, "H": 30, "W": 30},
            20,
        ),  # columns split: windows
        (
            ("NHWC", "HWIO", "NHWC"),
            {"N": 4, "C": 16, "H": 14, "W": 14},
            40,
        ),  # columns split: features
    ],
    ids=["NCHW", "NHWC"],
)
def test_two_threads_equal_one(specs, sizes, o, kernel_threads):
    """Above PARALLEL_MIN_WORK the columns are split over the threads; each thread
    computes its columns as one thread would: equal results, and the oracle's."""
    rng = np.random.default_rng(o)
    lhs = small_ints(rng, shape_in(specs[0], sizes))
    rhs = small_ints(rng, shape_in(specs[1], {"O": o, "I": sizes["C"], "H": 3, "W": 3}))
    program = program_of(lhs, rhs, specs, padding=[(1, 1), (1, 1)])
    assert uses_kernel(program)
    results = {}
    for threads in (1, 2):
        kernel_threads(threads)
        results[threads] = xla_opt.run(program, lhs, rhs, backend="jit")[0]
    np.testing.assert_array_equal(results[2], results[1])
    np.testing.assert_array_equal(
        results[1], xla_opt.run(program, lhs, rhs, backend="interpreter")[0]
    )


def test_random_normal_within_sum_rounding():
    """The benchmark's shape (smaller batch) on normal values: within K roundings of
    the sum of the products' magnitudes."""
    rng = np.random.default_rng(8)
    x, w = (
        rng.standard_normal((2, 64, 28, 28), F32),
        rng.standard_normal((64, 64, 3, 3), F32),
    )
    program = program_of(x, w, ("NCHW", "OIHW", "NCHW"), padding=[(1, 1), (1, 1)])
    assert uses_kernel(program)
    got = xla_opt.run(program, x, w, backend="jit")[0].astype(np.float64)
    expected = numpy_conv_nchw(x, w, padding=((1, 1), (1, 1)))
    bound = (
        576
        * np.finfo(F32).eps
        * numpy_conv_nchw(np.abs(x), np.abs(w), padding=((1, 1), (1, 1)))
    )
    assert np.all(np.abs(got - expected) <= bound)


def test_conv_feeding_elementwise_and_a_second_conv():
    """A ResNet-like chain: conv, bias and relu, conv; both convolutions on the kernel."""
    rng = np.random.default_rng(9)
    x = small_ints(rng, (2, 8, 12, 12))
    w1, w2 = small_ints(rng, (8, 8, 3, 3)), small_ints(rng, (8, 8, 3, 3))
    t, kt = "tensor<2x8x12x12xf32>", "tensor<8x8x3x3xf32>"
    dn = layout_dnums("NCHW", "OIHW", "NCHW")
    c1, c2 = (
        conv_op(
            lhs,
            rhs,
            (x.shape, x.dtype),
            (k.shape, k.dtype),
            dn,
            padding=[(1, 1), (1, 1)],
        )[0]
        for lhs, rhs, k in [("%x", "%w1", w1), ("%h", "%w2", w2)]
    )
    program = f"""
func.func @main(%x: {t}, %w1: {kt}, %w2: {kt}) -> {t} {{
  %c = {c1}
  %zero = xla.constant dense<0.0> : tensor<f32>
  %h = xla.maximum %c, %zero : ({t}, tensor<f32>) -> {t}
  %r = {c2}
  func.return %r : {t}
}}"""
    llvm_ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    assert len(re.findall(rf'call .*@"?{SYMBOL}_(?:columns|rows)"?\(', llvm_ir)) == 2
    got = xla_opt.run(program, x, w1, w2, backend="jit")[0]
    np.testing.assert_array_equal(
        got, xla_opt.run(program, x, w1, w2, backend="interpreter")[0]
    )
    h = np.maximum(numpy_conv_nchw(x, w1, padding=((1, 1), (1, 1))), 0)
    np.testing.assert_array_equal(got, numpy_conv_nchw(h, w2, padding=((1, 1), (1, 1))))


@pytest.mark.parametrize(
    "case",
    [
        "f64",
        "i32",
        "tiny",
        "depthwise",
        "batch-groups",
        "3-d",
    ],
)
def test_not_taken(case):
    """Not a 2-D f32 convolution the kernel takes: today's loops, the same results. (An lhs
    dilation and a kernel whose output features sit between its other dimensions are
    taken since issue 32: tests/test_jit_conv_gradients.py.)"""
    rng = np.random.default_rng(3)
    specs, props = ("NCHW", "OIHW", "NCHW"), {"padding": [(1, 1), (1, 1)]}
    sizes, dtype = {"N": 2, "C": 8, "H": 12, "W": 12}, F32
    kernel_sizes = {"O": 8, "I": 8, "H": 3, "W": 3}
    if case == "f64":
        dtype = np.float64
    elif case == "i32":
        dtype = np.int32
    elif case == "tiny":
        sizes, kernel_sizes = (
            {"N": 1, "C": 2, "H": 5, "W": 5},
            {"O": 2, "I": 2, "H": 3, "W": 3},
        )
    elif case == "depthwise":  # one output feature per group: below MIN_GROUP_FEATURES
        sizes["H"] = sizes["W"] = 40
        props["feature_group_count"] = 8
        kernel_sizes["I"] = 1
    elif case == "batch-groups":
        props["batch_group_count"] = 2
        kernel_sizes["O"] = 8
    if case == "3-d":
        specs = ("NCDHW", "OIDHW", "NCDHW")
        sizes |= {"D": 4}
        kernel_sizes |= {"D": 2}
        props = {}
    lhs = small_ints(rng, shape_in(specs[0], sizes), dtype)
    rhs = small_ints(rng, shape_in(specs[1], kernel_sizes), dtype)
    if case == "tiny":
        assert 2 * 2 * 25 * 18 < MIN_MACS[0]
    program = program_of(lhs, rhs, specs, **props)
    assert not uses_kernel(program)
    check(program, lhs, rhs)


def sconv_kernels(shape):
    """The kernel of each side on `shape` compiled alone (its own names), and a call of
    the one `values["side"]` names with `values` (PARAMS' names without the %); the
    compiled module, to keep alive while it is called."""
    from xla_opt.runtime.llvm import compile_llvm_ir

    ir = library_ir([shape], list(SCONV_BY_SIDE.values()))
    for side, entry in SCONV_BY_SIDE.items():
        ir = ir.replace(f"@{entry.symbol}(", f"@xla_opt_sconv_test{side}(")
    native = compile_llvm_ir(ir)
    types = [ctypes.c_void_p if ty == "ptr" else ctypes.c_int64 for ty, _ in PARAMS]
    by_side = {side: ctypes.CFUNCTYPE(None, *types)(native.address(f"xla_opt_sconv_test{side}")) for side in SCONV_BY_SIDE}
    return lambda values: by_side[values["side"]](*(values[name[1:]] for _, name in PARAMS)), native


@pytest.mark.parametrize("shape", [SSE, AVX2_FMA], ids=["sse", "avx2"])
def test_kernel_called_directly(shape):
    """Each kernel shape's variant compiled alone and called through ctypes: C +=
    (an NCHW convolution with padding, stride and dilation; `side` 0, the lane-by-lane
    packing for strided windows and the vector loads for unit-stride rows at least a
    vector chunk wide, a panel spanning up to three of them),
    and C = under OVERWRITE (C's NaNs never read)."""
    if shape is AVX2_FMA:
        from xla_opt.runtime.binding import kernel_shape

        if kernel_shape(wide=False) is not AVX2_FMA:
            pytest.skip("the host has no AVX2 + FMA")
    sconv, _native = sconv_kernels(shape)
    rng = np.random.default_rng(12)
    for n, c, h, wd, o, (kh, kw), stride, pad, dil in [
        (2, 3, 9, 11, 5, (3, 3), (1, 2), ((1, 2), (2, 0)), (1, 1)),
        (2, 5, 12, 30, 9, (2, 3), (1, 1), ((0, 1), (1, 1)), (2, 1)),
        # output rows of 11: narrower than an AVX2 panel (16 windows, up to three rows),
        # wider than its chunks of 8, each packed from at most two rows' runs
        (2, 4, 7, 11, 6, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
    ]:
        x, w = small_ints(rng, (n, c, h, wd)), small_ints(rng, (o, c, kh, kw))
        expected = numpy_conv_nchw(x, w, stride, pad, dil)
        oh, ow = expected.shape[2:]
        out = np.ones(expected.shape, F32)
        values = {
            "images": n, "groups": 1, "side": 0, "M": o, "N": oh * ow, "K": c * kh * kw,
            "W": w.ctypes.data, "w_o": c * kh * kw, "w_k": 1, "w_group": 0,
            "X": x.ctypes.data, "x_image": c * h * wd, "x_group": 0,
            "H": h, "Wd": wd, "sH": wd, "sW": 1, "padH": pad[0][0], "padW": pad[1][0],
            "x_e1": oh, "x_e2": ow, "x_s0": 0, "x_s1": stride[0] * wd, "x_s2": stride[1],
            "x_h0": 0, "x_h1": stride[0], "x_h2": 0, "x_w0": 0, "x_w1": 0, "x_w2": stride[1],
            "e1": kh, "e2": kw, "s0": h * wd, "s1": dil[0] * wd, "s2": dil[1],
            "h0": 0, "h1": dil[0], "h2": 0, "w0": 0, "w1": 0, "w2": dil[1],
            "C": out.ctypes.data, "ldc": oh * ow, "c_image": o * oh * ow, "c_group": 0, "flags": 0,
        }  # fmt: skip
        sconv(values)
        np.testing.assert_array_equal(out, 1 + expected)
        out[...] = np.nan
        sconv(values | {"flags": OVERWRITE})
        np.testing.assert_array_equal(out, expected)
    # NHWC x HWIO (`side` 1, batch folded into the windows): 16 features, read in place
    # through the indirect micro-kernel's row pointers on this shape's tile
    n, c, h, wd, o, (kh, kw), stride, pad, dil = 2, 16, 9, 7, 9, (3, 3), (2, 1), ((1, 1), (0, 2)), (1, 2)
    x, w = small_ints(rng, (n, h, wd, c)), small_ints(rng, (kh, kw, c, o))
    expected = numpy_conv_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), stride, pad, dil)
    expected = expected.transpose(0, 2, 3, 1)
    oh, ow = expected.shape[1:3]
    out = np.ones(expected.shape, F32)
    values = {
        "images": 1, "groups": 1, "side": 1, "M": n * oh * ow, "N": o, "K": kh * kw * c,
        "W": w.ctypes.data, "w_o": 1, "w_k": o, "w_group": 0,
        "X": x.ctypes.data, "x_image": 0, "x_group": 0,
        "H": h, "Wd": wd, "sH": wd * c, "sW": c, "padH": pad[0][0], "padW": pad[1][0],
        "x_e1": oh, "x_e2": ow, "x_s0": h * wd * c, "x_s1": stride[0] * wd * c, "x_s2": stride[1] * c,
        "x_h0": 0, "x_h1": stride[0], "x_h2": 0, "x_w0": 0, "x_w1": 0, "x_w2": stride[1],
        "e1": kw, "e2": c, "s0": dil[0] * wd * c, "s1": dil[1] * c, "s2": 1,
        "h0": dil[0], "h1": 0, "h2": 0, "w0": 0, "w1": dil[1], "w2": 0,
        "C": out.ctypes.data, "ldc": o, "c_image": 0, "c_group": 0, "flags": 0,
    }  # fmt: skip
    sconv(values)
    np.testing.assert_array_equal(out, 1 + expected)


@pytest.mark.parametrize("specs, side", [(("NCHW", "OIHW", "NCHW"), 0), (("NHWC", "HWIO", "NHWC"), 1)])
def test_a_program_whose_convolutions_take_one_side_calls_that_sides_kernel(specs, side):
    """Windows as columns (NCHW: side 0) or as rows (NHWC: side 1): a convolution calls
    its side's kernel, and a program whose convolutions all take one side compiles that
    kernel alone (0.44 s of LLVM with an empty disk cache; both sides in one kernel took
    0.81); the interpreter's results. (A module with both: lit_tests'
    linalg-conv-to-kernel.)"""
    rng = np.random.default_rng(side)
    lhs = small_ints(rng, shape_in(specs[0], {"N": 2, "C": 8, "H": 10, "W": 12}))
    rhs = small_ints(rng, shape_in(specs[1], {"O": 16, "I": 8, "H": 3, "W": 3}))
    program = program_of(lhs, rhs, specs, padding=[(1, 1), (1, 1)])
    ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    assert len(re.findall(rf'call [^\n]*@"?{SYMBOL_BY_SIDE[side]}"?\(', ir)) == 1
    assert not re.search(rf'@"?{SYMBOL_BY_SIDE[1 - side]}"?\(', ir)
    check(program, lhs, rhs)
