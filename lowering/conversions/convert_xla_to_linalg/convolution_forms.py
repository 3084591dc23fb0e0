"""Convolutions rewritten, at the xla level, into the forms the convolution kernel takes
(`linalg-conv-to-kernel`), as the gradients JAX writes need (issue 32).

* `ConvolutionPhases`: an f32 2-D convolution with an lhs dilation s > 1 (the input
  gradient of a strided convolution, a transposed convolution, the weight gradient of a
  transposed convolution) reads zeros at all but one in s input positions: the loops
  (or a kernel on a padded, dilated copy) multiply s^2 times too many products. Split by
  the output position's phase, each phase is an ordinary convolution, without holes,
  of a slice of the kernel (the taps that meet input elements in that phase), and one
  generic interleaves the phases' outputs.
* `FewFeaturesFirst`: an output of few features (an RGB head) is computed with its
  features outermost and transposed back, so that they fill the kernel tile's rows.
* `KernelLayoutForKernel`: the kernel takes a kernel whose (input feature, window row,
  window column) dimensions are one strided run; an input gradient's kernel (`[0, 1, o,
  i]`, the output features between the window and the input features) is transposed to
  put its output features last (a copy of the kernel, small next to the convolution).

Both act on convolutions of at least MIN_MACS multiply-adds (the kernel's smallest, see
`linalg-conv-to-kernel`): smaller ones stay as they were.

The phases, per spatial dimension (size I of the input, K of the kernel, stride st,
padding (lo, hi), lhs dilation s, rhs dilation rd, output size O): output position p
reads the dilated input at t = p * st + k * rd - lo, an input element x[t / s] when s
divides t. With g = gcd(st, s), the P = s / g phases r = p mod P each meet the input at
the taps k = k0 + j * Q (Q = s / gcd(rd, s), k0 the first tap with s | r * st + k * rd
- lo; none: the phase is zeros), and output p = P * a + r reads x[a * st / g + j * rd /
gcd(rd, s) + c], c = (r * st + k0 * rd - lo) / s: a convolution with stride st / g,
rhs dilation rd / gcd(rd, s), low padding -c and the high padding that gives A =
ceil(O / P) outputs (the same count for every phase; the interleaving drops those past
O). A hole's product 0 * kernel is not computed: as XLA, an infinite kernel element
there adds nothing where the interpreter's 0 * inf makes NaN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd, prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import Float32Type, IntegerAttr, TensorType, i64
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xla_opt.dialects import xla
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.linear_algebra import convolution_shape
from xla_opt.dialects.xla.element_types import elem_of, shape_of
from xla_opt.dialects.xla.element_types import tensor as tensor_type
from xla_opt.dialects.xla.properties import i64_array, i64_matrix

from .common import zero_constant
from .elementwise import identity_generic
from .shape_ops import IndexArithmetic

# Multiply-adds (of the convolution as written, holes included) below which a
# convolution is left as it is: the kernel's smallest (linalg-conv-to-kernel's min-macs).
MIN_MACS = 1 << 15


def nominal_macs(op: xla.ConvolutionOp) -> int:
    """The multiply-adds of the convolution's definition: each output element's window
    times the input features of a group."""
    dims = op.dimension_numbers()
    kernel = shape_of(op.rhs.type)
    window = prod(kernel[d] for d in dims.kernel_spatial)
    return prod(shape_of(op.result.type)) * window * kernel[dims.kernel_input_feature]


def _takes(op: xla.ConvolutionOp) -> bool:
    """An f32 2-D convolution with elements everywhere, big enough for the kernel."""
    shapes = [shape_of(v.type) for v in (op.lhs, op.rhs, op.result)]
    return (
        isinstance(elem_of(op.lhs.type), Float32Type)
        and len(op.get_input_spatial_dimensions()) == 2
        and all(0 not in s for s in shapes)
        and nominal_macs(op) >= MIN_MACS
    )


def _convolution(
    op: xla.ConvolutionOp,
    lhs: SSAValue,
    rhs: SSAValue,
    changes: dict[str, object],
) -> xla.ConvolutionOp | None:
    """`op`'s convolution with some properties replaced (None: removed) on new operands,
    its result type inferred; None when the shape rule rejects it."""
    properties = dict(op.properties)
    for name, value in changes.items():
        if value is None:
            properties.pop(name, None)
        else:
            properties[name] = value  # type: ignore[assignment]
    probe = xla.ConvolutionOp.build(operands=[lhs, rhs], result_types=[op.result.type], properties=properties)
    try:
        shape = convolution_shape(
            shape_of(lhs.type),
            shape_of(rhs.type),
            probe.dimension_numbers(),
            window_strides=probe.get_window_strides(),
            padding=probe.get_padding(),
            lhs_dilation=probe.get_lhs_dilation(),
            rhs_dilation=probe.get_rhs_dilation(),
            feature_group_count=probe.get_feature_group_count(),
            batch_group_count=probe.get_batch_group_count(),
        )
    except ShapeError:
        return None
    finally:
        probe.erase()  # it was built to read its properties: drop its uses of the operands
    result_type = tensor_type(shape, elem_of(op.result.type))
    return xla.ConvolutionOp.build(operands=[lhs, rhs], result_types=[result_type], properties=properties)


# --------------------------------------------------------------------------------------
# The phases of an lhs-dilated convolution
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Phase:
    """One phase of one spatial dimension: its first tap, tap count and padding."""

    first: int
    taps: int
    low: int
    high: int


@dataclass(frozen=True)
class _Phases:
    """A spatial dimension's phases: P of them (`phases[r]`, None where no tap meets an
    input element), each computing `count` outputs with stride `stride` and rhs
    dilation `rhs_dilation` on the kernel's taps `step` apart."""

    count: int
    stride: int
    rhs_dilation: int
    step: int
    phases: tuple[_Phase | None, ...]


