"""Batch normalization: batch_norm_training, batch_norm_inference and batch_norm_grad
normalize an operand over every dimension but `feature_index`."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_opt.dialects.shapes.batch_norm import batch_norm_feature_size

from .base import XlaOp
from .element_types import elem_of, is_float, same_element_type, shape_of, tensor


class BatchNormOp(XlaOp):
    """Shared rules of the batch normalizations: floating-point operands of one element
    type, feature_index a dimension of operand, per-feature operands 1-D of its size."""

    epsilon = prop_def(FloatAttr)
    feature_index = prop_def(IntegerAttr.constr(type=i64))
    traits = traits_def(Pure())

    def per_feature_operands(self) -> dict[str, Attribute]:
        """The 1-D operands holding one value per feature, by name."""
        raise NotImplementedError

    def feature_vector_type(self) -> TensorType:
        """The 1-D type of the per-feature results: one element per feature."""
        features = batch_norm_feature_size(
            shape_of(self.operand.type),  # type: ignore[attr-defined]
            self.get_feature_index(),
            [(name, shape_of(t)) for name, t in self.per_feature_operands().items()],
        )
        return tensor((features,), elem_of(self.operand.type))  # type: ignore[attr-defined]

    def verify_xla(self) -> None:
        t = same_element_type(
            operand=self.operand.type,  # type: ignore[attr-defined]
            **self.per_feature_operands(),
        )
        if not is_float(t):
            raise VerifyException(f"operand element type {t} must be floating-point")


@irdl_op_definition
class BatchNormTrainingOp(BatchNormOp):
    """BatchNormTraining: normalizes operand over all dimensions but feature_index with
    the batch's mean and variance; scale and offset are 1-D of the feature size; the
    results are the output (operand's type), batch_mean and batch_var (1-D)."""

    name = "xla.batch_norm_training"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    output = result_def(TensorType)
    batch_mean = result_def(TensorType)
    batch_var = result_def(TensorType)

    def per_feature_operands(self) -> dict[str, Attribute]:
        return {"scale": self.scale.type, "offset": self.offset.type}

    def infer_result_types(self) -> list[Attribute]:
        vector = self.feature_vector_type()
        return [self.operand.type, vector, vector]


@irdl_op_definition
class BatchNormInferenceOp(BatchNormOp):
    """BatchNormInference: normalizes operand with the given mean and variance; scale,
    offset, mean and variance are 1-D of the feature size; the result has the
    operand's type."""

    name = "xla.batch_norm_inference"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    result = result_def(TensorType)

    def per_feature_operands(self) -> dict[str, Attribute]:
        return {
            "scale": self.scale.type,
            "offset": self.offset.type,
            "mean": self.mean.type,
            "variance": self.variance.type,
        }

    def infer_result_types(self) -> list[Attribute]:
        self.feature_vector_type()  # no per-feature result, but the operands' rules apply
        return [self.operand.type]


@irdl_op_definition
class BatchNormGradOp(BatchNormOp):
    """BatchNormGrad: the gradients of a batch normalization; scale, mean and variance
    are 1-D of the feature size and grad_output has the operand's type; the results are
    grad_operand (operand's type), grad_scale and grad_offset (1-D)."""

    name = "xla.batch_norm_grad"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    grad_output = operand_def(TensorType)
    grad_operand = result_def(TensorType)
    grad_scale = result_def(TensorType)
    grad_offset = result_def(TensorType)

    def per_feature_operands(self) -> dict[str, Attribute]:
        return {"scale": self.scale.type, "mean": self.mean.type, "variance": self.variance.type}

    def infer_result_types(self) -> list[Attribute]:
        if self.grad_output.type != self.operand.type:
            raise VerifyException(
                f"grad_output {self.grad_output.type} must have the operand's type "
                f"{self.operand.type}"
            )
        vector = self.feature_vector_type()
        return [self.operand.type, vector, vector]


BATCH_NORM_OPS = (BatchNormTrainingOp, BatchNormInferenceOp, BatchNormGradOp)
BATCH_NORM_ATTRS: tuple = ()
