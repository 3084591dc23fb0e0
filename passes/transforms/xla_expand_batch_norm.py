"""`xla-expand-batch-norm`: batch_norm_training, batch_norm_inference and batch_norm_grad
become plain xla ops (reduce, broadcast_in_dim, element-wise arithmetic, sqrt), as XLA's
BatchNormExpander does, so that no later stage needs to know them.

The expansion follows the spec's formulas in the interpreter's order of operations
(xla_opt/interpreter/batch_norm.py, the reference), with N the number of elements per
feature (the product of every dimension but `feature_index`):

* training:  mean = sum(x) / N, var = sum((x - mean)^2) / N (the two-pass variance),
  y = scale * (x - mean) / sqrt(var + epsilon) + offset;
* inference: y = scale * (x - mean) / sqrt(variance + epsilon) + offset;
* grad:      c = sum(dy (x - mean) / (var + eps)) / N, d = sum(dy) / N,
  dx = scale / sqrt(var + eps) * (dy - d - c (x - mean)),
  dscale = sum(dy (x - mean) / sqrt(var + eps)), doffset = sum(dy).

f16 and bf16 operands are computed in f32 and the results converted back (the
interpreter's compute type); f32 and f64 compute in themselves. Per-feature vectors are
broadcast along `feature_index` with broadcast_in_dim; sums are xla.reduce over the
other dimensions with an add reducer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, Float16Type, ModuleOp, f32
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_opt.dialects import xla
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs
from xla_opt.dialects.xla.computation import ReturnOp
from xla_opt.dialects.xla.element_types import elem_of, shape_of, tensor
from xla_opt.dialects.xla.properties import i64_array
from xla_opt.passes.conversions.convert_stablehlo_to_xla.common import Builder

from xla_opt.pattern_dispatch import ConversionWalker


class _Expander:
    """Builds the expansion of one batch norm op before it, in its compute type."""

    def __init__(self, op: xla.BatchNormOp):
        self.b = Builder(op)
        self.shape = shape_of(op.operand.type)  # type: ignore[attr-defined]
        self.element = elem_of(op.operand.type)  # type: ignore[attr-defined]
        # f16/bf16 compute in f32 (the interpreter's float_compute_dtype)
        self.compute = f32 if isinstance(self.element, Float16Type | BFloat16Type) else self.element
        self.feature_index = op.get_feature_index()
        self.others = [d for d in range(len(self.shape)) if d != self.feature_index]
        count = 1
        for d in self.others:
            count *= self.shape[d]
        self.count = self.scalar(count)
        self.epsilon = self.scalar(op.get_epsilon())

    def scalar(self, value: float) -> SSAValue:
        """A rank-0 constant of the compute type."""
        return self.b.constant(value, tensor((), self.compute))

    def widen(self, v: SSAValue) -> SSAValue:
        return self.b.convert(v, self.compute)

    def narrow(self, v: SSAValue) -> SSAValue:
        return self.b.convert(v, self.element)

    def per_feature(self, v: SSAValue) -> SSAValue:
        """A per-feature vector (compute type) broadcast along feature_index."""
        return self.b.one(
            xs.BroadcastInDimOp,
            [v],
            tensor(self.shape, self.compute),
            {"broadcast_dimensions": i64_array([self.feature_index])},
        )

    def sum(self, v: SSAValue) -> SSAValue:
        """The per-feature sum of `v` (every dimension but feature_index reduced)."""
        scalar = tensor((), self.compute)
        block = Block(arg_types=[scalar, scalar])
        add = xe.AddOp.build(operands=list(block.args), result_types=[scalar])
        block.add_ops([add, ReturnOp.build(operands=[[add.result]])])
        features = tensor((self.shape[self.feature_index],), self.compute)
        return self.b.build(
            xla.ReduceOp,
            [[v], [self.scalar(0.0)]],
            [features],
            {"dimensions": i64_array(self.others)},
            [Region(block)],
        ).results[0]

    def mean(self, v: SSAValue) -> SSAValue:
        """sum(v) / N, per feature."""
        return self.b.div(self.sum(v), self.count)

    def stddev(self, variance: SSAValue) -> SSAValue:
        """sqrt(variance + epsilon), per feature."""
        return self.b.unary(xe.SqrtOp, self.b.add_(variance, self.epsilon))

    def normalize(
        self, centered: SSAValue, scale: SSAValue, offset: SSAValue, variance: SSAValue
    ) -> SSAValue:
        """scale * centered / sqrt(variance + epsilon) + offset, in the operand's type;
        centered (x - mean) full-shaped, the others per-feature vectors, all of the
        compute type."""
        b, f = self.b, self.per_feature
        scaled = b.div(b.mul(f(scale), centered), f(self.stddev(variance)))
        return self.narrow(b.add_(scaled, f(offset)))


class ExpandBatchNormTraining(RewritePattern):
    """batch_norm_training -> mean = sum(x) / N, var = sum((x - mean)^2) / N,
    y = scale * (x - mean) / sqrt(var + epsilon) + offset."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.BatchNormTrainingOp, rewriter: PatternRewriter, /) -> None:
        e = _Expander(op)
        b = e.b
        x = e.widen(op.operand)
        mean = e.mean(x)
        centered = b.sub(x, e.per_feature(mean))
        variance = e.mean(b.mul(centered, centered))
        out = e.normalize(centered, e.widen(op.scale), e.widen(op.offset), variance)
        rewriter.replace(op, [], [out, e.narrow(mean), e.narrow(variance)])


