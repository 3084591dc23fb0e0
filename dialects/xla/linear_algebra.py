"""The linear-algebra family: dot, dot_general, convolution, fft, cholesky and
triangular_solve.

The shape rules are the pure functions of `shapes.linear_algebra`; the ops add the
element-type rules and compare the inferred result types with the declared ones."""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xla_opt.dialects.shapes.linear_algebra import (
    ConvDimensionNumbers,
    check_square_matrices,
    convolution_shape,
    dot_general_shape,
    dot_shape,
    fft_shape,
    triangular_solve_shape,
)

from .base import XlaOp
from .element_types import elem_of, is_complex, is_float, same_element_type, shape_of, tensor
from .properties import verified_int_matrix


def _check_float_or_complex(t: Attribute, what: str) -> None:
    if not (is_float(t) or is_complex(t)):
        raise VerifyException(f"{what} element type {t} must be floating-point or complex")


# --------------------------------------------------------------------------------------
# Dot, DotGeneral
# --------------------------------------------------------------------------------------


@irdl_op_definition
class DotOp(XlaOp):
    """Dot: sums products over lhs's last and rhs's first dimension, of one size and one
    element type: vector.vector -> scalar, matrix.vector -> vector, vector.matrix ->
    vector, matrix.matrix -> matrix."""

    name = "xla.dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = dot_shape(shape_of(self.lhs.type), shape_of(self.rhs.type))
        return [tensor(shape, elem_of(self.lhs.type))]

    def verify_xla(self) -> None:
        same_element_type(lhs=self.lhs.type, rhs=self.rhs.type)


@irdl_op_definition
class DotGeneralOp(XlaOp):
    """DotGeneral: batching and contracting dimensions (absent = none) are in range,
    unique and disjoint on each side, paired lhs/rhs with equal sizes; the result holds
    the batch dimensions, then lhs's free ones, then rhs's free ones."""

    name = "xla.dot_general"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    lhs_batching_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    rhs_batching_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    lhs_contracting_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    rhs_contracting_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {
        "lhs_batching_dimensions": (),
        "rhs_batching_dimensions": (),
        "lhs_contracting_dimensions": (),
        "rhs_contracting_dimensions": (),
    }

    def infer_result_types(self) -> list[Attribute]:
        shape = dot_general_shape(
            shape_of(self.lhs.type),
            shape_of(self.rhs.type),
            self.get_lhs_batching_dimensions(),
            self.get_rhs_batching_dimensions(),
            self.get_lhs_contracting_dimensions(),
            self.get_rhs_contracting_dimensions(),
        )
        return [tensor(shape, elem_of(self.lhs.type))]

    def verify_xla(self) -> None:
        same_element_type(lhs=self.lhs.type, rhs=self.rhs.type)


# --------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConvolutionOp(XlaOp):
    """ConvWithGeneralPadding: lhs (input), rhs (kernel) and result have rank n+2; the
    dimension numbers permute each one's dimensions; input features = kernel input
    features * feature_group_count; feature_group_count divides the input and kernel
    output features, batch_group_count the input batch and kernel output features, and
    they are not both > 1; window_strides, lhs_dilation, rhs_dilation (>= 1, absent = 1)
    and padding pairs [[low, high], ...] (absent = 0) come one per spatial dimension.

        %r = xla.convolution %lhs, %rhs, window_strides = [1, 1], padding = [[0, 0], [1, 1]],
               input_batch_dimension = 0, input_feature_dimension = 1,
               input_spatial_dimensions = [2, 3], ... : (T0, T1) -> R
    """

    name = "xla.convolution"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase.constr(i64))
    rhs_dilation = opt_prop_def(DenseArrayBase.constr(i64))
    input_batch_dimension = prop_def(IntegerAttr.constr(type=i64))
    input_feature_dimension = prop_def(IntegerAttr.constr(type=i64))
    input_spatial_dimensions = prop_def(DenseArrayBase.constr(i64))
    kernel_input_feature_dimension = prop_def(IntegerAttr.constr(type=i64))
    kernel_output_feature_dimension = prop_def(IntegerAttr.constr(type=i64))
    kernel_spatial_dimensions = prop_def(DenseArrayBase.constr(i64))
    output_batch_dimension = prop_def(IntegerAttr.constr(type=i64))
    output_feature_dimension = prop_def(IntegerAttr.constr(type=i64))
    output_spatial_dimensions = prop_def(DenseArrayBase.constr(i64))
    feature_group_count = opt_prop_def(IntegerAttr.constr(type=i64))
    batch_group_count = opt_prop_def(IntegerAttr.constr(type=i64))
    traits = traits_def(Pure())
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"feature_group_count": 1, "batch_group_count": 1}

    def dimension_numbers(self) -> ConvDimensionNumbers:
        return ConvDimensionNumbers(
            input_batch=self.get_input_batch_dimension(),
            input_feature=self.get_input_feature_dimension(),
            input_spatial=self.get_input_spatial_dimensions(),
            kernel_input_feature=self.get_kernel_input_feature_dimension(),
            kernel_output_feature=self.get_kernel_output_feature_dimension(),
            kernel_spatial=self.get_kernel_spatial_dimensions(),
            output_batch=self.get_output_batch_dimension(),
            output_feature=self.get_output_feature_dimension(),
            output_spatial=self.get_output_spatial_dimensions(),
        )

    def infer_result_types(self) -> list[Attribute]:
        shape = convolution_shape(
            shape_of(self.lhs.type),
            shape_of(self.rhs.type),
            self.dimension_numbers(),
            window_strides=self.get_window_strides(),
            padding=self.get_padding(),
            lhs_dilation=self.get_lhs_dilation(),
            rhs_dilation=self.get_rhs_dilation(),
            feature_group_count=self.get_feature_group_count(),
            batch_group_count=self.get_batch_group_count(),
        )
        return [tensor(shape, elem_of(self.lhs.type))]

    def verify_xla(self) -> None:
        same_element_type(lhs=self.lhs.type, rhs=self.rhs.type)
        if self.padding is not None:
            verified_int_matrix(self.padding, "padding")
        n = len(self.get_input_spatial_dimensions())
        result_rank = len(shape_of(self.result.type))
        if result_rank != n + 2:
            raise VerifyException(
                f"result {self.result.type} must have rank {n + 2} (n+2 for {n} spatial "
                "dimensions)"
            )


