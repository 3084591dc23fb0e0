"""Convolution gradients on the convolution kernel (issue 32, item 2).

JAX's transpose rules write a convolution's gradients as convolutions the kernel did not
take: the input gradient of a strided convolution (and a transposed convolution) is
lhs-dilated, and its kernel is `[0, 1, o, i]` (the output features between the window
and the input features). `convert-xla-to-linalg` now splits an lhs-dilated convolution
by output phase into convolutions without holes (`ConvolutionPhases`) and transposes
such a kernel (`KernelLayoutForKernel`), both in `convolution_forms.py`.

Inputs are small nonzero integers: every product and partial sum is exact in f32, so any
summation order gives the same result, and results are compared exactly with JAX (XLA)
and the interpreter. Programs are exported by JAX as a user's `jax.grad` would write them.
"""

from __future__ import annotations

import re
from itertools import product

import numpy as np
import pytest

import xla_opt
from tests.test_interp_linear_algebra import layout_dnums
from tests.test_jit_conv_kernel import sconv_kernels
from tests.test_jit_linear_algebra import conv_op, func
from xla_opt.lowering.conversions.convert_xla_to_linalg.convolution_forms import MIN_MACS, phases_of_dimension
from xla_opt.lowering.kernels.conv import SYMBOL

F32 = np.float32


def small_ints(rng: np.random.Generator, shape) -> np.ndarray:
    """Nonzero integers in [-3, 3]: exact sums in f32, no -0.0 product."""
    return (rng.integers(1, 4, shape) * rng.choice([-1, 1], shape)).astype(F32)


def kernel_calls(program: str) -> int:
    """Calls of the convolution kernel in the LLVM IR the JIT compiles for `program`."""
    ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    return len(re.findall(rf'call [^\n]*@"?{SYMBOL}_(?:columns|rows)"?\(', ir))


def gemm_calls(program: str) -> int:
    """Calls of the f32 GEMM micro-kernel (any of its shapes) in the JIT's LLVM IR."""
    ir = xla_opt.compile(program, backend="jit").jit.llvm_ir
    return len(re.findall(r'call [^\n]*@"?xla_opt_sgemm\w*"?\(', ir))


# --------------------------------------------------------------------------------------
# The phases, against the definition
# --------------------------------------------------------------------------------------