class ExpandBatchNormInference(RewritePattern):
    """batch_norm_inference -> scale * (x - mean) / sqrt(variance + epsilon) + offset."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.BatchNormInferenceOp, rewriter: PatternRewriter, /) -> None:
        e = _Expander(op)
        centered = e.b.sub(e.widen(op.operand), e.per_feature(e.widen(op.mean)))
        out = e.normalize(centered, e.widen(op.scale), e.widen(op.offset), e.widen(op.variance))
        rewriter.replace(op, [], [out])


class ExpandBatchNormGrad(RewritePattern):
    """batch_norm_grad -> with N elements per feature, c = sum(dy (x - mean) / (var + eps)) / N,
    d = sum(dy) / N, dx = scale / sqrt(var + eps) * (dy - d - c (x - mean)),
    dscale = sum(dy (x - mean) / sqrt(var + eps)), doffset = sum(dy)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xla.BatchNormGradOp, rewriter: PatternRewriter, /) -> None:
        e = _Expander(op)
        b, f = e.b, e.per_feature
        x, dy = e.widen(op.operand), e.widen(op.grad_output)
        centered = b.sub(x, f(e.widen(op.mean)))
        var_eps = f(b.add_(e.widen(op.variance), e.epsilon))
        stddev = b.unary(xe.SqrtOp, var_eps)
        dy_centered = b.mul(dy, centered)
        c = e.mean(b.div(dy_centered, var_eps))
        sum_dy = e.sum(dy)
        d = b.div(sum_dy, e.count)
        correction = b.sub(b.sub(dy, f(d)), b.mul(f(c), centered))
        grad_x = b.mul(b.div(f(e.widen(op.scale)), stddev), correction)
        grad_scale = e.sum(b.div(dy_centered, stddev))
        results: Sequence[SSAValue] = [grad_x, grad_scale, sum_dy]
        rewriter.replace(op, [], [e.narrow(v) for v in results])


PATTERNS: list[RewritePattern] = [
    ExpandBatchNormTraining(),
    ExpandBatchNormInference(),
    ExpandBatchNormGrad(),
]


@dataclass(frozen=True)
class XlaExpandBatchNormPass(ModulePass):
    """Expands the batch normalizations into reduce, broadcast_in_dim and arithmetic."""

    name = "xla-expand-batch-norm"
    input_dialects = ("xla",)
    output_dialects = ("xla",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConversionWalker(list(PATTERNS), repeat=False).rewrite_module(op)

