"""VHLO, StableHLO's versioned dialect, read from bytecode and upgraded to StableHLO.

A StableHLO portable artifact (what `jax.export` and `serialize_portable_artifact`
write, producer `StableHLO_vX.Y.Z`) is MLIR bytecode of the `vhlo` dialect: every op
of a version (`vhlo.add_v1`, `vhlo.dot_general_v2`), versioned attributes
(`#vhlo.tensor_v1<...>`) and types (`!vhlo.f32_v1`). StableHLO's sources are the
reference: `stablehlo/dialect/VhloBytecode.cpp` (the encodings: attribute codes 1-25,
type codes 0-42), `VhloOps.td` (each op version's attributes, `VHLO_OPS` below),
`transforms/VhloToVersion*` (how an older version upgrades) and
`transforms/VhloLegalizeToStablehlo.cpp` (what StableHLO attribute each becomes, and
which values are defaults to drop).

Here each op of any version StableHLO >= 0.9 writes becomes the StableHLO op our
parser would have made of the text JAX prints (`dialects/stablehlo/`), in one step:

* types become builtin types (`!vhlo.tensor_v1<4x!vhlo.f32_v1>` is `tensor<4xf32>`,
  `si32` signless `i32`, `!vhlo.token_v1` `!stablehlo.token`);
* an older op version is read with the defaults its newer version adds (`all_gather_v1`
  is `all_gather_v2` of one operand, `dot_general_v1` has no algorithm, `exponential_v1`
  the default accuracy...);
* attributes become StableHLO's: dimension lists of `broadcast_in_dim`, `slice`,
  `transpose`... `array<i64: ...>`, the dimension numbers of dot_general, gather,
  scatter and convolution one structured attribute, `channel_id` a channel handle,
  enums StableHLO's enums, and the defaults StableHLO drops are dropped;
* `vhlo.func_v1`, `vhlo.call_v1` and a function's `vhlo.return_v1` are `func`'s ops.

An op, attribute or type this reader does not know (a newer StableHLO's, or
quantized, buffer and future types, which the import has no use for) is a one-line
`BytecodeError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatTF32Type,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    UnitAttr,
    UnrankedTensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation

from .bytecode import (
    MLIR_DYNAMIC,
    BytecodeError,
    BytecodeReader,
    DialectCodec,
    EntryReader,
    OpParts,
    apint,
    dense_from_raw,
    float_from_bits,
    float_width,
    integer_value,
    shape_of,
)

# --------------------------------------------------------------------------------------
# VHLO's attributes, as read (converted to StableHLO's by the op that holds them)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VArray:
    items: tuple[Any, ...]


@dataclass(frozen=True)
class VBool:
    value: bool


@dataclass(frozen=True)
class VEnum:
    kind: str  # comparison_direction, precision...
    value: str


@dataclass(frozen=True)
class VDict:
    items: tuple[tuple[Any, Any], ...]


@dataclass(frozen=True)
class VFloat:
    type: Attribute
    value: float


@dataclass(frozen=True)
class VInt:
    type: Attribute
    value: int


@dataclass(frozen=True)
class VString:
    value: str


@dataclass(frozen=True)
class VTensor:
    type: Attribute
    raw: bytes

    def ints(self) -> list[int]:
        """Its integers, read from the raw buffer (a splat repeated)."""
        cached = self.__dict__.get("_ints")
        if cached is not None:
            return cached
        t = self.type
        if not isinstance(t, TensorType) or not isinstance(t.element_type, IntegerType | IndexType):
            raise BytecodeError(f"not an integer tensor: {t}")
        et = t.element_type
        width = 64 if isinstance(et, IndexType) else et.width.data
        size = max(1, (width + 7) // 8)
        count = 1
        for d in t.get_shape():
            count *= d
        raw = self.raw
        if len(raw) == size and count != 1:
            raw = raw * count
        if len(raw) != count * size:
            raise BytecodeError(f"{len(self.raw)} bytes for {count} elements of {t}")
        unsigned = isinstance(et, IntegerType) and (et.signedness.data == Signedness.UNSIGNED or width == 1)
        values = [int.from_bytes(raw[i : i + size], "little", signed=not unsigned) for i in range(0, len(raw), size)]
        self.__dict__["_ints"] = values
        return values

    def dense(self) -> DenseIntOrFPElementsAttr:
        return dense_from_raw(self.type, self.raw)


@dataclass(frozen=True)
class VType:
    type: Attribute


@dataclass(frozen=True)
class VOutputOperandAlias:
    output_tuple_indices: tuple[int, ...]
    operand_index: int
    operand_tuple_indices: tuple[int, ...]


@dataclass(frozen=True)
class VTypeExtensions:
    bounds: tuple[int, ...]


@dataclass(frozen=True)
class VResultAccuracy:
    atol: float
    rtol: float
    ulps: int
    mode: Any


@dataclass(frozen=True)
class VOther:
    """A Shardy-style attribute VHLO carries (axes, meshes): not used by the import."""

    kind: str
    fields: tuple[Any, ...]


ENUMS = {
    3: ("comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT")),
    4: ("comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")),
    5: (
        "custom_call_api_version",
        (
            "API_VERSION_UNSPECIFIED",
            "API_VERSION_ORIGINAL",
            "API_VERSION_STATUS_RETURNING",
            "API_VERSION_STATUS_RETURNING_UNIFIED",
            "API_VERSION_TYPED_FFI",
        ),
    ),
    7: ("fft_type", ("FFT", "IFFT", "RFFT", "IRFFT")),
    11: ("precision", ("DEFAULT", "HIGH", "HIGHEST")),
    12: ("rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX")),
    13: ("rng_distribution", (None, "UNIFORM", "NORMAL")),  # UNIFORM is 1
    16: ("transpose", ("TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")),
    19: ("result_accuracy_mode", ("DEFAULT", "HIGHEST", "TOLERANCE")),
}


def _int_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    raise BytecodeError(f"an integer attribute of type {t}")


def _read_tensor(r: EntryReader) -> VTensor:
    t = r.type()
    blob = r.blob()
    if isinstance(t, TensorType) and isinstance(t.element_type, IntegerType) and t.element_type.width.data == 1:
        count = 1
        for d in t.get_shape():
            count *= max(d, 0)
        packed = (count + 7) // 8
        if len(blob) == 1 and blob[0] == 0xFF:  # a splat of true
            blob = b"\x01"
        elif len(blob) == packed and len(blob) != count:
            blob = bytes((blob[i // 8] >> (i % 8)) & 1 for i in range(count))
    return VTensor(t, blob)


def _read_enum(r: EntryReader, code: int) -> VEnum:
    kind, names = ENUMS[code]
    v = r.varint()
    if v >= len(names) or names[v] is None:
        raise r.error(f"unknown value {v} of the VHLO enum {kind}")
    return VEnum(kind, names[v])  # type: ignore[arg-type]


def _read_dict(r: EntryReader) -> VDict:
    items = []
    for _ in range(r.varint()):
        items.append((r.attribute(), r.attribute()))
    return VDict(tuple(items))


def _read_float(r: EntryReader) -> VFloat:
    t = r.type()
    return VFloat(t, float_from_bits(apint(r, float_width(t)), t))


def _read_int(r: EntryReader) -> VInt:
    t = r.type()
    return VInt(t, integer_value(apint(r, _int_width(t)), t))


def _read_bool(r: EntryReader) -> VBool:
    v = r.varint()
    if v > 1:
        raise r.error(f"a VHLO boolean of value {v}")
    return VBool(v == 1)


def _read_accuracy(r: EntryReader) -> VResultAccuracy:
    atol = float_from_bits(apint(r, 64), Float64Type())
    rtol = float_from_bits(apint(r, 64), Float64Type())
    return VResultAccuracy(atol, rtol, r.svarint(), r.attribute())


def _read_axis_ref(r: EntryReader) -> VOther:
    name = r.attribute()
    sub = r.attribute() if r.varint() else None
    return VOther("axis_ref", (name, sub))


_VHLO_ATTRS = {
    1: lambda r: VArray(tuple(r.attributes())),
    2: _read_bool,
    6: _read_dict,
    8: _read_float,
    9: _read_int,
    10: lambda r: VOutputOperandAlias(tuple(r.svarints()), r.svarint(), tuple(r.svarints())),
    14: lambda r: VString(r.string()),
    15: _read_tensor,
    17: lambda r: VType(r.type()),
    18: lambda r: VTypeExtensions(tuple(r.svarints())),
    20: _read_accuracy,
    21: lambda r: VOther("sub_axis_info", (r.svarint(), r.svarint())),
    22: _read_axis_ref,
    23: lambda r: VOther("replica_group_mesh_axes", (r.attribute(), r.attribute())),
    24: lambda r: VOther("mesh_axis", (r.attribute(), r.svarint())),
    25: lambda r: VOther("mesh", (r.attribute(), r.optional_attribute())),
}

# --------------------------------------------------------------------------------------
# VHLO's types, read as builtin (and StableHLO) types
# --------------------------------------------------------------------------------------


def _token() -> Attribute:
    from xla_opt.dialects.stablehlo.attrs import StablehloTokenType

    return StablehloTokenType()


def _vhlo_tensor(r: EntryReader, with_encoding: bool) -> TensorType:
    encoding: Attribute = NoneAttr()
    if with_encoding:
        value = r.attribute()
        if isinstance(value, VTypeExtensions):
            encoding = _bounds(value)
        elif isinstance(value, Attribute):
            encoding = value
        else:
            raise r.error(f"a tensor encoding VHLO does not define: {value!r}")
    shape = shape_of(r.svarints())
    return TensorType(r.type(), shape, encoding)


def _bounds(value: VTypeExtensions) -> Attribute:
    from xla_opt.dialects.stablehlo.attrs import STABLEHLO_ATTRS

    cls = next(a for a in STABLEHLO_ATTRS if a.name == "stablehlo.bounds")
    body = ", ".join("?" if b == MLIR_DYNAMIC else str(b) for b in value.bounds)
    return cls(StringAttr(body))  # type: ignore[call-arg]


def _unsupported(what: str):
    def read(r: EntryReader) -> Any:
        raise r.error(f"{what} are not read")

    return read


def _si(width: int):
    return lambda r: IntegerType(width)


def _ui(width: int):
    return lambda r: IntegerType(width, Signedness.UNSIGNED)


_VHLO_TYPES = {
    0: lambda r: i1,
    1: lambda r: ComplexType(r.type()),
    2: lambda r: BFloat16Type(),
    3: lambda r: Float16Type(),
    4: lambda r: Float32Type(),
    5: lambda r: Float64Type(),
    6: lambda r: Float8E4M3FNType(),
    7: lambda r: Float8E5M2Type(),
    8: lambda r: FunctionType.from_lists(r.types(), r.types()),
    9: lambda r: IndexType(),
    10: _si(4),
    11: _si(8),
    12: _si(16),
    13: _si(32),
    14: _si(64),
    15: _ui(4),
    16: _ui(8),
    17: _ui(16),
    18: _ui(32),
    19: _ui(64),
    20: lambda r: _vhlo_tensor(r, False),
    21: lambda r: _vhlo_tensor(r, True),
    22: lambda r: _token(),
    23: lambda r: TupleType(r.types()),
    24: _unsupported("quantized types (!vhlo.quant_v1)"),
    25: lambda r: UnrankedTensorType(r.type()),
    26: _unsupported("witness types (!vhlo.witness_v1)"),
    27: lambda r: Float8E4M3FNUZType(),
    28: lambda r: Float8E5M2FNUZType(),
    29: lambda r: Float8E4M3B11FNUZType(),
    30: _unsupported("per-axis quantized types (!vhlo.quant_per_axis_v1)"),
    31: _si(2),
    32: _ui(2),
    33: lambda r: NoneType(),
    34: lambda r: FloatTF32Type(),
    35: lambda r: Float8E4M3Type(),
    36: lambda r: Float8E3M4Type(),
    37: lambda r: Float4E2M1FNType(),
    38: lambda r: Float6E2M3FNType(),
    39: lambda r: Float6E3M2FNType(),
    40: lambda r: Float8E8M0FNUType(),
    41: _unsupported("buffer types (!vhlo.buffer_v1, StableHLO 1.13)"),
    42: _unsupported("future types (!vhlo.future_v1, async ops of StableHLO 1.15)"),
}

# --------------------------------------------------------------------------------------
# Every op version: (first StableHLO version, last, its attributes), from VhloOps.td
# --------------------------------------------------------------------------------------

# fmt: off
VHLO_OPS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "abs_v1": ("0.9.0", "current", ()),
    "add_v1": ("0.9.0", "current", ()),
    "after_all_v1": ("0.9.0", "current", ()),
    "all_gather_v1": ("0.9.0", "1.4.0", ('all_gather_dim', 'replica_groups', 'channel_id', 'use_global_device_ids')),
    "all_gather_v2": ("1.5.0", "current", ('all_gather_dim', 'replica_groups', 'channel_id', 'use_global_device_ids')),
    "all_reduce_v1": ("0.9.0", "1.4.0", ('replica_groups', 'channel_id', 'use_global_device_ids')),
    "all_reduce_v2": ("1.5.0", "current", ('replica_groups', 'channel_id', 'use_global_device_ids')),
    "all_to_all_v1": ("0.9.0", "1.4.0", ('split_dimension', 'concat_dimension', 'split_count', 'replica_groups', 'channel_id')),
    "all_to_all_v2": ("1.5.0", "current", ('split_dimension', 'concat_dimension', 'split_count', 'replica_groups', 'channel_id')),
    "and_v1": ("0.9.0", "current", ()),
    "async_start_v1": ("1.15.0", "current", ()),
    "async_done_v1": ("1.15.0", "current", ()),
    "atan2_v1": ("0.9.0", "current", ()),
    "batch_norm_grad_v1": ("0.9.0", "current", ('epsilon', 'feature_index')),
    "batch_norm_inference_v1": ("0.9.0", "current", ('epsilon', 'feature_index')),
    "batch_norm_training_v1": ("0.9.0", "current", ('epsilon', 'feature_index')),
    "bitcast_convert_v1": ("0.9.0", "current", ()),
    "broadcast_in_dim_v1": ("0.9.0", "current", ('broadcast_dimensions',)),
    "broadcast_v1": ("0.9.0", "current", ('broadcast_sizes',)),
    "call_v1": ("0.9.0", "current", ('callee',)),
    "case_v1": ("0.9.0", "current", ()),
    "cbrt_v1": ("0.9.0", "1.9.0", ()),
    "cbrt_v2": ("1.10.0", "current", ('result_accuracy',)),
    "ceil_v1": ("0.9.0", "current", ()),
    "cholesky_v1": ("0.9.0", "current", ('lower',)),
    "clamp_v1": ("0.9.0", "current", ()),
    "count_leading_zeros_v1": ("0.9.0", "current", ()),
    "collective_broadcast_v1": ("0.16.0", "1.19.0", ('replica_groups', 'channel_id')),
    "collective_broadcast_v2": ("1.20.0", "current", ('replica_groups', 'channel_id', 'has_dynamic_root')),
    "collective_reduce_v1": ("1.19.0", "current", ('replica_groups', 'channel_id', 'use_global_device_ids', 'has_dynamic_root')),
    "collective_permute_v1": ("0.9.0", "current", ('source_target_pairs', 'channel_id')),
    "compare_v1": ("0.9.0", "current", ('comparison_direction', 'compare_type')),
    "complex_v1": ("0.9.0", "current", ()),
    "composite_v1": ("0.19.0", "1.13.0", ('name', 'composite_attributes', 'decomposition', 'version')),
    "composite_v2": ("1.14.0", "current", ('name', 'composite_attributes', 'decomposition', 'version')),
    "concatenate_v1": ("0.9.0", "current", ('dimension',)),
    "constant_v1": ("0.9.0", "current", ('value',)),
    "convert_v1": ("0.9.0", "current", ()),
    "convolution_v1": ("0.9.0", "current", ('window_strides', 'padding', 'lhs_dilation', 'rhs_dilation', 'window_reversal', 'input_batch_dimension', 'input_feature_dimension', 'input_spatial_dimensions', 'kernel_input_feature_dimension', 'kernel_output_feature_dimension', 'kernel_spatial_dimensions', 'output_batch_dimension', 'output_feature_dimension', 'output_spatial_dimensions', 'feature_group_count', 'batch_group_count', 'precision_config')),
    "cosine_v1": ("0.9.0", "1.9.0", ()),
    "cosine_v2": ("1.10.0", "current", ('result_accuracy',)),
    "create_token_v1": ("0.9.0", "current", ()),
    "cross-replica-sum_v1": ("0.9.0", "current", ('replica_groups',)),
    "custom_call_v1": ("0.9.0", "1.17.0", ('call_target_name', 'has_side_effect', 'backend_config', 'api_version', 'called_computations', 'operand_layouts', 'result_layouts', 'output_operand_aliases')),
    "custom_call_v2": ("1.18.0", "current", ('call_target_name', 'has_side_effect', 'backend_config', 'api_version', 'called_computations', 'operand_layouts', 'result_layouts', 'output_operand_aliases', 'result_tilings')),
    "divide_v1": ("0.9.0", "current", ()),
    "dot_general_v1": ("0.9.0", "1.5.0", ('lhs_batching_dimensions', 'rhs_batching_dimensions', 'lhs_contracting_dimensions', 'rhs_contracting_dimensions', 'precision_config')),
    "dot_general_v2": ("1.6.0", "current", ('lhs_batching_dimensions', 'rhs_batching_dimensions', 'lhs_contracting_dimensions', 'rhs_contracting_dimensions', 'precision_config', 'lhs_precision_type', 'rhs_precision_type', 'accumulation_type', 'lhs_component_count', 'rhs_component_count', 'num_primitive_operations', 'allow_imprecise_accumulation')),
    "dot_v1": ("0.9.0", "current", ('precision_config',)),
    "dynamic_broadcast_in_dim_v1": ("0.9.0", "current", ('broadcast_dimensions', 'known_expanding_dimensions', 'known_nonexpanding_dimensions')),
    "dynamic_conv_v1": ("0.9.0", "0.19.0", ('window_strides', 'padding', 'lhs_dilation', 'rhs_dilation', 'window_reversal', 'input_batch_dimension', 'input_feature_dimension', 'input_spatial_dimensions', 'kernel_input_feature_dimension', 'kernel_output_feature_dimension', 'kernel_spatial_dimensions', 'output_batch_dimension', 'output_feature_dimension', 'output_spatial_dimensions', 'feature_group_count', 'batch_group_count', 'precision_config')),
    "dynamic_conv_v2": ("0.20.0", "current", ('window_strides', 'lhs_dilation', 'rhs_dilation', 'window_reversal', 'input_batch_dimension', 'input_feature_dimension', 'input_spatial_dimensions', 'kernel_input_feature_dimension', 'kernel_output_feature_dimension', 'kernel_spatial_dimensions', 'output_batch_dimension', 'output_feature_dimension', 'output_spatial_dimensions', 'feature_group_count', 'batch_group_count', 'precision_config')),
    "dynamic_gather_v1": ("0.9.0", "1.0.0", ('offset_dims', 'collapsed_slice_dims', 'start_index_map', 'index_vector_dim', 'indices_are_sorted')),
    "dynamic_gather_v2": ("1.1.0", "current", ('offset_dims', 'collapsed_slice_dims', 'operand_batching_dims', 'start_indices_batching_dims', 'start_index_map', 'index_vector_dim', 'indices_are_sorted')),
    "dynamic_iota_v1": ("0.9.0", "current", ('iota_dimension',)),
    "dynamic_pad_v1": ("0.9.0", "current", ()),
    "dynamic_reshape_v1": ("0.9.0", "current", ()),
    "dynamic_slice_v1": ("0.9.0", "current", ('slice_sizes',)),
    "dynamic_update_slice_v1": ("0.9.0", "current", ()),
    "einsum_v1": ("0.9.0", "current", ('einsum_config',)),
    "exponential_minus_one_v1": ("0.9.0", "1.9.0", ()),
    "exponential_minus_one_v2": ("1.10.0", "current", ('result_accuracy',)),
    "exponential_v1": ("0.9.0", "1.8.0", ()),
    "exponential_v2": ("1.9.0", "current", ('result_accuracy',)),
    "fft_v1": ("0.9.0", "current", ('fft_type', 'fft_length')),
    "floor_v1": ("0.9.0", "current", ()),
    "func_v1": ("0.9.0", "current", ('sym_name', 'function_type', 'sym_visibility', 'arg_attrs', 'res_attrs')),
    "gather_v1": ("0.9.0", "1.0.0", ('offset_dims', 'collapsed_slice_dims', 'start_index_map', 'index_vector_dim', 'slice_sizes', 'indices_are_sorted')),
    "gather_v2": ("1.1.0", "current", ('offset_dims', 'collapsed_slice_dims', 'operand_batching_dims', 'start_indices_batching_dims', 'start_index_map', 'index_vector_dim', 'slice_sizes', 'indices_are_sorted')),
    "get_dimension_size_v1": ("0.9.0", "current", ('dimension',)),
    "get_tuple_element_v1": ("0.9.0", "current", ('index',)),
    "if_v1": ("0.9.0", "current", ()),
    "imag_v1": ("0.9.0", "current", ()),
    "infeed_v1": ("0.9.0", "current", ('infeed_config', 'layout')),
    "iota_v1": ("0.9.0", "current", ('iota_dimension',)),
    "is_finite_v1": ("0.9.0", "current", ()),
    "log_plus_one_v1": ("0.9.0", "1.9.0", ()),
    "log_plus_one_v2": ("1.10.0", "current", ('result_accuracy',)),
    "logistic_v1": ("0.9.0", "1.9.0", ()),
    "logistic_v2": ("1.10.0", "current", ('result_accuracy',)),
    "log_v1": ("0.9.0", "1.9.0", ()),
    "log_v2": ("1.10.0", "current", ('result_accuracy',)),
    "map_v1": ("0.9.0", "current", ('dimensions',)),
    "maximum_v1": ("0.9.0", "current", ()),
    "minimum_v1": ("0.9.0", "current", ()),
    "multiply_v1": ("0.9.0", "current", ()),
    "negate_v1": ("0.9.0", "current", ()),
    "not_v1": ("0.9.0", "current", ()),
    "optimization_barrier_v1": ("0.9.0", "current", ()),
    "or_v1": ("0.9.0", "current", ()),
    "outfeed_v1": ("0.9.0", "current", ('outfeed_config',)),
    "pad_v1": ("0.9.0", "current", ('edge_padding_low', 'edge_padding_high', 'interior_padding')),
    "partition_id_v1": ("0.9.0", "current", ()),
    "popcnt_v1": ("0.9.0", "current", ()),
    "power_v1": ("0.9.0", "current", ()),
    "real_dynamic_slice_v1": ("0.9.0", "current", ()),
    "real_v1": ("0.9.0", "current", ()),
    "recv_v1": ("0.9.0", "1.11.0", ('channel_id', 'channel_type', 'is_host_transfer')),
    "recv_v2": ("1.12.0", "current", ('channel_id', 'channel_type', 'is_host_transfer', 'source_target_pairs')),
    "reduce_v1": ("0.9.0", "current", ('dimensions',)),
    "reduce_precision_v1": ("0.9.0", "current", ('exponent_bits', 'mantissa_bits')),
    "reduce_scatter_v1": ("0.9.0", "current", ('scatter_dimension', 'replica_groups', 'channel_id', 'use_global_device_ids')),
    "reduce_window_v1": ("0.9.0", "current", ('window_dimensions', 'window_strides', 'base_dilations', 'window_dilations', 'padding')),
    "remainder_v1": ("0.9.0", "current", ()),
    "replica_id_v1": ("0.9.0", "current", ()),
    "reshape_v1": ("0.9.0", "current", ()),
    "return_v1": ("0.9.0", "current", ()),
    "reverse_v1": ("0.9.0", "current", ('dimensions',)),
    "rng_bit_generator_v1": ("0.9.0", "current", ('rng_algorithm',)),
    "rng_v1": ("0.9.0", "current", ('rng_distribution',)),
    "round_nearest_even_v1": ("0.9.0", "current", ()),
    "round_nearest_afz_v1": ("0.9.0", "current", ()),
    "rsqrt_v1": ("0.9.0", "1.9.0", ()),
    "rsqrt_v2": ("1.10.0", "current", ('result_accuracy',)),
    "scatter_v1": ("0.9.0", "1.0.0", ('update_window_dims', 'inserted_window_dims', 'scatter_dims_to_operand_dims', 'index_vector_dim', 'indices_are_sorted', 'unique_indices')),
    "scatter_v2": ("1.1.0", "current", ('update_window_dims', 'inserted_window_dims', 'input_batching_dims', 'scatter_indices_batching_dims', 'scatter_dims_to_operand_dims', 'index_vector_dim', 'indices_are_sorted', 'unique_indices')),
    "select_and_scatter_v1": ("0.9.0", "current", ('window_dimensions', 'window_strides', 'padding')),
    "select_v1": ("0.9.0", "current", ()),
    "send_v1": ("0.9.0", "1.11.0", ('channel_id', 'channel_type', 'is_host_transfer')),
    "send_v2": ("1.12.0", "current", ('channel_id', 'channel_type', 'is_host_transfer', 'source_target_pairs')),
    "set_dimension_size_v1": ("0.9.0", "current", ('dimension',)),
    "shift_left_v1": ("0.9.0", "current", ()),
    "shift_right_arithmetic_v1": ("0.9.0", "current", ()),
    "shift_right_logical_v1": ("0.9.0", "current", ()),
    "sign_v1": ("0.9.0", "current", ()),
    "sine_v1": ("0.9.0", "1.9.0", ()),
    "sine_v2": ("1.10.0", "current", ('result_accuracy',)),
    "slice_v1": ("0.9.0", "current", ('start_indices', 'limit_indices', 'strides')),
    "sort_v1": ("0.9.0", "current", ('dimension', 'is_stable')),
    "sqrt_v1": ("0.9.0", "1.9.0", ()),
    "sqrt_v2": ("1.10.0", "current", ('result_accuracy',)),
    "subtract_v1": ("0.9.0", "current", ()),
    "tan_v1": ("1.4.0", "1.9.0", ()),
    "tan_v2": ("1.10.0", "current", ('result_accuracy',)),
    "tanh_v1": ("0.9.0", "1.9.0", ()),
    "tanh_v2": ("1.10.0", "current", ('result_accuracy',)),
    "torch_index_select_v1": ("0.9.0", "current", ('dim', 'batch_dims')),
    "transpose_v1": ("0.9.0", "current", ('permutation',)),
    "triangular_solve_v1": ("0.9.0", "current", ('left_side', 'lower', 'unit_diagonal', 'transpose_a')),
    "tuple_v1": ("0.9.0", "current", ()),
    "unary_einsum_v1": ("0.9.0", "current", ('einsum_config',)),
    "uniform_dequantize_v1": ("0.9.0", "current", ()),
    "uniform_quantize_v1": ("0.9.0", "current", ()),
    "while_v1": ("0.9.0", "current", ()),
    "xor_v1": ("0.9.0", "current", ()),
}
# fmt: on

# --------------------------------------------------------------------------------------
# VHLO attributes -> StableHLO attributes
# --------------------------------------------------------------------------------------


def _enum_attr(v: VEnum) -> Attribute:
    from xla_opt.dialects.stablehlo.attrs import STABLEHLO_ENUMS

    cls = STABLEHLO_ENUMS[v.kind]
    return cls(cls.enum_type(v.value))  # type: ignore[attr-defined]


def _opaque(name: str, body: str) -> Attribute:
    from xla_opt.dialects.stablehlo.attrs import STABLEHLO_ATTRS

    cls = next(a for a in STABLEHLO_ATTRS if a.name == name)
    return cls(StringAttr(body))  # type: ignore[call-arg]


def _float_text(x: float) -> str:
    return f"{x:e}"


def convert(value: Any) -> Attribute:
    """A VHLO attribute as the StableHLO attribute it stands for (StableHLO's
    `convertGeneric`); a builtin attribute is itself."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, VString):
        return StringAttr(value.value)
    if isinstance(value, VTensor):
        return value.dense()
    if isinstance(value, VInt):
        return IntegerAttr(value.value, value.type)
    if isinstance(value, VArray):
        return ArrayAttr([convert(v) for v in value.items])
    if isinstance(value, VDict):
        out = {}
        for k, v in value.items:
            key = convert(k)
            if not isinstance(key, StringAttr):
                raise BytecodeError(f"a dictionary key that is not a string: {k!r}")
            out[key.data] = convert(v)
        return DictionaryAttr(out)
    if isinstance(value, VBool):
        return BoolAttr.from_bool(value.value)
    if isinstance(value, VEnum):
        if value.kind == "custom_call_api_version":  # an I32EnumAttr: StableHLO prints `2 : i32`
            return IntegerAttr(ENUMS[5][1].index(value.value), IntegerType(32))
        return _enum_attr(value)
    if isinstance(value, VFloat):
        return FloatAttr(value.value, value.type)  # type: ignore[arg-type]
    if isinstance(value, VType):
        return value.type  # a type is an attribute in xDSL (MLIR's TypeAttr)
    if isinstance(value, VOutputOperandAlias):
        body = (
            f"output_tuple_indices = {list(value.output_tuple_indices)}, "
            f"operand_index = {value.operand_index}, operand_tuple_indices = {list(value.operand_tuple_indices)}"
        )
        return _opaque("stablehlo.output_operand_alias", body)
    if isinstance(value, VResultAccuracy):
        mode = value.mode.value if isinstance(value.mode, VEnum) else "DEFAULT"
        fields = [f"atol = {_float_text(value.atol)}"] if value.atol else []
        fields += [f"rtol = {_float_text(value.rtol)}"] if value.rtol else []
        fields += [f"ulps = {value.ulps}"] if value.ulps else []
        fields.append(f"mode = #stablehlo.result_accuracy_mode<{mode}>")
        return _opaque("stablehlo.result_accuracy", ", ".join(fields))
    if isinstance(value, VTypeExtensions):
        return _bounds(value)
    if isinstance(value, VOther):
        raise BytecodeError(f"VHLO attribute '{value.kind}' (mesh-based replica groups, StableHLO 1.16) is not read")
    raise BytecodeError(f"not an attribute: {value!r}")


