"""convert-stablehlo-to-xla: gather and scatter (batching dimensions become explicit iota indices)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, TensorType
from xdsl.ir import SSAValue
from xla_opt.dialects import xla
from xla_opt.dialects.shapes.common import ShapeError
from xla_opt.dialects.shapes.gather_scatter import check_batching_dims
from xla_opt.dialects.xla import elementwise as xe
from xla_opt.dialects.xla import shape_ops as xs

from .common import (
    Builder,
    Patterns,
    bool_of,
    check_isolated,
    constant_ints,
    elem,
    fail,
    field,
    i64_array,
    i64_attr,
    int_of,
    ints,
    prop,
    result_types,
    shape,
    take_regions,
)

PATTERNS = Patterns()


def _unbatch_indices(
    b: Builder, indices: SSAValue, index_vector_dim: int, batching_dims: Sequence[int]
) -> tuple[SSAValue, int]:
    """Gather/scatter batching dimensions as explicit indices: an iota along each
    indices batching dimension is appended to the index vectors (which become an
    explicit dimension when index_vector_dim is the rank). Returns the new indices
    and index_vector_dim."""
    dims = list(shape(indices))
    e = elem(indices)
    if index_vector_dim == len(dims):
        dims.append(1)
        indices = b.one(xs.ReshapeOp, [indices], TensorType(e, dims))
    iota_shape = list(dims)
    iota_shape[index_vector_dim] = 1
    parts = [indices]
    for d in batching_dims:
        parts.append(b.one(xe.IotaOp, [], TensorType(e, iota_shape), {"iota_dimension": i64_attr(d)}))
    total = list(dims)
    total[index_vector_dim] = dims[index_vector_dim] + len(batching_dims)
    out = b.one(
        xs.ConcatenateOp, [parts], TensorType(e, total), {"dimension": i64_attr(index_vector_dim)}
    )
    return out, index_vector_dim


def _check_batching(op, operand, indices, operand_batching, indices_batching, index_vector_dim, names) -> None:
    """StableHLO's batching rules (the xla ops have no batching dims to verify them)."""
    try:
        check_batching_dims(shape(operand), shape(indices), operand_batching, indices_batching, index_vector_dim, names)
    except ShapeError as e:
        fail(op, str(e))


@PATTERNS.rule("stablehlo.gather")
def _gather(op, b):
    return _gather_slices(op, b, ints(prop(op, "slice_sizes")))


@PATTERNS.rule("stablehlo.dynamic_gather")
def _dynamic_gather(op, b):
    """dynamic_gather: a gather whose slice sizes are its third operand; constant
    sizes are the static gather's."""
    return _gather_slices(op, b, constant_ints(op, op.operands[2], "the slice sizes"))


def _gather_slices(op, b, slice_sizes: list[int]):
    key = "dimension_numbers"
    operand, indices = op.operands[:2]
    index_vector_dim = int_of(field(op, key, "index_vector_dim"), 0)
    collapsed = ints(field(op, key, "collapsed_slice_dims"))
    start_index_map = ints(field(op, key, "start_index_map"))
    operand_batching = ints(field(op, key, "operand_batching_dims"))
    indices_batching = ints(field(op, key, "start_indices_batching_dims"))
    _check_batching(op, operand, indices, operand_batching, indices_batching, index_vector_dim,
                    ("operand_batching_dims", "start_indices_batching_dims"))  # fmt: skip
    if operand_batching:
        # batching dimensions: explicit iota indices into collapsed operand dimensions
        indices, index_vector_dim = _unbatch_indices(b, indices, index_vector_dim, indices_batching)
        collapsed = sorted([*collapsed, *operand_batching])
        start_index_map = [*start_index_map, *operand_batching]
    props = {
        "offset_dims": i64_array(ints(field(op, key, "offset_dims"))),
        "collapsed_slice_dims": i64_array(collapsed),
        "start_index_map": i64_array(start_index_map),
        "index_vector_dim": i64_attr(index_vector_dim),
        "slice_sizes": i64_array(slice_sizes),
    }
    if prop(op, "indices_are_sorted") is not None:
        props["indices_are_sorted"] = BoolAttr.from_bool(bool_of(prop(op, "indices_are_sorted")))
    return b.build(xla.GatherOp, [operand, indices], result_types(op), props).results


@PATTERNS.rule("stablehlo.scatter")
def _scatter(op, b):
    key = "scatter_dimension_numbers"
    n = (len(op.operands) - 1) // 2
    indices = op.operands[n]
    index_vector_dim = int_of(field(op, key, "index_vector_dim"), 0)
    inserted = ints(field(op, key, "inserted_window_dims"))
    to_operand = ints(field(op, key, "scatter_dims_to_operand_dims"))
    input_batching = ints(field(op, key, "input_batching_dims"))
    indices_batching = ints(field(op, key, "scatter_indices_batching_dims"))
    _check_batching(op, op.operands[0], indices, input_batching, indices_batching, index_vector_dim,
                    ("input_batching_dims", "scatter_indices_batching_dims"))  # fmt: skip
    if input_batching:
        indices, index_vector_dim = _unbatch_indices(b, indices, index_vector_dim, indices_batching)
        inserted = sorted([*inserted, *input_batching])
        to_operand = [*to_operand, *input_batching]
    props = {
        "update_window_dims": i64_array(ints(field(op, key, "update_window_dims"))),
        "inserted_window_dims": i64_array(inserted),
        "scatter_dims_to_operand_dims": i64_array(to_operand),
        "index_vector_dim": i64_attr(index_vector_dim),
    }
    for name in ("indices_are_sorted", "unique_indices"):
        if prop(op, name) is not None:
            props[name] = BoolAttr.from_bool(bool_of(prop(op, name)))
    check_isolated(op)
    operands = [list(op.operands[:n]), indices, list(op.operands[n + 1 :])]
    return b.build(xla.ScatterOp, operands, result_types(op), props, take_regions(op)).results