def phases_of_dimension(
    size: int, window: int, stride: int, low: int, dilation: int, rhs_dilation: int, out: int
) -> _Phases:
    """The phases of one spatial dimension (see the module doc)."""
    g = gcd(stride, dilation)
    count_p, new_stride = dilation // g, stride // g
    step, new_rhs = dilation // gcd(rhs_dilation, dilation), rhs_dilation // gcd(rhs_dilation, dilation)
    count = -(-out // count_p)
    found: list[_Phase | None] = []
    for r in range(count_p):
        k0 = next(
            (k for k in range(min(window, dilation)) if (r * stride + k * rhs_dilation - low) % dilation == 0),
            None,
        )
        if k0 is None:
            found.append(None)
            continue
        taps = len(range(k0, window, step))
        new_low = -((r * stride + k0 * rhs_dilation - low) // dilation)
        high = (count - 1) * new_stride + (taps - 1) * new_rhs + 1 - size - new_low
        found.append(_Phase(k0, taps, new_low, high))
    return _Phases(count, new_stride, new_rhs, step, tuple(found))


def _taps(kernel: SSAValue, spatial: Sequence[int], dims: Sequence[_Phases], phases: Sequence[_Phase]):
    """The kernel's taps first, first + step, ... in each spatial dimension: an xla.slice
    (ops, value), or no op and the kernel itself when that is all of it."""
    shape = list(shape_of(kernel.type))
    starts, limits, steps = [0] * len(shape), list(shape), [1] * len(shape)
    for d, dim, phase in zip(spatial, dims, phases, strict=True):
        starts[d], steps[d] = phase.first, dim.step
        limits[d] = phase.first + (phase.taps - 1) * dim.step + 1
    if all(
        p.first == 0 and p.taps == shape[d] and (dim.step == 1 or p.taps == 1)
        for d, dim, p in zip(spatial, dims, phases, strict=True)
    ):
        return [], kernel
    taken = xla.SliceOp.build(
        operands=[kernel],
        result_types=[tensor_type(_sliced(shape, spatial, phases), elem_of(kernel.type))],
        properties={
            "start_indices": i64_array(starts),
            "limit_indices": i64_array(limits),
            "strides": i64_array(steps),
        },
    )
    return [taken], taken.results[0]


def _sliced(shape: Sequence[int], spatial: Sequence[int], phases: Sequence[_Phase]) -> list[int]:
    out = list(shape)
    for d, phase in zip(spatial, phases, strict=True):
        out[d] = phase.taps
    return out


class ConvolutionPhases(RewritePattern):
    """An f32 2-D convolution of at least MIN_MACS multiply-adds with an lhs dilation > 1
    -> per output phase a convolution without lhs dilation of the kernel's taps that
    meet input elements (an xla.slice of the kernel), and a generic interleaving the
    phases' outputs (see the module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConvolutionOp, rewriter: PatternRewriter):
        dilations = op.get_lhs_dilation() or ()
        if not any(d > 1 for d in dilations) or not _takes(op):
            return
        dims = op.dimension_numbers()
        lhs_shape, rhs_shape, out_shape = (shape_of(v.type) for v in (op.lhs, op.rhs, op.result))
        strides = op.get_window_strides() or (1, 1)
        rhs_dilations = op.get_rhs_dilation() or (1, 1)
        padding = op.get_padding() or ((0, 0), (0, 0))
        per_dim = [
            phases_of_dimension(
                lhs_shape[dims.input_spatial[i]],
                rhs_shape[dims.kernel_spatial[i]],
                strides[i],
                padding[i][0],
                dilations[i],
                rhs_dilations[i],
                out_shape[dims.output_spatial[i]],
            )
            for i in range(2)
        ]
        expected = list(out_shape)
        for i in range(2):
            expected[dims.output_spatial[i]] = per_dim[i].count
        new_ops: list[Operation] = []
        phases: dict[tuple[int, int], SSAValue | None] = {}
        for rh, phase_h in enumerate(per_dim[0].phases):
            for rw, phase_w in enumerate(per_dim[1].phases):
                if phase_h is None or phase_w is None:
                    phases[rh, rw] = None
                    continue
                taken, kernel = _taps(op.rhs, dims.kernel_spatial, per_dim, (phase_h, phase_w))
                conv = _convolution(
                    op,
                    op.lhs,
                    kernel,
                    {
                        "window_strides": i64_array([d.stride for d in per_dim]),
                        "rhs_dilation": i64_array([d.rhs_dilation for d in per_dim]),
                        "padding": i64_matrix([(p.low, p.high) for p in (phase_h, phase_w)]),
                        "lhs_dilation": None,
                    },
                )
                if conv is None or list(shape_of(conv.result.type)) != expected:
                    return
                new_ops += [*taken, conv]
                phases[rh, rw] = conv.result
        if all(v is None for v in phases.values()):
            return  # every position a hole: the generic's zeros, as they are
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        if len(phases) == 1:
            rewriter.replace(op, new_ops, list(phases.values()))
            return
        counts = [len(d.phases) for d in per_dim]
        rank = len(out_shape)
        element = elem_of(result_type)

        def body(args: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
            """Output (..., p_h, ..., p_w, ...) = phase (p_h mod P_h, p_w mod P_w) at
            (..., p_h / P_h, ..., p_w / P_w, ...)."""
            b = IndexArithmetic()
            loops = [b.loop_index(d) for d in range(rank)]
            indices = list(loops)
            residues: list[SSAValue | None] = []
            for i in range(2):
                d = dims.output_spatial[i]
                if counts[i] > 1:
                    indices[d] = b.div_const(loops[d], counts[i])
                    residues.append(b.rem_const(loops[d], counts[i]))
                else:
                    residues.append(None)
            zero = b.add_op(zero_constant(element))
            chosen: SSAValue | None = None
            for (rh, rw), phase in phases.items():
                value = zero if phase is None else b.add_op(tensor.ExtractOp(phase, indices, element))
                if chosen is None:
                    chosen = value
                    continue
                here = b.all_of(
                    [
                        b.cmp("eq", residue, b.const(r))
                        for residue, r in zip(residues, (rh, rw), strict=True)
                        if residue is not None
                    ]
                )
                assert here is not None
                chosen = b.add_op(arith.SelectOp(here, value, chosen))
            assert chosen is not None
            return b.ops, [chosen]

        interleave = identity_generic([], result_type, body)
        rewriter.replace(op, [*new_ops, *interleave], interleave[-1].results)


# --------------------------------------------------------------------------------------
# The kernel's layout
# --------------------------------------------------------------------------------------


class KernelLayoutForKernel(RewritePattern):
    """An f32 2-D convolution of at least MIN_MACS multiply-adds whose kernel has
    dimensions of more than one element both before and after its output features (an
    input gradient's `[0, 1, o, i]`) -> the same convolution of the kernel transposed
    with its output features last (the kernel's (input feature, window) run, which
    `linalg-conv-to-kernel` needs)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConvolutionOp, rewriter: PatternRewriter):
        if not _takes(op) or any(d > 1 for d in op.get_lhs_dilation() or ()):
            return
        dims = op.dimension_numbers()
        shape = shape_of(op.rhs.type)
        o = dims.kernel_output_feature
        if not (any(shape[d] > 1 for d in range(o)) and any(shape[d] > 1 for d in range(o + 1, len(shape)))):
            return
        permutation = [d for d in range(len(shape)) if d != o] + [o]
        position = {d: i for i, d in enumerate(permutation)}
        transposed = xla.TransposeOp.build(
            operands=[op.rhs],
            result_types=[tensor_type([shape[d] for d in permutation], elem_of(op.rhs.type))],
            properties={"permutation": i64_array(permutation)},
        )
        conv = _convolution(
            op,
            op.lhs,
            transposed.results[0],
            {
                "kernel_input_feature_dimension": IntegerAttr(position[dims.kernel_input_feature], i64),
                "kernel_output_feature_dimension": IntegerAttr(position[o], i64),
                "kernel_spatial_dimensions": i64_array([position[d] for d in dims.kernel_spatial]),
            },
        )
        if conv is None or conv.result.type != op.result.type:
            return
        rewriter.replace(op, [transposed, conv], conv.results)


# --------------------------------------------------------------------------------------
# Few output features
# --------------------------------------------------------------------------------------

# Output features up to which an output whose features are its innermost dimension is
# computed with the features outermost: the kernel's tile then holds them in its rows (8
# or 6 tall) instead of its columns (32 or 16 wide). A U-Net's 3-channel head, one
# thread: 1.0 -> 0.6 ms.
FEW_FEATURES = 8


class FewFeaturesFirst(RewritePattern):
    """An f32 2-D convolution of at least MIN_MACS multiply-adds, without groups, whose
    output has at most FEW_FEATURES features in its innermost dimension (an image's
    RGB head, a weight gradient of such a layer) -> the same convolution with the
    output features outermost, transposed back (a copy of the small output)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.ConvolutionOp, rewriter: PatternRewriter):
        if not _takes(op) or any(d > 1 for d in op.get_lhs_dilation() or ()):
            return
        if op.get_feature_group_count() != 1 or op.get_batch_group_count() != 1:
            return
        dims = op.dimension_numbers()
        shape = shape_of(op.result.type)
        f = dims.output_feature
        if f != len(shape) - 1 or shape[f] > FEW_FEATURES or shape[f] == 1:
            return
        order = [f] + [d for d in range(len(shape)) if d != f]  # new dimension i is old order[i]
        position = {d: i for i, d in enumerate(order)}
        conv = _convolution(
            op,
            op.lhs,
            op.rhs,
            {
                "output_batch_dimension": IntegerAttr(position[dims.output_batch], i64),
                "output_feature_dimension": IntegerAttr(0, i64),
                "output_spatial_dimensions": i64_array([position[d] for d in dims.output_spatial]),
            },
        )
        if conv is None:
            return
        back = xla.TransposeOp.build(
            operands=[conv.result],
            result_types=[op.result.type],
            properties={"permutation": i64_array([position[d] for d in range(len(shape))])},
        )
        rewriter.replace(op, [conv, back], back.results)