def _ints(value: Any, what: str) -> list[int]:
    if isinstance(value, VTensor):
        return value.ints()
    raise BytecodeError(f"'{what}' is not an integer tensor: {value!r}")


def _int(value: Any, what: str) -> int:
    if isinstance(value, VInt):
        return value.value
    raise BytecodeError(f"'{what}' is not an integer: {value!r}")


def _i64_array(values: list[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def _bool_array(value: VTensor) -> DenseArrayBase:
    return DenseArrayBase.from_list(i1, [1 if v else 0 for v in value.ints()])


def _is_splat(value: Any, x: int) -> bool:
    if not isinstance(value, VTensor):
        return False
    vals = value.ints()
    return all(v == x for v in vals)


def _is_none_type(value: Any) -> bool:
    return isinstance(value, VType) and isinstance(value.type, NoneType)


def _is_empty(value: Any) -> bool:
    if isinstance(value, VArray | VDict):
        return not value.items
    if isinstance(value, VString):
        return value.value == ""
    if isinstance(value, VTensor):
        return not value.raw
    return False


def _is_default_accuracy(value: Any) -> bool:
    return (
        isinstance(value, VResultAccuracy)
        and value.atol == 0
        and value.rtol == 0
        and value.ulps == 0
        and isinstance(value.mode, VEnum)
        and value.mode.value == "DEFAULT"
    )


def _all_default_precision(value: Any) -> bool:
    return isinstance(value, VArray) and all(isinstance(v, VEnum) and v.value == "DEFAULT" for v in value.items)


# Attributes a newer op version adds, with the value an older version means (VhloToVersion).
_EMPTY_I64 = VTensor(TensorType(i64, [0]), b"")
_NONE = VType(NoneType())
_UPGRADES: dict[str, dict[str, Any]] = {
    "gather": {"operand_batching_dims": _EMPTY_I64, "start_indices_batching_dims": _EMPTY_I64},
    "dynamic_gather": {"operand_batching_dims": _EMPTY_I64, "start_indices_batching_dims": _EMPTY_I64},
    "scatter": {"input_batching_dims": _EMPTY_I64, "scatter_indices_batching_dims": _EMPTY_I64},
    "send": {"source_target_pairs": _EMPTY_I64},
    "recv": {"source_target_pairs": _EMPTY_I64},
    "collective_broadcast": {"has_dynamic_root": VBool(False)},
    "custom_call": {"result_tilings": VArray(())},
    "dot_general": {
        k: _NONE
        for k in (
            "lhs_precision_type",
            "rhs_precision_type",
            "accumulation_type",
            "lhs_component_count",
            "rhs_component_count",
            "num_primitive_operations",
            "allow_imprecise_accumulation",
        )
    },
    "composite": {},
}

# Attributes a newer version no longer has (its upgrade drops them).
_DROPPED: dict[str, tuple[str, ...]] = {"dynamic_conv_v1": ("padding",)}

# Each attribute that StableHLO drops when it has this value (removeDefaults).
_DEFAULTS: dict[str, dict[str, Any]] = {
    "all_gather": {"channel_id": 0, "use_global_device_ids": False},
    "all_reduce": {"channel_id": 0, "use_global_device_ids": False},
    "reduce_scatter": {"channel_id": 0, "use_global_device_ids": False},
    "all_to_all": {"channel_id": 0},
    "collective_permute": {"channel_id": 0},
    "collective_broadcast": {"channel_id": 0, "has_dynamic_root": False},
    "collective_reduce": {"channel_id": 0, "use_global_device_ids": False, "has_dynamic_root": False},
    "cholesky": {"lower": False},
    "compare": {"compare_type": "NOTYPE"},
    "composite": {"version": 0, "composite_attributes": "empty"},
    "convolution": {
        "window_strides": ("splat", 1),
        "padding": ("splat", 0),
        "lhs_dilation": ("splat", 1),
        "rhs_dilation": ("splat", 1),
        "window_reversal": ("splat", 0),
        "precision_config": "default_precision",
    },
    "dynamic_conv": {
        "window_strides": ("splat", 1),
        "lhs_dilation": ("splat", 1),
        "rhs_dilation": ("splat", 1),
        "window_reversal": ("splat", 0),
        "precision_config": "default_precision",
    },
    "custom_call": {
        "has_side_effect": False,
        "backend_config": "empty",
        "api_version": "API_VERSION_ORIGINAL",
        "called_computations": "empty",
        "output_operand_aliases": "empty",
        "result_tilings": "empty",
    },
    "dot_general": {"precision_config": "default_precision"},
    "dot": {"precision_config": "default_precision"},
    "dynamic_broadcast_in_dim": {"known_expanding_dimensions": "empty", "known_nonexpanding_dimensions": "empty"},
    "gather": {"indices_are_sorted": False},
    "dynamic_gather": {"indices_are_sorted": False},
    "infeed": {"infeed_config": "empty", "layout": "empty"},
    "outfeed": {"outfeed_config": "empty"},
    "recv": {"is_host_transfer": False, "source_target_pairs": "empty"},
    "send": {"is_host_transfer": False, "source_target_pairs": "empty"},
    "reduce_window": {
        "window_strides": ("splat", 1),
        "base_dilations": ("splat", 1),
        "window_dilations": ("splat", 1),
        "padding": ("splat", 0),
    },
    "scatter": {"indices_are_sorted": False, "unique_indices": False},
    "select_and_scatter": {"window_strides": ("splat", 1), "padding": ("splat", 0)},
    "sort": {"dimension": -1, "is_stable": False},
    "func": {"sym_visibility": "empty", "arg_attrs": "empty", "res_attrs": "empty"},
}
for _unary in ("cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "rsqrt"):
    _DEFAULTS[_unary] = {"result_accuracy": "default_accuracy"}
for _unary in ("sine", "sqrt", "tan", "tanh"):
    _DEFAULTS[_unary] = {"result_accuracy": "default_accuracy"}


def _is_default(value: Any, default: Any) -> bool:
    if default == "empty":
        return _is_empty(value)
    if default == "default_precision":
        return _all_default_precision(value)
    if default == "default_accuracy":
        return _is_default_accuracy(value)
    if isinstance(default, tuple):
        return _is_splat(value, default[1])
    if isinstance(default, bool):
        return isinstance(value, VBool) and value.value == default
    if isinstance(default, int):
        return isinstance(value, VInt) and value.value == default
    if isinstance(default, str):
        return isinstance(value, VEnum) and value.value == default
    return False


# Attributes StableHLO holds as `array<i64: ...>` (convertDenseI64Array).
_I64_ARRAYS: dict[str, tuple[str, ...]] = {
    "fft": ("fft_length",),
    "broadcast": ("broadcast_sizes",),
    "dynamic_slice": ("slice_sizes",),
    "reverse": ("dimensions",),
    "transpose": ("permutation",),
    "pad": ("edge_padding_low", "edge_padding_high", "interior_padding"),
    "slice": ("start_indices", "limit_indices", "strides"),
    "broadcast_in_dim": ("broadcast_dimensions",),
    "dynamic_broadcast_in_dim": ("broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"),
    "select_and_scatter": ("window_dimensions", "window_strides"),
    "reduce_window": ("window_dimensions", "window_strides", "base_dilations", "window_dilations"),
    "map": ("dimensions",),
    "reduce": ("dimensions",),
    "gather": ("slice_sizes",),
    "convolution": ("lhs_dilation", "rhs_dilation", "window_strides"),
    "dynamic_conv": ("lhs_dilation", "rhs_dilation", "window_strides"),
}

_CONV_FIELDS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
)
_GATHER_FIELDS = (
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
    "index_vector_dim",
)
_SCATTER_FIELDS = (
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
    "index_vector_dim",
)
_DOT_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
)
_ALGORITHM_FIELDS = (
    "lhs_precision_type",
    "rhs_precision_type",
    "accumulation_type",
    "lhs_component_count",
    "rhs_component_count",
    "num_primitive_operations",
    "allow_imprecise_accumulation",
)


def _struct(cls_name: str, fields: dict[str, Attribute]) -> Attribute:
    from xla_opt.dialects.stablehlo import attrs

    return getattr(attrs, cls_name).from_fields(**fields)


def _dims_fields(values: dict[str, Any], names: tuple[str, ...], scalar: tuple[str, ...] = ()) -> dict[str, Attribute]:
    """A structured attribute's fields, as StableHLO prints them (empty lists left out)."""
    out: dict[str, Attribute] = {}
    for name in names:
        if name not in values:
            raise BytecodeError(f"attribute '{name}' is missing")
        v = values.pop(name)
        if name in scalar:
            out[name] = IntegerAttr(_int(v, name), i64)
        else:
            ints = _ints(v, name)
            if ints:
                out[name] = _i64_array(ints)
    return out


def _implode(base: str, values: dict[str, Any]) -> dict[str, Attribute]:
    """The attributes StableHLO gathers into one (implodeSpecial)."""
    out: dict[str, Attribute] = {}
    if base in ("convolution", "dynamic_conv"):
        fields: dict[str, Attribute] = {}
        for name in _CONV_FIELDS:
            if name not in values:
                raise BytecodeError(f"attribute '{name}' is missing")
            v = values.pop(name)
            fields[name] = (
                _i64_array(_ints(v, name)) if name.endswith("dimensions") else IntegerAttr(_int(v, name), i64)
            )
        out["dimension_numbers"] = _struct("ConvDimensionNumbersAttr", fields)
    elif base == "dot_general":
        out["dot_dimension_numbers"] = _struct("DotDimensionNumbersAttr", _dims_fields(values, _DOT_FIELDS))
        algorithm = {k: values.pop(k) for k in _ALGORITHM_FIELDS if k in values}
        if algorithm and not all(_is_none_type(v) for v in algorithm.values()):
            fields = {}
            for k, v in algorithm.items():
                if isinstance(v, VType):
                    fields[k] = v.type
                elif isinstance(v, VInt):
                    fields[k] = IntegerAttr(v.value, i64)
                elif isinstance(v, VBool):
                    fields[k] = BoolAttr.from_bool(v.value)
                else:
                    raise BytecodeError(f"dot algorithm field '{k}' is {v!r}")
            out["algorithm"] = _struct("DotAlgorithmAttr", fields)
    elif base in ("gather", "dynamic_gather"):
        out["dimension_numbers"] = _struct(
            "GatherDimensionNumbersAttr", _dims_fields(values, _GATHER_FIELDS, ("index_vector_dim",))
        )
    elif base == "scatter":
        out["scatter_dimension_numbers"] = _struct(
            "ScatterDimensionNumbersAttr", _dims_fields(values, _SCATTER_FIELDS, ("index_vector_dim",))
        )
    elif base in ("send", "recv"):
        handle = _int(values.pop("channel_id"), "channel_id")
        kind = _int(values.pop("channel_type"), "channel_type")
        out["channel_handle"] = _struct(
            "ChannelHandleAttr", {"handle": IntegerAttr(handle, i64), "type": IntegerAttr(kind, i64)}
        )
    return out


def _special(base: str, name: str, value: Any) -> tuple[str, Attribute] | None:
    """One attribute that is not converted one to one (convertSpecial), or None."""
    if name == "channel_id" and base in (
        "all_gather",
        "all_reduce",
        "all_to_all",
        "collective_permute",
        "reduce_scatter",
        "collective_broadcast",
        "collective_reduce",
    ):
        handle = {"handle": IntegerAttr(_int(value, name), i64), "type": IntegerAttr(0, i64)}
        return "channel_handle", _struct("ChannelHandleAttr", handle)
    if name in ("use_global_device_ids", "has_dynamic_root") and isinstance(value, VBool):
        return (name, UnitAttr()) if value.value else (name, None)  # type: ignore[return-value]
    if base == "custom_call" and name == "called_computations":
        return name, ArrayAttr([SymbolRefAttr(_string(v, name)) for v in _items(value, name)])
    if base == "composite" and name == "decomposition":
        return name, SymbolRefAttr(_string(value, name))
    if name in _I64_ARRAYS.get(base, ()):
        return name, _i64_array(_ints(value, name))
    if base in ("convolution", "dynamic_conv") and name == "window_reversal":
        if not isinstance(value, VTensor):
            raise BytecodeError(f"'{name}' is not a tensor: {value!r}")
        return name, _bool_array(value)
    return None


def _items(value: Any, what: str) -> tuple[Any, ...]:
    if isinstance(value, VArray):
        return value.items
    raise BytecodeError(f"'{what}' is not an array: {value!r}")


def _string(value: Any, what: str) -> str:
    if isinstance(value, VString):
        return value.value
    raise BytecodeError(f"'{what}' is not a string: {value!r}")


_VERSIONED = re.compile(r"^(.*)_v(\d+)$")


def stablehlo_attributes(base: str, values: dict[str, Any], memo: dict | None = None) -> dict[str, Attribute]:
    """An op's VHLO attributes (every one its version has, with an older version's
    upgraded) as StableHLO's. `memo` keeps the result for the same attribute values
    (each value read once from the bytecode, so its identity names it)."""
    if memo is not None:
        key = (base, *sorted((k, id(v)) for k, v in values.items()))
        done = memo.get(key)
        if done is None:
            done = memo[key] = stablehlo_attributes(base, values)
        return dict(done)
    values = dict(values)
    for name, default in _DEFAULTS.get(base, {}).items():
        if name in values and _is_default(values[name], default):
            del values[name]
    if base == "custom_call" and _is_empty(values.get("operand_layouts")) and _is_empty(values.get("result_layouts")):
        values.pop("operand_layouts", None)
        values.pop("result_layouts", None)
    out = _implode(base, values)
    for name, value in values.items():
        special = _special(base, name, value)
        if special is not None:
            key, attr = special
            if attr is not None:
                out[key] = attr
            continue
        out[name] = convert(value)
    return out


class VhloCodec(DialectCodec):
    name = "vhlo"

    def __init__(self) -> None:
        self.memo: dict = {}  # (op, attribute identities) -> StableHLO attributes

    def read_attribute(self, r: EntryReader) -> Any:
        code = r.varint()
        read = _VHLO_ATTRS.get(code)
        if read is not None:
            return read(r)
        if code in ENUMS:
            return _read_enum(r, code)
        raise r.error(f"unknown VHLO attribute code {code} (this reader knows StableHLO up to 1.20)")

    def read_type(self, r: EntryReader) -> Any:
        code = r.varint()
        read = _VHLO_TYPES.get(code)
        if read is None:
            raise r.error(f"unknown VHLO type code {code} (this reader knows StableHLO up to 1.20)")
        return read(r)

    def read_properties(self, op: str, r: EntryReader) -> dict[str, Any]:
        spec = VHLO_OPS.get(op.removeprefix("vhlo."))
        if spec is None:
            raise r.error(f"unknown VHLO op '{op}' (this reader knows StableHLO up to 1.20)")
        # ODS writes properties in the order of their names, each required here
        return {name: r.attribute() for name in sorted(spec[2])}

    def build_op(self, parts: OpParts, reader: BytecodeReader) -> Operation:
        mnemonic = parts.name.removeprefix("vhlo.")
        spec = VHLO_OPS.get(mnemonic)
        if spec is None:
            raise BytecodeError(f"unknown VHLO op '{parts.name}' (this reader knows StableHLO up to 1.20)")
        m = _VERSIONED.match(mnemonic)
        base = m.group(1) if m else mnemonic
        inherent = set(spec[2])
        if parts.properties is not None:
            values = dict(parts.properties)
            discardable = dict(parts.attributes)
        else:  # before StableHLO 0.15 (bytecode 6): attributes, all in one dictionary
            values = {k: v for k, v in parts.attributes.items() if k in inherent}
            discardable = {k: v for k, v in parts.attributes.items() if k not in inherent}
        missing = inherent - set(values)
        if missing:
            raise BytecodeError(f"'{parts.name}' lacks attribute(s) {', '.join(sorted(missing))}")
        for name, value in _UPGRADES.get(base, {}).items():
            values.setdefault(name, value)
        for name in _DROPPED.get(mnemonic, ()):
            values.pop(name, None)
        try:
            props = stablehlo_attributes(base, values, self.memo)
            attrs = {k: convert(v) for k, v in discardable.items()}
        except BytecodeError as e:
            raise BytecodeError(f"'{parts.name}': {e}") from None
        op = self._make(base, parts, props, attrs)
        op.location = parts.location if isinstance(parts.location, Attribute) else op.location
        return op

    def _make(self, base: str, parts: OpParts, props: dict[str, Attribute], attrs: dict[str, Attribute]) -> Operation:
        if base == "func":
            ft = props.get("function_type")
            if not isinstance(ft, FunctionType):
                raise BytecodeError(f"vhlo.func_v1's function_type is not a function type: {ft}")
            return func.FuncOp.create(properties=props, attributes=attrs, regions=parts.regions)
        if base == "call":
            return func.CallOp.create(
                operands=parts.operands,
                result_types=parts.result_types,
                properties={
                    "callee": props["callee"]
                    if isinstance(props["callee"], SymbolRefAttr)
                    else SymbolRefAttr(props["callee"])
                },  # type: ignore[arg-type]
                attributes=attrs,
            )
        if base == "return" and isinstance(parts.parent, func.FuncOp):
            return func.ReturnOp.create(operands=parts.operands, attributes=attrs)
        from xla_opt.dialects.stablehlo.ops import STABLEHLO_OPS

        cls = STABLEHLO_OPS.get(base)
        if cls is None:
            raise BytecodeError(f"VHLO op '{parts.name}' has no StableHLO op here")
        return cls.create(
            operands=parts.operands,
            result_types=parts.result_types,
            properties=props,
            attributes=attrs,
            regions=parts.regions,
        )


def producer_version(producer: str) -> tuple[int, int, int] | None:
    """`StableHLO_v1.15.0` -> (1, 15, 0)."""
    m = re.match(r"StableHLO_v(\d+)\.(\d+)\.(\d+)", producer)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


__all__ = ["VHLO_OPS", "VhloCodec", "convert", "producer_version", "stablehlo_attributes"]
