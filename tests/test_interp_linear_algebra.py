"""Reference semantics of the linear-algebra family: the spec's worked examples
(operation_semantics.es.txt: Punto, DotGeneral, ConvConGeneralPadding, Fft, Colesky,
TriangularSolve, BatchNorm*), properties against numpy (expected values computed
independently here) and, where JAX is installed, against jax.lax as the oracle."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from xla_opt.dialects.shapes.linear_algebra import (
    ConvDimensionNumbers,
    convolution_shape,
)

from tests.util import run_one, tensor_type, ttype

f32, f64, i32 = np.float32, np.float64, np.int32
BF16 = ml_dtypes.bfloat16
c64, c128 = np.complex64, np.complex128


def _jax():
    jax = pytest.importorskip("jax", reason="JAX is the oracle of this test")
    jax.config.update("jax_enable_x64", True)
    return jax


# --------------------------------------------------------------------------------------
# Program builders
# --------------------------------------------------------------------------------------


def _arr(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def dot(a, b):
    shape = (*a.shape[:-1], *b.shape[1:])
    rt = tensor_type(shape, a.dtype)
    return run_one(f"xla.dot %a0, %a1 : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt])


def dot_general(a, b, lb=(), rb=(), lc=(), rc=()):
    lf = [d for d in range(a.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(b.ndim) if d not in rb and d not in rc]
    shape = [a.shape[d] for d in lb] + [a.shape[d] for d in lf] + [b.shape[d] for d in rf]
    rt = tensor_type(shape, a.dtype)
    props = []
    for name, dims in (
        ("lhs_batching_dimensions", lb),
        ("rhs_batching_dimensions", rb),
        ("lhs_contracting_dimensions", lc),
        ("rhs_contracting_dimensions", rc),
    ):
        if dims:
            props.append(f"{name} = {_arr(dims)}")
    extra = (", " + ", ".join(props)) if props else ""
    return run_one(f"xla.dot_general %a0, %a1{extra} : ({ttype(a)}, {ttype(b)}) -> {rt}", [a, b], [rt])


def layout_dnums(lhs_spec: str, rhs_spec: str, out_spec: str) -> ConvDimensionNumbers:
    """Dimension numbers from layout strings (N/C, O/I, spatial letters), the spatial
    dimensions ordered as in the kernel's spec (JAX's convention)."""
    spatial = [c for c in rhs_spec if c not in "OI"]
    return ConvDimensionNumbers(
        input_batch=lhs_spec.index("N"),
        input_feature=lhs_spec.index("C"),
        input_spatial=tuple(lhs_spec.index(c) for c in spatial),
        kernel_input_feature=rhs_spec.index("I"),
        kernel_output_feature=rhs_spec.index("O"),
        kernel_spatial=tuple(rhs_spec.index(c) for c in spatial),
        output_batch=out_spec.index("N"),
        output_feature=out_spec.index("C"),
        output_spatial=tuple(out_spec.index(c) for c in spatial),
    )


def convolution(lhs, rhs, dn: ConvDimensionNumbers, strides=None, padding=None, lhs_dil=None,
                rhs_dil=None, fgc=1, bgc=1):  # fmt: skip
    shape = convolution_shape(
        lhs.shape, rhs.shape, dn, strides, padding, lhs_dil, rhs_dil, fgc, bgc
    )
    rt = tensor_type(shape, lhs.dtype)
    props = []
    if strides is not None:
        props.append(f"window_strides = {_arr(strides)}")
    if padding is not None:
        props.append("padding = [" + ", ".join(_arr(p) for p in padding) + "]")
    if lhs_dil is not None:
        props.append(f"lhs_dilation = {_arr(lhs_dil)}")
    if rhs_dil is not None:
        props.append(f"rhs_dilation = {_arr(rhs_dil)}")
    props += [
        f"input_batch_dimension = {dn.input_batch}",
        f"input_feature_dimension = {dn.input_feature}",
        f"input_spatial_dimensions = {_arr(dn.input_spatial)}",
        f"kernel_input_feature_dimension = {dn.kernel_input_feature}",
        f"kernel_output_feature_dimension = {dn.kernel_output_feature}",
        f"kernel_spatial_dimensions = {_arr(dn.kernel_spatial)}",
        f"output_batch_dimension = {dn.output_batch}",
        f"output_feature_dimension = {dn.output_feature}",
        f"output_spatial_dimensions = {_arr(dn.output_spatial)}",
    ]
    if fgc != 1:
        props.append(f"feature_group_count = {fgc}")
    if bgc != 1:
        props.append(f"batch_group_count = {bgc}")
    text = f"xla.convolution %a0, %a1, {', '.join(props)} : ({ttype(lhs)}, {ttype(rhs)}) -> {rt}"
    return run_one(text, [lhs, rhs], [rt])


def fft(x, kind, lengths, result_shape, result_dtype):
    rt = tensor_type(result_shape, result_dtype)
    text = f"xla.fft %a0, fft_type = {kind}, fft_length = {_arr(lengths)} : ({ttype(x)}) -> {rt}"
    return run_one(text, [x], [rt])


def cholesky(a, lower):
    return run_one(f"xla.cholesky %a0, lower = {str(lower).lower()} : {ttype(a)}", [a], [ttype(a)])


def triangular_solve(a, b, left_side, lower, unit_diagonal, transpose_a):
    flags = ", ".join(
        f"{n} = {str(v).lower()}"
        for n, v in (("left_side", left_side), ("lower", lower), ("unit_diagonal", unit_diagonal))
    )
    text = (
        f"xla.triangular_solve %a0, %a1, {flags}, transpose_a = {transpose_a} : "
        f"({ttype(a)}, {ttype(b)}) -> {ttype(b)}"
    )
    return run_one(text, [a, b], [ttype(b)])


def batch_norm(kind, operands, epsilon, feature_index, n_results):
    x = operands[0]
    vec = tensor_type((x.shape[feature_index],), x.dtype)
    rts = [ttype(x)] + [vec] * (n_results - 1)
    names = ", ".join(f"%a{i}" for i in range(len(operands)))
    types = ", ".join(ttype(o) for o in operands)
    results = rts[0] if n_results == 1 else "(" + ", ".join(rts) + ")"
    text = (
        f"xla.{kind} {names}, epsilon = {epsilon!r}, feature_index = {feature_index} : "
        f"({types}) -> {results}"
    )
    return run_one(text, list(operands), rts)


def _random(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# --------------------------------------------------------------------------------------
# Dot (spec: Punto) — the table of rank combinations, with values
# --------------------------------------------------------------------------------------


def test_dot_vector_vector_is_a_scalar():
    out = dot(np.array([1, 2, 3], f32), np.array([4, 5, 6], f32))
    assert out.shape == () and out.dtype == f32
    assert out == 32


def test_dot_matrix_vector():
    m = np.array([[1, 2, 3], [4, 5, 6]], f32)
    np.testing.assert_array_equal(dot(m, np.array([1, 0, -1], f32)), [-2, -2])


def test_dot_vector_matrix_contracts_the_vector():
    m = np.array([[1, 2], [3, 4], [5, 6]], i32)
    np.testing.assert_array_equal(dot(np.array([1, 1, 1], i32), m), [9, 12])


def test_dot_matrix_matrix():
    a = np.array([[1, 2], [3, 4]], f32)
    b = np.array([[5, 6], [7, 8]], f32)
    np.testing.assert_array_equal(dot(a, b), [[19, 22], [43, 50]])


def test_dot_integers_wrap_around():
    # 100 + 100 overflows i8: 200 - 256 = -56; u8 255 * 2 + 1 = 511 mod 256 = 255
    np.testing.assert_array_equal(dot(np.array([100, 100], np.int8), np.array([1, 1], np.int8)), -56)
    out = dot(np.array([255, 1], np.uint8), np.array([2, 1], np.uint8))
    assert out.dtype == np.uint8 and out == 255
    big = np.iinfo(np.int64).max
    assert dot(np.array([big, 1], np.int64), np.array([1, 1], np.int64)) == np.iinfo(np.int64).min


def test_dot_f16_accumulates_in_f32():
    # in f16, 2048 + 1 rounds back to 2048 (twice); accumulated in f32 the sum is 2050,
    # which f16 represents exactly
    a = np.array([2048, 1, 1], np.float16)
    out = dot(a, np.ones(3, np.float16))
    assert out.dtype == np.float16 and out == 2050
    out = dot(a.astype(BF16), np.ones(3, BF16))
    assert out.dtype == BF16 and float(out) == 2048  # bf16 spacing at 2048 is 16


def test_dot_pred_is_or_of_ands():
    a = np.array([[True, False], [False, False]])
    b = np.array([[True, True], [True, False]])
    np.testing.assert_array_equal(dot(a, b), [[True, True], [False, False]])


# --------------------------------------------------------------------------------------
# DotGeneral: the spec's two examples
# --------------------------------------------------------------------------------------


def test_dot_general_spec_contracting_example():
    # DotGeneral: "Ejemplo con números de dimensión de contratación"
    lhs = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], f32)
    rhs = np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], f32)
    out = dot_general(lhs, rhs, lc=(1,), rc=(1,))
    np.testing.assert_array_equal(out, [[6.0, 12.0], [15.0, 30.0]])


def test_dot_general_spec_batch_example():
    # DotGeneral: "Ejemplo con números de dimensión del lote (tamaño del lote 2, matrices 2x2)"
    lhs = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], f32)
    rhs = np.array([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]], f32)
    out = dot_general(lhs, rhs, lb=(0,), rb=(0,), lc=(2,), rc=(1,))
    np.testing.assert_array_equal(out, [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])


def test_dot_general_result_order_is_batch_lhs_free_rhs_free():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4, 2)).astype(f64)  # [k, b, m]
    b = rng.standard_normal((5, 4, 3)).astype(f64)  # [n, b, k]
    out = dot_general(a, b, lb=(1,), rb=(1,), lc=(0,), rc=(2,))
    np.testing.assert_allclose(out, np.einsum("kbm,nbk->bmn", a, b), rtol=1e-12)


def test_dot_general_outer_product_without_contraction():
    a, b = np.array([1, 2], i32), np.array([3, 4, 5], i32)
    np.testing.assert_array_equal(dot_general(a, b), np.outer(a, b))


def _exact_reference(a, b, lb, rb, lc, rc):
    """Exact integer/float sums with Python objects (int) or f64 (floats), via einsum."""
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [None] * a.ndim
    lbl = [None] * b.ndim
    for x, y in zip(lb, rb):
        la[x] = lbl[y] = next(letters)
    for x, y in zip(lc, rc):
        la[x] = lbl[y] = next(letters)
    for i in range(a.ndim):
        la[i] = la[i] or next(letters)
    for i in range(b.ndim):
        lbl[i] = lbl[i] or next(letters)
    out = [la[d] for d in lb]
    out += [la[d] for d in range(a.ndim) if d not in lb and d not in lc]
    out += [lbl[d] for d in range(b.ndim) if d not in rb and d not in rc]
    spec = f"{''.join(la)},{''.join(lbl)}->{''.join(out)}"
    if a.dtype.kind in "iub":
        exact = np.einsum(spec, a.astype(object), b.astype(object))
        if a.dtype == np.bool_:
            return np.asarray(exact != 0)
        bits = a.dtype.itemsize * 8
        wrapped = np.vectorize(lambda v: int(v) % (1 << bits), otypes=[object])(exact)
        return np.asarray(wrapped.astype(np.uint64)).astype(a.dtype)
    if a.dtype.kind == "c":
        return np.einsum(spec, a.astype(c128), b.astype(c128))
    return np.einsum(spec, a.astype(f64), b.astype(f64))


DOT_DTYPES = [f32, f64, np.float16, BF16, i32, np.int8, np.uint8, np.int64, c64, np.bool_]


@pytest.mark.parametrize("dtype", DOT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_dot_general_random_against_numpy(dtype):
    rng = np.random.default_rng(abs(hash(np.dtype(dtype).name)) % 2**32)
    for _ in range(4):
        nb, nc, nfl, nfr = (int(v) for v in rng.integers(0, 3, 4))
        sizes = rng.integers(1, 4, nb + nc + nfl + nfr)
        bs, cs = sizes[:nb], sizes[nb : nb + nc]
        fl, fr = sizes[nb + nc : nb + nc + nfl], sizes[nb + nc + nfl :]
        # place batch / contracting / free dimensions at random positions on each side
        lperm = rng.permutation(nb + nc + nfl)
        rperm = rng.permutation(nb + nc + nfr)
        lshape = np.empty(nb + nc + nfl, int)
        rshape = np.empty(nb + nc + nfr, int)
        lshape[lperm] = [*bs, *cs, *fl]
        rshape[rperm] = [*bs, *cs, *fr]
        lb, lc = tuple(lperm[:nb]), tuple(lperm[nb : nb + nc])
        rb, rc = tuple(rperm[:nb]), tuple(rperm[nb : nb + nc])
        a = _random(rng, tuple(lshape), dtype)
        b = _random(rng, tuple(rshape), dtype)
        out = dot_general(a, b, lb, rb, lc, rc)
        expected = _exact_reference(a, b, lb, rb, lc, rc)
        assert out.dtype == np.dtype(dtype)
        if np.dtype(dtype).kind in "iub":
            np.testing.assert_array_equal(out, expected)
        else:
            tol = {np.dtype(np.float16): 2e-3, np.dtype(BF16): 1e-2}.get(np.dtype(dtype), 1e-5)
            np.testing.assert_allclose(
                out.astype(expected.dtype), expected, rtol=tol, atol=tol * max(1.0, np.abs(expected).max(initial=0))
            )


@pytest.mark.parametrize("dtype", [f32, f64, c64, i32], ids=lambda d: np.dtype(d).name)
def test_dot_general_against_jax(dtype):
    jax = _jax()
    rng = np.random.default_rng(11)
    a = _random(rng, (2, 3, 4, 5), dtype)
    b = _random(rng, (5, 2, 6, 4), dtype)
    dims = (((2, 3), (3, 0)), ((0,), (1,)))
    out = dot_general(a, b, lb=(0,), rb=(1,), lc=(2, 3), rc=(3, 0))
    expected = np.asarray(jax.lax.dot_general(a, b, dims, precision=jax.lax.Precision.HIGHEST))
    assert out.shape == expected.shape == (2, 3, 6)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------

NCHW = layout_dnums("NCHW", "OIHW", "NCHW")
NHWC = layout_dnums("NHWC", "HWIO", "NHWC")


def naive_conv(lhs, rhs, dn, strides=None, padding=None, lhs_dil=None, rhs_dil=None, fgc=1, bgc=1):
    """The spec's pseudocode, one output element at a time, with holes for the
    dilations and groups as the spec describes them; exact (object) arithmetic."""
    n = len(dn.input_spatial)
    strides = strides or (1,) * n
    padding = padding or [(0, 0)] * n
    lhs_dil = lhs_dil or (1,) * n
    rhs_dil = rhs_dil or (1,) * n
    x = np.transpose(lhs, [dn.input_batch, dn.input_feature, *dn.input_spatial]).astype(object)
    w = np.transpose(rhs, [dn.kernel_output_feature, dn.kernel_input_feature, *dn.kernel_spatial]).astype(object)
    shape = convolution_shape(lhs.shape, rhs.shape, dn, strides, padding, lhs_dil, rhs_dil, fgc, bgc)
    out_spatial = [shape[d] for d in dn.output_spatial]
    out_batch, out_feat = shape[dn.output_batch], shape[dn.output_feature]
    in_feat_per_group = w.shape[1]
    out = np.zeros((out_batch, out_feat, *out_spatial), object)
    for b, oz, *opos in itertools.product(range(out_batch), range(out_feat), *map(range, out_spatial)):
        value = 0
        fgroup = oz // (out_feat // fgc)
        bgroup = oz // (out_feat // bgc)
        ib = bgroup * out_batch + b
        for iz, *kpos in itertools.product(range(in_feat_per_group), *map(range, w.shape[2:])):
            base = []
            for d in range(n):
                q = opos[d] * strides[d] + kpos[d] * rhs_dil[d] - padding[d][0]
                if q % lhs_dil[d] or not 0 <= q // lhs_dil[d] < x.shape[2 + d]:
                    break
                base.append(q // lhs_dil[d])
            else:
                value += x[(ib, fgroup * in_feat_per_group + iz, *base)] * w[(oz, iz, *kpos)]
        out[(b, oz, *opos)] = value
    perm = [dn.output_batch, dn.output_feature, *dn.output_spatial]
    return np.transpose(out, np.argsort(perm))


def test_conv_spec_pseudocode_small_example():
    # ConvConGeneralPadding: 1 batch, 1 feature, 3x3 base of 1..9, 2x2 kernel of ones,
    # padding (0, 1) on x: each output sums a 2x2 window; the last column sees one zero
    # column of padding.
    lhs = np.arange(1, 10, dtype=f32).reshape(1, 1, 3, 3)
    rhs = np.ones((1, 1, 2, 2), f32)
    out = convolution(lhs, rhs, NCHW, padding=[(0, 0), (0, 1)])
    np.testing.assert_array_equal(out[0, 0], [[12, 16, 9], [24, 28, 15]])


def test_conv_lhs_dilation_inserts_holes():
    # 1, 2, 3 dilated by 2 is 1, 0, 2, 0, 3; a [1, 1] window sums neighbours
    lhs = np.array([1, 2, 3], f32).reshape(1, 1, 3)
    rhs = np.ones((1, 1, 2), f32)
    dn = layout_dnums("NCW", "OIW", "NCW")
    np.testing.assert_array_equal(convolution(lhs, rhs, dn, lhs_dil=(2,))[0, 0], [1, 2, 2, 3])


def test_conv_negative_padding_removes_elements():
    lhs = np.array([1, 2, 3, 4, 5], f32).reshape(1, 1, 5)
    rhs = np.array([1, 10], f32).reshape(1, 1, 2)
    dn = layout_dnums("NCW", "OIW", "NCW")
    # padding (-1, -2) leaves 2, 3 -> one window 2 + 30
    np.testing.assert_array_equal(convolution(lhs, rhs, dn, padding=[(-1, -2)])[0, 0], [32])
    # negative low padding larger than the dilation gap: 1 0 2 0 3 0 4 0 5 minus 3 low
    out = convolution(lhs, rhs, dn, padding=[(-3, 1)], lhs_dil=(2,))
    np.testing.assert_array_equal(out[0, 0], naive_conv(lhs, rhs, dn, padding=[(-3, 1)], lhs_dil=(2,))[0, 0])


CONV_CASES = [
    # (name, dnums, lhs shape, rhs shape, kwargs)
    ("nchw_valid", NCHW, (2, 3, 6, 5), (4, 3, 3, 2), {}),
    ("nhwc_same", NHWC, (2, 6, 5, 3), (3, 3, 3, 4), {"padding": [(1, 1), (1, 1)]}),
    ("strides", NCHW, (1, 2, 7, 8), (3, 2, 3, 3), {"strides": (2, 3), "padding": [(1, 2), (0, 1)]}),
    ("negative_padding", NHWC, (1, 7, 6, 2), (2, 2, 2, 3), {"padding": [(-1, 2), (2, -2)]}),
    ("lhs_dilation", NCHW, (2, 2, 4, 3), (2, 2, 3, 3), {"lhs_dil": (2, 3), "padding": [(2, 2), (1, 1)]}),
    ("rhs_dilation", NHWC, (1, 8, 9, 2), (3, 2, 2, 2), {"rhs_dil": (2, 3), "strides": (1, 2)}),
    ("all_dilations", NCHW, (1, 2, 5, 5), (2, 2, 2, 3), {"lhs_dil": (2, 1), "rhs_dil": (1, 2), "strides": (2, 1), "padding": [(1, -1), (0, 2)]}),
    ("feature_groups", NCHW, (2, 6, 5, 5), (4, 3, 3, 3), {"fgc": 2}),
    ("depthwise", NHWC, (1, 5, 5, 3), (3, 3, 1, 6), {"fgc": 3, "padding": [(1, 1), (1, 1)]}),
    ("batch_groups", NCHW, (4, 2, 5, 4), (6, 2, 2, 2), {"bgc": 2}),
    ("batch_groups_nhwc", NHWC, (6, 4, 5, 2), (2, 2, 2, 3), {"bgc": 3, "strides": (2, 1)}),
    ("conv1d", layout_dnums("NWC", "WIO", "NWC"), (2, 9, 3), (4, 3, 2), {"strides": (2,), "padding": [(3, 0)]}),
    ("conv3d", layout_dnums("NCDHW", "OIDHW", "NCDHW"), (1, 2, 4, 3, 5), (2, 2, 2, 2, 3), {"padding": [(0, 1), (1, 0), (1, 1)]}),
    ("mixed_layouts", layout_dnums("CHNW", "IHWO", "WNCH"), (3, 5, 2, 4), (3, 2, 2, 4), {"padding": [(1, 0), (0, 1)]}),
    ("empty_output", NCHW, (1, 1, 2, 2), (1, 1, 3, 3), {}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "dn", "ls", "rs", "kw"), CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_against_spec_pseudocode(name, dn, ls, rs, kw):
    rng = np.random.default_rng(len(name))
    lhs = rng.integers(-5, 6, ls).astype(i32)
    rhs = rng.integers(-5, 6, rs).astype(i32)
    out = convolution(lhs, rhs, dn, **kw)
    expected = naive_conv(lhs, rhs, dn, **kw)
    assert out.dtype == i32
    np.testing.assert_array_equal(out, expected.astype(np.int64))


def test_conv_integers_wrap_and_halves_round_once():
    dn = layout_dnums("NCW", "OIW", "NCW")
    lhs = np.array([100, 100, 100], np.int8).reshape(1, 1, 3)
    rhs = np.ones((1, 1, 3), np.int8)
    assert convolution(lhs, rhs, dn)[0, 0, 0] == 300 - 256
    lhs = np.array([2048, 1, 1], np.float16).reshape(1, 1, 3)
    out = convolution(lhs, np.ones((1, 1, 3), np.float16), dn)
    assert out.dtype == np.float16 and out[0, 0, 0] == 2050


@pytest.mark.parametrize(("name", "dn", "ls", "rs", "kw"), CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_against_jax(name, dn, ls, rs, kw):
    jax = _jax()
    rng = np.random.default_rng(100 + len(name))
    lhs = rng.standard_normal(ls).astype(f32)
    rhs = rng.standard_normal(rs).astype(f32)
    out = convolution(lhs, rhs, dn, **kw)
    n = len(dn.input_spatial)
    jdn = jax.lax.ConvDimensionNumbers(
        lhs_spec=(dn.input_batch, dn.input_feature, *dn.input_spatial),
        rhs_spec=(dn.kernel_output_feature, dn.kernel_input_feature, *dn.kernel_spatial),
        out_spec=(dn.output_batch, dn.output_feature, *dn.output_spatial),
    )
    expected = jax.lax.conv_general_dilated(
        lhs, rhs,
        window_strides=kw.get("strides", (1,) * n),
        padding=kw.get("padding", [(0, 0)] * n),
        lhs_dilation=kw.get("lhs_dil"),
        rhs_dilation=kw.get("rhs_dil"),
        dimension_numbers=jdn,
        feature_group_count=kw.get("fgc", 1),
        batch_group_count=kw.get("bgc", 1),
        precision=jax.lax.Precision.HIGHEST,
    )  # fmt: skip
    expected = np.asarray(expected)
    assert out.shape == expected.shape and out.dtype == f32
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_conv_window_reversal_helper():
    # window_reversal is not a property of xla.convolution (the XLA spec has none); the
    # helper honours it as StableHLO does: the window is flipped (a true convolution)
    from xla_opt.interpreter.linear_algebra import convolution as conv_helper

    dn = layout_dnums("NCW", "OIW", "NCW")
    lhs = np.array([1, 2, 3, 4], f32).reshape(1, 1, 4)
    rhs = np.array([1, 10], f32).reshape(1, 1, 2)
    np.testing.assert_array_equal(conv_helper(lhs, rhs, dn)[0, 0], [21, 32, 43])
    np.testing.assert_array_equal(conv_helper(lhs, rhs, dn, window_reversal=[True])[0, 0], [12, 23, 34])
    np.testing.assert_array_equal(conv_helper(lhs, rhs, dn)[0, 0], np.correlate([1, 2, 3, 4], [1, 10]))
    np.testing.assert_array_equal(
        conv_helper(lhs, rhs, dn, window_reversal=[True])[0, 0], np.convolve([1, 2, 3, 4], [1, 10], "valid")
    )


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------


def _fft_result(x, kind, lengths):
    if kind == "RFFT":
        return (*x.shape[:-1], lengths[-1] // 2 + 1), (c64 if x.dtype == f32 else c128)
    if kind == "IRFFT":
        return (*x.shape[:-1], lengths[-1]), (f32 if x.dtype == c64 else f64)
    return x.shape, x.dtype


FFT_CASES = [
    ("FFT", (3, 8), [8], c64),
    ("FFT", (2, 4, 6), [4, 6], c128),
    ("FFT", (2, 3, 4, 5), [3, 4, 5], c64),
    ("IFFT", (5, 7), [7], c64),
    ("IFFT", (2, 4, 3), [2, 4, 3], c128),
    ("RFFT", (3, 8), [8], f32),
    ("RFFT", (2, 5, 7), [5, 7], f64),
    ("RFFT", (2, 3, 4, 6), [3, 4, 6], f32),
    ("IRFFT", (3, 5), [8], c64),
    ("IRFFT", (2, 5, 4), [5, 7], c128),
    ("IRFFT", (4, 3, 4), [4, 3, 6], c64),
]


def _fft_numpy(x, kind, lengths):
    axes = tuple(range(-len(lengths), 0))
    x = x.astype(c128 if x.dtype.kind == "c" else f64)
    return {
        "FFT": lambda: np.fft.fftn(x, axes=axes),
        "IFFT": lambda: np.fft.ifftn(x, axes=axes),
        "RFFT": lambda: np.fft.rfftn(x, s=lengths, axes=axes),
        "IRFFT": lambda: np.fft.irfftn(x, s=lengths, axes=axes),
    }[kind]()


@pytest.mark.parametrize(("kind", "shape", "lengths", "dtype"), FFT_CASES)
def test_fft_against_numpy(kind, shape, lengths, dtype):
    rng = np.random.default_rng(len(shape) * 10 + len(lengths))
    x = _random(rng, shape, dtype)
    rshape, rdtype = _fft_result(x, kind, lengths)
    out = fft(x, kind, lengths, rshape, rdtype)
    assert out.dtype == np.dtype(rdtype) and out.shape == rshape
    tol = 1e-4 if np.dtype(rdtype) in (np.dtype(c64), np.dtype(f32)) else 1e-12
    np.testing.assert_allclose(out, _fft_numpy(x, kind, lengths), rtol=tol, atol=tol)


@pytest.mark.parametrize(("kind", "shape", "lengths", "dtype"), FFT_CASES)
def test_fft_against_jax(kind, shape, lengths, dtype):
    jax = _jax()
    rng = np.random.default_rng(len(shape) * 10 + len(lengths))
    x = _random(rng, shape, dtype)
    rshape, rdtype = _fft_result(x, kind, lengths)
    out = fft(x, kind, lengths, rshape, rdtype)
    expected = np.asarray(jax.lax.fft(x, kind, tuple(lengths)))
    assert expected.dtype == out.dtype
    tol = 1e-4 if np.dtype(rdtype) in (np.dtype(c64), np.dtype(f32)) else 1e-10
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol)


def test_fft_of_an_impulse_and_ifft_roundtrip():
    x = np.zeros(4, c64)
    x[0] = 1
    np.testing.assert_array_equal(fft(x, "FFT", [4], (4,), c64), np.ones(4))
    y = np.array([1 + 2j, 3, -1j, 4], c64)
    back = fft(fft(y, "FFT", [4], (4,), c64), "IFFT", [4], (4,), c64)
    np.testing.assert_allclose(back, y, atol=1e-6)


def test_rfft_keeps_the_non_negative_frequencies_and_irfft_inverts():
    # Fft: RFFT(fft_length=[16]) and RFFT(fft_length=[17]) share the output shape; IRFFT
    # needs fft_length to know which one it inverts
    for n in (16, 17):
        x = np.cos(np.arange(n) * 2 * np.pi / n).astype(f32)
        spec = fft(x, "RFFT", [n], (9,), c64)
        expected = np.zeros(9)
        expected[1] = n / 2
        np.testing.assert_allclose(spec, expected, atol=1e-4)
        np.testing.assert_allclose(fft(spec, "IRFFT", [n], (n,), f32), x, atol=1e-5)


# --------------------------------------------------------------------------------------
# Cholesky
# --------------------------------------------------------------------------------------


def _spd(rng, batch, m, dtype):
    g = _random(rng, (*batch, m, m), dtype).astype(c128 if np.dtype(dtype).kind == "c" else f64)
    a = g @ np.conj(np.swapaxes(g, -1, -2)) + m * np.eye(m)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [f32, f64, c64, c128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("lower", [True, False])
def test_cholesky_reconstructs(dtype, lower):
    rng = np.random.default_rng(5)
    a = _spd(rng, (2, 3), 4, dtype)
    # garbage in the triangle that is not read
    garbage = np.triu(np.full((4, 4), 1e3), 1) if lower else np.tril(np.full((4, 4), 1e3), -1)
    out = cholesky((a + garbage).astype(dtype), lower)
    assert out.dtype == np.dtype(dtype)
    tol = 1e-4 if np.dtype(dtype) in (np.dtype(f32), np.dtype(c64)) else 1e-10
    adj = np.conj(np.swapaxes(out, -1, -2))
    if lower:
        np.testing.assert_array_equal(np.triu(out, 1), 0)
        np.testing.assert_allclose(out @ adj, a, rtol=tol, atol=tol * 10)
    else:
        np.testing.assert_array_equal(np.tril(out, -1), 0)
        np.testing.assert_allclose(adj @ out, a, rtol=tol, atol=tol * 10)
    assert np.all(np.real(np.diagonal(out, axis1=-2, axis2=-1)) > 0)


def test_cholesky_lower_and_upper_of_a_2x2():
    a = np.array([[4, 2], [2, 3]], f64)
    np.testing.assert_allclose(cholesky(a, True), [[2, 0], [1, np.sqrt(2)]])
    np.testing.assert_allclose(cholesky(a, False), [[2, 1], [0, np.sqrt(2)]])


def test_cholesky_not_positive_definite_gives_nans_per_matrix():
    a = np.array([[[1, 2], [2, 1]], [[4, 2], [2, 3]]], f32)
    out = cholesky(a, True)
    assert np.isnan(out[0][np.tril_indices(2)]).all()
    np.testing.assert_array_equal(np.triu(out[0], 1), 0)
    np.testing.assert_allclose(out[1], [[2, 0], [1, np.sqrt(2)]], rtol=1e-6)


def test_cholesky_half_precision():
    a = np.array([[4, 2], [2, 3]], np.float16)
    out = cholesky(a, True)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.array([[2, 0], [1, np.sqrt(2)]], f32).astype(np.float16))


@pytest.mark.parametrize("dtype", [f32, f64, c64], ids=lambda d: np.dtype(d).name)
def test_cholesky_against_jax(dtype):
    jax = _jax()
    rng = np.random.default_rng(8)
    a = _spd(rng, (3,), 5, dtype)
    out = cholesky(a, True)
    expected = np.asarray(jax.lax.linalg.cholesky(a, symmetrize_input=False))
    tol = 1e-4 if np.dtype(dtype) in (np.dtype(f32), np.dtype(c64)) else 1e-10
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol)


# --------------------------------------------------------------------------------------
# TriangularSolve
# --------------------------------------------------------------------------------------


def _triangular(rng, batch, m, dtype, lower):
    a = _random(rng, (*batch, m, m), dtype)
    a = a + (3 * np.eye(m)).astype(dtype)  # well conditioned
    junk = (np.triu if lower else np.tril)(np.full((m, m), 77), 1 if lower else -1).astype(dtype)
    return (a + junk).astype(dtype)  # the unread triangle holds garbage


def _op(t, transpose):
    if transpose == "NO_TRANSPOSE":
        return t
    tt = np.swapaxes(t, -1, -2)
    return np.conj(tt) if transpose == "ADJOINT" else tt


TS_CASES = list(
    itertools.product([True, False], [True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
)


@pytest.mark.parametrize(("left", "lower", "unit", "transpose"), TS_CASES)
def test_triangular_solve_satisfies_the_system(left, lower, unit, transpose):
    rng = np.random.default_rng(17)
    dtype = c128 if transpose == "ADJOINT" else f64
    m, k = 4, 3
    a = _triangular(rng, (2,), m, dtype, lower)
    if unit:
        a[..., np.arange(m), np.arange(m)] = 1e6  # never read
    b = _random(rng, (2, m, k) if left else (2, k, m), dtype)
    x = triangular_solve(a, b, left, lower, unit, transpose)
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t[..., np.arange(m), np.arange(m)] = 1
    opa = _op(t, transpose)
    np.testing.assert_allclose(opa @ x if left else x @ opa, b, rtol=1e-10, atol=1e-10)


def test_triangular_solve_f32_and_singular():
    a = np.array([[2, 0], [1, 4]], f32)
    b = np.array([[2], [9]], f32)
    x = triangular_solve(a, b, True, True, False, "NO_TRANSPOSE")
    assert x.dtype == f32
    np.testing.assert_array_equal(x, [[1], [2]])
    singular = np.array([[0, 0], [1, 1]], f32)
    x = triangular_solve(singular, np.array([[1], [1]], f32), True, True, False, "NO_TRANSPOSE")
    assert np.isinf(x[0, 0]) and not np.isfinite(x[1, 0])


@pytest.mark.parametrize(("left", "lower", "unit", "transpose"), TS_CASES[::2])
def test_triangular_solve_against_jax(left, lower, unit, transpose):
    jax = _jax()
    rng = np.random.default_rng(23)
    dtype = c64 if transpose == "ADJOINT" else f32
    m, k = 5, 2
    a = _triangular(rng, (3,), m, dtype, lower)
    b = _random(rng, (3, m, k) if left else (3, k, m), dtype)
    x = triangular_solve(a, b, left, lower, unit, transpose)
    expected = jax.lax.linalg.triangular_solve(
        a, b, left_side=left, lower=lower, transpose_a=transpose != "NO_TRANSPOSE",
        conjugate_a=transpose == "ADJOINT", unit_diagonal=unit,
    )  # fmt: skip
    np.testing.assert_allclose(x, np.asarray(expected), rtol=1e-4, atol=1e-4)


# --------------------------------------------------------------------------------------
# Batch normalization: the spec's formulas, computed here in f64
# --------------------------------------------------------------------------------------


def _bn_axes(x, fi):
    return tuple(d for d in range(x.ndim) if d != fi)


def _bcast(v, x, fi):
    shape = [1] * x.ndim
    shape[fi] = -1
    return np.asarray(v, f64).reshape(shape)


@pytest.mark.parametrize(("shape", "fi", "dtype"), [((4, 3, 5, 2), 3, f32), ((2, 6, 3), 1, f64), ((7, 2), 0, f32), ((3, 4, 2, 2), 1, np.float16)])
def test_batch_norm_training(shape, fi, dtype):
    rng = np.random.default_rng(31)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    scale = rng.standard_normal(shape[fi]).astype(dtype)
    offset = rng.standard_normal(shape[fi]).astype(dtype)
    eps = 0.001
    out, mean, var = batch_norm("batch_norm_training", [x, scale, offset], eps, fi, 3)
    xd = x.astype(f64)
    axes = _bn_axes(x, fi)
    mu = xd.mean(axis=axes)
    sigma2 = ((xd - _bcast(mu, x, fi)) ** 2).mean(axis=axes)
    y = _bcast(scale, x, fi) * (xd - _bcast(mu, x, fi)) / np.sqrt(_bcast(sigma2, x, fi) + eps) + _bcast(offset, x, fi)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    for got, want in ((out, y), (mean, mu), (var, sigma2)):
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.astype(f64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize(("shape", "fi", "dtype"), [((4, 3, 5, 2), 1, f32), ((2, 6), 1, f64), ((5, 2, 3), 2, BF16)])
def test_batch_norm_inference(shape, fi, dtype):
    rng = np.random.default_rng(37)
    x = rng.standard_normal(shape).astype(dtype)
    c = shape[fi]
    scale, offset, mean = (rng.standard_normal(c).astype(dtype) for _ in range(3))
    variance = rng.uniform(0.5, 2, c).astype(dtype)
    eps = 0.01
    out = batch_norm("batch_norm_inference", [x, scale, offset, mean, variance], eps, fi, 1)
    want = _bcast(scale, x, fi) * (x.astype(f64) - _bcast(mean, x, fi)) / np.sqrt(
        _bcast(variance, x, fi) + eps
    ) + _bcast(offset, x, fi)
    tol = 5e-2 if dtype == BF16 else 1e-5
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_allclose(out.astype(f64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize(("shape", "fi", "dtype"), [((4, 3, 5, 2), 3, f32), ((3, 4, 2), 1, f64), ((6, 2), 0, f32)])
def test_batch_norm_grad(shape, fi, dtype):
    rng = np.random.default_rng(41)
    x = rng.standard_normal(shape).astype(dtype)
    c = shape[fi]
    scale = rng.standard_normal(c).astype(dtype)
    axes = _bn_axes(x, fi)
    mean = x.astype(f64).mean(axis=axes).astype(dtype)
    variance = x.astype(f64).var(axis=axes).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    eps = 0.001
    gx, gscale, goffset = batch_norm("batch_norm_grad", [x, scale, mean, variance, dy], eps, fi, 3)
    # BatchNormGrad: c_l, d_l, and the three gradients
    xd, dyd = x.astype(f64), dy.astype(f64)
    n = np.prod([shape[d] for d in axes])
    centered = xd - _bcast(mean, x, fi)
    ve = _bcast(variance, x, fi) + eps
    c_l = (dyd * centered / ve).sum(axis=axes) / n
    d_l = dyd.sum(axis=axes) / n
    want_gx = _bcast(scale, x, fi) / np.sqrt(ve) * (dyd - _bcast(d_l, x, fi) - _bcast(c_l, x, fi) * centered)
    want_gscale = (dyd * centered / np.sqrt(ve)).sum(axis=axes)
    want_goffset = dyd.sum(axis=axes)
    tol = 1e-4 if dtype == f32 else 1e-10
    for got, want in ((gx, want_gx), (gscale, want_gscale), (goffset, want_goffset)):
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.astype(f64), want, rtol=tol, atol=tol)


def test_batch_norm_grad_is_the_gradient_of_training():
    # the gradient of sum(dy * BatchNormTraining(x)) with respect to x, by finite
    # differences in f64, is grad_operand when mean/var are the batch's own moments
    rng = np.random.default_rng(43)
    x = rng.standard_normal((5, 3))
    scale, offset = rng.standard_normal(3), rng.standard_normal(3)
    dy = rng.standard_normal((5, 3))
    eps = 0.01

    def loss(v):
        out, _, _ = batch_norm("batch_norm_training", [v, scale, offset], eps, 1, 3)
        return float((out * dy).sum())

    _, mean, var = batch_norm("batch_norm_training", [x, scale, offset], eps, 1, 3)
    gx, gscale, goffset = batch_norm("batch_norm_grad", [x, scale, mean, var, dy], eps, 1, 3)
    h = 1e-6
    for i, j in [(0, 0), (2, 1), (4, 2)]:
        e = np.zeros_like(x)
        e[i, j] = h
        numeric = (loss(x + e) - loss(x - e)) / (2 * h)
        np.testing.assert_allclose(gx[i, j], numeric, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(goffset, dy.sum(axis=0), rtol=1e-12)