def _definition(size, window, stride, low, dilation, rhs_dilation, out) -> set[tuple[int, int, int]]:
    """(output position, tap, input element) of every product of one spatial dimension
    that meets an input element (not a hole, not the padding)."""
    found = set()
    for p in range(out):
        for k in range(window):
            t = p * stride + k * rhs_dilation - low
            if t % dilation == 0 and 0 <= t // dilation < size:
                found.add((p, k, t // dilation))
    return found


def _from_phases(size, window, stride, low, dilation, rhs_dilation, out) -> set[tuple[int, int, int]]:
    dim = phases_of_dimension(size, window, stride, low, dilation, rhs_dilation, out)
    found = set()
    for r, phase in enumerate(dim.phases):
        if phase is None:
            continue
        for a in range(dim.count):
            p = a * len(dim.phases) + r
            for j in range(phase.taps):
                x = a * dim.stride + j * dim.rhs_dilation - phase.low
                if p < out and 0 <= x < size:
                    found.add((p, phase.first + j * dim.step, x))
    return found


def test_phases_of_dimension_against_the_definition():
    """Every product of the lhs-dilated convolution that meets an input element, and
    nothing else, is a product of exactly one phase; each phase's convolution has the
    same number of outputs (ceil(O / P))."""
    for size, window, stride, low, dilation, rhs_dilation in product(
        (1, 4, 7), (1, 2, 3, 5), (1, 2, 3), (-2, 0, 1, 3, 6), (2, 3, 4), (1, 2, 3)
    ):
        high = 1
        span = (size - 1) * dilation + 1 + low + high - ((window - 1) * rhs_dilation + 1)
        if span < 0:
            continue
        out = span // stride + 1
        args = (size, window, stride, low, dilation, rhs_dilation, out)
        assert _from_phases(*args) == _definition(*args), args
        dim = phases_of_dimension(*args)
        for phase in dim.phases:
            if phase is not None:  # the phase's convolution, as the shape rule counts it
                padded = size + phase.low + phase.high
                assert (padded - ((phase.taps - 1) * dim.rhs_dilation + 1)) // dim.stride + 1 == dim.count, args


# --------------------------------------------------------------------------------------
# xla programs: odd lhs dilations, layouts, groups, against the interpreter
# --------------------------------------------------------------------------------------


def program_of(lhs: np.ndarray, rhs: np.ndarray, specs, **props) -> str:
    op, result = conv_op("%a0", "%a1", (lhs.shape, lhs.dtype), (rhs.shape, rhs.dtype), layout_dnums(*specs), **props)
    return func([lhs, rhs], result, f"  %r = {op}")


def check(program: str, *args: np.ndarray) -> list[np.ndarray]:
    got = xla_opt.run(program, *args, backend="jit")
    for g, want in zip(got, xla_opt.run(program, *args, backend="interpreter"), strict=True):
        np.testing.assert_array_equal(g, want)
    return got


# (input sizes N, C, H, W; kernel O, H, W; properties; kernel calls)
LHS_DILATED = [
    # a transposed convolution's form (stride 1, lhs dilation 2): 4 phases
    ((2, 32, 9, 10), (32, 3, 3), {"lhs_dilation": [2, 2], "padding": [(2, 1), (1, 2)]}, 4),
    # lhs dilation 3 with a window of 2: in each dimension one phase meets no input
    # element (zeros), 4 phases left
    ((2, 32, 8, 8), (32, 2, 2), {"lhs_dilation": [3, 3], "padding": [(1, 1), (1, 1)]}, 4),
    # stride 2 and lhs dilation 2 (P = 1 per dimension: one convolution of every other tap)
    ((2, 32, 12, 12), (32, 3, 3), {"lhs_dilation": [2, 2], "window_strides": [2, 2], "padding": [(1, 1), (1, 1)]}, 1),
    # stride 2, lhs dilation 3, rhs dilation 2, negative padding
    (
        (2, 16, 14, 13),
        (16, 3, 3),
        {"lhs_dilation": [3, 2], "window_strides": [2, 1], "rhs_dilation": [2, 2], "padding": [(-1, 3), (2, -1)]},
        None,
    ),
    # one dilated dimension only
    ((2, 32, 10, 11), (32, 3, 3), {"lhs_dilation": [1, 2], "padding": [(1, 1), (2, 2)]}, 2),
]


@pytest.mark.parametrize("sizes,kernel,props,calls", LHS_DILATED, ids=lambda x: str(x).replace(" ", ""))
@pytest.mark.parametrize("specs", [("NHWC", "HWIO", "NHWC"), ("NCHW", "OIHW", "NCHW")], ids="-".join)
def test_lhs_dilated_phases(specs, sizes, kernel, props, calls):
    """Split by phase, each piece on the kernel where it is big enough (`calls`, for the
    NHWC cases: None where some pieces are too small), the results the interpreter's."""
    rng = np.random.default_rng(sum(sizes) + len(props))
    n, c, h, w = sizes
    lhs = small_ints(rng, tuple({"N": n, "C": c, "H": h, "W": w}[d] for d in specs[0]))
    rhs = small_ints(rng, tuple({"O": kernel[0], "I": c, "H": kernel[1], "W": kernel[2]}[d] for d in specs[1]))
    program = program_of(lhs, rhs, specs, **props)
    if calls is not None and specs[0] == "NHWC":
        # a phase whose window is 1x1 is a matrix product: the GEMM takes it
        # (linalg-matmul-to-kernel runs first), the others the convolution kernel
        assert kernel_calls(program) + gemm_calls(program) == calls
    check(program, lhs, rhs)


def test_small_lhs_dilated_convolution_stays_loops():
    """Below MIN_MACS (as written, holes included) nothing changes: today's loops."""
    rng = np.random.default_rng(4)
    lhs, rhs = small_ints(rng, (1, 4, 4, 2)), small_ints(rng, (3, 3, 2, 3))
    program = program_of(lhs, rhs, ("NHWC", "HWIO", "NHWC"), lhs_dilation=[2, 2], padding=[(1, 1), (1, 1)])
    assert 7 * 7 * 3 * 9 * 2 < MIN_MACS
    assert kernel_calls(program) == 0
    check(program, lhs, rhs)


@pytest.mark.parametrize("kernel_spec", ["HWOI", "HOWI", "IHOW"])
def test_kernel_layout_transposed(kernel_spec):
    """A kernel whose output features sit between its other dimensions (the input
    gradient's `[0, 1, o, i]` is HWOI) is transposed: the convolution takes the kernel."""
    rng = np.random.default_rng(len(kernel_spec))
    lhs = small_ints(rng, (2, 12, 12, 16))
    rhs = small_ints(rng, tuple({"O": 24, "I": 16, "H": 3, "W": 3}[d] for d in kernel_spec))
    program = program_of(lhs, rhs, ("NHWC", kernel_spec, "NHWC"), padding=[(1, 1), (1, 1)])
    assert kernel_calls(program) == 1
    check(program, lhs, rhs)


# --------------------------------------------------------------------------------------
# Gradients as JAX writes them
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_platforms", "cpu")
    return jax


def _conv(lax, x, k, stride, padding, rhs_dilation=(1, 1)):
    return lax.conv_general_dilated(
        x, k, stride, padding, rhs_dilation=rhs_dilation, dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


# name: (forward (lax, x, k) -> y, input shape, kernel shape, kernel calls of the
# gradient program: the weight gradient's one, the input gradient's phases)
GRADIENTS = {
    "stride1-same": (lambda lax, x, k: _conv(lax, x, k, (1, 1), "SAME"), (4, 12, 12, 16), (3, 3, 16, 32), 2),
    "stride2-same": (lambda lax, x, k: _conv(lax, x, k, (2, 2), "SAME"), (4, 16, 16, 16), (3, 3, 16, 32), 5),
    "stride2-valid-4x4": (lambda lax, x, k: _conv(lax, x, k, (2, 2), "VALID"), (4, 17, 17, 16), (4, 4, 16, 32), 5),
    "stride3-dilated": (
        lambda lax, x, k: _conv(lax, x, k, (3, 3), "SAME", (2, 2)),
        (4, 19, 19, 16),
        (3, 3, 16, 32),
        None,
    ),
    "transposed-stride2": (
        lambda lax, x, k: lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        (4, 8, 8, 32),
        (3, 3, 32, 16),
        None,
    ),
}


@pytest.mark.parametrize("name", GRADIENTS)
def test_gradients_as_jax_writes_them(jax, name):
    """The forward convolution and both gradients (jax.vjp, exported by JAX), equal to
    XLA's results; where given, the number of kernel calls (every convolution on it)."""
    from jax import lax

    forward, xshape, kshape, calls = GRADIENTS[name]
    rng = np.random.default_rng(len(name))
    x, k = small_ints(rng, xshape), small_ints(rng, kshape)
    dy = small_ints(rng, np.shape(jax.eval_shape(lambda x, k: forward(lax, x, k), x, k)))

    def gradients(x, k, dy):
        return jax.vjp(lambda x, k: forward(lax, x, k), x, k)[1](dy)

    text = jax.jit(gradients).lower(x, k, dy).as_text()
    assert text.count("stablehlo.convolution") == 2
    if calls is not None:
        assert kernel_calls(text) == calls
    got = xla_opt.run(text, x, k, dy, backend="jit")
    for g, want in zip(got, jax.jit(gradients)(x, k, dy), strict=True):
        np.testing.assert_array_equal(g, np.asarray(want))


def test_hole_products_are_not_computed(jax):
    """As XLA: an infinite kernel element never meets a hole of the dilated input (the
    interpreter multiplies the holes too: 0 * inf = NaN there). (The padding is still
    read as zeros and multiplied, as before and as the interpreter does: no padding here.)"""
    from jax import lax

    rng = np.random.default_rng(7)
    x, k = small_ints(rng, (2, 10, 10, 32)), small_ints(rng, (3, 3, 32, 32))
    k[0, 0, 0, 0] = np.inf

    def transposed(x, k):
        return lax.conv_general_dilated(
            x, k, (1, 1), ((0, 0), (0, 0)), lhs_dilation=(2, 2), dimension_numbers=("NHWC", "HWIO", "NHWC")
        )

    text = jax.jit(transposed).lower(x, k).as_text()
    assert kernel_calls(text) == 4
    got = xla_opt.run(text, x, k, backend="jit")[0]
    want = np.asarray(jax.jit(transposed)(x, k))
    assert not np.isnan(want).any() and np.isinf(want).any()
    np.testing.assert_array_equal(got, want)
    assert np.isnan(xla_opt.run(text, x, k, backend="interpreter")[0]).any()


def test_weight_gradient_is_one_gemm(jax):
    """A weight gradient (`[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]`: the input's features
    are the convolution's "batch", written between the window and the output features)
    is one GEMM: M = window x input features (the batch folded into the windows as
    their innermost digit), N = output features, K = batch x output rows x columns; it
    was a GEMM of 9 rows per input feature."""
    from jax import lax

    rng = np.random.default_rng(11)
    x, dy = small_ints(rng, (4, 12, 12, 16)), small_ints(rng, (4, 6, 6, 32))

    def weight_gradient(x, dy):
        k = jax.numpy.zeros((3, 3, 16, 32), F32)
        return jax.vjp(lambda k: _conv(lax, x, k, (2, 2), "SAME"), k)[1](dy)[0]

    text = jax.jit(weight_gradient).lower(x, dy).as_text()
    convs = _kernel_convs(text)
    assert len(convs) == 1
    args = convs[0]
    assert (args["images"], args["side"], args["M"], args["N"], args["K"]) == (1, 1, 3 * 3 * 16, 32, 4 * 6 * 6)
    assert (args["x_e2"], args["x_s2"]) == (16, 1)  # the input features, consecutive in x
    got = xla_opt.run(text, x, dy, backend="jit")[0]
    np.testing.assert_array_equal(got, np.asarray(jax.jit(weight_gradient)(x, dy)))


def _kernel_convs(text: str) -> list:
    """The kernel's arguments for each convolution of `text` the kernel takes."""
    from xla_opt.lowering.transforms.linalg_conv_to_kernel import kernel_conv
    from xla_opt.lowering.xla_to_llvm import STAGES

    names = list(STAGES)
    bufferized = xla_opt.optimize(text, ",".join(names[: names.index("xla-bufferize") + 1]))
    return [c.args for op in bufferized.walk() if op.name == "linalg.generic" and (c := kernel_conv(op))]


def test_input_gradient_phases_read_feature_runs(jax):
    """The phases of a stride-2 input gradient (kernels of 2 x 2, 2 x 1, 1 x 2 and 1 x 1
    taps, HWIO after the transposition) all have the input features as their depth's
    innermost digit (the kernel's vector packing of runs), the one-tap dimensions
    outermost."""
    from jax import lax

    rng = np.random.default_rng(12)
    k, dy = small_ints(rng, (3, 3, 16, 32)), small_ints(rng, (4, 8, 8, 32))

    def input_gradient(k, dy):
        x = jax.numpy.zeros((4, 16, 16, 16), F32)
        return jax.vjp(lambda x: _conv(lax, x, k, (2, 2), "SAME"), x)[1](dy)[0]

    text = jax.jit(input_gradient).lower(k, dy).as_text()
    convs = _kernel_convs(text)
    assert sorted(a["K"] for a in convs) == [32, 64, 64, 128]
    assert all((a["e2"], a["s2"], a["w_o"]) == (32, 1, 1) for a in convs if a["K"] > 32)
    got = xla_opt.run(text, k, dy, backend="jit")[0]
    np.testing.assert_array_equal(got, np.asarray(jax.jit(input_gradient)(k, dy)))


@pytest.mark.parametrize(
    "specs",
    [
        ("NHWC", "HWIO", "HWNC"),  # side 1, the batch between the window and the features
        ("HWCN", "HWIO", "HWNC"),  # the same, the batch consecutive in the input
        ("NCHW", "OIHW", "CHWN"),  # side 0, the batch innermost
        ("CHWN", "OIHW", "CWHN"),  # side 0, the output's rows and columns swapped
        ("NHWC", "HWIO", "WHNC"),  # side 1, columns before rows
    ],
    ids="-".join,
)
def test_batch_folded_in_any_order(specs):
    """Windows whose digits (batch, row, column) are one run of the output in any order
    are one GEMM (the batch folded), equal to the interpreter's results."""
    rng = np.random.default_rng(len(set(specs)))
    lhs = small_ints(rng, tuple({"N": 3, "C": 16, "H": 10, "W": 13}[d] for d in specs[0]))
    rhs = small_ints(rng, tuple({"O": 20, "I": 16, "H": 3, "W": 2}[d] for d in specs[1]))
    program = program_of(lhs, rhs, specs, padding=[(1, 1), (0, 1)], window_strides=[1, 2])
    assert kernel_calls(program) == 1
    check(program, lhs, rhs)


# --------------------------------------------------------------------------------------
# The kernel called directly, on each tile shape
# --------------------------------------------------------------------------------------


def _host_has(shape) -> bool:
    from xla_opt.lowering.kernels.gemm import SSE, shape_for
    from xla_opt.runtime.cpu import cpu_features, initialize_llvm

    initialize_llvm()
    return shape is SSE or shape_for(cpu_features(), wide=shape.wide) is shape


def _nhwc_reference(x, w, stride, pad):
    """NHWC x HWIO -> NHWC in float64, from the definition."""
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    padded = np.zeros((n, h + pad[0][0] + pad[0][1], wd + pad[1][0] + pad[1][1], c))
    padded[:, pad[0][0] : pad[0][0] + h, pad[1][0] : pad[1][0] + wd] = x
    oh = (padded.shape[1] - kh) // stride + 1
    ow = (padded.shape[2] - kw) // stride + 1
    out = np.zeros((n, oh, ow, o))
    for i in range(kh):
        for j in range(kw):
            patch = padded[:, i : i + stride * (oh - 1) + 1 : stride, j : j + stride * (ow - 1) + 1 : stride]
            out += np.einsum("nhwc,co->nhwo", patch, w[i, j].astype(np.float64))
    return out


@pytest.mark.parametrize("name", ["SSE", "AVX2_FMA", "AVX512_FMA"])
def test_kernel_called_directly_nhwc_and_weight_gradient(name):
    """Each tile shape's kernel through ctypes: an NHWC convolution whose depth runs are
    its input features (the vector packing of depth runs: 8 and 16 features, and 12,
    not a multiple of a run, lane by lane), and a weight gradient whose windows' innermost
    digit is the input features (the vector packing of window runs), C += and, under
    OVERWRITE, C =."""
    from xla_opt.lowering.kernels import gemm

    shape = getattr(gemm, name)
    if not _host_has(shape):
        pytest.skip(f"the host has no {name}")
    sconv, _native = sconv_kernels(shape)
    rng = np.random.default_rng(21)
    for n, h, c, o, stride, pad in [
        (2, 9, 8, 20, 1, ((1, 1), (1, 1))),
        (3, 11, 16, 9, 2, ((0, 1), (1, 0))),
        (2, 7, 12, 33, 1, ((1, 1), (0, 2))),
    ]:
        x, w = small_ints(rng, (n, h, h + 2, c)), small_ints(rng, (3, 3, c, o))
        expected = _nhwc_reference(x, w, stride, pad)
        oh, ow = expected.shape[1:3]
        out = np.ones(expected.shape, F32)
        row, col = (h + 2) * c, c
        values = {
            "images": 1, "groups": 1, "side": 1, "M": n * oh * ow, "N": o, "K": 9 * c,
            "W": w.ctypes.data, "w_o": 1, "w_k": o, "w_group": 0,
            "X": x.ctypes.data, "x_image": 0, "x_group": 0,
            "H": h, "Wd": h + 2, "sH": row, "sW": col, "padH": pad[0][0], "padW": pad[1][0],
            "x_e1": oh, "x_e2": ow, "x_s0": h * row, "x_s1": stride * row, "x_s2": stride * col,
            "x_h0": 0, "x_h1": stride, "x_h2": 0, "x_w0": 0, "x_w1": 0, "x_w2": stride,
            "e1": 3, "e2": c, "s0": row, "s1": col, "s2": 1, "h0": 1, "h1": 0, "h2": 0, "w0": 0, "w1": 1, "w2": 0,
            "C": out.ctypes.data, "ldc": o, "c_image": 0, "c_group": 0, "flags": 0,
        }  # fmt: skip
        sconv(values)
        np.testing.assert_array_equal(out, 1 + expected)
        out[...] = np.nan
        sconv(values | {"flags": gemm.OVERWRITE})
        np.testing.assert_array_equal(out, expected)
        # the weight gradient of the same convolution: dW[kh, kw, c, o] = sum over (n, oh,
        # ow) of x at the window position times dy (here `expected` as dy)
        dy = small_ints(rng, expected.shape)
        grad = np.ones((3, 3, c, o), F32)
        want = np.zeros((3, 3, c, o))
        padded = np.zeros((n, h + sum(pad[0]), h + 2 + sum(pad[1]), c))
        padded[:, pad[0][0] : pad[0][0] + h, pad[1][0] : pad[1][0] + h + 2] = x
        for i in range(3):
            for j in range(3):
                patch = padded[:, i : i + stride * (oh - 1) + 1 : stride, j : j + stride * (ow - 1) + 1 : stride]
                want[i, j] = np.einsum("nhwc,nhwo->co", patch, dy.astype(np.float64))
        values = {
            "images": 1, "groups": 1, "side": 1, "M": 9 * c, "N": o, "K": n * oh * ow,
            "W": dy.ctypes.data, "w_o": 1, "w_k": o, "w_group": 0,
            "X": x.ctypes.data, "x_image": 0, "x_group": 0,
            "H": h, "Wd": h + 2, "sH": row, "sW": col, "padH": pad[0][0], "padW": pad[1][0],
            "x_e1": 3, "x_e2": c, "x_s0": row, "x_s1": col, "x_s2": 1,
            "x_h0": 1, "x_h1": 0, "x_h2": 0, "x_w0": 0, "x_w1": 1, "x_w2": 0,
            "e1": oh, "e2": ow, "s0": h * row, "s1": stride * row, "s2": stride * col,
            "h0": 0, "h1": stride, "h2": 0, "w0": 0, "w1": 0, "w2": stride,
            "C": grad.ctypes.data, "ldc": o, "c_image": 0, "c_group": 0, "flags": 0,
        }  # fmt: skip
        sconv(values)
        np.testing.assert_array_equal(grad, 1 + want)


@pytest.mark.parametrize("specs", [("NHWC", "HWIO", "NHWC"), ("CHWN", "HWIO", "HWNC")], ids="-".join)
def test_few_output_features_fill_the_tile_rows(specs):
    """An output of 3 features in its innermost dimension (a U-Net's RGB head; a weight
    gradient of one, `[0, 1, b, f]`) is computed with its features outermost (the
    kernel's side 0: M = 3 features, the windows its columns) and transposed back."""
    rng = np.random.default_rng(31)
    lhs = small_ints(rng, tuple({"N": 4, "C": 32, "H": 12, "W": 12}[d] for d in specs[0]))
    rhs = small_ints(rng, tuple({"O": 3, "I": 32, "H": 3, "W": 3}[d] for d in specs[1]))
    program = program_of(lhs, rhs, specs, padding=[(1, 1), (1, 1)])
    [args] = _kernel_convs(program)
    assert (args["side"], args["M"], args["N"]) == (0, 3, 4 * 12 * 12)
    check(program, lhs, rhs)