# --------------------------------------------------------------------------------------
# Fft
# --------------------------------------------------------------------------------------


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    name = "xla.fft_type"


@irdl_op_definition
class FftOp(XlaOp):
    """Fft: transforms the 1 to 3 innermost axes of lengths fft_length; FFT/IFFT map
    complex to the same complex type and shape; RFFT maps f32/f64 to complex<f32/f64>,
    its innermost axes equal to fft_length, the last shrunk to fft_length[-1] // 2 + 1;
    IRFFT maps complex back to real, expanding the last axis to fft_length[-1]."""

    name = "xla.fft"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())

    def result_element_type(self) -> Attribute:
        t = elem_of(self.operand.type)
        kind = self.fft_type.data
        if kind == FftType.RFFT:
            if not isinstance(t, Float32Type | Float64Type):
                raise VerifyException(f"RFFT operand element type {t} must be f32 or f64")
            return ComplexType(t)
        if not isinstance(t, ComplexType):
            raise VerifyException(f"{kind.value} operand element type {t} must be complex")
        return t.element_type if kind == FftType.IRFFT else t  # type: ignore[return-value]

    def infer_result_types(self) -> list[Attribute]:
        shape = fft_shape(
            shape_of(self.operand.type), self.get_fft_type(), self.get_fft_length()
        )
        return [tensor(shape, self.result_element_type())]


# --------------------------------------------------------------------------------------
# Cholesky, TriangularSolve
# --------------------------------------------------------------------------------------


@irdl_op_definition
class CholeskyOp(XlaOp):
    """Cholesky: a batch of square floating-point or complex matrices (rank >= 2) is
    factored into its lower (lower = true) or upper (absent or false) triangle; the
    result has the operand's type."""

    name = "xla.cholesky"
    a = operand_def(TensorType)
    result = result_def(TensorType)
    lower = opt_prop_def(BoolAttr)
    PROPERTY_DEFAULTS: ClassVar[dict[str, Any]] = {"lower": False}
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        return [self.a.type]

    def verify_xla(self) -> None:
        _check_float_or_complex(elem_of(self.a.type), "a")
        check_square_matrices(shape_of(self.a.type), "a")


class Transpose(StrEnum):
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    name = "xla.transpose_kind"


@irdl_op_definition
class TriangularSolveOp(XlaOp):
    """TriangularSolve: solves op(a) * x = b (left_side) or x * op(a) = b for x, where
    a is a batch of square [..., M, M] matrices and b, of a's element type and batch
    dimensions, is [..., M, K] (left_side) or [..., K, M]; the result has b's type."""

    name = "xla.triangular_solve"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    traits = traits_def(Pure())

    def infer_result_types(self) -> list[Attribute]:
        shape = triangular_solve_shape(
            shape_of(self.a.type), shape_of(self.b.type), bool(self.get_left_side())
        )
        return [tensor(shape, elem_of(self.b.type))]

    def verify_xla(self) -> None:
        t = same_element_type(a=self.a.type, b=self.b.type)
        _check_float_or_complex(t, "a")


# --------------------------------------------------------------------------------------
# Batch normalization
# --------------------------------------------------------------------------------------


LINEAR_ALGEBRA_OPS = (DotOp, DotGeneralOp, ConvolutionOp, FftOp, CholeskyOp, TriangularSolveOp)
LINEAR_ALGEBRA_ATTRS = (FftTypeAttr, TransposeAttr)
