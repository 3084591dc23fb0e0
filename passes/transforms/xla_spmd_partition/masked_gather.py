"""A gather from an operand sharded along a dimension its indices pick single rows of
(an embedding lookup from a vocabulary-sharded table), computed where the rows are.

Each device holds rows [offset, offset + L) of that dimension. It clamps each index to
the global bounds, as XLA's gather clamps its start indices (so that exactly one device
holds the row every index means), makes it local (less the offset), gathers with it
(where it is out of [0, L) the clamped local gather reads a wrong row), and replaces
those rows by zeros. The gather's rule (rules.py) makes the picked dimension a
reduction, so the sum over its axes that follows gives every device the row from the
one that holds it: the value plus zeros, exact. This is GSPMD's partitioning of a
gather over "trivially sliced" operand dimensions.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, i1, i64
from xdsl.ir import Attribute, SSAValue

from xla_opt.dialects import xla
from xla_opt.dialects.xla.element_types import elem_of, is_float, shape_of, tensor
from xla_opt.dialects.xla.elementwise import ComparisonDirection, ComparisonDirectionAttr
from xla_opt.dialects.xla.properties import i64_array

from .model import Mesh, Sharding


def local_indices(
    emit: object, op: xla.GatherOp, indices: SSAValue, operand: Sharding, picked: Sequence[int], mesh: Mesh
) -> tuple[SSAValue, SSAValue]:
    """`indices` (the device's shard) with the components of the `picked` operand
    dimensions made local to `operand`'s shard, and whether each index's rows are held
    here (booleans of the indices' batch shape)."""
    e = _Ops(emit)
    shape = list(shape_of(indices.type))
    element = elem_of(indices.type)
    vector_dim = op.get_index_vector_dim()
    explicit = vector_dim < len(shape)
    index_map = op.get_start_index_map()
    global_shape = shape_of(op.operand.type)
    local_shape = operand.local_shape(global_shape, mesh)
    part_shape = [*shape]
    if explicit:
        part_shape[vector_dim] = 1
    held: SSAValue | None = None
    for d in picked:
        k = index_map.index(d)
        part = e.component(indices, vector_dim, k) if explicit else indices
        wide = e.convert(part, i64)  # signed and wide: unsigned or narrow indices alike
        clamped = e.clamp(e.full(0, part_shape, i64), wide, e.full(global_shape[d] - 1, part_shape, i64))
        offsets = [operand.offsets(device, global_shape, mesh)[d] for device in range(mesh.size)]
        offset = e.broadcast(e.convert(emit.per_device(offsets), i64), part_shape, [])  # type: ignore[attr-defined]
        local = e.binary(xla.SubtractOp, clamped, offset)
        inside = e.binary(
            xla.AndOp,
            e.compare(local, ComparisonDirection.GE, e.full(0, part_shape, i64)),
            e.compare(local, ComparisonDirection.LT, e.full(local_shape[d], part_shape, i64)),
        )
        held = inside if held is None else e.binary(xla.AndOp, held, inside)
        indices = (
            e.replace_component(indices, vector_dim, k, e.convert(local, element))
            if explicit
            else e.convert(local, element)
        )
    assert held is not None
    if explicit:
        batch = [n for i, n in enumerate(shape) if i != vector_dim]
        held = e.reshape(held, batch)
    return indices, held


def zero_unheld(emit: object, op: xla.GatherOp, result: SSAValue, held: SSAValue) -> SSAValue:
    """The local gather's `result` with the rows of indices not `held` here zeroed."""
    e = _Ops(emit)
    shape = list(shape_of(result.type))
    batch_dims = [d for d in range(len(shape)) if d not in op.get_offset_dims()]
    mask = e.broadcast(held, shape, batch_dims)
    element = elem_of(result.type)
    zeros = e.full(0.0 if is_float(element) else 0, shape, element)
    return emit.add(xla.SelectOp.build(operands=[mask, result, zeros], result_types=[result.type])).results[0]  # type: ignore[attr-defined]


class _Ops:
    """The few ops the masked gather emits, appended by the partitioner's emitter."""

    def __init__(self, emit: object) -> None:
        self.emit = emit

    def add(self, op: object) -> SSAValue:
        return self.emit.add(op).results[0]  # type: ignore[attr-defined]

    def full(self, value: float, shape: Sequence[int], element: Attribute) -> SSAValue:
        scalar = tensor((), element)
        constant = self.add(
            xla.ConstantOp.build(
                properties={"value": DenseIntOrFPElementsAttr.from_list(scalar, [value])}, result_types=[scalar]
            )
        )
        return self.broadcast(constant, shape, [])

    def broadcast(self, value: SSAValue, shape: Sequence[int], dims: Sequence[int]) -> SSAValue:
        t = tensor(shape, elem_of(value.type))
        if value.type == t:
            return value
        return self.add(
            xla.BroadcastInDimOp.build(
                operands=[value], result_types=[t], properties={"broadcast_dimensions": i64_array(dims)}
            )
        )

    def convert(self, value: SSAValue, element: Attribute) -> SSAValue:
        if elem_of(value.type) == element:
            return value
        return self.add(xla.ConvertOp.build(operands=[value], result_types=[tensor(shape_of(value.type), element)]))

    def reshape(self, value: SSAValue, shape: Sequence[int]) -> SSAValue:
        return self.add(xla.ReshapeOp.build(operands=[value], result_types=[tensor(shape, elem_of(value.type))]))

    def binary(self, cls: type, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(cls.build(operands=[a, b], result_types=[a.type]))

    def clamp(self, low: SSAValue, value: SSAValue, high: SSAValue) -> SSAValue:
        return self.add(xla.ClampOp.build(operands=[low, value, high], result_types=[value.type]))

    def compare(self, a: SSAValue, direction: ComparisonDirection, b: SSAValue) -> SSAValue:
        return self.add(
            xla.CompareOp.build(
                operands=[a, b],
                result_types=[tensor(shape_of(a.type), i1)],
                properties={"comparison_direction": ComparisonDirectionAttr(direction)},
            )
        )

    def component(self, value: SSAValue, dim: int, k: int) -> SSAValue:
        """Entries [k, k + 1) of `value` along `dim`."""
        shape = list(shape_of(value.type))
        if shape[dim] == 1:
            return value
        starts, limits = [0] * len(shape), list(shape)
        starts[dim], limits[dim] = k, k + 1
        shape[dim] = 1
        return self.add(
            xla.SliceOp.build(
                operands=[value],
                result_types=[tensor(shape, elem_of(value.type))],
                properties={
                    "start_indices": i64_array(starts),
                    "limit_indices": i64_array(limits),
                    "strides": i64_array([1] * len(shape)),
                },
            )
        )

    def replace_component(self, value: SSAValue, dim: int, k: int, part: SSAValue) -> SSAValue:
        """`value` with entries [k, k + 1) along `dim` replaced by `part`."""
        count = shape_of(value.type)[dim]
        pieces = [self.component(value, dim, j) if j != k else part for j in range(count)]
        if len(pieces) == 1:
            return part
        return self.add(
            xla.ConcatenateOp.build(
                operands=[pieces], result_types=[value.type], properties={"dimension": IntegerAttr(dim, i64)}
            )
        )
