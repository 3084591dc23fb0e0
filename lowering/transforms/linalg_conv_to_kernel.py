"""`linalg-conv-to-kernel`: a bufferized 2-D f32 convolution becomes a call of the
micro-kernel library's implicit GEMM (`lowering/kernels/conv.py`): the kernel of its side,
`xla_opt_sconv_columns` or `xla_opt_sconv_rows` (a library each: a program of one side
compiles half the code).

It runs after `linalg-matmul-to-kernel`, on memrefs, and takes the two forms
`convert-xla-to-linalg` gives a convolution:

* the generalized `linalg.conv_2d_nhwc_hwcf` (NHWC/HWIO, no groups): inputs image and
  kernel, the image map `(n, stride * oh + dilation * kh, ..., c)` (its padding already
  in the image buffer, an xla.pad before);
* the generic of any layout: the kernel is its one input, and the body reads the image
  with `memref.load` at indices built from `linalg.index` (`stride * oh + dilation * kh -
  padding_low`), clamped with `minui` to the last element and the read replaced by 0
  (`select`) where a `cmpi ule` says an index is out of range (the padding); a feature
  index `(o floordiv O_group) * C_group + c` is a feature group.

Either way the access is a linear form of the loops per image dimension (the body's
index arithmetic is evaluated symbolically; any op it does not know, a clamp that is
not exactly the range check, an lhs dilation's `remsi`/`divsi`, leaves the op alone).
It must be a convolution: four parallel loops indexing the output (batch, output
feature, two spatial), three reductions (input feature, two window), the kernel
indexed by the output feature and the reductions, the image by batch, input feature
(or its group's) and `stride * spatial + dilation * window + constant` per spatial
dimension, a body `acc + image * kernel`, batch_group_count 1 (a grouped batch is
not a plain loop), identity-layout f32 memrefs. The output must let the kernel write
whole rows: windows contiguous (`side` 0: rows are output features, e.g. NCHW) or
output features contiguous (`side` 1: rows are windows, e.g. NHWC), and the kernel's
(input feature, window row, window column) dimensions must be one strided run (any
order: OIHW, HWIO, ...). Where the batch and the two output spatial loops are one
row-major run of the output in any order, the batch is folded into the GEMM's windows
(one larger product: each window digit has its own input stride) instead of looped
over: NHWC's (batch, row, column), and a weight gradient's (row, column, batch) as JAX
writes it (`[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]`: the input features are the
"batch", the image the "window"), one GEMM of M = window x input features, N = output
features, K = batch x image (it was one GEMM of 9 rows per input feature).

Below MIN_MACS multiply-adds the loops stay (the kernel's packing and tables cost more
than they save on a tiny convolution; measured per side, see MIN_MACS), and so do
feature groups of fewer than MIN_GROUP_FEATURES output features (depthwise).
The outs buffer holds the accumulator's initial value, so the kernel adds (C +=); but
where the op right before the convolution fills that buffer with zeros (the
convolution's lowering), the fill goes and the call gets the GEMM's OVERWRITE flag
(C =, the stale content never read: one pass over the output saved, as for a matrix
product in `linalg-matmul-to-kernel`). The call passes bare pointers and i64 constants (the
kernel's signature, conv.py); the module gets an external declaration; the JIT binds
the symbol (`lowering/kernels/runtime.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.lowering.utils.contractions import is_multiply_accumulate
from xla_opt.pattern_dispatch import ConversionWalker
from xla_opt.lowering.kernels import libraries
from xla_opt.lowering.kernels.conv import PARAMS, SYMBOL_BY_SIDE
from xla_opt.lowering.kernels.gemm import OVERWRITE
from xla_opt.lowering.utils.linear_forms import Linear, index_form, linear_form
from xla_opt.lowering.utils.llvm_types import PTR
from xla_opt.lowering.transforms.linalg_matmul_to_kernel import is_zero_fill
from xla_opt.lowering.conversions.convert_xla_to_linalg.common import PARALLEL, REDUCTION

# The defaults of the pass's options. Multiply-adds below which the loops stay, by `side` (measured, one thread: an NCHW
# convolution's loops are ~1.5x slower than the kernel from ~2^15 multiply-adds; an
# NHWC one's, register-blocked along the output features, win up to ~2^17).
MIN_MACS = {0: 1 << 15, 1: 1 << 17}
# Output features per feature group below which the loops stay: a depthwise convolution
# (one per group, a 3 x 3 window) ran 2-3x slower on the kernel, whose tile would be
# mostly empty; 2 per group was even, 4 3-5x faster (measured, one thread).
MIN_GROUP_FEATURES = 4
MAX_IMAGE = 1 << 30  # the kernel's window tables hold i32 offsets and rows


# --------------------------------------------------------------------------------------
# The image access of the generic form: the body's index arithmetic, evaluated
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Clamped:
    """minui(index, bound): an index the body clamps to [0, bound] (unsigned)."""

    index: Linear
    bound: int


@dataclass(frozen=True)
class _InRange:
    """The conjunction of `0 <= index <= bound` (unsigned compares)."""

    checks: frozenset[tuple[Linear, int]]


@dataclass(frozen=True)
class _Load:
    source: SSAValue
    indices: tuple[Linear | _Clamped, ...]


@dataclass(frozen=True)
class _Zero:
    pass


@dataclass(frozen=True)
class ImageAccess:
    """The image buffer, a linear form per dimension, and whether a dimension reads 0
    outside [0, size) (the generic's padding)."""

    image: SSAValue
    indices: tuple[Linear, ...]
    padded: tuple[bool, ...]


def _constant_of(op: arith.ConstantOp) -> Linear | _Zero | None:
    value = op.value
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        return Linear(constant=value.value.data)
    if isinstance(value, FloatAttr) and value.value.data == 0.0:
        return _Zero()
    return None


def _evaluate(op: Operation, env: dict[SSAValue, object]) -> object | None:
    """The symbolic value of one body op from its operands' (None: not understood)."""
    # a constant may have been hoisted out of the body
    args = [
        env[o] if o in env else _constant_of(o.owner) if isinstance(o.owner, arith.ConstantOp) else None
        for o in op.operands
    ]
    if isinstance(op, arith.ConstantOp):
        return _constant_of(op)
    if (form := index_form(op, args)) is not None:  # a group number is a division
        return form
    if isinstance(op, arith.CmpiOp) and op.predicate.value.data == 7 and all(isinstance(a, Linear) for a in args):
        bound = args[1].as_constant()  # type: ignore[union-attr]
        return None if bound is None else _InRange(frozenset({(args[0], bound)}))
    if isinstance(op, arith.AndIOp) and all(isinstance(a, _InRange) for a in args):
        return _InRange(args[0].checks | args[1].checks)  # type: ignore[union-attr]
    if isinstance(op, arith.MinUIOp) and all(isinstance(a, Linear) for a in args):
        bound = args[1].as_constant()  # type: ignore[union-attr]
        return None if bound is None else _Clamped(args[0], bound)  # type: ignore[arg-type]
    if isinstance(op, memref.LoadOp) and all(isinstance(a, Linear | _Clamped) for a in args[1:]):
        return _Load(op.memref, tuple(args[1:]))  # type: ignore[arg-type]
    if isinstance(op, arith.SelectOp) and isinstance(args[0], _InRange) and isinstance(args[2], _Zero):
        load = args[1]
        if not isinstance(load, _Load):
            return None
        clamps = {(i.index, i.bound) for i in load.indices if isinstance(i, _Clamped)}
        return load if clamps == set(args[0].checks) else None  # exactly the clamped indices
    return None


def _access_of(load: _Load) -> ImageAccess | None:
    """A load whose clamps are each the whole range of their dimension (the select
    checked that exactly those are tested)."""
    shape = load.source.type.get_shape()  # type: ignore[attr-defined]
    indices, padded = [], []
    for index, size in zip(load.indices, shape, strict=True):
        if isinstance(index, _Clamped):
            if index.bound != size - 1:
                return None
            indices.append(index.index)
            padded.append(True)
        else:
            indices.append(index)
            padded.append(False)
    return ImageAccess(load.source, tuple(indices), tuple(padded))


def _generic_form(op: linalg.GenericOp) -> tuple[ImageAccess, SSAValue] | None:
    """The generic of ConvolutionToGeneric: (image access, kernel), or None."""
    body = op.body.block
    ops = list(body.ops)
    if len(op.inputs) != 1 or len(ops) < 3:
        return None
    kernel_arg, acc = body.args
    product, total, yielded = ops[-3:]
    if not (
        isinstance(product, arith.MulfOp) and isinstance(total, arith.AddfOp) and isinstance(yielded, linalg.YieldOp)
    ):
        return None
    if {total.lhs, total.rhs} != {acc, product.result} or tuple(yielded.operands) != (total.result,):
        return None
    if kernel_arg not in (product.lhs, product.rhs) or product.lhs == product.rhs:
        return None
    image_value = product.rhs if product.lhs == kernel_arg else product.lhs
    env: dict[SSAValue, object] = {}
    for inner in ops[:-3]:
        value = _evaluate(inner, env)
        if value is None:
            return None
        env[inner.results[0]] = value
    load = env.get(image_value)
    if not isinstance(load, _Load) or not isinstance(load.source.type, MemRefType):
        return None
    access = _access_of(load)
    return None if access is None else (access, op.inputs[0])


# --------------------------------------------------------------------------------------
# The convolution's geometry and the kernel's arguments
# --------------------------------------------------------------------------------------


def _row_major(shape: Sequence[int]) -> list[int]:
    return [prod(shape[i + 1 :]) for i in range(len(shape))]


@dataclass(frozen=True)
class KernelConv:
    """The call's operands: the kernel, image and output buffers and the i64 arguments
    by parameter name (conv.py's PARAMS)."""

    kernel: SSAValue
    image: SSAValue
    output: SSAValue
    args: dict[str, int]
    macs: int


def _spatial(expr: Linear, parallel: set[int], reduction: set[int]) -> tuple[int, int, int, int] | None:
    """(output loop, stride, window loop, dilation) of `stride * o + dilation * k + c`."""
    if len(expr.terms) != 2 or not all(isinstance(t, int) and c > 0 for t, c in expr.terms):
        return None
    (a, ca), (b, cb) = expr.terms  # type: ignore[misc]
    if a in reduction and b in parallel:
        (a, ca), (b, cb) = (b, cb), (a, ca)
    if a not in parallel or b not in reduction:
        return None
    return a, ca, b, cb  # type: ignore[return-value]


def _window_layout(
    out_stride: dict[int, int], extent: dict[int, int], o: int, loops: list[int]
) -> tuple[int, int, list[int | None]] | None:
    """(side, ldc, the window digits x0, x1, x2) when the windows over `loops` (the batch
    and the two output spatial loops, or the spatial loops alone: one GEMM per image) are
    one row-major run of the output: consecutive columns (`side` 0, the output features
    rows ldc apart) or rows ldc apart (`side` 1, the output features contiguous). The
    digits are the loops from the slowest-varying in the output to the fastest, loops of
    one element first and None where fewer than three."""
    varying = sorted((d for d in loops if extent[d] > 1), key=lambda d: -out_stride[d])
    if any(out_stride[p] != extent[q] * out_stride[q] for p, q in pairwise(varying)):
        return None
    inner = out_stride[varying[-1]] if varying else 1
    digits: list[int | None] = [d for d in loops if extent[d] == 1] + varying
    digits = [None] * (3 - len(digits)) + digits
    if inner == 1 and varying:
        return 0, out_stride[o], digits
    if out_stride[o] == 1:
        return 1, inner, digits
    if inner == 1:
        return 0, out_stride[o], digits
    return None


def convolution(
    access: ImageAccess,
    kernel: SSAValue,
    output: SSAValue,
    op: linalg.GenericOp,
    min_group_features: int = MIN_GROUP_FEATURES,
) -> KernelConv | None:
    maps = [m.data for m in op.indexing_maps.data]
    kernel_map, out_map = maps[list(op.inputs).index(kernel)], maps[-1]
    if any(m.num_symbols for m in maps):
        return None
    kernel_loops = [linear_form(e) for e in kernel_map.results]
    out_loops = [linear_form(e) for e in out_map.results]
    if not all(
        ls is not None and ls.constant == 0 and [c for _, c in ls.terms] == [1] for ls in [*kernel_loops, *out_loops]
    ):
        return None
    kdims = [ls.terms[0][0] for ls in kernel_loops]  # type: ignore[union-attr]
    odims = [ls.terms[0][0] for ls in out_loops]  # type: ignore[union-attr]
    iterators = [it.data for it in op.iterator_types.data]
    parallel = {i for i, it in enumerate(iterators) if it == PARALLEL.data}
    reduction = {i for i, it in enumerate(iterators) if it == REDUCTION.data}
    if len(iterators) != 7 or len(parallel) != 4 or len(access.indices) != 4:
        return None
    if sorted(odims) != sorted(parallel) or len(kdims) != 4 or len(set(kdims)) != 4:  # type: ignore[arg-type]
        return None
    o_loops = [d for d in kdims if d in parallel]
    if len(o_loops) != 1 or {d for d in kdims if d not in parallel} != reduction:
        return None
    o = o_loops[0]
    image_shape = access.image.type.get_shape()  # type: ignore[attr-defined]
    kernel_shape = kernel.type.get_shape()  # type: ignore[attr-defined]
    out_shape = output.type.get_shape()  # type: ignore[attr-defined]
    extent = {d: out_shape[i] for i, d in enumerate(odims)} | {d: kernel_shape[i] for i, d in enumerate(kdims)}  # type: ignore[misc]
    extent_of_o = out_shape[odims.index(o)]
    batch = feature = None
    spatial: list[tuple[int, int, int, int, int, int]] = []  # (image dim, oh, stride, kh, dil, pad)
    groups, group_features = 1, None
    for dim, (expr, padded) in enumerate(zip(access.indices, access.padded, strict=True)):
        coefficients = expr.coefficients()
        plain = [t for t, c in expr.terms if c == 1 and isinstance(t, int)]
        if len(expr.terms) == 1 and plain and not padded and expr.constant == 0:
            loop = plain[0]
            if loop in parallel and loop != o and batch is None:
                batch = (dim, loop)
                continue
            if loop in reduction and feature is None:
                feature = (dim, loop)
                continue
            return None
        # a group's input feature: (o floordiv O_group) * C_group + c, or o * C_group + c
        # when each group has one output feature (depthwise: the division by 1 folded)
        grouped = {t: k for t, k in coefficients.items() if t == o or (isinstance(t, tuple) and t[0] == o)}
        rest = [t for t in coefficients if t not in grouped]
        if len(grouped) == 1 and len(rest) == 1 and feature is None and not padded and expr.constant == 0:
            [(term, group_features)], c_loop = grouped.items(), rest[0]
            per_group = term[1] if isinstance(term, tuple) else 1
            if coefficients[c_loop] != 1 or c_loop not in reduction or extent_of_o % per_group:
                return None
            groups = extent_of_o // per_group
            if per_group < min_group_features:
                return None
            feature = (dim, c_loop)
            continue
        found = _spatial(expr, parallel, reduction)
        if found is None:
            return None
        spatial.append((dim, found[0], found[1], found[2], found[3], -expr.constant))
    if batch is None or feature is None or len(spatial) != 2:
        return None
    b, c = batch[1], feature[1]
    if {b, o, spatial[0][1], spatial[1][1]} != parallel or {
        c,
        spatial[0][3],
        spatial[1][3],
    } != reduction:
        return None
    cg = extent[c]
    if group_features is not None and group_features != cg:
        return None
    if image_shape[feature[0]] != groups * cg or prod(image_shape) >= MAX_IMAGE:
        return None
    og = extent[o] // groups
    o_stride = _row_major(out_shape)
    out_stride = {d: o_stride[i] for i, d in enumerate(odims)}  # type: ignore[misc]
    # window rows are the first spatial dimension's, columns the second's (either order
    # in the image: the kernel checks each against its own bound)
    (hdim, oh, str_h, kh, dil_h, pad_h), (wdim, ow, str_w, kw, dil_w, pad_w) = spatial
    n_b, n_oh, n_ow = extent[b], extent[oh], extent[ow]
    i_stride = _row_major(image_shape)
    window_parts = {  # loop: (input stride, rows, columns)
        b: (i_stride[batch[0]], 0, 0),
        oh: (str_h * i_stride[hdim], str_h, 0),
        ow: (str_w * i_stride[wdim], 0, str_w),
    }
    layout = _window_layout(out_stride, extent, o, [b, oh, ow]) or _window_layout(out_stride, extent, o, [oh, ow])
    if layout is None:
        return None
    side, ldc, digits = layout
    fold = b in digits
    # the kernel's (input feature, window row, window column) as one strided run k
    k_stride = _row_major(kernel_shape)
    kernel_dim = {d: i for i, d in enumerate(kdims)}  # type: ignore[misc]
    parts = {  # loop: (input stride, rows, columns)
        c: (i_stride[feature[0]], 0, 0),
        kh: (dil_h * i_stride[hdim], dil_h, 0),
        kw: (dil_w * i_stride[wdim], 0, dil_w),
    }
    order = sorted((d for d in parts if extent[d] > 1), key=lambda d: -k_stride[kernel_dim[d]])
    w_k = k_stride[kernel_dim[order[-1]]] if order else 1
    # dimensions of one element outermost: the innermost digit is a real run (an NHWC
    # input's features, which the kernel packs as vectors, not a window of width 1)
    order = [d for d in parts if extent[d] == 1] + order
    for i, d in enumerate(order):
        if extent[d] > 1 and k_stride[kernel_dim[d]] != w_k * prod(extent[e] for e in order[i + 1 :]):
            return None
    windows = prod(extent[d] for d in digits if d is not None)
    depth = cg * extent[kh] * extent[kw]
    digit_parts = [window_parts[d] if d is not None else (0, 0, 0) for d in digits]
    args = {
        "images": 1 if fold else n_b,
        "groups": groups,
        "side": side,
        "M": og if side == 0 else windows,
        "N": windows if side == 0 else og,
        "K": depth,
        "w_o": k_stride[kernel_dim[o]],
        "w_k": w_k,
        "w_group": og * k_stride[kernel_dim[o]],
        "x_image": 0 if fold else i_stride[batch[0]],
        "x_group": cg * i_stride[feature[0]],
        "H": image_shape[hdim],
        "Wd": image_shape[wdim],
        "sH": i_stride[hdim],
        "sW": i_stride[wdim],
        "padH": pad_h,
        "padW": pad_w,
        "x_e1": extent[digits[1]] if digits[1] is not None else 1,
        "x_e2": extent[digits[2]] if digits[2] is not None else 1,
        **{f"x_{name}{i}": part[j] for i, part in enumerate(digit_parts) for j, name in enumerate("shw")},
        "e1": extent[order[1]],
        "e2": extent[order[2]],
        **{f"{name}{i}": parts[d][j] for i, d in enumerate(order) for j, name in enumerate("shw")},
        "ldc": ldc,
        "c_image": 0 if fold else out_stride[b],
        "c_group": og * out_stride[o],
    }
    return KernelConv(kernel, access.image, output, args, n_b * extent[o] * n_oh * n_ow * depth)


def _named_form(op: linalg.GenericOp) -> tuple[ImageAccess, SSAValue] | None:
    """The generalized named convolution: (image access, kernel), the image the input
    whose map is not plain loops (or, for a 1x1 stride-1 one, the input indexed by
    more than one parallel loop)."""
    if len(op.inputs) != 2 or not is_multiply_accumulate(op):
        return None
    maps = [m.data for m in op.indexing_maps.data]
    forms = [[linear_form(e) for e in m.results] for m in maps[:2]]
    if any(f is None for form in forms for f in form):
        return None
    iterators = [it.data for it in op.iterator_types.data]

    def parallel_loops(form) -> int:
        return sum(1 for f in form for t, _ in f.terms if isinstance(t, int) and iterators[t] == PARALLEL.data)

    image = max((0, 1), key=lambda i: parallel_loops(forms[i]))
    access = ImageAccess(op.inputs[image], tuple(forms[image]), (False,) * len(forms[image]))  # type: ignore[arg-type]
    return access, op.inputs[1 - image]


def kernel_conv(op: linalg.GenericOp, limits: ConvToKernelPass | None = None) -> KernelConv | None:
    """The convolution `op` computes if the kernel takes it (see the module doc), with
    the pass's size limits (`limits`; its defaults when None)."""
    limits = limits or ConvToKernelPass()
    if len(op.outputs) != 1:
        return None
    output = op.outputs[0]
    buffers = [*op.inputs, output]
    if not all(isinstance(v.type, MemRefType) and isinstance(v.type.element_type, Float32Type) for v in buffers):
        return None
    found = _generic_form(op) or _named_form(op)
    if found is None:
        return None
    access, kernel = found
    if not all(
        isinstance(v.type, MemRefType) and isinstance(v.type.layout, NoneAttr) and len(v.type.get_shape()) == 4
        for v in (access.image, kernel, output)
    ):
        return None
    if not isinstance(access.image.type.element_type, Float32Type):  # type: ignore[attr-defined]
        return None
    conv = convolution(access, kernel, output, op, limits.min_group_features)
    if conv is None:
        return None
    return conv if conv.macs >= (limits.min_macs, limits.min_macs_channels_last)[conv.args["side"]] else None


class ConvToKernel(RewritePattern):
    """A bufferized 2-D f32 convolution (see the module doc) -> `llvm.call` of the
    kernel of its side, `@xla_opt_sconv_columns` or `@xla_opt_sconv_rows`; the sides
    taken in `sides`."""

    def __init__(self, limits: ConvToKernelPass | None = None) -> None:
        self.sides: set[int] = set()
        self.limits = limits

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        conv = kernel_conv(op, self.limits)
        if conv is None:
            return
        new_ops: list[Operation] = []
        constants: dict[int, SSAValue] = {}
        pointers = {"%W": conv.kernel, "%X": conv.image, "%C": conv.output}
        fill = op.prev_op
        overwrite = is_zero_fill(fill, conv.output)
        values = conv.args | {"flags": OVERWRITE if overwrite else 0}
        args = []
        for ty, name in PARAMS:
            if ty == "ptr":
                new_ops.append(cast := llvm.BitcastOp(pointers[name], PTR))
                args.append(cast.result)
                continue
            value = values[name[1:]]
            if value not in constants:
                new_ops.append(c := llvm.ConstantOp(IntegerAttr(value, i64), i64))
                constants[value] = c.result
            args.append(constants[value])
        rewriter.replace(op, [*new_ops, llvm.CallOp(SYMBOL_BY_SIDE[conv.args["side"]], *args)], new_results=[])
        if overwrite and fill is not None:
            rewriter.erase(fill)
        self.sides.add(conv.args["side"])


@dataclass(frozen=True)
class ConvToKernelPass(ModulePass):
    """Bufferized 2-D f32 convolutions as calls of the convolution kernel (see the module doc)."""

    name = "linalg-conv-to-kernel"
    input_dialects = ("arith", "linalg", "memref")
    output_dialects = ("llvm",)

    min_macs: int = MIN_MACS[0]
    """Multiply-adds below which a convolution whose features are not its innermost
    dimension (NCHW) stays loops."""

    min_macs_channels_last: int = MIN_MACS[1]
    """Multiply-adds below which one whose features are innermost (NHWC) stays loops:
    its loops, register-blocked along the features, win longer."""

    min_group_features: int = MIN_GROUP_FEATURES
    """Output features per feature group below which the loops stay (a depthwise
    convolution has one)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = ConvToKernel(self)
        ConversionWalker([pattern], repeat=False, erase_dead=False).rewrite_module(op)
        for side in sorted(pattern.sides):
            libraries.declare(op, SYMBOL_BY_SIDE[side], PARAMS)
